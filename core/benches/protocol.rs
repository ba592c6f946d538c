//! What the harness protocol costs: `Workspace::apply` per action kind, frame encoding and
//! decoding (postcard, plain and COBS, beside serde_json on the same values), and the
//! structured-v1 observation and mask.
//!
//! Every measured action is checked to succeed once at setup, on a clone of the same workspace
//! each iteration starts from; the timing itself asserts nothing. See `README.md` beside this
//! file for the command and the figures.

use core::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion, criterion_group, criterion_main};
use evoharness_core::obs::Layout;
use evoharness_core::wire::{COBS_FRAME_MAX, FRAME_MAX, Frame, Message, VERSION};
use evoharness_core::{
    Action, ApplyError, Arg, Commit, Config, Event, EventKind, InlineWorkspace, Key, KeyArg, Note,
    Outcome, StepRef, StepVerb, Text, ToolCall, Track, Value, ValueRef,
};

/// A realistic edge workspace: 32 facts, 16 steps, 16 lessons, 8 tools.
type Ws = InlineWorkspace<32, 16, 16>;
const TOOLS: u16 = 8;
/// Facts, steps and lessons the prepared workspace holds: mostly full, with room for one more.
const FACTS: usize = 28;
const STEPS: usize = 14;
const LESSONS: usize = 14;
/// Clones timed per batch: enough to amortise the timer, few enough to stay in cache.
const BATCH: u64 = 32;

fn text(s: &str) -> ValueRef<'_> {
    ValueRef::Text(Text::new(s).expect("short text"))
}

fn key(s: &str) -> Key<'_> {
    Key::new(s).expect("short key")
}

/// The current event: a tool result with all eight fields. Fields 0 to 6 are tracked in the
/// prepared workspace; field 7's key is not (so `track set` of it succeeds); field 4 is a lesson
/// trigger (so recall finds it and `note` of it merges).
fn event() -> Event<'static> {
    let fields: [(&str, ValueRef<'static>); 8] = [
        ("status", text("partial")),
        ("cursor", ValueRef::Int(4096)),
        ("page_token", text("tok-4f1a9c")),
        ("latency_ms", ValueRef::Float(12.5)),
        ("error", text("rate_limited")),
        ("retry", ValueRef::Bool(true)),
        ("region", text("eu-west-1")),
        ("items", ValueRef::Int(250)),
    ];
    let mut ev = Event::new(EventKind::Result, 3);
    for (k, v) in fields {
        ev = ev.with(k, v).expect("eight short fields");
    }
    ev
}

fn ok(ws: &mut Ws, a: &Action<'_>) -> Outcome {
    ws.apply(a)
        .unwrap_or_else(|e| panic!("setup action {a:?} refused: {e}"))
}

