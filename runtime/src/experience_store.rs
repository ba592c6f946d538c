//! The experience store: a library of lessons behind a workspace's Experience table, that
//! outlives tasks and agents, persists in its own file, and merges with the stores of other
//! agents without counting anything twice.
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
//! # Replicas, and merging as a join
//!
//! Every store writes as one **replica**, a 64-bit id ([`ExperienceStore::replica`]): random
//! for [`ExperienceStore::new`], chosen with [`ExperienceStore::for_replica`]. Note, rate and
//! use change only the replica's *own* lessons, and each advances its **version**, a counter
//! that only grows. Besides its own, a store holds the lessons of every other replica it has
//! merged, each as that replica last wrote them (its version and lessons): the store's state is
//! a map from replica to `(version, lessons)`.
//!
//! [`ExperienceStore::merge`] is the **join** of two such maps: per replica, the later of the
//! two (the higher version; at the same version, which only two live writers of one id can
//! produce, the larger encoding of the lessons, so the choice is the same everywhere). A join is
//! commutative, associative and idempotent: a fleet may merge in any order, along any tree, as
//! often as it likes — merging a store a second time, or a store that already holds what it
//! brings, changes nothing, and nothing is counted twice. A replica's lessons come back by no
//! merge once their owner has moved past them (an eviction, a replaced remedy stay so).
//!
//! What an agent sees (**the view**: [`get`], [`matches`], [`lessons`], [`len`]) is, per
//! trigger, a sum over replicas: the lessons of all replicas for the trigger are grouped by
//! remedy and their counters summed (`helpful`, `harmful`, `uses`, `noted`, saturating at
//! `u16::MAX`; `last_use` the latest). Where the replica has a lesson of its own, its own remedy
//! is the one it sees, with every replica's counts for that remedy: an agent's own evidence (a
//! remedy it noted after another failed here) is not outvoted by a fleet that learned elsewhere.
//! Elsewhere the most useful remedy wins (recall's order, then more notes, then the smaller
//! encoding). The view is a function of the state and of which replica is the store's own. A
//! store with no other replica sees exactly its own lessons. Rating or using a lesson that only
//! other replicas hold first adds it to the replica's own lessons (the view's remedy, no counts)
//! and counts it there.
//!
//! **The budget** bounds what each replica keeps of its own: an owner evicts its weakest lesson
//! to make room, as above, and that eviction is a new version of its lessons like any other
//! change. Nothing is evicted by a merge or from the view (evicting there would make the merge
//! depend on its order), so the view holds every trigger any replica keeps: at most the sum of
//! the replicas' budgets. The trade-off: a store's memory grows with the number of replicas it
//! has merged (a fleet of `n` agents of budget `b`: at most `n·b` lessons, allocated when the
//! merge brings them), in exchange for merges that never lose or double a count; a host that
//! must bound it merges fewer replicas (one store per team, say), not fewer lessons.
//!
//! [`ExperienceStore::merge_all`] joins many stores into a copy of the first: the result is the
//! same set of replicas whatever the order, and writes as the first store's replica.
//! [`ExperienceStore::become_replica`] makes a store write as another replica from then on
//! (what it wrote as the old one stays, as that replica's lessons): give each agent that loads
//! one shared file its own replica. [`ExperienceStore::renew`] starts a new replica with no
//! lessons (an agent that forgets everything).
//!
//! # File format (version 2)
//!
//! A framed file ([`crate::framed_file`]) with the magic "EVHE". All integers little-endian.
//!
//! ```text
//! body:
//!   budget        u32   1 to MAX_BUDGET
//!   clock         u32
//!   replica       u64   the store's own replica
//!   version       u64   its version
//!   count         u32   at most MAX_BUDGET
//!   count × lesson: the replica's own lessons
//!   others        u32   how many other replicas follow, in strictly ascending order of id
//!   others × replica:
//!     id          u64   never the store's own replica
//!     version     u64   at least 1 (a replica that never wrote is not stored)
//!     count       u32   at most MAX_BUDGET
//!     count × lesson
//!
//! lesson (in each list, in strictly ascending order of the trigger's encoding):
//!   trigger     a value, postcard (core's PROTOCOL.md)
//!   remedy      a value, postcard
//!   helpful, harmful, uses, noted   4 × u16
//!   last_use    u32
//! ```
//!
//! The body must be consumed exactly. The same state always gives the same bytes.
//!
//! Version 1 (before replicas) is `budget | clock | count | count × lesson`; it still loads, as
//! the lessons of one replica whose id is the CRC-64/XZ of its body and whose version is its
//! clock, so loading one file twice and merging counts it once, and two different files add
//! up as they always did. Such a store writes as that replica: [`become_replica`] before
//! several agents write to copies of it.
//!
//! # Reading untrusted bytes
//!
//! [`ExperienceStore::from_bytes`] never panics: truncated, corrupted, foreign or hand-crafted
//! bytes give a [`FileError`] that names the problem, and no store is built. The frame and
//! checksum are checked first; then every lesson, the orders (so triggers and replicas are
//! unique) and the counts. [`ExperienceStore::load`] reads a file that way;
//! [`ExperienceStore::save`] replaces one atomically ([`write_atomic`]).
//!
//! [`Agent::set_experience_store`]: crate::Agent::set_experience_store
//! [`Workspace::load_lesson`]: evoharness_core::Workspace::load_lesson
//! [`get`]: ExperienceStore::get
//! [`matches`]: ExperienceStore::matches
//! [`lessons`]: ExperienceStore::lessons
//! [`len`]: ExperienceStore::len
//! [`become_replica`]: ExperienceStore::become_replica

use std::cmp::Ordering;
use std::fmt;
use std::hash::{BuildHasher, RandomState};
use std::path::Path;
use std::sync::atomic::{self, AtomicU64};

use evoharness_core::{Lesson, Value, heapless};
use hashbrown::{DefaultHashBuilder, HashTable};

use crate::error::{Error, ErrorKind, Result};
use crate::framed_file::{CRC64, FileError, FileFormat, Reader, temp_path, write_atomic};
use crate::rng::mix;

/// The first four bytes of every experience store file.
pub const MAGIC: [u8; 4] = *b"EVHE";
/// The store format version this crate writes (it reads 1 too).
pub const FORMAT: u16 = 2;
/// The experience store file format: [`MAGIC`], versions 1 to [`FORMAT`].
pub const FILE: FileFormat = FileFormat {
    magic: MAGIC,
    oldest: 1,
    current: FORMAT,
};
/// The fixed part of a lesson's encoding: four `u16` counters and `last_use`.
const COUNTERS: usize = 4 * 2 + 4;
/// The fewest bytes another replica takes in a file: id, version, count.
const REPLICA_HEAD: usize = 8 + 8 + 4;

/// A trigger's or remedy's canonical encoding ([`Value::encode`]).
type Encoded = [u8; Value::ENCODED_MAX];

/// What [`ExperienceStore::note`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct Noted {
    /// Whether the trigger was there (the lesson merged) or the lesson is new.
    pub merged: bool,
    /// The lesson evicted from the replica's own lessons to make room for a new one when they
    /// were at the budget.
    pub evicted: Option<Lesson>,
}

