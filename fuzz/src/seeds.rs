//! The checked-in seed corpus, generated: `cargo run --example seeds` rewrites the seeds in
//! `corpus/`, and the tests here fail when they are stale or when a seed no longer reaches what
//! it was made for.
//!
//! Beside the seeds, `corpus/<target>/` keeps the inputs that longer fuzzing runs found and
//! minimised (`fuzz/grow.sh`): files named as libFuzzer names them, by the SHA-1 of their
//! contents ([`found`]). The generator leaves them alone, and a test replays every one through
//! its target.
//!
//! - `decode`: every action, outcome and event variant of the [`session`] as a plain frame,
//!   one of each message kind COBS-framed, and snapshots of the two capacity sets `decode`
//!   restores into (fresh, mid-session and finished).
//! - `apply`: scripts for `core`'s interpreter (header first, see [`Setup::from_header`]):
//!   every template in turn, the session replayed as postcard actions, budgets running out,
//!   tables filling up and being evicted, events and snapshots.
//! - `apply_fast`: inputs for [`apply_fast`](crate::apply_fast) ([`Op`]): every template in
//!   turn, the session as postcard actions, budgets running out, tables filling up.
//! - `checkpoint`: the setup byte and the checkpoint of a suite agent driven by the lean
//!   harness ([`checkpoint::seed`]), for every task kind, at its start, after a few steps, and
//!   at its end; and a checkpoint whose world resume point is garbage.
//! - `experience_store`: stores of every value kind, empty, at their budget, after merges.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use evoharness_core::obs::{Layout, Source, Template};
use evoharness_core::wire::{COBS_FRAME_MAX, FRAME_MAX, Frame, Message};
use evoharness_core::{Action, Capacities, StepVerb, Storage, Workspace};

use crate::apply::{HEADER, Setup};
use crate::apply_fast::{self, Op};
use crate::decode::{self, LARGE, LargeInline, SMALL, SmallInline};
use crate::session::{self, Item};
use crate::{c_abi, checkpoint};

/// The fuzz targets, each with a corpus in `corpus/<target>/`.
pub const TARGETS: [&str; 8] = [
    "decode",
    "apply",
    "apply_fast",
    "checkpoint",
    "experience_store",
    "c_abi",
    "policy",
    "native",
];

/// Whether a corpus file was found by fuzzing rather than generated here: libFuzzer names the
/// inputs it keeps by the SHA-1 of their contents, 40 lowercase hex digits.
pub fn found(name: &str) -> bool {
    name.len() == 40 && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// One seed file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seed {
    /// The target whose corpus it belongs to.
    pub target: &'static str,
    /// Its file name.
    pub name: String,
    /// Its contents.
    pub bytes: Vec<u8>,
}

/// Every seed, in a stable order.
pub fn all() -> Vec<Seed> {
    let mut seeds = decode_seeds();
    seeds.extend(apply_seeds());
    seeds.extend(apply_fast_seeds());
    seeds.extend(checkpoint_seeds());
    seeds.extend(experience_store_seeds());
    seeds.extend(c_abi_seeds());
    seeds.extend(policy_seeds());
    seeds.extend(native_seeds());
    seeds
}

/// `corpus/` beside this crate's manifest.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Writes every seed under `dir/<target>/` and removes any other file there but the
/// [`found`] inputs.
pub fn write(dir: &Path) -> io::Result<()> {
    let seeds = all();
    for target in TARGETS {
        let sub = dir.join(target);
        fs::create_dir_all(&sub)?;
        for entry in fs::read_dir(&sub)? {
            let entry = entry?;
            let name = entry.file_name();
            let keep = name.to_str().is_some_and(found)
                || seeds.iter().any(|s| s.target == target && *s.name == *name);
            if !keep {
                fs::remove_file(entry.path())?;
            }
        }
    }
    for s in &seeds {
        fs::write(dir.join(s.target).join(&s.name), &s.bytes)?;
    }
    Ok(())
}

/// How `dir` differs from the generated corpus: one line per missing, changed or extra file
/// ([`found`] inputs are not extra).
pub fn stale(dir: &Path) -> io::Result<Vec<String>> {
    let mut seen = BTreeMap::new();
    for target in TARGETS {
        let sub = dir.join(target);
        if !sub.exists() {
            continue;
        }
        for entry in fs::read_dir(&sub)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if !found(&name) {
                seen.insert(format!("{target}/{name}"), fs::read(entry.path())?);
            }
        }
    }
    let mut diff = Vec::new();
    for s in all() {
        let path = format!("{}/{}", s.target, s.name);
        match seen.remove(&path) {
            None => diff.push(format!("missing: {path}")),
            Some(b) if b != s.bytes => diff.push(format!("changed: {path}")),
            Some(_) => {}
        }
    }
    diff.extend(
        seen.into_keys()
            .map(|path| format!("not generated: {path}")),
    );
    Ok(diff)
}

