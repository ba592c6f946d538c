//! The structured-v1 policy ABI: the observation a policy sees, the action templates it
//! chooses among, and the mask of templates that are legal now.
//!
//! Everything is derived from a workspace's [`Capacities`] through a [`Layout`]: the observation
//! length, each segment's offset, each feature's meaning, and the template table. The layout is
//! data ([`Layout::segments`], [`Feature`]) so that training code in another language can check
//! itself against it; `PROTOCOL.md` specifies every feature's formula.
//!
//! A policy picks a template index; [`Layout::resolve`] turns it into a concrete [`Action`] with
//! pointer-style arguments ("track field 3 of the current event", "call tool 2 with belief slot
//! 4"), and [`Layout::mask`] marks exactly the templates whose action `apply` would accept now.

use crate::action::{Action, ApplyError, Arg, KeyArg, Note, StepRef, Track, Verb};
use crate::event::EventKind;
use crate::progress::{Status, StepVerb};
use crate::value::{FNV_OFFSET, Value, ValueKind, fnv1a};
use crate::workspace::Storage;
use crate::workspace::{Capacities, Workspace};
use crate::{FIELDS_MAX, RECALL_MAX, TEXT_MAX};

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
    f("provenance", crate::belief::Provenance::COUNT),
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

/// The verbs a per-step template may carry, in table order (cursor has its own templates).
pub const STEP_TEMPLATE_VERBS: [StepVerb; 6] = [
    StepVerb::Start,
    StepVerb::Complete,
    StepVerb::Fail,
    StepVerb::Block,
    StepVerb::Skip,
    StepVerb::Retry,
];

/// Where an `Act` template's single argument comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A belief slot.
    Fact(u16),
    /// A field of the current event.
    Field(u8),
}

/// One action template: a verb plus indices into the workspace or the current event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Template {
    /// Finish, claiming success or not.
    Finish {
        /// The claim.
        success: bool,
    },
    /// Call a tool with no argument or one pointer argument.
    Act {
        /// The tool.
        tool: u16,
        /// The argument.
        arg: Option<Source>,
    },
    /// Track a field of the current event under its own key: set if new, revise if known.
    Track {
        /// The field.
        field: u8,
    },
    /// Confirm a fact.
    Confirm {
        /// Its slot.
        fact: u16,
    },
    /// Retract a fact.
    Retract {
        /// Its slot.
        fact: u16,
    },
    /// Compress belief to three quarters of its capacity.
    Compress,
    /// Plan a step labelled by a field of the current event.
    Plan {
        /// The field.
        field: u8,
    },
    /// Change a step's status (one of [`STEP_TEMPLATE_VERBS`]). `Fail` records field 0 of the
    /// current event as the error when there is one.
    Step {
        /// The step.
        step: u16,
        /// The verb.
        verb: StepVerb,
    },
    /// Record a field of the current event as the active step's cursor.
    Cursor {
        /// The field.
        field: u8,
    },
    /// Recall up to [`RECALL_MAX`] lessons matching a field of the current event.
    Recall {
        /// The field.
        field: u8,
    },
    /// Note a lesson: trigger = a fact's value, remedy = the last world action's tool.
    NoteFact {
        /// The fact's slot.
        fact: u16,
    },
    /// Note a lesson: trigger = a field of the current event, remedy = the last world action's
    /// tool.
    NoteField {
        /// The field.
        field: u8,
    },
    /// Rate a lesson.
    Rate {
        /// Its slot.
        lesson: u16,
        /// Helpful or harmful.
        helpful: bool,
    },
    /// Consolidate experience to three quarters of its capacity.
    Consolidate,
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
    caps: Capacities,
}

// Template table block sizes, in order; see `Layout::template`.
const FIELDS: usize = FIELDS_MAX;

impl Layout {
    /// The layout for these capacities.
    pub const fn new(caps: Capacities) -> Self {
        Self { caps }
    }

    /// The capacities it was made for.
    pub const fn capacities(&self) -> Capacities {
        self.caps
    }

