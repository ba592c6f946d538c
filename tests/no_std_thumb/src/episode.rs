//! A scripted episode that the Cortex-M image runs under `qemu-system-arm` and the host runs
//! natively: both must print the same [`Digest`], or one of them computed something else.
//!
//! The script is this module's code and its constants ([`SEED`], [`TASKS`], [`BUDGET`]): a
//! seeded stand-in for a policy drives a workspace through [`TASKS`] tasks of a simulated world.
//! Every step it
//!
//! - receives the world's event as a COBS frame (encoded by the "host" side of the script,
//!   decoded in place by the "device" side) and observes it;
//! - writes the policy's view (observation and legal-action mask), picks a legal template at
//!   random (seeded; `finish` only once the task has run [`TASK_STEPS`] steps, and then
//!   always), resolves and applies it; every fifth step the host sends an action as a
//!   plain frame instead, some of which the workspace refuses;
//! - sends the outcome (or the refusal) back as a COBS frame; a tool call gets the world's
//!   answer, a result or an error event, as the next event;
//! - every [`SNAPSHOT_EVERY`] steps snapshots the workspace, restores the bytes into a second
//!   one, checks that it snapshots to the same bytes, and goes on with the restored one.
//!
//! The checksum is FNV-1a (64 bits) over everything that crossed the device's boundary or was
//! computed for the policy: frames in, frames out, every observation (the `f32`s' bits),
//! every mask, every snapshot and the final one. It pins the encoder's floating point, the wire
//! format and the snapshot format across the two machines, not only the control flow.
//!
//! Nothing here allocates; the buffers and both workspaces are on the caller's stack (see the
//! capacity sets, [`suite`] and [`large`]).

use core::fmt;

use evoharness_core::obs::{Layout, Template};
use evoharness_core::wire::{self, Frame, Message};
use evoharness_core::{
    Action, Arg, Blob, Commit, Event, EventKind, Key, KeyArg, Note, Outcome, StepRef, StepVerb,
    Storage, Text, Track, ValueRef, Workspace,
};

/// The script's seed: the stand-in policy's picks and the world's answers follow from it.
pub const SEED: u64 = 0x0e70_4a55_e55e_ed01;
/// Tasks in the episode; the workspace's experience carries over from one to the next. A task
/// ends when the stand-in policy finishes it after [`TASK_STEPS`] steps, or when nothing is
/// legal any more (the budget is spent).
pub const TASKS: u32 = 3;
/// Each task's step budget.
pub const BUDGET: u32 = 150;
/// A task's length in steps: then the stand-in policy finishes it.
pub const TASK_STEPS: u32 = 120;
/// Snapshot round trip every this many steps.
pub const SNAPSHOT_EVERY: u32 = 16;
/// The host sends an action as a plain frame every this many steps.
const LITERAL_EVERY: u32 = 5;

/// `_changed_script` (a private feature) changes one field of one event in the middle of the
/// episode (the first event at or after [`CHANGED_STEP`]) by one: `check.sh` builds the host's run with it and requires a different checksum,
/// which shows that the comparison can fail.
const CHANGE: i64 = if cfg!(feature = "_changed_script") {
    1
} else {
    0
};
/// Where `_changed_script` changes an event.
pub const CHANGED_STEP: u32 = 200;

/// What an episode did, and the checksum over what it computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Digest {
    /// FNV-1a 64 over frames in and out, observations, masks and snapshots.
    pub checksum: u64,
    /// Tasks finished (by a `finish` action, a spent budget or no legal action).
    pub tasks: u32,
    /// Steps over all tasks.
    pub steps: u32,
    /// Actions applied.
    pub applied: u32,
    /// Actions the workspace refused (sent by the host as plain frames).
    pub refused: u32,
    /// Tool calls the world answered.
    pub calls: u32,
    /// Snapshot round trips.
    pub snapshots: u32,
    /// Frame bytes received.
    pub bytes_in: u32,
    /// Frame bytes sent.
    pub bytes_out: u32,
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "checksum {:016x}, {} tasks, {} steps, {} applied, {} refused, {} calls, {} snapshots, {} bytes in, {} bytes out",
            self.checksum,
            self.tasks,
            self.steps,
            self.applied,
            self.refused,
            self.calls,
            self.snapshots,
            self.bytes_in,
            self.bytes_out
        )
    }
}

