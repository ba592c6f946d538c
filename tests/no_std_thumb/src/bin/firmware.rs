//! A firmware image that uses every part of evoharness-core a device needs, with no global
//! allocator: if any of it (or a dependency) needed one, this would not link.
//!
//! Each round is one task: an event arrives COBS-framed over a byte stream, the policy's view
//! (observation and legal-action mask) is written, a template is resolved and applied, one
//! action of every verb is applied, outcomes go back COBS-framed, an action arrives as a plain
//! frame, and the workspace is snapshotted and restored into a second one. Inputs and outputs
//! pass through `black_box`, so the optimiser can neither constant-fold the work nor drop it.
#![no_std]
#![no_main]

use core::hint::black_box;

use cortex_m_rt::entry;
use evoharness_core::obs::{Layout, Template};
use evoharness_core::snapshot;
use evoharness_core::wire::{self, Frame, Message};
use evoharness_core::{
    Action, ApplyError, Arg, Capacities, Commit, Config, Event, EventKind, InlineWorkspace, Key,
    KeyArg, Note, StepRef, StepVerb, Text, Track, ValueRef,
};
use evoharness_no_std_thumb::{check, halt, ok};

const FACTS: usize = 16;
const STEPS: usize = 8;
const LESSONS: usize = 4;
const TOOLS: u16 = 3;
const BUDGET: u32 = 100;

/// Everything below is sized from these, at compile time.
const CAPS: Capacities = Capacities {
    facts: FACTS as u16,
    steps: STEPS as u16,
    lessons: LESSONS as u16,
    tools: TOOLS,
};
const LAYOUT: Layout = Layout::new(CAPS);
const OBS_LEN: usize = LAYOUT.obs_len();
const ACTIONS: usize = LAYOUT.actions();
const SNAPSHOT_MAX: usize = snapshot::max_len(CAPS);

type Ws = InlineWorkspace<FACTS, STEPS, LESSONS>;

#[entry]
fn main() -> ! {
    let config = Config::new(TOOLS, BUDGET);
    let mut ws = ok(Ws::new(config));
    let mut restored = ok(Ws::new(config));
    let mut seq: u32 = 0;
    #[cfg(feature = "_alloc_canary")]
    alloc_canary(config);
    loop {
        // A value the optimiser cannot know: a sensor reading, a counter from the host.
        let reading = black_box(i64::from(seq));
        task(&mut ws, &mut restored, &mut seq, reading);
        ws.reset_task();
    }
}

/// Allocates, with no global allocator: this build must fail (see `check.sh`).
#[cfg(feature = "_alloc_canary")]
fn alloc_canary(config: Config) {
    let heap = ok(evoharness_core::HeapWorkspace::with_capacities(
        4, 4, 4, config,
    ));
    black_box(&heap);
}

fn task(ws: &mut Ws, restored: &mut Ws, seq: &mut u32, reading: i64) {
    // An event, as the host would send it: COBS-framed onto a byte stream ("UART").
    let mut ev = Event::new(EventKind::Result, 0);
    ok(ev.push(ok(Key::new("cursor")), ValueRef::Int(reading)));
    ok(ev.push(
        ok(Key::new("err")),
        ValueRef::Text(ok(Text::new("timeout"))),
    ));
    ok(ev.push(
        ok(Key::new("next")),
        ValueRef::Text(ok(Text::new("fetch page 2"))),
    ));
    let mut rx = [0u8; wire::COBS_FRAME_MAX];
    let n = ok(Frame::new(*seq, Message::Event(ev)).encode_cobs(&mut rx)).len();
    let rx = black_box(&mut rx[..n]);

    // The device decodes it in place and observes it.
    let frame = ok(Frame::decode_cobs(rx));
    let Message::Event(ev) = &frame.body else {
        halt()
    };
    ws.observe(ev);
    check(ws.event().is_some_and(|e| e.fields.len() == 3));

    // The policy's view: observation and mask, then the template it picked, resolved.
    let mut obs = [0f32; OBS_LEN];
    ok(LAYOUT.encode(ws, &mut obs));
    let mut mask = [0u8; ACTIONS];
    let legal = ok(LAYOUT.mask(ws, &mut mask));
    black_box((&obs, &mask, legal));
    let pick = LAYOUT
        .index(Template::Track { field: 0 })
        .unwrap_or_else(|| halt());
    check(mask[pick] == 1);
    let act = ok(LAYOUT.resolve(ws, pick));
    reply(ws, &act, seq);

    // One action of every verb.
    let cursor = ok(Key::new("cursor"));
    let actions = [
        Action::Act {
            tool: 1,
            args: [Arg::Fact(0), Arg::Field(2)].into_iter().collect(),
        },
        Action::Track(Track::Revise {
            key: KeyArg::Lit(cursor),
            value: Arg::Lit(ValueRef::Int(reading + 1)),
            confidence: 0.5,
        }),
        Action::Track(Track::Confirm {
            key: KeyArg::Fact(0),
        }),
        Action::Track(Track::Set {
            key: KeyArg::Field(1),
            value: Arg::Field(1),
            confidence: 0.75,
        }),
        Action::Track(Track::Retract {
            key: KeyArg::Field(1),
        }),
        Action::Track(Track::Compress { keep: 1 }),
        Action::Commit(Commit::Plan {
            label: Arg::Field(2),
        }),
        Action::Commit(Commit::Step {
            step: StepRef::Index(0),
            verb: StepVerb::Start,
            value: None,
        }),
        Action::Commit(Commit::Step {
            step: StepRef::Active,
            verb: StepVerb::Cursor,
            value: Some(Arg::Field(0)),
        }),
        Action::Note(Note::Add {
            trigger: Arg::Field(1),
            remedy: Arg::LastAct,
        }),
        Action::Recall {
            query: Arg::Field(1),
            k: 4,
        },
        Action::Note(Note::Rate {
            lesson: 0,
            helpful: true,
        }),
        Action::Note(Note::Consolidate { keep: 1 }),
    ];
    for a in &actions {
        reply(ws, a, seq);
    }
    check(ws.belief().len() == 1 && ws.progress().len() == 1 && ws.experience().len() == 1);

    // An action from the host as a plain frame (a packet transport needs no COBS).
    let mut pkt = [0u8; wire::FRAME_MAX];
    let n =
        ok(Frame::new(*seq, Message::Action(Action::Finish { success: true })).encode(&mut pkt))
            .len();
    let frame = ok(Frame::decode(black_box(&pkt[..n])));
    let Message::Action(finish) = &frame.body else {
        halt()
    };

    // Snapshot before finishing, restore into another workspace, and compare.
    let mut snap = [0u8; SNAPSHOT_MAX];
    let bytes = ok(ws.snapshot(&mut snap));
    ok(restored.restore(black_box(bytes)));
    check(restored.clock() == ws.clock() && restored.spent() == ws.spent());
    check(restored.belief().facts() == ws.belief().facts());

    reply(ws, finish, seq);
    check(ws.finished() == Some(true));
    check(matches!(
        ws.apply(&Action::Finish { success: false }),
        Err(ApplyError::Finished)
    ));
}

/// Applies `action` (it must succeed) and sends the outcome back COBS-framed.
fn reply(ws: &mut Ws, action: &Action<'_>, seq: &mut u32) {
    let result = ws.apply(action);
    check(result.is_ok());
    let mut tx = [0u8; wire::COBS_FRAME_MAX];
    let out = ok(Frame::new(*seq, Message::Outcome(result)).encode_cobs(&mut tx));
    black_box(out);
    *seq = seq.wrapping_add(1);
}
