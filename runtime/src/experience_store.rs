//! The experience store: a library of lessons behind a workspace's Experience table, that
//! outlives tasks and agents, persists in its own file, and merges with the stores of other
//! agents.
//!
//! A workspace's Experience table holds a few lessons (its *working set*: what the policy sees).
//! An [`ExperienceStore`] holds many more, indexed by trigger in a hash table. An agent that
//! owns one ([`Agent::set_experience_store`]) writes every `note` through to it and, before a
//! `recall`, brings the store's best matches for the query into the working set
//! ([`Workspace::load_lesson`]); the recall then runs on the working set as ever.
//!
//! Lessons are core's [`Lesson`]s and follow core's rules, through core's own functions:
//!
//! - **note** merges into the lesson with the same trigger (the same remedy: `noted + 1`; a
//!   different remedy replaces it and resets its ratings), or adds a lesson;
//! - **rate** counts a lesson helpful or harmful; **count_use** counts a recall of it;
//! - **matches** ranks lessons as recall does ([`Value::match_rank`], then
//!   [`Lesson::recall_cmp`]), ties broken by the trigger's encoding;
//! - the **budget** (most lessons, fixed at construction) is kept by evicting the
//!   least-frequently-useful lesson: consolidation's order ([`Lesson::evict_cmp`]), ties broken
//!   by the trigger's encoding (the smaller goes first).
//!
//! The store has its own clock, which each note, rate and use advances; it dates lessons
//! (`last_use`) for the eviction order. Triggers are compared by their canonical encoding
//! ([`Value::encode`]), so floats are equal exactly when their bits are.
//!
//! The table is allocated once, at construction, with room for twice the budget: a table at
//! its budget then never needs to grow (hashbrown rehashes in place while at most half full),
//! so note, rate, use and matches never allocate. Values are inline, fixed-size.
//!
//! # Merging
//!
//! [`ExperienceStore::merge_all`] combines the stores of a fleet into one, deterministically
//! and independently of their order: per trigger, the lessons of all stores are grouped by
//! remedy and their counters summed (`helpful`, `harmful`, `uses`, `noted`, saturating at
//! `u16::MAX`; `last_use` the latest); the remedy with the best usefulness wins (recall's order,
//! then more notes, then the smaller encoding), with its summed counters. The budget is the
//! largest of the stores' budgets, the clock the latest of their clocks, and the budget is then
//! kept by evicting once, at the end. [`ExperienceStore::merge`] is `merge_all` of two: it is
//! commutative (`a.merge(b)` and `b.merge(a)` give the same bytes), but a chain of pairwise
//! merges is not associative (a remedy that lost one merge is gone for the next, and budgets
//! evict in between), so combine a fleet with one `merge_all`. Merging is counting: the same
//! store merged twice counts its lessons twice.
//!
//! # File format (version 1)
//!
//! A framed file ([`crate::framed_file`]) with the magic "EVHE". All integers little-endian.
//!
//! ```text
//! body:
//!   budget        u32   1 to MAX_BUDGET
//!   clock         u32
//!   count         u32   at most the budget
//!   count × lesson, in strictly ascending order of the trigger's encoding:
//!     trigger     a value, postcard (core's PROTOCOL.md)
//!     remedy      a value, postcard
//!     helpful, harmful, uses, noted   4 × u16
//!     last_use    u32
//! ```
//!
//! The body must be consumed exactly. The same lessons always give the same bytes.
//!
//! # Reading untrusted bytes
//!
//! [`ExperienceStore::from_bytes`] never panics: truncated, corrupted, foreign or hand-crafted
//! bytes give a [`FileError`] that names the problem, and no store is built. The frame and
//! checksum are checked first; then every lesson, the order (so triggers are unique) and the
//! count against the budget. [`ExperienceStore::load`] reads a file that way;
//! [`ExperienceStore::save`] replaces one atomically ([`write_atomic`]).
//!
//! [`Agent::set_experience_store`]: crate::Agent::set_experience_store
//! [`Workspace::load_lesson`]: evoharness_core::Workspace::load_lesson

use std::cmp::Ordering;
use std::fmt;
use std::hash::BuildHasher;
use std::path::Path;

use evoharness_core::{Lesson, Value, heapless};
use hashbrown::{DefaultHashBuilder, HashTable};

