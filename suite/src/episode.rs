//! Scoring an agent's episodes of a suite task (or of any other world).
//!
//! An episode is a task of an [`Agent`] over a [`SuiteWorld`] (or any [`World`]):
//! [`Agent::start_task`] with a seed, then steps until the agent finishes, its budget is spent
//! (the episode counts as unfinished), or a step limit. [`Score`] turns each step's [`StepReport`] into the episode's
//! [`EpisodeStats`] and [`reward`](evoharness_train::reward); [`run`] plays a whole episode with the agent's own
//! controller, and the training kit's [`VecEnv`](evoharness_train::VecEnv) steps agents with decisions from a learner. Both
//! use the agent's one step path.
//!
//! The agent's workspace persists between episodes with Belief and Progress cleared and
//! Experience kept, so lessons carry over within an organisation.

use std::time::Instant;

use evoharness_core::{ApplyError, HeapWorkspace, Verb};
use evoharness_runtime::{
    Agent, AgentConfig, Controller, Error, ErrorKind, Result, Selection, StepReport, World,
};

use evoharness_train::{Account, EpisodeStats, Score};

use crate::TaskConfig;
use crate::world::SuiteWorld;

/// The agent configuration a suite task needs: its budget and costs, greedy choices, `seed`.
pub fn agent_config(task: &TaskConfig, seed: u64) -> AgentConfig {
    AgentConfig {
        budget: task.budget(),
        costs: task.costs(),
        selection: Selection::Argmax,
        seed,
    }
}

/// The world as a suite world of a deployment that crashes (v3), if it is one.
fn crashing_world(w: &mut SuiteWorld) -> Option<&mut SuiteWorld> {
    Some(w).filter(|w| w.config().deployment.is_some())
}

/// What an agent of a v3 deployment restarts from when its machine crashes: a copy of its
/// workspace taken at its last `commit` (or when its episode started), as a runtime writes its
/// checkpoint on commits ([`CheckpointSchedule`](evoharness_runtime::CheckpointSchedule)).
///
/// Drive it beside the agent: [`Durable::begin`] when an episode starts, [`Durable::step`]
/// after every step. For worlds that are not v3 suite worlds it does nothing. The copy is
/// made once; nothing is allocated after.
pub struct Durable {
    copy: HeapWorkspace,
    crashes: u64,
}

impl Durable {
    /// A durable copy for `agent`'s workspace, taken now.
    pub fn new<W, C>(agent: &Agent<W, C>) -> Result<Self>
    where
        W: World,
        C: Controller<W>,
    {
        let ws = agent.workspace();
        let caps = ws.capacities();
        let mut copy =
            HeapWorkspace::with_capacities(caps.facts, caps.steps, caps.lessons, *ws.config())
                .map_err(|e| Error::new(ErrorKind::Config, format!("workspace: {e}")))?;
        copy.restore_tables(ws)
            .map_err(|e| Error::new(ErrorKind::Config, format!("workspace: {e}")))?;
        Ok(Self { copy, crashes: 0 })
    }

    /// The episode `agent` has just started: its state now (lessons kept, nothing else) is
    /// what a crash before its first commit goes back to.
    pub fn begin<W, C>(&mut self, agent: &Agent<W, C>) -> Result<()>
    where
        W: World,
        C: Controller<W>,
    {
        self.crashes = 0;
        self.copy
            .restore_tables(agent.workspace())
            .map_err(|e| Error::new(ErrorKind::Config, format!("workspace: {e}")))
    }

    /// After a step: a `commit` makes the agent's state durable (and the world's queue
    /// position with it); a world call that crashed the agent's machine
    /// ([`SuiteWorld::take_crash`]) rolls the agent back to the durable copy while the world
    /// keeps what it did ([`Agent::restart`] with [`SuiteWorld::restart`]'s notice). Returns
    /// whether the agent crashed.
    pub fn step<C>(&mut self, agent: &mut Agent<SuiteWorld, C>, report: &StepReport) -> Result<bool>
    where
        C: Controller<SuiteWorld>,
    {
        let over = agent.is_over();
        let Some(world) = crashing_world(agent.world_mut()) else {
            return Ok(false);
        };
        if report.action.verb() == Verb::Commit {
            world.mark_durable();
            self.copy
                .restore_tables(agent.workspace())
                .map_err(|e| Error::new(ErrorKind::Config, format!("workspace: {e}")))?;
            return Ok(false);
        }
        // A crash after the episode's last call changes nothing.
        if !world.take_crash() || over {
            return Ok(false);
        }
        let notice = world.restart();
        agent.restart(&self.copy, notice)?;
        self.crashes += 1;
        Ok(true)
    }

