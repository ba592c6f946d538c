//! The structured-v1 policy ABI: the observation a policy sees, the action templates it
//! chooses among, and the mask of templates that are legal now.
//!
//! Everything is derived from a workspace's [`Capacities`](crate::Capacities) through a
//! [`Layout`]: the observation length, each segment's offset, each feature's meaning, and the
//! template table. The layout is data ([`Layout::segments`], [`Feature`]) so that training code
//! in another language can check itself against it; `PROTOCOL.md` specifies every feature's
//! formula.
//!
//! A policy picks a template index; [`Layout::resolve`] turns it into a concrete
//! [`Action`](crate::Action) with pointer-style arguments ("track field 3 of the current event",
//! "call tool 2 with belief slot 4"), and [`Layout::mask`] marks exactly the templates whose
//! action `apply` would accept now; [`Layout::encode`] writes the observation.
//!
//! One concept per file: the layout, its segments and features (`layout.rs`); the template
//! table and its resolution (`template.rs`); the mask (`mask.rs`); the encoder (`encode.rs`).

mod encode;
mod layout;
mod mask;
mod template;

pub use encode::{hash01, scalar};
pub use layout::{
    ABI, EVENT, FACT, FIELD, Feature, GLOBAL, LAYOUT_VERSION, LESSON, Layout, ObsError, STEP,
    Segment, Width,
};
pub use template::{STEP_TEMPLATE_VERBS, Source, Template};
