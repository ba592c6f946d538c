//! The observation encoder: a workspace (and its current event) into the layout's floats.

use crate::TEXT_MAX;
use crate::belief::Provenance;
use crate::event::EventKind;
use crate::progress::Status;
use crate::value::{FNV_OFFSET, Value, ValueKind, fnv1a};
use crate::workspace::{Storage, Workspace};

use super::layout::{HARNESS_VERBS, STREAK_BUCKETS};
use super::{Layout, ObsError, Segment};
use crate::action::Verb;

impl Layout {
    /// Writes the observation into `out` ([`Layout::obs_len`] floats). See `PROTOCOL.md`.
    pub fn encode<S: Storage>(&self, ws: &Workspace<S>, out: &mut [f32]) -> Result<(), ObsError> {
        self.fits(ws)?;
        if out.len() != self.obs_len() {
            return Err(ObsError::BufferLength {
                expected: self.obs_len(),
                got: out.len(),
            });
        }
        out.fill(0.0);
        let seg = self.segments();
        let t = self.t();
        let cfg = ws.config();
        let ratio = |a: usize, b: usize| {
            if b == 0 {
                0.0
            } else {
                (a as f64 / b as f64) as f32
            }
        };
        let ev = ws.event();

        // global
        let mut w = Writer::new(out, &seg[0], 0);
        let budget = cfg.budget as usize;
        w.put(ratio(ws.remaining() as usize, budget));
        w.put(ratio(ws.spent() as usize, budget));
        w.put(ratio(ws.belief().len(), ws.belief().capacity()));
        w.put(ratio(ws.progress().len(), ws.progress().capacity()));
        w.put(ratio(ws.experience().len(), ws.experience().capacity()));
        w.put(ratio(
            ws.progress().count(Status::Done),
            ws.progress().len(),
        ));
        w.flag(ws.progress().active().is_some());
        w.flag(ws.last_act().is_some());
        w.one_hot(ws.last_act().map(usize::from), t);
        w.done();

        // event head and fields
        if let Some(e) = ev {
            let mut w = Writer::new(out, &seg[1], 0);
            w.flag(true);
            w.one_hot(Some(e.kind as usize), EventKind::COUNT);
            w.one_hot(Some(usize::from(e.source)), t);
            w.done();
            for (j, fb) in e.fields.iter().enumerate() {
                let mut w = Writer::new(out, &seg[2], j);
                w.flag(true);
                w.put(hash01(fnv1a(FNV_OFFSET, fb.key.as_bytes())));
                w.value(&fb.value);
                let known = ws.belief().get(&fb.key);
                w.flag(known.is_some());
                w.flag(known.is_some_and(|(_, k)| !k.value.same(&fb.value)));
                w.done();
            }
        }

        // facts
        for (i, fact) in ws.belief().facts().iter().enumerate() {
            let mut w = Writer::new(out, &seg[3], i);
            w.flag(true);
            w.put(hash01(fnv1a(FNV_OFFSET, fact.key.as_bytes())));
            w.value(&fact.value);
            w.put(fact.confidence);
            let s = fact.staleness(ws.clock()) as f64;
            w.put((s / (s + 32.0)) as f32);
            w.one_hot(Some(fact.provenance as usize), Provenance::COUNT);
            let seen = ev.and_then(|e| e.get(&fact.key));
            w.flag(seen.is_some());
            w.flag(seen.is_some_and(|v| !v.same(&fact.value)));
            w.done();
        }

        // steps
        let in_event = |v: &Value| ev.is_some_and(|e| e.fields.iter().any(|f| f.value.same(v)));
        for (i, step) in ws.progress().steps().iter().enumerate() {
            let mut w = Writer::new(out, &seg[4], i);
            w.flag(true);
            w.put(hash01(step.label.fnv1a()));
            w.one_hot(Some(step.status as usize), Status::COUNT);
            w.put(squash(u32::from(step.attempts), 2));
            w.flag(step.cursor.is_some());
            w.put(step.cursor.as_ref().map_or(0.0, scalar));
            w.flag(step.last_error.is_some());
            w.flag(in_event(&step.label));
            w.done();
        }

        // lessons
        for (i, l) in ws.experience().lessons().iter().enumerate() {
            let mut w = Writer::new(out, &seg[5], i);
            w.flag(true);
            w.put(hash01(l.trigger.fnv1a()));
            w.put(scalar(&l.remedy));
            w.put(hash01(l.remedy.fnv1a()));
            w.put(l.usefulness_f32());
            w.put(squash(u32::from(l.helpful), 4));
            w.put(squash(u32::from(l.harmful), 4));
            w.put(squash(u32::from(l.uses), 4));
            w.flag(l.recalled);
            w.flag(in_event(&l.trigger));
            let tool = match l.remedy {
                Value::Int(x) if x >= 0 && (x as u64) < t as u64 => Some(x as usize),
                _ => None,
            };
            w.one_hot(tool, t);
            w.done();
        }

        // harness (structured-v2)
        if seg[6].rows == 1 {
            let mut w = Writer::new(out, &seg[6], 0);
            let c = cfg.costs;
            for cost in [c.act, c.track, c.commit, c.recall, c.note, c.finish] {
                w.put(squash(u32::from(cost), 4));
            }
            let streak = usize::from(ws.harness_streak()).min(STREAK_BUCKETS - 1);
            w.one_hot(Some(streak), STREAK_BUCKETS);
            let harness = match ws.last_verb() {
                Some(Verb::Track) => Some(0),
                Some(Verb::Commit) => Some(1),
                Some(Verb::Recall) => Some(2),
                Some(Verb::Note) => Some(3),
                _ => None,
            };
            w.one_hot(harness, HARNESS_VERBS);
            w.done();
        }
        Ok(())
    }
}

