//! A tiny interpreter that turns arbitrary bytes into workspace operations and checks the
//! workspace's invariants after each one. Fuzz targets, property tests and the allocation test
//! all drive the workspace through it, so the generator is ordinary, tested code and each fuzz
//! target is a few lines (feature `_script`; not a public API).
//!
//! Each operation starts with one byte `op`:
//!
//! | `op % 8` | operation |
//! | --- | --- |
//! | 0..=3 | apply template `u16 (next two bytes, LE) % actions` (checked against the mask) |
//! | 4 | apply an action decoded with postcard from the following bytes (skips one byte if none decodes) |
//! | 5 | observe an event built from the following bytes (keys from a small vocabulary, so they collide) |
//! | 6 | snapshot, restore, snapshot again: the bytes must be identical |
//! | 7 | start the next task (`reset_task`) |

use core::fmt;

use crate::FIELDS_MAX;
use crate::action::Action;
use crate::event::{EventBuf, EventKind, FieldBuf};
use crate::obs::Layout;
use crate::value::{KeyBuf, Value, copy_key};
use crate::workspace::Storage;
use crate::workspace::Workspace;

/// Caller-provided buffers, so that running a script allocates nothing.
#[derive(Debug)]
pub struct Scratch<'b> {
    /// At least [`crate::snapshot::max_len`] bytes.
    pub snap_a: &'b mut [u8],
    /// At least [`crate::snapshot::max_len`] bytes.
    pub snap_b: &'b mut [u8],
    /// [`Layout::actions`] bytes.
    pub mask: &'b mut [u8],
    /// [`Layout::obs_len`] floats.
    pub obs: &'b mut [f32],
}

/// An invariant that did not hold: a bug in this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A refused action changed the workspace.
    FailedActionChanged,
    /// The mask said one thing and `apply` did another.
    MaskDisagrees,
    /// A table is over capacity, a key or trigger is duplicated, or a confidence is out of
    /// range.
    State,
    /// More budget was spent than there is.
    Budget,
    /// Snapshot, restore, snapshot did not give the same bytes, or failed.
    SnapshotRoundTrip,
    /// The observation could not be written or holds a non-finite number.
    Observation,
    /// The workspace's text is longer than `text::max_len`, or a template's text does not parse
    /// back to it.
    Text,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Counts the bytes of a rendering without keeping them.
struct TextLen(usize);

impl fmt::Write for TextLen {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

/// What a script did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Actions applied successfully.
    pub applied: u32,
    /// Actions refused.
    pub refused: u32,
    /// Snapshot round trips.
    pub snapshots: u32,
}

const KEYS: [&str; 6] = ["cursor", "token", "schema", "id", "status", "owner"];

/// Runs `input` against `ws`, checking every invariant; see the [module docs](self).
pub fn run<S: Storage>(
    ws: &mut Workspace<S>,
    input: &[u8],
    s: &mut Scratch<'_>,
) -> Result<Stats, Violation> {
    let layout = Layout::new(ws.capacities());
    let mut stats = Stats::default();
    let mut rest = input;
    while let Some((&op, tail)) = rest.split_first() {
        rest = tail;
        match op % 8 {
            0..=3 => {
                let (lo, hi) = (take(&mut rest), take(&mut rest));
                let i = usize::from(u16::from_le_bytes([lo, hi])) % layout.actions();
                layout
                    .mask(ws, s.mask)
                    .map_err(|_| Violation::Observation)?;
                check_mask(ws, &layout, s.mask)?;
                let t = layout.template(i).ok_or(Violation::Text)?;
                let mut text = heapless::String::<{ crate::text::ACTION_MAX }>::new();
                crate::text::action(t, &mut text).map_err(|_| Violation::Text)?;
                if crate::text::parse(&layout, &text) != Some(i) {
                    return Err(Violation::Text);
                }
                let ok = match layout.resolve(ws, i) {
                    Ok(a) => apply_checked(ws, &a, s, &mut stats)?,
                    Err(_) => false,
                };
                if ok != (s.mask[i] == 1) {
                    return Err(Violation::MaskDisagrees);
                }
            }
            4 => match postcard::take_from_bytes::<Action<'_>>(rest) {
                Ok((a, tail)) => {
                    rest = tail;
                    apply_checked(ws, &a, s, &mut stats)?;
                }
                Err(_) => {
                    take(&mut rest);
                }
            },
            5 => ws.observe_owned(event(&mut rest)),
            6 => {
                let n = ws
                    .snapshot(s.snap_a)
                    .map_err(|_| Violation::SnapshotRoundTrip)?
                    .len();
                ws.restore(&s.snap_a[..n])
                    .map_err(|_| Violation::SnapshotRoundTrip)?;
                let m = ws
                    .snapshot(s.snap_b)
                    .map_err(|_| Violation::SnapshotRoundTrip)?
                    .len();
                if s.snap_a[..n] != s.snap_b[..m] {
                    return Err(Violation::SnapshotRoundTrip);
                }
                stats.snapshots += 1;
            }
            _ => ws.reset_task(),
        }
        check_state(ws)?;
        layout
            .encode(ws, s.obs)
            .map_err(|_| Violation::Observation)?;
        if s.obs.iter().any(|x| !x.is_finite()) {
            return Err(Violation::Observation);
        }
        let mut len = TextLen(0);
        let n = crate::text::render(ws, &mut len).map_err(|_| Violation::Text)?;
        if n != len.0 || n > crate::text::max_len(ws.capacities()) {
            return Err(Violation::Text);
        }
    }
    Ok(stats)
}