/// One replica's lessons as a store holds them ([`ExperienceStore::replicas`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Replica<'a> {
    /// The replica's id.
    pub id: u64,
    /// Its version: how many changes it had made to its lessons.
    pub version: u64,
    /// Its lessons, in ascending order of the trigger's encoding.
    pub lessons: Vec<&'a Lesson>,
}

/// One replica's lessons as bytes: the unit a fleet database keeps, one row per replica
/// ([`ExperienceStore::replica_bytes`], [`ExperienceStore::join_bytes`]).
///
/// `lessons` is the replica's part of the store file: a `u32` count and the lessons (see the
/// [module docs](self)). The join's order is `(version, lessons)` compared as numbers and then
/// as bytes, so a database that keeps, per replica, the row with the larger `(version,
/// lessons)` — an upsert that compares the version and then the bytes — keeps the join.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicaBytes {
    /// The replica's id.
    pub id: u64,
    /// Its version (at least 1).
    pub version: u64,
    /// Its lessons, encoded.
    pub lessons: Vec<u8>,
}

/// Another replica's lessons, as this store last merged them.
#[derive(Clone)]
struct Slice {
    id: u64,
    version: u64,
    /// In ascending order of the trigger's encoding.
    lessons: Vec<Lesson>,
}

/// A library of lessons indexed by trigger, under a budget, that merges as a join; see the
/// [module docs](self).
#[derive(Clone)]
pub struct ExperienceStore {
    replica: u64,
    version: u64,
    /// The replica's own lessons.
    own: HashTable<Lesson>,
    /// Other replicas', in ascending order of id.
    others: Vec<Slice>,
    /// The others' lessons summed per (trigger, remedy), hashed by trigger alone.
    sums: HashTable<Lesson>,
    /// Per trigger, the lesson an agent sees when there are others (else `own` is the view).
    view: HashTable<Lesson>,
    hasher: DefaultHashBuilder,
    budget: usize,
    clock: u32,
}

impl fmt::Debug for ExperienceStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExperienceStore")
            .field("replica", &self.replica)
            .field("version", &self.version)
            .field("len", &self.len())
            .field("others", &self.others.len())
            .field("budget", &self.budget)
            .field("clock", &self.clock)
            .finish_non_exhaustive()
    }
}

impl ExperienceStore {
    /// The largest budget a store may have (and a store file may claim: its table is allocated
    /// up front), and the most lessons a file may give one replica.
    pub const MAX_BUDGET: usize = 1 << 16;

    /// An empty store that holds at most `budget` lessons of its own (1 to
    /// [`Self::MAX_BUDGET`]; anything else is [`ErrorKind::Config`]), writing as a random
    /// replica. Allocates its table here, once.
    pub fn new(budget: usize) -> Result<Self> {
        Self::for_replica(budget, random_replica())
    }

    /// [`ExperienceStore::new`] writing as `replica`: the same id for one agent across
    /// restarts (its checkpoints keep it anyway), a different one for each agent of a fleet.
    pub fn for_replica(budget: usize, replica: u64) -> Result<Self> {
        if !(1..=Self::MAX_BUDGET).contains(&budget) {
            return Err(Error::new(
                ErrorKind::Config,
                format!(
                    "an experience store budget must be 1 to {}, not {budget}",
                    Self::MAX_BUDGET
                ),
            ));
        }
        Ok(Self::empty(budget, replica, budget))
    }

    /// A store of a checked budget, with room for `room` own lessons.
    fn empty(budget: usize, replica: u64, room: usize) -> Self {
        Self {
            replica,
            version: 0,
            // Twice the budget: see the module docs (no allocation at the budget).
            own: HashTable::with_capacity(2 * room.max(budget)),
            others: Vec::new(),
            sums: HashTable::new(),
            view: HashTable::new(),
            hasher: DefaultHashBuilder::default(),
            budget,
            clock: 0,
        }
    }

    /// The replica this store writes as.
    pub fn replica(&self) -> u64 {
        self.replica
    }

    /// How many changes the replica has made to its own lessons (see the
    /// [module docs](self)).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The most lessons the replica keeps of its own.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// How many lessons an agent sees: triggers of all replicas.
    pub fn len(&self) -> usize {
        self.visible().len()
    }

    /// Whether it sees none.
    pub fn is_empty(&self) -> bool {
        self.visible().is_empty()
    }

    /// The store's clock: notes, ratings and uses so far (wrapping, as the workspace's).
    pub fn clock(&self) -> u32 {
        self.clock
    }

    /// What an agent sees: the replica's own lessons, or the sum over replicas.
    fn visible(&self) -> &HashTable<Lesson> {
        if self.others.is_empty() {
            &self.own
        } else {
            &self.view
        }
    }

    /// The lesson an agent sees for this trigger (summed over replicas).
    pub fn get(&self, trigger: &Value) -> Option<&Lesson> {
        self.visible()
            .find(self.hash(trigger), |l| l.trigger.same(trigger))
    }

    /// The replica's own lesson for this trigger.
    pub fn own_lesson(&self, trigger: &Value) -> Option<&Lesson> {
        self.own
            .find(self.hash(trigger), |l| l.trigger.same(trigger))
    }

    /// Every lesson an agent sees, in ascending order of the trigger's encoding. Allocates the
    /// list.
    pub fn lessons(&self) -> Vec<&Lesson> {
        sorted(self.visible())
    }