use crate::error::{Error, ErrorKind, Result};
use crate::framed_file::{FileError, FileFormat, Reader, temp_path, write_atomic};

/// The first four bytes of every experience store file.
pub const MAGIC: [u8; 4] = *b"EVHE";
/// The store format version this crate writes and reads.
pub const FORMAT: u16 = 1;
/// The experience store file format: [`MAGIC`], version [`FORMAT`].
pub const FILE: FileFormat = FileFormat {
    magic: MAGIC,
    oldest: FORMAT,
    current: FORMAT,
};
/// The fixed part of a lesson's encoding: four `u16` counters and `last_use`.
const COUNTERS: usize = 4 * 2 + 4;

/// A trigger's or remedy's canonical encoding ([`Value::encode`]).
type Encoded = [u8; Value::ENCODED_MAX];

/// What [`ExperienceStore::note`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct Noted {
    /// Whether the trigger was there (the lesson merged) or the lesson is new.
    pub merged: bool,
    /// The lesson evicted to make room for a new one when the store was at its budget.
    pub evicted: Option<Lesson>,
}

/// A library of lessons indexed by trigger, under a budget; see the [module docs](self).
#[derive(Clone)]
pub struct ExperienceStore {
    table: HashTable<Lesson>,
    hasher: DefaultHashBuilder,
    budget: usize,
    clock: u32,
}

impl fmt::Debug for ExperienceStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExperienceStore")
            .field("len", &self.len())
            .field("budget", &self.budget)
            .field("clock", &self.clock)
            .finish_non_exhaustive()
    }
}

impl ExperienceStore {
    /// The largest budget a store may have (and a store file may claim: its table is
    /// allocated up front).
    pub const MAX_BUDGET: usize = 1 << 16;

    /// An empty store that holds at most `budget` lessons (1 to [`Self::MAX_BUDGET`]; anything
    /// else is [`ErrorKind::Config`]). Allocates its table here, once.
    pub fn new(budget: usize) -> Result<Self> {
        if !(1..=Self::MAX_BUDGET).contains(&budget) {
            return Err(Error::new(
                ErrorKind::Config,
                format!(
                    "an experience store budget must be 1 to {}, not {budget}",
                    Self::MAX_BUDGET
                ),
            ));
        }
        Ok(Self::with_budget(budget))
    }

    /// A store of a checked budget.
    fn with_budget(budget: usize) -> Self {
        Self {
            // Twice the budget: see the module docs (no allocation at the budget).
            table: HashTable::with_capacity(2 * budget),
            hasher: DefaultHashBuilder::default(),
            budget,
            clock: 0,
        }
    }

    /// The most lessons the store holds.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// How many lessons it holds.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// The store's clock: notes, ratings and uses so far (wrapping, as the workspace's).
    pub fn clock(&self) -> u32 {
        self.clock
    }

    /// The lesson with this trigger.
    pub fn get(&self, trigger: &Value) -> Option<&Lesson> {
        self.table
            .find(self.hash(trigger), |l| l.trigger.same(trigger))
    }

    /// Every lesson, in ascending order of the trigger's encoding (the file's order). Allocates
    /// the list.
    pub fn lessons(&self) -> Vec<&Lesson> {
        let mut all: Vec<&Lesson> = self.table.iter().collect();
        all.sort_by(|a, b| cmp_encoded(&a.trigger, &b.trigger));
        all
    }

    fn hash(&self, trigger: &Value) -> u64 {
        let mut buf: Encoded = [0; Value::ENCODED_MAX];
        self.hasher.hash_one(trigger.encode(&mut buf))
    }

    fn tick(&mut self) -> u32 {
        self.clock = self.clock.wrapping_add(1);
        self.clock
    }

    /// Notes a lesson: merges it into the one with the same trigger (see the
    /// [module docs](self)) or adds it, dated now; a store at its budget first evicts its
    /// least-frequently-useful lesson, which is reported.
    pub fn note(&mut self, trigger: Value, remedy: Value) -> Noted {
        let now = self.tick();
        let hash = self.hash(&trigger);
        if let Some(l) = self.table.find_mut(hash, |l| l.trigger.same(&trigger)) {
            if l.remedy.same(&remedy) {
                l.noted = l.noted.saturating_add(1);
            } else {
                l.remedy = remedy;
                l.helpful = 0;
                l.harmful = 0;
                l.noted = 1;
            }
            return Noted {
                merged: true,
                evicted: None,
            };
        }
        let evicted = if self.table.len() >= self.budget {
            self.evict_weakest()
        } else {
            None
        };
        let lesson = Lesson {
            trigger,
            remedy,
            noted: 1,
            last_use: now,
            ..Lesson::default()
        };
        let hasher = &self.hasher;
        self.table.insert_unique(hash, lesson, |l| {
            let mut buf: Encoded = [0; Value::ENCODED_MAX];
            hasher.hash_one(l.trigger.encode(&mut buf))
        });
        Noted {
            merged: false,
            evicted,
        }
    }

