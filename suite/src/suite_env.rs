//! The suite's side of the training kit's [`VecEnv`]: environments over [`SuiteWorld`]s ([`SuiteVecEnv`]), with
//! the [`SuiteHooks`] that keep the static teachers' agendas, roll v3 agents back to their
//! durable state when their machine crashes, end their stores' lifetimes and move renewed
//! agents through organisations; and the rule-based [`Teacher`]s whose labels imitation
//! learns from ([`SuiteVecEnv::teacher_actions`]).

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::{Deref, DerefMut, Range};

use evoharness_core::obs::Template;
use evoharness_runtime::rng::SplitMix64;
use evoharness_runtime::{Controller, Decision, Error, ErrorKind, Result, StepReport};

use evoharness_train::vec_env::{Env, Hooks, VecEnv, check_groups};
use evoharness_train::{Account, EpisodeStats};

use crate::baselines::{LeanHarness, Oracle, StaticHarness, TunedHarness};
use crate::episode::{Durable, SuiteAccount, agent_config};
use crate::tune;
use crate::world::SuiteWorld;
use crate::{CAPACITIES, Scenario, TaskConfig};

/// The training kit's [`VecEnv`] over the suite's worlds, with the suite's [`SuiteHooks`] and
/// teachers: made by [`SuiteVecEnv::new`] or [`SuiteVecEnv::grouped`], stepped as any
/// [`VecEnv`] (it dereferences to one).
pub struct SuiteVecEnv(VecEnv<SuiteWorld, SuiteHooks>);

impl Deref for SuiteVecEnv {
    type Target = VecEnv<SuiteWorld, SuiteHooks>;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl DerefMut for SuiteVecEnv {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

/// A rule-based agent whose choice can be asked for in any state, for imitation learning
/// ([`SuiteVecEnv::teacher_actions`]).
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
    /// [`SuiteVecEnv::teacher_actions`]).
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
    /// ([`tune::retune_among`], on episodes of that organisation no
    /// evaluation uses), keeping the card like [`Teacher::FixedBest`]. It reads no card: what
    /// it knows of a deployment it measured, as reward. Imitated across many organisations it
    /// is policy improvement by search (the best behaviour per deployment, by return),
    /// distilled into one policy that must find it from the card alone. The first request in
    /// an organisation tunes it (a few milliseconds), later ones reuse that.
    Retuned,
    /// v3: in each environment, the [`REGIONAL`](crate::tune::REGIONAL) setting for its
    /// deployment's card (the model's and the machines' tier), keeping the card like
    /// [`Teacher::FixedBest`]. Its map from card to setting was found by reward on training
    /// organisations (per card, the setting of the search space that earns the most there):
    /// [`Teacher::Retuned`]'s search, pooled over deployments that look alike to a policy, so
    /// that what DAgger distils is a function of what the policy sees.
    Regional,
}

/// What [`SuiteVecEnv::teacher_actions`] writes for an environment where the teacher has no legal
/// action (a state only a learner's own mistakes reach).
pub const NO_LABEL: u32 = u32::MAX;

/// What the suite adds to its environments ([`Hooks`]).
pub struct SuiteHooks {
    /// One [`StaticHarness::imitable`] and one [`StaticHarness::over_lean`] per environment,
    /// advanced by the actions taken: their agendas are the `static` and `static-lean`
    /// teachers' state.
    statics: Vec<[StaticHarness; 2]>,
    /// v3: each environment's durable state, which a crash rolls its agent back to (empty
    /// before v3).
    durables: Vec<Durable>,
    /// The organisations an environment moves through as its agents are renewed.
    organisations: Range<u64>,
    /// The [`Teacher::Retuned`] rule of each organisation asked for so far.
    retuned: RefCell<HashMap<u64, TunedHarness>>,
}

impl SuiteVecEnv {
    /// `n` environments (at least 1) of `task`, in organisations `organisations` (not empty),
    /// seeded from `seed`. Their first episodes start at once: read them with
    /// [`VecEnv::observe`].
    pub fn new(task: TaskConfig, n: usize, organisations: Range<u64>, seed: u64) -> Result<Self> {
        Self::grouped(task, n, 1, organisations, seed)
    }

