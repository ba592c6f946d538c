//! [`VecEnv`]: many worlds stepped in one call, for training: any [`World`] (a host's own,
//! written in Rust, in C or in Python through the C library, or the suite's).
//!
//! This module knows no particular world. What a task adds (how its episodes are accounted,
//! state kept beside each environment, where renewed agents go) comes through [`Hooks`],
//! which do nothing by default; the suite's are `SuiteHooks`, in the `evoharness-suite`
//! crate's `suite_env` with the suite's constructors and teachers.
//!
//! Each of the `n` environments is an [`Agent`] over a world, with a workspace of the chosen
//! capacities ([`DEFAULT_CAPACITIES`] unless the caller chooses) and decisions from outside
//! ([`External`]): a step is [`Agent::step_with`], the path every agent takes. One
//! [`VecEnv::step`] takes one template index per environment and writes, into the caller's
//! buffers, each environment's next observation (structured-v1, `obs_len` floats), its mask
//! (`actions` bytes, 1 = legal), the step's reward ([`reward`](crate::reward)) and a done flag. An
//! environment whose episode ended is reset at once with its next seed (its observation is then
//! the new episode's first), and the ended episode's stats are kept for
//! [`VecEnv::last_episode`]. Experience carries over between the episodes of one environment.
//!
//! For the suite (`SuiteVecEnv::new` in `evoharness-suite`), environment `i` runs organisation
//! `organisations.start + i % organisations.len()` and, for its `k`-th episode, seed
//! `seed + i + k·n`: deterministic for a given `(seed, n, organisations)`. With groups
//! (`SuiteVecEnv::grouped`, for group-relative policy optimisation) the `group` environments
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

use evoharness_core::Capacities;
use evoharness_core::Costs;
use evoharness_core::obs::{Layout, Version};
use evoharness_runtime::{
    Agent, AgentConfig, Decision, Error, ErrorKind, External, Result, Selection, StepReport, World,
};

use crate::DEFAULT_CAPACITIES;
use crate::EpisodeStats;
use crate::intent::{self, Intent};
use crate::score::{Account, Score};

/// One environment of a [`VecEnv`].
pub type Env<W> = Agent<W, External>;

/// What a task adds to the generic environment: how its episodes are accounted
/// ([`Account`]), state kept beside each environment (a teacher's agenda, a durable copy for
/// crashes), and where a renewed agent goes. Every method has a default that does nothing,
/// and `()` is the environment of worlds that need none (a host's own,
/// [`VecEnv::from_worlds`]). The suite's is `SuiteHooks` (`evoharness-suite`).
///
/// `i` is always the environment's index; the environment calls these in step order.
pub trait Hooks<W: World>: Account<W> {
    /// Environment `i` has just started an episode: its first, the next one after an episode
    /// ended, or its current one over (a copy that could not be made).
    fn begin(&mut self, _i: usize, _env: &Env<W>) -> Result<()> {
        Ok(())
    }

    /// Environment `i` is about to take `template`.
    fn before_step(&mut self, _i: usize, _env: &Env<W>, _template: usize) {}

    /// Environment `i` has taken a step (its reward counted): the hooks may change the agent
    /// (roll it back to a durable state, say).
    fn after_step(&mut self, _i: usize, _env: &mut Env<W>, _report: &StepReport) -> Result<()> {
        Ok(())
    }

    /// Environment `i`'s episode has ended, its `episodes`-th; `renewed` if its lifetime was
    /// up ([`VecEnv::set_lifetime`]: its agent forgot everything and [`Hooks::renew`] moved
    /// it). Its next episode starts after this.
    fn episode_ended(
        &mut self,
        _i: usize,
        _env: &mut Env<W>,
        _episodes: u64,
        _renewed: bool,
    ) -> Result<()> {
        Ok(())
    }

    /// Environment `i` (of group `g`, of `groups`) starts its `life`-th agent: where its world
    /// goes (the suite: to another organisation).
    fn renew(&mut self, _i: usize, _world: &mut W, _g: u64, _life: u64, _groups: u64) {}

    /// The part of `world`'s setup a copy of its state must share (the suite: its
    /// organisation), if there is one; see [`VecEnv::copy_env`].
    fn place(&self, _world: &W) -> Option<u64> {
        None
    }

    /// Moves `world` to `place` (from [`Hooks::place`]).
    fn set_place(&self, _world: &mut W, _place: u64) {}

    /// Environment `dst` has become a copy of environment `src` ([`VecEnv::copy_env`]).
    fn copied(&mut self, _src: usize, _dst: usize) -> Result<()> {
        Ok(())
    }

