//! Running an agent through episodes of a task.
//!
//! A [`Controller`] decides each step: a template of the structured-v1 action space (what a
//! policy outputs), or a world call with a literal argument (what the append-only baseline,
//! which keeps its memory outside the workspace, needs). A [`Runner`] owns the [`World`] and
//! the workspace, applies the decisions, times the steps and scores the episode. The workspace
//! persists between episodes with Belief and Progress cleared and Experience kept, so lessons
//! carry over within an organisation ([`Runner::episode`]).
//!
//! An episode ends when the agent finishes, when its budget is spent (nothing but `finish` is
//! affordable: the episode counts as unfinished), or at the runner's step limit.

use std::time::Instant;

use evoharness_core::obs::Layout;
use evoharness_core::{Action, Arg, Config, EventBuf, HeapWorkspace, Outcome, Value, heapless};

use super::world::World;
use super::{CAPACITIES, EpisodeStats, TaskConfig, harness_index, reward};
use crate::agent::Environment;
use crate::error::{Error, ErrorKind, Result};

/// What a controller does next.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// Apply this template of the structured-v1 action space.
    Template(usize),
    /// Call a world tool with a literal argument (or none).
    Call {
        /// The tool.
        tool: u16,
        /// Its argument.
        arg: Option<Value>,
    },
}

/// What a controller sees when it decides.
pub struct View<'a> {
    /// The workspace, with the current event.
    pub workspace: &'a HeapWorkspace,
    /// The world. Only the oracle may look at its hidden state.
    pub world: &'a World,
    /// The action space.
    pub layout: &'a Layout,
    /// Which templates are legal, if the controller asked for it ([`Controller::wants_mask`]).
    pub mask: &'a [u8],
}

/// An agent: a policy or a baseline.
pub trait Controller {
    /// A short name for reports.
    fn name(&self) -> String;

    /// Whether [`View::mask`] should be filled (it costs a fraction of a microsecond a step).
    fn wants_mask(&self) -> bool {
        false
    }

    /// A new episode has started: the first event is in the workspace.
    fn begin(&mut self, view: &View<'_>) {
        let _ = view;
    }