    const fn t(&self) -> usize {
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

    /// The template blocks in table order: (name, count).
    const fn blocks(&self) -> [usize; 14] {
        let (f, s, l, t) = (
            self.caps.facts as usize,
            self.caps.steps as usize,
            self.caps.lessons as usize,
            self.t(),
        );
        [
            2,                             // finish
            t * (1 + f + FIELDS),          // act
            FIELDS,                        // track
            f,                             // confirm
            f,                             // retract
            1,                             // compress
            FIELDS,                        // plan
            s * STEP_TEMPLATE_VERBS.len(), // step
            FIELDS,                        // cursor
            FIELDS,                        // recall
            f,                             // note fact
            FIELDS,                        // note field
            2 * l,                         // rate
            1,                             // consolidate
        ]
    }

    /// How many action templates there are: the width of the policy's logits and the mask.
    pub const fn actions(&self) -> usize {
        let b = self.blocks();
        let mut n = 0;
        let mut i = 0;
        while i < b.len() {
            n += b[i];
            i += 1;
        }
        n
    }

    /// The template at index `i`, or `None` past the end.
    pub fn template(&self, i: usize) -> Option<Template> {
        let f = usize::from(self.caps.facts);
        let mut i = i;
        for (block, &n) in self.blocks().iter().enumerate() {
            if i >= n {
                i -= n;
                continue;
            }
            // Every index below is less than a u16 or u8 capacity, so the casts are exact.
            let u8_ = |x: usize| x as u8;
            let u16_ = |x: usize| x as u16;
            return Some(match block {
                0 => Template::Finish { success: i == 0 },
                1 => {
                    let (tool, a) = (i / (1 + f + FIELDS), i % (1 + f + FIELDS));
                    let arg = match a {
                        0 => None,
                        a if a <= f => Some(Source::Fact(u16_(a - 1))),
                        a => Some(Source::Field(u8_(a - 1 - f))),
                    };
                    Template::Act {
                        tool: u16_(tool),
                        arg,
                    }
                }
                2 => Template::Track { field: u8_(i) },
                3 => Template::Confirm { fact: u16_(i) },
                4 => Template::Retract { fact: u16_(i) },
                5 => Template::Compress,
                6 => Template::Plan { field: u8_(i) },
                7 => {
                    let n = STEP_TEMPLATE_VERBS.len();
                    Template::Step {
                        step: u16_(i / n),
                        verb: STEP_TEMPLATE_VERBS[i % n],
                    }
                }
                8 => Template::Cursor { field: u8_(i) },
                9 => Template::Recall { field: u8_(i) },
                10 => Template::NoteFact { fact: u16_(i) },
                11 => Template::NoteField { field: u8_(i) },
                12 => Template::Rate {
                    lesson: u16_(i / 2),
                    helpful: i.is_multiple_of(2),
                },
                _ => Template::Consolidate,
            });
        }
        None
    }

    /// The index of a template, or `None` if it is not in this layout's table.
    pub fn index(&self, t: Template) -> Option<usize> {
        let (f, s, l, tools) = (
            usize::from(self.caps.facts),
            usize::from(self.caps.steps),
            usize::from(self.caps.lessons),
            self.t(),
        );
        let field = |x: u8| (usize::from(x) < FIELDS).then_some(usize::from(x));
        let fact = |x: u16| (usize::from(x) < f).then_some(usize::from(x));
        let (block, i) = match t {
            Template::Finish { success } => (0, usize::from(!success)),
            Template::Act { tool, arg } => {
                let tool = usize::from(tool);
                if tool >= tools {
                    return None;
                }
                let a = match arg {
                    None => 0,
                    Some(Source::Fact(x)) => 1 + fact(x)?,
                    Some(Source::Field(x)) => 1 + f + field(x)?,
                };
                (1, tool * (1 + f + FIELDS) + a)
            }
            Template::Track { field: x } => (2, field(x)?),
            Template::Confirm { fact: x } => (3, fact(x)?),
            Template::Retract { fact: x } => (4, fact(x)?),
            Template::Compress => (5, 0),
            Template::Plan { field: x } => (6, field(x)?),
            Template::Step { step, verb } => {
                let v = STEP_TEMPLATE_VERBS.iter().position(|&v| v == verb)?;
                if usize::from(step) >= s {
                    return None;
                }
                (7, usize::from(step) * STEP_TEMPLATE_VERBS.len() + v)
            }
            Template::Cursor { field: x } => (8, field(x)?),
            Template::Recall { field: x } => (9, field(x)?),
            Template::NoteFact { fact: x } => (10, fact(x)?),
            Template::NoteField { field: x } => (11, field(x)?),
            Template::Rate { lesson, helpful } => {
                if usize::from(lesson) >= l {
                    return None;
                }
                (12, usize::from(lesson) * 2 + usize::from(!helpful))
            }
            Template::Consolidate => (13, 0),
        };
        Some(self.blocks()[..block].iter().sum::<usize>() + i)
    }

    /// The concrete action template `i` stands for in this workspace now. An error means the
    /// template cannot apply now (it is masked out).
    pub fn resolve<S: Storage>(
        &self,
        ws: &Workspace<S>,
        i: usize,
    ) -> Result<Action<'static>, ApplyError> {
        let t = self.template(i).ok_or(ApplyError::UnknownTemplate)?;
        Ok(match t {
            Template::Finish { success } => Action::Finish { success },
            Template::Act { tool, arg } => {
                let mut args = heapless::Vec::new();
                match arg {
                    None => {}
                    Some(Source::Fact(x)) => args.push(Arg::Fact(x)).unwrap_or_default(),
                    Some(Source::Field(x)) => args.push(Arg::Field(x)).unwrap_or_default(),
                }
                Action::Act { tool, args }
            }
            Template::Track { field } => {
                let ev = ws.event().ok_or(ApplyError::NoEvent)?;
                let fb = ev
                    .fields
                    .get(usize::from(field))
                    .ok_or(ApplyError::NoField)?;
                let (key, value, confidence) = (KeyArg::Field(field), Arg::Field(field), 1.0);
                if ws.belief().get(&fb.key).is_some() {
                    Action::Track(Track::Revise {
                        key,
                        value,
                        confidence,
                    })
                } else {
                    Action::Track(Track::Set {
                        key,
                        value,
                        confidence,
                    })
                }
            }
            Template::Confirm { fact } => Action::Track(Track::Confirm {
                key: KeyArg::Fact(fact),
            }),
            Template::Retract { fact } => Action::Track(Track::Retract {
                key: KeyArg::Fact(fact),
            }),
            Template::Compress => Action::Track(Track::Compress {
                keep: self.caps.facts * 3 / 4,
            }),
            Template::Plan { field } => Action::Commit(crate::action::Commit::Plan {
                label: Arg::Field(field),
            }),
            Template::Step { step, verb } => {
                let has_field0 = ws.event().is_some_and(|e| !e.fields.is_empty());
                let value = (verb == StepVerb::Fail && has_field0).then_some(Arg::Field(0));
                Action::Commit(crate::action::Commit::Step {
                    step: StepRef::Index(step),
                    verb,
                    value,
                })
            }
            Template::Cursor { field } => Action::Commit(crate::action::Commit::Step {
                step: StepRef::Active,
                verb: StepVerb::Cursor,
                value: Some(Arg::Field(field)),
            }),
            Template::Recall { field } => {
                // RECALL_MAX is a small constant.
                Action::Recall {
                    query: Arg::Field(field),
                    k: RECALL_MAX as u8,
                }
            }
            Template::NoteFact { fact } => Action::Note(Note::Add {
                trigger: Arg::Fact(fact),
                remedy: Arg::LastAct,
            }),
            Template::NoteField { field } => Action::Note(Note::Add {
                trigger: Arg::Field(field),
                remedy: Arg::LastAct,
            }),
            Template::Rate { lesson, helpful } => Action::Note(Note::Rate { lesson, helpful }),
            Template::Consolidate => Action::Note(Note::Consolidate {
                keep: self.caps.lessons * 3 / 4,
            }),
        })
    }

