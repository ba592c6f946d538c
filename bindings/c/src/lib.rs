//! The C ABI of evoharness: `libevoharness.a` and `libevoharness.so`, with the header
//! `include/evoharness.h` that `build.rs` generates from this crate (cbindgen) and that is
//! committed.
//!
//! A C or C++ host embeds a trained agent in-process through it: workspaces driven by encoded
//! actions, policies loaded from files or memory, agents that call host tools (callbacks) and
//! checkpoint to files, and the task suite's vectorised environment for training. See
//! `bindings/README.md` for building and linking, and the header for every function.
//!
//! # Conventions (rustls-ffi is the model)
//!
//! - Opaque handles named `evoharness_<type>`, made by `_new`/`_load` and freed by `_free`
//!   (`_free(NULL)` is a no-op); functions named `evoharness_<type>_<verb>`, with arguments in
//!   the order self, inputs, outputs, every buffer followed by its length.
//! - Every function that can fail returns an [`evoharness_status`]; outputs are written only
//!   when it is `EVOHARNESS_STATUS_OK`. `evoharness_last_error_message()` holds the details, per
//!   thread.
//! - Every exported function checks its pointers (NULL, alignment) and catches panics at the
//!   boundary (module `ffi`). Enum-like inputs are plain integers, checked, so no value C passes is
//!   undefined behaviour in Rust.
//! - Callbacks into host code (tools, traces, logs) must return normally: a C++ exception or a
//!   `longjmp` out of one is undefined behaviour. The C++ wrapper catches exceptions in its
//!   trampolines.
//!
//! # Layout
//!
//! | module | what |
//! | --- | --- |
//! | `ffi` | pointer helpers, the panic boundary, the last error |
//! | [`status`] | status codes and messages, the version |
//! | [`value`] | values, events and the bounds that size them |
//! | [`workspace`] | workspaces: apply, observe, snapshot, restore, read entries |
//! | [`policy`] | loading policies with options, their contract |
//! | [`tool`] | host tools: the callback, its call and its result |
//! | `env` | an agent's environment: host tools over an optional suite world, its cursor |
//! | [`agent`] | agents: config, tools, stepping, traces, checkpoints |
//! | [`vec_env`] | the suite's vectorised environment, for training |
//! | [`logging`] | the bridge from the `log` facade to a host callback |
#![allow(
    non_camel_case_types,
    reason = "C names: evoharness_<type>, as the header spells them"
)]

// In reading order: cbindgen writes the header's items in the order it meets the modules.
mod ffi;
pub mod status;
// Values and workspaces.
pub mod value;
pub mod workspace;
// Policies.
pub mod policy;
// Host tools.
pub mod tool;
// The environment they make up.
mod env;
// Agents.
pub mod agent;
// Training environments.
pub mod vec_env;
// What training in another language needs besides them.
pub mod training;
// Logging.
pub mod logging;

pub use agent::*;
pub use logging::*;
pub use policy::*;
pub use status::*;
pub use tool::*;
pub use training::*;
pub use value::*;
pub use vec_env::*;
pub use workspace::*;
