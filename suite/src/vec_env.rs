//! [`VecEnv`]: many worlds stepped in one call, for training: the suite's tasks, or any
//! [`World`] (a host's own, written in Rust, in C or in Python through the C library).
//!
//! Each of the `n` environments is an [`Agent`] over a world, with a workspace of the chosen
//! capacities (the suite's [`CAPACITIES`] for its tasks) and decisions from outside
//! ([`External`]): a step is [`Agent::step_with`], the path every agent takes. One
//! [`VecEnv::step`] takes one template index per environment and writes, into the caller's
//! buffers, each environment's next observation (structured-v1, `obs_len` floats), its mask
//! (`actions` bytes, 1 = legal), the step's reward ([`super::reward`]) and a done flag. An
//! environment whose episode ended is reset at once with its next seed (its observation is then
//! the new episode's first), and the ended episode's stats are kept for
//! [`VecEnv::last_episode`]. Experience carries over between the episodes of one environment.
//!
//! For the suite ([`VecEnv::new`]), environment `i` runs organisation
//! `organisations.start + i % organisations.len()` and, for its `k`-th episode, seed
//! `seed + i + k·n`: deterministic for a given `(seed, n, organisations)`. With groups
//! ([`VecEnv::grouped`], for group-relative policy optimisation) the `group` environments
//! `g·group` to `g·group + group − 1` all run group `g`'s organisation and seeds instead:
//! `organisations.start + g % organisations.len()` and `seed + g + k·(n / group)`. Any other
//! worlds ([`VecEnv::from_worlds`]) get the same seeds; their budget, costs and capacities are
//! the caller's ([`WorldsConfig`]), their episodes' success and violations their judge's.
//!
//! [`VecEnv::copy_env`] makes one environment an exact copy of another mid-episode, for
//! branching rollouts (try another action in the copy, compare returns under the same draws).
//!
//! After construction a step allocates nothing in this crate (a world may), except where an
//! agent's lifetime ends ([`VecEnv::set_lifetime`]).

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;

use evoharness_core::obs::Template;
use evoharness_core::{Capacities, Costs, Outcome};
use evoharness_runtime::rng::SplitMix64;
use evoharness_runtime::{
    Agent, AgentConfig, Controller, Decision, Error, ErrorKind, External, Result, Selection, View,
    World,
};

use crate::baselines::{LeanHarness, Oracle, StaticHarness, TunedHarness};
use crate::episode::{Durable, Score, agent_config};
use crate::intent::{self, Intent};
use crate::world::SuiteWorld;
use crate::{CAPACITIES, EpisodeStats, TaskConfig};

/// One environment of a [`VecEnv`].
pub type Env<W = SuiteWorld> = Agent<W, External>;

/// A rule-based agent whose choice can be asked for in any state, for imitation learning
/// ([`VecEnv::teacher_actions`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Teacher {
    /// [`LeanHarness`]: sees only what a policy sees, so a policy can imitate it exactly.
    Lean,
    /// [`Oracle`]: reads the hidden state; an upper bound, not fully imitable.
    Oracle,
    /// [`StaticHarness::imitable`]: the harness-heavy rule (it tracks every changed field and
    /// checkpoints every landing), the starting point of harness annealing, without the
    /// recalls that find nothing (no policy could imitate those). It keeps an agenda, so each
    /// environment keeps a copy of it that follows the actions actually taken (see
    /// [`VecEnv::teacher_actions`]).
    Static,
    /// [`StaticHarness::over_lean`]: the static harness's bookkeeping (the same harness actions
    /// as [`Teacher::Static`]) around the lean rule's world actions, which need few of them.
    /// Kept through an agenda like the static teacher's.
    StaticLean,
    /// [`TunedHarness`]: the best rule for v2 tasks (recalls from the experience store, the
    /// organisation's favourite remedy first); sees only what a policy sees.
    Tuned,
    /// The fixed-best setting of the tuned rule's knobs for v3 deployments
    /// ([`FIXED_BEST`](crate::tune::FIXED_BEST)): one rule for every deployment, tuned on
    /// training organisations, that keeps the deployment's card in Belief without acting on
    /// it ([`TunedHarness::with_card`]), so that its imitator has the card at hand.
    FixedBest,
    /// v3: in each environment, the setting of [`SEARCH_SPACE`](crate::tune::SEARCH_SPACE)
    /// that earns the most in its own organisation
    /// ([`tune::retune_among`](crate::tune::retune_among), on episodes of that organisation no
    /// evaluation uses), keeping the card like [`Teacher::FixedBest`]. It reads no card: what
    /// it knows of a deployment it measured, as reward. Imitated across many organisations it
    /// is policy improvement by search (the best behaviour per deployment, by return),
    /// distilled into one policy that must find it from the card alone. The first request in
    /// an organisation tunes it (a few milliseconds), later ones reuse that.
    Retuned,
}

/// What [`VecEnv::teacher_actions`] writes for an environment where the teacher has no legal
/// action (a state only a learner's own mistakes reach).
pub const NO_LABEL: u32 = u32::MAX;

/// The arrays one [`VecEnv::step`] reads and writes, sized for a given [`VecEnv`]
/// ([`VecEnv::buffers`]): for callers that keep them together ([`VecEnv::step_into`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Buffers {
    /// One template index per environment, read by a step (a teacher's labels can be written
    /// here: [`VecEnv::teacher_actions`]).
    pub actions: Vec<u32>,
    /// Each environment's observation, `obs_len` floats.
    pub obs: Vec<f32>,
    /// Each environment's mask, `actions` bytes (1 = legal).
    pub mask: Vec<u8>,
    /// Each environment's reward for the last step.
    pub reward: Vec<f32>,
    /// 1 where the last step ended the environment's episode.
    pub done: Vec<u8>,
}

/// How [`VecEnv::from_worlds`] sets up environments over the caller's worlds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldsConfig {
    /// The workspace capacities; `tools` must be the worlds' tool count.
    pub capacities: Capacities,
    /// The step budget of an episode.
    pub budget: u32,
    /// What each verb costs.
    pub costs: Costs,
    /// Seeds the episodes (see the [module docs](self)).
    pub seed: u64,
    /// Environments per group that run the same seeds (1: no groups); must divide `n`.
    pub group: usize,
}

impl WorldsConfig {
    /// The suite's capacities with `tools` tools, a budget of `budget`, the default costs
    /// (every verb 1, `finish` 0), seed 0, no groups.
    pub fn new(tools: u16, budget: u32) -> Self {
        Self {
            capacities: Capacities {
                tools,
                ..CAPACITIES
            },
            budget,
            costs: Costs::default(),
            seed: 0,
            group: 1,
        }
    }
}

/// Many environments; see the [module docs](self).
pub struct VecEnv<W = SuiteWorld> {
    agents: Vec<Env<W>>,
    /// One [`StaticHarness::imitable`] and one [`StaticHarness::over_lean`] per environment
    /// over the suite's worlds (empty for other worlds), advanced by the actions taken: their
    /// agendas are the `static` and `static-lean` teachers' state.
    statics: Vec<[StaticHarness; 2]>,
    scores: Vec<Score>,
    episodes: Vec<u64>,
    last: Vec<Option<EpisodeStats>>,
    seed: u64,
    group: usize,
    obs_len: usize,
    actions: usize,
    /// Episodes an environment's agent lives for (0: forever); see [`VecEnv::set_lifetime`].
    lifetime: u64,
    /// The organisations a suite environment moves through as its agents are renewed.
    organisations: Range<u64>,
    /// v3 suite worlds: each environment's durable state, which a crash rolls its agent back
    /// to (empty for other worlds).
    durables: Vec<Durable>,
    /// The [`Teacher::Retuned`] rule of each organisation asked for so far.
    retuned: RefCell<HashMap<u64, TunedHarness>>,
}

fn check_groups(n: usize, group: usize) -> Result<()> {
    if group == 0 || !n.is_multiple_of(group) {
        return Err(Error::new(
            ErrorKind::Config,
            format!("groups of {group} do not divide {n} environments"),
        ));
    }
    if n == 0 {
        return Err(Error::new(
            ErrorKind::Config,
            "a VecEnv needs at least one environment",
        ));
    }
    Ok(())
}

impl VecEnv<SuiteWorld> {
    /// `n` environments (at least 1) of `task`, in organisations `organisations` (not empty),
    /// seeded from `seed`. Their first episodes start at once: read them with
    /// [`VecEnv::observe`].
    pub fn new(task: TaskConfig, n: usize, organisations: Range<u64>, seed: u64) -> Result<Self> {
        Self::grouped(task, n, 1, organisations, seed)
    }