    fn fits<S: Storage>(&self, ws: &Workspace<S>) -> Result<(), ObsError> {
        if ws.capacities() == self.caps {
            Ok(())
        } else {
            Err(ObsError::CapacityMismatch)
        }
    }

    /// Writes the legal-action mask: `out[i]` is 1 exactly when `apply(resolve(i))` would
    /// succeed now, else 0; returns how many are legal. `out` has [`Layout::actions`] elements.
    ///
    /// This computes each block's legality from a few facts about the state (budget per verb,
    /// event fields, table fills, step statuses) instead of resolving and checking every
    /// template; [`Layout::mask_reference`] is the definition it is tested against.
    pub fn mask<S: Storage>(&self, ws: &Workspace<S>, out: &mut [u8]) -> Result<usize, ObsError> {
        self.check_mask_len(ws, out)?;
        out.fill(0);
        if ws.finished().is_some() {
            return Ok(0);
        }
        let costs = ws.config().costs;
        let can = |v: Verb| u32::from(costs.of(v)) <= ws.remaining();
        let nf = ws.event().map_or(0, |e| e.fields.len());
        let facts = ws.belief().facts();
        let nfa = facts.len();
        let (cap_f, cap_s, cap_l) = (
            usize::from(self.caps.facts),
            usize::from(self.caps.steps),
            usize::from(self.caps.lessons),
        );
        let lessons = ws.experience().lessons();
        let exp_full = lessons.len() == ws.experience().capacity();
        let mut w = MaskWriter {
            out,
            i: 0,
            legal: 0,
        };

        // finish
        w.run(2, can(Verb::Finish));
        // act: per tool, [no argument][fact slots][event fields]
        for _ in 0..self.t() {
            let ok = can(Verb::Act);
            w.run(1, ok);
            w.prefix(cap_f, nfa, ok);
            w.prefix(FIELDS, nf, ok);
        }
        // track field j: set if the key is new (needs room), revise if known
        let track = can(Verb::Track);
        let full = ws.belief().table.is_full();
        for j in 0..FIELDS {
            let ok = track
                && ws
                    .event()
                    .and_then(|e| e.fields.get(j))
                    .is_some_and(|f| !full || ws.belief().get(&f.key).is_some());
            w.run(1, ok);
        }
        w.prefix(cap_f, nfa, track); // confirm
        w.prefix(cap_f, nfa, track); // retract
        w.run(1, track); // compress
        // commit
        let commit = can(Verb::Commit);
        w.prefix(FIELDS, nf, commit && !ws.progress().table.is_full()); // plan
        let steps = ws.progress().steps();
        for si in 0..cap_s {
            for verb in STEP_TEMPLATE_VERBS {
                let ok = commit
                    && steps
                        .get(si)
                        .is_some_and(|st| st.status.after(verb).is_some());
                w.run(1, ok);
            }
        }
        w.prefix(FIELDS, nf, commit && ws.progress().active().is_some()); // cursor
        w.prefix(FIELDS, nf, can(Verb::Recall)); // recall
        // note: trigger from a fact or a field, remedy = the last act; needs room unless it merges
        let note = can(Verb::Note);
        let room = |v: &Value| !exp_full || ws.experience().find(v).is_some();
        let noting = note && ws.last_act().is_some();
        for i in 0..cap_f {
            w.run(1, noting && facts.get(i).is_some_and(|f| room(&f.value)));
        }
        for j in 0..FIELDS {
            let field = ws.event().and_then(|e| e.fields.get(j));
            w.run(1, noting && field.is_some_and(|f| room(&f.value)));
        }
        for l in 0..cap_l {
            w.run(2, note && l < lessons.len()); // rate helpful, harmful
        }
        w.run(1, note); // consolidate
        debug_assert_eq!(w.i, self.actions());
        Ok(w.legal)
    }