/// `Track(Set { .. })` → `track-set`: a name from the first two levels of a `Debug` form.
fn variant(debug: &str) -> String {
    let end = debug
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '('))
        .unwrap_or(debug.len());
    debug[..end]
        .split('(')
        .filter(|s| !s.is_empty())
        .take(2)
        .collect::<Vec<_>>()
        .join("-")
        .to_ascii_lowercase()
}

fn plain(frame: &Frame<'_>) -> Vec<u8> {
    let mut buf = [0; FRAME_MAX];
    frame.encode(&mut buf).expect("fits FRAME_MAX").to_vec()
}

fn cobs(frame: &Frame<'_>) -> Vec<u8> {
    let mut buf = [0; COBS_FRAME_MAX];
    frame
        .encode_cobs(&mut buf)
        .expect("fits COBS_FRAME_MAX")
        .to_vec()
}

fn snap<S: Storage>(ws: &Workspace<S>) -> Vec<u8> {
    let mut buf = vec![0; evoharness_core::snapshot::max_len(ws.capacities())];
    let n = ws.snapshot(&mut buf).expect("max_len suffices").len();
    buf.truncate(n);
    buf
}

fn decode_seeds() -> Vec<Seed> {
    let items = session::items();
    let mut large = LargeInline::new(decode::config(LARGE)).expect("valid config");
    let played = session::play(&mut large, &items);

    // The first frame of each variant, in session order.
    let mut frames: Vec<(String, Frame<'_>)> = Vec::new();
    let mut add = |name: String, body: Message<'static>| {
        if !frames.iter().any(|(n, _)| *n == name) {
            let seq = u32::try_from(frames.len()).expect("few frames");
            frames.push((name, Frame::new(seq, body)));
        }
    };
    for p in &played {
        match &p.item {
            Item::Observe(e) => add(
                format!("event-{}", variant(&format!("{:?}", e.kind))),
                Message::Event(e.clone()),
            ),
            Item::Apply(a) => add(
                format!("action-{}", variant(&format!("{a:?}"))),
                Message::Action(a.clone()),
            ),
        }
        if let Some(o) = &p.outcome {
            add(
                format!("outcome-{}", variant(&format!("{o:?}"))),
                Message::Outcome(o.clone()),
            );
        }
    }

    let mut seeds: Vec<Seed> = frames
        .iter()
        .map(|(name, f)| Seed {
            target: "decode",
            name: format!("frame-{name}"),
            bytes: plain(f),
        })
        .collect();
    // One COBS-framed frame of each message kind: the first of each.
    for kind in ["action-", "outcome-", "event-"] {
        let (name, f) = frames
            .iter()
            .find(|(n, _)| n.starts_with(kind))
            .expect("the session has every message kind");
        seeds.push(Seed {
            target: "decode",
            name: format!("cobs-{name}"),
            bytes: cobs(f),
        });
    }

    let mut small = SmallInline::new(decode::config(SMALL)).expect("valid config");
    let snapshot = |name: &str, bytes| Seed {
        target: "decode",
        name: format!("snapshot-{name}"),
        bytes,
    };
    seeds.push(snapshot("small-fresh", snap(&small)));
    session::play(&mut small, &items[..items.len() - 1]);
    seeds.push(snapshot("small-session", snap(&small)));
    seeds.push(snapshot("large-finished", snap(&large)));
    let mut large = LargeInline::new(decode::config(LARGE)).expect("valid config");
    session::play(&mut large, &items[..items.len() / 2]);
    seeds.push(snapshot("large-half", snap(&large)));

    // Regressions: snapshots, written field by field as PROTOCOL.md §7 lays out the body, that
    // restore once accepted although they break an invariant of apply.
    let regression = |name: &str, body: &[u8]| Seed {
        target: "decode",
        name: format!("regression-{name}"),
        bytes: decode::frame_snapshot(body),
    };
    let mut buf = [0; 64];
    // `spent` (2) above `budget` (1): found by this target, accepted by `Workspace::restore`.
    let body = postcard::to_slice(
        &(
            (SMALL.0, SMALL.1, SMALL.2),
            evoharness_core::Config::new(SMALL.3, 1),
            (0u32, 2u32, None::<bool>, None::<u16>),
            None::<evoharness_core::EventBuf>,
            (0u16, 0u16, 0u16),
        ),
        &mut buf,
    )
    .expect("fits");
    seeds.push(regression("restore-spent-over-budget", body));
    seeds
}