/// The fast mask equals its definition, entry by entry (without a second buffer).
fn check_mask<S: Storage>(
    ws: &Workspace<S>,
    layout: &Layout,
    mask: &[u8],
) -> Result<(), Violation> {
    for (i, &m) in mask.iter().enumerate() {
        let ok = layout.resolve(ws, i).and_then(|a| ws.check(&a)).is_ok();
        if ok != (m == 1) {
            return Err(Violation::MaskDisagrees);
        }
    }
    Ok(())
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

fn apply_checked<S: Storage>(
    ws: &mut Workspace<S>,
    a: &Action<'_>,
    s: &mut Scratch<'_>,
    stats: &mut Stats,
) -> Result<bool, Violation> {
    let before = ws
        .snapshot(s.snap_a)
        .map_err(|_| Violation::SnapshotRoundTrip)?
        .len();
    let checked = ws.check(a);
    let applied = ws.apply(a);
    if checked.is_ok() != applied.is_ok() {
        return Err(Violation::MaskDisagrees);
    }
    if applied.is_ok() {
        stats.applied += 1;
        return Ok(true);
    }
    stats.refused += 1;
    let after = ws
        .snapshot(s.snap_b)
        .map_err(|_| Violation::SnapshotRoundTrip)?
        .len();
    if s.snap_a[..before] != s.snap_b[..after] {
        return Err(Violation::FailedActionChanged);
    }
    Ok(false)
}

fn event(rest: &mut &[u8]) -> EventBuf {
    let head = take(rest);
    let kind = match head % 3 {
        0 => EventKind::Result,
        1 => EventKind::Error,
        _ => EventKind::Notice,
    };
    let source = u16::from(take(rest) % 8);
    let n = usize::from(head / 3) % (FIELDS_MAX + 1);
    let mut fields = heapless::Vec::new();
    for _ in 0..n {
        let b = take(rest);
        let key: KeyBuf = copy_key(KEYS[usize::from(b) % KEYS.len()]);
        let v = take(rest);
        let value = match b / 8 % 4 {
            0 => Value::Int(i64::from(v) - 64),
            1 => Value::Bool(v & 1 == 1),
            2 => Value::Float(f64::from(v) / 7.0),
            _ => Value::text(KEYS[usize::from(v) % KEYS.len()]).unwrap_or_default(),
        };
        let _ = fields.push(FieldBuf { key, value });
    }
    EventBuf {
        kind,
        source,
        fields,
    }
}

/// Checks the invariants `apply` keeps.
pub fn check_state<S: Storage>(ws: &Workspace<S>) -> Result<(), Violation> {
    let facts = ws.belief().facts();
    let lessons = ws.experience().lessons();
    let ok = facts.len() <= ws.belief().capacity()
        && ws.progress().len() <= ws.progress().capacity()
        && lessons.len() <= ws.experience().capacity()
        && facts.iter().all(|f| (0.0..=1.0).contains(&f.confidence))
        && facts
            .iter()
            .enumerate()
            .all(|(i, f)| facts[..i].iter().all(|g| g.key != f.key))
        && lessons
            .iter()
            .enumerate()
            .all(|(i, l)| lessons[..i].iter().all(|m| !m.trigger.same(&l.trigger)));
    if !ok {
        return Err(Violation::State);
    }
    if ws.spent() > ws.config().budget {
        return Err(Violation::Budget);
    }
    Ok(())
}