    /// Like [`VecEnv::new`], in groups of `group` environments that run the same organisation
    /// and the same sequence of seeds (see the [module docs](self)); `group` must divide `n`.
    pub fn grouped(
        task: TaskConfig,
        n: usize,
        group: usize,
        organisations: Range<u64>,
        seed: u64,
    ) -> Result<Self> {
        check_groups(n, group)?;
        if organisations.is_empty() {
            return Err(Error::new(
                ErrorKind::Config,
                "a VecEnv needs at least one organisation",
            ));
        }
        let norg = organisations.end - organisations.start;
        let worlds = (0..n)
            .map(|i| SuiteWorld::new(task, organisations.start + (i / group) as u64 % norg))
            .collect();
        // Each agent pays its world's prices: in v3 its organisation's deployment's.
        let costs = |w: &SuiteWorld| w.config().costs();
        let mut v = Self::build(worlds, CAPACITIES, agent_config(&task, seed), &costs, group)?;
        // v3: and a durable state for its crashes.
        if task.scenario == crate::Scenario::V3 {
            v.durables = v.agents.iter().map(Durable::new).collect::<Result<_>>()?;
        }
        v.organisations = organisations;
        // v2: each environment's agent has its own experience store, kept across its episodes
        // (all of one organisation), as an agent of eval has.
        for a in &mut v.agents {
            if let Some(store) = task.store() {
                a.set_experience_store(store);
            }
        }
        Ok(v)
    }

    /// Writes, for every environment, the template `teacher` would choose in its current state
    /// (the one its last observation shows): labels for imitation, such as DAgger's on states
    /// a learning policy visits. Where the teacher's choice is not a legal template there (a
    /// state only a learner's mistakes reach), [`NO_LABEL`]. Allocation-free, but for
    /// [`Teacher::Retuned`]'s first request in an organisation (which tunes it).
    ///
    /// The lean harness and the oracle decide from the state alone. The static harness works
    /// through an agenda that each event sets; each environment's copy of it moves on when the
    /// action taken is the one it would have chosen, and starts a new agenda at each event, so
    /// its labels hold on a learner's trajectories too.
    pub fn teacher_actions(&self, teacher: Teacher, out: &mut [u32]) -> Result<()> {
        self.check_len("out", out, 1)?;
        // The rules draw nothing at random.
        let mut rng = SplitMix64(0);
        for (i, r) in self.agents.iter().enumerate() {
            let view = r.view();
            let d = match teacher {
                Teacher::Lean => LeanHarness.decide(&view, &mut rng),
                Teacher::Oracle => Oracle.decide(&view, &mut rng),
                Teacher::Static => self.statics[i][0].clone().decide(&view, &mut rng),
                Teacher::StaticLean => self.statics[i][1].clone().decide(&view, &mut rng),
                Teacher::Tuned => TunedHarness::default().decide(&view, &mut rng),
                Teacher::FixedBest => TunedHarness::parse(crate::tune::FIXED_BEST)
                    .unwrap_or_default()
                    .with_card()
                    .decide(&view, &mut rng),
                Teacher::Retuned => self.retuned(r.world())?.decide(&view, &mut rng),
            };
            out[i] = match d {
                Ok(d @ Decision::Template(t)) if r.check(&d).is_ok() => t as u32,
                _ => NO_LABEL,
            };
        }
        Ok(())
    }
}

impl VecEnv<SuiteWorld> {
    /// The [`Teacher::Retuned`] rule of `world`'s organisation, tuned on first request.
    fn retuned(&self, world: &SuiteWorld) -> Result<TunedHarness> {
        let o = world.organisation();
        if let Some(rule) = self.retuned.borrow().get(&o) {
            return Ok(*rule);
        }
        let space = crate::tune::search_space();
        let rule = crate::tune::retune_among(*world.config(), o, u64::MAX, &space)?.with_card();
        self.retuned.borrow_mut().insert(o, rule);
        Ok(rule)
    }
}

