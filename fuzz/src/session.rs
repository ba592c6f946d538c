//! One scripted task that uses every action variant and produces every outcome variant.
//!
//! It is the source of the `decode` seeds (its actions, outcomes and events as frames, and
//! snapshots taken along the way), of the `apply` seed that replays it through the script
//! interpreter, and of the non-empty workspaces that `decode` restores into, so that a restore
//! which wrongly clears a table cannot hide behind an empty one.

use evoharness_core::{
    Action, ApplyError, Arg, Blob, Commit, Event, EventKind, Key, KeyArg, Note, Outcome, StepRef,
    StepVerb, Storage, Text, Track, ValueRef, Workspace,
};

/// One thing the session does.
#[derive(Clone, Debug, PartialEq)]
#[expect(
    clippy::large_enum_variant,
    reason = "a list of a few dozen items, built once per run"
)]
pub enum Item {
    /// Make this the current event.
    Observe(Event<'static>),
    /// Apply this action.
    Apply(Action<'static>),
}

/// An item and, for an action, what applying it gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// What was done.
    pub item: Item,
    /// The outcome of an [`Item::Apply`]; `None` for an observation.
    pub outcome: Option<Result<Outcome, ApplyError>>,
}

fn key(s: &'static str) -> KeyArg<'static> {
    KeyArg::Lit(Key::new(s).expect("a short key"))
}

fn text(s: &'static str) -> Arg<'static> {
    Arg::Lit(ValueRef::Text(Text::new(s).expect("a short text")))
}

fn int(x: i64) -> Arg<'static> {
    Arg::Lit(ValueRef::Int(x))
}

fn step(step: StepRef, verb: StepVerb, value: Option<Arg<'static>>) -> Action<'static> {
    Action::Commit(Commit::Step { step, verb, value })
}

/// The session, in order. It needs at least 2 tools, 3 facts, 2 steps and 2 lessons to run
/// without capacity refusals; it ends with `Finish`.
pub fn items() -> Vec<Item> {
    let result = Event::new(EventKind::Result, 1)
        .with("cursor", ValueRef::Int(42))
        .and_then(|e| e.with("token", ValueRef::Text(Text::new("abc").expect("short"))))
        .and_then(|e| e.with("ok", ValueRef::Bool(true)))
        .and_then(|e| e.with("ratio", ValueRef::Float(0.5)))
        .and_then(|e| {
            e.with(
                "blob",
                ValueRef::Bytes(Blob::new(&[0, 1, 0xff]).expect("short")),
            )
        })
        .expect("five fields fit an event");
    let error = Event::new(EventKind::Error, 0)
        .with("code", ValueRef::Int(429))
        .expect("one field fits an event");
    use Action::{Finish, Recall};
    use Item::{Apply, Observe};
    vec![
        Observe(result),
        Apply(Action::Act {
            tool: 1,
            args: [int(7), Arg::Field(1)].into_iter().collect(),
        }),
        Apply(Action::Track(Track::Set {
            key: KeyArg::Field(0),
            value: Arg::Field(0),
            confidence: 1.0,
        })),
        Apply(Action::Track(Track::Set {
            key: key("token"),
            value: Arg::Field(1),
            confidence: 0.9,
        })),
        Apply(Action::Track(Track::Set {
            key: key("ratio"),
            value: Arg::Lit(ValueRef::Float(0.25)),
            confidence: 0.5,
        })),
        Apply(Action::Track(Track::Revise {
            key: key("cursor"),
            value: int(43),
            confidence: 0.8,
        })),
        Apply(Action::Track(Track::Confirm {
            key: KeyArg::Fact(0),
        })),
        Apply(Action::Commit(Commit::Plan {
            label: text("migrate"),
        })),
        Apply(Action::Commit(Commit::Plan {
            label: Arg::Field(1),
        })),
        Apply(step(StepRef::Index(0), StepVerb::Start, None)),
        Apply(step(StepRef::Active, StepVerb::Cursor, Some(Arg::Field(0)))),
        Apply(step(StepRef::Active, StepVerb::Fail, Some(text("timeout")))),
        Apply(step(StepRef::Index(0), StepVerb::Retry, None)),
        Apply(step(StepRef::Index(0), StepVerb::Complete, None)),
        // Refused: a done step is re-opened only by a retry.
        Apply(step(StepRef::Index(0), StepVerb::Complete, None)),
        Observe(error),
        Apply(Action::Act {
            tool: 0,
            args: [Arg::Fact(1), Arg::LastAct, Arg::Field(0), text("retry")]
                .into_iter()
                .collect(),
        }),
        Apply(Action::Note(Note::Add {
            trigger: Arg::Field(0),
            remedy: Arg::LastAct,
        })),
        Apply(Action::Note(Note::Add {
            trigger: int(429),
            remedy: int(1),
        })),
        Apply(Action::Note(Note::Add {
            trigger: Arg::Fact(1),
            remedy: text("refresh"),
        })),
        Apply(Recall {
            query: Arg::Field(0),
            k: 2,
        }),
        Apply(Action::Note(Note::Rate {
            lesson: 0,
            helpful: true,
        })),
        Apply(Action::Track(Track::Retract { key: key("ratio") })),
        Apply(Action::Track(Track::Compress { keep: 1 })),
        Apply(Action::Note(Note::Consolidate { keep: 1 })),
        // Refused: k must be 1 to RECALL_MAX.
        Apply(Recall {
            query: int(429),
            k: 0,
        }),
        Apply(Finish { success: true }),
    ]
}

/// Plays `items` on `ws`, returning each with its outcome.
pub fn play<S: Storage>(ws: &mut Workspace<S>, items: &[Item]) -> Vec<Played> {
    items
        .iter()
        .map(|item| Played {
            item: item.clone(),
            outcome: match item {
                Item::Observe(e) => {
                    ws.observe(e);
                    None
                }
                Item::Apply(a) => Some(ws.apply(a)),
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoharness_core::{Config, HeapWorkspace};

    #[test]
    fn only_the_two_deliberate_refusals_are_refused() {
        let mut ws = HeapWorkspace::with_capacities(3, 2, 2, Config::new(2, 100)).unwrap();
        let refused: Vec<_> = play(&mut ws, &items())
            .into_iter()
            .filter_map(|p| p.outcome?.err())
            .collect();
        assert!(
            matches!(
                refused[..],
                [ApplyError::IllegalTransition { .. }, ApplyError::BadCount]
            ),
            "{refused:?}"
        );
        assert_eq!(ws.finished(), Some(true));
    }
}
