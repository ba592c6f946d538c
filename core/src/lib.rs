//! The core of evoharness: a self-managing agent's workspace and the harness action protocol.
//!
//! A small trained policy drives a long task step by step. Besides acting in the world (tool
//! calls), it manages its own **workspace** through typed harness actions:
//!
//! - **Belief** ([`Belief`]): current facts, revised in place (`track`);
//! - **Progress** ([`Progress`]): the plan, step statuses and resumable cursors (`commit`);
//! - **Experience** ([`Experience`]): trigger → remedy lessons across tasks (`recall`, `note`).
//!
//! This crate is `no_std`, needs no allocator, and allocates nothing after a workspace is made.
//! It does no I/O: the runtime (or your firmware) drives it.
//!
//! ```
//! use evoharness_core::{Action, Arg, Config, Event, EventKind, InlineWorkspace, KeyArg, Outcome,
//!                       Track, ValueRef};
//!
//! // 16 facts, 8 steps, 4 lessons; 3 world tools and a budget of 100 steps.
//! let mut ws = InlineWorkspace::<16, 8, 4>::new(Config::new(3, 100)).unwrap();
//! let ev = Event::new(EventKind::Result, 0).with("cursor", ValueRef::Int(42)).unwrap();
//! ws.observe(&ev);
//! // "Remember field 0 of what I just saw."
//! let track = Action::Track(Track::Set { key: KeyArg::Field(0), value: Arg::Field(0), confidence: 1.0 });
//! assert!(matches!(ws.apply(&track), Ok(Outcome::Tracked { slot: 0, .. })));
//! assert_eq!(ws.belief().get("cursor").unwrap().1.value, evoharness_core::Value::Int(42));
//! // The same action again is refused, and changes nothing.
//! assert!(ws.apply(&track).is_err());
//! assert_eq!(ws.spent(), 1);
//! ```
//!
//! # Paths
//!
//! One public path per item, by one rule: the crate's modules are private and what they define
//! is re-exported here, at the root, except four formats that are namespaces, public modules
//! whose items are reached only through them: [`wire`] (frames, their version and limits),
//! [`snapshot`] (the snapshot format), [`obs`] (the structured-v1 policy ABI: layout,
//! templates, mask, feature tables) and [`text`] (the generative policy's text: the workspace
//! as a prompt, actions as lines). Their constants and functions read well only qualified
//! (`wire::VERSION`, `snapshot::MAGIC`, `obs::FIELD`), so their types live beside them
//! (`wire::Frame`, `obs::Layout`). Everything else, the workspace and the protocol's types, is
//! at the root: `evoharness_core::{Action, Value, Workspace, ...}`. (`script`, the byte-script
//! interpreter behind the private `_script` feature, is a namespace too, for fuzzing and tests.)
//!
//! # Layout
//!
//! The source files, bottom-up (none imports a file listed after it):
//!
//! | file | what |
//! | --- | --- |
//! | `decode_error.rs`, `max.rs`, `table.rs` | the decode error; encoded-size bounds; the fixed-capacity table |
//! | `value.rs` | typed values, bounded borrowed ([`ValueRef`]) and owned ([`Value`]) forms |
//! | `event.rs` | [`Event`]s: what the world tells the agent |
//! | `belief.rs`, `progress.rs`, `experience.rs` | the three parts of the workspace: [`Belief`], [`Progress`], [`Experience`] |
//! | `action.rs` | [`Action`]s, arguments, [`Outcome`]s, [`ApplyError`]s, [`Costs`] |
//! | `workspace.rs` | the [`Workspace`], its tables inline or on the heap ([`Storage`]), and `apply` |
//! | `wire.rs` | [`wire`]: the versioned postcard frame, COBS framing, maximum sizes |
//! | `obs.rs`, `obs/` | [`obs`]: the structured-v1 policy ABI: observation, action templates, mask |
//! | `snapshot.rs` | [`snapshot`]: the whole workspace to checksummed bytes and back |
//! | `text.rs` | [`text`]: `workspace-text-v1` and `action-text-v1`, the generative ABI's text |
//! | `script.rs` | `script` (feature `_script`): byte scripts that fuzz targets and tests drive |
//!
//! The wire format, the observation layout and the text formats are specified in `PROTOCOL.md` beside this
//! crate. Every decoder here takes untrusted bytes and never panics on them; that is fuzzed.
//!
//! # Features
//!
//! - `alloc`: `HeapWorkspace`, with capacities chosen at run time.
//! - `std`: implies `alloc`.
#![cfg_attr(not(any(test, feature = "std")), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]
// Keep the crate honest about needing nothing beyond `core` (and `alloc` behind its feature).
#![warn(clippy::std_instead_of_core, clippy::alloc_instead_of_core)]

#[cfg(feature = "alloc")]
extern crate alloc;

/// The fixed-capacity containers this crate's types are built from (`Action::Act` arguments,
/// event fields), re-exported so that hosts use the very same version.
pub use heapless;

mod action;
mod belief;
mod decode_error;
mod event;
mod experience;
mod max;
pub mod obs;
mod progress;
#[cfg(any(test, feature = "_script"))]
pub mod script;
pub mod snapshot;
mod table;
pub mod text;
mod value;
pub mod wire;
mod workspace;

pub use action::{
    Action, ApplyError, Arg, Change, Commit, Costs, KeyArg, Note, Outcome, StepRef, ToolCall,
    Track, Verb,
};
pub use belief::{Belief, Fact, Provenance, STALENESS_HALF};
pub use event::{Event, EventBuf, EventError, EventKind, Field, FieldBuf};
pub use experience::{Experience, Lesson, Loaded, Recalled};
pub use progress::{Progress, Status, Step, StepVerb};
pub use table::Slots;
pub use value::{
    Blob, BytesBuf, Key, KeyBuf, Str, Text, TextBuf, TooLong, Value, ValueKind, ValueRef,
};
pub use workspace::{
    Capacities, CapacityError, Config, Inline, InlineWorkspace, Storage, Workspace,
};
#[cfg(feature = "alloc")]
pub use workspace::{Heap, HeapWorkspace};

/// Longest key of a fact or an event field, in bytes.
pub const KEY_MAX: usize = 16;
/// Longest text or bytes value, in bytes.
pub const TEXT_MAX: usize = 32;
/// Most fields in one event.
pub const FIELDS_MAX: usize = 8;
/// Most arguments of one tool call.
pub const ARGS_MAX: usize = 4;
/// Most lessons one recall returns.
pub const RECALL_MAX: usize = 4;
/// Most facts or lessons one compress or consolidate evicts (so its report is complete).
pub const REMOVE_MAX: usize = 8;
/// Largest capacity of any table.
pub const CAPACITY_MAX: usize = 1024;
/// Most world tools a task may have.
pub const TOOLS_MAX: usize = 64;