/// An `apply` input under construction.
struct Script {
    layout: Layout,
    bytes: Vec<u8>,
}

/// The interpreter's event vocabulary (`core::script`): a field byte `b` picks key
/// `KEYS[b % 6]` and value kind `b / 8 % 4`.
#[derive(Clone, Copy)]
enum Val {
    /// `v - 64`.
    Int(u8),
    /// `v & 1`.
    Bool(u8),
    /// `v / 7`.
    Float(u8),
    /// `KEYS[v % 6]` as text.
    Text(u8),
}

impl Script {
    fn new(setup: Setup) -> Self {
        let header = setup.header().expect("a setup some header chooses");
        Self {
            layout: Layout::new(Capacities {
                facts: setup.facts,
                steps: setup.steps,
                lessons: setup.lessons,
                tools: setup.config.tools,
            }),
            bytes: header.to_vec(),
        }
    }

    /// Apply template `i` (op 0).
    fn index(mut self, i: usize) -> Self {
        let i = u16::try_from(i).expect("template indices fit u16");
        self.bytes.push(0);
        self.bytes.extend(i.to_le_bytes());
        self
    }

    fn template(self, t: Template) -> Self {
        let i = self.layout.index(t).expect("the template is in the layout");
        self.index(i)
    }

    /// Every template, in table order.
    fn walk(self) -> Self {
        let n = self.layout.actions();
        (0..n).fold(self, Script::index)
    }

    /// Apply a postcard-encoded action (op 4).
    fn action(mut self, a: &Action<'_>) -> Self {
        let mut buf = [0; FRAME_MAX];
        self.bytes.push(4);
        self.bytes
            .extend_from_slice(postcard::to_slice(a, &mut buf).expect("fits FRAME_MAX"));
        self
    }

    /// Observe an event (op 5): kind 0 result, 1 error, 2 notice; keys index the vocabulary.
    fn event(mut self, kind: u8, source: u8, fields: &[(u8, Val)]) -> Self {
        let n = u8::try_from(fields.len()).expect("at most FIELDS_MAX fields");
        self.bytes.extend([5, kind + 3 * n, source]);
        for &(key, val) in fields {
            let (ty, v) = match val {
                Val::Int(v) => (0, v),
                Val::Bool(v) => (1, v),
                Val::Float(v) => (2, v),
                Val::Text(v) => (3, v),
            };
            let b = (0..=u8::MAX)
                .find(|b| b % 6 == key && b / 8 % 4 == ty)
                .expect("every key and kind has a byte");
            self.bytes.extend([b, v]);
        }
        self
    }

    /// Snapshot, restore, snapshot (op 6).
    fn snapshot(mut self) -> Self {
        self.bytes.push(6);
        self
    }

    /// Start the next task (op 7).
    fn reset(mut self) -> Self {
        self.bytes.push(7);
        self
    }

    fn seed(self, name: &str) -> Seed {
        Seed {
            target: "apply",
            name: format!("script-{name}"),
            bytes: self.bytes,
        }
    }
}

fn setup(facts: u16, steps: u16, lessons: u16, tools: u16, costs: usize, budget: u32) -> Setup {
    let mut config = evoharness_core::Config::new(tools, budget);
    config.costs = crate::apply::COSTS[costs];
    Setup {
        facts,
        steps,
        lessons,
        config,
    }
}