    /// Counts the lesson with this trigger helpful or harmful; `false` if there is none.
    pub fn rate(&mut self, trigger: &Value, helpful: bool) -> bool {
        let hash = self.hash(trigger);
        let Some(l) = self.table.find_mut(hash, |l| l.trigger.same(trigger)) else {
            return false;
        };
        if helpful {
            l.helpful = l.helpful.saturating_add(1);
        } else {
            l.harmful = l.harmful.saturating_add(1);
        }
        self.tick();
        true
    }

    /// Counts a use (a recall) of the lesson with this trigger, dated now; `false` if there
    /// is none.
    pub fn count_use(&mut self, trigger: &Value) -> bool {
        let hash = self.hash(trigger);
        let now = self.clock.wrapping_add(1);
        let Some(l) = self.table.find_mut(hash, |l| l.trigger.same(trigger)) else {
            return false;
        };
        l.uses = l.uses.saturating_add(1);
        l.last_use = now;
        self.clock = now;
        true
    }

    /// The best `k` (at most `K`) lessons matching `query`, best first, in recall's order: the
    /// match rank ([`Value::match_rank`]), then [`Lesson::recall_cmp`], then the smaller
    /// trigger encoding. Counts nothing, allocates nothing.
    pub fn matches<const K: usize>(&self, query: &Value, k: usize) -> heapless::Vec<&Lesson, K> {
        let mut out: heapless::Vec<(u8, &Lesson), K> = heapless::Vec::new();
        let k = k.min(K);
        if k == 0 {
            return heapless::Vec::new();
        }
        for l in &self.table {
            let rank = l.trigger.match_rank(query);
            if rank == 0 {
                continue;
            }
            let before = |&(orank, other): &(u8, &Lesson)| {
                rank.cmp(&orank).reverse().then_with(|| {
                    l.recall_cmp(other)
                        .then_with(|| cmp_encoded(&l.trigger, &other.trigger))
                }) == Ordering::Less
            };
            let pos = out.iter().position(before).unwrap_or(out.len());
            if pos >= k {
                continue;
            }
            if out.len() == k {
                out.pop();
            }
            // Room was made above.
            let _ = out.insert(pos, (rank, l));
        }
        out.into_iter().map(|(_, l)| l).collect()
    }

    /// Removes the lesson that eviction takes first, if any.
    fn evict_weakest(&mut self) -> Option<Lesson> {
        let weakest = self.table.iter().reduce(|a, b| {
            if evict_order(b, a) == Ordering::Less {
                b
            } else {
                a
            }
        })?;
        let trigger = weakest.trigger.clone();
        let hash = self.hash(&trigger);
        let entry = self
            .table
            .find_entry(hash, |l| l.trigger.same(&trigger))
            .ok()?;
        Some(entry.remove().0)
    }

