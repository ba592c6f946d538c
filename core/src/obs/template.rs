//! The action template table: what each index of the policy's logits stands for, and how a
//! template resolves to a concrete action in the workspace as it is now.

use crate::action::{Action, ApplyError, Arg, Commit, KeyArg, Note, StepRef, Track};
use crate::progress::StepVerb;
use crate::workspace::{Storage, Workspace};
use crate::{FIELDS_MAX, RECALL_MAX};

use super::Layout;

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

// Template table block sizes, in order; see `Layout::template`.
pub(super) const FIELDS: usize = FIELDS_MAX;

impl Layout {
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
            Template::Plan { field } => Action::Commit(Commit::Plan {
                label: Arg::Field(field),
            }),
            Template::Step { step, verb } => {
                let has_field0 = ws.event().is_some_and(|e| !e.fields.is_empty());
                let value = (verb == StepVerb::Fail && has_field0).then_some(Arg::Field(0));
                Action::Commit(Commit::Step {
                    step: StepRef::Index(step),
                    verb,
                    value,
                })
            }
            Template::Cursor { field } => Action::Commit(Commit::Step {
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
}