fn apply_seeds() -> Vec<Seed> {
    use Template as T;
    use Val::{Bool, Float, Int, Text};
    let eight = [
        (0, Int(106)),
        (1, Text(1)),
        (2, Bool(1)),
        (3, Float(3)),
        (4, Text(4)),
        (5, Int(0)),
        (0, Int(107)),
        (1, Bool(0)),
    ];
    let mut seeds = vec![
        Script::new(setup(1, 1, 1, 1, 0, 0)).seed("empty"),
        Script::new(setup(1, 1, 1, 1, 0, 254))
            .event(0, 0, &eight[..3])
            .walk()
            .seed("walk-tiny"),
        Script::new(setup(4, 3, 2, 2, 2, 60))
            .event(1, 1, &eight[..5])
            .walk()
            .snapshot()
            .seed("walk-small"),
    ];

    // The session, as postcard actions after an event with the fields it points at.
    let items = session::items();
    let mut s = Script::new(setup(4, 3, 2, 2, 0, 100)).event(0, 1, &eight[..5]);
    for (i, item) in items.iter().enumerate() {
        s = match item {
            Item::Observe(_) => s.event(1, 0, &[(3, Int(64 + 29))]),
            Item::Apply(a) => s.action(a),
        };
        if i % 8 == 7 {
            s = s.snapshot();
        }
    }
    seeds.push(s.snapshot().reset().snapshot().seed("session"));

    // A tight budget under uneven costs: act until refused, start over, finish.
    let act = T::Act {
        tool: 2,
        arg: Some(Source::Field(0)),
    };
    seeds.push(
        Script::new(setup(2, 2, 2, 3, 2, 5))
            .event(0, 2, &eight[..2])
            .template(act)
            .template(T::Track { field: 0 })
            .template(act)
            .template(T::Recall { field: 1 })
            .reset()
            .template(T::Finish { success: false })
            .template(T::Track { field: 0 })
            .seed("budget"),
    );

    // Fill every table from two events with overlapping keys, then evict.
    let mut s = Script::new(setup(12, 6, 4, 8, 0, 254)).event(0, 3, &eight);
    for f in 0..8 {
        s = s
            .template(T::Track { field: f })
            .template(T::Plan { field: f })
            .template(T::NoteField { field: f });
    }
    s = s.event(
        2,
        7,
        &[(0, Int(1)), (2, Bool(0)), (4, Text(2)), (5, Float(200))],
    );
    for f in 0..4 {
        s = s
            .template(T::Track { field: f })
            .template(T::Recall { field: f })
            .template(T::Rate {
                lesson: 0,
                helpful: f % 2 == 0,
            });
    }
    s = s
        .template(T::Step {
            step: 0,
            verb: StepVerb::Start,
        })
        .template(T::Cursor { field: 3 })
        .template(T::Step {
            step: 0,
            verb: StepVerb::Fail,
        })
        .template(T::Step {
            step: 0,
            verb: StepVerb::Retry,
        })
        .template(T::NoteFact { fact: 5 })
        .snapshot()
        .template(T::Compress)
        .template(T::Consolidate)
        .template(T::Retract { fact: 0 })
        .template(T::Confirm { fact: 1 })
        .snapshot()
        .reset()
        .template(T::Recall { field: 0 });
    seeds.push(s.seed("fill-evict"));

    // Every action costs u16::MAX: only the largest budget affords any.
    seeds.push(
        Script::new(setup(3, 3, 3, 2, 3, u32::MAX))
            .event(0, 1, &eight[..2])
            .template(T::Track { field: 1 })
            .template(T::Plan { field: 0 })
            .template(T::Finish { success: true })
            .template(T::Track { field: 0 })
            .snapshot()
            .seed("dear"),
    );

    // Events of every kind and width, snapshotted.
    let mut s = Script::new(setup(2, 2, 2, 4, 1, 10));
    for n in 0..=eight.len() {
        let kind = u8::try_from(n % 3).expect("small");
        s = s.event(kind, kind, &eight[..n]).snapshot();
    }
    seeds.push(s.template(T::Track { field: 7 }).snapshot().seed("events"));

    for s in &seeds {
        debug_assert!(s.bytes.len() >= HEADER, "every script has its header");
    }
    seeds
}