    /// Merges the stores into one: see the [module docs](self). Deterministic and independent
    /// of the stores' order. No stores is [`ErrorKind::Config`].
    pub fn merge_all<'a>(stores: impl IntoIterator<Item = &'a ExperienceStore>) -> Result<Self> {
        let mut budget = 0;
        let mut clock = 0;
        let mut all: Vec<(Encoded, Encoded, &Lesson)> = Vec::new();
        for s in stores {
            budget = budget.max(s.budget);
            clock = clock.max(s.clock);
            all.extend(s.table.iter().map(|l| {
                let mut t: Encoded = [0; Value::ENCODED_MAX];
                let mut r: Encoded = [0; Value::ENCODED_MAX];
                l.trigger.encode(&mut t);
                l.remedy.encode(&mut r);
                (t, r, l)
            }));
        }
        if budget == 0 {
            return Err(Error::new(
                ErrorKind::Config,
                "merging experience stores needs at least one store",
            ));
        }
        // Encodings are zero-padded, and a value's encoding is never a strict prefix of
        // another's, so comparing whole buffers orders by encoding.
        all.sort_unstable_by_key(|&(t, r, _)| (t, r));
        let mut merged: Vec<(Encoded, Lesson)> = Vec::new();
        let mut i = 0;
        while i < all.len() {
            // One trigger: its candidates, one per remedy, with summed counters.
            let mut best: Option<(Encoded, Lesson)> = None;
            while i < all.len() {
                let (t, r) = (all[i].0, all[i].1);
                let mut sums = [0u64; 4];
                let mut last_use = 0;
                while i < all.len() && all[i].0 == t && all[i].1 == r {
                    let l = all[i].2;
                    for (s, n) in sums.iter_mut().zip([l.helpful, l.harmful, l.uses, l.noted]) {
                        *s += u64::from(n);
                    }
                    last_use = last_use.max(l.last_use);
                    i += 1;
                }
                let sat = |n: u64| u16::try_from(n).unwrap_or(u16::MAX);
                let first = all[i - 1].2;
                let candidate = Lesson {
                    trigger: first.trigger.clone(),
                    remedy: first.remedy.clone(),
                    helpful: sat(sums[0]),
                    harmful: sat(sums[1]),
                    uses: sat(sums[2]),
                    noted: sat(sums[3]),
                    last_use,
                    recalled: false,
                };
                // Candidates come in ascending remedy order: on a full tie the first stays.
                let wins = best.as_ref().is_none_or(|(_, b)| {
                    candidate.recall_cmp(b).then(b.noted.cmp(&candidate.noted)) == Ordering::Less
                });
                if wins {
                    best = Some((t, candidate));
                }
                if i == all.len() || all[i].0 != t {
                    break;
                }
            }
            merged.extend(best);
        }
        // Keep the budget: evict the weakest (eviction order, then the smaller trigger).
        if merged.len() > budget {
            merged.sort_unstable_by(|a, b| a.1.evict_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
            merged.drain(..merged.len() - budget);
        }
        let mut out = Self::with_budget(budget);
        out.clock = clock;
        for (_, l) in merged {
            out.insert_new(l);
        }
        Ok(out)
    }

    /// Merges `other` into this store: `merge_all` of the two (see the [module docs](self)).
    pub fn merge(&mut self, other: &ExperienceStore) {
        // Two stores are never none.
        if let Ok(m) = Self::merge_all([&*self, other]) {
            *self = m;
        }
    }

    /// Inserts a lesson whose trigger is not in the table (the caller keeps the budget).
    fn insert_new(&mut self, lesson: Lesson) {
        let hash = self.hash(&lesson.trigger);
        let hasher = &self.hasher;
        self.table.insert_unique(hash, lesson, |l| {
            let mut buf: Encoded = [0; Value::ENCODED_MAX];
            hasher.hash_one(l.trigger.encode(&mut buf))
        });
    }

    /// The store's bytes (see the [module docs](self)): the same lessons give the same bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode_into(&mut out);
        out
    }

    /// [`ExperienceStore::to_bytes`] into `out` (cleared first), reusing its allocation.
    ///
    /// # Panics
    ///
    /// Never: a store of [`Self::MAX_BUDGET`] lessons encodes in well under 4 GiB.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        FILE.begin(out);
        let u32_of = |n: usize| u32::try_from(n).expect("a store is far below 4 GiB");
        out.extend_from_slice(&u32_of(self.budget).to_le_bytes());
        out.extend_from_slice(&self.clock.to_le_bytes());
        out.extend_from_slice(&u32_of(self.len()).to_le_bytes());
        let mut buf: Encoded = [0; Value::ENCODED_MAX];
        for l in self.lessons() {
            out.extend_from_slice(l.trigger.encode(&mut buf));
            out.extend_from_slice(l.remedy.encode(&mut buf));
            for n in [l.helpful, l.harmful, l.uses, l.noted] {
                out.extend_from_slice(&n.to_le_bytes());
            }
            out.extend_from_slice(&l.last_use.to_le_bytes());
        }
        FILE.finish(out);
    }

    /// A store from its bytes (see the [module docs](self)). Never panics; refused bytes give
    /// a [`FileError`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, FileError> {
        let (_, body) = FILE.open(bytes)?;
        let mut r = Reader(body);
        let budget = r.u32("budget")? as usize;
        if !(1..=Self::MAX_BUDGET).contains(&budget) {
            return Err(FileError::Malformed("budget"));
        }
        let clock = r.u32("clock")?;
        let count = r.u32("lesson count")? as usize;
        if count > budget {
            return Err(FileError::Malformed("lesson count"));
        }
        // Checked before the table (sized by the budget) is made: the lessons are there, in
        // order, and nothing follows them.
        let mut lessons = Vec::with_capacity(count.min(body.len() / (2 + COUNTERS)));
        let mut prev: Option<Encoded> = None;
        for _ in 0..count {
            let (trigger, rest) =
                Value::decode_prefix(r.0).map_err(|_| FileError::Malformed("lesson trigger"))?;
            let (remedy, rest) =
                Value::decode_prefix(rest).map_err(|_| FileError::Malformed("lesson remedy"))?;
            r.0 = rest;
            let mut n = [0u16; 4];
            for c in &mut n {
                *c = r.u16("lesson counters")?;
            }
            let last_use = r.u32("lesson last use")?;
            let mut key: Encoded = [0; Value::ENCODED_MAX];
            trigger.encode(&mut key);
            if prev.is_some_and(|p| p >= key) {
                return Err(FileError::Malformed(
                    "lesson order (triggers ascending, unique)",
                ));
            }
            prev = Some(key);
            lessons.push(Lesson {
                trigger,
                remedy,
                helpful: n[0],
                harmful: n[1],
                uses: n[2],
                noted: n[3],
                last_use,
                recalled: false,
            });
        }
        if !r.is_empty() {
            return Err(FileError::Malformed("body (bytes after the lessons)"));
        }
        let mut store = Self::with_budget(budget);
        store.clock = clock;
        for l in lessons {
            store.insert_new(l);
        }
        Ok(store)
    }

    /// Writes the store to `path`, replacing it atomically (see [`write_atomic`]).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        write_atomic(path, &temp_path(path), &self.to_bytes()).map_err(|e| {
            Error::new(
                ErrorKind::Io,
                format!("writing experience store {}", path.display()),
            )
            .with_source(e)
        })
    }

    /// Reads a store from `path`: [`ErrorKind::Io`] if it cannot be read,
    /// [`ErrorKind::Experience`] (its [`FileError`] as the source) if its bytes are refused.
    pub fn load(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| {
            Error::new(
                ErrorKind::Io,
                format!("reading experience store {}", path.display()),
            )
            .with_source(e)
        })?;
        Self::from_bytes(&bytes).map_err(|e| {
            Error::new(
                ErrorKind::Experience,
                format!("experience store {} refused", path.display()),
            )
            .with_source(e)
        })
    }
}