    /// Every replica the store holds, its own among them, in ascending order of id. Allocates.
    pub fn replicas(&self) -> Vec<Replica<'_>> {
        let mut out: Vec<Replica<'_>> = self
            .others
            .iter()
            .map(|s| Replica {
                id: s.id,
                version: s.version,
                lessons: s.lessons.iter().collect(),
            })
            .collect();
        let at = out.partition_point(|r| r.id < self.replica);
        out.insert(
            at,
            Replica {
                id: self.replica,
                version: self.version,
                lessons: sorted(&self.own),
            },
        );
        out
    }

    fn hash(&self, trigger: &Value) -> u64 {
        hash_of(&self.hasher, trigger)
    }

    fn tick(&mut self) -> u32 {
        self.clock = self.clock.wrapping_add(1);
        self.clock
    }

    /// A change to the replica's own lessons.
    fn bump(&mut self) {
        self.version = self.version.saturating_add(1);
    }

    /// Notes a lesson as this replica: merges it into its own lesson with the same trigger
    /// (see the [module docs](self)) or adds it, dated now; when its own lessons are at the
    /// budget, it first evicts the least-frequently-useful of them, which is reported.
    pub fn note(&mut self, trigger: Value, remedy: Value) -> Noted {
        let now = self.tick();
        self.bump();
        let hash = self.hash(&trigger);
        if let Some(l) = self.own.find_mut(hash, |l| l.trigger.same(&trigger)) {
            if l.remedy.same(&remedy) {
                l.noted = l.noted.saturating_add(1);
            } else {
                l.remedy = remedy;
                l.helpful = 0;
                l.harmful = 0;
                l.noted = 1;
            }
            self.refresh(&trigger, hash);
            return Noted {
                merged: true,
                evicted: None,
            };
        }
        let evicted = self.make_room();
        // Inline and fixed-size: the copy allocates nothing.
        let key = (!self.others.is_empty()).then(|| trigger.clone());
        let lesson = Lesson {
            trigger,
            remedy,
            noted: 1,
            last_use: now,
            ..Lesson::default()
        };
        self.insert_own(hash, lesson);
        if let Some(trigger) = key {
            self.refresh(&trigger, hash);
        }
        Noted {
            merged: false,
            evicted,
        }
    }

    /// Counts the lesson with this trigger helpful or harmful, as this replica; `false` if the
    /// store sees none.
    pub fn rate(&mut self, trigger: &Value, helpful: bool) -> bool {
        let hash = self.hash(trigger);
        let Some(l) = self.own_for(trigger, hash) else {
            return false;
        };
        if helpful {
            l.helpful = l.helpful.saturating_add(1);
        } else {
            l.harmful = l.harmful.saturating_add(1);
        }
        self.tick();
        self.bump();
        self.refresh(trigger, hash);
        true
    }

    /// Counts a use (a recall) of the lesson with this trigger, as this replica, dated now;
    /// `false` if the store sees none.
    pub fn count_use(&mut self, trigger: &Value) -> bool {
        let hash = self.hash(trigger);
        let now = self.clock.wrapping_add(1);
        let Some(l) = self.own_for(trigger, hash) else {
            return false;
        };
        l.uses = l.uses.saturating_add(1);
        l.last_use = now;
        self.clock = now;
        self.bump();
        self.refresh(trigger, hash);
        true
    }

    /// The replica's own lesson for this trigger; one that only other replicas hold is added
    /// first (the view's remedy, nothing counted). `None` if the store sees no such lesson.
    fn own_for(&mut self, trigger: &Value, hash: u64) -> Option<&mut Lesson> {
        if self.own.find(hash, |l| l.trigger.same(trigger)).is_none() {
            let seen = self.view.find(hash, |l| l.trigger.same(trigger));
            let remedy = seen.filter(|_| !self.others.is_empty())?.remedy.clone();
            self.make_room();
            let lesson = Lesson {
                trigger: trigger.clone(),
                remedy,
                noted: 0,
                last_use: self.clock,
                ..Lesson::default()
            };
            self.insert_own(hash, lesson);
        }
        self.own.find_mut(hash, |l| l.trigger.same(trigger))
    }

    /// The best `k` (at most `K`) lessons an agent sees matching `query`, best first, in
    /// recall's order: the match rank ([`Value::match_rank`]), then [`Lesson::recall_cmp`],
    /// then the smaller trigger encoding. Counts nothing, allocates nothing.
    pub fn matches<const K: usize>(&self, query: &Value, k: usize) -> heapless::Vec<&Lesson, K> {
        let mut out: heapless::Vec<(u8, &Lesson), K> = heapless::Vec::new();
        let k = k.min(K);
        if k == 0 {
            return heapless::Vec::new();
        }
        for l in self.visible() {
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

    /// Makes room for one more own lesson: evicts the weakest until there is; reports the
    /// first evicted.
    fn make_room(&mut self) -> Option<Lesson> {
        let mut first = None;
        while self.own.len() >= self.budget {
            let Some(l) = self.evict_weakest() else {
                break;
            };
            let hash = self.hash(&l.trigger);
            self.refresh(&l.trigger, hash);
            first.get_or_insert(l);
        }
        first
    }

    /// Removes the own lesson that eviction takes first, if any.
    fn evict_weakest(&mut self) -> Option<Lesson> {
        let weakest = self.own.iter().reduce(|a, b| {
            if evict_order(b, a) == Ordering::Less {
                b
            } else {
                a
            }
        })?;
        let trigger = weakest.trigger.clone();
        let hash = self.hash(&trigger);
        let entry = self
            .own
            .find_entry(hash, |l| l.trigger.same(&trigger))
            .ok()?;
        Some(entry.remove().0)
    }

    /// Inserts an own lesson whose trigger is not there (the caller keeps the budget).
    fn insert_own(&mut self, hash: u64, lesson: Lesson) {
        let hasher = &self.hasher;
        self.own
            .insert_unique(hash, lesson, |l| hash_of(hasher, &l.trigger));
    }

    /// Brings the view's lesson for this trigger up to date after a change to it. Allocates
    /// nothing: the view has room for every trigger the store can hold between merges.
    fn refresh(&mut self, trigger: &Value, hash: u64) {
        if self.others.is_empty() {
            return;
        }
        // The replica's own remedy first, with what others counted for it; else the others'
        // most useful one.
        let own = self.own.find(hash, |l| l.trigger.same(trigger));
        let mut best: Option<Lesson> = own.map(|o| {
            let mut total = o.clone();
            let same = |s: &Lesson| s.trigger.same(trigger) && s.remedy.same(&o.remedy);
            if let Some(s) = self.sums.find(hash, same) {
                add_counts(&mut total, s);
            }
            total
        });
        let others = self.sums.iter_hash(hash).filter(|_| own.is_none());
        for s in others.filter(|s| s.trigger.same(trigger)) {
            if best.as_ref().is_none_or(|b| better(s, b) == Ordering::Less) {
                best = Some(s.clone());
            }
        }
        let hasher = &self.hasher;
        match (
            self.view.find_entry(hash, |l| l.trigger.same(trigger)),
            best,
        ) {
            (Ok(mut seen), Some(b)) => *seen.get_mut() = b,
            (Ok(seen), None) => {
                seen.remove();
            }
            (Err(absent), Some(b)) => {
                absent
                    .into_table()
                    .insert_unique(hash, b, |l| hash_of(hasher, &l.trigger));
            }
            (Err(_), None) => {}
        }
    }

    /// Recomputes the others' sums and the view after the others changed. Allocates both, with
    /// room for the replica's own lessons to reach the budget.
    fn rebuild(&mut self) {
        let hasher = &self.hasher;
        let total: usize = self.others.iter().map(|s| s.lessons.len()).sum();
        let mut sums: HashTable<Lesson> = HashTable::with_capacity(total);
        for l in self.others.iter().flat_map(|s| &s.lessons) {
            let hash = hash_of(hasher, &l.trigger);
            let same = |x: &Lesson| x.trigger.same(&l.trigger) && x.remedy.same(&l.remedy);
            match sums.find_mut(hash, same) {
                Some(sum) => add_counts(sum, l),
                None => {
                    let first = Lesson {
                        recalled: false,
                        ..l.clone()
                    };
                    sums.insert_unique(hash, first, |x| hash_of(hasher, &x.trigger));
                }
            }
        }
        self.sums = sums;
        if self.others.is_empty() {
            self.view = HashTable::new();
            return;
        }
        let triggers: Vec<Value> = self
            .sums
            .iter()
            .chain(self.own.iter())
            .map(|l| l.trigger.clone())
            .collect();
        self.view = HashTable::with_capacity(2 * (triggers.len() + self.budget));
        for t in &triggers {
            let hash = self.hash(t);
            self.refresh(t, hash);
        }
    }

    /// Joins `other` into this store: per replica, the later of the two (see the
    /// [module docs](self)). The store keeps its own replica and budget. Commutative,
    /// associative and idempotent. Allocates.
    pub fn merge(&mut self, other: &ExperienceStore) {
        self.join(&other.own_slice());
        for s in &other.others {
            self.join(s);
        }
        self.rebuild();
    }

    /// Joins the stores into a copy of the first (see the [module docs](self)): the same
    /// replicas whatever the order. No stores is [`ErrorKind::Config`].
    pub fn merge_all<'a>(stores: impl IntoIterator<Item = &'a ExperienceStore>) -> Result<Self> {
        let mut stores = stores.into_iter();
        let Some(first) = stores.next() else {
            return Err(Error::new(
                ErrorKind::Config,
                "merging experience stores needs at least one store",
            ));
        };
        let mut out = first.clone();
        for s in stores {
            out.join(&s.own_slice());
            for o in &s.others {
                out.join(o);
            }
        }
        out.rebuild();
        Ok(out)
    }

    /// The replica's own lessons as a slice (a copy).
    fn own_slice(&self) -> Slice {
        Slice {
            id: self.replica,
            version: self.version,
            lessons: sorted(&self.own).into_iter().cloned().collect(),
        }
    }

    /// Joins one replica's lessons in (the caller rebuilds the view).
    fn join(&mut self, s: &Slice) {
        // A replica that never wrote is the bottom of its chain: nothing to join.
        if s.version == 0 {
            return;
        }
        if s.id == self.replica {
            // Only a tie in versions needs the own lessons copied out to compare encodings.
            let newer = match s.version.cmp(&self.version) {
                Ordering::Greater => true,
                Ordering::Less => false,
                Ordering::Equal => later(s, &self.own_slice()),
            };
            if newer {
                self.adopt(s);
            }
            return;
        }
        match self.others.binary_search_by_key(&s.id, |o| o.id) {
            Ok(i) => {
                if later(s, &self.others[i]) {
                    self.others[i] = s.clone();
                }
            }
            Err(i) => self.others.insert(i, s.clone()),
        }
    }

    /// Takes `s` as the replica's own lessons (a later version of them, or after
    /// [`ExperienceStore::become_replica`]).
    fn adopt(&mut self, s: &Slice) {
        self.own.clear();
        let hasher = &self.hasher;
        self.own.reserve(2 * s.lessons.len().max(self.budget), |l| {
            hash_of(hasher, &l.trigger)
        });
        for l in &s.lessons {
            let hash = self.hash(&l.trigger);
            self.insert_own(hash, l.clone());
        }
        self.version = s.version;
        // Lessons dated by the other history: the clock moves past them.
        let latest = s.lessons.iter().map(|l| l.last_use).max().unwrap_or(0);
        self.clock = self.clock.max(latest);
    }

    /// Every replica the store holds that has written something (version 1 and up), its own
    /// among them, as bytes, in ascending order of id. Allocates.
    pub fn replica_bytes(&self) -> Vec<ReplicaBytes> {
        self.replicas()
            .into_iter()
            .filter(|r| r.version > 0)
            .map(|r| {
                let mut lessons = Vec::new();
                encode_lessons(r.lessons, &mut lessons);
                ReplicaBytes {
                    id: r.id,
                    version: r.version,
                    lessons,
                }
            })
            .collect()
    }

    /// Joins replicas given as bytes (a fleet database's rows) into the store, as
    /// [`ExperienceStore::merge`] joins a store. Every row is checked first: if one is refused
    /// (its [`FileError`] names the problem), nothing is joined. Allocates.
    pub fn join_bytes(&mut self, replicas: &[ReplicaBytes]) -> Result<(), FileError> {
        let slices = replicas
            .iter()
            .map(|r| {
                let mut reader = Reader(&r.lessons);
                let lessons = read_lessons(&mut reader, Self::MAX_BUDGET)?;
                if !reader.is_empty() {
                    return Err(FileError::Malformed("replica lessons (bytes after them)"));
                }
                Ok(Slice {
                    id: r.id,
                    version: r.version,
                    lessons,
                })
            })
            .collect::<Result<Vec<_>, FileError>>()?;
        for s in &slices {
            self.join(s);
        }
        self.rebuild();
        Ok(())
    }

    /// Writes as `replica` from now on. What the store wrote as its old replica stays, as that
    /// replica's lessons; if it holds lessons of `replica`, they become its own. Give each agent
    /// that starts from one shared store its own replica this way. Allocates.
    pub fn become_replica(&mut self, replica: u64) {
        if replica == self.replica {
            return;
        }
        let old = self.own_slice();
        let new = match self.others.binary_search_by_key(&replica, |o| o.id) {
            Ok(i) => self.others.remove(i),
            Err(_) => Slice {
                id: replica,
                version: 0,
                lessons: Vec::new(),
            },
        };
        self.replica = replica;
        if old.version > 0 {
            let at = self.others.partition_point(|o| o.id < old.id);
            self.others.insert(at, old);
        }
        self.adopt(&new);
        self.rebuild();
    }

    /// Starts over as a new replica that knows nothing, as a newly made agent's store: no
    /// lessons of its own or of others, clock and version 0, a new replica id derived from the
    /// old one (deterministic). Keeps the budget and the allocations: allocates nothing.
    pub fn renew(&mut self) {
        self.replica = mix(self.replica, self.version.wrapping_add(1));
        self.version = 0;
        self.clock = 0;
        self.own.clear();
        self.others.clear();
        self.sums.clear();
        self.view.clear();
    }

    /// The store's bytes (see the [module docs](self)): the same state gives the same bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.encode_into(&mut out);
        out
    }

    /// [`ExperienceStore::to_bytes`] into `out` (cleared first), reusing its allocation.
    ///
    /// # Panics
    ///
    /// Never: counts are bounded far below 4 GiB.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        FILE.begin(out);
        out.extend_from_slice(&u32_of(self.budget).to_le_bytes());
        out.extend_from_slice(&self.clock.to_le_bytes());
        out.extend_from_slice(&self.replica.to_le_bytes());
        out.extend_from_slice(&self.version.to_le_bytes());
        encode_lessons(sorted(&self.own), out);
        out.extend_from_slice(&u32_of(self.others.len()).to_le_bytes());
        for s in &self.others {
            out.extend_from_slice(&s.id.to_le_bytes());
            out.extend_from_slice(&s.version.to_le_bytes());
            encode_lessons(&s.lessons, out);
        }
        FILE.finish(out);
    }

    /// A store from its bytes, format 1 or 2 (see the [module docs](self)). Never panics;
    /// refused bytes give a [`FileError`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, FileError> {
        let (format, body) = FILE.open(bytes)?;
        let mut r = Reader(body);
        let budget = r.u32("budget")? as usize;
        if !(1..=Self::MAX_BUDGET).contains(&budget) {
            return Err(FileError::Malformed("budget"));
        }
        let clock = r.u32("clock")?;
        if format == 1 {
            // Checked before the table (sized by the budget) is made.
            let lessons = read_lessons(&mut r, budget)?;
            if !r.is_empty() {
                return Err(FileError::Malformed("body (bytes after the lessons)"));
            }
            let own = Slice {
                id: CRC64.checksum(body),
                version: u64::from(clock),
                lessons,
            };
            let mut store = Self::empty(budget, own.id, own.lessons.len());
            store.adopt(&own);
            store.clock = clock;
            return Ok(store);
        }
        let replica = r.u64("replica")?;
        let version = r.u64("version")?;
        let own = Slice {
            id: replica,
            version,
            lessons: read_lessons(&mut r, Self::MAX_BUDGET)?,
        };
        let count = r.u32("replica count")? as usize;
        if count > r.0.len() / REPLICA_HEAD {
            return Err(FileError::Malformed("replica count"));
        }
        let mut others: Vec<Slice> = Vec::with_capacity(count);
        for _ in 0..count {
            let id = r.u64("replica id")?;
            let version = r.u64("replica version")?;
            if id == replica || others.last().is_some_and(|o| o.id >= id) {
                return Err(FileError::Malformed(
                    "replica order (ids ascending, unique, not the store's own)",
                ));
            }
            if version == 0 {
                return Err(FileError::Malformed("replica version"));
            }
            let lessons = read_lessons(&mut r, Self::MAX_BUDGET)?;
            others.push(Slice {
                id,
                version,
                lessons,
            });
        }
        if !r.is_empty() {
            return Err(FileError::Malformed("body (bytes after the replicas)"));
        }
        let mut store = Self::empty(budget, replica, own.lessons.len());
        store.adopt(&own);
        store.clock = clock;
        store.others = others;
        store.rebuild();
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