impl<W: World + 'static> VecEnv<W> {
    /// One environment per world in `worlds` (at least 1, all with `config.capacities.tools`
    /// tools), with the workspace capacities, budget and costs of `config` and the seeds of the
    /// [module docs](self). Their first episodes start at once: read them with
    /// [`VecEnv::observe`]. A world that fails to reset ([`World::take_failure`]) is refused
    /// with its error.
    pub fn from_worlds(worlds: Vec<W>, config: WorldsConfig) -> Result<Self> {
        check_groups(worlds.len(), config.group)?;
        let agent = AgentConfig {
            budget: config.budget,
            costs: config.costs,
            selection: Selection::Argmax,
            seed: config.seed,
        };
        Self::build(
            worlds,
            config.capacities,
            agent,
            &|_| config.costs,
            config.group,
        )
    }

    /// The environments' agents, each with `config` but `costs(its world)`.
    fn build(
        worlds: Vec<W>,
        capacities: Capacities,
        config: AgentConfig,
        costs: &dyn Fn(&W) -> Costs,
        group: usize,
    ) -> Result<Self> {
        let n = worlds.len();
        let mut agents = Vec::with_capacity(n);
        let mut scores = Vec::with_capacity(n);
        let groups = (n / group) as u64;
        for (i, world) in worlds.into_iter().enumerate() {
            let g = (i / group) as u64;
            let config = AgentConfig {
                seed: episode_seed(config.seed, g, groups, 0),
                costs: costs(&world),
                ..config
            };
            let agent = Agent::new(External(capacities), world, config)
                .map_err(|e| Error::new(e.kind(), format!("environment {i}: {e}")))?;
            if let Some(e) = agent.world().take_failure() {
                return Err(Error::new(e.kind(), format!("environment {i}: {e}")));
            }
            scores.push(Score::begin(&agent));
            agents.push(agent);
        }
        let layout = *agents[0].layout();
        let mut statics = Vec::new();
        if (agents[0].world() as &dyn Any).is::<SuiteWorld>() {
            statics.resize(n, [StaticHarness::imitable(), StaticHarness::over_lean()]);
            for (s, a) in statics.iter_mut().zip(&agents) {
                s.iter_mut().for_each(|s| follow_begin(s, a));
            }
        }
        Ok(Self {
            agents,
            statics,
            scores,
            episodes: vec![0; n],
            last: vec![None; n],
            seed: config.seed,
            group,
            obs_len: layout.obs_len(),
            actions: layout.actions(),
            lifetime: 0,
            organisations: 0..0,
            durables: Vec::new(),
            retuned: RefCell::default(),
        })
    }

    /// Gives every environment's agent a lifetime of `episodes` episodes (0, the default:
    /// forever). When an environment has finished a multiple of `episodes` episodes, its
    /// agent is replaced by one that knows nothing ([`Agent::forget`]: an empty working set
    /// and, if it has one, an empty experience store), and a suite environment moves on to
    /// another organisation: for its `m`-th agent, environment `i` (group `g = i / group` of
    /// `G`) runs organisation `organisations.start + (g + m·G) mod organisations.len()`.
    /// Seeds are unchanged.
    ///
    /// `evoharness eval` runs each organisation's episodes on one agent, about a dozen of
    /// them: a lifetime of that size lets training see what a new agent meets (an empty
    /// store, unknown codes) as often as an evaluated one does, where environments that
    /// live forever come to know every code of their organisation. A renewal allocates (a
    /// workspace); the steps between do not.
    pub fn set_lifetime(&mut self, episodes: u64) {
        self.lifetime = episodes;
    }

    /// The agents' lifetime in episodes (0: forever); see [`VecEnv::set_lifetime`].
    pub fn lifetime(&self) -> u64 {
        self.lifetime
    }

    /// Environments per group (1 without groups).
    pub fn group(&self) -> usize {
        self.group
    }

    /// Environments.
    pub fn len(&self) -> usize {
        self.agents.len()
    }

    /// Never: a VecEnv has at least one environment.
    pub fn is_empty(&self) -> bool {
        self.agents.is_empty()
    }

    /// Floats in one environment's observation.
    pub fn obs_len(&self) -> usize {
        self.obs_len
    }

    /// Templates in one environment's mask.
    pub fn actions(&self) -> usize {
        self.actions
    }

    /// Environment `i`'s agent (its world and workspace), if there is one.
    pub fn env(&self, i: usize) -> Option<&Env<W>> {
        self.agents.get(i)
    }

    /// The stats of environment `i`'s current episode so far.
    pub fn current_episode(&self, i: usize) -> Option<&EpisodeStats> {
        self.scores.get(i).map(Score::stats)
    }

    /// The stats of environment `i`'s last finished episode.
    pub fn last_episode(&self, i: usize) -> Option<&EpisodeStats> {
        self.last.get(i).and_then(Option::as_ref)
    }

    /// Episodes environment `i` has finished.
    pub fn episodes(&self, i: usize) -> u64 {
        self.episodes.get(i).copied().unwrap_or(0)
    }

    /// Makes environment `dst` an exact copy of environment `src` as it is now: its agent
    /// (workspace, world, experience store, step counts and random state, through a
    /// checkpoint: [`Agent::checkpoint_bytes`]), the episode so far, the episodes it has
    /// finished and its last one, and the static teachers' agendas. From here on the two play
    /// alike to the end of the episode: the same actions give the same observations, masks,
    /// rewards and end, as the suite's worlds draw their faults from their cursor. This is
    /// what branching rollouts need (try another action in a copy, compare returns under the
    /// same draws).
    ///
    /// `dst` keeps its own seed sequence for its next episodes and its own organisation
    /// sequence for the agents that follow ([`VecEnv::set_lifetime`]); its current agent is
    /// `src`'s, on `src`'s organisation.
    /// An index out of range, or a world that saves no cursor ([`World::save_cursor`]: its
    /// state cannot be copied), is a [`ErrorKind::Config`] error that changes nothing. Should
    /// the copy be refused (a world that takes no cursor but its own, say), `dst` is restored
    /// from its own checkpoint of a moment before and plays on as it was; were even that
    /// refused (a world that restores no cursor at all), `dst`'s agent is replaced by a new
    /// one that starts its current episode over (seed and organisation as before, an empty
    /// workspace and store), and the error says so. Either way every environment is still
    /// there, in its place. Allocates.
    pub fn copy_env(&mut self, src: usize, dst: usize) -> Result<()> {
        let n = self.agents.len();
        if src >= n || dst >= n {
            return Err(Error::new(
                ErrorKind::Config,
                format!("copy_env({src}, {dst}): there are {n} environments"),
            ));
        }
        if src == dst {
            return Ok(());
        }
        let (mut bytes, mut own) = (Vec::new(), Vec::new());
        let from = self.agents[src].world();
        let saved = from.save_cursor(&mut bytes);
        if let Some(e) = from.take_failure() {
            return Err(e);
        }
        if !saved {
            return Err(Error::new(
                ErrorKind::Config,
                format!(
                    "copy_env({src}, {dst}): environment {src}'s world saves no cursor \
                     (World::save_cursor), so a copy could not continue its task"
                ),
            ));
        }
        bytes.clear();
        self.agents[src].checkpoint_bytes(&mut bytes)?;
        self.agents[dst].checkpoint_bytes(&mut own)?;
        let to = suite_organisation(&self.agents[src]);
        // v3: `src`'s deployment's prices come with its organisation.
        let src_config = *self.agents[src].config();
        let old = self.agents.remove(dst);
        let config = *old.config();
        let back_to = suite_organisation(&old);
        let (controller, mut world) = old.into_parts();
        // A suite world takes only a cursor of its own organisation.
        set_suite_organisation(&mut world, to);
        let agent = match Env::try_resume_from_bytes(controller, world, src_config, &bytes) {
            Ok(agent) => agent,
            Err(mut refused) => {
                // Put `dst` back from its own checkpoint before reporting.
                set_suite_organisation(&mut refused.world, back_to);
                let error = refused.error;
                // Its own checkpoint of a moment ago, refused only by a world that restores
                // no cursor at all: then a new agent starts `dst`'s episode over.
                let back =
                    Env::try_resume_from_bytes(refused.controller, refused.world, config, &own);
                let back = match back {
                    Ok(back) => back,
                    Err(again) => {
                        let mut fresh = match Env::new(again.controller, again.world, config) {
                            Ok(fresh) => fresh,
                            Err(e) => {
                                // Not reached (the same parts and configuration made `dst`),
                                // but should it be, no vector is left out of step.
                                self.scores.remove(dst);
                                self.episodes.remove(dst);
                                self.last.remove(dst);
                                if !self.statics.is_empty() {
                                    self.statics.remove(dst);
                                }
                                return Err(Error::new(
                                    e.kind(),
                                    format!("copy_env: environment {dst} is gone: {e}"),
                                ));
                            }
                        };
                        let (g, groups) = ((dst / self.group) as u64, (n / self.group) as u64);
                        fresh.start_task(episode_seed(self.seed, g, groups, self.episodes[dst]));
                        self.scores[dst] = Score::begin(&fresh);
                        for s in self.statics.get_mut(dst).into_iter().flatten() {
                            follow_begin(s, &fresh);
                        }
                        self.agents.insert(dst, fresh);
                        return Err(Error::new(
                            error.kind(),
                            format!(
                                "copy_env({src}, {dst}) refused ({error}); environment {dst} \
                                 could not be restored either ({}), so a new agent starts its \
                                 episode over",
                                again.error
                            ),
                        ));
                    }
                };
                self.agents.insert(dst, back);
                return Err(error);
            }
        };
        self.agents.insert(dst, agent);
        self.scores[dst] = self.scores[src];
        self.episodes[dst] = self.episodes[src];
        self.last[dst] = self.last[src];
        if !self.statics.is_empty() {
            self.statics[dst] = self.statics[src].clone();
        }
        if !self.durables.is_empty() {
            let (a, b) = (src.min(dst), src.max(dst));
            let (left, right) = self.durables.split_at_mut(b);
            let (from, to) = if src < dst {
                (&left[a], &mut right[0])
            } else {
                (&right[0], &mut left[a])
            };
            to.copy_from(from)?;
        }
        Ok(())
    }

    fn check_len<T>(&self, what: &str, buf: &[T], per: usize) -> Result<()> {
        let want = self.agents.len() * per;
        if buf.len() == want {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::Config,
                format!(
                    "{what} has {} elements; {} environments need {want}",
                    buf.len(),
                    self.agents.len()
                ),
            ))
        }
    }

    /// The template that does `intent` in environment `i`'s current state (see
    /// [`crate::intent`]): for teachers that say what to do in high-level terms. An action the
    /// layout cannot express, or one that is not legal now, is a [`ErrorKind::Config`] error
    /// that says why, naming the environment.
    pub fn intent_template(&self, i: usize, intent: &Intent) -> Result<usize> {
        let r = self.agents.get(i).ok_or_else(|| {
            Error::new(
                ErrorKind::Config,
                format!("no environment {i}: there are {}", self.agents.len()),
            )
        })?;
        let name = |k: u16| {
            r.world()
                .tool_name(k)
                .map_or_else(|| format!("tool {k}"), |n| format!("{n:?}"))
        };
        let t = intent::template(r.layout(), r.workspace(), intent, &name)
            .map_err(|m| Error::new(ErrorKind::Config, format!("environment {i}: {m}")))?;
        r.check(&Decision::Template(t)).map_err(|e| {
            Error::new(
                ErrorKind::Config,
                format!("environment {i}: {intent:?}: {}", e.message()),
            )
        })?;
        Ok(t)
    }

    /// Arrays of the sizes [`VecEnv::step`] needs, holding the current observations and masks.
    pub fn buffers(&self) -> Result<Buffers> {
        let n = self.agents.len();
        let mut b = Buffers {
            actions: vec![0; n],
            obs: vec![0.0; n * self.obs_len],
            mask: vec![0; n * self.actions],
            reward: vec![0.0; n],
            done: vec![0; n],
        };
        self.observe(&mut b.obs, &mut b.mask)?;
        Ok(b)
    }

    /// [`VecEnv::step`] with the templates in `b.actions`, writing the rest of `b`.
    pub fn step_into(&mut self, b: &mut Buffers) -> Result<()> {
        self.step(
            &b.actions,
            &mut b.obs,
            &mut b.mask,
            &mut b.reward,
            &mut b.done,
        )
    }

    /// Writes every environment's current observation and mask.
    pub fn observe(&self, obs: &mut [f32], mask: &mut [u8]) -> Result<()> {
        self.check_len("obs", obs, self.obs_len)?;
        self.check_len("mask", mask, self.actions)?;
        for (i, r) in self.agents.iter().enumerate() {
            write(r, i, self.obs_len, self.actions, obs, mask)?;
        }
        Ok(())
    }

    /// Steps every environment with its template in `actions`; see the [module docs](self).
    ///
    /// Every action is checked before any is applied: if one is not legal now, or a buffer has
    /// the wrong length, nothing changes and the error names the environment. A world that
    /// fails ([`World::take_failure`]: in its call, its judge, or the reset that follows an
    /// episode's end) stops the step with its error, naming the environment; the environments
    /// before it have stepped, and the buffers are then not all written.
    pub fn step(
        &mut self,
        actions: &[u32],
        obs: &mut [f32],
        mask: &mut [u8],
        reward: &mut [f32],
        done: &mut [u8],
    ) -> Result<()> {
        self.check_len("actions", actions, 1)?;
        self.check_len("obs", obs, self.obs_len)?;
        self.check_len("mask", mask, self.actions)?;
        self.check_len("reward", reward, 1)?;
        self.check_len("done", done, 1)?;
        for (i, (r, &a)) in self.agents.iter().zip(actions).enumerate() {
            r.check(&Decision::Template(a as usize)).map_err(|e| {
                Error::new(
                    ErrorKind::Config,
                    format!("environment {i}: {}", e.message()),
                )
            })?;
        }
        let groups = (self.agents.len() / self.group) as u64;
        let env_error = |i: usize, e: Error| Error::new(e.kind(), format!("environment {i}: {e}"));
        for (i, (r, score)) in self.agents.iter_mut().zip(&mut self.scores).enumerate() {
            let decision = Decision::Template(actions[i] as usize);
            // A world action brings an event back, and at an event the static harness plans
            // its agenda anew (`observe` below): whether it had chosen this action changes
            // nothing then, so only a harness action needs the agenda's choice worked out.
            if !self.statics.is_empty() && !is_world_action(r, actions[i] as usize) {
                for s in &mut self.statics[i] {
                    follow_decision(s, r, actions[i] as usize);
                }
            }
            let report = r
                .step_with(&decision)
                .map_err(|e| env_error(i, e))?
                .ok_or_else(|| {
                    Error::new(
                        ErrorKind::Workspace,
                        format!("environment {i}: its episode is over"),
                    )
                })?;
            reward[i] = score.step(r, &report) as f32;
            // v3: a commit makes the agent's state durable; a crash rolls it back to it.
            if let Some(d) = self.durables.get_mut(i)
                && d.step(r, &report).map_err(|e| env_error(i, e))?
            {
                for s in self.statics.get_mut(i).into_iter().flatten() {
                    follow_begin(s, r);
                }
            }
            if let Some(s) = self.statics.get_mut(i) {
                // The static harness starts a new agenda at every event a world call gives.
                let event = matches!(report.outcome, Outcome::Call(_))
                    .then(|| r.workspace().event())
                    .flatten();
                s.iter_mut().for_each(|s| s.observe(&report.action, event));
            }
            if let Some(e) = r.world().take_failure() {
                return Err(env_error(i, e));
            }
            let over = r.is_over();
            done[i] = u8::from(over);
            if over {
                self.last[i] = Some(*score.stats());
                self.episodes[i] += 1;
                let k = self.episodes[i];
                let g = (i / self.group) as u64;
                if self.lifetime > 0 && k.is_multiple_of(self.lifetime) {
                    let life = k / self.lifetime;
                    renew(r, g, life, groups, &self.organisations).map_err(|e| env_error(i, e))?;
                } else if let Some(life) = store_life(r)
                    && k.is_multiple_of(u64::from(life.max(1)))
                {
                    // v3: the deployment's store lifetime is up: a new agent, same place.
                    r.forget().map_err(|e| env_error(i, e))?;
                }
                r.start_task(episode_seed(self.seed, g, groups, k));
                if let Some(e) = r.world().take_failure() {
                    return Err(env_error(i, e));
                }
                *score = Score::begin(r);
                for s in self.statics.get_mut(i).into_iter().flatten() {
                    follow_begin(s, r);
                }
                if let Some(d) = self.durables.get_mut(i) {
                    d.begin(r).map_err(|e| env_error(i, e))?;
                }
            }
            write(r, i, self.obs_len, self.actions, obs, mask)?;
        }
        Ok(())
    }
}

