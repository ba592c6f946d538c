//! The agent loop: observe → encode → decide → apply or dispatch → repeat.
//!
//! An [`Agent`] owns a [`Controller`] (a trained [`Policy`] in a host; a baseline in the task
//! suite's evaluation), a workspace sized from the controller's capacities, and a [`World`]
//! that runs the tools. Each [`Agent::step`] encodes the workspace and the current event, asks
//! the controller (a policy runs and picks a legal action template: argmax, or seeded sampling
//! with a temperature), resolves and applies the action; a tool call goes to the world, and
//! what it returns (a result or an error event, never an abort) becomes the next event.
//! [`Agent::step_with`] takes the decision from outside instead (a learner in Python) and goes
//! the same way from there: there is one step path.
//!
//! A task ends when the agent finishes, when its budget is spent (what is left pays for no
//! action but `finish`; it then counts as unfinished), or when no action is legal.
//!
//! Deterministic for a given seed on a given backend. Buffers are made once: after the first
//! step, a step allocates nothing in this crate.
//!
//! # Durability
//!
//! With a [`CheckpointSchedule`] ([`Agent::set_checkpoints`]), the agent writes its whole state
//! (see [`crate::checkpoint`]) to a file after every step that reaches a boundary: every `n`
//! steps, every applied `commit` action, and the step that finishes the task. The file is
//! replaced atomically, so a process killed at any instant leaves the last complete checkpoint,
//! and [`Agent::resume`] continues from it. Writing reuses the agent's buffers; a step at no
//! boundary does no checkpoint work at all.
//!
//! # Experience beyond the workspace
//!
//! An agent may own an [`ExperienceStore`] ([`Agent::set_experience_store`]): the workspace's
//! Experience table is then the *working set* of that larger library. Every applied `note`
//! writes through to the store (an added or merged lesson is noted there by its trigger, a
//! rating rates it there), and every lesson a `recall` returns counts a use there; a
//! write-through to a trigger the store no longer holds notes the working-set lesson first. A
//! `recall` that the workspace accepts first brings the store's best `k` matches for its query
//! into the working set ([`Workspace::load_lesson`]: updated in place, added, or replacing the
//! weakest lesson that does not match the query), then runs on the working set as ever, at its
//! usual cost. Consolidation evicts from the working set only. A store may hold other agents'
//! lessons too, merged in (the store's docs: [`crate::experience_store`]); a rating or use of
//! one of those counts as this agent's. The store is part of the agent's checkpoints; without
//! one, nothing of this happens.
//!
//! [`Workspace::load_lesson`]: evoharness_core::Workspace::load_lesson
//!
//! Resuming repeats, deterministically, the steps taken after the last checkpoint, so a world sees
//! their tool calls again. That loses no work; for no work to be *done twice* the world's side
//! effects must be idempotent, as they are in systems that survive crashes: each call carries a
//! sequence number kept in the world's resume point ([`World::save_resume_point`]), and the store
//! it writes to ignores a number it has already applied. `tests/crash.rs` kills an agent with
//! SIGKILL many times and checks exactly that.

mod durability;

use evoharness_core::obs::Layout;
use evoharness_core::{
    Action, Arg, Config, Costs, HeapWorkspace, Note, Outcome, RECALL_MAX, ValueRef, Verb, heapless,
};

use crate::controller::{Controller, Decision, Selection, View};
use crate::error::{Error, ErrorKind, Result};
use crate::experience_store::ExperienceStore;
use crate::policy::Policy;
use crate::rng::SplitMix64;
use crate::trace::{Begin, End, TRACE_VERSION, TraceRecord, TraceSink};
use crate::world::{Verdict, World};

pub use durability::CheckpointSchedule;
use durability::Durable;

/// How an agent is set up.
#[derive(Clone, Copy, Debug)]
pub struct AgentConfig {
    /// The step budget of a task.
    pub budget: u32,
    /// What each verb costs.
    pub costs: Costs,
    /// How actions are picked.
    pub selection: Selection,
    /// Seeds the task and the sampler.
    pub seed: u64,
}