/// A replica id no other store of this process or another is likely to draw: std's per-thread
/// random keys (seeded by the operating system) over a process-wide count.
fn random_replica() -> u64 {
    static DRAWN: AtomicU64 = AtomicU64::new(0);
    RandomState::new().hash_one(DRAWN.fetch_add(1, atomic::Ordering::Relaxed))
}

fn hash_of(hasher: &DefaultHashBuilder, trigger: &Value) -> u64 {
    let mut buf: Encoded = [0; Value::ENCODED_MAX];
    hasher.hash_one(trigger.encode(&mut buf))
}

/// A table's lessons in ascending order of the trigger's encoding.
fn sorted(table: &HashTable<Lesson>) -> Vec<&Lesson> {
    let mut all: Vec<&Lesson> = table.iter().collect();
    all.sort_by(|a, b| cmp_encoded(&a.trigger, &b.trigger));
    all
}

fn u32_of(n: usize) -> u32 {
    u32::try_from(n).expect("store counts are far below 4 GiB")
}

/// A count and the lessons, as the file has them.
fn encode_lessons<L: std::borrow::Borrow<Lesson>>(
    lessons: impl IntoIterator<Item = L, IntoIter: ExactSizeIterator>,
    out: &mut Vec<u8>,
) {
    let lessons = lessons.into_iter();
    out.extend_from_slice(&u32_of(lessons.len()).to_le_bytes());
    let mut buf: Encoded = [0; Value::ENCODED_MAX];
    for l in lessons {
        let l = l.borrow();
        out.extend_from_slice(l.trigger.encode(&mut buf));
        out.extend_from_slice(l.remedy.encode(&mut buf));
        for n in [l.helpful, l.harmful, l.uses, l.noted] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(&l.last_use.to_le_bytes());
    }
}

