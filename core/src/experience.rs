//! Experience: trigger → remedy lessons that outlive one task.

use core::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::max::MaxEncoded;
use crate::table::{Slots, Table};
use crate::value::Value;

/// One lesson.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Lesson {
    /// What situation the lesson is for (an error code, a field value).
    pub trigger: Value,
    /// What to do about it (a tool index, a setting).
    pub remedy: Value,
    /// How often it was rated helpful.
    pub helpful: u16,
    /// How often it was rated harmful.
    pub harmful: u16,
    /// How often recall returned it.
    pub uses: u16,
    /// How often it was noted (merges included).
    pub noted: u16,
    /// The workspace clock at its last recall (or its creation).
    pub last_use: u32,
    /// Whether the most recent recall returned it.
    pub recalled: bool,
}

impl Lesson {
    /// `(helpful + 1) / (helpful + harmful + 2)` as an exact fraction (numerator, denominator).
    fn usefulness(&self) -> (u64, u64) {
        (
            u64::from(self.helpful) + 1,
            u64::from(self.helpful) + u64::from(self.harmful) + 2,
        )
    }

    /// The usefulness as a float, for scores and observations.
    pub fn usefulness_f32(&self) -> f32 {
        let (n, d) = self.usefulness();
        n as f32 / d as f32
    }

    /// Recall order: `Less` means `self` ranks before `other` (given equal match rank): higher
    /// usefulness first, then more uses. Ties are left to the caller (the workspace takes the
    /// lower slot).
    pub fn recall_cmp(&self, other: &Lesson) -> Ordering {
        let (an, ad) = self.usefulness();
        let (bn, bd) = other.usefulness();
        // Exact comparison of fractions: a/b > c/d  <=>  a*d > c*b (products of 17-bit numbers fit u64).
        (bn * ad).cmp(&(an * bd)).then(other.uses.cmp(&self.uses))
    }

    /// Eviction order: `Less` means `self` is evicted before `other`: lower
    /// `helpful - harmful` first, then fewer uses, then an older `last_use`. Ties are left to
    /// the caller (the workspace takes the lower slot).
    pub fn evict_cmp(&self, other: &Lesson) -> Ordering {
        let net = |l: &Lesson| i32::from(l.helpful) - i32::from(l.harmful);
        net(self)
            .cmp(&net(other))
            .then(self.uses.cmp(&other.uses))
            .then(self.last_use.cmp(&other.last_use))
    }
}

/// One lesson returned by recall.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recalled {
    /// The lesson's slot.
    pub slot: u16,
    /// `rank + usefulness`: 2.x for an exact match, 1.x for a prefix match.
    pub score: f32,
}

/// What [`Workspace::load_lesson`](crate::Workspace::load_lesson) did.
#[derive(Clone, Debug, PartialEq)]
pub enum Loaded {
    /// A lesson with that trigger was there: its remedy and counters were replaced.
    Updated {
        /// Its slot.
        slot: u16,
    },
    /// The lesson was added in a free slot.
    Added {
        /// Its slot.
        slot: u16,
    },
    /// Experience was full: `evicted`, the weakest lesson whose trigger does not match the
    /// query, was removed (the lessons after it moved down one slot) and the lesson added last.
    Replaced {
        /// The new lesson's slot.
        slot: u16,
        /// The lesson that made room.
        evicted: Lesson,
    },
}

/// The Experience part of a workspace: trigger → remedy lessons that outlive one task.
///
/// - **note** adds a lesson; a lesson whose trigger equals an existing one is *merged* into it
///   instead: the same remedy reinforces it (`noted + 1`), a different remedy replaces the old
///   one and resets its ratings (they rated the old remedy).
/// - **rate** counts a lesson helpful or harmful.
/// - **recall** returns the top-k lessons whose trigger matches the query, best first, and
///   counts a use of each. A trigger *matches* when it equals the query (rank 2) or, for text and
///   bytes, one is a non-empty prefix of the other (rank 1). The order is rank, then usefulness
///   `(helpful + 1) / (helpful + harmful + 2)`, then uses, then the lower slot; the reported
///   score is `rank + usefulness`.
/// - **consolidate** evicts the least-frequently-useful lessons until at most `keep` remain
///   (at most [`REMOVE_MAX`](crate::REMOVE_MAX) per action): lowest `helpful - harmful` first,
///   then fewest uses, then least recently used, then the lower slot.
///
/// A workspace's Experience can be the *working set* of a larger library kept outside it (the
/// runtime's experience store): [`Workspace::load_lesson`](crate::Workspace::load_lesson) brings
/// a lesson in ahead of a recall, and [`Lesson::recall_cmp`], [`Lesson::evict_cmp`] and
/// [`Value::match_rank`] are public so that such a library orders lessons exactly as recall and
/// consolidation do.
#[derive(Clone, Debug)]
pub struct Experience<S> {
    pub(crate) table: Table<Lesson, S>,
}