/// `apply_fast` inputs ([`apply_fast::encode`]).
fn apply_fast_seeds() -> Vec<Seed> {
    use apply_fast::Val::{Bool, Float, Int, Text};
    use evoharness_core::obs::Template as T;

    let layout = Layout::new(apply_fast::CAPACITIES);
    let t = |t: T| {
        let i = layout.index(t).expect("the template is in the layout");
        Op::Template(u8::try_from(i).expect("the layout fits a byte"))
    };
    let observe = |kind: u8, source: u8, fields: &[(u8, apply_fast::Val)]| Op::Observe {
        kind,
        source,
        fields: fields.to_vec(),
    };
    let eight = [
        (0, Int(64 + 42)),
        (1, Text(2)),
        (2, Bool(1)),
        (3, Float(3)),
        (4, Int(64 + 7)),
        (5, Text(0)),
        (8 + 1, Bool(0)),
        (8 * 2 + 3, Int(0)),
    ];
    // Configuration bytes: costs `COSTS[b % 4]`, budget `BUDGETS[b / 4 % 4]`.
    let (default_64, default_max, uneven_4, dear_max) = (8, 12, 2, 15);
    let seed = |name: &str, config: u8, ops: &[Op]| Seed {
        target: "apply_fast",
        name: format!("ops-{name}"),
        bytes: apply_fast::encode(config, ops),
    };

    // Every template but the finishing ones, which would end the walk, then finishing.
    let mut ops = vec![observe(0, 1, &eight[..5])];
    ops.extend(
        (0..layout.actions())
            .filter(|&i| !matches!(layout.template(i), Some(T::Finish { .. })))
            .map(|i| Op::Template(u8::try_from(i).expect("the layout fits a byte"))),
    );
    ops.push(t(T::Finish { success: true }));
    let mut seeds = vec![seed("walk", default_max, &ops)];

    // The session, as postcard actions after an event with the fields it points at.
    let mut ops = vec![observe(0, 1, &eight[..5])];
    for item in session::items() {
        ops.push(match item {
            Item::Observe(_) => observe(1, 0, &[(3, Int(64 + 29))]),
            Item::Apply(a) => Op::Action(a),
        });
    }
    ops.extend([Op::Reset, t(T::Recall { field: 0 })]);
    seeds.push(seed("session", default_64, &ops));

    // A tight budget under uneven costs: act until refused, start over, finish.
    let act = T::Act {
        tool: 2,
        arg: Some(evoharness_core::obs::Source::Field(0)),
    };
    seeds.push(seed(
        "budget",
        uneven_4,
        &[
            observe(0, 2, &eight[..2]),
            t(act),
            t(T::Track { field: 0 }),
            t(act),
            t(T::Recall { field: 1 }),
            Op::Reset,
            t(T::Finish { success: false }),
            t(T::Track { field: 0 }),
        ],
    ));

    // Fill every table from two events with overlapping keys, then evict.
    let mut ops = vec![observe(0, 3, &eight)];
    for f in 0..8 {
        ops.extend([
            t(T::Track { field: f }),
            t(T::Plan { field: f }),
            t(T::NoteField { field: f }),
        ]);
    }
    ops.push(observe(2, 1, &[(0, Int(1)), (2, Bool(0)), (4, Text(2))]));
    for f in 0..3 {
        ops.extend([
            t(T::Track { field: f }),
            t(T::Recall { field: f }),
            t(T::Rate {
                lesson: 0,
                helpful: f % 2 == 0,
            }),
        ]);
    }
    ops.extend([
        t(T::Step {
            step: 0,
            verb: StepVerb::Start,
        }),
        t(T::Cursor { field: 2 }),
        t(T::Step {
            step: 0,
            verb: StepVerb::Fail,
        }),
        t(T::Step {
            step: 0,
            verb: StepVerb::Retry,
        }),
        t(T::NoteFact { fact: 2 }),
        t(T::Compress),
        t(T::Consolidate),
        t(T::Retract { fact: 0 }),
        t(T::Confirm { fact: 1 }),
        Op::Reset,
        t(T::Recall { field: 0 }),
    ]);
    seeds.push(seed("fill-evict", default_max, &ops));

    // Every action costs u16::MAX: only the largest budget affords any.
    seeds.push(seed(
        "dear",
        dear_max,
        &[
            observe(0, 1, &eight[..2]),
            t(T::Track { field: 1 }),
            t(T::Plan { field: 0 }),
            t(T::Finish { success: true }),
            t(T::Track { field: 0 }),
        ],
    ));
    seeds
}

/// `checkpoint` inputs: suite agents' checkpoints ([`checkpoint::seed`]).
fn checkpoint_seeds() -> Vec<Seed> {
    use checkpoint::Setup;
    use evoharness_suite::baselines::LeanHarness;
    use evoharness_suite::{Scenario, TaskKind};

    // Horizon 120: 48 items, a whole number of the records world's shuffle blocks (see the
    // ignored test in `checkpoint` for what 20 items do).
    let mut seeds = Vec::new();
    for kind in TaskKind::ALL {
        let setup = Setup {
            kind,
            horizon: 120,
            scenario: Scenario::V1,
        };
        for (at, steps) in [
            ("start", 0),
            ("step-10", 10),
            ("step-40", 40),
            ("end", u64::MAX),
        ] {
            seeds.push(Seed {
                target: "checkpoint",
                name: format!("ckpt-{kind}-120-{at}"),
                bytes: checkpoint::seed(setup, LeanHarness, steps),
            });
        }
    }
    let setup = Setup {
        kind: TaskKind::Migration,
        horizon: 400,
        scenario: Scenario::V1,
    };
    seeds.push(Seed {
        target: "checkpoint",
        name: "ckpt-migration-400-step-150".into(),
        bytes: checkpoint::seed(setup, LeanHarness, 150),
    });
    // v2: a resume point with per-item attempts, mid-task (rejected items, back-offs).
    for kind in TaskKind::ALL {
        let setup = Setup {
            kind,
            horizon: 120,
            scenario: Scenario::V2,
        };
        seeds.push(Seed {
            target: "checkpoint",
            name: format!("ckpt-{kind}-120-step-60-v2"),
            bytes: checkpoint::seed(setup, LeanHarness, 60),
        });
    }
    // Decodes; the world refuses its resume point.
    let mut bytes = vec![Setup::from_byte(0).byte().expect("chosen by a byte")];
    bytes.extend(checkpoint::with_resume_point(b"not a resume point"));
    seeds.push(Seed {
        target: "checkpoint",
        name: "refused-resume-point-garbage".into(),
        bytes,
    });
    seeds
}