/// A count (at most `max`) and that many lessons in ascending, unique trigger order.
fn read_lessons(r: &mut Reader<'_>, max: usize) -> Result<Vec<Lesson>, FileError> {
    let count = r.u32("lesson count")? as usize;
    if count > max {
        return Err(FileError::Malformed("lesson count"));
    }
    let mut lessons = Vec::with_capacity(count.min(r.0.len() / (2 + COUNTERS)));
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
    Ok(lessons)
}

/// Whether `a` is later than `b` in their replica's chain: a higher version, or at the same
/// version the larger encoding (two live writers of one id; the choice is the same everywhere).
fn later(a: &Slice, b: &Slice) -> bool {
    a.version.cmp(&b.version).then_with(|| {
        let (mut x, mut y) = (Vec::new(), Vec::new());
        encode_lessons(&a.lessons, &mut x);
        encode_lessons(&b.lessons, &mut y);
        x.cmp(&y)
    }) == Ordering::Greater
}

/// Adds `b`'s counters to `a`'s (saturating), and takes the later `last_use`.
fn add_counts(a: &mut Lesson, b: &Lesson) {
    a.helpful = a.helpful.saturating_add(b.helpful);
    a.harmful = a.harmful.saturating_add(b.harmful);
    a.uses = a.uses.saturating_add(b.uses);
    a.noted = a.noted.saturating_add(b.noted);
    a.last_use = a.last_use.max(b.last_use);
}