/// Environment `r` (of group `g`, of `groups`) starts its `life`-th agent: a new one that knows
/// nothing ([`Agent::forget`]), on the `life`-th organisation after its first in
/// `organisations` if its world is a suite world.
fn renew<W: World + 'static>(
    r: &mut Env<W>,
    g: u64,
    life: u64,
    groups: u64,
    organisations: &Range<u64>,
) -> Result<()> {
    r.forget()?;
    let norg = organisations.end - organisations.start;
    if let Some(w) = (r.world_mut() as &mut dyn Any).downcast_mut::<SuiteWorld>()
        && norg > 0
    {
        let k = g.wrapping_add(life.wrapping_mul(groups)) % norg;
        w.set_organisation(organisations.start + k);
    }
    Ok(())
}

/// A v3 suite world's store lifetime in episodes, if `r`'s world is one.
fn store_life<W: World + 'static>(r: &Env<W>) -> Option<u32> {
    (r.world() as &dyn Any)
        .downcast_ref::<SuiteWorld>()
        .and_then(|w| w.config().store_life())
}

/// The seed of the `k`-th episode (from 0) of group `g` of `groups` (see the module docs).
fn episode_seed(seed: u64, g: u64, groups: u64, k: u64) -> u64 {
    seed.wrapping_add(g).wrapping_add(k.wrapping_mul(groups))
}

/// The organisation of `r`'s world, if it is a suite world.
fn suite_organisation<W: World + 'static>(r: &Env<W>) -> Option<u64> {
    (r.world() as &dyn Any)
        .downcast_ref::<SuiteWorld>()
        .map(SuiteWorld::organisation)
}

/// Moves `world` to `organisation` if it is a suite world and one is given.
fn set_suite_organisation<W: World + 'static>(world: &mut W, organisation: Option<u64>) {
    if let (Some(w), Some(o)) = (
        (world as &mut dyn Any).downcast_mut::<SuiteWorld>(),
        organisation,
    ) {
        w.set_organisation(o);
    }
}

/// Environment `r`'s view as a suite world's, if its world is one.
fn suite_view<W: World + 'static>(r: &Env<W>) -> Option<View<'_, SuiteWorld>> {
    let world = (r.world() as &dyn Any).downcast_ref::<SuiteWorld>()?;
    let v = r.view();
    Some(View {
        workspace: v.workspace,
        layout: v.layout,
        world,
        obs: v.obs,
        mask: v.mask,
        selection: v.selection,
    })
}

/// The static teacher's copy starts the episode `r` has just started.
fn follow_begin<W: World + 'static>(s: &mut StaticHarness, r: &Env<W>) {
    if let Some(view) = suite_view(r) {
        s.begin(&view);
    }
}

/// Whether `template` is a world action ([`Template::Act`]): [`Agent::step_with`] calls the
/// world for it, and the world's answer is the next event.
fn is_world_action<W: World>(r: &Env<W>, template: usize) -> bool {
    matches!(r.layout().template(template), Some(Template::Act { .. }))
}

/// The static teacher's copy moves on if `template`, about to be taken, is what it would
/// have chosen (allocation-free: its agenda is inline).
fn follow_decision<W: World + 'static>(s: &mut StaticHarness, r: &Env<W>, template: usize) {
    let Some(view) = suite_view(r) else { return };
    let mut next = s.clone();
    if let Ok(Decision::Template(t)) = next.decide(&view, &mut SplitMix64(0))
        && t == template
    {
        *s = next;
    }
}

