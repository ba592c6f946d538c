//! Each way a snapshot can be wrong gives its own typed error, and leaves the workspace as it
//! was.

use evoharness_core::snapshot::{self, FORMAT, MAGIC, SnapshotError};
use evoharness_core::{
    Action, Arg, Config, Event, EventKind, InlineWorkspace, Key, KeyArg, Note, Track, ValueRef,
};

type Ws = InlineWorkspace<4, 3, 2>;

fn filled() -> Ws {
    let mut w = Ws::new(Config::new(2, 50)).unwrap();
    w.observe(
        &Event::new(EventKind::Notice, 0)
            .with("schema", ValueRef::Int(2))
            .unwrap(),
    );
    for k in ["a", "b"] {
        let key = KeyArg::Lit(Key::new(k).unwrap());
        w.apply(&Action::Track(Track::Set {
            key,
            value: Arg::Field(0),
            confidence: 0.75,
        }))
        .unwrap();
    }
    let t = Arg::Lit(ValueRef::Int(429));
    w.apply(&Action::Note(Note::Add {
        trigger: t,
        remedy: Arg::Lit(ValueRef::Int(1)),
    }))
    .unwrap();
    w
}

fn snap(w: &Ws) -> Vec<u8> {
    let mut buf = vec![0; snapshot::max_len(w.capacities())];
    let n = w.snapshot(&mut buf).unwrap().len();
    buf.truncate(n);
    buf
}

/// Re-seals a modified snapshot with a correct length and checksum, as a forger would.
fn reseal(mut bytes: Vec<u8>) -> Vec<u8> {
    bytes.truncate(bytes.len() - 4);
    let body = (bytes.len() - 10) as u32;
    bytes[6..10].copy_from_slice(&body.to_le_bytes());
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
}

#[track_caller]
fn refused(bytes: &[u8], err: SnapshotError) {
    let mut target = Ws::new(Config::new(2, 50)).unwrap();
    target.apply(&Action::Finish { success: false }).unwrap();
    let before = snap(&target);
    assert_eq!(target.restore(bytes), Err(err));
    assert_eq!(
        snap(&target),
        before,
        "a refused restore changed the workspace"
    );
}

#[test]
fn a_snapshot_restores_exactly() {
    let w = filled();
    let bytes = snap(&w);
    assert_eq!(&bytes[..4], &MAGIC);
    assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), FORMAT);
    assert!(bytes.len() <= snapshot::max_len(w.capacities()));
    let mut r = Ws::new(Config::new(2, 1)).unwrap();
    r.restore(&bytes).unwrap();
    assert_eq!(snap(&r), bytes);
    assert_eq!(r.config().budget, 50, "the config comes from the snapshot");
    assert_eq!(
        r.belief().get("b").unwrap().1.value,
        evoharness_core::Value::Int(2)
    );
    assert_eq!(
        r.event().unwrap().get("schema"),
        Some(&evoharness_core::Value::Int(2))
    );
}

#[test]
fn framing_errors() {
    let bytes = snap(&filled());
    refused(&[], SnapshotError::Truncated);
    refused(&bytes[..3], SnapshotError::Truncated);
    refused(&bytes[..bytes.len() - 1], SnapshotError::Truncated);
    refused(b"PK\x03\x04 this is a zip file", SnapshotError::BadMagic);
    let mut v = bytes.clone();
    v[4] = 9;
    refused(&v, SnapshotError::UnsupportedVersion(9));
    let mut v = bytes.clone();
    v.push(0);
    refused(&v, SnapshotError::TrailingBytes);
    let mut v = bytes.clone();
    let mid = v.len() / 2;
    v[mid] ^= 0x40;
    refused(&v, SnapshotError::Checksum);
    let mut v = bytes.clone();
    v[6..10].copy_from_slice(&u32::MAX.to_le_bytes());
    refused(&v, SnapshotError::Truncated);
}

#[test]
fn foreign_capacities_are_refused() {
    let bytes = snap(&filled());
    let mut other = InlineWorkspace::<5, 3, 2>::new(Config::new(2, 50)).unwrap();
    assert_eq!(other.restore(&bytes), Err(SnapshotError::CapacityMismatch));
    let mut other = Ws::new(Config::new(3, 50)).unwrap();
    assert_eq!(other.restore(&bytes), Err(SnapshotError::CapacityMismatch));
}

#[test]
fn forged_bodies_with_valid_checksums_are_refused() {
    let bytes = snap(&filled());
    // Garbage after a valid header: the body does not decode.
    let mut v = bytes[..14].to_vec();
    v.extend_from_slice(&[0xff; 8]);
    v.extend_from_slice(&[0; 4]);
    refused(&reseal(v), SnapshotError::Malformed);

    // Duplicate keys: rename fact "b" to "a".
    let pos = bytes.windows(2).rposition(|w| w == [1, b'b']).unwrap();
    let mut v = bytes.clone();
    v[pos + 1] = b'a';
    refused(&reseal(v), SnapshotError::Invalid);

    // A confidence out of range: 0.75f32 -> 2.0f32.
    let conf = 0.75f32.to_le_bytes();
    let pos = bytes.windows(4).position(|w| w == conf).unwrap();
    let mut v = bytes.clone();
    v[pos..pos + 4].copy_from_slice(&2.0f32.to_le_bytes());
    refused(&reseal(v), SnapshotError::Invalid);

    // More facts than capacity: the fact count varint (2) -> 5.
    let mut w = Ws::new(Config::new(2, 50)).unwrap();
    w.observe(&Event::new(EventKind::Notice, 0));
    let empty = snap(&w);
    // Body: caps (4,3,2), config, clock/spent/finished/last_act, event, then the fact count.
    let count_at = empty.len() - 4 - 3; // three zero counts end the body
    assert_eq!(&empty[count_at..count_at + 3], &[0, 0, 0]);
    let mut v = empty.clone();
    v[count_at] = 5;
    refused(&reseal(v), SnapshotError::Invalid);

    // Bytes after the last item inside the body.
    let mut v = bytes.clone();
    v.insert(v.len() - 4, 0);
    refused(&reseal(v), SnapshotError::Malformed);
}

#[test]
fn small_buffers_are_an_error_not_a_panic() {
    let w = filled();
    let need = snap(&w).len();
    for n in [0, 3, 10, 14, need - 1] {
        let mut buf = vec![0; n];
        assert_eq!(
            w.snapshot(&mut buf).map(|b| b.len()),
            Err(SnapshotError::BufferTooSmall)
        );
    }
}

#[test]
fn the_same_state_always_gives_the_same_bytes() {
    assert_eq!(snap(&filled()), snap(&filled()));
}

#[test]
fn spending_past_the_budget_is_refused() {
    // Found by fuzzing: a forged snapshot with spent > budget used to restore.
    let mut w = Ws::new(Config::new(2, 3)).unwrap();
    w.apply(&Action::Finish { success: false }).unwrap();
    let bytes = snap(&w);
    // Body: caps (4, 3, 2), config (tools 2, budget 3, six costs), then clock, spent.
    let spent_at = 10 + 3 + 1 + 1 + 6 + 1;
    assert_eq!(bytes[spent_at], 0, "spent is 0 (finish is free)");
    let mut v = bytes.clone();
    v[spent_at] = 4;
    refused(&reseal(v.clone()), SnapshotError::Invalid);
    v[spent_at] = 3;
    let mut ok = Ws::new(Config::new(2, 3)).unwrap();
    ok.restore(&reseal(v)).unwrap();
    assert_eq!(ok.remaining(), 0);
}
