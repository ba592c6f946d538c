//! The observation layout: its segments and each row's named features, derived from a
//! workspace's capacities. `PROTOCOL.md` gives every feature's formula.

use crate::FIELDS_MAX;
use crate::belief::Provenance;
use crate::event::EventKind;
use crate::progress::Status;
use crate::value::ValueKind;
use crate::workspace::{Capacities, Storage, Workspace};

/// The ABI name a policy file declares.
pub const ABI: &str = "structured-v1";
/// The version of the observation layout and template table; bumped on any change.
pub const LAYOUT_VERSION: u32 = 1;

/// How wide a feature is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// This many floats.
    Fixed(usize),
    /// One float per world tool (a one-hot over the tool schema).
    Tools,
}

/// One named feature of a segment row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feature {
    /// Its name, as `PROTOCOL.md` uses it.
    pub name: &'static str,
    /// Its width.
    pub width: Width,
}

const fn f(name: &'static str, n: usize) -> Feature {
    Feature {
        name,
        width: Width::Fixed(n),
    }
}
const fn tools(name: &'static str) -> Feature {
    Feature {
        name,
        width: Width::Tools,
    }
}

/// Features of the one global row.
pub const GLOBAL: &[Feature] = &[
    f("budget_left", 1),
    f("budget_spent", 1),
    f("belief_fill", 1),
    f("plan_fill", 1),
    f("experience_fill", 1),
    f("plan_done", 1),
    f("has_active_step", 1),
    f("has_last_act", 1),
    tools("last_act"),
];
/// Features of the current event's head row.
pub const EVENT: &[Feature] = &[
    f("present", 1),
    f("kind", EventKind::COUNT),
    tools("source"),
];
/// Features of each of the [`FIELDS_MAX`] field rows of the current event.
pub const FIELD: &[Feature] = &[
    f("present", 1),
    f("key_hash", 1),
    f("kind", ValueKind::COUNT),
    f("scalar", 1),
    f("value_hash", 1),
    f("in_belief", 1),
    f("differs", 1),
];
/// Features of each belief slot row.
pub const FACT: &[Feature] = &[
    f("present", 1),
    f("key_hash", 1),
    f("kind", ValueKind::COUNT),
    f("scalar", 1),
    f("value_hash", 1),
    f("confidence", 1),
    f("staleness", 1),
    f("provenance", Provenance::COUNT),
    f("in_event", 1),
    f("differs", 1),
];
/// Features of each plan step row.
pub const STEP: &[Feature] = &[
    f("present", 1),
    f("label_hash", 1),
    f("status", Status::COUNT),
    f("attempts", 1),
    f("has_cursor", 1),
    f("cursor", 1),
    f("has_error", 1),
    f("label_in_event", 1),
];
/// Features of each experience slot row.
pub const LESSON: &[Feature] = &[
    f("present", 1),
    f("trigger_hash", 1),
    f("remedy_scalar", 1),
    f("remedy_hash", 1),
    f("usefulness", 1),
    f("helpful", 1),
    f("harmful", 1),
    f("uses", 1),
    f("recalled", 1),
    f("trigger_in_event", 1),
    tools("remedy_tool"),
];

/// A segment of the observation: `rows` rows of the same features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Its name.
    pub name: &'static str,
    /// Offset of its first float.
    pub offset: usize,
    /// How many rows.
    pub rows: usize,
    /// Floats per row.
    pub width: usize,
    /// The features of each row, in order.
    pub features: &'static [Feature],
}

const fn row_width(features: &[Feature], tools: usize) -> usize {
    let mut w = 0;
    let mut i = 0;
    while i < features.len() {
        w += match features[i].width {
            Width::Fixed(n) => n,
            Width::Tools => tools,
        };
        i += 1;
    }
    w
}

/// A caller's buffer did not fit the layout, or the layout does not fit the workspace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ObsError {
    /// The buffer has `got` elements; the layout needs `expected`.
    BufferLength {
        /// What the layout needs.
        expected: usize,
        /// What was passed.
        got: usize,
    },
    /// The layout was made for other capacities than the workspace has.
    CapacityMismatch,
}

impl core::fmt::Display for ObsError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ObsError::BufferLength { expected, got } => {
                write!(f, "buffer has {got} elements, the layout needs {expected}")
            }
            ObsError::CapacityMismatch => f.write_str("layout and workspace capacities differ"),
        }
    }
}

impl core::error::Error for ObsError {}

/// The structured-v1 layout for one set of capacities.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub(super) caps: Capacities,
}

impl Layout {
    /// The layout for these capacities.
    pub const fn new(caps: Capacities) -> Self {
        Self { caps }
    }

    /// The capacities it was made for.
    pub const fn capacities(&self) -> Capacities {
        self.caps
    }

    pub(super) const fn t(&self) -> usize {
        self.caps.tools as usize
    }

    /// The observation's segments, in order.
    pub const fn segments(&self) -> [Segment; 6] {
        let t = self.t();
        let spec: [(&'static str, usize, &'static [Feature]); 6] = [
            ("global", 1, GLOBAL),
            ("event", 1, EVENT),
            ("fields", FIELDS_MAX, FIELD),
            ("facts", self.caps.facts as usize, FACT),
            ("steps", self.caps.steps as usize, STEP),
            ("lessons", self.caps.lessons as usize, LESSON),
        ];
        let empty = Segment {
            name: "",
            offset: 0,
            rows: 0,
            width: 0,
            features: &[],
        };
        let mut out = [empty; 6];
        let mut offset = 0;
        let mut i = 0;
        while i < 6 {
            let (name, rows, features) = spec[i];
            let width = row_width(features, t);
            out[i] = Segment {
                name,
                offset,
                rows,
                width,
                features,
            };
            offset += rows * width;
            i += 1;
        }
        out
    }

    /// Floats in one observation.
    pub const fn obs_len(&self) -> usize {
        let s = self.segments();
        s[5].offset + s[5].rows * s[5].width
    }

    pub(super) fn fits<S: Storage>(&self, ws: &Workspace<S>) -> Result<(), ObsError> {
        if ws.capacities() == self.caps {
            Ok(())
        } else {
            Err(ObsError::CapacityMismatch)
        }
    }
}
