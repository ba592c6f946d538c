//! The structured policy ABIs (`structured-v1`, `structured-v2`: [`Version`]): the observation
//! a policy sees, the action templates it chooses among, and the mask of templates that are
//! legal now. The versions share the templates and the mask; structured-v2's observation is
//! structured-v1's with one segment appended.
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
    ABI, COST_VERBS, EVENT, FACT, FIELD, Feature, GLOBAL, HARNESS, HARNESS_VERBS, LAYOUT_VERSION,
    LESSON, Layout, ObsError, SEGMENTS_MAX, STEP, STREAK_BUCKETS, Segment, Version, Width,
};
pub use template::{STEP_TEMPLATE_VERBS, Source, Template};
