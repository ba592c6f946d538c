//! Untrusted bytes read as an experience store (`ExperienceStore::from_bytes`): refused with a
//! typed error, or read into a store that keeps every invariant.
//!
//! A store that was read must hold at most its budget and re-encode to bytes that read back to
//! the same bytes (the encoding is canonical; the input itself may spell a varint the long
//! way). Merging it with itself and with a fixed small store must keep the budget and be
//! commutative, byte for byte. Notes, ratings and uses driven by the input's last bytes must
//! keep the budget. An input that starts with the store's magic is read a second time with
//! its framing (length and checksum) made right, so that the body's checks are reached.

use evoharness_core::Value;
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

/// A small store the input's store is merged with.
fn other() -> ExperienceStore {
    let mut s = ExperienceStore::new(3).expect("a budget");
    for (t, r) in [("E429", 1), ("E500", 2), ("E4", 0), ("E429", 2)] {
        s.note(Value::text(t).expect("short"), Value::Int(r));
    }
    s.rate(&Value::text("E4").expect("short"), true);
    s
}

fn read(data: &[u8]) -> bool {
    let Ok(store) = ExperienceStore::from_bytes(data) else {
        return false;
    };
    assert!(
        store.len() <= store.budget(),
        "a store over its budget was read"
    );
    let bytes = store.to_bytes();
    let again = ExperienceStore::from_bytes(&bytes).expect("a store's own bytes are read");
    assert_eq!(again.to_bytes(), bytes, "a store re-encodes to other bytes");
    let twice = ExperienceStore::merge_all([&store, &store]).expect("two stores");
    assert_eq!(
        twice.len(),
        store.len(),
        "merging a store with itself changed its triggers"
    );
    let o = other();
    let mut ab = store.clone();
    ab.merge(&o);
    let mut ba = o.clone();
    ba.merge(&store);
    assert_eq!(ab.to_bytes(), ba.to_bytes(), "merge is not commutative");
    assert!(ab.len() <= ab.budget(), "a merge broke the budget");
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
        assert!(s.len() <= s.budget(), "an operation broke the budget");
    }
    true
}