/// `c_abi` inputs: scripts of C calls ([`c_abi::Writer`]).
fn c_abi_seeds() -> Vec<Seed> {
    use c_abi::Writer;
    use evoharness_core::wire::{Frame, Message};
    use evoharness_core::{Action, EventKind, ValueRef};

    let encode = |m: Message<'_>| {
        let mut buf = [0; evoharness_core::wire::FRAME_MAX];
        Frame::new(1, m).encode(&mut buf).expect("encodes").to_vec()
    };
    let finish = encode(Message::Action(Action::Finish { success: true }));
    let event = encode(Message::Event(
        evoharness_core::Event::new(EventKind::Result, 0)
            .with("rows", ValueRef::Int(40))
            .expect("a field"),
    ));
    let seed = |name: &str, w: &Writer| Seed {
        target: "c_abi",
        name: name.into(),
        bytes: w.bytes.clone(),
    };
    let mut seeds = Vec::new();
    let mut w = Writer::default();
    w.workspace_new()
        .observe(0, &event)
        .apply(0, &finish)
        .snapshot(0)
        .restore_own(0, &[5, 17])
        .workspace_with(4, 3, 2, 3)
        .workspace_with(0, 3, 2, 1)
        .layout(3, 8, 4, 8);
    seeds.push(seed("workspace-frames", &w));
    let mut w = Writer::default();
    w.load_fixture()
        .agent_new(0, 3)
        .register(
            0,
            0,
            &Writer::answer(&[
                (b"rows", 1, b""),
                (b"table", 3, b"orders"),
                (b"raw", 4, b"\xff"),
            ]),
        )
        .register(0, 2, &Writer::answer(&[(b"ok", 0, b"")]))
        .step(0)
        .run(0, 12)
        .checkpoint_and_resume(0)
        .read_agent(0, 0, 0)
        .read_agent(0, 0, 3)
        .tool_name(0, 2);
    seeds.push(seed("agent-session", &w));
    let mut w = Writer::default();
    w.load_fixture()
        .resume_hostile(0, b"EVHA\x01\x00garbage")
        .load_mutated(20_000, 0x40)
        .agent_new(0, 1)
        .run(0, 5);
    seeds.push(seed("policy-resume-hostile", &w));
    seeds
}

/// `experience_store` inputs: valid stores, so that mutations start inside the format.
fn experience_store_seeds() -> Vec<Seed> {
    use evoharness_core::Value;
    use evoharness_runtime::ExperienceStore;

    let store = |budget: usize, lessons: &[(Value, i64)]| {
        let mut s = ExperienceStore::for_replica(budget, budget as u64).expect("a budget");
        for (i, (t, r)) in lessons.iter().enumerate() {
            s.note(t.clone(), Value::Int(*r));
            if i % 2 == 0 {
                s.rate(t, i % 4 == 0);
            }
            if i % 3 == 0 {
                s.count_use(t);
            }
        }
        s
    };
    let kinds = [
        (Value::Bool(true), 1),
        (Value::Int(-429), 2),
        (Value::Float(0.5), 3),
        (Value::Float(f64::NAN), 4),
        (Value::text("E429").expect("short"), 5),
        (Value::bytes(&[0, 255]).expect("short"), 6),
        (Value::text("E4").expect("short"), -1),
    ];
    let all = store(16, &kinds);
    let full = store(3, &kinds);
    let merged =
        ExperienceStore::merge_all([&all, &full, &store(8, &kinds[2..])]).expect("three stores");
    [
        (
            "store-empty",
            ExperienceStore::for_replica(1, 0).expect("a budget"),
        ),
        ("store-every-kind", all),
        ("store-full", full),
        ("store-merged", merged),
    ]
    .into_iter()
    .map(|(name, s)| Seed {
        target: "experience_store",
        name: name.into(),
        bytes: s.to_bytes(),
    })
    .collect()
}

