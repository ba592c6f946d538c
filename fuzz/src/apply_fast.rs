//! The `apply_fast` target: one small workspace, many actions per input, cheap checks.
//!
//! [`apply`](crate::apply) proves the most per action (it re-derives the whole mask and
//! snapshots the workspace around every action) and runs about a thousand inputs a second.
//! This target keeps the checks that cost about as much as the action itself, so that it
//! reaches many more states per second:
//!
//! - `check` and `apply` agree, error for error;
//! - for a template, the fast mask's entry agrees with applying it (the mask is written again
//!   only after the state changed: a refusal changes nothing, as checked);
//! - a refused action changes nothing: its scalars (clock, budget spent, finished, last act,
//!   active step) and table lengths are compared on every refusal, and one refusal in
//!   [`COPY_EVERY`] is compared against a whole copy of the workspace, field by field (or by
//!   snapshot bytes where a NaN makes a field unequal to itself);
//! - after every operation that changed the state, the tables are within capacity and free of
//!   duplicates, the confidences are in range and the budget is not overspent
//!   (`script::check_state`);
//! - at the end of the input, the observation is finite, and snapshot, restore, snapshot
//!   gives identical bytes.
//!
//! The workspace is fixed and inline ([`Fast`]: 4 facts, 3 steps, 2 lessons, 3 tools): no
//! table is allocated. An input is read up to [`INPUT_MAX`] bytes. The first byte chooses
//! the costs and the budget ([`config`]); the rest is a list of operations, each a byte `op`
//! and its operands:
//!
//! | `op % 8` | operation |
//! | --- | --- |
//! | 0..=4 | apply template `next byte % actions` |
//! | 5 | observe an event: a byte for the kind (`% 3`) and field count (`/ 3 % 9`), a byte for the source, then per field a byte for the key (`KEYS[b % 8 % 6]`) and value kind (`b / 8 % 4`) and a value byte (see [`Val`]) |
//! | 6 | apply an action postcard-decoded from the bytes that follow (one byte is skipped when none decodes) |
//! | 7 | start the next task (`reset_task`) |
//!
//! [`Op`] writes such inputs, for the seed corpus.

use evoharness_core::obs::Layout;
use evoharness_core::script;
use evoharness_core::wire::FRAME_MAX;
use evoharness_core::{
    Action, Capacities, Config, EventBuf, EventKind, FIELDS_MAX, FieldBuf, InlineWorkspace, KeyBuf,
    Value, heapless, snapshot,
};

use crate::apply::COSTS;

/// The workspace of every input.
pub type Fast = InlineWorkspace<4, 3, 2>;

/// How much of an input is read: about 150 operations, enough to fill and evict every table
/// of [`Fast`] many times over. libFuzzer grows inputs to 4 KB; past this, a longer input
/// would cost more per run without reaching states a shorter one does not.
pub const INPUT_MAX: usize = 320;

/// Its tool count.
pub const TOOLS: u16 = 3;

/// Its capacities.
pub const CAPACITIES: Capacities = Capacities {
    facts: 4,
    steps: 3,
    lessons: 2,
    tools: TOOLS,
};

/// The budgets the first byte chooses from: spent within a few actions, within a few dozen,
/// or never.
pub const BUDGETS: [u32; 4] = [4, 16, 64, u32::MAX];

/// The event keys: few, so that fields collide and facts are revised.
pub const KEYS: [&str; 6] = ["cursor", "token", "schema", "id", "status", "owner"];

const SNAPSHOT_MAX: usize = snapshot::max_len(CAPACITIES);

/// One refusal in this many is checked against a whole copy of the workspace; the others
/// against its scalars and table lengths ([`fields`]). Copying the workspace costs more than
/// the rest of a refused action together, and `apply` checks every refusal in full.
pub const COPY_EVERY: u32 = 8;

/// The configuration byte `b` chooses: costs `COSTS[b % 4]`, budget `BUDGETS[b / 4 % 4]`.
pub fn config(b: u8) -> Config {
    Config {
        tools: TOOLS,
        budget: BUDGETS[usize::from(b / 4) % BUDGETS.len()],
        costs: COSTS[usize::from(b) % COSTS.len()],
    }
}

/// What an input did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Actions applied.
    pub applied: u32,
    /// Actions refused.
    pub refused: u32,
    /// Events observed.
    pub events: u32,
    /// Tasks started after the first.
    pub tasks: u32,
}