    /// The definition of the mask: resolve every template and check its action. Slower than
    /// [`Layout::mask`] by an order of magnitude, and equal to it (tested).
    pub fn mask_reference<S: Storage>(
        &self,
        ws: &Workspace<S>,
        out: &mut [u8],
    ) -> Result<usize, ObsError> {
        self.check_mask_len(ws, out)?;
        let mut legal = 0;
        for (i, m) in out.iter_mut().enumerate() {
            let ok = self.resolve(ws, i).and_then(|a| ws.check(&a)).is_ok();
            *m = u8::from(ok);
            legal += usize::from(ok);
        }
        Ok(legal)
    }

    fn check_mask_len<S: Storage>(&self, ws: &Workspace<S>, out: &[u8]) -> Result<(), ObsError> {
        self.fits(ws)?;
        if out.len() != self.actions() {
            return Err(ObsError::BufferLength {
                expected: self.actions(),
                got: out.len(),
            });
        }
        Ok(())
    }

    /// Writes the observation into `out` ([`Layout::obs_len`] floats). See `PROTOCOL.md`.
    pub fn encode<S: Storage>(&self, ws: &Workspace<S>, out: &mut [f32]) -> Result<(), ObsError> {
        self.fits(ws)?;
        if out.len() != self.obs_len() {
            return Err(ObsError::BufferLength {
                expected: self.obs_len(),
                got: out.len(),
            });
        }
        out.fill(0.0);
        let seg = self.segments();
        let t = self.t();
        let cfg = ws.config();
        let ratio = |a: usize, b: usize| {
            if b == 0 {
                0.0
            } else {
                (a as f64 / b as f64) as f32
            }
        };
        let ev = ws.event();

        // global
        let mut w = Writer::new(out, &seg[0], 0);
        let budget = cfg.budget as usize;
        w.put(ratio(ws.remaining() as usize, budget));
        w.put(ratio(ws.spent() as usize, budget));
        w.put(ratio(ws.belief().len(), ws.belief().capacity()));
        w.put(ratio(ws.progress().len(), ws.progress().capacity()));
        w.put(ratio(ws.experience().len(), ws.experience().capacity()));
        w.put(ratio(
            ws.progress().count(Status::Done),
            ws.progress().len(),
        ));
        w.flag(ws.progress().active().is_some());
        w.flag(ws.last_act().is_some());
        w.one_hot(ws.last_act().map(usize::from), t);
        w.done();

        // event head and fields
        if let Some(e) = ev {
            let mut w = Writer::new(out, &seg[1], 0);
            w.flag(true);
            w.one_hot(Some(e.kind as usize), EventKind::COUNT);
            w.one_hot(Some(usize::from(e.source)), t);
            w.done();
            for (j, fb) in e.fields.iter().enumerate() {
                let mut w = Writer::new(out, &seg[2], j);
                w.flag(true);
                w.put(hash01(fnv1a(FNV_OFFSET, fb.key.as_bytes())));
                w.value(&fb.value);
                let known = ws.belief().get(&fb.key);
                w.flag(known.is_some());
                w.flag(known.is_some_and(|(_, k)| !k.value.same(&fb.value)));
                w.done();
            }
        }

        // facts
        for (i, fact) in ws.belief().facts().iter().enumerate() {
            let mut w = Writer::new(out, &seg[3], i);
            w.flag(true);
            w.put(hash01(fnv1a(FNV_OFFSET, fact.key.as_bytes())));
            w.value(&fact.value);
            w.put(fact.confidence);
            let s = fact.staleness(ws.clock()) as f64;
            w.put((s / (s + 32.0)) as f32);
            w.one_hot(
                Some(fact.provenance as usize),
                crate::belief::Provenance::COUNT,
            );
            let seen = ev.and_then(|e| e.get(&fact.key));
            w.flag(seen.is_some());
            w.flag(seen.is_some_and(|v| !v.same(&fact.value)));
            w.done();
        }

        // steps
        let in_event = |v: &Value| ev.is_some_and(|e| e.fields.iter().any(|f| f.value.same(v)));
        for (i, step) in ws.progress().steps().iter().enumerate() {
            let mut w = Writer::new(out, &seg[4], i);
            w.flag(true);
            w.put(hash01(step.label.fnv1a()));
            w.one_hot(Some(step.status as usize), Status::COUNT);
            w.put(squash(u32::from(step.attempts), 2));
            w.flag(step.cursor.is_some());
            w.put(step.cursor.as_ref().map_or(0.0, scalar));
            w.flag(step.last_error.is_some());
            w.flag(in_event(&step.label));
            w.done();
        }

        // lessons
        for (i, l) in ws.experience().lessons().iter().enumerate() {
            let mut w = Writer::new(out, &seg[5], i);
            w.flag(true);
            w.put(hash01(l.trigger.fnv1a()));
            w.put(scalar(&l.remedy));
            w.put(hash01(l.remedy.fnv1a()));
            w.put(l.usefulness_f32());
            w.put(squash(u32::from(l.helpful), 4));
            w.put(squash(u32::from(l.harmful), 4));
            w.put(squash(u32::from(l.uses), 4));
            w.flag(l.recalled);
            w.flag(in_event(&l.trigger));
            let tool = match l.remedy {
                Value::Int(x) if x >= 0 && (x as u64) < t as u64 => Some(x as usize),
                _ => None,
            };
            w.one_hot(tool, t);
            w.done();
        }
        Ok(())
    }
}

