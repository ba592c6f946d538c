//! The legal-action mask: which templates `apply` would accept now, computed block by block,
//! and the reference definition it is tested against.

use crate::action::Verb;
use crate::value::Value;
use crate::workspace::{Storage, Workspace};

use super::template::FIELDS;
use super::{Layout, ObsError, STEP_TEMPLATE_VERBS};

impl Layout {
    /// Writes the legal-action mask: `out[i]` is 1 exactly when `apply(resolve(i))` would
    /// succeed now, else 0; returns how many are legal. `out` has [`Layout::actions`] elements.
    ///
    /// This computes each block's legality from a few facts about the state (budget per verb,
    /// event fields, table fills, step statuses) instead of resolving and checking every
    /// template; [`Layout::mask_reference`] is the definition it is tested against.
    pub fn mask<S: Storage>(&self, ws: &Workspace<S>, out: &mut [u8]) -> Result<usize, ObsError> {
        self.check_mask_len(ws, out)?;
        out.fill(0);
        if ws.finished().is_some() {
            return Ok(0);
        }
        let costs = ws.config().costs;
        let can = |v: Verb| u32::from(costs.of(v)) <= ws.remaining();
        let nf = ws.event().map_or(0, |e| e.fields.len());
        let facts = ws.belief().facts();
        let nfa = facts.len();
        let (cap_f, cap_s, cap_l) = (
            usize::from(self.caps.facts),
            usize::from(self.caps.steps),
            usize::from(self.caps.lessons),
        );
        let lessons = ws.experience().lessons();
        let exp_full = lessons.len() == ws.experience().capacity();
        let mut w = MaskWriter {
            out,
            i: 0,
            legal: 0,
        };

        // finish
        w.run(2, can(Verb::Finish));
        // act: per tool, [no argument][fact slots][event fields]
        for _ in 0..self.t() {
            let ok = can(Verb::Act);
            w.run(1, ok);
            w.prefix(cap_f, nfa, ok);
            w.prefix(FIELDS, nf, ok);
        }
        // track field j: set if the key is new (needs room), revise if known
        let track = can(Verb::Track);
        let full = ws.belief().table.is_full();
        for j in 0..FIELDS {
            let ok = track
                && ws
                    .event()
                    .and_then(|e| e.fields.get(j))
                    .is_some_and(|f| !full || ws.belief().get(&f.key).is_some());
            w.run(1, ok);
        }
        w.prefix(cap_f, nfa, track); // confirm
        w.prefix(cap_f, nfa, track); // retract
        w.run(1, track); // compress
        // commit
        let commit = can(Verb::Commit);
        w.prefix(FIELDS, nf, commit && !ws.progress().table.is_full()); // plan
        let steps = ws.progress().steps();
        for si in 0..cap_s {
            for verb in STEP_TEMPLATE_VERBS {
                let ok = commit
                    && steps
                        .get(si)
                        .is_some_and(|st| st.status.after(verb).is_some());
                w.run(1, ok);
            }
        }
        w.prefix(FIELDS, nf, commit && ws.progress().active().is_some()); // cursor
        w.prefix(FIELDS, nf, can(Verb::Recall)); // recall
        // note: trigger from a fact or a field, remedy = the last act; needs room unless it merges
        let note = can(Verb::Note);
        let room = |v: &Value| !exp_full || ws.experience().find(v).is_some();
        let noting = note && ws.last_act().is_some();
        for i in 0..cap_f {
            w.run(1, noting && facts.get(i).is_some_and(|f| room(&f.value)));
        }
        for j in 0..FIELDS {
            let field = ws.event().and_then(|e| e.fields.get(j));
            w.run(1, noting && field.is_some_and(|f| room(&f.value)));
        }
        for l in 0..cap_l {
            w.run(2, note && l < lessons.len()); // rate helpful, harmful
        }
        w.run(1, note); // consolidate
        debug_assert_eq!(w.i, self.actions());
        Ok(w.legal)
    }

    /// The definition of the mask: resolve every template and check its action. Slower than
    /// [`Layout::mask`] by an order of magnitude, and equal to it (tested).
    pub fn mask_reference<S: Storage>(
        &self,
        ws: &Workspace<S>,
        out: &mut [u8],
    ) -> Result<usize, ObsError> {
        self.check_mask_len(ws, out)?;
        let mut legal = 0;
        for (i, m) in out.iter_mut().enumerate() {
            let ok = self.resolve(ws, i).and_then(|a| ws.check(&a)).is_ok();
            *m = u8::from(ok);
            legal += usize::from(ok);
        }
        Ok(legal)
    }

    fn check_mask_len<S: Storage>(&self, ws: &Workspace<S>, out: &[u8]) -> Result<(), ObsError> {
        self.fits(ws)?;
        if out.len() != self.actions() {
            return Err(ObsError::BufferLength {
                expected: self.actions(),
                got: out.len(),
            });
        }
        Ok(())
    }
}

/// Writes mask entries block by block (the buffer starts zeroed).
struct MaskWriter<'a> {
    out: &'a mut [u8],
    i: usize,
    legal: usize,
}

impl MaskWriter<'_> {
    /// `n` entries, all `ok`.
    #[inline]
    fn run(&mut self, n: usize, ok: bool) {
        if ok {
            // Most runs are one template: a store, not a call to `memset`.
            if n == 1 {
                self.out[self.i] = 1;
            } else {
                self.out[self.i..self.i + n].fill(1);
            }
            self.legal += n;
        }
        self.i += n;
    }

    /// `n` entries of which the first `present` are `ok` and the rest are not.
    #[inline]
    fn prefix(&mut self, n: usize, present: usize, ok: bool) {
        let p = present.min(n);
        if ok {
            self.out[self.i..self.i + p].fill(1);
            self.legal += p;
        }
        self.i += n;
    }
}