    /// Like [`SuiteVecEnv::new`], in groups of `group` environments that run the same
    /// organisation and the same sequence of seeds (see the [`VecEnv` docs](evoharness_train::vec_env));
    /// `group` must divide `n`.
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
        let hooks = |agents: &[Env<SuiteWorld>]| -> Result<SuiteHooks> {
            Ok(SuiteHooks {
                statics: vec![[StaticHarness::imitable(), StaticHarness::over_lean()]; n],
                // v3: and a durable state for its crashes.
                durables: if task.scenario == Scenario::V3 {
                    agents.iter().map(Durable::new).collect::<Result<_>>()?
                } else {
                    Vec::new()
                },
                organisations,
                retuned: RefCell::default(),
            })
        };
        let mut v = VecEnv::build(
            worlds,
            CAPACITIES,
            agent_config(&task, seed),
            &costs,
            group,
            hooks,
        )?;
        // v2: each environment's agent has its own experience store, kept across its episodes
        // (all of one organisation), as an agent of eval has.
        for a in v.envs_mut() {
            if let Some(store) = task.store() {
                a.set_experience_store(store);
            }
        }
        Ok(Self(v))
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
        let hooks = self.hooks();
        // The rules draw nothing at random.
        let mut rng = SplitMix64(0);
        for (i, r) in self.envs().iter().enumerate() {
            let view = r.view();
            let d = match teacher {
                Teacher::Lean => LeanHarness.decide(&view, &mut rng),
                Teacher::Oracle => Oracle.decide(&view, &mut rng),
                Teacher::Static => hooks.statics[i][0].clone().decide(&view, &mut rng),
                Teacher::StaticLean => hooks.statics[i][1].clone().decide(&view, &mut rng),
                Teacher::Tuned => TunedHarness::default().decide(&view, &mut rng),
                Teacher::FixedBest => TunedHarness::parse(tune::FIXED_BEST)
                    .unwrap_or_default()
                    .with_card()
                    .decide(&view, &mut rng),
                Teacher::Retuned => hooks.retuned(r.world())?.decide(&view, &mut rng),
                Teacher::Regional => {
                    tune::regional_for(r.world().config().deployment)?.decide(&view, &mut rng)
                }
            };
            out[i] = match d {
                Ok(d @ Decision::Template(t)) if r.check(&d).is_ok() => t as u32,
                _ => NO_LABEL,
            };
        }
        Ok(())
    }
}

impl SuiteHooks {
    /// The [`Teacher::Retuned`] rule of `world`'s organisation, tuned on first request.
    fn retuned(&self, world: &SuiteWorld) -> Result<TunedHarness> {
        let o = world.organisation();
        if let Some(rule) = self.retuned.borrow().get(&o) {
            return Ok(*rule);
        }
        let space = tune::search_space();
        let rule = tune::retune_among(*world.config(), o, u64::MAX, &space)?.with_card();
        self.retuned.borrow_mut().insert(o, rule);
        Ok(rule)
    }
}

impl Account<SuiteWorld> for SuiteHooks {
    fn items(&self, world: &SuiteWorld) -> u32 {
        SuiteAccount.items(world)
    }

    fn judge(&self, world: &SuiteWorld, stats: &mut EpisodeStats) {
        SuiteAccount.judge(world, stats);
    }
}

impl Hooks<SuiteWorld> for SuiteHooks {
    fn begin(&mut self, i: usize, env: &Env<SuiteWorld>) -> Result<()> {
        self.statics[i]
            .iter_mut()
            .for_each(|s| follow_begin(s, env));
        if let Some(d) = self.durables.get_mut(i) {
            d.begin(env)?;
        }
        Ok(())
    }

    fn before_step(&mut self, i: usize, env: &Env<SuiteWorld>, template: usize) {
        // A world action brings an event back, and at an event the static harness plans its
        // agenda anew (`after_step`): whether it had chosen this action changes nothing then,
        // so only a harness action needs the agenda's choice worked out.
        if !is_world_action(env, template) {
            for s in &mut self.statics[i] {
                follow_decision(s, env, template);
            }
        }
    }

    fn after_step(
        &mut self,
        i: usize,
        env: &mut Env<SuiteWorld>,
        report: &StepReport,
    ) -> Result<()> {
        // v3: a commit makes the agent's state durable; a crash rolls it back to it.
        if let Some(d) = self.durables.get_mut(i)
            && d.step(env, report)?
        {
            self.statics[i]
                .iter_mut()
                .for_each(|s| follow_begin(s, env));
        }
        // The static harness starts a new agenda at every event a world call gives.
        let event = matches!(report.outcome, evoharness_core::Outcome::Call(_))
            .then(|| env.workspace().event())
            .flatten();
        self.statics[i]
            .iter_mut()
            .for_each(|s| s.observe(&report.action, event));
        Ok(())
    }

