//! The evoharness task suite: simulated long-horizon enterprise workflows that policies are
//! trained and judged on, the baselines a trained policy must beat, the suite's training
//! environment and teachers, and the evaluation that compares them.
//!
//! Everything here runs on the runtime's one agent loop: a [`SuiteWorld`] is a runtime
//! [`World`], the baselines are runtime [`Controller`]s, and evaluation and the training kit's
//! [`VecEnv`] step [`Agent`]s, so the figures `evoharness eval` prints are those of the loop a
//! host embeds. Hosts that embed the runtime do not link this crate; a team training a policy
//! for its own world links the training kit (`evoharness-train`), not this crate.
//!
//! ```
//! use evoharness_runtime::{Agent, AgentConfig};
//! use evoharness_suite::baselines::LeanHarness;
//! use evoharness_suite::{SuiteWorld, TaskConfig, TaskKind, episode};
//!
//! # fn main() -> evoharness_runtime::Result<()> {
//! let task = TaskConfig::new(TaskKind::Migration, 100);
//! let world = SuiteWorld::new(task, 7); // organisation 7
//! let mut agent = Agent::new(LeanHarness, world, episode::agent_config(&task, 0))?;
//! let stats = episode::run(&mut agent, 1, u64::MAX, None)?;
//! assert!(stats.success);
//! # Ok(())
//! # }
//! ```
//!
//! # The three families
//!
//! Every task is a queue of work items (batches, customer records, API steps) that the agent
//! fetches one at a time and must land **exactly once**, through eight world tools:
//!
//! | tool | migration | records | orchestration | what it does |
//! | --- | --- | --- | --- | --- |
//! | 0 | `read` | `next` | `next` | fetch the next item (`done` at the end) |
//! | 1 | `write` | `update_a` | `call` | land an item before the drift |
//! | 2 | `write_v2` | `update_b` | `call_alt` | land an item after the drift |
//! | 3 | `wait` | `wait` | `wait` | let an outage pass |
//! | 4–6 | `quarantine`, `transform`, `split` | `reconcile`, `overwrite`, `escalate` | `rollback`, `replay`, `compensate` | remedies for rejected items |
//! | 7 | `verify` | `merge` | `auth` | the family's own tool |
//!
//! What the families share, because it is what a workspace is for:
//!
//! - **Partial observability.** The agent sees only the current event. An item's id is in the
//!   event that fetched it and in the error that refused it, not in what comes after: an item
//!   caught in an outage ([`SuiteWorld`] docs) must be remembered through the waits, or it is lost
//!   (a gap). Fetching on instead of retrying loses it too.
//! - **Drift.** Part-way through, one fetch result carries a changed setting (migration: the
//!   target `schema` becomes 2; records: the accounts' `owner` becomes `b`; orchestration: the
//!   `endpoint` fails over to `alt`), said once and never again. From then on items must be
//!   landed with tool 2; tool 1 is still *accepted* but writes wrong data (an integrity
//!   violation), so an agent acting on a stale belief fails.
//! - **Recurring remedies.** Some items are rejected with an error `code`. Each organisation
//!   (a seed of its own, apart from the task kind) has its own codes, each with one right
//!   remedy among tools 4–6; finding it costs steps, and an agent that noted it (code → tool)
//!   can apply it at once in the next episode of that organisation. Organisations differ, so
//!   nothing can be hard-coded.
//! - **Faults.** Transient timeouts (retry), outages (`wait` until ready; calling anything else
//!   before that resets the back-off), rejected items (remedy).
//!
//! And what each family adds:
//!
//! - **migration**: `verify` reports how many batches landed.
//! - **records**: updates arrive out of order (shuffled in blocks of eight), and some records
//!   are duplicates (`dup_of`) that must be `merge`d: updating one is refused
//!   (`error: duplicate`), and merging a record that is not a duplicate (a stale `dup_of`
//!   belief) is a wrong write.
//! - **orchestration**: calls need a token that expires (`error: expired`); `auth` renews it
//!   but its result does not repeat the step, which must be remembered. A step may only run
//!   after the one before it (`error: dependency`), and must never run twice.
//!
//! # Versions: v1, v2 and v3
//!
//! A task follows a [`Scenario`]. **v1** ([`TaskConfig::new`]) is the suite above, kept
//! exactly as it was so that its results stay reproducible. In v1 every harness action the
//! lean rule takes is forced and the oracle's edge over it is a few thousandths of reward:
//! nothing is left to learn. **v2** ([`TaskConfig::v2`]) is made so that no hand-written rule
//! is optimal:
//!
//! - **more error codes than lesson slots**: twelve codes per organisation with skewed
//!   frequencies (the `k`-th with weight `1 / (k + 1)`), a quarter of the items rejected, four
//!   lesson slots in the working set. Behind the working set each agent has an
//!   [`ExperienceStore`](evoharness_runtime::ExperienceStore) ([`STORE_BUDGET`] lessons) that
//!   outlives its episodes: `note` writes through to it and `recall` brings a code's lesson
//!   back, so when to `recall`, `note`, `rate` and consolidate is a choice;
//! - **remedies that drift**: for one episode a code's remedy is another one, one time in
//!   eight, so a lesson can be wrong today and right again tomorrow;
//! - **failed remedies cost**: the service backs off for three waits after one;
//! - **costs**: a world call and a `commit` (a durable write) cost two units of budget,
//!   `track`, `recall` and `note` one (budget twice v1's);
//! - **faults drawn per item and per attempt of that item**, so an agent acting differently
//!   on one item meets the same faults on every other (group baselines compare like with
//!   like).
//!
//! The rules: [`LeanHarness`](baselines::LeanHarness) and
//! [`StaticHarness`](baselines::StaticHarness) carry a rejected item through the back-off and
//! mark the remedy that failed (a lesson rated harmful); the
//! [`TunedHarness`](baselines::TunedHarness) also recalls an absent code's lesson and guesses
//! the organisation's favourite remedy. On seeds and organisations no test uses
//! (`scripts/v2-sweep.sh`), every rule succeeds in every episode and the oracle keeps about 0.03
//! reward over the best of them in every family at horizons 100 and 400, intervals apart.
//!
//! **v3** ([`TaskConfig::v3`]) is v2 in a [`Deployment`] each organisation draws, so that which
//! rule is best changes from one organisation to the next, as it does between deployments and
//! model upgrades: the prices of `recall` and `note`, the back-off after a failed remedy, the
//! store's lifetime, the acting model's remedy `guess` (its quality hidden, its tier on the
//! card) and crashes of the agent's machine, which roll the agent back to its last `commit`
//! ([`episode::Durable`]) while the world keeps what it did. The first event carries the
//! deployment's card. [`TunedHarness`](baselines::TunedHarness) has the knobs an engineer
//! retunes, and [`tune`] finds the best single setting and the best per deployment.
//!
//! # Scoring
//!
//! An episode succeeds when the agent finishes claiming success and every item landed exactly
//! once, with no wrong write ([`EpisodeStats`]). The learning signal is the training kit's
//! [`reward`](evoharness_train::reward): per-step costs, and a success that gates an
//! efficiency bonus.
//!
//! # Layout
//!
//! | module | what |
//! | --- | --- |
//! | `task` (re-exported here) | [`TaskConfig`]: the family, scenario and deployment of a task, and the constants every family shares |
//! | [`world`] | [`SuiteWorld`], the simulator of all three families (a runtime [`World`]) |
//! | [`baselines`] | the controllers that need no training: oracle, static, lean and append-only harnesses, random |
//! | [`episode`] | scoring a suite agent's episode step by step ([`EpisodeStats`]), crashes, step times |
//! | [`suite_env`] | [`SuiteVecEnv`]: the training kit's [`VecEnv`] over the suite's tasks, with their teachers |
//! | [`eval`] | evaluating a controller on a range of seeds and organisations, in parallel |
//! | [`tune`] | tuning the rule family's knobs to deployments: the fixed-best rule and one retuned per organisation (v3) |
//!
//! What the suite shares with any world (the vectorised environment, an episode's stats and
//! reward, intents) is the training kit's, `evoharness-train`.
//!
//! [`World`]: evoharness_runtime::World
//! [`VecEnv`]: evoharness_train::VecEnv
//! [`EpisodeStats`]: evoharness_train::EpisodeStats
//! [`Controller`]: evoharness_runtime::Controller
//! [`Agent`]: evoharness_runtime::Agent

pub mod baselines;
pub mod episode;
pub mod eval;
pub mod suite_env;
mod task;
pub mod tune;
pub mod world;

pub use suite_env::{NO_LABEL, SuiteHooks, SuiteVecEnv, Teacher};
pub use task::{
    CAPACITIES, CODES_MAX, Deployment, FETCH, Faults, MachineTier, ModelTier, PUT, PUT_ALT,
    REMEDIES, SPECIAL, STORE_BUDGET, Scenario, TOOLS, TaskConfig, TaskKind, WAIT,
};
pub use world::SuiteWorld;

pub(crate) use evoharness_runtime::rng::mix;

/// A draw in `[0, 1)` from a mixed word.
pub(crate) fn unit(x: u64) -> f64 {
    (x >> 11) as f64 / (1u64 << 53) as f64
}