    /// The next step.
    fn decide(&mut self, view: &View<'_>) -> Result<Decision>;

    /// What the decision did: the action applied, and the event a world call returned.
    fn observe(&mut self, action: &Action<'_>, event: Option<&EventBuf>) {
        let _ = (action, event);
    }
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

/// A world, a workspace and the buffers to run episodes on them.
pub struct Runner {
    world: World,
    ws: HeapWorkspace,
    layout: Layout,
    mask: Vec<u8>,
    budget: u32,
    times: StepTimes,
    timing: bool,
    stats: EpisodeStats,
}

impl Runner {
    /// A runner for this task and organisation, with the suite's [`CAPACITIES`].
    pub fn new(config: TaskConfig, family: u64) -> Result<Self> {
        let budget = config.budget();
        let ws = HeapWorkspace::with_capacities(
            CAPACITIES.facts,
            CAPACITIES.steps,
            CAPACITIES.lessons,
            Config {
                tools: CAPACITIES.tools,
                budget,
                costs: config.costs(),
            },
        )
        .map_err(|e| Error::new(ErrorKind::Config, format!("workspace: {e}")))?;
        let layout = Layout::new(CAPACITIES);
        Ok(Self {
            world: World::new(config, family),
            ws,
            mask: vec![0; layout.actions()],
            layout,
            budget,
            times: StepTimes::default(),
            timing: true,
            stats: EpisodeStats::default(),
        })
    }

    /// Whether to time steps (on by default; two clock reads a step).
    pub fn set_timing(&mut self, on: bool) {
        self.timing = on;
    }

    /// The step times so far.
    pub fn times(&self) -> &StepTimes {
        &self.times
    }

    /// The world.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The workspace.
    pub fn workspace(&self) -> &HeapWorkspace {
        &self.ws
    }

    /// The action space.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Forgets every lesson (a new organisation's agent starts without experience).
    pub fn forget_experience(&mut self) -> Result<()> {
        let caps = self.ws.capacities();
        self.ws =
            HeapWorkspace::with_capacities(caps.facts, caps.steps, caps.lessons, *self.ws.config())
                .map_err(|e| Error::new(ErrorKind::Config, format!("workspace: {e}")))?;
        Ok(())
    }

    /// Runs one episode with `seed`, at most `max_steps` steps. Experience from earlier
    /// episodes is kept.
    pub fn episode(
        &mut self,
        ctl: &mut dyn Controller,
        seed: u64,
        max_steps: u64,
    ) -> Result<EpisodeStats> {
        self.begin(seed);
        let wants_mask = ctl.wants_mask();
        ctl.begin(&self.view(false));
        while self.stats.steps < max_steps && !self.is_over() {
            let t0 = self.timing.then(Instant::now);
            if wants_mask {
                self.layout
                    .mask(&self.ws, &mut self.mask)
                    .map_err(|e| internal(&e))?;
            }
            let decision = ctl.decide(&self.view(wants_mask))?;
            self.step(&decision, Some(&mut *ctl))?;
            if let Some(t0) = t0 {
                self.times
                    .record(u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX));
            }
        }
        if !self.is_over() {
            // Stopped by the step limit.
            self.close();
        }
        Ok(self.stats)
    }

    /// Starts an episode with `seed`: clears Belief and Progress (Experience stays), resets
    /// the world and observes its first event.
    pub fn begin(&mut self, seed: u64) {
        self.ws.reset_task();
        let first = self.world.reset(seed);
        self.ws.observe_owned(first);
        self.stats = EpisodeStats {
            items: self.world.items(),
            ..EpisodeStats::default()
        };
    }

    /// Whether the episode has ended: finished, or the budget spent.
    pub fn is_over(&self) -> bool {
        self.ws.finished().is_some() || self.ws.remaining() == 0
    }

    /// The current episode's stats; final once it is over.
    pub fn stats(&self) -> &EpisodeStats {
        &self.stats
    }

    /// Checks that template `t` is legal now, without applying it.
    pub fn check(&self, t: usize) -> Result<()> {
        let action = self
            .layout
            .resolve(&self.ws, t)
            .map_err(|e| illegal(t, &e))?;
        self.ws.check(&action).map_err(|e| illegal(t, &e))
    }

    /// Applies one decision (and dispatches a world call); returns the step's reward
    /// ([`reward::step`]) and whether the episode is now over. `ctl`, if given, observes what
    /// happened. Refuses, changing nothing, a decision the workspace does not accept, and any
    /// step after the episode is over.
    pub fn step(
        &mut self,
        decision: &Decision,
        ctl: Option<&mut dyn Controller>,
    ) -> Result<(f64, bool)> {
        if self.is_over() {
            return Err(Error::new(
                ErrorKind::Workspace,
                "the episode is over: begin another",
            ));
        }
        let name = |ctl: &Option<&mut dyn Controller>| {
            ctl.as_ref()
                .map_or_else(|| "caller".to_string(), |c| c.name())
        };
        let action = match decision {
            Decision::Template(t) => self
                .layout
                .resolve(&self.ws, *t)
                .map_err(|e| refused(&name(&ctl), &format!("template {t}: {e}")))?,
            Decision::Call { tool, arg } => {
                let mut args = heapless::Vec::new();
                if let Some(v) = arg {
                    let _ = args.push(Arg::Lit(v.as_ref()));
                }
                Action::Act { tool: *tool, args }
            }
        };
        let before = self.ws.spent();
        let outcome = self
            .ws
            .apply(&action)
            .map_err(|e| refused(&name(&ctl), &format!("{action:?}: {e}")))?;
        let stats = &mut self.stats;
        stats.steps += 1;
        if let Some(i) = harness_index(action.verb()) {
            stats.harness[i] += 1;
        } else if matches!(action, Action::Act { .. }) {
            stats.world_actions += 1;
        }
        if let Outcome::Call(call) = &outcome {
            let event = self.world.call(call);
            if let Some(c) = ctl {
                c.observe(&action, Some(&event));
            }
            self.ws.observe_owned(event);
        } else if let Some(c) = ctl {
            c.observe(&action, None);
        }
        let cost = self.ws.spent() - before;
        self.stats.cost = self.ws.spent();
        let over = self.is_over();
        if over {
            self.close();
        }
        let r = reward::step(cost, self.budget, over.then_some(&self.stats));
        self.stats.reward += r;
        Ok((r, over))
    }

    fn close(&mut self) {
        let s = &mut self.stats;
        s.finished = self.ws.finished();
        s.violations = self.world.violations();
        s.success = self.world.judge(s.finished);
        s.landed = self.world.landed_count();
    }

    /// What a controller sees now (`mask`: with the legal templates, which [`Runner::episode`] fills for a controller that wants them).
    pub fn view(&self, mask: bool) -> View<'_> {
        View {
            workspace: &self.ws,
            world: &self.world,
            layout: &self.layout,
            mask: if mask { &self.mask } else { &[] },
        }
    }
}

fn illegal(t: usize, e: &dyn std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::Workspace,
        format!("template {t} is not legal now: {e}"),
    )
}

fn internal(e: &dyn std::fmt::Display) -> Error {
    Error::new(ErrorKind::Workspace, format!("the workspace refused: {e}"))
}

fn refused(who: &str, what: &str) -> Error {
    Error::new(
        ErrorKind::Workspace,
        format!("{who} chose an action the workspace refuses: {what}"),
    )
}
