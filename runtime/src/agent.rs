//! The agent loop: observe → encode → policy → mask → select → apply or dispatch → repeat.
//!
//! An [`Agent`] owns a [`Policy`], a workspace sized from the policy's contract, and a host
//! [`Environment`] that runs world tools. Each [`Agent::step`] encodes the workspace and the
//! current event, runs the policy, picks a legal action template (argmax, or seeded sampling
//! with a temperature), resolves and applies it; a tool call goes to the environment, and what
//! it returns (a result or an error event, never an abort) becomes the next event.
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
//! Resuming repeats, deterministically, the steps taken after the last checkpoint, so an
//! environment sees their tool calls again. That loses no work; for no work to be *done twice*
//! the environment's side effects must be idempotent, as they are in systems that survive
//! crashes: each call carries a sequence number kept in the environment's cursor
//! ([`Environment::save_cursor`]), and the store it writes to ignores a number it has already
//! applied. `tests/crash.rs` kills an agent with SIGKILL many times and checks exactly that.

use std::path::{Path, PathBuf};

use evoharness_core::obs::Layout;
use evoharness_core::{Action, Config, Costs, EventBuf, HeapWorkspace, Outcome, ToolCall};

use crate::checkpoint::{self, Checkpoint, CheckpointError, State};
use crate::error::{Error, ErrorKind, Result};
use crate::policy::Policy;
use crate::trace::{TraceRecord, TraceSink};

/// A host's world: the tools a task's actions call.
///
/// Tools never abort the agent: a failing tool returns an [`EventKind::Error`] event.
///
/// [`EventKind::Error`]: evoharness_core::EventKind::Error
pub trait Environment {
    /// How many tools the environment has; must equal the policy's tool count.
    fn tools(&self) -> u16;

    /// Starts a task; returns its first event.
    fn reset(&mut self, seed: u64) -> EventBuf;

    /// Runs one tool call; returns what the tool said.
    fn call(&mut self, call: &ToolCall) -> EventBuf;

    /// Appends the environment's cursor to `out` for an agent checkpoint: what it needs to
    /// continue the task as if the process had never stopped (its position, its counters, the
    /// sequence number of its next side effect). Returns whether it saved one; the default
    /// saves nothing, and such an environment is on its own after a resume (fine for a
    /// stateless one).
    ///
    /// Called after a step, never during one. `out` is empty and reused between checkpoints:
    /// an environment that appends without allocating keeps checkpointing allocation-free.
    fn save_cursor(&self, out: &mut Vec<u8>) -> bool {
        let _ = out;
        false
    }

    /// Restores a cursor that [`Environment::save_cursor`] wrote, when an agent resumes. The
    /// agent then repeats the steps taken after that checkpoint, with the same tool calls, so
    /// the environment must recognise calls whose effects it already applied (see the
    /// [module docs](self)). The default refuses: an environment that saves no cursor never
    /// gets one.
    fn restore_cursor(&mut self, cursor: &[u8]) -> Result<()> {
        let _ = cursor;
        Err(Error::new(
            ErrorKind::Checkpoint,
            "the checkpoint holds an environment cursor, but this environment cannot restore \
             one (it does not implement Environment::restore_cursor)",
        ))
    }
}

/// When an agent writes its checkpoint, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointSchedule {
    /// The checkpoint file, replaced atomically (a temporary file beside it is used).
    pub path: PathBuf,
    /// After every this many steps of a task (counted from its start); `None` for never.
    pub every_steps: Option<u64>,
    /// After every step that applied a `commit` action (a Progress change).
    pub on_commit: bool,
}

impl CheckpointSchedule {
    /// A checkpoint at `path` on every commit (and at the end of a task).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            every_steps: None,
            on_commit: true,
        }
    }

    /// Also after every `n` steps.
    pub fn every_steps(mut self, n: u64) -> Self {
        self.every_steps = Some(n);
        self
    }

    /// Whether commits are boundaries.
    pub fn on_commit(mut self, yes: bool) -> Self {
        self.on_commit = yes;
        self
    }

    fn due(&self, steps: u64, committed: bool, finished: bool) -> bool {
        finished
            || (self.on_commit && committed)
            || self.every_steps.is_some_and(|n| steps.is_multiple_of(n))
    }
}

