//! The C ABI of evoharness for embedding: `libevoharness.a` and `libevoharness.so`, with the
//! header `include/evoharness.h` that `build.rs` generates from this crate (cbindgen) and that
//! is committed.
//!
//! A C or C++ host embeds a trained agent in-process through it: workspaces driven by encoded
//! actions, policies loaded from files or memory, agents that call host tools (callbacks) over
//! an optional world made by a library, and checkpoint to files. It depends on the core and the
//! runtime only. The task suite (its worlds, the vectorised training environment, teachers) is
//! `libevoharness_train` (crate `evoharness-train-c`), a superset of this library that a host
//! links instead of it. See `bindings/README.md` for building and linking, and the header for
//! every function.
//!
//! # Conventions (rustls-ffi is the model)
//!
//! - Opaque handles named `evoharness_<type>`, made by `_new`/`_load` and freed by `_free`
//!   (`_free(NULL)` is a no-op); functions named `evoharness_<type>_<verb>`, with arguments in
//!   the order self, inputs, outputs, every buffer followed by its length.
//! - Every function that can fail returns an [`evoharness_status`]; outputs are written only
//!   when it is `EVOHARNESS_STATUS_OK`. `evoharness_last_error_message()` holds the details, per
//!   thread. A NULL pointer is `NULL_ARGUMENT`, an index past the end `NOT_FOUND`, in every
//!   function.
//! - Every exported function checks its pointers (NULL, alignment) and catches panics at the
//!   boundary (module `ffi`). Enum-like inputs are plain integers, checked, so no value C passes
//!   is undefined behaviour in Rust; every enum starts at 0.
//! - Callbacks into host code (tools, traces, logs) must return normally: a C++ exception or a
//!   `longjmp` out of one is undefined behaviour. The C++ wrapper catches exceptions in its
//!   trampolines.
//!
//! # Layout
//!
//! | module | what |
//! | --- | --- |
//! | `ffi` | pointer helpers, the panic boundary, the last error (hidden: for `evoharness-train-c`) |
//! | [`status`] | status codes and messages, the version |
//! | [`last_error`] | what a failed call says: a status's message, the last error per thread |
//! | [`value`] | values, events and the bounds that size them |
//! | [`workspace`] | workspaces: apply, observe, snapshot, restore, read entries; capacities |
//! | [`layout`] | the structured layouts (v1, v2) as JSON |
//! | [`policy`] | loading policies with options, their contract |
//! | [`tool`] | host tools: the callback, its call and its result |
//! | [`world`] | worlds made by libraries, and an agent's world: host tools over one of them |
//! | [`agent`] | agents: config, tools, stepping, verdicts, traces, checkpoints |
//! | [`agent_fleet`] | fleets: N agents, one policy, one batched policy run per step |
//! | [`experience_store`] | experience stores: lessons beyond the workspace, files, bytes, merging, an agent's store |
//! | [`callback_world`] | a world written by the host: C callbacks for reset, call, judge, resume points |
//! | `fleet` | experience stores through a fleet database (feature `fleet`): push, pull |
//! | [`logging`] | the bridge from the `log` facade to a host callback |
#![allow(
    non_camel_case_types,
    reason = "C names: evoharness_<type>, as the header spells them"
)]

// In reading order: cbindgen writes the header's items in the order it meets the modules.
#[doc(hidden)]
pub mod ffi;
pub mod last_error;
pub mod status;
// Values and workspaces.
pub mod value;
pub mod workspace;
// The layout of a workspace's observations and actions.
pub mod layout;
// Policies.
pub mod policy;
// Host tools.
pub mod tool;
// The world they make up, over a library's.
pub mod world;
// Agents.
pub mod agent;
// Fleets of agents: one batched policy run per step.
pub mod agent_fleet;
// The library of lessons behind an agent's working set.
pub mod experience_store;
// Worlds written by the host (their judge writes an agent's verdict).
pub mod callback_world;
// Experience stores through a fleet database (the feature `fleet`).
#[cfg(feature = "fleet")]
pub mod fleet;
// Logging.
pub mod logging;

pub use agent::*;
pub use agent_fleet::*;
pub use callback_world::*;
pub use experience_store::*;
#[cfg(feature = "fleet")]
pub use fleet::*;
pub use last_error::*;
pub use layout::*;
pub use logging::*;
pub use policy::*;
pub use status::*;
pub use tool::*;
pub use value::*;
pub use workspace::*;
pub use world::*;