/// A hash mapped to `[0, 1)`: its top 24 bits over 2^24 (exact in `f32`).
pub fn hash01(h: u32) -> f32 {
    (h >> 8) as f32 / 16_777_216.0
}

/// `x / (x + k)`, computed in `f64` and rounded once.
fn squash(x: u32, k: u32) -> f32 {
    let x = f64::from(x);
    (x / (x + f64::from(k))) as f32
}

/// The scalar feature of a value; see `PROTOCOL.md`.
pub fn scalar(v: &Value) -> f32 {
    match v {
        Value::Bool(b) => f32::from(u8::from(*b)),
        Value::Int(x) => {
            // sign(x) * log2(1 + |x|) / 64, with log2 linear between powers of two.
            let u = x.unsigned_abs().saturating_add(1);
            let b = 63 - u.leading_zeros();
            let base = 1u64 << b;
            let frac = (u - base) as f64 / base as f64;
            let mag = (f64::from(b) + frac) / 64.0;
            (if *x < 0 { -mag } else { mag }) as f32
        }
        Value::Float(x) if x.is_nan() => 0.0,
        Value::Float(x) if x.is_infinite() => x.signum() as f32,
        Value::Float(x) => (x / (1.0 + x.abs())) as f32,
        Value::Text(s) => (s.len() as f64 / TEXT_MAX as f64) as f32,
        Value::Bytes(b) => (b.len() as f64 / TEXT_MAX as f64) as f32,
    }
}

/// Writes one row; every row's writes are bounds-checked against the row's width in debug
/// builds (and the slice bounds always), so a feature list and the encoder cannot drift apart.
struct Writer<'a> {
    out: &'a mut [f32],
    i: usize,
    end: usize,
}

impl<'a> Writer<'a> {
    #[inline]
    fn new(out: &'a mut [f32], seg: &Segment, row: usize) -> Self {
        let i = seg.offset + row * seg.width;
        Self {
            out,
            i,
            end: i + seg.width,
        }
    }

    #[inline]
    fn put(&mut self, x: f32) {
        self.out[self.i] = x;
        self.i += 1;
    }

    #[inline]
    fn flag(&mut self, b: bool) {
        self.put(f32::from(u8::from(b)));
    }

    /// `n` floats, 1 at `hot` (if it is below `n`), else 0.
    #[inline]
    fn one_hot(&mut self, hot: Option<usize>, n: usize) {
        if let Some(h) = hot.filter(|&h| h < n) {
            self.out[self.i + h] = 1.0;
        }
        self.i += n;
    }

    #[inline]
    fn done(self) {
        debug_assert_eq!(
            self.i, self.end,
            "row written with a width other than its features'"
        );
    }

    #[inline]
    fn value(&mut self, v: &Value) {
        self.one_hot(Some(v.kind() as usize), ValueKind::COUNT);
        self.put(scalar(v));
        self.put(hash01(v.fnv1a()));
    }
}