/// The workspace every `apply` benchmark starts from, built through `apply` itself.
fn prepared() -> Ws {
    let mut ws = Ws::new(Config::new(TOOLS, 1_000_000)).expect("valid config");
    let ev = event();
    ws.observe(&ev);

    // Belief: fields 0..=6 of the event, then literal facts up to FACTS, confidences varied so
    // that compress has a real choice to make.
    for f in 0..7u8 {
        let confidence = 0.6 + f32::from(f) * 0.05;
        let set = Track::Set {
            key: KeyArg::Field(f),
            value: Arg::Field(f),
            confidence,
        };
        ok(&mut ws, &Action::Track(set));
    }
    let keys: Vec<String> = (7..FACTS).map(|i| format!("fact_{i:02}")).collect();
    let labels: Vec<String> = (0..FACTS).map(|i| format!("value-{i:02}")).collect();
    for (i, k) in keys.iter().enumerate() {
        let value = match i % 3 {
            0 => text(&labels[i]),
            1 => ValueRef::Int(i64::try_from(i).expect("small") * 100),
            _ => ValueRef::Float(0.25 * i as f64),
        };
        let set = Track::Set {
            key: KeyArg::Lit(key(k)),
            value: Arg::Lit(value),
            confidence: [0.3, 0.5, 0.7, 0.9, 1.0][i % 5],
        };
        ok(&mut ws, &Action::Track(set));
    }

    // A few world actions, so that `LastAct` resolves.
    for tool in [1, 4, 2] {
        let args = heapless::Vec::from_slice(&[Arg::Field(1)]).expect("one arg");
        ok(&mut ws, &Action::Act { tool, args });
    }

    // Progress: steps 0..6 done, step 6 active with a cursor, the rest pending.
    let step_labels: Vec<String> = (0..STEPS).map(|i| format!("batch-{i:02}")).collect();
    for l in &step_labels {
        ok(
            &mut ws,
            &Action::Commit(Commit::Plan {
                label: Arg::Lit(text(l)),
            }),
        );
    }
    let step = |i: u16, verb: StepVerb, value: Option<Arg<'static>>| {
        Action::Commit(Commit::Step {
            step: StepRef::Index(i),
            verb,
            value,
        })
    };
    for i in 0..6 {
        ok(&mut ws, &step(i, StepVerb::Start, None));
        ok(&mut ws, &step(i, StepVerb::Complete, None));
    }
    ok(&mut ws, &step(6, StepVerb::Start, None));
    ok(&mut ws, &step(6, StepVerb::Cursor, Some(Arg::Field(1))));

    // Experience: LESSONS lessons, some of whose triggers match field 4 exactly or by prefix.
    let triggers: Vec<String> = (0..LESSONS)
        .map(|i| match i % 4 {
            0 => format!("rate_limited_{i}"),
            1 => format!("timeout_{i}"),
            2 => format!("http_{}", 400 + i),
            _ => format!("quota_{i}"),
        })
        .collect();
    for (i, t) in triggers.iter().enumerate() {
        let trigger = if i == 5 { "rate_limited" } else { t.as_str() };
        let remedy = ValueRef::Int(i64::try_from(i).expect("small") % i64::from(TOOLS));
        let add = Note::Add {
            trigger: Arg::Lit(text(trigger)),
            remedy: Arg::Lit(remedy),
        };
        ok(&mut ws, &Action::Note(add));
    }
    for lesson in 0..u16::try_from(LESSONS).expect("small") {
        for r in 0..(lesson % 3) {
            let rate = Note::Rate {
                lesson,
                helpful: r == 0,
            };
            ok(&mut ws, &Action::Note(rate));
        }
    }
    ok(
        &mut ws,
        &Action::Recall {
            query: Arg::Field(4),
            k: 4,
        },
    );

    assert_eq!(ws.belief().len(), FACTS);
    assert_eq!(ws.progress().len(), STEPS);
    assert_eq!(ws.experience().len(), LESSONS);
    ws
}

/// Times `apply(action)` on a fresh clone of `ws` per iteration; the clones are made outside
/// the timed region, `BATCH` at a time.
fn bench_apply(g: &mut BenchmarkGroup<'_, WallTime>, name: &str, ws: &Ws, action: &Action<'_>) {
    let mut probe = ws.clone();
    if let Err(e) = probe.apply(action) {
        panic!("{name}: {action:?} is refused on the prepared workspace: {e}");
    }
    g.bench_function(name, |b| {
        b.iter_batched_ref(
            || ws.clone(),
            |w| w.apply(black_box(action)),
            BatchSize::NumIterations(BATCH),
        );
    });
}

