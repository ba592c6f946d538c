//! Many agents, one policy, one batched inference per step.
//!
//! A service rarely runs one agent: it runs one per customer workflow, thousands at once. Each
//! [`Agent`] running its own [`Policy`] pays a whole backend call per decision — at batch 1 a
//! small policy's call is mostly overhead, not arithmetic. A [`Fleet`] holds N agents, each with
//! its own world, workspace, experience store, checkpoints and trace, and one policy; each
//! [`Fleet::step`] prepares every agent whose task goes on (observation and mask), runs the
//! policy **once** on all of them ([`Policy::run_batch`]), and then lets each agent pick its
//! action from its row of logits and take its step — the same step path as [`Agent::step`].
//!
//! Each agent's actions, traces and checkpoints are byte for byte those it would make alone
//! with its own copy of the policy (`tests/fleet.rs`): its controller, a [`FleetMember`],
//! selects from the logits with the agent's own seeded generator, keeps the agent's recurrent
//! state, and has the policy's identity, so a checkpoint written in a fleet resumes alone and
//! the reverse. With a file that has a dynamic batch dimension ([`Policy::batched`]) the run is
//! one backend call; a batch-1 file works too, one call per agent.
//!
//! After the first step (and after adding agents), a fleet step allocates nothing in this
//! crate: what it allocates is its one policy run's (`tests/alloc.rs`).
//!
//! ```no_run
//! # use evoharness_runtime::{AgentConfig, Fleet, FixtureWorld, PolicyBuilder};
//! # fn main() -> evoharness_runtime::Result<()> {
//! let policy = PolicyBuilder::new().commit_from_file("policy.onnx")?;
//! let mut fleet = Fleet::new(policy);
//! for seed in 0..256 {
//!     let config = AgentConfig { seed, ..Default::default() };
//!     fleet.spawn(FixtureWorld::new(), config)?;
//! }
//! while fleet.step()? > 0 {
//!     for i in 0..fleet.len() {
//!         if let Some(Err(e)) = fleet.report(i) {
//!             eprintln!("agent {i}: {e}");
//!         }
//!     }
//! }
//! # Ok(()) }
//! ```

use evoharness_core::Capacities;

use crate::agent::{Agent, AgentConfig, Prepared, StepReport};
use crate::batch::Batch;
use crate::controller::{Controller, Decision, View, select};
use crate::error::{Error, ErrorKind, Result};
use crate::policy::{Policy, policy_identity};
use crate::rng::SplitMix64;
use crate::world::World;

/// The controller of an agent in a [`Fleet`]: it decides from the logits its fleet's batched
/// run gave the agent, and keeps the agent's recurrent state. Made by [`Fleet::member`].
#[derive(Clone, Debug)]
pub struct FleetMember {
    capacities: Capacities,
    identity: u64,
    state: Vec<f32>,
    logits: Vec<f32>,
    value: Option<f32>,
    /// Whether the fleet has set the logits of the step being taken.
    ready: bool,
}

impl FleetMember {
    /// The logits of the agent's last decision (zeros before the first).
    pub fn logits(&self) -> &[f32] {
        &self.logits
    }

    /// The value estimate of the agent's last decision, if the policy has one.
    pub fn value(&self) -> Option<f32> {
        self.value
    }
}

impl<W: ?Sized> Controller<W> for FleetMember {
    fn name(&self) -> String {
        "policy".into()
    }

    fn capacities(&self) -> Capacities {
        self.capacities
    }

    fn begin(&mut self, _: &View<'_, W>) {
        self.state.fill(0.0);
    }

    fn decide(&mut self, view: &View<'_, W>, rng: &mut SplitMix64) -> Result<Decision> {
        if !std::mem::take(&mut self.ready) {
            return Err(Error::new(
                ErrorKind::Config,
                "this agent belongs to a fleet: it decides when its Fleet steps",
            ));
        }
        Ok(Decision::Template(select(
            &self.logits,
            view.mask,
            view.selection,
            rng,
        )))
    }