/// A hash mapped to `[0, 1)`: its top 24 bits over 2^24 (exact in `f32`).
pub fn hash01(h: u32) -> f32 {
    (h >> 8) as f32 / 16_777_216.0
}

/// `x / (x + k)`, computed in `f64` and rounded once.
fn squash(x: u32, k: u32) -> f32 {
    let x = f64::from(x);
    (x / (x + f64::from(k))) as f32
}

/// The scalar feature of a value; see `PROTOCOL.md`.
pub fn scalar(v: &Value) -> f32 {
    match v {
        Value::Bool(b) => f32::from(u8::from(*b)),
        Value::Int(x) => {
            // sign(x) * log2(1 + |x|) / 64, with log2 linear between powers of two.
            let u = x.unsigned_abs().saturating_add(1);
            let b = 63 - u.leading_zeros();
            let base = 1u64 << b;
            let frac = (u - base) as f64 / base as f64;
            let mag = (f64::from(b) + frac) / 64.0;
            (if *x < 0 { -mag } else { mag }) as f32
        }
        Value::Float(x) if x.is_nan() => 0.0,
        Value::Float(x) if x.is_infinite() => x.signum() as f32,
        Value::Float(x) => (x / (1.0 + x.abs())) as f32,
        Value::Text(s) => (s.len() as f64 / TEXT_MAX as f64) as f32,
        Value::Bytes(b) => (b.len() as f64 / TEXT_MAX as f64) as f32,
    }
}