/// Runs one fuzz input (its first [`INPUT_MAX`] bytes); panics, naming the invariant, if one
/// breaks.
pub fn check(data: &[u8]) -> Stats {
    let data = &data[..data.len().min(INPUT_MAX)];
    let (&head, mut rest) = data.split_first().unwrap_or((&0, &[]));
    let mut ws = Fast::new(config(head)).expect("a valid configuration");
    let layout = Layout::new(CAPACITIES);
    let mut mask = [0u8; 256];
    let mask = &mut mask[..layout.actions()];
    let mut stats = Stats::default();
    // Whether the state changed since the mask was written. A refusal changes nothing (that
    // is checked), so the mask and the state checks carry over until something is applied.
    let mut changed = true;
    while let Some((&op, tail)) = rest.split_first() {
        rest = tail;
        changed |= match op % 8 {
            0..=4 => {
                let i = usize::from(take(&mut rest)) % layout.actions();
                if changed {
                    layout.mask(&ws, mask).expect("the layout fits");
                    changed = false;
                }
                let applied = match layout.resolve(&ws, i) {
                    Ok(a) => apply(&mut ws, &a, &mut stats),
                    Err(_) => false,
                };
                assert_eq!(
                    applied,
                    mask[i] == 1,
                    "the mask disagrees with apply on template {i} ({:?})",
                    layout.template(i)
                );
                applied
            }
            5 => {
                ws.observe_owned(event(&mut rest));
                stats.events += 1;
                true
            }
            6 => match postcard::take_from_bytes::<Action<'_>>(rest) {
                Ok((a, tail)) => {
                    rest = tail;
                    apply(&mut ws, &a, &mut stats)
                }
                Err(_) => {
                    take(&mut rest);
                    false
                }
            },
            _ => {
                ws.reset_task();
                stats.tasks += 1;
                true
            }
        };
        if changed && let Err(v) = script::check_state(&ws) {
            panic!("invariant violated: {v}");
        }
    }
    finally(&mut ws, &layout);
    stats
}

/// Applies `a`, checking it against `check`, and that a refusal changes nothing; returns
/// whether it was applied.
fn apply(ws: &mut Fast, a: &Action<'_>, stats: &mut Stats) -> bool {
    let checked = ws.check(a);
    if checked.is_ok() {
        let applied = ws.apply(a);
        assert!(
            applied.is_ok(),
            "check accepted {a:?}, apply refused it: {applied:?}"
        );
        stats.applied += 1;
        return true;
    }
    // The fields every refusal is checked on; a whole copy, one in [`COPY_EVERY`] refusals.
    let copy = stats.refused.is_multiple_of(COPY_EVERY).then(|| ws.clone());
    let before = fields(ws);
    let applied = ws.apply(a).map(|_| ());
    assert_eq!(applied, checked, "check and apply disagree on {a:?}");
    assert!(
        fields(ws) == before && copy.is_none_or(|c| same(&c, ws)),
        "a refused action ({a:?}: {checked:?}) changed the workspace"
    );
    stats.refused += 1;
    false
}

/// The scalars of a workspace and the lengths of its tables: cheap to take and compare.
#[expect(clippy::type_complexity, reason = "a tuple compared as a whole, once")]
fn fields(
    w: &Fast,
) -> (
    Config,
    u32,
    u32,
    Option<bool>,
    Option<u16>,
    Option<usize>,
    [usize; 4],
) {
    (
        *w.config(),
        w.clock(),
        w.spent(),
        w.finished(),
        w.last_act(),
        w.progress().active(),
        [
            w.belief().facts().len(),
            w.progress().steps().len(),
            w.experience().lessons().len(),
            w.event().map_or(usize::MAX, |e| e.fields.len()),
        ],
    )
}

/// Whether two workspaces hold the same state: field by field (a copy is cheap, a snapshot is
/// not), and by their snapshot bytes where the fields differ, since a NaN in a fact makes a
/// state unequal to itself.
fn same(a: &Fast, b: &Fast) -> bool {
    let equal = fields(a) == fields(b)
        && a.event() == b.event()
        && a.belief().facts() == b.belief().facts()
        && a.progress().steps() == b.progress().steps()
        && a.experience().lessons() == b.experience().lessons();
    equal || snapshot_of(a) == snapshot_of(b)
}

fn snapshot_of(ws: &Fast) -> Vec<u8> {
    let mut buf = [0; SNAPSHOT_MAX];
    let n = ws.snapshot(&mut buf).expect("max_len suffices").len();
    buf[..n].to_vec()
}

/// The checks too dear for every operation, once at the end. (The whole mask against its
/// definition would cost more than a short input's operations together: `apply` checks that
/// after every operation, and here every template applied checks its own entry.)
fn finally(ws: &mut Fast, layout: &Layout) {
    let mut obs = vec![0.0; layout.obs_len()];
    layout.encode(ws, &mut obs).expect("the layout fits");
    assert!(
        obs.iter().all(|x| x.is_finite()),
        "the observation holds a non-finite number"
    );
    let mut a = [0; SNAPSHOT_MAX];
    let mut b = [0; SNAPSHOT_MAX];
    let n = ws.snapshot(&mut a).expect("max_len suffices").len();
    if let Err(e) = ws.restore(&a[..n]) {
        panic!("a snapshot does not restore: {e:?}");
    }
    let m = ws.snapshot(&mut b).expect("max_len suffices").len();
    assert!(
        a[..n] == b[..m],
        "snapshot, restore, snapshot gave other bytes"
    );
}

fn take(rest: &mut &[u8]) -> u8 {
    match rest.split_first() {
        Some((&b, tail)) => {
            *rest = tail;
            b
        }
        None => 0,
    }
}