impl Default for AgentConfig {
    fn default() -> Self {
        Self {
            budget: 1_000,
            costs: Costs::default(),
            selection: Selection::Argmax,
            seed: 0,
        }
    }
}

/// What one step did.
#[derive(Clone, Debug, PartialEq)]
pub struct StepReport {
    /// The template index chosen; `None` for a literal call ([`Decision::Call`]).
    pub template: Option<usize>,
    /// The action it resolved to.
    pub action: Action<'static>,
    /// What applying it gave.
    pub outcome: Outcome,
    /// The budget it cost.
    pub cost: u32,
}

/// Why a run stopped, and what it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// `Some(claimed success)` if the agent finished; `None` if it ran out of budget or steps.
    pub finished: Option<bool>,
    /// Steps taken.
    pub steps: u64,
    /// World actions among them.
    pub world_actions: u64,
    /// Harness actions (track, commit, recall, note) among them.
    pub harness_actions: u64,
    /// Budget spent.
    pub spent: u32,
}

/// A step half taken: [`Agent::prepare`] checked, encoded and masked.
pub(crate) struct Prepared {
    started: Option<std::time::Instant>,
    needs: crate::controller::Needs,
}

/// An agent that was refused ([`Agent::try_new`], [`Agent::try_resume`]), with the controller
/// and the world it was given: after a refused checkpoint, a host can start afresh with them
/// instead of loading its policy again.
pub struct Refused<C, W> {
    /// Why it was refused.
    pub error: Error,
    /// The controller, as given (a policy's recurrent state may have been overwritten: a new
    /// task or a resume sets it again).
    pub controller: C,
    /// The world, as given ([`World::restore_resume_point`] changes nothing when it refuses).
    pub world: W,
}

impl<C, W> std::fmt::Debug for Refused<C, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Refused")
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

/// A controller (by default a trained [`Policy`]) driving a workspace against a [`World`]; see
/// the [module docs](self).
pub struct Agent<W, C = Policy> {
    controller: C,
    world: W,
    ws: HeapWorkspace,
    layout: Layout,
    config: AgentConfig,
    obs: Vec<f32>,
    mask: Vec<u8>,
    rng: SplitMix64,
    steps: u64,
    world_actions: u64,
    harness: u64,
    trace: TraceSink,
    trace_line: Vec<u8>,
    /// Whether the next traced step opens a task in the trace (its `begin`).
    trace_begin: bool,
    /// The world's count of violations on the last traced line (its `violations`).
    trace_violations: Option<u32>,
    /// The seed of the current task; `None` after a resume.
    task_seed: Option<u64>,
    /// The controller's [`Controller::identity`], recorded in checkpoints.
    identity: u64,
    durable: Option<Durable>,
    /// The library behind the workspace's Experience, if any.
    store: Option<ExperienceStore>,
}

impl<W: World, C: Controller<W>> Agent<W, C> {
    /// An agent; the workspace's capacities come from the controller (a policy's contract), and
    /// the world's tool count must match them. Starts the first task with `config.seed`.
    pub fn new(controller: C, world: W, config: AgentConfig) -> Result<Self> {
        Self::try_new(controller, world, config).map_err(|r| r.error)
    }

    /// [`Agent::new`] that hands the controller and the world back when it refuses them.
    pub fn try_new(controller: C, world: W, config: AgentConfig) -> Result<Self, Refused<C, W>> {
        let mut agent = Self::build(controller, world, config)?;
        agent.start_task(config.seed);
        Ok(agent)
    }

