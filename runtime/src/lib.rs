//! Run a trained, self-managing agent: load an exported ONNX policy and let it drive a
//! workspace against a world.
//!
//! ```no_run
//! use evoharness_core::{EventBuf, EventKind, ToolCall, Value};
//! use evoharness_runtime::{Agent, AgentConfig, PolicyBuilder, World};
//!
//! /// The host's own tools: here one, `lookup`.
//! struct Host;
//!
//! impl World for Host {
//!     fn tools(&self) -> u16 {
//!         1
//!     }
//!     fn reset(&mut self, _seed: u64) -> EventBuf {
//!         EventBuf::new(EventKind::Notice, 0)
//!     }
//!     fn call(&mut self, call: &ToolCall) -> EventBuf {
//!         EventBuf::new(EventKind::Result, call.tool)
//!             .with("found", Value::Bool(true))
//!             .unwrap_or_else(|_| EventBuf::new(EventKind::Error, call.tool))
//!     }
//! }
//!
//! # fn main() -> evoharness_runtime::Result<()> {
//! let policy = PolicyBuilder::new().commit_from_file("policy.onnx")?;
//! let mut agent = Agent::new(policy, Host, AgentConfig::default())?;
//! let summary = agent.run(1_000)?;
//! println!("{} steps, finished: {:?}", summary.steps, summary.finished);
//! # Ok(())
//! # }
//! ```
//!
//! # Layout
//!
//! | module | what |
//! | --- | --- |
//! | [`world`] | the [`World`] contract: what any environment an agent acts in implements |
//! | [`agent`] | the agent loop: observe, encode, decide, apply or dispatch, checkpoint |
//! | [`controller`] | who decides: the [`Controller`] trait, which a [`Policy`] implements; action selection |
//! | [`fleet`] | N agents, one policy, one batched run per step ([`Fleet`]) |
//! | [`batch`] | running a policy on many rows at once ([`Batch`]) |
//! | [`gemm`] | the machine's single-core f32 GEMM throughput, measured through the backend |
//! | [`checkpoint`] | the agent checkpoint file: its body and what resuming checks |
//! | [`experience_store`] | the library of lessons behind the workspace's Experience: budget, persistence, merging |
//! | [`framed_file`] | the one file frame (magic, version, length, checksum) and atomic replace |
//! | [`backend`] | choosing and initialising the inference backend (tract or ONNX Runtime), once per process |
//! | [`native`] | the native backend: ONNX MLP policies converted for `evoharness-native`'s evaluator, no ort |
//! | [`policy`] | loading a structured-v1 policy, checking its contract, running it; its identity |
//! | [`generative`] | `generative-v1`: a decoder-only language model as the policy, its KV cache; [`AnyPolicy`], either kind by its file |
//! | [`grammar`] | constrained decoding: the legal action lines of a decision, the tokens that stay inside them |
//! | [`limits`] | what loading a policy file may cost: caps on an untrusted file |
//! | [`layout`] | the structured-v1 layout as JSON, for other languages |
//! | [`trace`] | one JSON line (or callback) per step, with the workspace parts the step changed (`runtime/TRACE.md`) |
//! | [`rng`] | the one small seeded generator (SplitMix64) |
//! | [`error`] | the one error type |
//! | `fixture_world` | (feature `fixture`) a toy world for the test fixture policies: tests and demos, not a task |
//!
//! The task suite (simulated enterprise workflows, baselines, training environments,
//! evaluation) is the `evoharness-suite` crate; the `evoharness` command-line tool is
//! `evoharness-cli`. Neither is linked into a host that embeds this crate.

pub mod agent;
pub mod backend;
pub mod batch;
pub mod checkpoint;
pub mod controller;
pub mod error;
pub mod experience_store;
#[cfg(feature = "fixture")]
pub mod fixture_world;
pub mod fleet;
pub mod framed_file;
pub mod gemm;
pub mod generative;
pub mod grammar;
#[cfg(feature = "hf-tokenizer")]
mod hf_tokenizer;
pub mod layout;
pub mod limits;
pub mod native;
pub mod policy;
pub mod rng;
pub mod trace;
pub mod world;

pub use agent::{Agent, AgentConfig, CheckpointSchedule, Refused, StepReport, Summary};
pub use backend::{Active, Backend};
pub use batch::Batch;
pub use checkpoint::CheckpointError;
pub use controller::{Controller, Decision, External, Needs, Selection, View};
pub use error::{Error, ErrorKind, Result};
pub use experience_store::{ExperienceStore, Replica, ReplicaBytes};
#[cfg(feature = "fixture")]
pub use fixture_world::FixtureWorld;
pub use fleet::{Fleet, FleetMember, NotAdded};
pub use framed_file::FileError;
pub use generative::{AnyPolicy, GenerativeAbi, GenerativePolicy, GenerativeStats, Tokenizer};
pub use limits::PolicyLimits;
pub use policy::{Device, Policy, PolicyAbi, PolicyBuilder};
pub use trace::{TraceRecord, TraceSink};
pub use world::{Verdict, World};
