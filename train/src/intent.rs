//! High-level actions (what a teacher written by a person says: "pay invoice 101", "track the
//! invoice", "finish") mapped to the structured-v1 template that does it in the current state.
//!
//! A template takes its arguments from the workspace by position (a field of the current
//! event, a belief slot), so an [`Intent`] names them by value or by key and [`template`] finds
//! the position: a call's argument is looked up among the current event's fields, then the
//! belief slots; a key among the current event's fields (then, for `note`, the facts). An
//! action the layout cannot express (an argument that neither the event nor belief holds, a
//! key the event lacks, a step past the capacity) is an error that says so; a template that
//! exists but is not legal now is an error from [`VecEnv::intent_template`] with the reason.
//!
//! [`VecEnv::intent_template`]: crate::VecEnv::intent_template

use evoharness_core::obs::{Layout, Source, Template};
use evoharness_core::{HeapWorkspace, StepVerb, Value};

/// A high-level action; see the [module docs](self).
#[derive(Clone, Debug, PartialEq)]
pub enum Intent {
    /// Finish, claiming success or not.
    Finish {
        /// The claim.
        success: bool,
    },
    /// Call a tool, with no argument or with this value (found in the event or belief).
    Call {
        /// The tool's index.
        tool: u16,
        /// The argument.
        arg: Option<Value>,
    },
    /// Track the current event's field `key` in Belief.
    Track {
        /// The field's key.
        key: String,
    },
    /// Retract the belief fact `key`.
    Retract {
        /// The fact's key.
        key: String,
    },
    /// Recall lessons matching the current event's field `key`.
    Recall {
        /// The field's key.
        key: String,
    },
    /// Note a lesson: trigger the current event's field `key` (else the fact `key`), remedy the
    /// last world action's tool.
    Note {
        /// The field's (or fact's) key.
        key: String,
    },
    /// Plan a step labelled by the current event's field `key`.
    Plan {
        /// The field's key.
        key: String,
    },
    /// Record the current event's field `key` as the active step's cursor.
    Cursor {
        /// The field's key.
        key: String,
    },
    /// Change step `step`'s status (start, complete, fail, block, skip, retry).
    Step {
        /// The step's index.
        step: u16,
        /// The change.
        verb: StepVerb,
    },
}

/// The template that does `intent` in `ws`'s current state, or why the layout cannot express
/// it. `tool_names` name the tools in messages.
pub fn template(
    layout: &Layout,
    ws: &HeapWorkspace,
    intent: &Intent,
    tool_names: &dyn Fn(u16) -> String,
) -> Result<usize, String> {
    let caps = layout.capacities();
    let fields: Vec<(&str, &Value)> = ws
        .event()
        .map(|e| {
            e.fields
                .iter()
                .map(|f| (f.key.as_str(), &f.value))
                .collect()
        })
        .unwrap_or_default();
    let field_keys = || {
        let k: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
        if k.is_empty() {
            "none".to_string()
        } else {
            k.join(", ")
        }
    };
    let field = |verb: &str, key: &str| {
        fields
            .iter()
            .position(|(k, _)| *k == key)
            .map(|i| i as u8)
            .ok_or_else(|| {
                format!(
                    "the layout cannot express {verb} {key:?}: the current event has no field \
                     {key:?} (its fields: {})",
                    field_keys()
                )
            })
    };
    let facts = ws.belief().facts();
    let t = match intent {
        Intent::Finish { success } => Template::Finish { success: *success },
        Intent::Call { tool, arg } => {
            if *tool >= caps.tools {
                return Err(format!("no tool {tool}: the layout has {}", caps.tools));
            }
            let arg = match arg {
                None => None,
                Some(v) => {
                    let in_event = fields.iter().position(|(_, x)| x.same(v));
                    let in_belief = || facts.iter().position(|f| f.value.same(v));
                    match (in_event, in_belief()) {
                        (Some(i), _) => Some(Source::Field(i as u8)),
                        (None, Some(i)) => Some(Source::Fact(i as u16)),
                        (None, None) => {
                            return Err(format!(
                                "the layout cannot express a call of {} with {v:?}: a call's \
                                 argument must be a field of the current event or a belief \
                                 slot, and none holds that value (track it while an event \
                                 shows it)",
                                tool_names(*tool)
                            ));
                        }
                    }
                }
            };
            Template::Act { tool: *tool, arg }
        }
        Intent::Track { key } => Template::Track {
            field: field("track", key)?,
        },
        Intent::Retract { key } => Template::Retract {
            fact: ws.belief().get(key).map(|(i, _)| i as u16).ok_or_else(|| {
                format!("the layout cannot express retract {key:?}: belief has no fact {key:?}")
            })?,
        },
        Intent::Recall { key } => Template::Recall {
            field: field("recall", key)?,
        },
        Intent::Note { key } => match field("note", key) {
            Ok(field) => Template::NoteField { field },
            Err(e) => match ws.belief().get(key) {
                Some((i, _)) => Template::NoteFact { fact: i as u16 },
                None => return Err(format!("{e}, and belief has no fact {key:?}")),
            },
        },
        Intent::Plan { key } => Template::Plan {
            field: field("plan", key)?,
        },
        Intent::Cursor { key } => Template::Cursor {
            field: field("cursor", key)?,
        },
        Intent::Step { step, verb } => {
            if *step >= caps.steps {
                return Err(format!(
                    "the layout cannot express step {step}: it has {} plan steps",
                    caps.steps
                ));
            }
            if *verb == StepVerb::Cursor {
                return Err("a step's cursor is `cursor` with a field's key".into());
            }
            Template::Step {
                step: *step,
                verb: *verb,
            }
        }
    };
    layout
        .index(t)
        .ok_or_else(|| format!("the layout has no template for {t:?}"))
}