/// A schedule with the buffers its writes reuse.
struct Durable {
    schedule: CheckpointSchedule,
    tmp: PathBuf,
    bufs: Buffers,
}

/// Reused between checkpoints, so that writing one allocates only when a part grows.
#[derive(Default)]
struct Buffers {
    file: Vec<u8>,
    workspace: Vec<u8>,
    state: Vec<u8>,
    env: Vec<u8>,
}

/// How the agent picks among legal templates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Selection {
    /// The highest logit (ties: the lowest index).
    Argmax,
    /// A sample from `softmax(logits / temperature)` with the agent's seeded generator.
    Sample {
        /// Above 0; lower is greedier.
        temperature: f32,
    },
}

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
    /// The template index chosen.
    pub template: usize,
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

/// A policy driving a workspace against an environment.
pub struct Agent<E> {
    policy: Policy,
    env: E,
    ws: HeapWorkspace,
    layout: Layout,
    config: AgentConfig,
    obs: Vec<f32>,
    mask: Vec<u8>,
    rng: SplitMix64,
    steps: u64,
    world: u64,
    harness: u64,
    trace: TraceSink,
    trace_line: Vec<u8>,
    /// The policy's [`checkpoint::policy_identity`].
    identity: u64,
    durable: Option<Durable>,
}

impl<E: Environment> Agent<E> {
    /// An agent; the workspace's capacities come from the policy's contract, and the
    /// environment's tool count must match it. Starts the first task.
    pub fn new(policy: Policy, env: E, config: AgentConfig) -> Result<Self> {
        let mut agent = Self::build(policy, env, config)?;
        agent.start_task(config.seed);
        Ok(agent)
    }

    /// An agent whose task has not been started: [`Agent::new`] starts one, a resume restores
    /// one.
    fn build(policy: Policy, env: E, config: AgentConfig) -> Result<Self> {
        let caps = policy.abi().capacities;
        if env.tools() != caps.tools {
            return Err(Error::new(
                ErrorKind::Config,
                format!(
                    "the environment has {} tools, the policy was made for {}",
                    env.tools(),
                    caps.tools
                ),
            ));
        }
        if let Selection::Sample { temperature } = config.selection
            && !(temperature > 0.0 && temperature.is_finite())
        {
            return Err(Error::new(
                ErrorKind::Config,
                format!("sampling temperature must be above 0, not {temperature}"),
            ));
        }
        let ws_config = Config {
            tools: caps.tools,
            budget: config.budget,
            costs: config.costs,
        };
        let ws = HeapWorkspace::with_capacities(caps.facts, caps.steps, caps.lessons, ws_config)
            .map_err(|e| Error::new(ErrorKind::Config, format!("workspace: {e}")))?;
        let layout = policy.layout();
        Ok(Self {
            obs: vec![0.0; layout.obs_len()],
            mask: vec![0; layout.actions()],
            rng: SplitMix64(config.seed),
            env,
            ws,
            layout,
            config,
            steps: 0,
            world: 0,
            harness: 0,
            trace: TraceSink::Off,
            trace_line: Vec::with_capacity(512),
            identity: checkpoint::policy_identity(policy.abi(), policy.fingerprint()),
            durable: None,
            policy,
        })
    }