fn write<W: World>(
    r: &Env<W>,
    i: usize,
    obs_len: usize,
    actions: usize,
    obs: &mut [f32],
    mask: &mut [u8],
) -> Result<()> {
    let layout = r.layout();
    let ws = r.workspace();
    let o = &mut obs[i * obs_len..(i + 1) * obs_len];
    let m = &mut mask[i * actions..(i + 1) * actions];
    layout
        .encode(ws, o)
        .and_then(|()| layout.mask(ws, m).map(|_| ()))
        .map_err(|e| Error::new(ErrorKind::Workspace, format!("environment {i}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TaskKind;
    use evoharness_core::obs::{Source, Template};
    use evoharness_core::{EventBuf, EventKind, StepVerb, ToolCall, Value};
    use evoharness_runtime::{Verdict, View};

    /// Picks the first legal template after a rotating offset: cheap, varied, legal.
    fn pick(mask: &[u8], salt: usize) -> u32 {
        let n = mask.len();
        (0..n)
            .map(|k| (k + salt * 7) % n)
            .find(|&t| mask[t] == 1)
            .unwrap_or(0) as u32
    }

    #[test]
    fn steps_write_every_buffer_and_auto_reset() {
        let task = TaskConfig::new(TaskKind::Orchestration, 50);
        let mut v = VecEnv::new(task, 3, 0..2, 7).unwrap();
        let al = v.actions();
        let mut b = v.buffers().unwrap();
        let mut ends = 0;
        for s in 0..2_000 {
            for i in 0..3 {
                b.actions[i] = pick(&b.mask[i * al..(i + 1) * al], s + i);
            }
            v.step_into(&mut b).unwrap();
            ends += b.done.iter().filter(|&&d| d == 1).count();
            for i in 0..3 {
                assert!(
                    b.mask[i * al..(i + 1) * al].contains(&1),
                    "a fresh or running env has a legal move"
                );
                if b.done[i] == 1 {
                    assert!(v.last_episode(i).is_some());
                    assert_eq!(v.current_episode(i).unwrap().steps, 0, "reset at once");
                }
            }
        }
        assert!(ends > 0);
        assert_eq!(ends as u64, (0..3).map(|i| v.episodes(i)).sum::<u64>());
    }

    /// Following the static teacher's labels plays, step for step, the episode the
    /// [`StaticHarness::imitable`] controller plays on its own (likewise the static-lean
    /// teacher and [`StaticHarness::over_lean`]); and a learner that strays from them (here:
    /// every seventh step, the first legal template) still gets legal labels or none.
    #[test]
    fn following_the_static_teacher_is_the_static_harness() {
        use crate::episode;
        let teachers = [
            (Teacher::Static, StaticHarness::imitable()),
            (Teacher::StaticLean, StaticHarness::over_lean()),
        ];
        for kind in TaskKind::ALL {
            for (teacher, rule) in &teachers {
                let task = TaskConfig::new(kind, 120);
                let n = 2;
                let mut v = VecEnv::new(task, n, 0..2, 5).unwrap();
                let al = v.actions();
                let mut b = v.buffers().unwrap();
                while (0..n).any(|i| v.episodes(i) < 1) {
                    v.teacher_actions(*teacher, &mut b.actions).unwrap();
                    v.step_into(&mut b).unwrap();
                }
                for i in 0..n {
                    let seed = 5 + i as u64;
                    let world = SuiteWorld::new(task, i as u64);
                    let mut own =
                        Agent::new(rule.clone(), world, agent_config(&task, seed)).unwrap();
                    let want = episode::run(&mut own, seed, u64::MAX, None).unwrap();
                    let got = v.last_episode(i).unwrap();
                    assert!(want.success, "{kind}: {want:?}");
                    assert_eq!(
                        (got.steps, got.harness, got.world_actions, got.success),
                        (want.steps, want.harness, want.world_actions, want.success),
                        "{kind} {teacher:?} env {i}"
                    );
                    assert!(got.harness.iter().sum::<u64>() > got.world_actions);
                }
                let mut labelled = 0;
                for s in 0..3_000 {
                    v.teacher_actions(*teacher, &mut b.actions).unwrap();
                    for (i, a) in b.actions.iter_mut().enumerate() {
                        let m = &b.mask[i * al..(i + 1) * al];
                        if *a == NO_LABEL || s % 7 == 0 {
                            *a = pick(m, 0);
                        } else {
                            assert_eq!(m[*a as usize], 1, "a label is legal");
                            labelled += 1;
                        }
                    }
                    v.step_into(&mut b).unwrap();
                }
                assert!(
                    labelled > 3_000,
                    "{kind} {teacher:?}: {labelled} labels in 6,000 states"
                );
            }
        }
    }

    /// The static agendas skip working out their choice before a world action (the event it
    /// brings back replans them): their labels are those of copies that work it out before
    /// every action, on a learner's path that strays from them (every third step the first
    /// legal template, otherwise the label) through whole episodes of every kind.
    #[test]
    fn static_labels_are_those_of_agendas_that_follow_every_action() {
        let mut rng = SplitMix64(0);
        for kind in TaskKind::ALL {
            let task = TaskConfig::new(kind, 80);
            let n = 3;
            let mut v = VecEnv::new(task, n, 0..3, 11).unwrap();
            let al = v.actions();
            let mut b = v.buffers().unwrap();
            let mut eager = v.statics.clone();
            let (mut labels, mut want) = (vec![0; n], vec![0; n]);
            let (mut checked, mut world_actions) = (0, 0);
            for s in 0..1_500 {
                for (t, teacher) in [Teacher::Static, Teacher::StaticLean]
                    .into_iter()
                    .enumerate()
                {
                    v.teacher_actions(teacher, &mut labels).unwrap();
                    for (i, r) in v.agents.iter().enumerate() {
                        let view = r.view();
                        want[i] = match eager[i][t].clone().decide(&view, &mut rng) {
                            Ok(d @ Decision::Template(t)) if r.check(&d).is_ok() => t as u32,
                            _ => NO_LABEL,
                        };
                    }
                    assert_eq!(labels, want, "{kind} {teacher:?} step {s}");
                    checked += labels.iter().filter(|&&l| l != NO_LABEL).count();
                }
                v.teacher_actions(Teacher::Static, &mut labels).unwrap();
                for i in 0..n {
                    let m = &b.mask[i * al..(i + 1) * al];
                    b.actions[i] = if labels[i] == NO_LABEL || (s + i) % 3 == 0 {
                        pick(m, s + i)
                    } else {
                        labels[i]
                    };
                    for e in &mut eager[i] {
                        follow_decision(e, &v.agents[i], b.actions[i] as usize);
                    }
                }
                let acts: Vec<bool> = (0..n)
                    .map(|i| is_world_action(&v.agents[i], b.actions[i] as usize))
                    .collect();
                world_actions += acts.iter().filter(|&&a| a).count();
                v.step_into(&mut b).unwrap();
                for i in 0..n {
                    // An event (every world action brings one) or a new episode: a new agenda.
                    if acts[i] || b.done[i] == 1 {
                        eager[i]
                            .iter_mut()
                            .for_each(|e| follow_begin(e, &v.agents[i]));
                    }
                }
            }
            assert!(checked > 4_000, "{kind}: {checked} labels compared");
            assert!(
                world_actions > 500 && world_actions < 4_000,
                "{kind}: {world_actions} world actions of 4,500"
            );
            assert!((0..n).all(|i| v.episodes(i) >= 2), "{kind}: whole episodes");
        }
    }

    #[test]
    fn following_the_lean_teacher_succeeds() {
        for kind in TaskKind::ALL {
            let task = TaskConfig::new(kind, 200);
            let n = 4;
            let mut v = VecEnv::new(task, n, 0..2, 3).unwrap();
            let al = v.actions();
            let mut b = v.buffers().unwrap();
            while (0..n).any(|i| v.episodes(i) < 2) {
                v.teacher_actions(Teacher::Lean, &mut b.actions).unwrap();
                for (i, &a) in b.actions.iter().enumerate() {
                    assert_eq!(
                        b.mask[i * al + a as usize],
                        1,
                        "the teacher's choice is legal"
                    );
                }
                v.step_into(&mut b).unwrap();
                for i in 0..n {
                    if b.done[i] == 1 {
                        let s = v.last_episode(i).unwrap();
                        assert!(s.success, "{kind} env {i}: {s:?}");
                        assert!(b.reward[i] > 1.0);
                    }
                }
            }
            assert!(
                v.teacher_actions(Teacher::Oracle, &mut b.actions[1..])
                    .is_err()
            );
        }
    }

    /// v2: the tuned teacher's labels lead every episode to success, with recalls that the
    /// environments' experience stores answer.
    #[test]
    fn following_the_tuned_teacher_on_v2_succeeds_and_recalls() {
        let task = TaskConfig::v2(TaskKind::Records, 150);
        let n = 2;
        let mut v = VecEnv::new(task, n, 0..2, 5).unwrap();
        let mut b = v.buffers().unwrap();
        let mut recalls = 0;
        while (0..n).any(|i| v.episodes(i) < 4) {
            v.teacher_actions(Teacher::Tuned, &mut b.actions).unwrap();
            assert!(b.actions.iter().all(|&a| a != NO_LABEL));
            v.step_into(&mut b).unwrap();
            for (i, _) in b.done.iter().enumerate().filter(|(_, d)| **d == 1) {
                let s = v.last_episode(i).unwrap();
                assert!(s.success, "env {i}: {s:?}");
                recalls += s.harness[2];
            }
        }
        assert!(recalls > 0, "the tuned teacher recalls in v2");
        let stored: usize = v
            .agents
            .iter()
            .map(|a| a.experience_store().map_or(0, |s| s.len()))
            .sum();
        assert!(stored > 4, "lessons kept behind the working sets: {stored}");
    }

    /// With a lifetime, each environment's agent is replaced every `lifetime` episodes by one
    /// that knows nothing, on the next organisation (group members alike); without one, the
    /// agents keep their organisation and what they learned.
    #[test]
    fn agents_renew_after_their_lifetime() {
        let task = TaskConfig::v2(TaskKind::Records, 60);
        let (n, g, orgs) = (4, 2, 10..13);
        let mut v = VecEnv::grouped(task, n, g, orgs.clone(), 3).unwrap();
        let mut forever = VecEnv::grouped(task, n, g, orgs, 3).unwrap();
        assert_eq!(v.lifetime(), 0);
        v.set_lifetime(2);
        assert_eq!(v.lifetime(), 2);
        let mut renewals = 0;
        for env in [&mut v, &mut forever] {
            let mut b = env.buffers().unwrap();
            while (0..n).any(|i| env.episodes(i) < 5) {
                env.teacher_actions(Teacher::Tuned, &mut b.actions).unwrap();
                env.step_into(&mut b).unwrap();
                for i in (0..n).filter(|&i| b.done[i] == 1) {
                    let a = env.env(i).unwrap();
                    let (k, grp) = (env.episodes(i), (i / g) as u64);
                    assert!(env.last_episode(i).unwrap().success, "env {i}");
                    let store = a.experience_store().unwrap().len();
                    let lessons = a.workspace().experience().len();
                    if env.lifetime() == 0 {
                        assert_eq!(a.world().organisation(), 10 + grp, "env {i}");
                        assert!(store > 0 || lessons > 0, "env {i} learned nothing");
                    } else {
                        // Groups 0 and 1 of 2: the m-th agent runs organisation (g + 2m) mod 3.
                        let want = 10 + (grp + k / 2 * 2) % 3;
                        assert_eq!(a.world().organisation(), want, "env {i}, episode {k}");
                        if k % 2 == 0 {
                            assert_eq!((store, lessons), (0, 0), "env {i} renewed");
                            renewals += 1;
                        }
                    }
                }
            }
        }
        assert!(renewals >= 2 * n, "{renewals}");
    }

    #[test]
    fn a_copied_environment_plays_on_exactly_like_its_source() {
        // v2 migration: an experience store, per-item fault draws, the static teachers' agendas.
        let task = TaskConfig::v2(TaskKind::Migration, 100);
        let n = 3;
        let mut v = VecEnv::new(task, n, 0..3, 5).unwrap();
        let (ol, al) = (v.obs_len(), v.actions());
        let mut b = v.buffers().unwrap();
        let mut lean = vec![0u32; n];
        // Environment 0 ends its first episode and starts its second (its store at work);
        // environment 2 plays something else meanwhile, on another organisation.
        let mut s = 0;
        let mut into = 0;
        while into < 10 {
            v.teacher_actions(Teacher::Lean, &mut lean).unwrap();
            b.actions.copy_from_slice(&lean);
            b.actions[2] = pick(&b.mask[2 * al..3 * al], s);
            v.step_into(&mut b).unwrap();
            s += 1;
            into = if v.episodes(0) == 0 { 0 } else { into + 1 };
        }
        assert_ne!(v.env(2).unwrap().world().organisation(), 0);
        assert!(v.copy_env(0, n).is_err() && v.copy_env(n, 0).is_err());
        v.copy_env(1, 1).unwrap();
        v.copy_env(0, 2).unwrap();
        let (a, c) = (v.env(0).unwrap(), v.env(2).unwrap());
        assert_eq!(c.world().organisation(), 0);
        assert_eq!(v.episodes(2), v.episodes(0));
        assert_eq!(
            a.experience_store().unwrap().len(),
            c.experience_store().unwrap().len()
        );
        let mut st = vec![0u32; n];
        v.teacher_actions(Teacher::Static, &mut st).unwrap();
        assert_eq!(st[0], st[2], "the static teacher's agenda was copied");
        v.observe(&mut b.obs, &mut b.mask).unwrap();
        assert_eq!(b.obs[..ol], b.obs[2 * ol..3 * ol]);
        // The same actions from here: the same steps to the episode's end (the next episode
        // starts from each environment's own seeds).
        let mut steps = 0;
        loop {
            v.teacher_actions(Teacher::Lean, &mut lean).unwrap();
            b.actions.copy_from_slice(&lean);
            b.actions[2] = lean[0];
            v.step_into(&mut b).unwrap();
            steps += 1;
            assert_eq!(
                (b.reward[0], b.done[0]),
                (b.reward[2], b.done[2]),
                "step {steps}"
            );
            if b.done[0] == 1 {
                break;
            }
            assert_eq!(b.obs[..ol], b.obs[2 * ol..3 * ol], "step {steps}");
            assert_eq!(b.mask[..al], b.mask[2 * al..3 * al], "step {steps}");
        }
        assert!(steps > 50, "{steps}");
        assert_eq!(v.last_episode(0).unwrap(), v.last_episode(2).unwrap());
    }

    #[test]
    fn a_copy_within_a_group_stays_alike_into_the_next_episodes() {
        // Branching rollouts copy a group's first environment into the others: members share
        // seeds, so under the same actions a copy stays identical past the episode's end too.
        let task = TaskConfig::v2(TaskKind::Migration, 100);
        let (n, g) = (4, 2);
        let mut v = VecEnv::grouped(task, n, g, 0..3, 17).unwrap();
        let (ol, al) = (v.obs_len(), v.actions());
        let mut b = v.buffers().unwrap();
        let mut lean = vec![0u32; n];
        // Environment 1 wanders off its group's course; then it becomes a copy of 0.
        for s in 0..30 {
            v.teacher_actions(Teacher::Lean, &mut lean).unwrap();
            b.actions.copy_from_slice(&lean);
            b.actions[1] = pick(&b.mask[al..2 * al], s);
            v.step_into(&mut b).unwrap();
        }
        v.copy_env(0, 1).unwrap();
        v.observe(&mut b.obs, &mut b.mask).unwrap();
        let start = v.episodes(0);
        let mut steps = 0;
        while v.episodes(0) < start + 3 {
            v.teacher_actions(Teacher::Lean, &mut lean).unwrap();
            assert_eq!(
                lean[0], lean[1],
                "step {steps}: the lean rule chose differently"
            );
            b.actions.copy_from_slice(&lean);
            v.step_into(&mut b).unwrap();
            steps += 1;
            assert_eq!(
                (b.reward[0], b.done[0], v.episodes(0)),
                (b.reward[1], b.done[1], v.episodes(1)),
                "step {steps}"
            );
            assert_eq!(b.obs[..ol], b.obs[ol..2 * ol], "step {steps}");
            assert_eq!(b.mask[..al], b.mask[al..2 * al], "step {steps}");
            if b.done[0] == 1 {
                assert_eq!(v.last_episode(0).unwrap(), v.last_episode(1).unwrap());
            }
        }
        assert!(steps > 100, "{steps}");
    }

    #[test]
    fn a_group_runs_the_same_episodes() {
        let task = TaskConfig::new(TaskKind::Records, 50);
        let (n, g) = (6, 3);
        let mut v = VecEnv::grouped(task, n, g, 0..5, 40).unwrap();
        assert!(VecEnv::grouped(task, n, 4, 0..5, 40).is_err());
        assert!(VecEnv::grouped(task, n, 0, 0..5, 40).is_err());
        let ol = v.obs_len();
        let mut b = v.buffers().unwrap();
        for i in 0..n {
            let same = i / g * g;
            assert_eq!(
                b.obs[i * ol..(i + 1) * ol],
                b.obs[same * ol..(same + 1) * ol]
            );
        }
        while (0..n).any(|i| v.episodes(i) < 2) {
            v.teacher_actions(Teacher::Lean, &mut b.actions).unwrap();
            v.step_into(&mut b).unwrap();
        }
        // Following the same teacher, a group's members ran identical episodes.
        for i in 0..n {
            let first = i / g * g;
            assert_eq!(v.last_episode(i), v.last_episode(first), "env {i}");
            assert_eq!(
                v.env(i).unwrap().world().seed(),
                v.env(first).unwrap().world().seed()
            );
        }
        assert_ne!(
            v.env(0).unwrap().world().seed(),
            v.env(g).unwrap().world().seed()
        );
    }

    #[test]
    fn a_bad_action_or_buffer_changes_nothing() {
        let task = TaskConfig::new(TaskKind::Migration, 50);
        let mut v = VecEnv::new(task, 2, 0..1, 0).unwrap();
        let (ol, al) = (v.obs_len(), v.actions());
        let mut obs = vec![0.0; 2 * ol];
        let mut mask = vec![0; 2 * al];
        let (mut rew, mut done) = (vec![0.0; 2], vec![0; 2]);
        v.observe(&mut obs, &mut mask).unwrap();
        let legal = pick(&mask[..al], 0);
        let illegal = (0..al).find(|&t| mask[al + t] == 0).unwrap() as u32;
        let e = v
            .step(&[legal, illegal], &mut obs, &mut mask, &mut rew, &mut done)
            .unwrap_err();
        assert!(e.to_string().contains("environment 1"), "{e}");
        assert_eq!(
            v.current_episode(0).unwrap().steps,
            0,
            "environment 0 did not step either"
        );
        assert!(
            v.step(&[legal], &mut obs, &mut mask, &mut rew, &mut done)
                .is_err()
        );
        assert!(
            v.step(
                &[legal, legal],
                &mut obs[1..],
                &mut mask,
                &mut rew,
                &mut done
            )
            .is_err()
        );
        assert!(VecEnv::new(task, 0, 0..1, 0).is_err());
        assert!(VecEnv::new(task, 1, 3..3, 0).is_err());
    }

    /// A small world that is not the suite's: three tools (`next`, `pay` an item by id, `audit`),
    /// `2 + seed % 3` items; success is finishing with every item paid exactly once.
    struct Ledger {
        items: i64,
        next: i64,
        paid: Vec<u32>,
        fail_audit: bool,
        failure: std::cell::Cell<Option<Error>>,
        /// Saves a cursor (this id, then `next` and `paid`) if set; none by default.
        id: Option<u8>,
        /// Restores a cursor of its own id (of no other); with `false`, none at all.
        restores: bool,
    }

    impl Ledger {
        fn new() -> Self {
            Self {
                items: 0,
                next: 0,
                paid: Vec::new(),
                fail_audit: false,
                failure: Default::default(),
                id: None,
                restores: false,
            }
        }
    }

    impl World for Ledger {
        fn tools(&self) -> u16 {
            3
        }

        fn reset(&mut self, seed: u64) -> EventBuf {
            self.items = 2 + (seed % 3) as i64;
            self.next = 0;
            self.paid = vec![0; self.items as usize];
            EventBuf::new(EventKind::Notice, 0)
                .with("items", Value::Int(self.items))
                .unwrap()
        }

        fn call(&mut self, call: &ToolCall) -> EventBuf {
            let e = EventBuf::new(EventKind::Result, call.tool);
            match call.tool {
                0 if self.next < self.items => {
                    self.next += 1;
                    e.with("item", Value::Int(100 + self.next - 1)).unwrap()
                }
                0 => e.with("done", Value::Bool(true)).unwrap(),
                1 => match call.args.first() {
                    Some(Value::Int(id)) if (100..100 + self.items).contains(id) => {
                        self.paid[(id - 100) as usize] += 1;
                        e.with("paid", Value::Int(*id)).unwrap()
                    }
                    _ => EventBuf::new(EventKind::Error, 1)
                        .with("bad_id", Value::Bool(true))
                        .unwrap(),
                },
                _ => {
                    if self.fail_audit {
                        self.failure
                            .set(Some(Error::new(ErrorKind::World, "audit broke")));
                    }
                    let left = self.paid.iter().filter(|&&p| p == 0).count() as i64;
                    e.with("left", Value::Int(left)).unwrap()
                }
            }
        }

        fn judge(&self, finished: Option<bool>) -> Option<Verdict> {
            let doubles = self.paid.iter().filter(|&&p| p > 1).count() as u32;
            Some(Verdict {
                success: finished == Some(true)
                    && doubles == 0
                    && self.paid.iter().all(|&p| p == 1),
                violations: doubles,
            })
        }

        fn take_failure(&self) -> Option<Error> {
            self.failure.take()
        }

        fn save_cursor(&self, out: &mut Vec<u8>) -> bool {
            let Some(id) = self.id else { return false };
            out.push(id);
            out.push(self.next as u8);
            out.extend(self.paid.iter().map(|&p| p as u8));
            true
        }

        fn restore_cursor(&mut self, cursor: &[u8]) -> evoharness_runtime::Result<()> {
            match cursor {
                [id, next, paid @ ..] if self.restores && Some(*id) == self.id => {
                    self.next = i64::from(*next);
                    self.paid = paid.iter().map(|&p| u32::from(p)).collect();
                    Ok(())
                }
                _ => Err(Error::new(ErrorKind::Checkpoint, "not my cursor")),
            }
        }
    }

    fn ledger_env(n: usize, seed: u64) -> VecEnv<Ledger> {
        let config = WorldsConfig {
            seed,
            ..WorldsConfig::new(3, 60)
        };
        VecEnv::from_worlds((0..n).map(|_| Ledger::new()).collect(), config).unwrap()
    }

    /// The scripted way through a ledger: next, pay the item (field 0), ..., then finish.
    fn script(v: &VecEnv<Ledger>, i: usize) -> u32 {
        let layout = v.env(i).unwrap().layout();
        let ws = v.env(i).unwrap().workspace();
        let event = ws.event().unwrap();
        let t = if event.get("item").is_some() {
            Template::Act {
                tool: 1,
                arg: Some(Source::Field(0)),
            }
        } else if event.get("done").is_some() {
            Template::Finish { success: true }
        } else {
            Template::Act { tool: 0, arg: None }
        };
        layout.index(t).unwrap() as u32
    }

    #[test]
    fn a_copy_that_cannot_be_made_leaves_every_environment_in_its_place() {
        let run = |ids: bool, restores: bool| {
            let worlds = (0..2u8)
                .map(|i| Ledger {
                    id: ids.then_some(i),
                    restores,
                    ..Ledger::new()
                })
                .collect();
            let config = WorldsConfig {
                seed: 3,
                ..WorldsConfig::new(3, 60)
            };
            let mut v = VecEnv::from_worlds(worlds, config).unwrap();
            let mut b = v.buffers().unwrap();
            // Two steps in: the first item paid.
            for _ in 0..2 {
                for i in 0..2 {
                    b.actions[i] = script(&v, i);
                }
                v.step_into(&mut b).unwrap();
            }
            let (obs, stats) = (b.obs.clone(), *v.current_episode(1).unwrap());
            let error = v.copy_env(0, 1).unwrap_err().to_string();
            assert_eq!(v.len(), 2);
            v.observe(&mut b.obs, &mut b.mask).unwrap();
            let same_obs = obs == b.obs;
            // Whatever became of environment 1, it plays its episode to success.
            let now = *v.current_episode(1).unwrap();
            while v.episodes(1) == 0 {
                for i in 0..2 {
                    b.actions[i] = script(&v, i);
                }
                v.step_into(&mut b).unwrap();
            }
            assert!(v.last_episode(1).unwrap().success, "{error}");
            (error, same_obs, stats == now)
        };
        // A world that saves no cursor cannot be copied: refused before anything changes.
        let (error, same_obs, same_stats) = run(false, false);
        assert!(error.contains("saves no cursor"), "{error}");
        assert!(same_obs && same_stats);
        // One that takes only its own cursor: environment 1 restored as it was.
        let (error, same_obs, same_stats) = run(true, true);
        assert!(error.contains("not my cursor"), "{error}");
        assert!(same_obs && same_stats);
        // One that takes no cursor at all: a new agent starts environment 1's episode over.
        let (error, same_obs, same_stats) = run(true, false);
        assert!(error.contains("starts its episode over"), "{error}");
        assert!(!same_obs && !same_stats);
    }

    #[test]
    fn a_host_world_runs_scripted_and_random_through_a_vec_env() {
        let n = 3;
        let mut v = ledger_env(n, 5);
        assert_eq!(v.env(0).unwrap().layout().capacities().tools, 3);
        let (ol, al) = (v.obs_len(), v.actions());
        let suite = VecEnv::new(TaskConfig::new(TaskKind::Migration, 50), 1, 0..1, 0).unwrap();
        assert!(al < suite.actions(), "fewer tools, fewer templates");
        let mut obs = vec![0.0; n * ol];
        let mut mask = vec![0; n * al];
        let (mut rew, mut done) = (vec![0.0; n], vec![0; n]);
        v.observe(&mut obs, &mut mask).unwrap();
        // Scripted: every episode succeeds, with no harness action.
        while (0..n).any(|i| v.episodes(i) < 3) {
            let acts: Vec<u32> = (0..n).map(|i| script(&v, i)).collect();
            v.step(&acts, &mut obs, &mut mask, &mut rew, &mut done)
                .unwrap();
            for i in (0..n).filter(|&i| done[i] == 1) {
                let s = v.last_episode(i).unwrap();
                assert!(s.success, "env {i}: {s:?}");
                assert_eq!(s.finished, Some(true));
                assert_eq!(s.harness_actions(), 0);
                // next and pay per item, and the next that says done.
                let items = s.world_actions.div_ceil(2) - 1;
                assert!((2..=4).contains(&items), "{s:?}");
                assert_eq!(s.world_actions, 2 * items + 1);
                assert!(rew[i] > 1.0);
            }
        }
        // Random legal actions: episodes end (finish, or the budget of 60), stats add up.
        let mut rng = SplitMix64(9);
        let mut ended = 0;
        for _ in 0..3_000 {
            let acts: Vec<u32> = (0..n)
                .map(|i| {
                    let m = &mask[i * al..(i + 1) * al];
                    let legal: Vec<usize> = (0..al).filter(|&t| m[t] == 1).collect();
                    legal[(rng.next_u64() % legal.len() as u64) as usize] as u32
                })
                .collect();
            v.step(&acts, &mut obs, &mut mask, &mut rew, &mut done)
                .unwrap();
            for i in (0..n).filter(|&i| done[i] == 1) {
                ended += 1;
                let s = v.last_episode(i).unwrap();
                assert_eq!(
                    s.steps,
                    s.world_actions + s.harness_actions() + u64::from(s.finished.is_some())
                );
                assert!(s.cost <= 60);
                assert_eq!(s.success, s.success && s.violations.total() == 0);
            }
        }
        assert!(ended > 20, "{ended}");
    }

    #[test]
    fn a_teacher_in_high_level_terms_gets_templates_or_clear_refusals() {
        let mut v = ledger_env(1, 2);
        let (ol, al) = (v.obs_len(), v.actions());
        let (mut obs, mut mask) = (vec![0.0; ol], vec![0; al]);
        let (mut rew, mut done) = (vec![0.0], vec![0]);
        let next = Intent::Call { tool: 0, arg: None };
        let err = |v: &VecEnv<Ledger>, i: &Intent| v.intent_template(0, i).unwrap_err().to_string();
        // The first event is a notice {items}: nothing to pay yet.
        let pay = |id| Intent::Call {
            tool: 1,
            arg: Some(Value::Int(id)),
        };
        assert!(err(&v, &pay(100)).contains("cannot express a call of tool 1 with Int(100)"));
        assert!(err(&v, &Intent::Track { key: "item".into() }).contains("no field \"item\""));
        assert!(
            err(
                &v,
                &Intent::Step {
                    step: 99,
                    verb: StepVerb::Start
                }
            )
            .contains("8 plan steps")
        );
        assert!(err(&v, &Intent::Call { tool: 5, arg: None }).contains("no tool 5"));
        assert!(v.intent_template(1, &next).is_err());
        // Next, track the invoice, pay it from belief after another event: templates that work.
        let t = v.intent_template(0, &next).unwrap();
        v.step(&[t as u32], &mut obs, &mut mask, &mut rew, &mut done)
            .unwrap();
        let track = v
            .intent_template(0, &Intent::Track { key: "item".into() })
            .unwrap();
        assert_eq!(mask[track], 1);
        v.step(&[track as u32], &mut obs, &mut mask, &mut rew, &mut done)
            .unwrap();
        let audit = v
            .intent_template(0, &Intent::Call { tool: 2, arg: None })
            .unwrap();
        v.step(&[audit as u32], &mut obs, &mut mask, &mut rew, &mut done)
            .unwrap();
        let from_belief = v.intent_template(0, &pay(100)).unwrap();
        let layout = v.env(0).unwrap().layout();
        assert_eq!(
            layout.template(from_belief),
            Some(Template::Act {
                tool: 1,
                arg: Some(Source::Fact(0))
            })
        );
        v.step(
            &[from_belief as u32],
            &mut obs,
            &mut mask,
            &mut rew,
            &mut done,
        )
        .unwrap();
        // Then the rest of the episode in high-level terms: it succeeds.
        while done[0] == 0 {
            let ws = v.env(0).unwrap().workspace();
            let e = ws.event().unwrap();
            let intent = match (e.get("item"), e.get("done")) {
                (Some(id), _) => Intent::Call {
                    tool: 1,
                    arg: Some(id.clone()),
                },
                (None, Some(_)) => Intent::Finish { success: true },
                _ => next.clone(),
            };
            let t = v.intent_template(0, &intent).unwrap() as u32;
            v.step(&[t], &mut obs, &mut mask, &mut rew, &mut done)
                .unwrap();
        }
        assert!(v.last_episode(0).unwrap().success);
    }

    #[test]
    fn a_failing_host_world_stops_the_step_with_its_error() {
        let mut v = ledger_env(2, 1);
        let (ol, al) = (v.obs_len(), v.actions());
        let mut obs = vec![0.0; 2 * ol];
        let mut mask = vec![0; 2 * al];
        let (mut rew, mut done) = (vec![0.0; 2], vec![0; 2]);
        v.agents[1].world_mut().fail_audit = true;
        let audit = v
            .env(0)
            .unwrap()
            .layout()
            .index(Template::Act { tool: 2, arg: None })
            .unwrap() as u32;
        let e = v
            .step(&[audit, audit], &mut obs, &mut mask, &mut rew, &mut done)
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::World);
        assert!(e.to_string().contains("environment 1: audit broke"), "{e}");
        // The world's tool count must be the capacities'.
        let wrong = WorldsConfig::new(4, 60);
        let e = VecEnv::from_worlds(vec![Ledger::new()], wrong)
            .err()
            .unwrap();
        assert!(e.to_string().contains("environment 0"), "{e}");
        assert!(VecEnv::<Ledger>::from_worlds(vec![], WorldsConfig::new(3, 60)).is_err());
    }

    /// The same episode through a VecEnv and through an agent with its own controller gives
    /// the same stats.
    #[test]
    fn agrees_with_an_agent() {
        struct Rotating(usize);
        impl Controller<SuiteWorld> for Rotating {
            fn capacities(&self) -> evoharness_core::Capacities {
                CAPACITIES
            }
            fn decide(
                &mut self,
                view: &View<'_, SuiteWorld>,
                _: &mut SplitMix64,
            ) -> Result<Decision> {
                self.0 += 1;
                Ok(Decision::Template(pick(view.mask, self.0) as usize))
            }
        }
        let task = TaskConfig::new(TaskKind::Records, 50);
        let mut v = VecEnv::new(task, 1, 5..6, 11).unwrap();
        let (ol, al) = (v.obs_len(), v.actions());
        let (mut obs, mut mask) = (vec![0.0; ol], vec![0; al]);
        let (mut rew, mut done) = (vec![0.0], vec![0]);
        v.observe(&mut obs, &mut mask).unwrap();
        let mut total = 0.0f64;
        let mut k = 0;
        while done[0] == 0 {
            k += 1;
            v.step(&[pick(&mask, k)], &mut obs, &mut mask, &mut rew, &mut done)
                .unwrap();
            total += f64::from(rew[0]);
        }
        let world = SuiteWorld::new(task, 5);
        let mut a = Agent::new(Rotating(0), world, agent_config(&task, 11)).unwrap();
        let stats = crate::episode::run(&mut a, 11, u64::MAX, None).unwrap();
        let vs = v.last_episode(0).unwrap();
        assert_eq!(stats, *vs);
        assert!((stats.reward - total).abs() < 1e-4);
    }
}
