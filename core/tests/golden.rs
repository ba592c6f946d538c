//! Golden bytes: the exact wire encoding of every message, every variant and the snapshot
//! format, pinned as literal byte arrays, and checks that `PROTOCOL.md` says what the code does.
//!
//! Each `pin` encodes a value and compares the bytes with a literal, then decodes the literal
//! and compares the value. A change that moves any byte fails here: that is a protocol change,
//! and `PROTOCOL.md` (and `wire::VERSION` or `snapshot::FORMAT`) must move with it.

use core::fmt::Debug;

use serde::{Deserialize, Serialize};

use evoharness_core::belief::Fact;
use evoharness_core::experience::Lesson;
use evoharness_core::obs::{self, Feature, Layout, Segment, Source, Template, Width};
use evoharness_core::progress::Step;
use evoharness_core::snapshot::{self, SnapshotError};
use evoharness_core::value::{Blob, Key, Text};
use evoharness_core::wire::{COBS_FRAME_MAX, DecodeError, FRAME_MAX, VERSION};
use evoharness_core::{
    ARGS_MAX, Action, ApplyError, Arg, CAPACITY_MAX, Capacities, Change, Commit, Config, Event,
    EventBuf, EventKind, FIELDS_MAX, Field, Frame, InlineWorkspace, KEY_MAX, KeyArg, Message, Note,
    Outcome, Provenance, RECALL_MAX, REMOVE_MAX, Recalled, Status, StepRef, StepVerb, Storage,
    TEXT_MAX, TOOLS_MAX, ToolCall, Track, Value, ValueRef, Workspace,
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
fn pin<T>(value: &T, golden: &'static [u8])
where
    T: Serialize + Deserialize<'static> + PartialEq + Debug,
{
    let got = encode(value);
    assert_eq!(hex(&got), hex(golden), "encoding of {value:?}");
    let (back, rest) = postcard::take_from_bytes::<T>(golden).unwrap();
    assert!(rest.is_empty());
    assert_eq!(&back, value);
}

/// Pins a message body, and the same body in a frame with sequence number 0.
#[track_caller]
fn pin_message(msg: Message<'static>, golden: &'static [u8]) {
    pin(&msg, golden);
    let mut framed = vec![VERSION, 0];
    framed.extend_from_slice(golden);
    let mut buf = [0u8; FRAME_MAX];
    let frame = Frame::new(0, msg);
    assert_eq!(hex(frame.encode(&mut buf).unwrap()), hex(&framed));
    assert_eq!(Frame::decode(&framed).unwrap(), frame);
}

#[track_caller]
fn pin_action(a: Action<'static>, golden: &'static [u8]) {
    pin(&a, golden);
    let mut msg = vec![0];
    msg.extend_from_slice(golden);
    let msg: &'static [u8] = Vec::leak(msg);
    pin_message(Message::Action(a), msg);
}

#[track_caller]
fn pin_outcome(o: Result<Outcome, ApplyError>, golden: &'static [u8]) {
    pin(&o, golden);
    let mut msg = vec![1];
    msg.extend_from_slice(golden);
    let msg: &'static [u8] = Vec::leak(msg);
    pin_message(Message::Outcome(o), msg);
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
    pin(&Value::Int(i64::MIN), &[0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    pin(&Value::Int(i64::MAX), &[0x01, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    pin(&Value::Float(1.5), &[0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xf8, 0x3f]);
    pin(&Value::Float(-0.0), &[0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80]);
    pin(&owned("héllo"), &[0x03, 0x06, 0x68, 0xc3, 0xa9, 0x6c, 0x6c, 0x6f]);
    pin(&owned(""), &[0x03, 0x00]);
    pin(&Value::bytes(&[0, 1, 255]).unwrap(), &[0x04, 0x03, 0x00, 0x01, 0xff]);
    // The borrowed form encodes identically.
    pin(&text("héllo"), &[0x03, 0x06, 0x68, 0xc3, 0xa9, 0x6c, 0x6c, 0x6f]);
    pin(&ValueRef::Bytes(Blob::new(&[0, 1, 255]).unwrap()), &[0x04, 0x03, 0x00, 0x01, 0xff]);
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
        &[0x00, 0x02, 0x04, 0x00, 0x03, 0x01, 0x78, 0x01, 0x01, 0x02, 0x02, 0x03],
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
        &[0x01, 0x01, 0x00, 0x02, 0x69, 0x64, 0x00, 0x01, 0x10, 0x00, 0x00, 0x00, 0x3f],
    );
    pin_action(
        Action::Track(Track::Confirm {
            key: KeyArg::Fact(1),
        }),
        &[0x01, 0x02, 0x02, 0x01],
    );
    pin_action(Action::Track(Track::Retract { key: key("id") }), &[0x01, 0x03, 0x00, 0x02, 0x69, 0x64]);
    pin_action(Action::Track(Track::Compress { keep: 300 }), &[0x01, 0x04, 0xac, 0x02]);
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
            verb: StepVerb::Checkpoint,
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
        &[0x02, 0x01, 0x00, 0x01, 0x02, 0x01, 0x00, 0x03, 0x07, 0x74, 0x69, 0x6d, 0x65, 0x6f, 0x75, 0x74],
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
    pin_action(Action::Note(Note::Consolidate { keep: 3 }), &[0x04, 0x02, 0x03]);
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
    pin_outcome(Ok(Outcome::Compressed { removed, over: 1 }), &[0x00, 0x02, 0x02, 0x01, 0x61, 0x02, 0x62, 0x62, 0x01]);
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
    pin_outcome(Ok(Outcome::Recalled(found)), &[0x00, 0x04, 0x02, 0x00, 0x00, 0x00, 0x20, 0x40, 0x02, 0x00, 0x00, 0xc0, 0x3f]);
    pin_outcome(Ok(Outcome::Recalled(heapless::Vec::new())), &[0x00, 0x04, 0x00]);
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
    pin(&ev, &[0x01, 0x02, 0x05, 0x04, 0x63, 0x6f, 0x64, 0x65, 0x01, 0xda, 0x06, 0x05, 0x72, 0x65, 0x74, 0x72, 0x79, 0x00, 0x01, 0x04, 0x77, 0x61, 0x69, 0x74, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xd0, 0x3f, 0x03, 0x6d, 0x73, 0x67, 0x03, 0x04, 0x73, 0x6c, 0x6f, 0x77, 0x03, 0x72, 0x61, 0x77, 0x04, 0x02, 0xde, 0xad]);
    pin_message(Message::Event(ev.clone()), &[0x02, 0x01, 0x02, 0x05, 0x04, 0x63, 0x6f, 0x64, 0x65, 0x01, 0xda, 0x06, 0x05, 0x72, 0x65, 0x74, 0x72, 0x79, 0x00, 0x01, 0x04, 0x77, 0x61, 0x69, 0x74, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xd0, 0x3f, 0x03, 0x6d, 0x73, 0x67, 0x03, 0x04, 0x73, 0x6c, 0x6f, 0x77, 0x03, 0x72, 0x61, 0x77, 0x04, 0x02, 0xde, 0xad]);
    // The owned form a workspace and a snapshot hold encodes identically.
    pin(&EventBuf::from_event(&ev), &[0x01, 0x02, 0x05, 0x04, 0x63, 0x6f, 0x64, 0x65, 0x01, 0xda, 0x06, 0x05, 0x72, 0x65, 0x74, 0x72, 0x79, 0x00, 0x01, 0x04, 0x77, 0x61, 0x69, 0x74, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xd0, 0x3f, 0x03, 0x6d, 0x73, 0x67, 0x03, 0x04, 0x73, 0x6c, 0x6f, 0x77, 0x03, 0x72, 0x61, 0x77, 0x04, 0x02, 0xde, 0xad]);
    pin(&Event::new(EventKind::Notice, 300), &[0x02, 0xac, 0x02, 0x00]);
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
        (u32::MAX, &[0x01, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00, 0x05, 0x01]),
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
const SNAPSHOT_TINY: &[u8] = &[
    0x45, 0x56, 0x48, 0x57, 0x01, 0x00, 0x3f, 0x00, 0x00, 0x00, // magic, format, body length
    0x02, 0x02, 0x01, // capacities
    0x01, 0x0a, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, // config
    0x05, 0x05, 0x00, 0x01, 0x00, // clock, spent, finished, last_act
    0x01, 0x00, 0x00, 0x01, 0x02, 0x69, 0x64, 0x01, 0x0e, // event
    0x01, 0x02, 0x69, 0x64, 0x01, 0x0e, 0x00, 0x00, 0x80, 0x3f, 0x01, 0x00, 0x02, 0x02, // facts
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
        (&[0x01, 0xff, 0xff, 0xff, 0xff, 0x10, 0x00, 0x05, 0x01], Malformed),
        (&[0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], Malformed),
        // Message index 3, Action index 6.
        (&[0x01, 0x00, 0x03], Malformed),
        (&[0x01, 0x00, 0x00, 0x06], Malformed),
        // A bool of 2; an Option tag of 2.
        (&[0x01, 0x00, 0x00, 0x05, 0x02], Malformed),
        (&[0x01, 0x00, 0x00, 0x02, 0x01, 0x01, 0x06, 0x02], Malformed),
        // Invalid UTF-8 in a text literal: `Recall { query: Lit(Text("\xff")), k: 1 }`.
        (&[0x01, 0x00, 0x00, 0x03, 0x00, 0x03, 0x01, 0xff, 0x01], Malformed),
        // A u16 varint over 0xffff: `Track(Compress { keep })`.
        (&[0x01, 0x00, 0x00, 0x01, 0x04, 0xff, 0xff, 0x04], Malformed),
        (&[0x01, 0x00, 0x00, 0x05, 0x01, 0xaa], TrailingBytes(1)),
        (&[0x01, 0x00, 0x00, 0x05, 0x01, 0x00, 0x00], TrailingBytes(2)),
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

fn refuses_index<T: Deserialize<'static>>(count: u8) -> bool {
    let bytes: &'static [u8] = Vec::leak(vec![count; 64]);
    postcard::from_bytes::<T>(bytes).is_err()
}

#[test]
fn no_unpinned_variants() {
    assert!(refuses_index::<Message<'static>>(3));
    assert!(refuses_index::<Result<Outcome, ApplyError>>(2));
    assert!(refuses_index::<Action<'static>>(6));
    assert!(refuses_index::<Arg<'static>>(4));
    assert!(refuses_index::<KeyArg<'static>>(3));
    assert!(refuses_index::<StepRef>(2));
    assert!(refuses_index::<Track<'static>>(5));
    assert!(refuses_index::<Commit<'static>>(2));
    assert!(refuses_index::<Note<'static>>(3));
    assert!(refuses_index::<StepVerb>(7));
    assert!(refuses_index::<Outcome>(9));
    assert!(refuses_index::<Change>(4));
    assert!(refuses_index::<Status>(6));
    assert!(refuses_index::<ApplyError>(20));
    assert!(refuses_index::<EventKind>(3));
    assert!(refuses_index::<Value>(5));
    assert!(refuses_index::<ValueRef<'static>>(5));
    assert!(refuses_index::<Provenance>(4));
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
    let at = 31;
    assert_eq!(bad_conf[at..at + 4], [0x00, 0x00, 0x80, 0x3f]);
    bad_conf[at + 2] = 0x00;
    bad_conf[at + 3] = 0x40;
    let mut extra = body.to_vec();
    extra.push(0x00);
    let mut last_act = body.to_vec();
    // last_act = Some(0) -> Some(1), but the task has one tool.
    assert_eq!(last_act[14..16], [0x01, 0x00]);
    last_act[15] = 0x01;
    let cases: Vec<(Vec<u8>, SnapshotError)> = vec![
        (vec![], Truncated),
        (b"EVH".to_vec(), Truncated),
        (b"EVHX".to_vec(), BadMagic),
        (with(0, b'X'), BadMagic),
        (SNAPSHOT_TINY[..13].to_vec(), Truncated),
        (SNAPSHOT_TINY[..SNAPSHOT_TINY.len() - 1].to_vec(), Truncated),
        ([SNAPSHOT_TINY, &[0x00]].concat(), TrailingBytes),
        (with(4, 0x02), UnsupportedVersion(2)),
        (with(20, 0x06), Checksum),
        (with(SNAPSHOT_TINY.len() - 1, 0x00), Checksum),
        (reframed(&bad_conf), Invalid),
        (reframed(&last_act), Invalid),
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