fn apply(c: &mut Criterion) {
    let ws = prepared();
    let mut g = c.benchmark_group("apply");

    // What the batching itself costs: the same loop over cloned workspaces, doing nothing.
    g.bench_function("baseline (no-op)", |b| {
        b.iter_batched_ref(
            || ws.clone(),
            |w| -> Result<Outcome, ApplyError> {
                black_box(w);
                Err(ApplyError::Finished)
            },
            BatchSize::NumIterations(BATCH),
        );
    });

    let act = Action::Act {
        tool: 3,
        args: heapless::Vec::from_slice(&[Arg::Field(1), Arg::Fact(9)]).expect("two args"),
    };
    let cases: Vec<(&str, Action<'_>)> = vec![
        ("act (Field + Fact args)", act),
        (
            "track set (new key from field)",
            Action::Track(Track::Set {
                key: KeyArg::Field(7),
                value: Arg::Field(7),
                confidence: 1.0,
            }),
        ),
        (
            "track revise (key from field)",
            Action::Track(Track::Revise {
                key: KeyArg::Field(0),
                value: Arg::Field(0),
                confidence: 0.9,
            }),
        ),
        (
            "track confirm (fact slot)",
            Action::Track(Track::Confirm {
                key: KeyArg::Fact(20),
            }),
        ),
        (
            "track retract (fact slot 0)",
            Action::Track(Track::Retract {
                key: KeyArg::Fact(0),
            }),
        ),
        (
            "track compress (28 -> 24)",
            Action::Track(Track::Compress { keep: 24 }),
        ),
        (
            "commit plan (label from field)",
            Action::Commit(Commit::Plan {
                label: Arg::Field(2),
            }),
        ),
        (
            "commit start (step 7)",
            Action::Commit(Commit::Step {
                step: StepRef::Index(7),
                verb: StepVerb::Start,
                value: None,
            }),
        ),
        (
            "commit complete (step 6)",
            Action::Commit(Commit::Step {
                step: StepRef::Index(6),
                verb: StepVerb::Complete,
                value: None,
            }),
        ),
        (
            "commit cursor (active, cursor field)",
            Action::Commit(Commit::Step {
                step: StepRef::Active,
                verb: StepVerb::Cursor,
                value: Some(Arg::Field(1)),
            }),
        ),
        (
            "recall (k = 4, 14 lessons)",
            Action::Recall {
                query: Arg::Field(4),
                k: 4,
            },
        ),
        (
            "note add (new trigger)",
            Action::Note(Note::Add {
                trigger: Arg::Field(6),
                remedy: Arg::LastAct,
            }),
        ),
        (
            "note add (merge)",
            Action::Note(Note::Add {
                trigger: Arg::Field(4),
                remedy: Arg::LastAct,
            }),
        ),
        (
            "note rate",
            Action::Note(Note::Rate {
                lesson: 3,
                helpful: true,
            }),
        ),
        (
            "note consolidate (14 -> 12)",
            Action::Note(Note::Consolidate { keep: 12 }),
        ),
        ("finish", Action::Finish { success: true }),
    ];
    // The merge case must really merge, and the new case must really add.
    let merged = |name: &str| {
        let (_, a) = cases.iter().find(|(n, _)| *n == name).expect("a case");
        match ws.clone().apply(a) {
            Ok(Outcome::Noted { merged, .. }) => merged,
            other => panic!("{name} gave {other:?}"),
        }
    };
    assert!(!merged("note add (new trigger)"));
    assert!(merged("note add (merge)"));
    for (name, action) in &cases {
        bench_apply(&mut g, name, &ws, action);
    }
    g.finish();
}

/// The messages the wire benchmarks encode and decode.
fn messages() -> Vec<(&'static str, Message<'static>)> {
    let call = ToolCall {
        tool: 3,
        args: heapless::Vec::from_slice(&[
            Value::Int(4096),
            Value::text("eu-west-1").expect("short"),
        ])
        .expect("two args"),
    };
    vec![
        (
            "action act",
            Message::Action(Action::Act {
                tool: 3,
                args: heapless::Vec::from_slice(&[Arg::Field(1), Arg::Fact(9)]).expect("two"),
            }),
        ),
        (
            "action track set (literals)",
            Message::Action(Action::Track(Track::Set {
                key: KeyArg::Lit(key("page_token")),
                value: Arg::Lit(text("tok-4f1a9c")),
                confidence: 0.9,
            })),
        ),
        (
            "action cursor",
            Message::Action(Action::Commit(Commit::Step {
                step: StepRef::Active,
                verb: StepVerb::Cursor,
                value: Some(Arg::Field(1)),
            })),
        ),
        (
            "action note add (literal)",
            Message::Action(Action::Note(Note::Add {
                trigger: Arg::Lit(text("rate_limited")),
                remedy: Arg::Lit(ValueRef::Int(3)),
            })),
        ),
        (
            "action finish",
            Message::Action(Action::Finish { success: true }),
        ),
        ("outcome call", Message::Outcome(Ok(Outcome::Call(call)))),
        ("event (8 fields)", Message::Event(event())),
    ]
}