/// `policy` inputs: the policy files of the bad-input corpus (`tests/bad_inputs/policy/`).
/// The fuzz scripts add the runtime's ONNX fixtures and the shipped policies as read-only
/// seed folders: copies of them here would add hundreds of kilobytes.
fn policy_seeds() -> Vec<Seed> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/bad_inputs/policy");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("tests/bad_inputs/policy")
        .map(|e| e.expect("readable").path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| Seed {
            target: "policy",
            name: format!("bad-{}", p.file_stem().expect("a name").to_string_lossy()),
            bytes: fs::read(&p).expect("readable"),
        })
        .collect()
}

/// `native` inputs: a mode byte (odd: the target fixes the length and checksum) and a native
/// policy file, converted from the runtime's small fixtures; a small int8 one; a truncated one.
fn native_seeds() -> Vec<Seed> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/tests/fixtures");
    let ehp = |name: &str| {
        let onnx = fs::read(root.join(name)).expect("a fixture");
        evoharness_runtime::native::convert(&onnx, name).expect("a convertible fixture")
    };
    let (mlp, recurrent) = (ehp("mlp.onnx"), ehp("recurrent.onnx"));
    // A small int8 product (the fixtures are f32): obs (5) → int8 dense (5 → 3), ReLU.
    let int8 = {
        use evoharness_native::{Act, Buf, Interface, Op, Operand, Writer};
        let mut w = Writer::new();
        let q = w.constant_q8(&[12, -7, 127, -128, 3, 0, 45, 45, -45, 1, 2, 3, -100, 50, 25]);
        let scales = w.constant(&[0.01, 0.02, 0.005]);
        let bias = w.constant(&[0.1, -0.2, 0.0]);
        w.op(Op::DenseQ8 {
            src: Operand {
                buf: Buf::Obs,
                off: 0,
                len: 5,
            },
            dst: 0,
            n_in: 5,
            n_out: 3,
            w: q,
            scales,
            bias: Some(bias),
            act: Act::Relu,
        });
        w.scratch = 3;
        w.interface = Interface {
            inputs: [5, 3, 0],
            outputs: [(0, 3), (0, 0), (0, 0)],
        };
        w.finish().expect("a small file")
    };
    let with = |mode: u8, bytes: &[u8]| [&[mode][..], bytes].concat();
    [
        ("mlp", with(0, &mlp)),
        ("recurrent-fixed", with(1, &recurrent)),
        ("int8-fixed", with(1, &int8)),
        ("bad-truncated", with(0, &mlp[..mlp.len() / 3])),
    ]
    .into_iter()
    .map(|(name, bytes)| Seed {
        target: "native",
        name: name.into(),
        bytes,
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checked_in_corpus_is_what_this_generates() {
        let diff = stale(&corpus_dir()).expect("corpus readable");
        assert!(
            diff.is_empty(),
            "the seed corpus is stale (run `cargo run --example seeds` in fuzz/):\n{}",
            diff.join("\n")
        );
    }

    #[test]
    fn every_seed_passes_its_target_and_reaches_what_it_was_made_for() {
        let (mut applied, mut fast) = (0, 0);
        // Regression seeds have their own test.
        for s in all()
            .into_iter()
            .filter(|s| !s.name.starts_with("regression-"))
        {
            match s.target {
                "decode" => {
                    let r = decode::check(&s.bytes);
                    let want = if s.name.starts_with("frame-") {
                        r.frame && r.take
                    } else if s.name.starts_with("cobs-") {
                        r.cobs
                    } else {
                        r.restored == 2
                    };
                    assert!(want, "{} reached only {r:?}", s.name);
                }
                "apply" => {
                    let st = crate::apply::check(&s.bytes);
                    if s.name != "script-empty" {
                        assert!(st.applied + st.refused > 0, "{}: {st:?}", s.name);
                    }
                    applied += st.applied;
                }
                "apply_fast" => {
                    assert!(s.bytes.len() <= apply_fast::INPUT_MAX, "{} is cut", s.name);
                    let st = apply_fast::check(&s.bytes);
                    assert!(
                        st.applied > 0 && st.applied + st.refused >= 4 && st.events > 0,
                        "{}: {st:?}",
                        s.name
                    );
                    fast += st.applied;
                }
                "c_abi" => c_abi::check(&s.bytes),
                "experience_store" => {
                    let r = crate::experience_store::check(&s.bytes);
                    assert!(r.plain && r.reframed.is_none(), "{}: {r:?}", s.name);
                }
                "policy" => {
                    use crate::policy::{Load, check};
                    assert_eq!(check(&s.bytes), Load::Refused, "{}", s.name);
                }
                "native" => {
                    let ran = evoharness_native::fuzzing::exercise(&s.bytes);
                    assert_eq!(ran, !s.name.starts_with("bad-"), "{}", s.name);
                }
                _ => {
                    use checkpoint::Resume::{Refused, Resumed};
                    let r = checkpoint::check(&s.bytes);
                    let ok = match r.plain {
                        Refused => s.name.starts_with("refused-"),
                        // A finished task takes no step; any other takes at least one.
                        Resumed { steps } => (steps == 0) == s.name.ends_with("-end"),
                        _ => false,
                    };
                    assert!(ok && r.reframed.is_none(), "{}: {r:?}", s.name);
                }
            }
        }
        assert!(applied > 50, "the scripts apply little: {applied}");
        assert!(fast > 80, "the apply_fast seeds apply little: {fast}");
    }

    /// The inputs fuzzing found and kept ([`found`]): each passes its target. A failure here
    /// is a bug a longer run found, reproduced.
    #[test]
    fn found_inputs_pass_their_targets() {
        let mut n = 0;
        for target in TARGETS {
            let Ok(dir) = fs::read_dir(corpus_dir().join(target)) else {
                continue;
            };
            for entry in dir {
                let entry = entry.expect("corpus readable");
                if !entry.file_name().to_str().is_some_and(found) {
                    continue;
                }
                let bytes = fs::read(entry.path()).expect("corpus readable");
                eprintln!("{target}/{}", entry.file_name().to_string_lossy());
                run(target, &bytes);
                n += 1;
            }
        }
        eprintln!("{n} found inputs");
    }

    #[test]
    fn found_names_are_libfuzzers() {
        assert!(found("da39a3ee5e6b4b0d3255bfef95601890afd80709"));
        assert!(!found("DA39A3EE5E6B4B0D3255BFEF95601890AFD80709"));
        assert!(!found("script-empty"));
        assert!(all().iter().all(|s| !found(&s.name)));
    }

    /// Inputs a target once crashed on: each names the bug in its file name and in
    /// `decode_seeds`. A failure here is that bug back (or not yet fixed in core).
    #[test]
    fn regressions_stay_fixed() {
        for s in all().iter().filter(|s| s.name.starts_with("regression-")) {
            eprintln!("{}/{}", s.target, s.name);
            run(s.target, &s.bytes);
        }
    }

    /// Runs `bytes` through `target`'s check.
    fn run(target: &str, bytes: &[u8]) {
        match target {
            "decode" => drop(decode::check(bytes)),
            "apply" => drop(crate::apply::check(bytes)),
            "apply_fast" => drop(apply_fast::check(bytes)),
            "checkpoint" => drop(checkpoint::check(bytes)),
            "experience_store" => drop(crate::experience_store::check(bytes)),
            "c_abi" => c_abi::check(bytes),
            "policy" => drop(crate::policy::check(bytes)),
            "native" => drop(evoharness_native::fuzzing::exercise(bytes)),
            _ => panic!("no target {target}"),
        }
    }

    #[test]
    fn decode_seeds_cover_every_message_variant() {
        let mut names: Vec<_> = all()
            .into_iter()
            .filter(|s| s.target == "decode")
            .map(|s| s.name)
            .collect();
        names.sort();
        let want = [
            "cobs-action-act",
            "cobs-event-result",
            "cobs-outcome-ok-call",
            "frame-action-act",
            "frame-action-commit-plan",
            "frame-action-commit-step",
            "frame-action-finish",
            "frame-action-note-add",
            "frame-action-note-consolidate",
            "frame-action-note-rate",
            "frame-action-recall",
            "frame-action-track-compress",
            "frame-action-track-confirm",
            "frame-action-track-retract",
            "frame-action-track-revise",
            "frame-action-track-set",
            "frame-event-error",
            "frame-event-result",
            "frame-outcome-err-badcount",
            "frame-outcome-err-illegaltransition",
            "frame-outcome-ok-call",
            "frame-outcome-ok-committed",
            "frame-outcome-ok-compressed",
            "frame-outcome-ok-consolidated",
            "frame-outcome-ok-finished",
            "frame-outcome-ok-noted",
            "frame-outcome-ok-rated",
            "frame-outcome-ok-recalled",
            "frame-outcome-ok-tracked",
            "regression-restore-spent-over-budget",
            "snapshot-large-finished",
            "snapshot-large-half",
            "snapshot-small-fresh",
            "snapshot-small-session",
        ];
        assert_eq!(names, want);
    }

    #[test]
    fn variant_names() {
        assert_eq!(variant("Track(Set { key: Lit(\"a\") })"), "track-set");
        assert_eq!(variant("Act { tool: 1 }"), "act");
        assert_eq!(variant("Err(BadCount)"), "err-badcount");
        assert_eq!(
            variant("Ok(Recalled([Recalled { slot: 0 }]))"),
            "ok-recalled"
        );
    }
}