    /// An agent whose task has not been started: [`Agent::new`] starts one, a resume restores
    /// one. A refusal hands the parts back.
    fn build(controller: C, world: W, config: AgentConfig) -> Result<Self, Refused<C, W>> {
        let caps = controller.capacities();
        let checked = if world.tools() != caps.tools {
            Err(Error::new(
                ErrorKind::Config,
                format!(
                    "the world has {} tools, the policy was made for {}",
                    world.tools(),
                    caps.tools
                ),
            ))
        } else if let Selection::Sample { temperature } = config.selection
            && !(temperature > 0.0 && temperature.is_finite())
        {
            Err(Error::new(
                ErrorKind::Config,
                format!("sampling temperature must be above 0, not {temperature}"),
            ))
        } else {
            let ws_config = Config {
                tools: caps.tools,
                budget: config.budget,
                costs: config.costs,
            };
            HeapWorkspace::with_capacities(caps.facts, caps.steps, caps.lessons, ws_config)
                .map_err(|e| Error::new(ErrorKind::Config, format!("workspace: {e}")))
        };
        let ws = match checked {
            Ok(ws) => ws,
            Err(error) => {
                return Err(Refused {
                    error,
                    controller,
                    world,
                });
            }
        };
        let layout = controller.layout();
        Ok(Self {
            obs: vec![0.0; layout.obs_len()],
            mask: vec![0; layout.actions()],
            rng: SplitMix64(config.seed),
            identity: controller.identity(),
            controller,
            world,
            ws,
            layout,
            config,
            steps: 0,
            world_actions: 0,
            harness: 0,
            trace: TraceSink::Off,
            trace_line: Vec::with_capacity(512),
            trace_begin: true,
            trace_violations: None,
            task_seed: None,
            durable: None,
            store: None,
        })
    }

    /// Starts a new task with this seed: clears Belief and Progress, keeps Experience, resets
    /// the world and tells the controller. If the world itself failed to reset
    /// ([`World::take_failure`]), the next step returns that error (unless the caller took it
    /// from the world first).
    pub fn start_task(&mut self, seed: u64) {
        self.ws.reset_task();
        let first = self.world.reset(seed);
        self.ws.observe_owned(first);
        self.steps = 0;
        self.world_actions = 0;
        self.harness = 0;
        self.task_seed = Some(seed);
        self.begin_controller();
    }

    /// The controller begins from the workspace as it is, and the trace opens anew with it.
    fn begin_controller(&mut self) {
        self.trace_begin = true;
        let view = View {
            workspace: &self.ws,
            layout: &self.layout,
            world: &self.world,
            obs: &[],
            mask: &[],
            selection: self.config.selection,
        };
        self.controller.begin(&view);
    }

    /// The process restarts from its last durable state while the world goes on (a spot
    /// machine reclaimed, a deploy): the workspace's Belief, Progress and Experience become
    /// `durable`'s ([`Workspace::restore_tables`]; a copy the host took at its last
    /// checkpoint, say at a `commit`), the budget spent and the world stay as they are, the
    /// controller begins again from there ([`Controller::begin`]), and `event` (what the
    /// restarted process is told, such as a notice) is the current event. The experience
    /// store, a file of its own, is kept. Nothing is allocated.
    ///
    /// A simulation of a crash for worlds that outlive their agents (the task suite's
    /// deployments); a host that really restarts resumes from its checkpoint file
    /// ([`Agent::resume`]). An error, with nothing changed, if `durable` holds more than this
    /// agent's workspace has room for.
    ///
    /// [`Workspace::restore_tables`]: evoharness_core::Workspace::restore_tables
    pub fn restart(
        &mut self,
        durable: &HeapWorkspace,
        event: evoharness_core::EventBuf,
    ) -> Result<()> {
        self.ws
            .restore_tables(durable)
            .map_err(|e| Error::new(ErrorKind::Config, format!("restart: {e}")))?;
        self.ws.observe_owned(event);
        // The restarted process's trace opens anew, with the workspace it restarted from.
        self.begin_controller();
        Ok(())
    }