    fn identity(&self) -> u64 {
        self.identity
    }

    fn state(&self) -> &[f32] {
        &self.state
    }

    fn set_state(&mut self, state: &[f32]) -> Result<()> {
        if state.len() != self.state.len() {
            return Err(Error::new(
                ErrorKind::Checkpoint,
                format!(
                    "recurrent state of {} floats for a policy with {}",
                    state.len(),
                    self.state.len()
                ),
            ));
        }
        self.state.copy_from_slice(state);
        Ok(())
    }
}

/// An agent a fleet did not take ([`Fleet::add`]), handed back with the reason.
pub struct NotAdded<W> {
    /// Why.
    pub error: Error,
    /// The agent, as given (boxed: an agent is large).
    pub agent: Box<Agent<W, FleetMember>>,
}

impl<W> std::fmt::Debug for NotAdded<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NotAdded")
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

/// N agents stepped together with one batched policy run per step; see the
/// [module docs](self).
pub struct Fleet<W> {
    policy: Policy,
    identity: u64,
    agents: Vec<Agent<W, FleetMember>>,
    batch: Batch,
    /// The agents in this step's batch, in row order.
    pending: Vec<(usize, Prepared)>,
    /// What each agent's last step gave: `None` when its task had ended.
    reports: Vec<Option<Result<StepReport>>>,
}

impl<W> std::fmt::Debug for Fleet<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fleet")
            .field("agents", &self.agents.len())
            .field("policy", &self.policy)
            .finish_non_exhaustive()
    }
}

impl<W: World> Fleet<W> {
    /// A fleet with no agents, running `policy`.
    pub fn new(policy: Policy) -> Self {
        let identity = policy_identity(policy.abi(), policy.fingerprint());
        Self {
            batch: Batch::new(policy.abi(), 0),
            identity,
            policy,
            agents: Vec::new(),
            pending: Vec::new(),
            reports: Vec::new(),
        }
    }

    /// A controller for a new agent of this fleet: build the agent with it
    /// ([`Agent::new`], [`Agent::resume`], …; set its checkpoints, store and trace as for any
    /// agent), then [`Fleet::add`] it.
    pub fn member(&self) -> FleetMember {
        let abi = self.policy.abi();
        FleetMember {
            capacities: abi.capacities,
            identity: self.identity,
            state: vec![0.0; abi.state_len.unwrap_or(0)],
            logits: vec![0.0; abi.actions],
            value: None,
            ready: false,
        }
    }

    /// Adds an agent built with [`Fleet::member`]; returns its index. An agent whose controller
    /// comes from a fleet of another policy is handed back.
    pub fn add(&mut self, agent: Agent<W, FleetMember>) -> Result<usize, NotAdded<W>> {
        let m = agent.controller();
        let abi = self.policy.abi();
        if m.identity != self.identity
            || m.logits.len() != abi.actions
            || m.state.len() != abi.state_len.unwrap_or(0)
        {
            return Err(NotAdded {
                error: Error::new(
                    ErrorKind::Config,
                    "the agent's controller is a member of a fleet of another policy",
                ),
                agent: Box::new(agent),
            });
        }
        let n = self.agents.len() + 1;
        if n > self.batch.capacity() {
            self.batch = Batch::new(abi, n.max(2 * self.batch.capacity()));
        }
        self.pending
            .reserve(self.batch.capacity() - self.pending.len());
        self.reports.push(None);
        self.agents.push(agent);
        Ok(n - 1)
    }

    /// A new agent on `world` ([`Agent::new`] with a [`Fleet::member`]) added to the fleet;
    /// returns its index.
    pub fn spawn(&mut self, world: W, config: AgentConfig) -> Result<usize> {
        let agent = Agent::new(self.member(), world, config)?;
        self.add(agent).map_err(|n| n.error)
    }