    /// Takes `other`'s durable state and crash count (a copy of its environment).
    pub fn copy_from(&mut self, other: &Durable) -> Result<()> {
        self.crashes = other.crashes;
        self.copy
            .restore_tables(&other.copy)
            .map_err(|e| Error::new(ErrorKind::Config, format!("workspace: {e}")))
    }

    /// Crashes in the current episode.
    pub fn crashes(&self) -> u64 {
        self.crashes
    }
}

/// The suite's worlds' [`Account`]: their items, landings and violations by kind.
#[derive(Clone, Copy, Debug, Default)]
pub struct SuiteAccount;

impl Account<SuiteWorld> for SuiteAccount {
    fn items(&self, world: &SuiteWorld) -> u32 {
        world.items()
    }

    fn judge(&self, world: &SuiteWorld, stats: &mut EpisodeStats) {
        stats.violations = world.violations();
        stats.success = world.judge(stats.finished);
        stats.landed = world.landed_count();
    }
}

/// Plays one episode with seed `seed` and the agent's own controller, at most `max_steps`
/// steps, timing each step into `times` if given. Experience from earlier episodes is kept.
/// A world that fails ([`World::take_failure`]) ends it with its error.
pub fn run<C>(
    agent: &mut Agent<SuiteWorld, C>,
    seed: u64,
    max_steps: u64,
    mut times: Option<&mut StepTimes>,
) -> Result<EpisodeStats>
where
    C: Controller<SuiteWorld>,
{
    agent.start_task(seed);
    let mut score = Score::begin(agent, &SuiteAccount);
    let mut durable = match crashing_world(agent.world_mut()) {
        Some(_) => Some(Durable::new(agent)?),
        None => None,
    };
    while score.stats().steps < max_steps && !agent.is_over() {
        let t0 = times.is_some().then(Instant::now);
        let report = match agent.step() {
            Ok(Some(report)) => report,
            Ok(None) => break,
            // A rule that chose an action the last of the budget cannot pay for (a world call
            // that costs two, with one left) has spent the budget: the episode is unfinished.
            Err(e) if over_budget(&e) => break,
            Err(e) => return Err(e),
        };
        if let (Some(t), Some(t0)) = (times.as_deref_mut(), t0) {
            t.record(u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX));
        }
        score.step(agent, &report, &SuiteAccount);
        if let Some(d) = durable.as_mut() {
            d.step(agent, &report)?;
        }
    }
    score.close(agent, &SuiteAccount);
    if let Some(e) = agent.world().take_failure() {
        return Err(e);
    }
    Ok(*score.stats())
}

/// Whether `e` is the workspace refusing an action for costing more than the budget has left.
fn over_budget(e: &evoharness_runtime::Error) -> bool {
    std::error::Error::source(e)
        .and_then(|s| s.downcast_ref::<ApplyError>())
        .is_some_and(|a| *a == ApplyError::OverBudget)
}

/// Step times, in a log-scaled histogram: a median within about 3%, in constant memory.
#[derive(Clone, Debug)]
pub struct StepTimes {
    buckets: Vec<u64>,
    count: u64,
}

/// Sub-buckets per power of two.
const SUB: f64 = 32.0;

/// 64 powers of two of nanoseconds.
const BUCKETS: usize = 64 * SUB as usize;

impl Default for StepTimes {
    /// Empty; the buckets are allocated at the first step recorded.
    fn default() -> Self {
        Self {
            buckets: Vec::new(),
            count: 0,
        }
    }
}

impl StepTimes {
    /// Records one step of `ns` nanoseconds.
    pub fn record(&mut self, ns: u64) {
        if self.buckets.is_empty() {
            self.buckets = vec![0; BUCKETS];
        }
        let b = ((ns.max(1) as f64).log2() * SUB) as usize;
        if let Some(c) = self.buckets.get_mut(b.min(BUCKETS - 1)) {
            *c += 1;
        }
        self.count += 1;
    }

    /// Adds another histogram's steps.
    pub fn merge(&mut self, other: &StepTimes) {
        if self.buckets.is_empty() && !other.buckets.is_empty() {
            self.buckets = vec![0; BUCKETS];
        }
        for (a, b) in self.buckets.iter_mut().zip(&other.buckets) {
            *a += b;
        }
        self.count += other.count;
    }

    /// Steps recorded.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The `q` quantile (0 to 1) in microseconds; 0 without steps.
    pub fn quantile_us(&self, q: f64) -> f64 {
        if self.count == 0 {
            return 0.0;
        }
        let target = ((self.count as f64) * q).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (b, &c) in self.buckets.iter().enumerate() {
            seen += c;
            if seen >= target {
                // The bucket's geometric middle.
                return 2f64.powf((b as f64 + 0.5) / SUB) / 1_000.0;
            }
        }
        0.0
    }
}
