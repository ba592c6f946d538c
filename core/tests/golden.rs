//! Golden bytes: the exact wire encoding of every message, every variant and the snapshot
//! format, pinned as literal byte arrays, and checks that `PROTOCOL.md` says what the code does.
//!
//! Each `pin` encodes a value and compares the bytes with a literal, then decodes the literal
//! and compares the value. A change that moves any byte fails here: that is a protocol change,
//! and `PROTOCOL.md` (and `wire::VERSION` or `snapshot::FORMAT`) must move with it.

use core::fmt::Debug;

use serde::{Deserialize, Serialize};

use evoharness_core::obs::{self, Layout, Segment, Source, Template, Version, Width};
use evoharness_core::snapshot::{self, SnapshotError};
use evoharness_core::wire::{COBS_FRAME_MAX, DecodeError, FRAME_MAX, Frame, Message, VERSION};
use evoharness_core::{
    ARGS_MAX, Action, ApplyError, Arg, Blob, CAPACITY_MAX, Capacities, Change, Commit, Config,
    Event, EventBuf, EventKind, FIELDS_MAX, Fact, Field, InlineWorkspace, KEY_MAX, Key, KeyArg,
    Lesson, Note, Outcome, Provenance, RECALL_MAX, REMOVE_MAX, Recalled, Status, Step, StepRef,
    StepVerb, Storage, TEXT_MAX, TOOLS_MAX, Text, ToolCall, Track, Value, ValueRef, Verb,
    Workspace,
};

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn encode<T: Serialize + ?Sized>(v: &T) -> Vec<u8> {
    let mut buf = [0u8; 4096];
    postcard::to_slice(v, &mut buf).unwrap().to_vec()
}

/// Encodes `value` and compares with `golden`; decodes `golden` and compares with `value`.
#[track_caller]
fn pin<'de, T>(value: &T, golden: &'de [u8])
where
    T: Serialize + Deserialize<'de> + PartialEq + Debug,
{
    let got = encode(value);
    assert_eq!(hex(&got), hex(golden), "encoding of {value:?}");
    let (back, rest) = postcard::take_from_bytes::<T>(golden).unwrap();
    assert!(rest.is_empty());
    assert_eq!(&back, value);
}

/// Pins a message body, and the same body in a frame with sequence number 0.
#[track_caller]
fn pin_message(msg: Message<'_>, golden: &[u8]) {
    pin(&msg, golden);
    let mut framed = vec![VERSION, 0];
    framed.extend_from_slice(golden);
    let mut buf = [0u8; FRAME_MAX];
    let frame = Frame::new(0, msg);
    assert_eq!(hex(frame.encode(&mut buf).unwrap()), hex(&framed));
    assert_eq!(Frame::decode(&framed).unwrap(), frame);
}

#[track_caller]
fn pin_action(a: Action<'_>, golden: &[u8]) {
    pin(&a, golden);
    let mut msg = vec![0];
    msg.extend_from_slice(golden);
    pin_message(Message::Action(a), &msg);
}

#[track_caller]
fn pin_outcome(o: Result<Outcome, ApplyError>, golden: &[u8]) {
    pin(&o, golden);
    let mut msg = vec![1];
    msg.extend_from_slice(golden);
    pin_message(Message::Outcome(o), &msg);
}