    /// Sends one record per step to `sink` (see [`crate::trace`]); [`TraceSink::Off`] stops.
    pub fn set_trace(&mut self, sink: TraceSink) -> Result<()> {
        let mut old = std::mem::replace(&mut self.trace, sink);
        self.trace_begin = true;
        old.flush()
            .map_err(|e| Error::new(ErrorKind::Io, "flushing the trace").with_source(e))
    }

    /// Gives the agent an experience store behind its workspace's Experience (see the
    /// [module docs](self)); returns the one it had. The store is written to checkpoints from
    /// now on.
    pub fn set_experience_store(&mut self, store: ExperienceStore) -> Option<ExperienceStore> {
        self.store.replace(store)
    }

    /// The experience store, if the agent has one.
    pub fn experience_store(&self) -> Option<&ExperienceStore> {
        self.store.as_ref()
    }

    /// The experience store, to change between steps (merging a fleet's lessons into it, say).
    pub fn experience_store_mut(&mut self) -> Option<&mut ExperienceStore> {
        self.store.as_mut()
    }

    /// Takes the experience store away: the agent goes on without one (its working set stays).
    pub fn take_experience_store(&mut self) -> Option<ExperienceStore> {
        self.store.take()
    }

    /// Forgets everything it has learned, as a newly made agent knows nothing: a new, empty
    /// workspace (Experience and its clock included) of the same capacities, budget and costs,
    /// and, if it has an experience store, that store renewed: a new replica with no lessons
    /// ([`ExperienceStore::renew`]). Call [`Agent::start_task`] next. Allocates (a
    /// workspace); for a fleet that replaces an agent with a new one on the same world, such as
    /// a training environment moving on to another organisation.
    pub fn forget(&mut self) -> Result<()> {
        let caps = self.ws.capacities();
        let ws =
            HeapWorkspace::with_capacities(caps.facts, caps.steps, caps.lessons, *self.ws.config())
                .map_err(|e| Error::new(ErrorKind::Config, format!("workspace: {e}")))?;
        if let Some(store) = &mut self.store {
            store.renew();
        }
        self.ws = ws;
        Ok(())
    }

    /// The workspace.
    pub fn workspace(&self) -> &HeapWorkspace {
        &self.ws
    }

    /// The action space and observation: the layout its controller reads (for a policy, the
    /// version its file declares), of the workspace's capacities.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The world.
    pub fn world(&self) -> &W {
        &self.world
    }

    /// The world, to change between steps (a host registering or replacing its tools). Its tool
    /// count must stay the policy's.
    pub fn world_mut(&mut self) -> &mut W {
        &mut self.world
    }

    /// The controller (the policy).
    pub fn controller(&self) -> &C {
        &self.controller
    }

    /// The controller, to change between steps.
    pub fn controller_mut(&mut self) -> &mut C {
        &mut self.controller
    }

    /// Takes the agent apart: its controller and its world (the workspace is dropped).
    pub fn into_parts(self) -> (C, W) {
        (self.controller, self.world)
    }

    /// How the agent is set up.
    pub fn config(&self) -> &AgentConfig {
        &self.config
    }

