//! The observation layout: its segments and each row's named features, derived from a
//! workspace's capacities. `PROTOCOL.md` gives every feature's formula.

use crate::FIELDS_MAX;
use crate::belief::Provenance;
use crate::event::EventKind;
use crate::progress::Status;
use crate::value::ValueKind;
use crate::workspace::{Capacities, Storage, Workspace};

/// The ABI name a structured-v1 policy file declares.
pub const ABI: &str = "structured-v1";
/// The structured-v1 layout's version number (a policy file's `evoharness.layout_version`).
pub const LAYOUT_VERSION: u32 = 1;

/// Which observation layout: the template table and the mask are the same in every version;
/// a later version's observation is an earlier one's with segments appended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Version {
    /// `structured-v1`, layout version 1: six segments.
    #[default]
    V1,
    /// `structured-v2`, layout version 2: structured-v1's six segments and `harness` (the
    /// configured cost of each verb, the harness streak and the last harness verb): what a
    /// host configured, and what tells a workspace just edited from the same workspace
    /// before the edit.
    V2,
}

impl Version {
    /// Every version, oldest first.
    pub const ALL: [Version; 2] = [Version::V1, Version::V2];
    /// The newest version.
    pub const LATEST: Version = Version::V2;

    /// The ABI name a policy file of this version declares (`evoharness.abi`).
    pub const fn abi(self) -> &'static str {
        match self {
            Version::V1 => ABI,
            Version::V2 => "structured-v2",
        }
    }

    /// The layout version number a policy file declares (`evoharness.layout_version`).
    pub const fn number(self) -> u32 {
        match self {
            Version::V1 => LAYOUT_VERSION,
            Version::V2 => 2,
        }
    }

    /// The version a policy file's ABI name and layout version declare, if they name one
    /// (they must agree).
    pub fn from_declared(abi: &str, layout_version: u64) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|v| v.abi() == abi && u64::from(v.number()) == layout_version)
    }

    /// The version with this layout version number.
    pub fn from_number(number: u32) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.number() == number)
    }

    /// The version with this ABI name, whatever its number.
    pub fn from_abi(abi: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.abi() == abi)
    }

    /// How many segments its observation has.
    pub const fn segments(self) -> usize {
        match self {
            Version::V1 => 6,
            Version::V2 => 7,
        }
    }
}

/// The most segments an observation has (structured-v2's).
pub const SEGMENTS_MAX: usize = 7;

/// The verbs whose configured cost the `costs` feature shows, in `Costs` order: act, track,
/// commit, recall, note, finish.
pub const COST_VERBS: usize = 6;
/// The harness streak's one-hot: 0, 1, 2, 3, and 4 or more.
pub const STREAK_BUCKETS: usize = 5;
/// The harness verbs the `last_harness` one-hot covers, in order: track, commit, recall, note.
pub const HARNESS_VERBS: usize = 4;

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

/// Features of the one row of structured-v2's `harness` segment.
pub const HARNESS: &[Feature] = &[
    f("costs", COST_VERBS),
    f("streak", STREAK_BUCKETS),
    f("last_harness", HARNESS_VERBS),
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

/// The structured layout of one version for one set of capacities.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub(super) caps: Capacities,
    pub(super) version: Version,
}

impl Layout {
    /// The structured-v1 layout for these capacities.
    pub const fn new(caps: Capacities) -> Self {
        Self {
            caps,
            version: Version::V1,
        }
    }

    /// The layout of `version` for these capacities.
    pub const fn with_version(caps: Capacities, version: Version) -> Self {
        Self { caps, version }
    }

    /// Its version.
    pub const fn version(&self) -> Version {
        self.version
    }

    /// The capacities it was made for.
    pub const fn capacities(&self) -> Capacities {
        self.caps
    }

    pub(super) const fn t(&self) -> usize {
        self.caps.tools as usize
    }

    /// The observation's segments, in order: the first [`Version::segments`] of the array are
    /// this version's (the rest have no rows and start at the observation's end).
    pub const fn segments(&self) -> [Segment; SEGMENTS_MAX] {
        let t = self.t();
        let harness = match self.version {
            Version::V1 => 0,
            Version::V2 => 1,
        };
        let spec: [(&'static str, usize, &'static [Feature]); SEGMENTS_MAX] = [
            ("global", 1, GLOBAL),
            ("event", 1, EVENT),
            ("fields", FIELDS_MAX, FIELD),
            ("facts", self.caps.facts as usize, FACT),
            ("steps", self.caps.steps as usize, STEP),
            ("lessons", self.caps.lessons as usize, LESSON),
            ("harness", harness, HARNESS),
        ];
        let empty = Segment {
            name: "",
            offset: 0,
            rows: 0,
            width: 0,
            features: &[],
        };
        let mut out = [empty; SEGMENTS_MAX];
        let mut offset = 0;
        let mut i = 0;
        while i < SEGMENTS_MAX {
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

    /// This version's segments, in order.
    pub fn used_segments(&self) -> impl Iterator<Item = Segment> {
        self.segments().into_iter().take(self.version.segments())
    }

    /// Floats in one observation.
    pub const fn obs_len(&self) -> usize {
        let s = self.segments();
        let last = SEGMENTS_MAX - 1;
        s[last].offset + s[last].rows * s[last].width
    }

    pub(super) fn fits<S: Storage>(&self, ws: &Workspace<S>) -> Result<(), ObsError> {
        if ws.capacities() == self.caps {
            Ok(())
        } else {
            Err(ObsError::CapacityMismatch)
        }
    }
}