fn text(s: &'static str) -> ValueRef<'static> {
    ValueRef::Text(Text::new(s).unwrap())
}

fn key(s: &'static str) -> KeyArg<'static> {
    KeyArg::Lit(Key::new(s).unwrap())
}

fn args<const N: usize>(a: [Arg<'static>; N]) -> heapless::Vec<Arg<'static>, ARGS_MAX> {
    heapless::Vec::from_slice(&a).unwrap()
}

fn owned(s: &str) -> Value {
    Value::text(s).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Values and arguments

#[test]
fn value_every_kind() {
    pin(&Value::Bool(false), &[0x00, 0x00]);
    pin(&Value::Bool(true), &[0x00, 0x01]);
    pin(&Value::Int(0), &[0x01, 0x00]);
    pin(&Value::Int(-1), &[0x01, 0x01]);
    pin(&Value::Int(1), &[0x01, 0x02]);
    pin(&Value::Int(-300), &[0x01, 0xd7, 0x04]);
    pin(
        &Value::Int(i64::MIN),
        &[
            0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
        ],
    );
    pin(
        &Value::Int(i64::MAX),
        &[
            0x01, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
        ],
    );
    pin(
        &Value::Float(1.5),
        &[0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x3f],
    );
    pin(
        &Value::Float(-0.0),
        &[0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80],
    );
    pin(
        &owned("héllo"),
        &[0x03, 0x06, 0x68, 0xc3, 0xa9, 0x6c, 0x6c, 0x6f],
    );
    pin(&owned(""), &[0x03, 0x00]);
    pin(
        &Value::bytes(&[0, 1, 255]).unwrap(),
        &[0x04, 0x03, 0x00, 0x01, 0xff],
    );
    // The borrowed form encodes identically.
    pin(
        &text("héllo"),
        &[0x03, 0x06, 0x68, 0xc3, 0xa9, 0x6c, 0x6c, 0x6f],
    );
    pin(
        &ValueRef::Bytes(Blob::new(&[0, 1, 255]).unwrap()),
        &[0x04, 0x03, 0x00, 0x01, 0xff],
    );
    pin(&ValueRef::Int(-300), &[0x01, 0xd7, 0x04]);
}

#[test]
fn arg_key_arg_step_ref_every_form() {
    pin(&Arg::Lit(ValueRef::Int(5)), &[0x00, 0x01, 0x0a]);
    pin(&Arg::Field(3), &[0x01, 0x03]);
    pin(&Arg::Fact(300), &[0x02, 0xac, 0x02]);
    pin(&Arg::LastAct, &[0x03]);
    pin(&key("id"), &[0x00, 0x02, 0x69, 0x64]);
    pin(&KeyArg::Field(3), &[0x01, 0x03]);
    pin(&KeyArg::Fact(1), &[0x02, 0x01]);
    pin(&StepRef::Index(5), &[0x00, 0x05]);
    pin(&StepRef::Active, &[0x01]);
}

#[test]
fn small_enums_every_variant() {
    for (i, s) in [
        Status::Pending,
        Status::Active,
        Status::Done,
        Status::Failed,
        Status::Blocked,
        Status::Skipped,
    ]
    .iter()
    .enumerate()
    {
        assert_eq!(encode(s), [u8::try_from(i).unwrap()], "{s:?}");
    }
    for (i, v) in StepVerb::ALL.iter().enumerate() {
        assert_eq!(encode(v), [u8::try_from(i).unwrap()], "{v:?}");
    }
    let changes = [
        Change::Created,
        Change::Revised,
        Change::Confirmed,
        Change::Retracted,
    ];
    for (i, c) in changes.iter().enumerate() {
        assert_eq!(encode(c), [u8::try_from(i).unwrap()], "{c:?}");
    }
    let kinds = [EventKind::Result, EventKind::Error, EventKind::Notice];
    for (i, k) in kinds.iter().enumerate() {
        assert_eq!(encode(k), [u8::try_from(i).unwrap()], "{k:?}");
    }
    let provs = [
        Provenance::Literal,
        Provenance::Event,
        Provenance::Belief,
        Provenance::Action,
    ];
    for (i, p) in provs.iter().enumerate() {
        assert_eq!(encode(p), [u8::try_from(i).unwrap()], "{p:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Actions

#[test]
fn action_act() {
    pin_action(
        Action::Act {
            tool: 2,
            args: args([
                Arg::Lit(text("x")),
                Arg::Field(1),
                Arg::Fact(2),
                Arg::LastAct,
            ]),
        },
        &[
            0x00, 0x02, 0x04, 0x00, 0x03, 0x01, 0x78, 0x01, 0x01, 0x02, 0x02, 0x03,
        ],
    );
    pin_action(
        Action::Act {
            tool: 0,
            args: args([]),
        },
        &[0x00, 0x00, 0x00],
    );
}

#[test]
fn action_track_every_form() {
    pin_action(
        Action::Track(Track::Set {
            key: KeyArg::Field(0),
            value: Arg::Field(0),
            confidence: 1.0,
        }),
        &[0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x80, 0x3f],
    );
    pin_action(
        Action::Track(Track::Revise {
            key: key("id"),
            value: Arg::Lit(ValueRef::Int(8)),
            confidence: 0.5,
        }),
        &[
            0x01, 0x01, 0x00, 0x02, 0x69, 0x64, 0x00, 0x01, 0x10, 0x00, 0x00, 0x00, 0x3f,
        ],
    );
    pin_action(
        Action::Track(Track::Confirm {
            key: KeyArg::Fact(1),
        }),
        &[0x01, 0x02, 0x02, 0x01],
    );
    pin_action(
        Action::Track(Track::Retract { key: key("id") }),
        &[0x01, 0x03, 0x00, 0x02, 0x69, 0x64],
    );
    pin_action(
        Action::Track(Track::Compress { keep: 300 }),
        &[0x01, 0x04, 0xac, 0x02],
    );
}

#[test]
fn action_commit_every_form() {
    pin_action(
        Action::Commit(Commit::Plan {
            label: Arg::Lit(text("load")),
        }),
        &[0x02, 0x00, 0x00, 0x03, 0x04, 0x6c, 0x6f, 0x61, 0x64],
    );
    pin_action(
        Action::Commit(Commit::Step {
            step: StepRef::Index(0),
            verb: StepVerb::Start,
            value: None,
        }),
        &[0x02, 0x01, 0x00, 0x00, 0x00, 0x00],
    );
    pin_action(
        Action::Commit(Commit::Step {
            step: StepRef::Active,
            verb: StepVerb::Cursor,
            value: Some(Arg::Field(2)),
        }),
        &[0x02, 0x01, 0x01, 0x06, 0x01, 0x01, 0x02],
    );
    pin_action(
        Action::Commit(Commit::Step {
            step: StepRef::Index(1),
            verb: StepVerb::Fail,
            value: Some(Arg::Lit(text("timeout"))),
        }),
        &[
            0x02, 0x01, 0x00, 0x01, 0x02, 0x01, 0x00, 0x03, 0x07, 0x74, 0x69, 0x6d, 0x65, 0x6f,
            0x75, 0x74,
        ],
    );
}

#[test]
fn action_recall_note_finish() {
    pin_action(
        Action::Recall {
            query: Arg::Field(1),
            k: 4,
        },
        &[0x03, 0x01, 0x01, 0x04],
    );
    pin_action(
        Action::Note(Note::Add {
            trigger: Arg::Field(0),
            remedy: Arg::LastAct,
        }),
        &[0x04, 0x00, 0x01, 0x00, 0x03],
    );
    pin_action(
        Action::Note(Note::Rate {
            lesson: 2,
            helpful: true,
        }),
        &[0x04, 0x01, 0x02, 0x01],
    );
    pin_action(
        Action::Note(Note::Consolidate { keep: 3 }),
        &[0x04, 0x02, 0x03],
    );
    pin_action(Action::Finish { success: true }, &[0x05, 0x01]);
    pin_action(Action::Finish { success: false }, &[0x05, 0x00]);
}

// ---------------------------------------------------------------------------------------------
// Outcomes and errors

#[test]
fn outcome_every_variant() {
    let mut call_args = heapless::Vec::new();
    call_args.push(Value::Int(42)).unwrap();
    call_args.push(owned("a")).unwrap();
    pin_outcome(
        Ok(Outcome::Call(ToolCall {
            tool: 1,
            args: call_args,
        })),
        &[0x00, 0x00, 0x01, 0x02, 0x01, 0x54, 0x03, 0x01, 0x61],
    );
    pin_outcome(
        Ok(Outcome::Tracked {
            slot: 0,
            change: Change::Created,
        }),
        &[0x00, 0x01, 0x00, 0x00],
    );
    pin_outcome(
        Ok(Outcome::Tracked {
            slot: 3,
            change: Change::Retracted,
        }),
        &[0x00, 0x01, 0x03, 0x03],
    );
    let mut removed = heapless::Vec::new();
    removed.push("a".try_into().unwrap()).unwrap();
    removed.push("bb".try_into().unwrap()).unwrap();
    pin_outcome(
        Ok(Outcome::Compressed { removed, over: 1 }),
        &[0x00, 0x02, 0x02, 0x01, 0x61, 0x02, 0x62, 0x62, 0x01],
    );
    pin_outcome(
        Ok(Outcome::Committed {
            step: 0,
            status: Status::Active,
        }),
        &[0x00, 0x03, 0x00, 0x01],
    );
    let mut found = heapless::Vec::new();
    found
        .push(Recalled {
            slot: 0,
            score: 2.5,
        })
        .unwrap();
    found
        .push(Recalled {
            slot: 2,
            score: 1.5,
        })
        .unwrap();
    pin_outcome(
        Ok(Outcome::Recalled(found)),
        &[
            0x00, 0x04, 0x02, 0x00, 0x00, 0x00, 0x20, 0x40, 0x02, 0x00, 0x00, 0xc0, 0x3f,
        ],
    );
    pin_outcome(
        Ok(Outcome::Recalled(heapless::Vec::new())),
        &[0x00, 0x04, 0x00],
    );
    pin_outcome(
        Ok(Outcome::Noted {
            slot: 1,
            merged: true,
        }),
        &[0x00, 0x05, 0x01, 0x01],
    );
    pin_outcome(Ok(Outcome::Rated { slot: 0 }), &[0x00, 0x06, 0x00]);
    let mut triggers = heapless::Vec::new();
    triggers.push(owned("E429")).unwrap();
    pin_outcome(
        Ok(Outcome::Consolidated {
            removed: triggers,
            over: 0,
        }),
        &[0x00, 0x07, 0x01, 0x03, 0x04, 0x45, 0x34, 0x32, 0x39, 0x00],
    );
    pin_outcome(Ok(Outcome::Finished { success: true }), &[0x00, 0x08, 0x01]);
}

/// Every `ApplyError`, in wire order.
fn apply_errors() -> [ApplyError; 20] {
    use ApplyError::*;
    [
        Finished,
        OverBudget,
        UnknownTool,
        NoEvent,
        NoField,
        NoFact,
        NoLastAct,
        UnknownKey,
        KeyExists,
        BeliefFull,
        BadConfidence,
        UnknownStep,
        NoActiveStep,
        IllegalTransition {
            from: Status::Done,
            verb: StepVerb::Start,
        },
        MissingCursor,
        PlanFull,
        UnknownLesson,
        ExperienceFull,
        BadCount,
        UnknownTemplate,
    ]
}

#[test]
fn apply_error_every_variant() {
    for (i, e) in apply_errors().into_iter().enumerate() {
        let i = u8::try_from(i).unwrap();
        if let ApplyError::IllegalTransition { .. } = e {
            // from = Done (2), verb = Start (0).
            assert_eq!(encode(&e), [i, 2, 0]);
        } else {
            assert_eq!(encode(&e), [i], "{e:?}");
        }
        assert_eq!(postcard::from_bytes::<ApplyError>(&encode(&e)), Ok(e));
    }
    pin_outcome(Err(ApplyError::OverBudget), &[0x01, 0x01]);
    pin_outcome(
        Err(ApplyError::IllegalTransition {
            from: Status::Pending,
            verb: StepVerb::Complete,
        }),
        &[0x01, 0x0d, 0x00, 0x01],
    );
}

// ---------------------------------------------------------------------------------------------
// Events

fn event_every_kind() -> Event<'static> {
    Event::new(EventKind::Error, 2)
        .with("code", ValueRef::Int(429))
        .unwrap()
        .with("retry", ValueRef::Bool(true))
        .unwrap()
        .with("wait", ValueRef::Float(0.25))
        .unwrap()
        .with("msg", text("slow"))
        .unwrap()
        .with("raw", ValueRef::Bytes(Blob::new(&[0xde, 0xad]).unwrap()))
        .unwrap()
}

#[test]
fn event_with_every_value_kind() {
    let ev = event_every_kind();
    pin(
        &ev,
        &[
            0x01, 0x02, 0x05, 0x04, 0x63, 0x6f, 0x64, 0x65, 0x01, 0xda, 0x06, 0x05, 0x72, 0x65,
            0x74, 0x72, 0x79, 0x00, 0x01, 0x04, 0x77, 0x61, 0x69, 0x74, 0x02, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0xd0, 0x3f, 0x03, 0x6d, 0x73, 0x67, 0x03, 0x04, 0x73, 0x6c, 0x6f,
            0x77, 0x03, 0x72, 0x61, 0x77, 0x04, 0x02, 0xde, 0xad,
        ],
    );
    pin_message(
        Message::Event(ev.clone()),
        &[
            0x02, 0x01, 0x02, 0x05, 0x04, 0x63, 0x6f, 0x64, 0x65, 0x01, 0xda, 0x06, 0x05, 0x72,
            0x65, 0x74, 0x72, 0x79, 0x00, 0x01, 0x04, 0x77, 0x61, 0x69, 0x74, 0x02, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0xd0, 0x3f, 0x03, 0x6d, 0x73, 0x67, 0x03, 0x04, 0x73, 0x6c,
            0x6f, 0x77, 0x03, 0x72, 0x61, 0x77, 0x04, 0x02, 0xde, 0xad,
        ],
    );
    // The owned form a workspace and a snapshot hold encodes identically.
    pin(
        &EventBuf::from_event(&ev),
        &[
            0x01, 0x02, 0x05, 0x04, 0x63, 0x6f, 0x64, 0x65, 0x01, 0xda, 0x06, 0x05, 0x72, 0x65,
            0x74, 0x72, 0x79, 0x00, 0x01, 0x04, 0x77, 0x61, 0x69, 0x74, 0x02, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0xd0, 0x3f, 0x03, 0x6d, 0x73, 0x67, 0x03, 0x04, 0x73, 0x6c, 0x6f,
            0x77, 0x03, 0x72, 0x61, 0x77, 0x04, 0x02, 0xde, 0xad,
        ],
    );
    pin(
        &Event::new(EventKind::Notice, 300),
        &[0x02, 0xac, 0x02, 0x00],
    );
    pin(
        &Field {
            key: Key::new("id").unwrap(),
            value: ValueRef::Int(7),
        },
        &[0x02, 0x69, 0x64, 0x01, 0x0e],
    );
}

// ---------------------------------------------------------------------------------------------
// Frames

#[test]
fn frame_header_seq_varint() {
    let cases: [(u32, &[u8]); 7] = [
        (0, &[0x01, 0x00, 0x00, 0x05, 0x01]),
        (1, &[0x01, 0x01, 0x00, 0x05, 0x01]),
        (127, &[0x01, 0x7f, 0x00, 0x05, 0x01]),
        (128, &[0x01, 0x80, 0x01, 0x00, 0x05, 0x01]),
        (300, &[0x01, 0xac, 0x02, 0x00, 0x05, 0x01]),
        (16_384, &[0x01, 0x80, 0x80, 0x01, 0x00, 0x05, 0x01]),
        (
            u32::MAX,
            &[0x01, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00, 0x05, 0x01],
        ),
    ];
    for (seq, golden) in cases {
        let f = Frame::new(seq, Message::Action(Action::Finish { success: true }));
        let mut buf = [0u8; FRAME_MAX];
        let got = f.encode(&mut buf).unwrap();
        assert_eq!(hex(got), hex(golden), "seq {seq}");
        assert_eq!(Frame::decode(golden).unwrap(), f);
    }
}

// ---------------------------------------------------------------------------------------------
// Whole frames, COBS, and decode errors. The named ones are quoted in PROTOCOL.md.

/// seq 1: `Action::Track(Track::Set { key: Field(0), value: Field(0), confidence: 1.0 })`.
const FRAME_TRACK_SET: &[u8] = &[
    0x01, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x80, 0x3f,
];
/// The same frame, COBS-framed.
const COBS_TRACK_SET: &[u8] = &[
    0x03, 0x01, 0x01, 0x02, 0x01, 0x02, 0x01, 0x02, 0x01, 0x01, 0x01, 0x03, 0x80, 0x3f, 0x00,
];
/// seq 300: `Err(IllegalTransition { from: Done, verb: Start })`.
const FRAME_ILLEGAL_SEQ300: &[u8] = &[0x01, 0xac, 0x02, 0x01, 0x01, 0x0d, 0x02, 0x00];
/// seq 7: an `Error` event from tool 2 with one field `code = Int(429)`.
const FRAME_EVENT: &[u8] = &[
    0x01, 0x07, 0x02, 0x01, 0x02, 0x01, 0x04, 0x63, 0x6f, 0x64, 0x65, 0x01, 0xda, 0x06,
];
/// The snapshot of [`tiny`].
#[rustfmt::skip]
const SNAPSHOT_TINY: &[u8] = &[
    0x45, 0x56, 0x48, 0x57, 0x02, 0x00, 0x42, 0x00, 0x00, 0x00, // magic, format, body length
    0x02, 0x02, 0x01,                                           // capacities
    0x01, 0x0a, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00,             // config
    0x05, 0x05, 0x00, 0x01, 0x00,                               // clock, spent, finished, last act
    0x04, 0x01, 0x04,                                           // harness streak, last verb
    0x01, 0x00, 0x00, 0x01, 0x02, 0x69, 0x64, 0x01, 0x0e,       // event
    0x01, 0x02, 0x69, 0x64, 0x01, 0x0e, 0x00, 0x00, 0x80, 0x3f, 0x01, 0x00, 0x02, 0x02, // facts
    0x01, 0x03, 0x01, 0x61, 0x01, 0x01, 0x00, 0x00, 0x04,       // steps
    0x01, 0x03, 0x04, 0x45, 0x34, 0x32, 0x39, 0x01, 0x00, 0x00, 0x00, 0x00, 0x01, 0x05, 0x00, // lessons
    0xac, 0x1a, 0x7b, 0x3c,                                     // CRC-32
];

/// The same workspace in snapshot format 1 (no harness streak, no last verb): still restored.
const SNAPSHOT_TINY_V1: &[u8] = &[
    0x45, 0x56, 0x48, 0x57, 0x01, 0x00, 0x3f, 0x00, 0x00,
    0x00, // magic, format 1, body length
    0x02, 0x02, 0x01, // capacities
    0x01, 0x0a, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, // config
    0x05, 0x05, 0x00, 0x01, 0x00, // clock, spent, finished, last act
    0x01, 0x00, 0x00, 0x01, 0x02, 0x69, 0x64, 0x01, 0x0e, // event
    0x01, 0x02, 0x69, 0x64, 0x01, 0x0e, 0x00, 0x00, 0x80, 0x3f, 0x01, 0x00, 0x02,
    0x02, // facts
    0x01, 0x03, 0x01, 0x61, 0x01, 0x01, 0x00, 0x00, 0x04, // steps
    0x01, 0x03, 0x04, 0x45, 0x34, 0x32, 0x39, 0x01, 0x00, 0x00, 0x00, 0x00, 0x01, 0x05,
    0x00, // lessons
    0xc3, 0xb8, 0x90, 0xdc, // CRC-32
];

/// Every named golden byte string, by the name PROTOCOL.md quotes it under.
const NAMED: &[(&str, &[u8])] = &[
    ("FRAME_TRACK_SET", FRAME_TRACK_SET),
    ("COBS_TRACK_SET", COBS_TRACK_SET),
    ("FRAME_ILLEGAL_SEQ300", FRAME_ILLEGAL_SEQ300),
    ("FRAME_EVENT", FRAME_EVENT),
    ("SNAPSHOT_TINY", SNAPSHOT_TINY),
    ("SNAPSHOT_TINY_V1", SNAPSHOT_TINY_V1),
];

#[test]
fn named_frames() {
    let set = Frame::new(
        1,
        Message::Action(Action::Track(Track::Set {
            key: KeyArg::Field(0),
            value: Arg::Field(0),
            confidence: 1.0,
        })),
    );
    let err = Frame::new(
        300,
        Message::Outcome(Err(ApplyError::IllegalTransition {
            from: Status::Done,
            verb: StepVerb::Start,
        })),
    );
    let ev = Frame::new(
        7,
        Message::Event(
            Event::new(EventKind::Error, 2)
                .with("code", ValueRef::Int(429))
                .unwrap(),
        ),
    );
    for (frame, golden) in [
        (&set, FRAME_TRACK_SET),
        (&err, FRAME_ILLEGAL_SEQ300),
        (&ev, FRAME_EVENT),
    ] {
        let mut buf = [0u8; FRAME_MAX];
        assert_eq!(hex(frame.encode(&mut buf).unwrap()), hex(golden));
        assert_eq!(&Frame::decode(golden).unwrap(), frame);
    }
    let mut buf = [0u8; COBS_FRAME_MAX];
    assert_eq!(hex(set.encode_cobs(&mut buf).unwrap()), hex(COBS_TRACK_SET));
    let mut inplace = COBS_TRACK_SET.to_vec();
    assert_eq!(Frame::decode_cobs(&mut inplace).unwrap(), set);
    // Decoding in place overwrote the front of the buffer with the plain frame.
    assert_eq!(&inplace[..FRAME_TRACK_SET.len()], FRAME_TRACK_SET);
}

#[test]
fn cobs_framing_edges() {
    let finish = Frame::new(1, Message::Action(Action::Finish { success: false }));
    let mut buf = [0u8; COBS_FRAME_MAX];
    let golden = [0x03, 0x01, 0x01, 0x02, 0x05, 0x01, 0x00];
    assert_eq!(finish.encode_cobs(&mut buf).unwrap(), &golden);
    // The sentinel may be left off; anything after the first 0x00 is ignored.
    let mut no_sentinel = golden[..golden.len() - 1].to_vec();
    assert_eq!(Frame::decode_cobs(&mut no_sentinel).unwrap(), finish);
    let mut with_tail = [&golden[..], &[0xaa, 0xbb, 0x00]].concat();
    assert_eq!(Frame::decode_cobs(&mut with_tail).unwrap(), finish);
    // Empty input is bad COBS; a lone sentinel is an empty frame.
    assert_eq!(Frame::decode_cobs(&mut []), Err(DecodeError::BadCobs));
    assert_eq!(Frame::decode_cobs(&mut [0x00]), Err(DecodeError::Empty));
    // A code byte that points past the end.
    assert_eq!(
        Frame::decode_cobs(&mut [0x05, 0x01, 0x00]),
        Err(DecodeError::BadCobs)
    );
}

#[test]
fn decode_errors() {
    use DecodeError::*;
    let cases: &[(&[u8], DecodeError)] = &[
        (&[], Empty),
        (&[0x02, 0x00, 0x00, 0x05, 0x01], UnsupportedVersion(2)),
        (&[0x00], UnsupportedVersion(0)),
        (&[0x01], Truncated),
        (&[0x01, 0x80], Truncated),
        (&[0x01, 0x00, 0x00], Truncated),
        (&[0x01, 0x00, 0x00, 0x05], Truncated),
        // seq: a fifth varint byte above 0x0f overflows u32; six bytes are too many.
        (
            &[0x01, 0xff, 0xff, 0xff, 0xff, 0x10, 0x00, 0x05, 0x01],
            Malformed,
        ),
        (&[0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], Malformed),
        // Message index 3, Action index 6.
        (&[0x01, 0x00, 0x03], Malformed),
        (&[0x01, 0x00, 0x00, 0x06], Malformed),
        // A bool of 2; an Option tag of 2.
        (&[0x01, 0x00, 0x00, 0x05, 0x02], Malformed),
        (&[0x01, 0x00, 0x00, 0x02, 0x01, 0x01, 0x06, 0x02], Malformed),
        // Invalid UTF-8 in a text literal: `Recall { query: Lit(Text("\xff")), k: 1 }`.
        (
            &[0x01, 0x00, 0x00, 0x03, 0x00, 0x03, 0x01, 0xff, 0x01],
            Malformed,
        ),
        // A u16 varint over 0xffff: `Track(Compress { keep })`.
        (&[0x01, 0x00, 0x00, 0x01, 0x04, 0xff, 0xff, 0x04], Malformed),
        (&[0x01, 0x00, 0x00, 0x05, 0x01, 0xaa], TrailingBytes(1)),
        (
            &[0x01, 0x00, 0x00, 0x05, 0x01, 0x00, 0x00],
            TrailingBytes(2),
        ),
    ];
    for &(bytes, want) in cases {
        assert_eq!(Frame::decode(bytes), Err(want), "{}", hex(bytes));
    }
    // Over-long keys, text, bytes, argument lists, event fields.
    let mut key17 = vec![0x01, 0x00, 0x00, 0x01, 0x03, 0x00, 17];
    key17.extend_from_slice(&[b'k'; 17]);
    let mut text33 = vec![0x01, 0x00, 0x00, 0x03, 0x00, 0x03, 33];
    text33.extend_from_slice(&[b't'; 33]);
    text33.push(0x01);
    let mut bytes33 = vec![0x01, 0x00, 0x00, 0x03, 0x00, 0x04, 33];
    bytes33.extend_from_slice(&[0xb0; 33]);
    bytes33.push(0x01);
    let mut args5 = vec![0x01, 0x00, 0x00, 0x00, 0x00, 0x05];
    args5.extend_from_slice(&[0x03; 5]);
    let mut fields9 = vec![0x01, 0x00, 0x02, 0x02, 0x00, 0x09];
    for _ in 0..9 {
        fields9.extend_from_slice(&[0x01, b'k', 0x00, 0x01]);
    }
    for bytes in [key17, text33, bytes33, args5, fields9] {
        assert_eq!(Frame::decode(&bytes), Err(Malformed), "{}", hex(&bytes));
    }
    // Just within the bounds, the same shapes decode.
    let mut key16 = vec![0x01, 0x00, 0x00, 0x01, 0x03, 0x00, 16];
    key16.extend_from_slice(&[b'k'; 16]);
    assert!(Frame::decode(&key16).is_ok());
}

#[test]
fn decoders_accept_non_minimal_varints() {
    // Encoders always write the shortest varint; decoders accept a longer one within the
    // type's maximum length (postcard's rule), so decode-then-encode can shorten a frame.
    let long = [0x01, 0x80, 0x00, 0x00, 0x05, 0x01];
    let f = Frame::decode(&long).unwrap();
    assert_eq!(f.seq, 0);
    let mut buf = [0u8; FRAME_MAX];
    assert_eq!(f.encode(&mut buf).unwrap(), &[0x01, 0x00, 0x00, 0x05, 0x01]);
}

#[test]
fn take_reads_frames_back_to_back() {
    let mut stream = FRAME_ILLEGAL_SEQ300.to_vec();
    stream.extend_from_slice(FRAME_EVENT);
    let (a, rest) = Frame::take(&stream).unwrap();
    assert_eq!(a.seq, 300);
    let (b, rest) = Frame::take(rest).unwrap();
    assert_eq!(b.seq, 7);
    assert!(rest.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Completeness: each enum has exactly the variants pinned above (index `count` is refused), so
// a new variant fails here until it is pinned and PROTOCOL.md lists it.

fn refuses_index<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> bool {
    postcard::from_bytes::<T>(bytes).is_err()
}

#[test]
fn no_unpinned_variants() {
    assert!(refuses_index::<Message<'_>>(&[3; 64]));
    assert!(refuses_index::<Result<Outcome, ApplyError>>(&[2; 64]));
    assert!(refuses_index::<Action<'_>>(&[6; 64]));
    assert!(refuses_index::<Arg<'_>>(&[4; 64]));
    assert!(refuses_index::<KeyArg<'_>>(&[3; 64]));
    assert!(refuses_index::<StepRef>(&[2; 64]));
    assert!(refuses_index::<Track<'_>>(&[5; 64]));
    assert!(refuses_index::<Commit<'_>>(&[2; 64]));
    assert!(refuses_index::<Note<'_>>(&[3; 64]));
    assert!(refuses_index::<StepVerb>(&[7; 64]));
    assert!(refuses_index::<Outcome>(&[9; 64]));
    assert!(refuses_index::<Change>(&[4; 64]));
    assert!(refuses_index::<Status>(&[6; 64]));
    assert!(refuses_index::<ApplyError>(&[20; 64]));
    assert!(refuses_index::<EventKind>(&[3; 64]));
    assert!(refuses_index::<Value>(&[5; 64]));
    assert!(refuses_index::<ValueRef<'_>>(&[5; 64]));
    assert!(refuses_index::<Provenance>(&[4; 64]));
}

// ---------------------------------------------------------------------------------------------
// Snapshots

/// A tiny workspace with one of everything: a fact, an active step, a lesson, an event.
fn tiny() -> InlineWorkspace<2, 2, 1> {
    let mut ws = InlineWorkspace::<2, 2, 1>::new(Config::new(1, 10)).unwrap();
    let act = Action::Act {
        tool: 0,
        args: args([]),
    };
    ws.apply(&act).unwrap();
    ws.observe(
        &Event::new(EventKind::Result, 0)
            .with("id", ValueRef::Int(7))
            .unwrap(),
    );
    for a in [
        Action::Track(Track::Set {
            key: KeyArg::Field(0),
            value: Arg::Field(0),
            confidence: 1.0,
        }),
        Action::Commit(Commit::Plan {
            label: Arg::Lit(text("a")),
        }),
        Action::Commit(Commit::Step {
            step: StepRef::Index(0),
            verb: StepVerb::Start,
            value: None,
        }),
        Action::Note(Note::Add {
            trigger: Arg::Lit(text("E429")),
            remedy: Arg::LastAct,
        }),
    ] {
        ws.apply(&a).unwrap();
    }
    ws
}

fn snap<S: Storage>(ws: &Workspace<S>) -> Vec<u8> {
    let mut buf = vec![0u8; snapshot::max_len(ws.capacities())];
    ws.snapshot(&mut buf).unwrap().to_vec()
}

#[test]
fn snapshot_of_a_tiny_workspace() {
    let ws = tiny();
    assert_eq!(hex(&snap(&ws)), hex(SNAPSHOT_TINY));
    assert_eq!(
        crc32fast::hash(&SNAPSHOT_TINY[..SNAPSHOT_TINY.len() - 4]).to_le_bytes(),
        SNAPSHOT_TINY[SNAPSHOT_TINY.len() - 4..]
    );
    let mut fresh = InlineWorkspace::<2, 2, 1>::new(Config::new(1, 10)).unwrap();
    fresh.restore(SNAPSHOT_TINY).unwrap();
    assert_eq!(hex(&snap(&fresh)), hex(SNAPSHOT_TINY));
    assert_eq!(fresh.clock(), 5);
    assert_eq!(fresh.belief().get("id").unwrap().1.value, Value::Int(7));
    assert_eq!(fresh.progress().steps()[0].status, Status::Active);
    assert_eq!(fresh.experience().lessons()[0].remedy, Value::Int(0));
    assert_eq!(fresh.last_act(), Some(0));
    assert_eq!(fresh.harness_streak(), 4);
    assert_eq!(fresh.last_verb(), Some(Verb::Note));
}

#[test]
fn a_format_1_snapshot_restores_as_a_task_just_begun() {
    assert_eq!(
        crc32fast::hash(&SNAPSHOT_TINY_V1[..SNAPSHOT_TINY_V1.len() - 4]).to_le_bytes(),
        SNAPSHOT_TINY_V1[SNAPSHOT_TINY_V1.len() - 4..]
    );
    let mut fresh = InlineWorkspace::<2, 2, 1>::new(Config::new(1, 10)).unwrap();
    fresh.restore(SNAPSHOT_TINY_V1).unwrap();
    // Everything format 1 holds is restored; what it lacks reads as a task's start.
    assert_eq!(fresh.harness_streak(), 0);
    assert_eq!(fresh.last_verb(), None);
    let mut want = tiny();
    want.restore(SNAPSHOT_TINY).unwrap();
    let mut v1 = snap(&fresh);
    let mut v2 = snap(&want);
    // Both written in format 2, they differ only in item 3b (and so in the length and CRC).
    v1.truncate(v1.len() - 4);
    v2.truncate(v2.len() - 4);
    assert_eq!(v2.len(), v1.len() + 1);
    assert_eq!(v1[26..28], [0x00, 0x00]);
    assert_eq!(v2[26..29], [0x04, 0x01, 0x04]);
    assert_eq!(v1[10..26], v2[10..26]);
    assert_eq!(v1[28..], v2[29..]);
}

/// A copy of the tiny snapshot with its body replaced, length and CRC fixed up.
fn reframed(body: &[u8]) -> Vec<u8> {
    let mut out = SNAPSHOT_TINY[..6].to_vec();
    out.extend_from_slice(&u32::try_from(body.len()).unwrap().to_le_bytes());
    out.extend_from_slice(body);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

#[test]
fn snapshot_errors_leave_the_workspace_unchanged() {
    use SnapshotError::*;
    let body = &SNAPSHOT_TINY[10..SNAPSHOT_TINY.len() - 4];
    let with = |at: usize, b: u8| {
        let mut v = SNAPSHOT_TINY.to_vec();
        v[at] = b;
        v
    };
    let mut bad_conf = body.to_vec();
    // The fact's confidence: 1.0 -> 2.0 (0x3f800000 -> 0x40000000).
    let at = 34;
    assert_eq!(bad_conf[at..at + 4], [0x00, 0x00, 0x80, 0x3f]);
    bad_conf[at + 2] = 0x00;
    bad_conf[at + 3] = 0x40;
    let mut extra = body.to_vec();
    extra.push(0x00);
    let mut last_act = body.to_vec();
    // last_act = Some(0) -> Some(1), but the task has one tool.
    assert_eq!(last_act[14..16], [0x01, 0x00]);
    last_act[15] = 0x01;
    let mut last_verb = body.to_vec();
    // last verb = Some(Note) -> Some(6), which names no verb.
    assert_eq!(last_verb[16..19], [0x04, 0x01, 0x04]);
    last_verb[18] = 0x06;
    let cases: Vec<(Vec<u8>, SnapshotError)> = vec![
        (vec![], Truncated),
        (b"EVH".to_vec(), Truncated),
        (b"EVHX".to_vec(), BadMagic),
        (with(0, b'X'), BadMagic),
        (SNAPSHOT_TINY[..13].to_vec(), Truncated),
        (SNAPSHOT_TINY[..SNAPSHOT_TINY.len() - 1].to_vec(), Truncated),
        ([SNAPSHOT_TINY, &[0x00]].concat(), TrailingBytes),
        (with(4, 0x03), UnsupportedVersion(3)),
        (with(4, 0x00), UnsupportedVersion(0)),
        (with(20, 0x06), Checksum),
        (with(SNAPSHOT_TINY.len() - 1, 0x00), Checksum),
        (reframed(&bad_conf), Invalid),
        (reframed(&last_act), Invalid),
        (reframed(&last_verb), Invalid),
        (reframed(&extra), Malformed),
        (reframed(&body[..body.len() - 1]), Malformed),
    ];
    let mut ws = InlineWorkspace::<2, 2, 1>::new(Config::new(1, 10)).unwrap();
    let before = snap(&ws);
    for (bytes, want) in cases {
        assert_eq!(ws.restore(&bytes), Err(want), "{}", hex(&bytes));
        assert_eq!(snap(&ws), before);
    }
    let mut other = InlineWorkspace::<3, 2, 1>::new(Config::new(1, 10)).unwrap();
    assert_eq!(other.restore(SNAPSHOT_TINY), Err(CapacityMismatch));
    let mut tools = InlineWorkspace::<2, 2, 1>::new(Config::new(2, 10)).unwrap();
    assert_eq!(tools.restore(SNAPSHOT_TINY), Err(CapacityMismatch));
}

#[test]
fn snapshot_duplicate_keys_are_invalid() {
    let mut ws = tiny();
    ws.apply(&Action::Track(Track::Set {
        key: key("jd"),
        value: Arg::Lit(ValueRef::Int(7)),
        confidence: 1.0,
    }))
    .unwrap();
    let mut bytes = snap(&ws);
    let body_end = bytes.len() - 4;
    let body = &mut bytes[10..body_end];
    let at = body
        .windows(3)
        .position(|w| w == [0x02, b'j', b'd'])
        .unwrap();
    body[at + 1] = b'i';
    let body = body.to_vec();
    let mut fresh = InlineWorkspace::<2, 2, 1>::new(Config::new(1, 10)).unwrap();
    assert_eq!(fresh.restore(&reframed(&body)), Err(SnapshotError::Invalid));
}

// ---------------------------------------------------------------------------------------------
// PROTOCOL.md says what the code does: its tables are parsed and compared with the code.

const PROTOCOL: &str = include_str!("../PROTOCOL.md");

/// The text after the one `<!-- marker -->` comment.
fn after(marker: &str) -> &'static str {
    let tag = format!("<!-- {marker} -->");
    assert_eq!(
        PROTOCOL.matches(&tag).count(),
        1,
        "PROTOCOL.md needs one {tag}"
    );
    &PROTOCOL[PROTOCOL.find(&tag).unwrap() + tag.len()..]
}

/// The body rows of the table right after a marker: cells trimmed, backticks dropped.
fn table(marker: &str) -> Vec<Vec<String>> {
    after(marker)
        .lines()
        .skip_while(|l| l.trim().is_empty())
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().replace('`', ""))
                .collect()
        })
        .collect()
}

/// The contents of the fenced text block right after a marker.
fn block(marker: &str) -> &'static str {
    let rest = after(marker).trim_start();
    let rest = rest.strip_prefix("```text\n").expect("a ```text block");
    &rest[..rest.find("```").unwrap()]
}

/// The names of every `<!-- kind: NAME -->` marker.
fn markers(kind: &str) -> Vec<String> {
    let open = format!("<!-- {kind}: ");
    PROTOCOL
        .match_indices(&open)
        .map(|(at, _)| {
            let rest = &PROTOCOL[at + open.len()..];
            rest[..rest.find(" -->").unwrap()].to_string()
        })
        .collect()
}

fn variant_name<T: Debug>(v: &T) -> String {
    format!("{v:?}")
        .chars()
        .take_while(|c| c.is_alphanumeric())
        .collect()
}

/// The top-level keys of a JSON object, in order (empty for anything but an object).
fn json_keys(json: &str) -> Vec<String> {
    let mut keys = Vec::new();
    if !json.starts_with('{') {
        return keys;
    }
    let (mut depth, mut in_str, mut escaped, mut want_key) = (0, false, false, false);
    let mut key: Option<String> = None;
    for c in json.chars() {
        if in_str {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
                if let Some(k) = key.take() {
                    keys.push(k);
                }
                continue;
            }
            if let Some(k) = key.as_mut() {
                k.push(c);
            }
            continue;
        }
        match c {
            '"' => {
                in_str = true;
                if depth == 1 && want_key {
                    key = Some(String::new());
                    want_key = false;
                }
            }
            '{' | '[' => {
                depth += 1;
                want_key = depth == 1;
            }
            '}' | ']' => depth -= 1,
            ',' => want_key = depth == 1,
            _ => {}
        }
    }
    keys
}

/// Checks an enum table: one row per variant, in index order, with the variant's name and, where
/// the table names fields, the field names in order.
fn check_enum<T: Serialize + Debug>(checked: &mut Vec<String>, name: &str, variants: &[T]) {
    checked.push(name.to_string());
    let rows = table(&format!("enum: {name}"));
    assert_eq!(
        rows.len(),
        variants.len(),
        "PROTOCOL.md rows of enum {name}"
    );
    for (row, v) in rows.iter().zip(variants) {
        let index: u8 = row[0].parse().unwrap();
        assert_eq!(encode(v)[0], index, "{name}::{v:?}");
        assert_eq!(row[1], variant_name(v), "{name} variant {index}");
        let documented: Vec<&str> = row[2]
            .split(';')
            .filter_map(|f| f.split_once(':'))
            .map(|(n, _)| n.trim())
            .collect();
        if !documented.is_empty() {
            let json = serde_json::to_string(v).unwrap();
            let inner = &json[json.find(':').unwrap() + 1..json.len() - 1];
            assert_eq!(documented, json_keys(inner), "fields of {name}::{}", row[1]);
        }
    }
}

fn check_struct<T: Serialize>(name: &str, sample: &T) {
    let rows = table(&format!("struct: {name}"));
    let documented: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    let json = serde_json::to_string(sample).unwrap();
    assert_eq!(documented, json_keys(&json), "fields of struct {name}");
}

fn outcomes() -> Vec<Outcome> {
    vec![
        Outcome::Call(ToolCall {
            tool: 0,
            args: heapless::Vec::new(),
        }),
        Outcome::Tracked {
            slot: 0,
            change: Change::Created,
        },
        Outcome::Compressed {
            removed: heapless::Vec::new(),
            over: 0,
        },
        Outcome::Committed {
            step: 0,
            status: Status::Pending,
        },
        Outcome::Recalled(heapless::Vec::new()),
        Outcome::Noted {
            slot: 0,
            merged: false,
        },
        Outcome::Rated { slot: 0 },
        Outcome::Consolidated {
            removed: heapless::Vec::new(),
            over: 0,
        },
        Outcome::Finished { success: true },
    ]
}

#[test]
#[cfg_attr(miri, ignore = "text processing of PROTOCOL.md, slow under Miri")]
fn protocol_md_lists_every_enum_and_struct() {
    let finish = Action::Finish { success: true };
    let mut checked = Vec::new();
    check_enum(
        &mut checked,
        "Message",
        &[
            Message::Action(finish.clone()),
            Message::Outcome(Ok(Outcome::Rated { slot: 0 })),
            Message::Event(Event::new(EventKind::Result, 0)),
        ],
    );
    check_enum::<Result<Outcome, ApplyError>>(
        &mut checked,
        "Result",
        &[Ok(Outcome::Rated { slot: 0 }), Err(ApplyError::Finished)],
    );
    check_enum(
        &mut checked,
        "Action",
        &[
            Action::Act {
                tool: 0,
                args: args([]),
            },
            Action::Track(Track::Compress { keep: 0 }),
            Action::Commit(Commit::Plan {
                label: Arg::LastAct,
            }),
            Action::Recall {
                query: Arg::LastAct,
                k: 1,
            },
            Action::Note(Note::Consolidate { keep: 0 }),
            finish.clone(),
        ],
    );
    check_enum(
        &mut checked,
        "Arg",
        &[
            Arg::Lit(ValueRef::Int(0)),
            Arg::Field(0),
            Arg::Fact(0),
            Arg::LastAct,
        ],
    );
    check_enum(
        &mut checked,
        "KeyArg",
        &[key("k"), KeyArg::Field(0), KeyArg::Fact(0)],
    );
    check_enum(
        &mut checked,
        "StepRef",
        &[StepRef::Index(0), StepRef::Active],
    );
    let (k, v) = (KeyArg::Field(0), Arg::Field(0));
    check_enum(
        &mut checked,
        "Track",
        &[
            Track::Set {
                key: k,
                value: v,
                confidence: 1.0,
            },
            Track::Revise {
                key: k,
                value: v,
                confidence: 1.0,
            },
            Track::Confirm { key: k },
            Track::Retract { key: k },
            Track::Compress { keep: 0 },
        ],
    );
    check_enum(
        &mut checked,
        "Commit",
        &[
            Commit::Plan {
                label: Arg::LastAct,
            },
            Commit::Step {
                step: StepRef::Active,
                verb: StepVerb::Start,
                value: None,
            },
        ],
    );
    check_enum(&mut checked, "StepVerb", &StepVerb::ALL);
    check_enum(
        &mut checked,
        "Note",
        &[
            Note::Add {
                trigger: Arg::LastAct,
                remedy: Arg::LastAct,
            },
            Note::Rate {
                lesson: 0,
                helpful: true,
            },
            Note::Consolidate { keep: 0 },
        ],
    );
    check_enum(&mut checked, "Outcome", &outcomes());
    check_enum(
        &mut checked,
        "Change",
        &[
            Change::Created,
            Change::Revised,
            Change::Confirmed,
            Change::Retracted,
        ],
    );
    check_enum(&mut checked, "Status", &STATUSES);
    check_enum(&mut checked, "ApplyError", &apply_errors());
    check_enum(
        &mut checked,
        "EventKind",
        &[EventKind::Result, EventKind::Error, EventKind::Notice],
    );
    check_enum(
        &mut checked,
        "Value",
        &[
            Value::Bool(true),
            Value::Int(0),
            Value::Float(0.0),
            owned(""),
            Value::bytes(&[]).unwrap(),
        ],
    );
    check_enum(
        &mut checked,
        "Provenance",
        &[
            Provenance::Literal,
            Provenance::Event,
            Provenance::Belief,
            Provenance::Action,
        ],
    );
    let mut documented = markers("enum");
    documented.sort();
    checked.sort();
    assert_eq!(documented, checked, "every enum table is checked");

    check_struct(
        "ToolCall",
        &ToolCall {
            tool: 0,
            args: heapless::Vec::new(),
        },
    );
    check_struct(
        "Recalled",
        &Recalled {
            slot: 0,
            score: 0.0,
        },
    );
    check_struct("Event", &Event::new(EventKind::Result, 0));
    check_struct(
        "Field",
        &Field {
            key: Key::new("k").unwrap(),
            value: ValueRef::Int(0),
        },
    );
    let config = Config::new(1, 1);
    check_struct("Config", &config);
    check_struct("Costs", &config.costs);
    check_struct("Fact", &Fact::default());
    check_struct("Step", &Step::default());
    check_struct("Lesson", &Lesson::default());
    let mut structs = markers("struct");
    structs.sort();
    assert_eq!(
        structs,
        [
            "Config", "Costs", "Event", "Fact", "Field", "Lesson", "Recalled", "Step", "ToolCall"
        ]
    );
}

const STATUSES: [Status; 6] = [
    Status::Pending,
    Status::Active,
    Status::Done,
    Status::Failed,
    Status::Blocked,
    Status::Skipped,
];

#[test]
#[cfg_attr(miri, ignore = "text processing of PROTOCOL.md, slow under Miri")]
fn protocol_md_constants() {
    let rows = table("constants");
    let names: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(
        names,
        [
            "KEY_MAX",
            "TEXT_MAX",
            "FIELDS_MAX",
            "ARGS_MAX",
            "RECALL_MAX",
            "REMOVE_MAX",
            "CAPACITY_MAX",
            "TOOLS_MAX",
            "VERSION",
            "FRAME_MAX",
            "COBS_FRAME_MAX",
            "FORMAT",
            "LAYOUT_VERSION",
        ]
    );
    for row in &rows {
        let code = match row[0].as_str() {
            "KEY_MAX" => KEY_MAX,
            "TEXT_MAX" => TEXT_MAX,
            "FIELDS_MAX" => FIELDS_MAX,
            "ARGS_MAX" => ARGS_MAX,
            "RECALL_MAX" => RECALL_MAX,
            "REMOVE_MAX" => REMOVE_MAX,
            "CAPACITY_MAX" => CAPACITY_MAX,
            "TOOLS_MAX" => TOOLS_MAX,
            "VERSION" => usize::from(VERSION),
            "FRAME_MAX" => FRAME_MAX,
            "COBS_FRAME_MAX" => COBS_FRAME_MAX,
            "FORMAT" => usize::from(snapshot::FORMAT),
            "LAYOUT_VERSION" => usize::try_from(obs::LAYOUT_VERSION).unwrap(),
            other => panic!("unknown constant {other}"),
        };
        assert_eq!(row[1], code.to_string(), "{}", row[0]);
    }
    assert_eq!(obs::ABI, "structured-v1");
    assert!(PROTOCOL.contains(&format!(
        "ABI name `{}`, `LAYOUT_VERSION` {}",
        obs::ABI,
        obs::LAYOUT_VERSION
    )));
    assert_eq!(
        (Version::V2.abi(), Version::V2.number()),
        ("structured-v2", 2)
    );
    assert!(PROTOCOL.contains(&format!(
        "ABI name `{}`, layout version {}",
        Version::V2.abi(),
        Version::V2.number()
    )));
}

const LONG_KEY: &str = "kkkkkkkkkkkkkkkk";
const LONG_TEXT: &str = "tttttttttttttttttttttttttttttttt";

fn worst_event() -> Event<'static> {
    let mut e = Event::new(EventKind::Notice, u16::MAX);
    while e.push(Key::new(LONG_KEY).unwrap(), text(LONG_TEXT)).is_ok() {}
    e
}

#[test]
#[cfg_attr(miri, ignore = "text processing of PROTOCOL.md, slow under Miri")]
fn protocol_md_size_bounds_are_met_exactly() {
    let arg = Arg::Lit(text(LONG_TEXT));
    let key_arg = key(LONG_KEY);
    let track = Track::Set {
        key: key_arg,
        value: arg,
        confidence: 1.0,
    };
    let commit = Commit::Step {
        step: StepRef::Index(u16::MAX),
        verb: StepVerb::Fail,
        value: Some(arg),
    };
    let note = Note::Add {
        trigger: arg,
        remedy: arg,
    };
    let act = Action::Act {
        tool: u16::MAX,
        args: args([arg; ARGS_MAX]),
    };
    let mut values = heapless::Vec::<Value, ARGS_MAX>::new();
    while values.push(owned(LONG_TEXT)).is_ok() {}
    let call = ToolCall {
        tool: u16::MAX,
        args: values,
    };
    let mut triggers = heapless::Vec::new();
    while triggers.push(owned(LONG_TEXT)).is_ok() {}
    let outcome = Outcome::Consolidated {
        removed: triggers,
        over: u16::MAX,
    };
    let err = ApplyError::IllegalTransition {
        from: Status::Done,
        verb: StepVerb::Start,
    };
    let field = Field {
        key: Key::new(LONG_KEY).unwrap(),
        value: text(LONG_TEXT),
    };
    let frame = Frame::new(u32::MAX, Message::Event(worst_event()));
    let mut buf = [0u8; COBS_FRAME_MAX];
    let frame_len = frame.encode(&mut buf).unwrap().len();
    let cobs_len = frame.encode_cobs(&mut buf).unwrap().len();
    let rows = table("bounds");
    for row in &rows {
        let len = match row[0].as_str() {
            "Value" => encode(&owned(LONG_TEXT)).len(),
            "Key" => encode(&Key::new(LONG_KEY).unwrap()).len(),
            "Arg" => encode(&arg).len(),
            "KeyArg" => encode(&key_arg).len(),
            "Track" => encode(&track).len(),
            "Commit" => encode(&commit).len(),
            "Note" => encode(&note).len(),
            "Action" => encode(&act).len(),
            "ToolCall" => encode(&call).len(),
            "Outcome" => encode(&outcome).len(),
            "ApplyError" => encode(&err).len(),
            "Field" => encode(&field).len(),
            "Event" => encode(&worst_event()).len(),
            "Message" => encode(&Message::Event(worst_event())).len(),
            "frame" => frame_len,
            "COBS frame" => cobs_len,
            other => panic!("unknown bound {other}"),
        };
        assert_eq!(row[1], len.to_string(), "bound of {}", row[0]);
    }
    assert_eq!(rows.len(), 16);
    assert_eq!(frame_len, FRAME_MAX);
    assert_eq!(cobs_len, COBS_FRAME_MAX);
}

#[test]
#[cfg_attr(miri, ignore = "text processing of PROTOCOL.md, slow under Miri")]
fn protocol_md_transition_table() {
    let rows = table("transitions");
    assert_eq!(rows.len(), StepVerb::ALL.len());
    let name = |s: Status| format!("{s:?}").to_lowercase();
    for (row, verb) in rows.iter().zip(StepVerb::ALL) {
        assert_eq!(row[0], format!("{verb:?}").to_lowercase());
        for (cell, from) in row[1..].iter().zip(STATUSES) {
            let want = from.after(verb).map_or("—".to_string(), name);
            assert_eq!(*cell, want, "{verb:?} from {from:?}");
        }
    }
}

fn width_cell(w: Width) -> String {
    match w {
        Width::Fixed(n) => n.to_string(),
        Width::Tools => "T".to_string(),
    }
}

#[test]
#[cfg_attr(miri, ignore = "text processing of PROTOCOL.md, slow under Miri")]
fn protocol_md_feature_tables() {
    for (name, features) in [
        ("GLOBAL", obs::GLOBAL),
        ("EVENT", obs::EVENT),
        ("FIELD", obs::FIELD),
        ("FACT", obs::FACT),
        ("STEP", obs::STEP),
        ("LESSON", obs::LESSON),
        ("HARNESS", obs::HARNESS),
    ] {
        let rows = table(&format!("features: {name}"));
        assert_eq!(rows.len(), features.len(), "features of {name}");
        let mut offset = 0;
        for (row, f) in rows.iter().zip(features) {
            assert_eq!(row[0], offset.to_string(), "{name}.{}", f.name);
            assert_eq!(row[1], f.name, "{name}");
            assert_eq!(row[2], width_cell(f.width), "{name}.{}", f.name);
            // Offsets are plain numbers because only a row's last feature is tool-wide.
            offset += match f.width {
                Width::Fixed(n) => n,
                Width::Tools => usize::MAX / 2,
            };
        }
    }
    let names: Vec<String> = table("segments")
        .into_iter()
        .map(|r| r[0].clone())
        .collect();
    let layout = Layout::with_version(example_caps(), Version::V2);
    let code: Vec<&str> = layout.used_segments().map(|s| s.name).collect();
    assert_eq!(names, code);
    // structured-v1 is the same segments but the last.
    let v1: Vec<&str> = Layout::new(example_caps())
        .used_segments()
        .map(|s| s.name)
        .collect();
    assert_eq!(v1[..], code[..code.len() - 1]);
}

fn example_caps() -> Capacities {
    Capacities {
        facts: 16,
        steps: 8,
        lessons: 4,
        tools: 3,
    }
}

#[test]
#[cfg_attr(miri, ignore = "text processing of PROTOCOL.md, slow under Miri")]
fn protocol_md_size_formulas() {
    // The formulas of PROTOCOL.md §7, §8 and §9, for a spread of capacities.
    for (f, s, l, t) in [
        (1, 1, 1, 1),
        (16, 8, 4, 3),
        (5, 3, 2, 7),
        (1024, 1024, 1024, 64),
    ] {
        let caps = Capacities {
            facts: f,
            steps: s,
            lessons: l,
            tools: t,
        };
        let (f, s, l, t) = (
            usize::from(f),
            usize::from(s),
            usize::from(l),
            usize::from(t),
        );
        let e = FIELDS_MAX;
        let layout = Layout::new(caps);
        assert_eq!(
            layout.obs_len(),
            100 + 2 * t + 17 * f + 13 * s + (10 + t) * l
        );
        assert_eq!(
            layout.actions(),
            4 + t * (1 + f + e) + 3 * f + 6 * s + 2 * l + 5 * e
        );
        assert_eq!(layout.actions(), 44 + t * (9 + f) + 3 * f + 6 * s + 2 * l);
        assert_eq!(snapshot::max_len(caps), 493 + 69 * f + 113 * s + 86 * l);
        let v2 = Layout::with_version(caps, Version::V2);
        assert_eq!(v2.obs_len(), 115 + 2 * t + 17 * f + 13 * s + (10 + t) * l);
        assert_eq!(v2.actions(), layout.actions());
        assert_eq!(v2.segments()[..6], layout.segments()[..6]);
        let seg = v2.segments();
        let spec = [
            (1, 8 + t, 0),
            (1, 4 + t, 8 + t),
            (e, 11, 12 + 2 * t),
            (f, 17, 100 + 2 * t),
            (s, 13, 100 + 2 * t + 17 * f),
            (l, 10 + t, 100 + 2 * t + 17 * f + 13 * s),
            (1, 15, 100 + 2 * t + 17 * f + 13 * s + (10 + t) * l),
        ];
        for (sg, (rows, width, offset)) in seg.iter().zip(spec) {
            assert_eq!(
                (sg.rows, sg.width, sg.offset),
                (rows, width, offset),
                "{}",
                sg.name
            );
        }
    }
}

/// The state of PROTOCOL.md §8.3.
fn example_ws() -> InlineWorkspace<16, 8, 4> {
    let mut ws = InlineWorkspace::<16, 8, 4>::new(Config::new(3, 100)).unwrap();
    ws.observe(
        &Event::new(EventKind::Result, 0)
            .with("cursor", ValueRef::Int(42))
            .unwrap(),
    );
    for a in [
        Action::Track(Track::Set {
            key: KeyArg::Field(0),
            value: Arg::Field(0),
            confidence: 1.0,
        }),
        Action::Commit(Commit::Plan {
            label: Arg::Lit(text("load")),
        }),
        Action::Commit(Commit::Step {
            step: StepRef::Index(0),
            verb: StepVerb::Start,
            value: None,
        }),
        Action::Act {
            tool: 1,
            args: args([]),
        },
    ] {
        ws.apply(&a).unwrap();
    }
    ws.observe(
        &Event::new(EventKind::Error, 1)
            .with("code", ValueRef::Int(429))
            .unwrap()
            .with("cursor", ValueRef::Int(43))
            .unwrap(),
    );
    ws.apply(&Action::Note(Note::Add {
        trigger: Arg::Field(0),
        remedy: Arg::LastAct,
    }))
    .unwrap();
    ws
}

/// Names every float of an observation as PROTOCOL.md §8.3 does.
fn feature_names(segments: &[Segment], tools: usize) -> Vec<String> {
    let mut names = Vec::new();
    for s in segments {
        for r in 0..s.rows {
            let row = if s.rows == 1 {
                s.name.to_string()
            } else {
                format!("{}[{r}]", s.name)
            };
            for f in s.features {
                let w = match f.width {
                    Width::Fixed(n) => n,
                    Width::Tools => tools,
                };
                for k in 0..w {
                    names.push(if w == 1 {
                        format!("{row}.{}", f.name)
                    } else {
                        format!("{row}.{}[{k}]", f.name)
                    });
                }
            }
        }
    }
    names
}

#[test]
#[cfg_attr(miri, ignore = "text processing of PROTOCOL.md, slow under Miri")]
fn protocol_md_worked_example() {
    let caps = example_caps();
    let layout = Layout::with_version(caps, Version::V2);
    for row in table("example: sizes") {
        let code = match row[0].as_str() {
            "obs_len" => Layout::new(caps).obs_len(),
            "obs_len (structured-v2)" => layout.obs_len(),
            "actions" => layout.actions(),
            "snapshot max_len" => snapshot::max_len(caps),
            other => panic!("unknown quantity {other}"),
        };
        assert_eq!(row[1], code.to_string(), "{}", row[0]);
    }
    let seg = layout.segments();
    let rows = table("example: segments");
    assert_eq!(rows.len(), seg.len());
    assert_eq!(seg.len(), Version::V2.segments());
    for (row, s) in rows.iter().zip(&seg) {
        assert_eq!(
            row[..],
            [
                s.name.to_string(),
                s.offset.to_string(),
                s.rows.to_string(),
                s.width.to_string()
            ]
        );
    }

    let ws = example_ws();
    assert_eq!(ws.capacities(), caps);
    let mut obs = vec![0f32; layout.obs_len()];
    layout.encode(&ws, &mut obs).unwrap();
    // structured-v1's observation is structured-v2's first floats.
    let v1 = Layout::new(caps);
    let mut obs1 = vec![0f32; v1.obs_len()];
    v1.encode(&ws, &mut obs1).unwrap();
    assert_eq!(obs1[..], obs[..v1.obs_len()]);
    let names = feature_names(&seg, usize::from(caps.tools));
    let code: Vec<(usize, &str, f32)> = obs
        .iter()
        .enumerate()
        .filter(|(_, x)| **x != 0.0)
        .map(|(i, &x)| (i, names[i].as_str(), x))
        .collect();
    let rows = table("example: observation");
    assert_eq!(rows.len(), code.len(), "nonzero features of the example");
    for (row, (i, name, x)) in rows.iter().zip(code) {
        assert_eq!(row[0], i.to_string());
        assert_eq!(row[1], name, "index {i}");
        let md: f32 = row[2].parse().unwrap();
        assert_eq!(md.to_bits(), x.to_bits(), "{name}: {x:?}");
    }

    let mut mask = vec![0u8; layout.actions()];
    layout.mask(&ws, &mut mask).unwrap();
    let legal: Vec<String> = (0..mask.len())
        .filter(|&i| mask[i] == 1)
        .map(|i| i.to_string())
        .collect();
    assert_eq!(block("example: legal").trim(), legal.join(" "));
    assert!(PROTOCOL.contains(&format!("Its mask has {} legal templates", legal.len())));
}

/// The first template of each block, in table order, with PROTOCOL.md's block names.
const BLOCKS: [(&str, Template); 14] = [
    ("finish", Template::Finish { success: true }),
    ("act", Template::Act { tool: 0, arg: None }),
    ("track", Template::Track { field: 0 }),
    ("confirm", Template::Confirm { fact: 0 }),
    ("retract", Template::Retract { fact: 0 }),
    ("compress", Template::Compress),
    ("plan", Template::Plan { field: 0 }),
    (
        "step",
        Template::Step {
            step: 0,
            verb: StepVerb::Start,
        },
    ),
    ("cursor", Template::Cursor { field: 0 }),
    ("recall", Template::Recall { field: 0 }),
    ("note_fact", Template::NoteFact { fact: 0 }),
    ("note_field", Template::NoteField { field: 0 }),
    (
        "rate",
        Template::Rate {
            lesson: 0,
            helpful: true,
        },
    ),
    ("consolidate", Template::Consolidate),
];

#[test]
#[cfg_attr(miri, ignore = "text processing of PROTOCOL.md, slow under Miri")]
fn protocol_md_template_blocks() {
    let names: Vec<String> = table("templates")
        .into_iter()
        .map(|r| r[0].clone())
        .collect();
    assert_eq!(names, BLOCKS.map(|b| b.0));
    let layout = Layout::new(example_caps());
    let firsts: Vec<usize> = BLOCKS.iter().map(|b| layout.index(b.1).unwrap()).collect();
    let rows = table("example: templates");
    assert_eq!(rows.len(), BLOCKS.len());
    for (k, row) in rows.iter().enumerate() {
        let next = firsts.get(k + 1).copied().unwrap_or(layout.actions());
        assert_eq!(
            row[..],
            [
                BLOCKS[k].0.to_string(),
                firsts[k].to_string(),
                (next - firsts[k]).to_string()
            ]
        );
    }
}

#[test]
#[cfg_attr(miri, ignore = "text processing of PROTOCOL.md, slow under Miri")]
fn protocol_md_hex_examples() {
    let mut names = markers("golden");
    names.sort();
    let mut known: Vec<&str> = NAMED.iter().map(|n| n.0).collect();
    known.sort_unstable();
    assert_eq!(names, known);
    for (name, bytes) in NAMED {
        let md: Vec<u8> = block(&format!("golden: {name}"))
            .split_whitespace()
            .map(|b| u8::from_str_radix(b, 16).unwrap())
            .collect();
        assert_eq!(hex(&md), hex(bytes), "{name}");
    }
}

#[test]
#[cfg_attr(miri, ignore = "text processing of PROTOCOL.md, slow under Miri")]
fn protocol_md_check_values() {
    // CRC-32/IEEE and FNV-1a check values quoted in PROTOCOL.md.
    assert_eq!(crc32fast::hash(b"123456789"), 0xCBF4_3926);
    assert_eq!(fnv(b""), 0x811C_9DC5);
    assert_eq!(fnv(b"a"), 0xE40C_292C);
}

// ---------------------------------------------------------------------------------------------
// A second implementation of PROTOCOL.md §8 and §9, written from the document, must agree with
// the code float for float and template for template.

fn fnv(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811C_9DC5, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

fn value_hash(v: &Value) -> u32 {
    let mut bytes = vec![encode(v)[0]];
    match v {
        Value::Bool(b) => bytes.push(u8::from(*b)),
        Value::Int(x) => bytes.extend_from_slice(&x.to_le_bytes()),
        Value::Float(x) => bytes.extend_from_slice(&x.to_bits().to_le_bytes()),
        Value::Text(t) => bytes.extend_from_slice(t.as_bytes()),
        Value::Bytes(b) => bytes.extend_from_slice(b),
    }
    fnv(&bytes)
}

#[expect(
    clippy::cast_possible_truncation,
    reason = "PROTOCOL.md's rounding from f64 to f32"
)]
fn to_f32(x: f64) -> f32 {
    x as f32
}

fn hash01(h: u32) -> f32 {
    to_f32(f64::from(h >> 8)) / 16_777_216.0
}

fn ratio(a: usize, b: usize) -> f32 {
    if b == 0 {
        0.0
    } else {
        to_f32(a as f64 / b as f64)
    }
}

fn squash(x: u16, k: u16) -> f32 {
    let x = f64::from(x);
    to_f32(x / (x + f64::from(k)))
}

fn scalar(v: &Value) -> f32 {
    match v {
        Value::Bool(b) => f32::from(u8::from(*b)),
        Value::Int(x) => {
            let u = x.unsigned_abs() + 1;
            let b = u.ilog2();
            let base = 1u64 << b;
            let frac = (u - base) as f64 / base as f64;
            let m = (f64::from(b) + frac) / 64.0;
            to_f32(if *x < 0 { -m } else { m })
        }
        Value::Float(x) if x.is_nan() => 0.0,
        Value::Float(x) if x.is_infinite() => x.signum() as f32,
        Value::Float(x) => to_f32(x / (1.0 + x.abs())),
        Value::Text(t) => to_f32(t.len() as f64 / 32.0),
        Value::Bytes(b) => to_f32(b.len() as f64 / 32.0),
    }
}

fn kind_index(v: &Value) -> usize {
    usize::from(encode(v)[0])
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

fn flag(b: bool) -> f32 {
    f32::from(u8::from(b))
}

fn one_hot(row: &mut Vec<f32>, hot: Option<usize>, n: usize) {
    row.extend((0..n).map(|i| flag(hot == Some(i))));
}

fn spec_observation<S: Storage>(ws: &Workspace<S>) -> Vec<f32> {
    let caps = ws.capacities();
    let t = usize::from(caps.tools);
    let cfg = ws.config();
    let (facts, steps, lessons) = (
        ws.belief().facts(),
        ws.progress().steps(),
        ws.experience().lessons(),
    );
    let ev = ws.event();
    let budget = usize::try_from(cfg.budget).unwrap();
    let spent = usize::try_from(ws.spent()).unwrap();
    let mut out = vec![
        ratio(budget.saturating_sub(spent), budget),
        ratio(spent, budget),
        ratio(facts.len(), usize::from(caps.facts)),
        ratio(steps.len(), usize::from(caps.steps)),
        ratio(lessons.len(), usize::from(caps.lessons)),
        ratio(
            steps.iter().filter(|s| s.status == Status::Done).count(),
            steps.len(),
        ),
        flag(steps.iter().any(|s| s.status == Status::Active)),
        flag(ws.last_act().is_some()),
    ];
    one_hot(&mut out, ws.last_act().map(usize::from), t);

    let mut row = Vec::new();
    match ev {
        Some(e) => {
            row.push(1.0);
            one_hot(&mut row, Some(encode(&e.kind)[0].into()), 3);
            one_hot(&mut row, Some(e.source.into()), t);
        }
        None => row.resize(4 + t, 0.0),
    }
    out.extend(row);

    let fact_with = |k: &str| facts.iter().find(|f| f.key == k);
    let field_with = |k: &str| ev.and_then(|e| e.fields.iter().find(|f| f.key == k));
    let in_event = |v: &Value| ev.is_some_and(|e| e.fields.iter().any(|f| same(&f.value, v)));
    let value = |row: &mut Vec<f32>, v: &Value| {
        one_hot(row, Some(kind_index(v)), 5);
        row.push(scalar(v));
        row.push(hash01(value_hash(v)));
    };
    for j in 0..FIELDS_MAX {
        let mut row = Vec::new();
        if let Some(fb) = ev.and_then(|e| e.fields.get(j)) {
            row.push(1.0);
            row.push(hash01(fnv(fb.key.as_bytes())));
            value(&mut row, &fb.value);
            let known = fact_with(&fb.key);
            row.push(flag(known.is_some()));
            row.push(flag(known.is_some_and(|k| !same(&k.value, &fb.value))));
        } else {
            row.resize(11, 0.0);
        }
        out.extend(row);
    }
    for i in 0..usize::from(caps.facts) {
        let mut row = Vec::new();
        if let Some(f) = facts.get(i) {
            row.push(1.0);
            row.push(hash01(fnv(f.key.as_bytes())));
            value(&mut row, &f.value);
            row.push(f.confidence);
            let s = f64::from(ws.clock().saturating_sub(f.confirmed_at));
            row.push(to_f32(s / (s + 32.0)));
            one_hot(&mut row, Some(encode(&f.provenance)[0].into()), 4);
            let seen = field_with(&f.key);
            row.push(flag(seen.is_some()));
            row.push(flag(seen.is_some_and(|fb| !same(&fb.value, &f.value))));
        } else {
            row.resize(17, 0.0);
        }
        out.extend(row);
    }
    for i in 0..usize::from(caps.steps) {
        let mut row = Vec::new();
        if let Some(s) = steps.get(i) {
            row.push(1.0);
            row.push(hash01(value_hash(&s.label)));
            one_hot(&mut row, Some(encode(&s.status)[0].into()), 6);
            row.push(squash(s.attempts, 2));
            row.push(flag(s.cursor.is_some()));
            row.push(s.cursor.as_ref().map_or(0.0, scalar));
            row.push(flag(s.last_error.is_some()));
            row.push(flag(in_event(&s.label)));
        } else {
            row.resize(13, 0.0);
        }
        out.extend(row);
    }
    for i in 0..usize::from(caps.lessons) {
        let mut row = Vec::new();
        if let Some(l) = lessons.get(i) {
            row.push(1.0);
            row.push(hash01(value_hash(&l.trigger)));
            row.push(scalar(&l.remedy));
            row.push(hash01(value_hash(&l.remedy)));
            let (h, b) = (f32::from(l.helpful), f32::from(l.harmful));
            row.push((h + 1.0) / (h + b + 2.0));
            row.push(squash(l.helpful, 4));
            row.push(squash(l.harmful, 4));
            row.push(squash(l.uses, 4));
            row.push(flag(l.recalled));
            row.push(flag(in_event(&l.trigger)));
            let tool = match l.remedy {
                Value::Int(x) => usize::try_from(x).ok().filter(|&x| x < t),
                _ => None,
            };
            one_hot(&mut row, tool, t);
        } else {
            row.resize(10 + t, 0.0);
        }
        out.extend(row);
    }
    out
}

/// PROTOCOL.md §9's template table, from its formulas.
fn spec_template(caps: Capacities, i: usize) -> Option<Template> {
    let (f, s, l, t) = (
        usize::from(caps.facts),
        usize::from(caps.steps),
        usize::from(caps.lessons),
        usize::from(caps.tools),
    );
    let e = FIELDS_MAX;
    let counts = [
        2,
        t * (1 + f + e),
        e,
        f,
        f,
        1,
        e,
        6 * s,
        e,
        e,
        f,
        e,
        2 * l,
        1,
    ];
    let u8_ = |x: usize| u8::try_from(x).unwrap();
    let u16_ = |x: usize| u16::try_from(x).unwrap();
    let mut i = i;
    for (block, n) in counts.into_iter().enumerate() {
        if i >= n {
            i -= n;
            continue;
        }
        return Some(match block {
            0 => Template::Finish { success: i == 0 },
            1 => {
                let (tool, a) = (i / (1 + f + e), i % (1 + f + e));
                let arg = if a == 0 {
                    None
                } else if a <= f {
                    Some(Source::Fact(u16_(a - 1)))
                } else {
                    Some(Source::Field(u8_(a - 1 - f)))
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
            7 => Template::Step {
                step: u16_(i / 6),
                verb: [
                    StepVerb::Start,
                    StepVerb::Complete,
                    StepVerb::Fail,
                    StepVerb::Block,
                    StepVerb::Skip,
                    StepVerb::Retry,
                ][i % 6],
            },
            8 => Template::Cursor { field: u8_(i) },
            9 => Template::Recall { field: u8_(i) },
            10 => Template::NoteFact { fact: u16_(i) },
            11 => Template::NoteField { field: u8_(i) },
            12 => Template::Rate {
                lesson: u16_(i / 2),
                helpful: i & 1 == 0,
            },
            _ => Template::Consolidate,
        });
    }
    None
}

/// What PROTOCOL.md §9 says template `t` resolves to.
fn spec_resolve<S: Storage>(ws: &Workspace<S>, t: Template) -> Result<Action<'static>, ApplyError> {
    let caps = ws.capacities();
    let field0 = ws.event().is_some_and(|e| !e.fields.is_empty());
    Ok(match t {
        Template::Finish { success } => Action::Finish { success },
        Template::Act { tool, arg } => Action::Act {
            tool,
            args: match arg {
                None => args([]),
                Some(Source::Fact(x)) => args([Arg::Fact(x)]),
                Some(Source::Field(x)) => args([Arg::Field(x)]),
            },
        },
        Template::Track { field } => {
            let e = ws.event().ok_or(ApplyError::NoEvent)?;
            let fb = e
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
            keep: 3 * caps.facts / 4,
        }),
        Template::Plan { field } => Action::Commit(Commit::Plan {
            label: Arg::Field(field),
        }),
        Template::Step { step, verb } => Action::Commit(Commit::Step {
            step: StepRef::Index(step),
            verb,
            value: (verb == StepVerb::Fail && field0).then_some(Arg::Field(0)),
        }),
        Template::Cursor { field } => Action::Commit(Commit::Step {
            step: StepRef::Active,
            verb: StepVerb::Cursor,
            value: Some(Arg::Field(field)),
        }),
        Template::Recall { field } => Action::Recall {
            query: Arg::Field(field),
            k: u8::try_from(RECALL_MAX).unwrap(),
        },
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
            keep: 3 * caps.lessons / 4,
        }),
    })
}

/// A state that exercises every feature: all value kinds (NaN, infinities, extreme integers,
/// text and bytes), every step status with cursors and errors, rated and recalled lessons, a
/// notice from a source beyond the tool count, a finished budget's worth of spending.
fn rich_ws() -> InlineWorkspace<6, 7, 4> {
    let mut ws = InlineWorkspace::<6, 7, 4>::new(Config::new(4, 40)).unwrap();
    let lit = |v: ValueRef<'static>| Arg::Lit(v);
    let set = |k: &'static str, v: ValueRef<'static>, c: f32| {
        Action::Track(Track::Set {
            key: key(k),
            value: lit(v),
            confidence: c,
        })
    };
    let step = |i: u16, verb: StepVerb, value: Option<Arg<'static>>| {
        Action::Commit(Commit::Step {
            step: StepRef::Index(i),
            verb,
            value,
        })
    };
    let run = |ws: &mut InlineWorkspace<6, 7, 4>, a: Action<'static>| {
        ws.apply(&a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    };
    run(&mut ws, set("nan", ValueRef::Float(f64::NAN), 0.25));
    run(&mut ws, set("inf", ValueRef::Float(f64::NEG_INFINITY), 0.0));
    run(&mut ws, set("min", ValueRef::Int(i64::MIN), 0.75));
    run(&mut ws, set("max", ValueRef::Int(i64::MAX), 1.0));
    run(
        &mut ws,
        set("raw", ValueRef::Bytes(Blob::new(&[1, 2, 3]).unwrap()), 0.5),
    );
    run(
        &mut ws,
        Action::Act {
            tool: 3,
            args: args([]),
        },
    );
    run(&mut ws, set("tool", ValueRef::Float(-2.5), 0.125));
    for label in [
        ValueRef::Int(-5),
        text("b"),
        ValueRef::Bool(true),
        ValueRef::Float(0.5),
        text("e"),
        text("f"),
    ] {
        run(&mut ws, Action::Commit(Commit::Plan { label: lit(label) }));
    }
    run(&mut ws, step(0, StepVerb::Start, None));
    run(&mut ws, step(0, StepVerb::Cursor, Some(lit(text("c7")))));
    run(&mut ws, step(0, StepVerb::Complete, None));
    run(&mut ws, step(1, StepVerb::Start, None));
    run(
        &mut ws,
        step(1, StepVerb::Fail, Some(lit(ValueRef::Int(500)))),
    );
    run(&mut ws, step(2, StepVerb::Block, None));
    run(&mut ws, step(3, StepVerb::Skip, None));
    run(&mut ws, step(4, StepVerb::Start, None));
    run(
        &mut ws,
        step(4, StepVerb::Cursor, Some(lit(ValueRef::Int(9)))),
    );
    for (trigger, remedy) in [
        (text("E4"), ValueRef::Int(2)),
        (text("E429"), ValueRef::Int(7)),
        (ValueRef::Int(-5), ValueRef::Int(-1)),
        (text("E42"), text("wait")),
    ] {
        run(
            &mut ws,
            Action::Note(Note::Add {
                trigger: lit(trigger),
                remedy: lit(remedy),
            }),
        );
    }
    for (lesson, helpful) in [(0, true), (0, true), (1, false), (3, true)] {
        run(&mut ws, Action::Note(Note::Rate { lesson, helpful }));
    }
    run(
        &mut ws,
        Action::Recall {
            query: lit(text("E429")),
            k: 2,
        },
    );
    ws.observe(
        &Event::new(EventKind::Notice, 9)
            .with("min", ValueRef::Int(i64::MIN))
            .unwrap()
            .with("max", ValueRef::Int(0))
            .unwrap()
            .with("x", text("e"))
            .unwrap()
            .with("max", ValueRef::Int(i64::MAX))
            .unwrap()
            .with("n", ValueRef::Int(-5))
            .unwrap()
            .with("inf", ValueRef::Float(f64::INFINITY))
            .unwrap()
            .with("e", text("E42"))
            .unwrap()
            .with("b", ValueRef::Bytes(Blob::new(&[]).unwrap()))
            .unwrap(),
    );
    ws
}

#[test]
#[cfg_attr(
    miri,
    ignore = "minutes under Miri; pure arithmetic that the native run covers"
)]
fn a_second_encoder_written_from_protocol_md_agrees() {
    fn check<S: Storage>(ws: &Workspace<S>)
    where
        Workspace<S>: Clone,
    {
        let layout = Layout::new(ws.capacities());
        let mut obs = vec![0f32; layout.obs_len()];
        layout.encode(ws, &mut obs).unwrap();
        let spec = spec_observation(ws);
        let names = feature_names(&layout.segments(), usize::from(ws.capacities().tools));
        assert_eq!(spec.len(), obs.len());
        for (i, (a, b)) in obs.iter().zip(&spec).enumerate() {
            assert_eq!(
                a.to_bits(),
                b.to_bits(),
                "{}: code {a:?}, spec {b:?}",
                names[i]
            );
        }
        let mut mask = vec![0u8; layout.actions()];
        layout.mask(ws, &mut mask).unwrap();
        for (i, &m) in mask.iter().enumerate() {
            let t = spec_template(ws.capacities(), i).unwrap();
            assert_eq!(layout.template(i), Some(t), "template {i}");
            let resolved = spec_resolve(ws, t);
            assert_eq!(layout.resolve(ws, i), resolved, "{t:?}");
            // The mask is exactly "apply would succeed", and a refused template changes nothing.
            let applied = resolved.and_then(|a| {
                let mut copy = ws.clone();
                let before = snap(&copy);
                let r = copy.apply(&a);
                if r.is_err() {
                    assert_eq!(snap(&copy), before);
                }
                r
            });
            assert_eq!(m == 1, applied.is_ok(), "{t:?}: {applied:?}");
        }
        let n = layout.actions();
        assert_eq!(spec_template(ws.capacities(), n), None);
        assert_eq!(layout.resolve(ws, n), Err(ApplyError::UnknownTemplate));
    }
    check(&example_ws());
    let mut ws = rich_ws();
    check(&ws);
    ws.observe(&Event::new(EventKind::Result, 0));
    check(&ws);
    ws.reset_task();
    check(&ws);
    check(&tiny());
    let mut done = tiny();
    done.apply(&Action::Finish { success: false }).unwrap();
    check(&done);
}

// ---------------------------------------------------------------------------------------------
// PROTOCOL.md §6: eviction orders, recall scores and note merging on small examples.

#[test]
fn compress_evicts_lowest_retention_then_oldest_then_lowest_slot() {
    let mut ws = InlineWorkspace::<8, 1, 1>::new(Config::new(1, 100)).unwrap();
    for (k, c) in [("a", 1.0), ("b", 0.5), ("c", 0.5), ("d", 0.0), ("e", 0.0)] {
        ws.apply(&Action::Track(Track::Set {
            key: key(k),
            value: Arg::Lit(ValueRef::Int(0)),
            confidence: c,
        }))
        .unwrap();
    }
    ws.apply(&Action::Track(Track::Confirm { key: key("d") }))
        .unwrap();
    // now = 7. Retentions: a 1/(1 + 6/32), b 0.5/(1 + 5/32), c 0.5/(1 + 4/32), d 0 (confirmed
    // at 6), e 0 (confirmed at 5): e before d (confirmed longer ago), b before c.
    let out = ws
        .apply(&Action::Track(Track::Compress { keep: 1 }))
        .unwrap();
    let Outcome::Compressed { removed, over } = out else {
        panic!("{out:?}")
    };
    let removed: Vec<&str> = removed.iter().map(|k| k.as_str()).collect();
    assert_eq!((removed, over), (vec!["e", "d", "b", "c"], 0));
}

#[test]
fn recall_orders_by_rank_usefulness_uses_slot_and_scores() {
    let mut ws = InlineWorkspace::<1, 1, 5>::new(Config::new(1, 100)).unwrap();
    for trigger in [
        text("E4"),
        text("E429"),
        text("E429x"),
        ValueRef::Int(429),
        text("E"),
    ] {
        ws.apply(&Action::Note(Note::Add {
            trigger: Arg::Lit(trigger),
            remedy: Arg::Lit(ValueRef::Int(0)),
        }))
        .unwrap();
    }
    for (lesson, helpful) in [(2, true), (2, true), (0, false)] {
        ws.apply(&Action::Note(Note::Rate { lesson, helpful }))
            .unwrap();
    }
    let query = Arg::Lit(text("E429"));
    // Slot 1 exact (2 + 1/2); slot 2 prefix, usefulness 3/4; slot 4 prefix, 1/2; slot 0
    // prefix, 1/3; slot 3 is an Int and does not match text.
    let out = ws.apply(&Action::Recall { query, k: 4 }).unwrap();
    let Outcome::Recalled(found) = out else {
        panic!("{out:?}")
    };
    let got: Vec<(u16, f32)> = found.iter().map(|r| (r.slot, r.score)).collect();
    assert_eq!(got, [(1, 2.5), (2, 1.75), (4, 1.5), (0, 1.0 + 1.0 / 3.0)]);
    let lessons = ws.experience().lessons();
    assert_eq!(
        lessons
            .iter()
            .map(|l| (l.uses, l.recalled))
            .collect::<Vec<_>>(),
        [(1, true), (1, true), (1, true), (0, false), (1, true)]
    );
    // Equal rank and usefulness: more uses first, then the lower slot.
    ws.apply(&Action::Recall {
        query: Arg::Lit(text("E")),
        k: 1,
    })
    .unwrap();
    let out = ws
        .apply(&Action::Recall {
            query: Arg::Lit(text("E42")),
            k: 3,
        })
        .unwrap();
    let Outcome::Recalled(found) = out else {
        panic!("{out:?}")
    };
    let slots: Vec<u16> = found.iter().map(|r| r.slot).collect();
    // Prefix matches of "E42": 2 (3/4), then 4 (1/2, 3 uses) before 1 (1/2, 1 use), then 0.
    assert_eq!(slots, [2, 4, 1]);
}

#[test]
fn note_merges_and_consolidate_evicts_least_useful() {
    let mut ws = InlineWorkspace::<1, 1, 4>::new(Config::new(1, 100)).unwrap();
    let note = |t: &'static str, r: i64| {
        Action::Note(Note::Add {
            trigger: Arg::Lit(text(t)),
            remedy: Arg::Lit(ValueRef::Int(r)),
        })
    };
    for (t, r) in [("a", 1), ("b", 1), ("c", 1)] {
        ws.apply(&note(t, r)).unwrap();
    }
    ws.apply(&Action::Note(Note::Rate {
        lesson: 1,
        helpful: true,
    }))
    .unwrap();
    // The same remedy reinforces; a different one replaces it and resets the ratings.
    assert_eq!(
        ws.apply(&note("b", 1)),
        Ok(Outcome::Noted {
            slot: 1,
            merged: true
        })
    );
    assert_eq!(
        (
            ws.experience().lessons()[1].noted,
            ws.experience().lessons()[1].helpful
        ),
        (2, 1)
    );
    ws.apply(&Action::Note(Note::Rate {
        lesson: 0,
        helpful: true,
    }))
    .unwrap();
    ws.apply(&note("a", 2)).unwrap();
    let a = &ws.experience().lessons()[0];
    assert_eq!(
        (a.remedy.clone(), a.helpful, a.noted),
        (Value::Int(2), 0, 1)
    );
    ws.apply(&Action::Recall {
        query: Arg::Lit(text("c")),
        k: 1,
    })
    .unwrap();
    // Net ratings a 0, b 1, c 0; c has a use: a goes first, then c.
    let out = ws
        .apply(&Action::Note(Note::Consolidate { keep: 1 }))
        .unwrap();
    assert_eq!(
        out,
        Outcome::Consolidated {
            removed: heapless::Vec::from_slice(&[owned("a"), owned("c")]).unwrap(),
            over: 0
        }
    );
}

/// §11: the worked example of `workspace-text-v1` is what `text::render` writes, and the
/// action-text table names every template block.
#[test]
fn protocol_md_generative_text() {
    use evoharness_core::text;
    let mut ws =
        evoharness_core::HeapWorkspace::with_capacities(4, 2, 2, Config::new(3, 100)).unwrap();
    let ev = Event::new(EventKind::Result, 1)
        .with("id", ValueRef::Int(42))
        .unwrap()
        .with("note", text("a \"b\"\n"))
        .unwrap();
    ws.observe(&ev);
    ws.apply(&Action::Track(Track::Set {
        key: KeyArg::Field(0),
        value: Arg::Field(0),
        confidence: 0.9,
    }))
    .unwrap();
    ws.apply(&Action::Commit(Commit::Plan {
        label: Arg::Field(0),
    }))
    .unwrap();
    let mut got = String::new();
    text::render(&ws, &mut got).unwrap();
    // The block ends in "> " and a newline that closes the fence.
    assert_eq!(format!("{got}\n"), block("text: SMALL"));

    let templates: Vec<String> = table("templates")
        .into_iter()
        .map(|r| r[0].clone())
        .collect();
    let texts: Vec<String> = table("action texts")
        .into_iter()
        .map(|r| r[0].clone())
        .collect();
    assert_eq!(templates, texts);
    assert!(PROTOCOL.contains(&format!("`text::ACTION_MAX` = {}", text::ACTION_MAX)));
    let suite = Capacities {
        facts: 16,
        steps: 8,
        lessons: 4,
        tools: 8,
    };
    let n = text::max_len(suite);
    let shown = format!("{},{:03} bytes", n / 1000, n % 1000);
    assert!(PROTOCOL.contains(&shown), "PROTOCOL.md should say {shown}");
}