    /// What a controller sees now, without the observation and mask (a teacher asked for its
    /// choice in the current state, say).
    pub fn view(&self) -> View<'_, W> {
        View {
            workspace: &self.ws,
            layout: &self.layout,
            world: &self.world,
            obs: &[],
            mask: &[],
            selection: self.config.selection,
        }
    }

    /// Whether the current task has ended: finished, or its budget spent, so that no action but
    /// `finish` fits what is left (then it counts as unfinished, even though `finish` costs
    /// nothing).
    pub fn is_over(&self) -> bool {
        self.ws.finished().is_some() || self.ws.budget_spent()
    }

    /// How the current task went so far, as the world judges it ([`World::judge`]); `None`
    /// also when the world failed to judge (see [`Agent::try_verdict`]).
    pub fn verdict(&self) -> Option<Verdict> {
        self.world.judge(self.ws.finished())
    }

    /// [`Agent::verdict`], with the world's own failure ([`World::take_failure`]) as an error.
    pub fn try_verdict(&self) -> Result<Option<Verdict>> {
        let v = self.world.judge(self.ws.finished());
        match self.world.take_failure() {
            Some(e) => Err(e),
            None => Ok(v),
        }
    }

    /// One step of the loop. `Ok(None)` when the task has ended (finished, budget spent, or no
    /// legal action left).
    ///
    /// With a [`CheckpointSchedule`], a step that reaches a boundary then writes the
    /// checkpoint; if that fails, the error is returned after the step took effect, and the
    /// agent goes on (the next boundary tries again).
    ///
    /// A world that itself failed ([`World::take_failure`]) makes the step return its error
    /// ([`ErrorKind::World`] for a host's callback world): after the tool call, with the step
    /// taken and the world's placeholder event observed, and no checkpoint written; after a
    /// failed reset, at the next step, before anything is done.
    pub fn step(&mut self) -> Result<Option<StepReport>> {
        match self.prepare()? {
            Some(prepared) => self.decide_and_advance(prepared).map(Some),
            None => Ok(None),
        }
    }

    /// The first half of a step: the checks, the observation and the mask. `None` when the
    /// task has ended. A [`Fleet`](crate::Fleet) runs its policy between the halves.
    pub(crate) fn prepare(&mut self) -> Result<Option<Prepared>> {
        if let Some(e) = self.world.take_failure() {
            return Err(e);
        }
        if self.is_over() {
            return Ok(None);
        }
        let started = self.trace.is_on().then(std::time::Instant::now);
        let needs = self.controller.needs();
        if needs.obs {
            self.layout
                .encode(&self.ws, &mut self.obs)
                .map_err(|e| internal(&e))?;
        }
        if needs.mask {
            let legal = self
                .layout
                .mask(&self.ws, &mut self.mask)
                .map_err(|e| internal(&e))?;
            if legal == 0 {
                return Ok(None);
            }
        }
        Ok(Some(Prepared { started, needs }))
    }

    /// The observation and mask [`Agent::prepare`] wrote.
    pub(crate) fn encoded(&self) -> (&[f32], &[u8]) {
        (&self.obs, &self.mask)
    }

    /// The second half of a step: the controller decides, the action is applied.
    pub(crate) fn decide_and_advance(&mut self, prepared: Prepared) -> Result<StepReport> {
        let Prepared { started, needs } = prepared;
        let view = View {
            workspace: &self.ws,
            layout: &self.layout,
            world: &self.world,
            obs: if needs.obs { &self.obs } else { &[] },
            mask: if needs.mask { &self.mask } else { &[] },
            selection: self.config.selection,
        };
        let decision = self.controller.decide(&view, &mut self.rng)?;
        let (action, template) = self.resolve(&decision).map_err(|e| {
            Error::new(
                ErrorKind::Workspace,
                format!(
                    "the controller chose an action the workspace refuses: {}",
                    e.message()
                ),
            )
        })?;
        self.advance(action, template, started)
    }

    /// One step with a decision made outside the agent (a learner in another language, a
    /// teacher): the same path as [`Agent::step`] from the decision on. `Ok(None)` when the
    /// task has already ended. A decision the workspace refuses is an error that changes
    /// nothing.
    pub fn step_with(&mut self, decision: &Decision) -> Result<Option<StepReport>> {
        if let Some(e) = self.world.take_failure() {
            return Err(e);
        }
        if self.is_over() {
            return Ok(None);
        }
        let started = self.trace.is_on().then(std::time::Instant::now);
        let (action, template) = self.resolve(decision)?;
        self.advance(action, template, started).map(Some)
    }

    /// Checks that `decision` is legal now, changing nothing.
    pub fn check(&self, decision: &Decision) -> Result<()> {
        let (action, _) = self.resolve(decision)?;
        self.ws.check(&action).map_err(|e| {
            Error::new(
                ErrorKind::Workspace,
                format!("{} is not legal now: {e}", describe(decision)),
            )
        })
    }

    fn resolve(&self, decision: &Decision) -> Result<(Action<'static>, Option<usize>)> {
        match decision {
            Decision::Template(t) => self
                .layout
                .resolve(&self.ws, *t)
                .map(|a| (a, Some(*t)))
                .map_err(|e| {
                    Error::new(
                        ErrorKind::Workspace,
                        format!("{} is not legal now: {e}", describe(decision)),
                    )
                }),
            Decision::Call { tool, arg } => {
                let mut args = heapless::Vec::new();
                if let Some(v) = arg {
                    // One argument always fits.
                    let _ = args.push(Arg::Lit(ValueRef::Int(*v)));
                }
                Ok((Action::Act { tool: *tool, args }, None))
            }
        }
    }

    /// Applies a resolved action, dispatches a tool call, traces and checkpoints.
    fn advance(
        &mut self,
        action: Action<'static>,
        template: Option<usize>,
        started: Option<std::time::Instant>,
    ) -> Result<StepReport> {
        let before = self.ws.spent();
        let begin = (started.is_some() && self.trace_begin).then(|| self.begin());
        if self.store.is_some() {
            self.load_for_recall(&action);
        }
        let outcome = self.ws.apply(&action).map_err(|e| {
            Error::new(
                ErrorKind::Workspace,
                format!("the workspace refused {action:?}"),
            )
            .with_source(e)
        })?;
        if self.store.is_some() {
            self.write_through(&action, &outcome);
        }
        // Saturating: a resumed checkpoint's counters are untrusted.
        self.steps = self.steps.saturating_add(1);
        match &action {
            Action::Act { .. } => self.world_actions = self.world_actions.saturating_add(1),
            Action::Finish { .. } => {}
            _ => self.harness = self.harness.saturating_add(1),
        }
        if let Outcome::Call(call) = &outcome {
            let event = self.world.call(call);
            self.controller.observe(&action, Some(&event));
            self.ws.observe_owned(event);
            if let Some(e) = self.world.take_failure() {
                return Err(e);
            }
        } else {
            self.controller.observe(&action, None);
        }
        let report = StepReport {
            template,
            action,
            outcome,
            cost: self.ws.spent() - before,
        };
        if let Some(t0) = started {
            let ws = &self.ws;
            let verb = report.action.verb();
            let end = self.is_over().then(|| End {
                finished: ws.finished(),
                verdict: self.world.judge(ws.finished()),
            });
            let violations = self.world.violations_so_far();
            let last_traced = match &begin {
                Some(b) => b.violations,
                None => self.trace_violations,
            };
            let record = TraceRecord {
                step: self.steps,
                template: report.template,
                action: &report.action,
                outcome: &report.outcome,
                cost: report.cost,
                latency_ns: u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX),
                spent: ws.spent(),
                clock: ws.clock(),
                event: (verb == Verb::Act).then(|| ws.event()).flatten(),
                belief: (verb == Verb::Track).then(|| ws.belief().facts()),
                progress: (verb == Verb::Commit).then(|| ws.progress().steps()),
                experience: matches!(verb, Verb::Recall | Verb::Note)
                    .then(|| ws.experience().lessons()),
                begin: begin.as_ref(),
                end,
                violations: violations.filter(|_| violations != last_traced),
            };
            self.trace
                .record(&record, &mut self.trace_line)
                .map_err(|e| Error::new(ErrorKind::Io, "writing the trace").with_source(e))?;
            self.trace_begin = false;
            self.trace_violations = violations;
            if end.is_some() {
                // A task's last line reaches the file with it (a viewer may be following).
                self.trace
                    .flush()
                    .map_err(|e| Error::new(ErrorKind::Io, "flushing the trace").with_source(e))?;
            }
        }
        if self.durable.is_some() {
            self.checkpoint_if_due(matches!(report.action, Action::Commit(_)))?;
        }
        Ok(report)
    }

    /// The workspace as a trace's `begin` shows it: before the step being taken.
    fn begin(&self) -> Begin {
        let ws = &self.ws;
        Begin {
            trace: TRACE_VERSION,
            seed: self.task_seed,
            budget: ws.config().budget,
            steps: self.steps,
            clock: ws.clock(),
            spent: ws.spent(),
            tools: (0..self.world.tools())
                .map(|t| self.world.tool_name(t).map(String::from))
                .collect(),
            event: ws.event().cloned(),
            belief: ws.belief().facts().to_vec(),
            progress: ws.progress().steps().to_vec(),
            experience: ws.experience().lessons().to_vec(),
            violations: self.world.violations_so_far(),
        }
    }

    /// Before a recall the workspace accepts: brings the store's best matches for its query into
    /// the working set. A recall the workspace refuses must change nothing, so it loads nothing.
    fn load_for_recall(&mut self, action: &Action<'_>) {
        let (Some(store), Action::Recall { query, k }) = (&self.store, action) else {
            return;
        };
        if self.ws.check(action).is_err() {
            return;
        }
        let Ok(query) = self.ws.resolve(query) else {
            return;
        };
        for l in store.matches::<RECALL_MAX>(&query, usize::from(*k)) {
            // Handed back only when every working-set lesson matches the query already: the
            // recall then has matches enough.
            let _ = self.ws.load_lesson(l.clone(), &query);
        }
    }

    /// After an applied action: notes, ratings and recalls reach the store.
    fn write_through(&mut self, action: &Action<'_>, outcome: &Outcome) {
        let Some(store) = &mut self.store else {
            return;
        };
        let lessons = self.ws.experience().lessons();
        // A trigger the store lacks (evicted there, or in the working set from before the
        // store) is noted first.
        let ensure = |store: &mut ExperienceStore, slot: u16| {
            let l = &lessons[usize::from(slot)];
            if store.get(&l.trigger).is_none() {
                store.note(l.trigger.clone(), l.remedy.clone());
            }
            &l.trigger
        };
        match (action, outcome) {
            (_, Outcome::Noted { slot, .. }) => {
                let l = &lessons[usize::from(*slot)];
                store.note(l.trigger.clone(), l.remedy.clone());
            }
            (Action::Note(Note::Rate { helpful, .. }), Outcome::Rated { slot }) => {
                let trigger = ensure(store, *slot);
                store.rate(trigger, *helpful);
            }
            (_, Outcome::Recalled(found)) => {
                for r in found {
                    let trigger = ensure(store, r.slot);
                    store.count_use(trigger);
                }
            }
            _ => {}
        }
    }

    /// Steps until the task ends or `max_steps` steps were taken.
    pub fn run(&mut self, max_steps: u64) -> Result<Summary> {
        for _ in 0..max_steps {
            if self.step()?.is_none() {
                break;
            }
        }
        self.trace
            .flush()
            .map_err(|e| Error::new(ErrorKind::Io, "flushing the trace").with_source(e))?;
        Ok(self.summary())
    }

    /// What the current task did so far.
    pub fn summary(&self) -> Summary {
        Summary {
            finished: self.ws.finished(),
            steps: self.steps,
            world_actions: self.world_actions,
            harness_actions: self.harness,
            spent: self.ws.spent(),
        }
    }
}

impl<W: World> Agent<W, Policy> {
    /// The policy.
    pub fn policy(&self) -> &Policy {
        &self.controller
    }
}

fn describe(d: &Decision) -> String {
    match d {
        Decision::Template(t) => format!("template {t}"),
        Decision::Call { tool, arg } => format!("a call of tool {tool} with {arg:?}"),
    }
}

fn internal(e: &dyn std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::Workspace,
        format!("the workspace refused the loop: {e}"),
    )
}