impl<S: Slots<Lesson>> Experience<S> {
    pub(crate) fn new(slots: S) -> Self {
        Self {
            table: Table::new(slots),
        }
    }

    /// The lessons, in slot order.
    pub fn lessons(&self) -> &[Lesson] {
        self.table.as_slice()
    }

    /// How many lessons there are.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether there are no lessons.
    pub fn is_empty(&self) -> bool {
        self.table.len() == 0
    }

    /// How many lessons fit.
    pub fn capacity(&self) -> usize {
        self.table.capacity()
    }

    /// The slot of the lesson with exactly this trigger.
    pub fn find(&self, trigger: &Value) -> Option<usize> {
        self.lessons().iter().position(|l| l.trigger.same(trigger))
    }

    /// The best `k` matches for `query`, best first, without counting a use.
    pub fn matches<const K: usize>(&self, query: &Value, k: usize) -> heapless::Vec<Recalled, K> {
        let mut out: heapless::Vec<Recalled, K> = heapless::Vec::new();
        let k = k.min(K);
        let lessons = self.lessons();
        let ranks = |i: usize| lessons[i].trigger.match_rank(query);
        for (i, l) in lessons.iter().enumerate() {
            let rank = ranks(i);
            if rank == 0 {
                continue;
            }
            // Insertion into a short sorted list: position of the first entry ranked below.
            let pos = out
                .iter()
                .position(|r| {
                    let other = &lessons[r.slot as usize];
                    let orank = ranks(r.slot as usize);
                    rank > orank || (rank == orank && l.recall_cmp(other) == Ordering::Less)
                })
                .unwrap_or(out.len());
            if pos >= k {
                continue;
            }
            if out.len() == k {
                out.pop();
            }
            let score = f32::from(rank) + l.usefulness_f32();
            // Room was made above; slots fit u16 because capacities do.
            let _ = out.insert(
                pos,
                Recalled {
                    slot: i as u16,
                    score,
                },
            );
        }
        out
    }

    /// The slot that consolidation would evict next, if any.
    pub(crate) fn weakest(&self) -> Option<usize> {
        self.weakest_where(|_| true)
    }

    /// The weakest lesson among those `keep` accepts (the lower slot on ties).
    fn weakest_where(&self, keep: impl Fn(&Lesson) -> bool) -> Option<usize> {
        let lessons = self.lessons();
        (0..lessons.len())
            .filter(|&i| keep(&lessons[i]))
            .reduce(|a, b| {
                if lessons[b].evict_cmp(&lessons[a]) == Ordering::Less {
                    b
                } else {
                    a
                }
            })
    }

    /// See [`Workspace::load_lesson`](crate::Workspace::load_lesson).
    pub(crate) fn load(&mut self, lesson: Lesson, query: &Value) -> Result<Loaded, Lesson> {
        // Slots fit u16: capacities do.
        if let Some(i) = self.find(&lesson.trigger) {
            let l = &mut self.table.as_mut_slice()[i];
            l.remedy = lesson.remedy;
            l.helpful = lesson.helpful;
            l.harmful = lesson.harmful;
            l.uses = lesson.uses;
            l.noted = lesson.noted;
            return Ok(Loaded::Updated { slot: i as u16 });
        }
        if !self.table.is_full() {
            let slot = self.table.push(lesson)?;
            return Ok(Loaded::Added { slot: slot as u16 });
        }
        let Some(i) = self.weakest_where(|l| l.trigger.match_rank(query) == 0) else {
            return Err(lesson);
        };
        let evicted = self.table.remove(i);
        let slot = self.table.push(lesson)?;
        Ok(Loaded::Replaced {
            slot: slot as u16,
            evicted,
        })
    }
}

impl MaxEncoded for Recalled {
    const BOUND: usize = u16::BOUND + f32::BOUND;
}
impl MaxEncoded for Lesson {
    const BOUND: usize = 2 * Value::BOUND + 4 * u16::BOUND + u32::BOUND + bool::BOUND;
}