/// Which of two remedies for one trigger the view shows: `Less` means `a`: the more useful
/// (recall's order), then the more noted, then the smaller encoding.
fn better(a: &Lesson, b: &Lesson) -> Ordering {
    a.recall_cmp(b)
        .then(b.noted.cmp(&a.noted))
        .then_with(|| cmp_encoded(&a.remedy, &b.remedy))
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
    use proptest::prelude::*;

    fn text(s: &str) -> Value {
        Value::text(s).unwrap()
    }

    /// A trigger of a small alphabet, so that stores share triggers.
    fn trigger(t: u64) -> Value {
        let t = t % 24;
        match t % 4 {
            0 => Value::Int(t as i64),
            1 => Value::Float(t as f64 / 4.0),
            2 => text(&format!("E{t}")),
            _ => Value::bytes(&[t as u8, 7]).unwrap(),
        }
    }

    /// `n` random notes, ratings and uses, over remedies that disagree.
    fn random_ops(s: &mut ExperienceStore, seed: u64, n: usize) {
        let mut rng = SplitMix64(seed);
        for _ in 0..n {
            let t = trigger(rng.next_u64());
            let remedy = Value::Int((rng.next_u64() % 3) as i64);
            match rng.next_u64() % 4 {
                0 | 1 => {
                    s.note(t, remedy);
                }
                2 => {
                    s.rate(&t, !rng.next_u64().is_multiple_of(3));
                }
                _ => {
                    s.count_use(&t);
                }
            }
        }
    }

    fn random_store(seed: u64, budget: usize, n: usize) -> ExperienceStore {
        let mut s = ExperienceStore::for_replica(budget, seed).unwrap();
        random_ops(&mut s, seed, n);
        s
    }

    /// What a join must agree on: every replica's version and lessons (not which one the
    /// store writes as).
    fn state(s: &ExperienceStore) -> Vec<(u64, u64, Vec<u8>)> {
        s.replicas()
            .into_iter()
            .filter(|r| r.version > 0)
            .map(|r| {
                let mut b = Vec::new();
                encode_lessons(r.lessons, &mut b);
                (r.id, r.version, b)
            })
            .collect()
    }

    /// What an agent sees.
    fn view(s: &ExperienceStore) -> Vec<u8> {
        let mut b = Vec::new();
        encode_lessons(s.lessons(), &mut b);
        b
    }

    fn joined(a: &ExperienceStore, b: &ExperienceStore) -> ExperienceStore {
        let mut m = a.clone();
        m.merge(b);
        m
    }

    #[test]
    fn budgets_out_of_range_are_refused() {
        assert_eq!(
            ExperienceStore::new(0).unwrap_err().kind(),
            ErrorKind::Config
        );
        assert!(ExperienceStore::new(ExperienceStore::MAX_BUDGET + 1).is_err());
        assert!(ExperienceStore::for_replica(0, 1).is_err());
        assert!(ExperienceStore::new(ExperienceStore::MAX_BUDGET).is_ok());
        // New stores are different replicas.
        assert_ne!(
            ExperienceStore::new(1).unwrap().replica(),
            ExperienceStore::new(1).unwrap().replica()
        );
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
        // Every change is a version; refused ones are not.
        assert_eq!((s.len(), s.clock(), s.version()), (1, 6, 6));
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
        let cap = s.own.capacity();
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
        assert_eq!(s.own.capacity(), cap, "the table grew");
    }

    #[test]
    fn the_same_state_gives_the_same_bytes_and_round_trips() {
        let mut a = ExperienceStore::for_replica(8, 1).unwrap();
        let mut b = ExperienceStore::for_replica(8, 1).unwrap();
        for t in ["x", "y", "z"] {
            a.note(text(t), Value::Int(1));
        }
        for t in ["z", "y", "x"] {
            b.note(text(t), Value::Int(1));
        }
        // Same triggers, remedies and clock, other dates: dates differ.
        assert_ne!(a.to_bytes(), b.to_bytes());
        let mut s = random_store(7, 16, 200);
        s.merge(&random_store(8, 12, 150));
        s.merge(&random_store(9, 4, 50));
        let bytes = s.to_bytes();
        let back = ExperienceStore::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(view(&back), view(&s));
        assert_eq!(
            (back.len(), back.budget(), back.clock(), back.replica()),
            (s.len(), 16, s.clock(), 7)
        );
        assert_eq!(back.replicas().len(), 3);
        let empty = ExperienceStore::new(1).unwrap().to_bytes();
        assert_eq!(ExperienceStore::from_bytes(&empty).unwrap().len(), 0);
        // The frame is pinned.
        assert_eq!(&bytes[..4], b"EVHE");
        assert_eq!(&bytes[4..6], &[2, 0]);
        assert_eq!(&bytes[HEAD..HEAD + 4], &16u32.to_le_bytes());
        assert_eq!(&bytes[HEAD + 8..HEAD + 16], &7u64.to_le_bytes());
    }

    #[test]
    fn every_truncation_and_bit_flip_is_refused() {
        let mut s = random_store(3, 8, 40);
        s.merge(&random_store(4, 8, 20));
        let bytes = s.to_bytes();
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
        v[4] = 3;
        assert_eq!(
            ExperienceStore::from_bytes(&v).unwrap_err(),
            FileError::UnsupportedVersion(3)
        );
    }

    fn frame(format: u16, body: &[u8]) -> Vec<u8> {
        let f = FileFormat {
            current: format,
            ..FILE
        };
        let mut out = Vec::new();
        f.begin(&mut out);
        out.extend_from_slice(body);
        f.finish(&mut out);
        out
    }

    fn lesson_bytes(t: &Value) -> Vec<u8> {
        let mut buf = [0; Value::ENCODED_MAX];
        let mut b = t.encode(&mut buf).to_vec();
        b.extend_from_slice(Value::Int(1).encode(&mut buf));
        b.extend_from_slice(&[0; COUNTERS]);
        b
    }

    /// Bodies with a valid checksum that a writer could not have made.
    #[test]
    fn malformed_bodies_with_good_checksums_are_refused() {
        let refused =
            |format: u16, body: &[u8]| match ExperienceStore::from_bytes(&frame(format, body)) {
                Err(FileError::Malformed(what)) => what,
                other => panic!("{other:?}"),
            };
        let u32s = |v: &[u32]| v.iter().flat_map(|n| n.to_le_bytes()).collect::<Vec<u8>>();
        // budget | clock | replica | version | count
        let head = |budget: u32, count: u32| {
            let mut b = u32s(&[budget, 0]);
            b.extend_from_slice(&5u64.to_le_bytes());
            b.extend_from_slice(&9u64.to_le_bytes());
            b.extend(u32s(&[count]));
            b
        };
        assert_eq!(refused(2, &[]), "budget");
        assert_eq!(refused(2, &u32s(&[0, 0])), "budget");
        assert_eq!(refused(2, &u32s(&[1 << 17, 0])), "budget");
        assert_eq!(refused(2, &u32s(&[1, 0])), "replica");
        assert_eq!(refused(2, &head(1, 1 << 17)), "lesson count");
        assert_eq!(refused(2, &head(2, 1)), "lesson trigger");
        let mut b = head(2, 1);
        b.push(9); // no such value kind
        assert_eq!(refused(2, &b), "lesson trigger");
        let mut b = head(2, 1);
        b.extend_from_slice(&lesson_bytes(&text("a"))[..6]);
        assert_eq!(refused(2, &b), "lesson counters");
        for order in [["b", "a"], ["a", "a"]] {
            let mut b = head(2, 2);
            b.extend(lesson_bytes(&text(order[0])));
            b.extend(lesson_bytes(&text(order[1])));
            assert_eq!(refused(2, &b), "lesson order (triggers ascending, unique)");
        }
        let mut own = head(2, 2);
        own.extend(lesson_bytes(&text("a")));
        own.extend(lesson_bytes(&text("b")));
        assert_eq!(refused(2, &own), "replica count");
        let other = |id: u64, version: u64| {
            let mut b = id.to_le_bytes().to_vec();
            b.extend_from_slice(&version.to_le_bytes());
            b.extend(u32s(&[1]));
            b.extend(lesson_bytes(&text("a")));
            b
        };
        let with = |others: &[(u64, u64)]| {
            let mut b = own.clone();
            b.extend(u32s(&[others.len() as u32]));
            for &(id, v) in others {
                b.extend(other(id, v));
            }
            b
        };
        assert!(ExperienceStore::from_bytes(&frame(2, &with(&[]))).is_ok());
        let ok = ExperienceStore::from_bytes(&frame(2, &with(&[(3, 1), (8, 2)]))).unwrap();
        // Three replicas noted remedy 1 for "a".
        assert_eq!(ok.get(&text("a")).unwrap().helpful, 0);
        assert_eq!(ok.replicas().len(), 3);
        let order = "replica order (ids ascending, unique, not the store's own)";
        assert_eq!(refused(2, &with(&[(8, 1), (3, 1)])), order);
        assert_eq!(refused(2, &with(&[(3, 1), (3, 1)])), order);
        assert_eq!(refused(2, &with(&[(5, 1)])), order);
        assert_eq!(refused(2, &with(&[(3, 0)])), "replica version");
        let mut b = with(&[(3, 1)]);
        b.push(0);
        assert_eq!(refused(2, &b), "body (bytes after the replicas)");
        let mut b = with(&[]);
        let n = b.len();
        b[n - 4..].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(refused(2, &b), "replica count");

        // Format 1: budget | clock | count | lessons.
        assert_eq!(refused(1, &u32s(&[1, 0, 2])), "lesson count");
        let mut b = u32s(&[2, 0, 2]);
        b.extend(lesson_bytes(&text("a")));
        b.extend(lesson_bytes(&text("b")));
        assert!(ExperienceStore::from_bytes(&frame(1, &b)).is_ok());
        b.push(0);
        assert_eq!(refused(1, &b), "body (bytes after the lessons)");
    }

    #[test]
    fn a_format_1_store_loads_as_one_replica_named_by_its_bytes() {
        let mut body = 4u32.to_le_bytes().to_vec();
        body.extend_from_slice(&3u32.to_le_bytes());
        body.extend_from_slice(&1u32.to_le_bytes());
        let mut l = lesson_bytes(&text("E1"));
        // helpful 2, noted 1
        let n = l.len();
        l[n - COUNTERS..n - COUNTERS + 2].copy_from_slice(&2u16.to_le_bytes());
        l[n - 6..n - 4].copy_from_slice(&1u16.to_le_bytes());
        body.extend(l);
        let old = frame(1, &body);
        let a = ExperienceStore::from_bytes(&old).unwrap();
        assert_eq!(a.replica(), CRC64.checksum(&body));
        assert_eq!((a.version(), a.clock(), a.budget()), (3, 3, 4));
        let e = a.get(&text("E1")).unwrap();
        assert_eq!((e.helpful, e.noted), (2, 1));
        // Loaded twice and merged, it counts once; rewritten, it is format 2 and loads the same.
        let b = ExperienceStore::from_bytes(&old).unwrap();
        let m = joined(&a, &b);
        assert_eq!(m.get(&text("E1")).unwrap().helpful, 2);
        let again = ExperienceStore::from_bytes(&a.to_bytes()).unwrap();
        assert_eq!(state(&again), state(&a));
    }

    /// Issue: merging the same store twice counted its lessons twice. A fleet that merges, hands
    /// the merged store back to its agents and merges again must count each lesson once.
    #[test]
    fn merging_again_counts_nothing_twice() {
        let e = text("E1");
        let mut a = ExperienceStore::for_replica(8, 1).unwrap();
        let mut b = ExperienceStore::for_replica(8, 2).unwrap();
        a.note(e.clone(), Value::Int(1));
        a.rate(&e, true);
        b.note(e.clone(), Value::Int(1));
        b.rate(&e, true);
        b.rate(&e, true);
        let twice = ExperienceStore::merge_all([&b, &b]).unwrap();
        assert_eq!(twice.get(&e).unwrap().helpful, 2);
        let fleet = ExperienceStore::merge_all([&a, &b]).unwrap();
        assert_eq!(fleet.get(&e).unwrap().helpful, 3);
        // Handed back: each agent joins the fleet's store and goes on; the fleet merges again.
        a.merge(&fleet);
        b.merge(&fleet);
        assert_eq!(a.get(&e).unwrap().helpful, 3);
        a.rate(&e, true);
        let fleet = ExperienceStore::merge_all([&fleet, &a, &b, &a, &fleet]).unwrap();
        let l = fleet.get(&e).unwrap();
        assert_eq!((l.helpful, l.noted), (4, 2));
        // An agent that only rated what another noted counts its rating, not a note.
        let mut c = ExperienceStore::for_replica(8, 3).unwrap();
        c.merge(&fleet);
        assert!(c.rate(&e, false));
        assert_eq!(c.own_lesson(&e).unwrap().noted, 0);
        let l = joined(&fleet, &c).get(&e).cloned().unwrap();
        assert_eq!((l.helpful, l.harmful, l.noted), (4, 1, 2));
    }

    #[test]
    fn the_view_sums_each_remedy_over_replicas_and_shows_the_most_useful() {
        let e = text("E1");
        let mut a = ExperienceStore::for_replica(2, 1).unwrap();
        let mut b = ExperienceStore::for_replica(2, 2).unwrap();
        let mut c = ExperienceStore::for_replica(2, 3).unwrap();
        a.note(e.clone(), Value::Int(1));
        a.rate(&e, true);
        b.note(e.clone(), Value::Int(2));
        b.rate(&e, true);
        b.rate(&e, true);
        c.note(e.clone(), Value::Int(1));
        c.rate(&e, true);
        a.note(text("E2"), Value::Int(0));
        b.note(text("E3"), Value::Int(0));
        b.rate(&text("E3"), false);
        // Remedy 1: helpful 1 + 1; remedy 2: helpful 2. Equal usefulness and uses: remedy 1
        // was noted twice.
        let m = ExperienceStore::merge_all([&a, &b, &c]).unwrap();
        let l = m.get(&e).unwrap();
        assert_eq!((&l.remedy, l.helpful, l.noted), (&Value::Int(1), 2, 2));
        // Nothing is evicted by a merge: every trigger any replica keeps is seen.
        assert_eq!(m.len(), 3);
        assert_eq!(m.get(&text("E3")).unwrap().harmful, 1);
        // The replica's own changes move the view at once, and make room in its own lessons
        // only (budget 2).
        let mut m = m;
        assert_eq!(m.replica(), 1);
        let n = m.note(text("E4"), Value::Int(0));
        assert_eq!(n.evicted.unwrap().trigger, text("E2"));
        assert!(m.get(&text("E2")).is_none());
        assert_eq!(m.len(), 3);
        // Its own remedy stays what it sees, rated down, until it notes another: then that
        // one, though the fleet's is more useful.
        m.rate(&e, false);
        m.rate(&e, false);
        let l = m.get(&e).unwrap();
        assert_eq!((&l.remedy, l.helpful, l.harmful), (&Value::Int(1), 2, 2));
        m.note(e.clone(), Value::Int(3));
        let l = m.get(&e).unwrap();
        assert_eq!((&l.remedy, l.noted), (&Value::Int(3), 1));
        // A store of no lessons of its own sees the most useful remedy: b's, now that a's
        // replica noted another.
        let mut fleet = ExperienceStore::for_replica(2, 9).unwrap();
        fleet.merge(&m);
        fleet.merge(&b);
        fleet.merge(&c);
        let l = fleet.get(&e).unwrap();
        assert_eq!((&l.remedy, l.helpful), (&Value::Int(2), 2));
    }

    #[test]
    fn become_replica_keeps_what_was_written_and_renew_forgets_everything() {
        let mut shared = random_store(1, 8, 40);
        let before = state(&shared);
        let (mut x, mut y) = (shared.clone(), shared.clone());
        x.become_replica(10);
        y.become_replica(11);
        random_ops(&mut x, 5, 30);
        random_ops(&mut y, 6, 30);
        assert_eq!(x.replicas().len(), 2);
        // Two agents that started from one store: the store is counted once.
        let m = ExperienceStore::merge_all([&x, &y, &shared]).unwrap();
        assert_eq!(state(&m).len(), 3);
        assert!(state(&m).contains(&before[0]));
        // Becoming a replica the store holds takes its lessons as its own.
        shared.merge(&x);
        shared.become_replica(10);
        assert_eq!(
            state(&shared),
            state(&joined(&x, &ExperienceStore::new(1).unwrap()))
        );
        let cap = x.own.capacity();
        let id = x.replica();
        x.renew();
        assert!(x.is_empty() && x.replicas().len() == 1);
        assert_ne!(x.replica(), id);
        assert_eq!((x.version(), x.clock(), x.own.capacity()), (0, 0, cap));
    }

    /// A fleet: replicas that note, rate and use, and now and then merge one another's stores.
    fn fleet(seed: u64, replicas: usize, rounds: usize) -> Vec<ExperienceStore> {
        let mut rng = SplitMix64(seed);
        let mut stores: Vec<ExperienceStore> = (0..replicas)
            .map(|i| {
                ExperienceStore::for_replica(2 + (rng.next_u64() % 8) as usize, i as u64 + 1)
                    .unwrap()
            })
            .collect();
        for _ in 0..rounds {
            let i = (rng.next_u64() % replicas as u64) as usize;
            random_ops(
                &mut stores[i],
                rng.next_u64(),
                1 + (rng.next_u64() % 12) as usize,
            );
            if rng.next_u64().is_multiple_of(3) {
                let j = (rng.next_u64() % replicas as u64) as usize;
                let other = stores[j].clone();
                stores[i].merge(&other);
            }
        }
        stores
    }

    /// Joins the stores along a random tree, each store taken one or more times.
    fn random_tree(stores: &[ExperienceStore], seed: u64) -> ExperienceStore {
        let mut rng = SplitMix64(seed);
        let mut pool: Vec<ExperienceStore> = stores
            .iter()
            .flat_map(|s| std::iter::repeat_n(s, 1 + (rng.next_u64() % 3) as usize))
            .cloned()
            .collect();
        while pool.len() > 1 {
            let i = (rng.next_u64() % pool.len() as u64) as usize;
            let a = pool.swap_remove(i);
            let j = (rng.next_u64() % pool.len() as u64) as usize;
            pool[j] = joined(&pool[j], &a);
        }
        pool.pop().unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        #[test]
        fn merge_is_a_join(seed in any::<u64>(), replicas in 2usize..6, rounds in 0usize..40) {
            let s = fleet(seed, replicas, rounds);
            let (a, b, c) = (&s[0], &s[1], &s[replicas - 1]);
            // Commutative, associative, idempotent: the same replicas, and (for the same own
            // replica) the same view.
            prop_assert_eq!(state(&joined(a, b)), state(&joined(b, a)));
            prop_assert_eq!(view(&joined(a, b)), view(&joined(a, &joined(b, a))));
            let left = joined(&joined(a, b), c);
            let right = joined(a, &joined(b, c));
            prop_assert_eq!(state(&left), state(&right));
            prop_assert_eq!(view(&left), view(&right));
            prop_assert_eq!(state(&joined(a, a)), state(a));
            prop_assert_eq!(view(&joined(a, a)), view(a));
            prop_assert_eq!(state(&joined(&joined(a, b), b)), state(&joined(a, b)));
            // Any merge tree, any repetition: the join of all.
            let all = ExperienceStore::merge_all(&s).unwrap();
            let tree = random_tree(&s, seed ^ 0x5eed);
            prop_assert_eq!(state(&tree), state(&all));
            prop_assert_eq!(view(&joined(&s[0], &tree)), view(&all));
            // Bytes survive, and the view is rebuilt from them alike.
            let back = ExperienceStore::from_bytes(&all.to_bytes()).unwrap();
            prop_assert_eq!(back.to_bytes(), all.to_bytes());
            prop_assert_eq!(view(&back), view(&all));
        }

        #[test]
        fn the_view_is_the_sum_over_each_replicas_last_state(
            seed in any::<u64>(), replicas in 1usize..6, rounds in 0usize..40,
        ) {
            let s = fleet(seed, replicas, rounds);
            let all = ExperienceStore::merge_all(&s).unwrap();
            // Each replica's last state is its own store's.
            let own: Vec<_> = s.iter().map(|x| (x.replica(), x.version())).collect();
            let held: Vec<_> = all.replicas().iter().map(|r| (r.id, r.version)).collect();
            let own: Vec<_> = own.into_iter().filter(|&(_, v)| v > 0).collect();
            prop_assert_eq!(held.iter().filter(|&&(_, v)| v > 0).copied().collect::<Vec<_>>(), own);
            for l in all.lessons() {
                let mut sum = Lesson { trigger: l.trigger.clone(), remedy: l.remedy.clone(), ..Lesson::default() };
                for x in &s {
                    if let Some(o) = x.own_lesson(&l.trigger).filter(|o| o.remedy.same(&l.remedy)) {
                        add_counts(&mut sum, o);
                    }
                }
                prop_assert_eq!(
                    (sum.helpful, sum.harmful, sum.uses, sum.noted, sum.last_use),
                    (l.helpful, l.harmful, l.uses, l.noted, l.last_use)
                );
            }
        }
    }

    #[test]
    fn replicas_as_bytes_join_as_stores_do_and_bad_rows_join_nothing() {
        let s = fleet(17, 4, 30);
        let all = ExperienceStore::merge_all(&s).unwrap();
        let mut rows: Vec<ReplicaBytes> = s.iter().flat_map(|x| x.replica_bytes()).collect();
        // A database keeps per replica the row with the larger (version, lessons).
        rows.sort_by(|a, b| {
            a.id.cmp(&b.id)
                .then_with(|| (b.version, &b.lessons).cmp(&(a.version, &a.lessons)))
        });
        rows.dedup_by(|next, kept| next.id == kept.id);
        let mut fresh = ExperienceStore::for_replica(4, 99).unwrap();
        fresh.join_bytes(&rows).unwrap();
        assert_eq!(view(&fresh), view(&all));
        assert_eq!(fresh.replica_bytes(), all.replica_bytes());
        // Joined again: nothing changes.
        fresh.join_bytes(&rows).unwrap();
        assert_eq!(view(&fresh), view(&all));
        let mut bad = rows.clone();
        bad.last_mut().unwrap().lessons.push(0);
        let mut other = ExperienceStore::for_replica(4, 98).unwrap();
        assert_eq!(
            other.join_bytes(&bad).unwrap_err(),
            FileError::Malformed("replica lessons (bytes after them)")
        );
        bad.last_mut().unwrap().lessons.truncate(3);
        assert!(other.join_bytes(&bad).is_err());
        assert!(other.is_empty() && other.replicas().len() == 1);
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