    /// Continues from the checkpoint in `path` (see [`crate::checkpoint`]): the workspace, step
    /// counters, sampler and recurrent state as they were when it was written, and the
    /// environment's cursor if it saved one ([`Environment::restore_cursor`]). The task is not
    /// restarted and [`Environment::reset`] is not called.
    ///
    /// `policy` must have the contract of the policy that wrote it, and `config` its budget and
    /// costs; the sampler's state comes from the checkpoint, not from `config.seed`, and
    /// `config.selection` applies from here on (the same one keeps the run deterministic). A
    /// file that is corrupted, truncated or foreign is refused with [`ErrorKind::Checkpoint`]
    /// (its [`CheckpointError`] as the source); a missing one with [`ErrorKind::Io`]. The
    /// schedule is not part of a checkpoint: set it again with [`Agent::set_checkpoints`].
    pub fn resume(
        policy: Policy,
        env: E,
        config: AgentConfig,
        path: impl AsRef<Path>,
    ) -> Result<Self> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| {
            Error::new(
                ErrorKind::Io,
                format!("reading checkpoint {}", path.display()),
            )
            .with_source(e)
        })?;
        Self::resume_named(policy, env, config, &bytes, &path.display().to_string())
    }

    /// [`Agent::resume`] from checkpoint bytes ([`Agent::checkpoint_bytes`] wrote them).
    pub fn resume_from_bytes(
        policy: Policy,
        env: E,
        config: AgentConfig,
        bytes: &[u8],
    ) -> Result<Self> {
        Self::resume_named(policy, env, config, bytes, "in memory")
    }

    fn resume_named(
        policy: Policy,
        env: E,
        config: AgentConfig,
        bytes: &[u8],
        name: &str,
    ) -> Result<Self> {
        let refuse = |e: CheckpointError| {
            Error::new(ErrorKind::Checkpoint, format!("checkpoint {name} refused")).with_source(e)
        };
        let c = Checkpoint::decode(bytes).map_err(refuse)?;
        let mut agent = Self::build(policy, env, config)?;
        if c.policy != agent.identity {
            return Err(refuse(CheckpointError::ForeignPolicy {
                policy: agent.identity,
                checkpoint: c.policy,
            }));
        }
        let state_len = agent.policy.state().len();
        if c.state.len() != state_len {
            return Err(refuse(CheckpointError::StateLength {
                policy: state_len,
                checkpoint: c.state.len(),
            }));
        }
        agent
            .ws
            .restore(c.workspace)
            .map_err(|e| refuse(CheckpointError::Workspace(e)))?;
        let restored = *agent.ws.config();
        if restored.budget != config.budget {
            return Err(refuse(CheckpointError::ConfigMismatch("budget")));
        }
        if restored.costs != config.costs {
            return Err(refuse(CheckpointError::ConfigMismatch("costs")));
        }
        let state: Vec<f32> = c.state.floats().collect();
        agent.policy.set_state(&state)?;
        if let Some(cursor) = c.environment {
            agent.env.restore_cursor(cursor)?;
        }
        agent.steps = c.steps;
        agent.world = c.world_actions;
        agent.harness = c.harness_actions;
        agent.rng = SplitMix64(c.rng);
        Ok(agent)
    }

    /// Writes checkpoints on `schedule` from now on (see the [module docs](self)); `None`
    /// stops. `every_steps` of `Some(0)` is refused.
    pub fn set_checkpoints(&mut self, schedule: Option<CheckpointSchedule>) -> Result<()> {
        if let Some(s) = &schedule
            && s.every_steps == Some(0)
        {
            return Err(Error::new(
                ErrorKind::Config,
                "a checkpoint every 0 steps: use None for never",
            ));
        }
        let bufs = self.durable.take().map(|d| d.bufs).unwrap_or_default();
        self.durable = schedule.map(|schedule| Durable {
            tmp: checkpoint::temp_path(&schedule.path),
            schedule,
            bufs,
        });
        Ok(())
    }

    /// The checkpoint schedule, if one is set.
    pub fn checkpoints(&self) -> Option<&CheckpointSchedule> {
        self.durable.as_ref().map(|d| &d.schedule)
    }

    /// Writes a checkpoint of the agent as it is now to `path`, atomically.
    pub fn checkpoint(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        let mut bufs = Buffers::default();
        self.encode_checkpoint(&mut bufs)?;
        checkpoint::write_atomic(path, &checkpoint::temp_path(path), &bufs.file)
            .map_err(|e| checkpoint_io(path, e))
    }

    /// The checkpoint of the agent as it is now, into `out` (cleared first).
    pub fn checkpoint_bytes(&self, out: &mut Vec<u8>) -> Result<()> {
        let mut bufs = Buffers {
            file: std::mem::take(out),
            ..Buffers::default()
        };
        let r = self.encode_checkpoint(&mut bufs);
        *out = bufs.file;
        r
    }

    fn encode_checkpoint(&self, b: &mut Buffers) -> Result<()> {
        b.workspace
            .resize(evoharness_core::snapshot::max_len(self.ws.capacities()), 0);
        let n = self
            .ws
            .snapshot(&mut b.workspace)
            .map_err(|e| {
                Error::new(
                    ErrorKind::Workspace,
                    format!("snapshotting the workspace: {e}"),
                )
            })?
            .len();
        b.env.clear();
        let saved = self.env.save_cursor(&mut b.env);
        Checkpoint {
            policy: self.identity,
            steps: self.steps,
            world_actions: self.world,
            harness_actions: self.harness,
            rng: self.rng.0,
            state: State::encode_into(self.policy.state(), &mut b.state),
            environment: saved.then_some(&b.env[..]),
            workspace: &b.workspace[..n],
        }
        .encode(&mut b.file);
        Ok(())
    }

    /// Writes the scheduled checkpoint if this step reached a boundary.
    fn checkpoint_if_due(&mut self, committed: bool) -> Result<()> {
        let finished = self.ws.finished().is_some();
        let Some(mut d) = self
            .durable
            .take_if(|d| d.schedule.due(self.steps, committed, finished))
        else {
            return Ok(());
        };
        let r = self.encode_checkpoint(&mut d.bufs).and_then(|()| {
            checkpoint::write_atomic(&d.schedule.path, &d.tmp, &d.bufs.file)
                .map_err(|e| checkpoint_io(&d.schedule.path, e))
        });
        self.durable = Some(d);
        r
    }

    /// Starts a new task with this seed: clears Belief and Progress, keeps Experience.
    pub fn start_task(&mut self, seed: u64) {
        self.ws.reset_task();
        self.policy.reset_state();
        let first = self.env.reset(seed);
        self.ws.observe_owned(first);
        self.steps = 0;
        self.world = 0;
        self.harness = 0;
    }

    /// Sends one record per step to `sink` (see [`crate::trace`]); [`TraceSink::Off`] stops.
    pub fn set_trace(&mut self, sink: TraceSink) -> Result<()> {
        let mut old = std::mem::replace(&mut self.trace, sink);
        old.flush()
            .map_err(|e| Error::new(ErrorKind::Io, "flushing the trace").with_source(e))
    }

    /// The workspace.
    pub fn workspace(&self) -> &HeapWorkspace {
        &self.ws
    }

    /// The environment.
    pub fn environment(&self) -> &E {
        &self.env
    }

    /// The environment, to change between steps (a host registering or replacing its tools).
    /// Its tool count must stay the policy's.
    pub fn environment_mut(&mut self) -> &mut E {
        &mut self.env
    }

    /// The policy.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// One step of the loop. `Ok(None)` when the task has ended (finished, or no legal action
    /// is left, as when the budget is spent).
    ///
    /// With a [`CheckpointSchedule`], a step that reaches a boundary then writes the
    /// checkpoint; if that fails, the error is returned after the step took effect, and the
    /// agent goes on (the next boundary tries again).
    pub fn step(&mut self) -> Result<Option<StepReport>> {
        if self.ws.finished().is_some() {
            return Ok(None);
        }
        let started = self.trace.is_on().then(std::time::Instant::now);
        let internal = |e: &dyn std::fmt::Display| {
            Error::new(
                ErrorKind::Workspace,
                format!("the workspace refused the loop: {e}"),
            )
        };
        self.layout
            .encode(&self.ws, &mut self.obs)
            .map_err(|e| internal(&e))?;
        let legal = self
            .layout
            .mask(&self.ws, &mut self.mask)
            .map_err(|e| internal(&e))?;
        if legal == 0 {
            return Ok(None);
        }
        let logits = self.policy.run(&self.obs, &self.mask)?;
        let template = select(logits, &self.mask, self.config.selection, &mut self.rng);
        let action = self
            .layout
            .resolve(&self.ws, template)
            .map_err(|e| internal(&e))?;
        let before = self.ws.spent();
        // The mask said legal, so apply accepts it; anything else is a bug worth reporting.
        let outcome = self.ws.apply(&action).map_err(|e| internal(&e))?;
        self.steps += 1;
        match &action {
            Action::Act { .. } => self.world += 1,
            Action::Finish { .. } => {}
            _ => self.harness += 1,
        }
        if let Outcome::Call(call) = &outcome {
            let event = self.env.call(call);
            self.ws.observe_owned(event);
        }
        let report = StepReport {
            template,
            action,
            outcome,
            cost: self.ws.spent() - before,
        };
        if let Some(t0) = started {
            let record = TraceRecord {
                step: self.steps,
                template,
                action: &report.action,
                outcome: &report.outcome,
                cost: report.cost,
                latency_ns: u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX),
            };
            self.trace
                .record(&record, &mut self.trace_line)
                .map_err(|e| Error::new(ErrorKind::Io, "writing the trace").with_source(e))?;
        }
        if self.durable.is_some() {
            self.checkpoint_if_due(matches!(report.action, Action::Commit(_)))?;
        }
        Ok(Some(report))
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
            world_actions: self.world,
            harness_actions: self.harness,
            spent: self.ws.spent(),
        }
    }
}