/// Writes mask entries block by block (the buffer starts zeroed).
struct MaskWriter<'a> {
    out: &'a mut [u8],
    i: usize,
    legal: usize,
}

impl MaskWriter<'_> {
    /// `n` entries, all `ok`.
    fn run(&mut self, n: usize, ok: bool) {
        if ok {
            self.out[self.i..self.i + n].fill(1);
            self.legal += n;
        }
        self.i += n;
    }

    /// `n` entries of which the first `present` are `ok` and the rest are not.
    fn prefix(&mut self, n: usize, present: usize, ok: bool) {
        let p = present.min(n);
        if ok {
            self.out[self.i..self.i + p].fill(1);
            self.legal += p;
        }
        self.i += n;
    }
}

/// Writes one row; every row's writes are bounds-checked against the row's width in debug
/// builds (and the slice bounds always), so a feature list and the encoder cannot drift apart.
struct Writer<'a> {
    out: &'a mut [f32],
    i: usize,
    end: usize,
}

impl<'a> Writer<'a> {
    fn new(out: &'a mut [f32], seg: &Segment, row: usize) -> Self {
        let i = seg.offset + row * seg.width;
        Self {
            out,
            i,
            end: i + seg.width,
        }
    }

    fn put(&mut self, x: f32) {
        self.out[self.i] = x;
        self.i += 1;
    }

    fn flag(&mut self, b: bool) {
        self.put(f32::from(u8::from(b)));
    }

    /// `n` floats, 1 at `hot` (if it is below `n`), else 0.
    fn one_hot(&mut self, hot: Option<usize>, n: usize) {
        if let Some(h) = hot.filter(|&h| h < n) {
            self.out[self.i + h] = 1.0;
        }
        self.i += n;
    }

    fn done(self) {
        debug_assert_eq!(
            self.i, self.end,
            "row written with a width other than its features'"
        );
    }

    fn value(&mut self, v: &Value) {
        self.one_hot(Some(v.kind() as usize), ValueKind::COUNT);
        self.put(scalar(v));
        self.put(hash01(v.fnv1a()));
    }
}