    /// Environment `i` is gone (a copy whose every fallback failed, which is not reached).
    fn removed(&mut self, _i: usize) {}
}

impl<W: World> Hooks<W> for () {}

/// The arrays one [`VecEnv::step`] reads and writes, sized for a given [`VecEnv`]
/// ([`VecEnv::buffers`]): for callers that keep them together ([`VecEnv::step_into`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Buffers {
    /// One template index per environment, read by a step (a teacher's labels can be written
    /// here: the suite's `SuiteVecEnv::teacher_actions`).
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
    /// [`DEFAULT_CAPACITIES`] with `tools` tools, a budget of `budget`, the default costs
    /// (every verb 1, `finish` 0), seed 0, no groups.
    pub fn new(tools: u16, budget: u32) -> Self {
        Self {
            capacities: Capacities {
                tools,
                ..DEFAULT_CAPACITIES
            },
            budget,
            costs: Costs::default(),
            seed: 0,
            group: 1,
        }
    }
}

/// Many environments; see the [module docs](self).
pub struct VecEnv<W, H = ()> {
    agents: Vec<Env<W>>,
    /// What the task adds ([`Hooks`]).
    hooks: H,
    /// Each environment's mask as of its current state (`actions` bytes each): what a step
    /// checks its actions against, and what [`VecEnv::observe`] hands out.
    legal: Vec<u8>,
    /// Set while a step is under way: a step that stopped with an error may have left some
    /// of `legal` behind its environments' states.
    stale: bool,
    scores: Vec<Score>,
    episodes: Vec<u64>,
    last: Vec<Option<EpisodeStats>>,
    seed: u64,
    group: usize,
    /// The observation the environments write ([`VecEnv::set_layout_version`]).
    layout: Layout,
    obs_len: usize,
    actions: usize,
    /// Episodes an environment's agent lives for (0: forever); see [`VecEnv::set_lifetime`].
    lifetime: u64,
}

/// Checks that `group` (at least 1) divides `n` environments, as a grouped [`VecEnv`] needs.
pub fn check_groups(n: usize, group: usize) -> Result<()> {
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

impl<W: World> VecEnv<W> {
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
            |_| Ok(()),
        )
    }
}