/// A call into core that should not have failed, and the step where it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The step (over all tasks) where it happened.
    pub step: u32,
    /// What failed.
    pub what: &'static str,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step {}: {}", self.step, self.what)
    }
}

/// A capacity set's `run`.
pub type Run = fn() -> Result<Digest, Failure>;

/// The caller's buffers, sized from the capacities (see [`suite`] and [`large`]).
#[derive(Debug)]
pub struct Buffers<'b> {
    /// [`Layout::obs_len`] floats.
    pub obs: &'b mut [f32],
    /// [`Layout::actions`] bytes.
    pub mask: &'b mut [u8],
    /// [`evoharness_core::snapshot::max_len`] bytes.
    pub snap: &'b mut [u8],
    /// The same again, for the restored workspace's snapshot.
    pub snap_again: &'b mut [u8],
}

/// FNV-1a, 64 bits.
struct Fnv(u64);

impl Fnv {
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// splitmix64: the stand-in policy's and the world's dice.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform enough in `0..n` for a script (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const WORDS: [&str; 6] = ["cursor", "token", "schema", "owner", "status", "E42"];

/// Runs the episode on workspace `live`, restoring snapshots into `spare`; both must be new
/// workspaces with the same capacities and a budget of [`BUDGET`].
pub fn run<S: Storage>(
    live: &mut Workspace<S>,
    spare: &mut Workspace<S>,
    buf: &mut Buffers<'_>,
) -> Result<Digest, Failure> {
    let layout = Layout::new(live.capacities());
    let mut d = Digest::default();
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    let mut rng = Rng(SEED);
    let mut seq: u32 = 0;
    let fail = |step, what| Failure { step, what };

    // The world's first word in each task is a notice.
    let mut next = Incoming::Notice;
    let mut changed = false;
    for _ in 0..TASKS {
        let mut task_steps = 0;
        loop {
            let step = d.steps;
            // Frame in: the event, COBS-framed by the host, decoded in place by the device.
            let mut rx = [0u8; wire::COBS_FRAME_MAX];
            let change = if step >= CHANGED_STEP && !changed {
                CHANGE
            } else {
                0
            };
            if let Some(n) = next.encode(&mut rng, step, seq, change, &mut rx) {
                changed |= step >= CHANGED_STEP;
                let rx = &mut rx[..n];
                h.bytes(rx);
                d.bytes_in += n as u32;
                let frame = Frame::decode_cobs(rx).map_err(|_| fail(step, "decoding an event"))?;
                let Message::Event(ev) = &frame.body else {
                    return Err(fail(step, "an event frame decoded as something else"));
                };
                live.observe(ev);
            }
            next = Incoming::Nothing;

            // The policy's view.
            layout
                .encode(live, buf.obs)
                .map_err(|_| fail(step, "encoding the observation"))?;
            let legal = layout
                .mask(live, buf.mask)
                .map_err(|_| fail(step, "writing the mask"))?;
            for x in buf.obs.iter() {
                h.bytes(&x.to_bits().to_le_bytes());
            }
            h.bytes(buf.mask);
            if legal == 0 || live.finished().is_some() {
                break;
            }

            // The action: a literal one from the host as a plain frame, or a legal template.
            let mut pkt = [0u8; wire::FRAME_MAX];
            let literal = step % LITERAL_EVERY == LITERAL_EVERY - 1;
            let result = if literal {
                let action = host_action(&mut rng);
                let n = Frame::new(seq, Message::Action(action))
                    .encode(&mut pkt)
                    .map_err(|_| fail(step, "encoding an action"))?
                    .len();
                h.bytes(&pkt[..n]);
                d.bytes_in += n as u32;
                let frame =
                    Frame::decode(&pkt[..n]).map_err(|_| fail(step, "decoding an action"))?;
                let Message::Action(action) = &frame.body else {
                    return Err(fail(step, "an action frame decoded as something else"));
                };
                live.apply(action)
            } else {
                let index = if task_steps >= TASK_STEPS {
                    // Time to finish, claiming success or not.
                    let finish = Template::Finish {
                        success: rng.below(2) == 1,
                    };
                    layout
                        .index(finish)
                        .filter(|&i| buf.mask[i] == 1)
                        .ok_or(fail(step, "finish is not legal"))?
                } else {
                    // Any legal template but finish.
                    let choosable = |&(i, &m): &(usize, &u8)| {
                        m == 1 && !matches!(layout.template(i), Some(Template::Finish { .. }))
                    };
                    let n = buf.mask.iter().enumerate().filter(choosable).count();
                    if n == 0 {
                        return Err(fail(step, "nothing legal but finish"));
                    }
                    let pick = rng.below(n);
                    buf.mask
                        .iter()
                        .enumerate()
                        .filter(choosable)
                        .nth(pick)
                        .map(|(i, _)| i)
                        .ok_or(fail(step, "the mask changed under the pick"))?
                };
                let action = layout
                    .resolve(live, index)
                    .map_err(|_| fail(step, "resolving a legal template"))?;
                let r = live.apply(&action);
                if r.is_err() {
                    return Err(fail(step, "a template the mask allowed was refused"));
                }
                r
            };
            match &result {
                Ok(Outcome::Call(call)) => {
                    d.calls += 1;
                    next = Incoming::Answer {
                        tool: call.tool,
                        args: call.args.len(),
                    };
                }
                Ok(_) => {}
                Err(_) => d.refused += 1,
            }
            if result.is_ok() {
                d.applied += 1;
            }
            // Frame out: the outcome or the refusal.
            let mut tx = [0u8; wire::COBS_FRAME_MAX];
            let out = Frame::new(seq, Message::Outcome(result))
                .encode_cobs(&mut tx)
                .map_err(|_| fail(step, "encoding an outcome"))?;
            h.bytes(out);
            d.bytes_out += out.len() as u32;
            seq = seq.wrapping_add(1);
            d.steps += 1;
            task_steps += 1;

            // Snapshot, restore into the spare workspace, and go on with the restored one.
            if d.steps % SNAPSHOT_EVERY == 0 {
                let n = live
                    .snapshot(buf.snap)
                    .map_err(|_| fail(step, "taking a snapshot"))?
                    .len();
                h.bytes(&buf.snap[..n]);
                spare
                    .restore(&buf.snap[..n])
                    .map_err(|_| fail(step, "restoring a snapshot"))?;
                let m = spare
                    .snapshot(buf.snap_again)
                    .map_err(|_| fail(step, "snapshotting the restored workspace"))?
                    .len();
                if buf.snap[..n] != buf.snap_again[..m] {
                    return Err(fail(step, "the restored workspace snapshots differently"));
                }
                core::mem::swap(live, spare);
                d.snapshots += 1;
            }
        }
        d.tasks += 1;
        live.reset_task();
        next = Incoming::Notice;
    }
    let n = live
        .snapshot(buf.snap)
        .map_err(|_| fail(d.steps, "taking the final snapshot"))?
        .len();
    h.bytes(&buf.snap[..n]);
    d.checksum = h.0;
    Ok(d)
}

/// What the world says next.
enum Incoming {
    Nothing,
    /// A task starts, or a setting changed.
    Notice,
    /// The answer to a tool call.
    Answer {
        tool: u16,
        args: usize,
    },
}

impl Incoming {
    /// The host's side: writes the event as a COBS frame into `out`, returns its length.
    fn encode(
        &self,
        rng: &mut Rng,
        step: u32,
        seq: u32,
        change: i64,
        out: &mut [u8],
    ) -> Option<usize> {
        let (kind, source) = match *self {
            Incoming::Nothing => return None,
            Incoming::Notice => (EventKind::Notice, 0),
            Incoming::Answer { tool, .. } if rng.below(5) == 0 => (EventKind::Error, tool),
            Incoming::Answer { tool, .. } => (EventKind::Result, tool),
        };
        let args = match *self {
            Incoming::Answer { args, .. } => args,
            _ => 0,
        };
        let token = rng.next().to_le_bytes();
        let fields = [
            (
                "cursor",
                ValueRef::Int(i64::from(step) * 7 + args as i64 + change),
            ),
            ("status", text(WORDS[rng.below(WORDS.len())])),
            ("rate", ValueRef::Float(rng.below(1000) as f64 / 8.0)),
            ("token", ValueRef::Bytes(Blob::new(&token[..4]).ok()?)),
            ("done", ValueRef::Bool(rng.below(2) == 1)),
            ("schema", text(WORDS[2 + rng.below(2)])),
        ];
        let n = 1 + rng.below(fields.len());
        let mut ev = Event::new(kind, source);
        for (key, value) in fields.into_iter().take(n) {
            ev.push(Key::new(key).ok()?, value).ok()?;
        }
        Frame::new(seq, Message::Event(ev))
            .encode_cobs(out)
            .ok()
            .map(|b| b.len())
    }
}

fn text(s: &'static str) -> ValueRef<'static> {
    // Every word in WORDS is shorter than TEXT_MAX.
    ValueRef::Text(Text::new(s).unwrap_or_else(|_| unreachable!()))
}

/// An action the host sends literally; some of them are refused (no active step, an unknown
/// key, a lesson that is not there).
fn host_action(rng: &mut Rng) -> Action<'static> {
    let key = |s: &'static str| Key::new(s).unwrap_or_else(|_| unreachable!());
    let word = WORDS[rng.below(WORDS.len())];
    match rng.below(8) {
        0 => Action::Track(Track::Set {
            key: KeyArg::Lit(key(word)),
            value: Arg::Lit(ValueRef::Int(rng.below(100) as i64)),
            confidence: 0.875,
        }),
        1 => Action::Commit(Commit::Plan {
            label: Arg::Lit(text(word)),
        }),
        2 => Action::Note(Note::Add {
            trigger: Arg::Lit(text(word)),
            remedy: Arg::Lit(ValueRef::Int(rng.below(8) as i64)),
        }),
        3 => Action::Recall {
            query: Arg::Lit(text(word)),
            k: 2,
        },
        4 => Action::Track(Track::Compress { keep: 2 }),
        5 => Action::Commit(Commit::Step {
            step: StepRef::Active,
            verb: StepVerb::Complete,
            value: None,
        }),
        6 => Action::Note(Note::Rate {
            lesson: rng.below(4) as u16,
            helpful: rng.below(2) == 1,
        }),
        _ => Action::Track(Track::Retract {
            key: KeyArg::Lit(key(word)),
        }),
    }
}

/// Defines a capacity set: a module whose `run` puts both workspaces and every buffer on the
/// stack, sized at compile time, and runs the episode.
macro_rules! capacity_set {
    ($(#[$doc:meta])* $name:ident: $facts:literal facts, $steps:literal steps, $lessons:literal lessons, $tools:literal tools) => {
        $(#[$doc])*
        pub mod $name {
            use evoharness_core::obs::Layout;
            use evoharness_core::{snapshot, Capacities, Config, InlineWorkspace};

            use super::{Buffers, Digest, Failure, BUDGET};

            /// The capacities.
            pub const CAPS: Capacities = Capacities {
                facts: $facts,
                steps: $steps,
                lessons: $lessons,
                tools: $tools,
            };
            const LAYOUT: Layout = Layout::new(CAPS);
            const SNAPSHOT_MAX: usize = snapshot::max_len(CAPS);

            /// Runs the episode; see the [module docs](super).
            #[inline(never)]
            pub fn run() -> Result<Digest, Failure> {
                let config = Config::new($tools, BUDGET);
                let new = || {
                    InlineWorkspace::<$facts, $steps, $lessons>::new(config).map_err(|_| Failure {
                        step: 0,
                        what: "making a workspace",
                    })
                };
                let (mut live, mut spare) = (new()?, new()?);
                let mut obs = [0f32; LAYOUT.obs_len()];
                let mut mask = [0u8; LAYOUT.actions()];
                let mut snap = [0u8; SNAPSHOT_MAX];
                let mut snap_again = [0u8; SNAPSHOT_MAX];
                super::run(
                    &mut live,
                    &mut spare,
                    &mut Buffers {
                        obs: &mut obs,
                        mask: &mut mask,
                        snap: &mut snap,
                        snap_again: &mut snap_again,
                    },
                )
            }

            /// One line that names the set, for the device's and the host's output.
            pub const NAME: &str = concat!(
                stringify!($name), " (", $facts, " facts, ", $steps, " steps, ", $lessons,
                " lessons, ", $tools, " tools)"
            );
        }
    };
}

capacity_set!(
    /// The task suite's capacities, which the shipped policy was trained for.
    suite: 16 facts, 8 steps, 4 lessons, 8 tools
);
capacity_set!(
    /// Four times the facts, steps and lessons, twice the tools.
    large: 64 facts, 32 steps, 16 lessons, 16 tools
);