/// What serde_json is given: the same tuple the postcard frame encodes.
type JsonFrame<'a> = (u8, u32, Message<'a>);

fn wire(c: &mut Criterion) {
    const SEQ: u32 = 1_000;
    println!(
        "\n{:<28} {:>8} {:>6} {:>6}",
        "message", "postcard", "cobs", "json"
    );
    let msgs = messages();
    for (name, body) in &msgs {
        let frame = Frame::new(SEQ, body.clone());
        let mut pbuf = [0u8; FRAME_MAX];
        let plain = frame.encode(&mut pbuf).expect("fits FRAME_MAX").to_vec();
        let mut cbuf = [0u8; COBS_FRAME_MAX];
        let cobs = frame
            .encode_cobs(&mut cbuf)
            .expect("fits COBS_FRAME_MAX")
            .to_vec();
        let json = serde_json::to_vec(&(VERSION, SEQ, body)).expect("serialisable");
        assert_eq!(Frame::decode(&plain).as_ref(), Ok(&frame));
        let mut scratch = cobs.clone();
        assert_eq!(Frame::decode_cobs(&mut scratch).as_ref(), Ok(&frame));
        let back: JsonFrame<'_> = serde_json::from_slice(&json).expect("json round trip");
        assert_eq!(&back.2, body);
        println!(
            "{name:<28} {:>8} {:>6} {:>6}",
            plain.len(),
            cobs.len(),
            json.len()
        );

        let mut g = c.benchmark_group(format!("wire/{name}"));
        g.bench_function("postcard encode", |b| {
            b.iter(|| black_box(&frame).encode(&mut pbuf).map(|s| s.len()));
        });
        g.bench_function("postcard decode", |b| {
            b.iter(|| Frame::decode(black_box(&plain)));
        });
        g.bench_function("cobs encode", |b| {
            b.iter(|| black_box(&frame).encode_cobs(&mut cbuf).map(|s| s.len()));
        });
        // Decoding COBS is in place, so each iteration first copies the encoded bytes back.
        g.bench_function("cobs decode (incl. copy)", |b| {
            let n = cobs.len();
            b.iter(|| {
                cbuf[..n].copy_from_slice(black_box(&cobs));
                let f = Frame::decode_cobs(&mut cbuf[..n]);
                black_box(&f);
                f.is_ok()
            });
        });
        let mut jbuf: Vec<u8> = Vec::with_capacity(4 * json.len());
        g.bench_function("json encode (to_writer)", |b| {
            b.iter(|| {
                jbuf.clear();
                let r = serde_json::to_writer(&mut jbuf, &(VERSION, SEQ, black_box(body)));
                r.map(|()| jbuf.len()).is_ok()
            });
        });
        g.bench_function("json decode (borrowed)", |b| {
            b.iter(|| serde_json::from_slice::<JsonFrame<'_>>(black_box(&json)).is_ok());
        });
        g.finish();
    }
}

fn obs(c: &mut Criterion) {
    let ws = prepared();
    let layout = Layout::new(ws.capacities());
    let mut out = vec![0f32; layout.obs_len()];
    let mut mask = vec![0u8; layout.actions()];
    layout.encode(&ws, &mut out).expect("layout fits");
    let legal = layout.mask(&ws, &mut mask).expect("layout fits");
    println!(
        "\nobservation: {} floats; templates: {} ({legal} legal now); workspace: {} bytes",
        layout.obs_len(),
        layout.actions(),
        size_of::<Ws>()
    );
    let mut g = c.benchmark_group("obs");
    g.bench_function("Layout::encode", |b| {
        b.iter(|| layout.encode(black_box(&ws), &mut out).is_ok());
    });
    g.bench_function("Layout::mask", |b| {
        b.iter(|| layout.mask(black_box(&ws), &mut mask));
    });
    // The definition the fast mask is tested against: resolve and check every template.
    g.bench_function("Layout::mask_reference", |b| {
        b.iter(|| layout.mask_reference(black_box(&ws), &mut mask));
    });
    g.finish();
}

criterion_group!(benches, apply, wire, obs);
criterion_main!(benches);