/// An event from the bytes at the front of `rest`; see [`Op::Observe`].
fn event(rest: &mut &[u8]) -> EventBuf {
    let head = take(rest);
    let kind = match head % 3 {
        0 => EventKind::Result,
        1 => EventKind::Error,
        _ => EventKind::Notice,
    };
    let source = u16::from(take(rest)) % (TOOLS + 1);
    let n = usize::from(head / 3) % (FIELDS_MAX + 1);
    let mut fields = heapless::Vec::new();
    for _ in 0..n {
        let (k, v) = (take(rest), take(rest));
        let value = match k / 8 % 4 {
            0 => Value::Int(i64::from(v) - 64),
            1 => Value::Bool(v & 1 == 1),
            2 => Value::Float(f64::from(v) / 7.0),
            _ => Value::text(KEYS[usize::from(v) % KEYS.len()]).expect("a short text"),
        };
        let key = KeyBuf::try_from(KEYS[usize::from(k % 8) % KEYS.len()]).expect("a short key");
        // At most FIELDS_MAX: the push cannot fail.
        let _ = fields.push(FieldBuf { key, value });
    }
    EventBuf {
        kind,
        source,
        fields,
    }
}

/// A value of an event field, as [`Op::Observe`] writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Val {
    /// `v - 64`.
    Int(u8),
    /// `v & 1 == 1`.
    Bool(u8),
    /// `v / 7`.
    Float(u8),
    /// `KEYS[v % 6]` as text.
    Text(u8),
}

/// One operation of an input, to write seeds with.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Apply this template.
    Template(u8),
    /// Observe an event: kind 0 result, 1 error, 2 notice; from `source`; fields named
    /// `KEYS[key % 8 % 6]` (up to [`FIELDS_MAX`]).
    Observe {
        /// 0, 1 or 2.
        kind: u8,
        /// The tool (or other source) it came from.
        source: u8,
        /// Key index and value.
        fields: Vec<(u8, Val)>,
    },
    /// Apply this action (postcard-encoded).
    Action(Action<'static>),
    /// Start the next task.
    Reset,
}

/// Writes an input: the configuration byte, then `ops`.
pub fn encode(config: u8, ops: &[Op]) -> Vec<u8> {
    let mut out = vec![config];
    for op in ops {
        match op {
            Op::Template(i) => out.extend([0, *i]),
            Op::Observe {
                kind,
                source,
                fields,
            } => {
                let n = u8::try_from(fields.len())
                    .ok()
                    .filter(|&n| usize::from(n) <= FIELDS_MAX)
                    .expect("at most FIELDS_MAX fields");
                out.extend([5, kind % 3 + 3 * n, *source]);
                for &(key, val) in fields {
                    let key = key % 8;
                    let (ty, v) = match val {
                        Val::Int(v) => (0, v),
                        Val::Bool(v) => (1, v),
                        Val::Float(v) => (2, v),
                        Val::Text(v) => (3, v),
                    };
                    out.extend([key + 8 * ty, v]);
                }
            }
            Op::Action(a) => {
                let mut buf = [0; FRAME_MAX];
                out.push(6);
                out.extend_from_slice(postcard::to_slice(a, &mut buf).expect("fits FRAME_MAX"));
            }
            Op::Reset => out.push(7),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use evoharness_core::obs::Template;

    #[test]
    fn the_layout_fits_a_byte_and_the_mask_buffer() {
        let n = Layout::new(CAPACITIES).actions();
        assert!(
            n <= 256,
            "{n} templates: one operand byte no longer reaches them all"
        );
    }

    #[test]
    fn written_inputs_do_what_they_say() {
        let layout = Layout::new(CAPACITIES);
        let idx = |t| u8::try_from(layout.index(t).expect("in the layout")).expect("small");
        let observe = Op::Observe {
            kind: 0,
            source: 1,
            fields: vec![(0, Val::Int(70)), (3, Val::Text(1)), (4, Val::Bool(1))],
        };
        let ops = [
            observe.clone(),
            Op::Template(idx(Template::Track { field: 0 })),
            Op::Template(idx(Template::Track { field: 1 })),
            Op::Action(Action::Finish { success: true }),
            Op::Template(idx(Template::Track { field: 2 })),
            Op::Reset,
            observe,
        ];
        // Default costs, budget 64.
        let st = check(&encode(8, &ops));
        assert_eq!(
            st,
            Stats {
                applied: 3,
                refused: 1,
                events: 2,
                tasks: 1
            }
        );
        let e = event(&mut &encode(0, &ops[..1])[2..]);
        assert_eq!(e.kind, EventKind::Result);
        assert_eq!(e.source, 1);
        assert_eq!(e.get("cursor"), Some(&Value::Int(6)));
        assert_eq!(e.get("id"), Some(&Value::text("token").unwrap()));
        assert_eq!(e.get("status"), Some(&Value::Bool(true)));
    }

    #[test]
    fn every_configuration_byte_runs() {
        for b in 0..=u8::MAX {
            let c = config(b);
            assert_eq!(c.tools, TOOLS);
            check(&[b, 0, 0, 0, 1, 5, 4, 1, 0, 1, 7, 6, 6]);
        }
    }
}