    /// Takes agent `i` out of the fleet (the agents after it move down by one), or `None` if
    /// there is no such agent.
    pub fn remove(&mut self, i: usize) -> Option<Agent<W, FleetMember>> {
        if i >= self.agents.len() {
            return None;
        }
        self.reports.remove(i);
        Some(self.agents.remove(i))
    }

    /// How many agents it has.
    pub fn len(&self) -> usize {
        self.agents.len()
    }

    /// Whether it has no agents.
    pub fn is_empty(&self) -> bool {
        self.agents.is_empty()
    }

    /// The agents, by index.
    pub fn agents(&self) -> &[Agent<W, FleetMember>] {
        &self.agents
    }

    /// Agent `i`.
    ///
    /// # Panics
    /// If there is no agent `i`.
    pub fn agent(&self, i: usize) -> &Agent<W, FleetMember> {
        &self.agents[i]
    }

    /// Agent `i`, to change between steps (a new task, its checkpoints, its store).
    ///
    /// # Panics
    /// If there is no agent `i`.
    pub fn agent_mut(&mut self, i: usize) -> &mut Agent<W, FleetMember> {
        &mut self.agents[i]
    }

    /// The policy.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// Takes the fleet apart.
    pub fn into_parts(self) -> (Policy, Vec<Agent<W, FleetMember>>) {
        (self.policy, self.agents)
    }

    /// One step of every agent whose task goes on, with one batched policy run; returns how
    /// many agents took a step or failed (0: every task has ended). What each agent's step gave
    /// is [`Fleet::report`]'s.
    ///
    /// An agent's own error (its world failed, a checkpoint could not be written) is its report
    /// and stops no other agent, as [`Agent::step`] would return it. Only a failed policy run
    /// is the fleet's error: then no agent took this step (each may be stepped again).
    pub fn step(&mut self) -> Result<usize> {
        self.batch.clear();
        self.pending.clear();
        let mut failed = 0;
        for (i, agent) in self.agents.iter_mut().enumerate() {
            self.reports[i] = match agent.prepare() {
                Ok(Some(prepared)) => {
                    let (obs, mask) = agent.encoded();
                    self.batch.push(obs, mask, &agent.controller().state)?;
                    self.pending.push((i, prepared));
                    None
                }
                Ok(None) => None,
                Err(e) => {
                    failed += 1;
                    Some(Err(e))
                }
            };
        }
        self.policy.run_batch(&mut self.batch)?;
        let has_value = self.policy.abi().has_value;
        for (row, (i, prepared)) in self.pending.drain(..).enumerate() {
            let agent = &mut self.agents[i];
            let m = agent.controller_mut();
            m.logits.copy_from_slice(self.batch.logits(row));
            m.state.copy_from_slice(self.batch.state(row));
            m.value = has_value.then(|| self.batch.value(row));
            m.ready = true;
            self.reports[i] = Some(agent.decide_and_advance(prepared));
        }
        Ok(self.batch.rows() + failed)
    }

    /// What agent `i`'s last [`Fleet::step`] gave: `None` when its task had ended (or it has
    /// not been stepped), else its step's report or error.
    pub fn report(&self, i: usize) -> Option<&Result<StepReport>> {
        self.reports.get(i).and_then(Option::as_ref)
    }

    /// Steps until every task has ended or `max_steps` fleet steps were taken; returns the
    /// fleet steps taken. Stops at the first agent error, which it returns with the agent's
    /// index in its message.
    pub fn run(&mut self, max_steps: u64) -> Result<u64> {
        for taken in 0..max_steps {
            if self.step()? == 0 {
                return Ok(taken);
            }
            if let Some(i) = self.reports.iter().position(|r| matches!(r, Some(Err(_))))
                && let Some(Err(e)) = self.reports[i].take()
            {
                return Err(Error::new(e.kind(), format!("agent {i}: {}", e.message())));
            }
        }
        Ok(max_steps)
    }
}