    fn episode_ended(
        &mut self,
        _i: usize,
        env: &mut Env<SuiteWorld>,
        episodes: u64,
        renewed: bool,
    ) -> Result<()> {
        // v3: the deployment's store lifetime is up: a new agent, same place.
        if !renewed
            && let Some(life) = env.world().config().store_life()
            && episodes.is_multiple_of(u64::from(life.max(1)))
        {
            env.forget()?;
        }
        Ok(())
    }

    /// A renewed agent goes to the `life`-th organisation after its first: for its `m`-th
    /// agent, environment `i` (group `g = i / group` of `G`) runs organisation
    /// `organisations.start + (g + m·G) mod organisations.len()`.
    fn renew(&mut self, _i: usize, world: &mut SuiteWorld, g: u64, life: u64, groups: u64) {
        let norg = self.organisations.end - self.organisations.start;
        if norg > 0 {
            let k = g.wrapping_add(life.wrapping_mul(groups)) % norg;
            world.set_organisation(self.organisations.start + k);
        }
    }

    /// A suite world takes only a resume point of its own organisation.
    fn place(&self, world: &SuiteWorld) -> Option<u64> {
        Some(world.organisation())
    }

    fn set_place(&self, world: &mut SuiteWorld, place: u64) {
        world.set_organisation(place);
    }