fn checkpoint_io(path: &Path, e: std::io::Error) -> Error {
    Error::new(
        ErrorKind::Io,
        format!("writing checkpoint {}", path.display()),
    )
    .with_source(e)
}

/// Picks a legal template: see [`Selection`]. `mask` has at least one legal entry.
fn select(logits: &[f32], mask: &[u8], how: Selection, rng: &mut SplitMix64) -> usize {
    let legal = || {
        logits
            .iter()
            .zip(mask)
            .enumerate()
            .filter(|(_, (_, m))| **m == 1)
    };
    // NaN logits rank below everything; ties go to the lowest index.
    let key = |l: f32| if l.is_nan() { f32::NEG_INFINITY } else { l };
    let mut best = None::<(usize, f32)>;
    for (i, (&l, _)) in legal() {
        if best.is_none_or(|(_, b)| key(l) > b) {
            best = Some((i, key(l)));
        }
    }
    let best = best.map_or(0, |(i, _)| i);
    let Selection::Sample { temperature } = how else {
        return best;
    };
    let top = logits[best];
    let weight = |l: f32| {
        if l.is_nan() {
            0.0
        } else {
            (f64::from(l - top) / f64::from(temperature)).exp()
        }
    };
    let total: f64 = legal().map(|(_, (&l, _))| weight(l)).sum();
    let mut target = rng.next_f64() * total;
    for (i, (&l, _)) in legal() {
        target -= weight(l);
        if target <= 0.0 {
            return i;
        }
    }
    best
}