impl<W: World, H: Hooks<W>> VecEnv<W, H> {
    /// Environments over `worlds` with hooks: the agents, each with `capacities` and
    /// `config` but `costs(its world)`, in groups of `group` (see the [module docs](self)),
    /// and the hooks `hooks` makes for them once they exist. How a task with [`Hooks`] of its
    /// own (the suite's) builds its environments; [`VecEnv::from_worlds`] is this with `()`.
    pub fn build(
        worlds: Vec<W>,
        capacities: Capacities,
        config: AgentConfig,
        costs: &dyn Fn(&W) -> Costs,
        group: usize,
        hooks: impl FnOnce(&[Env<W>]) -> Result<H>,
    ) -> Result<Self> {
        let n = worlds.len();
        let mut agents = Vec::with_capacity(n);
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
            agents.push(agent);
        }
        let mut hooks = hooks(&agents)?;
        let mut scores = Vec::with_capacity(n);
        for (i, a) in agents.iter().enumerate() {
            scores.push(Score::begin(a, &hooks));
            hooks.begin(i, a)?;
        }
        let layout = *agents[0].layout();
        let mut v = Self {
            agents,
            hooks,
            legal: vec![0; n * layout.actions()],
            stale: false,
            scores,
            episodes: vec![0; n],
            last: vec![None; n],
            seed: config.seed,
            group,
            layout,
            obs_len: layout.obs_len(),
            actions: layout.actions(),
            lifetime: 0,
        };
        for i in 0..n {
            v.refresh(i)?;
        }
        Ok(v)
    }

    /// Works out environment `i`'s mask after its state changed.
    fn refresh(&mut self, i: usize) -> Result<()> {
        let a = self.actions;
        let r = &self.agents[i];
        r.layout()
            .mask(r.workspace(), &mut self.legal[i * a..(i + 1) * a])
            .map(|_| ())
            .map_err(|e| Error::new(ErrorKind::Workspace, format!("environment {i}: {e}")))
    }

    /// The task's hooks ([`Hooks`]).
    pub fn hooks(&self) -> &H {
        &self.hooks
    }

    /// Every environment's agent, in order.
    pub fn envs(&self) -> &[Env<W>] {
        &self.agents
    }

    /// Every environment's agent, to set up (an experience store, say) before stepping.
    pub fn envs_mut(&mut self) -> &mut [Env<W>] {
        &mut self.agents
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

    /// Makes every environment write observations of this layout version from now on (the
    /// default is structured-v1): what a policy trained on them will declare. The templates
    /// and the mask are the same in every version; [`VecEnv::obs_len`] changes.
    pub fn set_layout_version(&mut self, version: Version) {
        self.layout = Layout::with_version(self.layout.capacities(), version);
        self.obs_len = self.layout.obs_len();
    }

    /// The layout the environments' observations follow.
    pub fn layout(&self) -> Layout {
        self.layout
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
    /// rewards and end, as the suite's worlds keep what they draw their faults from in their
    /// resume point. This is what branching rollouts need (try another action in a copy,
    /// compare returns under the same draws).
    ///
    /// `dst` keeps its own seed sequence for its next episodes and its own organisation sequence
    /// for the agents that follow ([`VecEnv::set_lifetime`]); its current agent is `src`'s, on
    /// `src`'s organisation. An index out of range, or a world that saves no resume point
    /// ([`World::save_resume_point`]: its state cannot be copied), is a [`ErrorKind::Config`] error
    /// that changes nothing. Should the copy be refused (a world that takes no resume point but its
    /// own, say), `dst` is restored from its own checkpoint of a moment before and plays on as it
    /// was; were even that refused (a world that restores no resume point at all), `dst`'s agent is
    /// replaced by a new one that starts its current episode over (seed and organisation as before,
    /// an empty workspace and store), and the error says so. Either way every environment is still
    /// there, in its place. Allocates.
    pub fn copy_env(&mut self, src: usize, dst: usize) -> Result<()> {
        let result = self.copy_agent(src, dst);
        // Whatever `dst` became (a copy, itself again, or a new agent), its mask follows.
        if dst < self.agents.len() {
            self.refresh(dst)?;
        }
        result
    }

    fn copy_agent(&mut self, src: usize, dst: usize) -> Result<()> {
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
        let saved = from.save_resume_point(&mut bytes);
        if let Some(e) = from.take_failure() {
            return Err(e);
        }
        if !saved {
            return Err(Error::new(
                ErrorKind::Config,
                format!(
                    "copy_env({src}, {dst}): environment {src}'s world saves no resume point \
                     (World::save_resume_point), so a copy could not continue its task"
                ),
            ));
        }
        bytes.clear();
        self.agents[src].checkpoint_bytes(&mut bytes)?;
        self.agents[dst].checkpoint_bytes(&mut own)?;
        let to = self.hooks.place(self.agents[src].world());
        // v3: `src`'s deployment's prices come with its organisation.
        let src_config = *self.agents[src].config();
        let old = self.agents.remove(dst);
        let config = *old.config();
        let back_to = self.hooks.place(old.world());
        let (controller, mut world) = old.into_parts();
        // A suite world takes only a resume point of its own organisation.
        if let Some(to) = to {
            self.hooks.set_place(&mut world, to);
        }
        let agent = match Env::try_resume_from_bytes(controller, world, src_config, &bytes) {
            Ok(agent) => agent,
            Err(mut refused) => {
                // Put `dst` back from its own checkpoint before reporting.
                if let Some(back_to) = back_to {
                    self.hooks.set_place(&mut refused.world, back_to);
                }
                let error = refused.error;
                // Its own checkpoint of a moment ago, refused only by a world that restores
                // no resume point at all: then a new agent starts `dst`'s episode over.
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
                                self.hooks.removed(dst);
                                let a = self.actions;
                                self.legal.drain(dst * a..(dst + 1) * a);
                                return Err(Error::new(
                                    e.kind(),
                                    format!("copy_env: environment {dst} is gone: {e}"),
                                ));
                            }
                        };
                        let (g, groups) = ((dst / self.group) as u64, (n / self.group) as u64);
                        fresh.start_task(episode_seed(self.seed, g, groups, self.episodes[dst]));
                        self.scores[dst] = Score::begin(&fresh, &self.hooks);
                        self.hooks.begin(dst, &fresh)?;
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
        self.hooks.copied(src, dst)?;
        Ok(())
    }

    /// Checks that `buf` holds `per` entries for each environment; the error names `what`.
    pub fn check_len<T>(&self, what: &str, buf: &[T], per: usize) -> Result<()> {
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

    /// Appends environment `i`'s workspace as a `generative-v1` prompt (`workspace-text-v1`:
    /// `evoharness_core::text::render`) to `out`: what a language-model policy reads there now.
    pub fn text(&self, i: usize, out: &mut String) -> Result<()> {
        let r = self.agents.get(i).ok_or_else(|| {
            Error::new(
                ErrorKind::Config,
                format!("no environment {i} of {}", self.agents.len()),
            )
        })?;
        evoharness_core::text::render(r.workspace(), out)
            .map(|_| ())
            .map_err(|_| Error::new(ErrorKind::Workspace, "rendering the workspace"))
    }

    /// Writes every environment's current observation and mask.
    pub fn observe(&self, obs: &mut [f32], mask: &mut [u8]) -> Result<()> {
        let layout = self.layout;
        self.check_len("obs", obs, self.obs_len)?;
        self.check_len("mask", mask, self.actions)?;
        let al = self.actions;
        for (i, r) in self.agents.iter().enumerate() {
            let m = &mut mask[i * al..(i + 1) * al];
            if self.stale {
                r.layout().mask(r.workspace(), m).map_err(|e| {
                    Error::new(ErrorKind::Workspace, format!("environment {i}: {e}"))
                })?;
            } else {
                m.copy_from_slice(&self.legal[i * al..(i + 1) * al]);
            }
            encode(&layout, r, i, self.obs_len, obs)?;
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
        let layout = self.layout;
        self.check_len("actions", actions, 1)?;
        self.check_len("obs", obs, self.obs_len)?;
        self.check_len("mask", mask, self.actions)?;
        self.check_len("reward", reward, 1)?;
        self.check_len("done", done, 1)?;
        // The masks say what is legal (exactly what `check` would say: core tests the mask
        // against resolving and checking every template), so only a refused action is
        // resolved again, for its reason.
        let al = self.actions;
        if self.stale {
            for i in 0..self.agents.len() {
                self.refresh(i)?;
            }
            self.stale = false;
        }
        for (i, (r, &a)) in self.agents.iter().zip(actions).enumerate() {
            let a = a as usize;
            if a < al && self.legal[i * al + a] == 1 {
                continue;
            }
            let d = Decision::Template(a);
            let why = match r.check(&d) {
                Err(e) => e.message().to_string(),
                Ok(()) => format!("template {a} is masked out"),
            };
            return Err(Error::new(
                ErrorKind::Config,
                format!("environment {i}: {why}"),
            ));
        }
        self.stale = true;
        let groups = (self.agents.len() / self.group) as u64;
        let env_error = |i: usize, e: Error| Error::new(e.kind(), format!("environment {i}: {e}"));
        for (i, (r, score)) in self.agents.iter_mut().zip(&mut self.scores).enumerate() {
            let decision = Decision::Template(actions[i] as usize);
            self.hooks.before_step(i, r, actions[i] as usize);
            let report = r
                .step_with(&decision)
                .map_err(|e| env_error(i, e))?
                .ok_or_else(|| {
                    Error::new(
                        ErrorKind::Workspace,
                        format!("environment {i}: its episode is over"),
                    )
                })?;
            reward[i] = score.step(r, &report, &self.hooks) as f32;
            self.hooks
                .after_step(i, r, &report)
                .map_err(|e| env_error(i, e))?;
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
                let renewed = self.lifetime > 0 && k.is_multiple_of(self.lifetime);
                if renewed {
                    r.forget().map_err(|e| env_error(i, e))?;
                    let life = k / self.lifetime;
                    self.hooks.renew(i, r.world_mut(), g, life, groups);
                }
                self.hooks
                    .episode_ended(i, r, k, renewed)
                    .map_err(|e| env_error(i, e))?;
                r.start_task(episode_seed(self.seed, g, groups, k));
                if let Some(e) = r.world().take_failure() {
                    return Err(env_error(i, e));
                }
                *score = Score::begin(r, &self.hooks);
                self.hooks.begin(i, r).map_err(|e| env_error(i, e))?;
            }
            let m = &mut self.legal[i * al..(i + 1) * al];
            r.layout()
                .mask(r.workspace(), m)
                .map_err(|e| Error::new(ErrorKind::Workspace, format!("environment {i}: {e}")))?;
            mask[i * al..(i + 1) * al].copy_from_slice(m);
            encode(&layout, r, i, self.obs_len, obs)?;
        }
        self.stale = false;
        Ok(())
    }
}

/// Writes environment `i`'s observation into its part of `obs`.
fn encode<W: World>(
    layout: &Layout,
    r: &Env<W>,
    i: usize,
    obs_len: usize,
    obs: &mut [f32],
) -> Result<()> {
    layout
        .encode(r.workspace(), &mut obs[i * obs_len..(i + 1) * obs_len])
        .map_err(|e| Error::new(ErrorKind::Workspace, format!("environment {i}: {e}")))
}

/// The seed of the `k`-th episode (from 0) of group `g` of `groups` (see the module docs).
pub(crate) fn episode_seed(seed: u64, g: u64, groups: u64, k: u64) -> u64 {
    seed.wrapping_add(g).wrapping_add(k.wrapping_mul(groups))
}
