//! Untrusted bytes read as an experience store (`ExperienceStore::from_bytes`): refused with a
//! typed error, or read into a store that keeps every invariant.
//!
//! A store that was read must re-encode to bytes that read back to the same bytes (the encoding
//! is canonical; the input itself may spell a varint the long way). Merging is a join: merging
//! it with itself changes nothing, byte for byte, and merging with two fixed small stores is
//! commutative in what every replica holds, and associative in that and in what an agent sees.
//! Notes, ratings, uses and matches driven by the input's last bytes never add to the replica's
//! own lessons beyond the budget (a file may hold more, adopted from a store of a larger budget:
//! a note of a new trigger evicts down to it). An input that starts with the store's magic is
//! read a second time with its framing (length and checksum) made right, so that the body's
//! checks are reached.

use evoharness_core::{Lesson, Value};
use evoharness_runtime::ExperienceStore;

use crate::checkpoint::reframe_store;

/// What one input reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reached {
    /// The bytes as given were read.
    pub plain: bool,
    /// The bytes with their framing made right were read (`None`: no reframing applied).
    pub reframed: Option<bool>,
}

/// Checks one input; panics on a broken invariant.
pub fn check(data: &[u8]) -> Reached {
    Reached {
        plain: read(data),
        reframed: reframe_store(data).map(|fixed| read(&fixed)),
    }
}

/// A small store the input's store is merged with, writing as `replica`.
fn other(replica: u64) -> ExperienceStore {
    let mut s = ExperienceStore::for_replica(3, replica).expect("a budget");
    for (t, r) in [("E429", 1), ("E500", 2), ("E4", 0), ("E429", 2)] {
        s.note(Value::text(t).expect("short"), Value::Int(r));
    }
    s.rate(&Value::text("E4").expect("short"), true);
    s
}

/// Every replica's id, version and lessons (by their encodings), and what an agent sees.
fn state(s: &ExperienceStore) -> (Vec<(u64, u64, Vec<Vec<u8>>)>, Vec<Vec<u8>>) {
    let lesson = |l: &Lesson| {
        let mut buf = [0; Value::ENCODED_MAX];
        let mut b = l.trigger.encode(&mut buf).to_vec();
        b.extend_from_slice(l.remedy.encode(&mut buf));
        for n in [l.helpful, l.harmful, l.uses, l.noted] {
            b.extend_from_slice(&n.to_le_bytes());
        }
        b.extend_from_slice(&l.last_use.to_le_bytes());
        b
    };
    let replicas = s
        .replicas()
        .into_iter()
        .filter(|r| r.version > 0)
        .map(|r| (r.id, r.version, r.lessons.into_iter().map(lesson).collect()))
        .collect();
    (replicas, s.lessons().into_iter().map(lesson).collect())
}

fn joined(a: &ExperienceStore, b: &ExperienceStore) -> ExperienceStore {
    let mut m = a.clone();
    m.merge(b);
    m
}

/// How many lessons the store's own replica keeps.
fn own_len(s: &ExperienceStore) -> usize {
    s.replicas()
        .into_iter()
        .find(|r| r.id == s.replica())
        .map_or(0, |r| r.lessons.len())
}

fn read(data: &[u8]) -> bool {
    let Ok(store) = ExperienceStore::from_bytes(data) else {
        return false;
    };
    assert!(
        own_len(&store) <= ExperienceStore::MAX_BUDGET,
        "a replica over the most lessons a file may give it was read"
    );
    let bytes = store.to_bytes();
    let again = ExperienceStore::from_bytes(&bytes).expect("a store's own bytes are read");
    assert_eq!(again.to_bytes(), bytes, "a store re-encodes to other bytes");
    assert_eq!(state(&again), state(&store), "a store reads back as another");
    assert_eq!(
        joined(&store, &store).to_bytes(),
        bytes,
        "merging a store with itself changed it"
    );
    let (o, p) = (other(1), other(2));
    // The same replicas either way; an agent's view depends on which replica is its own.
    assert_eq!(
        state(&joined(&store, &o)).0,
        state(&joined(&o, &store)).0,
        "merge is not commutative"
    );
    assert_eq!(
        state(&joined(&joined(&store, &o), &p)),
        state(&joined(&store, &joined(&o, &p))),
        "merge is not associative"
    );
    // A replica may hold more lessons than the budget (adopted from a store of a larger one):
    // an operation never adds to those, and a new lesson brings them down to the budget.
    let ceiling = own_len(&store).max(store.budget());
    // Operations chosen by the last bytes, on triggers of the store and new ones.
    let mut s = store;
    let triggers: Vec<Value> = s.lessons().iter().map(|l| l.trigger.clone()).collect();
    for (i, &b) in data.iter().rev().take(8).enumerate() {
        let t = match triggers.get(usize::from(b) % (triggers.len() + 1)) {
            Some(t) => t.clone(),
            None => Value::Int(i64::from(b)),
        };
        match b % 4 {
            0 => {
                s.note(t, Value::Int(i as i64));
            }
            1 => {
                s.rate(&t, b & 0x10 != 0);
            }
            2 => {
                s.count_use(&t);
            }
            _ => {
                std::hint::black_box(s.matches::<4>(&t, usize::from(b % 5)));
            }
        }
        assert!(own_len(&s) <= ceiling, "an operation broke the budget");
    }
    true
}