/// Orders two values by their canonical encodings.
fn cmp_encoded(a: &Value, b: &Value) -> Ordering {
    let mut x: Encoded = [0; Value::ENCODED_MAX];
    let mut y: Encoded = [0; Value::ENCODED_MAX];
    a.encode(&mut x).cmp(b.encode(&mut y))
}

/// Eviction order with the store's tie-break: `Less` means `a` goes first.
fn evict_order(a: &Lesson, b: &Lesson) -> Ordering {
    a.evict_cmp(b)
        .then_with(|| cmp_encoded(&a.trigger, &b.trigger))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framed_file::HEAD;
    use crate::rng::SplitMix64;

    fn text(s: &str) -> Value {
        Value::text(s).unwrap()
    }

    /// A store of `n` random lessons over a small alphabet of triggers and remedies, so that
    /// stores share triggers and disagree on remedies.
    fn random_store(seed: u64, budget: usize, n: usize) -> ExperienceStore {
        let mut rng = SplitMix64(seed);
        let mut s = ExperienceStore::new(budget).unwrap();
        for _ in 0..n {
            let t = rng.next_u64() % 24;
            let trigger = match t % 4 {
                0 => Value::Int(t as i64),
                1 => Value::Float(t as f64 / 4.0),
                2 => text(&format!("E{t}")),
                _ => Value::bytes(&[t as u8, 7]).unwrap(),
            };
            let remedy = Value::Int((rng.next_u64() % 3) as i64);
            match rng.next_u64() % 4 {
                0 | 1 => {
                    s.note(trigger, remedy);
                }
                2 => {
                    s.rate(&trigger, !rng.next_u64().is_multiple_of(3));
                }
                _ => {
                    s.count_use(&trigger);
                }
            }
        }
        s
    }

    #[test]
    fn budgets_out_of_range_are_refused() {
        assert_eq!(
            ExperienceStore::new(0).unwrap_err().kind(),
            ErrorKind::Config
        );
        assert!(ExperienceStore::new(ExperienceStore::MAX_BUDGET + 1).is_err());
        assert!(ExperienceStore::new(ExperienceStore::MAX_BUDGET).is_ok());
    }

    #[test]
    fn note_merges_as_the_workspace_does_and_rate_and_use_count() {
        let mut s = ExperienceStore::new(4).unwrap();
        let e = text("E429");
        assert_eq!(
            s.note(e.clone(), Value::Int(1)),
            Noted {
                merged: false,
                evicted: None
            }
        );
        assert!(s.rate(&e, true));
        assert!(s.rate(&e, false));
        assert!(s.note(e.clone(), Value::Int(1)).merged);
        let l = s.get(&e).unwrap();
        assert_eq!((l.noted, l.helpful, l.harmful), (2, 1, 1));
        assert!(s.count_use(&e));
        assert_eq!(
            (s.get(&e).unwrap().uses, s.get(&e).unwrap().last_use),
            (1, 5)
        );
        // Another remedy replaces the old one and resets its ratings (they rated the old one).
        assert!(s.note(e.clone(), Value::Int(2)).merged);
        let l = s.get(&e).unwrap();
        assert_eq!(
            (&l.remedy, l.noted, l.helpful, l.harmful),
            (&Value::Int(2), 1, 0, 0)
        );
        assert!(!s.rate(&text("nope"), true));
        assert!(!s.count_use(&text("nope")));
        assert_eq!((s.len(), s.clock()), (1, 6));
        // Floats are triggers by their bits.
        s.note(Value::Float(0.0), Value::Int(0));
        s.note(Value::Float(-0.0), Value::Int(0));
        s.note(Value::Float(f64::NAN), Value::Int(0));
        assert!(s.note(Value::Float(f64::NAN), Value::Int(0)).merged);
        assert_eq!(s.len(), 4);
    }

    #[test]
    fn matches_rank_as_recall_does() {
        let mut s = ExperienceStore::new(16).unwrap();
        for (t, helpful) in [("E4", 0), ("E429", 0), ("E42", 3), ("E5", 9), ("E430", 0)] {
            s.note(text(t), Value::Int(0));
            for _ in 0..helpful {
                s.rate(&text(t), true);
            }
        }
        s.note(Value::Int(4), Value::Int(0));
        let found = s.matches::<4>(&text("E429"), 4);
        let triggers: Vec<_> = found.iter().map(|l| l.trigger.clone()).collect();
        // Exact first; then prefixes by usefulness (E42 rated helpful); then the encoding.
        assert_eq!(triggers, [text("E429"), text("E42"), text("E4")]);
        assert_eq!(s.matches::<4>(&text("E4"), 2).len(), 2);
        assert_eq!(s.matches::<4>(&text("E4"), 2)[0].trigger, text("E4"));
        assert_eq!(s.matches::<2>(&text("E4"), 9).len(), 2);
        assert!(s.matches::<4>(&text("X"), 4).is_empty());
        assert!(s.matches::<4>(&text("E4"), 0).is_empty());
    }

    #[test]
    fn a_full_store_evicts_the_least_frequently_useful_and_does_not_grow() {
        let mut s = ExperienceStore::new(3).unwrap();
        let cap = s.table.capacity();
        for t in ["a", "b", "c"] {
            s.note(text(t), Value::Int(0));
        }
        s.rate(&text("a"), true);
        s.count_use(&text("b"));
        // "c": net 0 and no uses, the weakest.
        let n = s.note(text("d"), Value::Int(0));
        assert_eq!(n.evicted.unwrap().trigger, text("c"));
        // "b" and "d" tie on net and... "d" has no uses: it goes.
        let n = s.note(text("e"), Value::Int(0));
        assert_eq!(n.evicted.unwrap().trigger, text("d"));
        // A full tie ("e", "f" equal but for the clock: "e" is older).
        s.count_use(&text("e"));
        s.rate(&text("b"), false);
        let n = s.note(text("f"), Value::Int(0));
        assert_eq!(n.evicted.unwrap().trigger, text("b"));
        assert_eq!(s.len(), 3);
        for i in 0..10_000 {
            s.note(Value::Int(i), Value::Int(i));
            s.rate(&Value::Int(i), i % 2 == 0);
        }
        assert_eq!(s.len(), 3);
        assert_eq!(s.table.capacity(), cap, "the table grew");
    }

    #[test]
    fn the_same_lessons_give_the_same_bytes_and_round_trip() {
        let mut a = ExperienceStore::new(8).unwrap();
        let mut b = ExperienceStore::new(8).unwrap();
        for t in ["x", "y", "z"] {
            a.note(text(t), Value::Int(1));
        }
        for t in ["z", "y", "x"] {
            b.note(text(t), Value::Int(1));
        }
        // Same triggers, remedies and clock, other dates: dates differ.
        assert_ne!(a.to_bytes(), b.to_bytes());
        let s = random_store(7, 16, 200);
        let bytes = s.to_bytes();
        let back = ExperienceStore::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(
            (back.len(), back.budget(), back.clock()),
            (s.len(), 16, s.clock())
        );
        let empty = ExperienceStore::new(1).unwrap().to_bytes();
        assert_eq!(ExperienceStore::from_bytes(&empty).unwrap().len(), 0);
        // The frame is pinned.
        assert_eq!(&bytes[..4], b"EVHE");
        assert_eq!(&bytes[4..6], &[1, 0]);
        assert_eq!(&bytes[HEAD..HEAD + 4], &16u32.to_le_bytes());
    }

    #[test]
    fn every_truncation_and_bit_flip_is_refused() {
        let bytes = random_store(3, 8, 40).to_bytes();
        for n in 0..bytes.len() {
            let e = ExperienceStore::from_bytes(&bytes[..n]).unwrap_err();
            assert!(
                matches!(e, FileError::Truncated { len, .. } if len == n),
                "{n}: {e:?}"
            );
        }
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(
            ExperienceStore::from_bytes(&long).unwrap_err(),
            FileError::TrailingBytes
        );
        for i in 0..bytes.len() * 8 {
            let mut c = bytes.clone();
            c[i / 8] ^= 1 << (i % 8);
            assert!(
                ExperienceStore::from_bytes(&c).is_err(),
                "bit {i} flipped went unnoticed"
            );
        }
        let mut m = bytes.clone();
        m[0] = b'X';
        assert_eq!(
            ExperienceStore::from_bytes(&m).unwrap_err(),
            FileError::BadMagic
        );
        let mut v = bytes;
        v[4] = 2;
        assert_eq!(
            ExperienceStore::from_bytes(&v).unwrap_err(),
            FileError::UnsupportedVersion(2)
        );
    }

    /// Bodies with a valid checksum that a writer could not have made.
    #[test]
    fn malformed_bodies_with_good_checksums_are_refused() {
        let frame = |body: &[u8]| {
            let mut out = Vec::new();
            FILE.begin(&mut out);
            out.extend_from_slice(body);
            FILE.finish(&mut out);
            out
        };
        let refused = |body: &[u8]| match ExperienceStore::from_bytes(&frame(body)) {
            Err(FileError::Malformed(what)) => what,
            other => panic!("{other:?}"),
        };
        let head = |budget: u32, count: u32| {
            let mut b = budget.to_le_bytes().to_vec();
            b.extend_from_slice(&0u32.to_le_bytes());
            b.extend_from_slice(&count.to_le_bytes());
            b
        };
        let lesson = |t: &Value| {
            let mut buf = [0; Value::ENCODED_MAX];
            let mut b = t.encode(&mut buf).to_vec();
            b.extend_from_slice(Value::Int(1).encode(&mut buf));
            b.extend_from_slice(&[0; COUNTERS]);
            b
        };
        assert_eq!(refused(&[]), "budget");
        assert_eq!(refused(&head(0, 0)), "budget");
        assert_eq!(refused(&head(1 << 17, 0)), "budget");
        assert_eq!(refused(&head(1, 2)), "lesson count");
        assert_eq!(refused(&head(2, 1)), "lesson trigger");
        let mut b = head(2, 1);
        b.push(9); // no such value kind
        assert_eq!(refused(&b), "lesson trigger");
        let mut b = head(2, 1);
        b.extend_from_slice(&lesson(&text("a"))[..6]);
        assert_eq!(refused(&b), "lesson counters");
        let mut b = head(2, 2);
        b.extend(lesson(&text("b")));
        b.extend(lesson(&text("a")));
        assert_eq!(refused(&b), "lesson order (triggers ascending, unique)");
        let mut b = head(2, 2);
        b.extend(lesson(&text("a")));
        b.extend(lesson(&text("a")));
        assert_eq!(refused(&b), "lesson order (triggers ascending, unique)");
        let mut b = head(2, 2);
        b.extend(lesson(&text("a")));
        b.extend(lesson(&text("b")));
        assert!(ExperienceStore::from_bytes(&frame(&b)).is_ok());
        b.push(0);
        assert_eq!(refused(&b), "body (bytes after the lessons)");
    }

    #[test]
    fn merge_is_commutative_and_merge_all_ignores_order() {
        for seed in 0..20 {
            let a = random_store(seed, 8 + seed as usize % 5, 60);
            let b = random_store(seed + 100, 10, 60);
            let mut ab = a.clone();
            ab.merge(&b);
            let mut ba = b.clone();
            ba.merge(&a);
            assert_eq!(ab.to_bytes(), ba.to_bytes(), "seed {seed}");
            assert_eq!(ab.budget(), a.budget().max(10));
            assert!(ab.len() <= ab.budget());
        }
        let stores: Vec<_> = (0..4).map(|i| random_store(i * 31, 12, 80)).collect();
        let first = ExperienceStore::merge_all(&stores).unwrap().to_bytes();
        let mut perm = [0, 1, 2, 3];
        // All 24 orders (Heap's algorithm, iteratively).
        let mut c = [0; 4];
        let mut i = 0;
        let mut seen = 1;
        while i < 4 {
            if c[i] < i {
                if i % 2 == 0 {
                    perm.swap(0, i);
                } else {
                    perm.swap(c[i], i);
                }
                let m = ExperienceStore::merge_all(perm.iter().map(|&j| &stores[j])).unwrap();
                assert_eq!(m.to_bytes(), first, "order {perm:?}");
                seen += 1;
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
        assert_eq!(seen, 24);
        assert_eq!(
            ExperienceStore::merge_all([]).unwrap_err().kind(),
            ErrorKind::Config
        );
    }

    #[test]
    fn merge_sums_per_remedy_picks_the_most_useful_and_keeps_the_budget() {
        let mut a = ExperienceStore::new(2).unwrap();
        let mut b = ExperienceStore::new(2).unwrap();
        let e = text("E1");
        a.note(e.clone(), Value::Int(1));
        a.rate(&e, true);
        b.note(e.clone(), Value::Int(2));
        b.rate(&e, true);
        b.rate(&e, true);
        a.note(text("E2"), Value::Int(0));
        b.note(text("E3"), Value::Int(0));
        b.rate(&text("E3"), false);
        // Remedy 1: helpful 1 + 1 (a twice); remedy 2: helpful 2. Equal usefulness and uses:
        // remedy 1 was noted twice.
        let m = ExperienceStore::merge_all([&a, &b, &a]).unwrap();
        let l = m.get(&e).unwrap();
        assert_eq!((&l.remedy, l.helpful, l.noted), (&Value::Int(1), 2, 2));
        // Budget 2 for three triggers: "E3" (net -1) went.
        assert_eq!(m.len(), 2);
        assert!(m.get(&text("E3")).is_none());
        assert_eq!(m.get(&text("E2")).unwrap().noted, 2);
        // The same store twice counts twice.
        let twice = ExperienceStore::merge_all([&b, &b]).unwrap();
        assert_eq!(twice.get(&e).unwrap().helpful, 4);
    }

    #[test]
    fn save_and_load_replace_whole_files_and_refuse_bad_ones() {
        let dir =
            std::env::temp_dir().join(format!("evoharness-store-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("lessons.evhe");
        let s = random_store(11, 32, 100);
        s.save(&path).unwrap();
        assert_eq!(
            ExperienceStore::load(&path).unwrap().to_bytes(),
            s.to_bytes()
        );
        std::fs::write(&path, b"EVHE garbage").unwrap();
        let e = ExperienceStore::load(&path).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Experience);
        assert!(std::error::Error::source(&e).unwrap().is::<FileError>());
        let e = ExperienceStore::load(dir.join("missing")).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Io);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