    fn copied(&mut self, src: usize, dst: usize) -> Result<()> {
        self.statics[dst] = self.statics[src].clone();
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

    fn removed(&mut self, i: usize) {
        self.statics.remove(i);
        if i < self.durables.len() {
            self.durables.remove(i);
        }
    }
}

/// The static teacher's copy starts the episode `env` has just started.
fn follow_begin(s: &mut StaticHarness, env: &Env<SuiteWorld>) {
    s.begin(&env.view());
}

/// Whether `template` is a world action ([`Template::Act`]): [`Agent::step_with`] calls the
/// world for it, and the world's answer is the next event.
///
/// [`Agent::step_with`]: evoharness_runtime::Agent::step_with
fn is_world_action(env: &Env<SuiteWorld>, template: usize) -> bool {
    matches!(env.layout().template(template), Some(Template::Act { .. }))
}

/// The static teacher's copy moves on if `template`, about to be taken, is what it would
/// have chosen (allocation-free: its agenda is inline).
fn follow_decision(s: &mut StaticHarness, env: &Env<SuiteWorld>, template: usize) {
    let mut next = s.clone();
    if let Ok(Decision::Template(t)) = next.decide(&env.view(), &mut SplitMix64(0))
        && t == template
    {
        *s = next;
    }
}

#[cfg(test)]
mod tests {
    //! The environment over the suite's worlds and over a host's world.
    use super::*;
    use crate::TaskKind;
    use evoharness_core::obs::Source;
    use evoharness_core::{EventBuf, EventKind, StepVerb, ToolCall, Value};
    use evoharness_runtime::{Agent, Verdict, View, World};
    use evoharness_train::Intent;
    use evoharness_train::vec_env::WorldsConfig;

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
        let mut v = SuiteVecEnv::new(task, 3, 0..2, 7).unwrap();
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
                let mut v = SuiteVecEnv::new(task, n, 0..2, 5).unwrap();
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
            let mut v = SuiteVecEnv::new(task, n, 0..3, 11).unwrap();
            let al = v.actions();
            let mut b = v.buffers().unwrap();
            let mut eager = v.hooks().statics.clone();
            let (mut labels, mut want) = (vec![0; n], vec![0; n]);
            let (mut checked, mut world_actions) = (0, 0);
            for s in 0..1_500 {
                for (t, teacher) in [Teacher::Static, Teacher::StaticLean]
                    .into_iter()
                    .enumerate()
                {
                    v.teacher_actions(teacher, &mut labels).unwrap();
                    for (i, r) in v.envs().iter().enumerate() {
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
                        follow_decision(e, &v.envs()[i], b.actions[i] as usize);
                    }
                }
                let acts: Vec<bool> = (0..n)
                    .map(|i| is_world_action(&v.envs()[i], b.actions[i] as usize))
                    .collect();
                world_actions += acts.iter().filter(|&&a| a).count();
                v.step_into(&mut b).unwrap();
                for i in 0..n {
                    // An event (every world action brings one) or a new episode: a new agenda.
                    if acts[i] || b.done[i] == 1 {
                        eager[i]
                            .iter_mut()
                            .for_each(|e| follow_begin(e, &v.envs()[i]));
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
            let mut v = SuiteVecEnv::new(task, n, 0..2, 3).unwrap();
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
        let mut v = SuiteVecEnv::new(task, n, 0..2, 5).unwrap();
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
            .envs()
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
        let mut v = SuiteVecEnv::grouped(task, n, g, orgs.clone(), 3).unwrap();
        let mut forever = SuiteVecEnv::grouped(task, n, g, orgs, 3).unwrap();
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
        let mut v = SuiteVecEnv::new(task, n, 0..3, 5).unwrap();
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
        let mut v = SuiteVecEnv::grouped(task, n, g, 0..3, 17).unwrap();
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
        let mut v = SuiteVecEnv::grouped(task, n, g, 0..5, 40).unwrap();
        assert!(SuiteVecEnv::grouped(task, n, 4, 0..5, 40).is_err());
        assert!(SuiteVecEnv::grouped(task, n, 0, 0..5, 40).is_err());
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
        let mut v = SuiteVecEnv::new(task, 2, 0..1, 0).unwrap();
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
        assert!(SuiteVecEnv::new(task, 0, 0..1, 0).is_err());
        assert!(SuiteVecEnv::new(task, 1, 3..3, 0).is_err());
    }

    /// A small world that is not the suite's: three tools (`next`, `pay` an item by id, `audit`),
    /// `2 + seed % 3` items; success is finishing with every item paid exactly once.
    struct Ledger {
        items: i64,
        next: i64,
        paid: Vec<u32>,
        fail_audit: bool,
        failure: std::cell::Cell<Option<Error>>,
        /// Saves a resume point (this id, then `next` and `paid`) if set; none by default.
        id: Option<u8>,
        /// Restores a resume point of its own id (of no other); with `false`, none at all.
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

        fn save_resume_point(&self, out: &mut Vec<u8>) -> bool {
            let Some(id) = self.id else { return false };
            out.push(id);
            out.push(self.next as u8);
            out.extend(self.paid.iter().map(|&p| p as u8));
            true
        }

        fn restore_resume_point(&mut self, resume_point: &[u8]) -> evoharness_runtime::Result<()> {
            match resume_point {
                [id, next, paid @ ..] if self.restores && Some(*id) == self.id => {
                    self.next = i64::from(*next);
                    self.paid = paid.iter().map(|&p| u32::from(p)).collect();
                    Ok(())
                }
                _ => Err(Error::new(ErrorKind::Checkpoint, "not my resume point")),
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
        // A world that saves no resume point cannot be copied: refused before anything changes.
        let (error, same_obs, same_stats) = run(false, false);
        assert!(error.contains("saves no resume point"), "{error}");
        assert!(same_obs && same_stats);
        // One that takes only its own resume point: environment 1 restored as it was.
        let (error, same_obs, same_stats) = run(true, true);
        assert!(error.contains("not my resume point"), "{error}");
        assert!(same_obs && same_stats);
        // One that takes no resume point at all: a new agent starts environment 1's episode over.
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
        let suite = SuiteVecEnv::new(TaskConfig::new(TaskKind::Migration, 50), 1, 0..1, 0).unwrap();
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
        v.envs_mut()[1].world_mut().fail_audit = true;
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
        // The masks a step checks against and hands out follow the states the failed step
        // left, in the environment that stepped and in the one that failed.
        v.observe(&mut obs, &mut mask).unwrap();
        for i in 0..2 {
            let r = v.env(i).unwrap();
            let mut want = vec![0; al];
            r.layout().mask(r.workspace(), &mut want).unwrap();
            assert_eq!(mask[i * al..(i + 1) * al], want[..], "environment {i}");
        }
        let illegal = (0..al).find(|&t| mask[t] == 0).unwrap() as u32;
        let legal = (0..al).find(|&t| mask[al + t] == 1).unwrap() as u32;
        let before = (v.current_episode(0).copied(), v.current_episode(1).copied());
        let e = v
            .step(&[illegal, legal], &mut obs, &mut mask, &mut rew, &mut done)
            .unwrap_err();
        assert!(e.to_string().contains("environment 0"), "{e}");
        let after = (v.current_episode(0).copied(), v.current_episode(1).copied());
        assert_eq!(before, after, "a refused action changes nothing");
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
        let mut v = SuiteVecEnv::new(task, 1, 5..6, 11).unwrap();
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