/// SplitMix64: a tiny, well-known generator whose whole state is one `u64` (so a checkpoint
/// holds it exactly).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`, 53 bits.
    fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argmax_picks_the_best_legal_and_breaks_ties_low() {
        let mut r = SplitMix64(1);
        let logits = [5.0, 1.0, 3.0, 3.0];
        assert_eq!(select(&logits, &[0, 1, 1, 1], Selection::Argmax, &mut r), 2);
        assert_eq!(select(&logits, &[1, 1, 1, 1], Selection::Argmax, &mut r), 0);
        assert_eq!(
            select(&[f32::NAN, 1.0], &[1, 1], Selection::Argmax, &mut r),
            1
        );
    }

    #[test]
    fn sampling_is_seeded_and_stays_legal() {
        let logits = [0.0, 0.5, 0.2, 9.0];
        let mask = [1, 1, 1, 0];
        let run = |seed| {
            let mut r = SplitMix64(seed);
            (0..200)
                .map(|_| {
                    select(
                        &logits,
                        &mask,
                        Selection::Sample { temperature: 1.0 },
                        &mut r,
                    )
                })
                .collect::<Vec<_>>()
        };
        let a = run(7);
        assert_eq!(a, run(7));
        assert_ne!(a, run(8));
        assert!(a.iter().all(|&i| i < 3), "never the masked template");
        for i in 0..3 {
            assert!(a.contains(&i), "template {i} never sampled");
        }
        // A cold temperature is greedy.
        let mut r = SplitMix64(3);
        let cold = Selection::Sample { temperature: 1e-3 };
        assert!((0..50).all(|_| select(&logits, &mask, cold, &mut r) == 1));
    }

    #[test]
    fn splitmix_matches_its_reference_values() {
        // First outputs for seed 0 of the reference implementation.
        let mut r = SplitMix64(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }
}
