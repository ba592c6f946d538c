//! Run a trained, self-managing agent: load an exported ONNX policy and drive a workspace with
//! it.
//!
//! # Layout
//!
//! | module | what |
//! | --- | --- |
//! | [`agent`] | the agent loop, the [`Environment`] trait a host implements, action selection |
//! | [`checkpoint`] | the agent checkpoint file: format, checks, atomic replace |
//! | [`backend`] | choosing and initialising the inference backend (tract or ONNX Runtime), once per process |
//! | [`layout`] | the structured-v1 layout as JSON, for other languages |
//! | [`policy`] | loading a structured-v1 policy, checking its contract, running it |
//! | [`trace`] | one JSON line (or callback) per step |
//! | [`error`] | the one error type |
//! | [`fixture_env`] | a toy environment for the test fixture policies (tests and demos; not a task) |
//! | [`tasks`] | the task suite: simulated enterprise workflows, baselines, vectorised stepping, evaluation |

pub mod agent;
pub mod backend;
pub mod checkpoint;
pub mod error;
pub mod fixture_env;
pub mod layout;
pub mod policy;
pub mod tasks;
pub mod trace;

pub use agent::{
    Agent, AgentConfig, CheckpointSchedule, Environment, Selection, StepReport, Summary,
};
pub use backend::{Active, Backend};
pub use checkpoint::CheckpointError;
pub use error::{Error, ErrorKind, Result};
pub use fixture_env::FixtureEnv;
pub use policy::{Device, Policy, PolicyAbi, PolicyBuilder};
pub use trace::{TraceRecord, TraceSink};
