//! The `decode` target: untrusted bytes as a frame and as a snapshot.
//!
//! The same input goes to [`Frame::decode`], [`Frame::take`], [`Frame::decode_cobs`] (on a
//! copy: it decodes in place) and to [`Workspace::restore`] into inline and heap workspaces of
//! two capacity sets, each already holding a session's state. Checked, besides never
//! panicking:
//!
//! - `decode` and `take` agree (`decode` is `take` with nothing left over);
//! - a decoded frame fits [`FRAME_MAX`] (and [`COBS_FRAME_MAX`] COBS-framed) when encoded
//!   again, decodes again to an equal frame, and encodes to the same bytes a second time;
//! - a refused restore leaves the workspace unchanged (its snapshot bytes are identical);
//! - an accepted restore gives a state that keeps `apply`'s invariants, whose snapshot
//!   restores and snapshots to identical bytes, and from which a short script (chosen by the
//!   input's last bytes) keeps every invariant `core`'s script interpreter checks;
//! - inline and heap workspaces of the same capacities accept and refuse alike, with the same
//!   error and the same resulting bytes.
//!
//! An input that starts with the snapshot magic is also restored *reframed*: with its format
//! version, body length and CRC-32 made right, so that the fuzzer reaches the body's checks
//! (capacities, duplicates, every item) without having to solve a checksum.

use std::sync::LazyLock;

use evoharness_core::script;
use evoharness_core::snapshot::{self, SnapshotError};
use evoharness_core::wire::{COBS_FRAME_MAX, DecodeError, FRAME_MAX, Frame};
use evoharness_core::{Config, HeapWorkspace, InlineWorkspace, Storage, Workspace};

use crate::session;

/// The first capacity set: facts, steps, lessons, tools.
pub const SMALL: (u16, u16, u16, u16) = (4, 3, 2, 2);
/// The second capacity set.
pub const LARGE: (u16, u16, u16, u16) = (8, 8, 8, 4);

/// A workspace of the [`SMALL`] capacity set, inline.
pub type SmallInline = InlineWorkspace<4, 3, 2>;
/// A workspace of the [`LARGE`] capacity set, inline.
pub type LargeInline = InlineWorkspace<8, 8, 8>;

/// The config of a capacity set: its tools, a budget of 100, default costs.
pub fn config(set: (u16, u16, u16, u16)) -> Config {
    Config::new(set.3, 100)
}

/// A workspace of `set` on the heap.
pub fn heap(set: (u16, u16, u16, u16)) -> HeapWorkspace {
    HeapWorkspace::with_capacities(set.0, set.1, set.2, config(set)).expect("valid capacities")
}

/// Plays the session on `ws`, all but its final `Finish`: the state restores are tried on.
pub fn populate<S: Storage>(mut ws: Workspace<S>) -> Workspace<S> {
    let items = session::items();
    session::play(&mut ws, &items[..items.len() - 1]);
    ws
}

struct Baselines {
    small_inline: SmallInline,
    small_heap: HeapWorkspace,
    large_inline: LargeInline,
    large_heap: HeapWorkspace,
}

static BASELINES: LazyLock<Baselines> = LazyLock::new(|| Baselines {
    small_inline: populate(SmallInline::new(config(SMALL)).expect("valid config")),
    small_heap: populate(heap(SMALL)),
    large_inline: populate(LargeInline::new(config(LARGE)).expect("valid config")),
    large_heap: populate(heap(LARGE)),
});

/// How far an input got: for tests that seeds reach past the first check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reached {
    /// `Frame::decode` accepted it.
    pub frame: bool,
    /// `Frame::take` accepted a prefix of it.
    pub take: bool,
    /// `Frame::decode_cobs` accepted it.
    pub cobs: bool,
    /// How many of the four workspaces accepted it as a snapshot.
    pub restored: u8,
    /// How many accepted it reframed (see the [module docs](self)); 0 when it needed no
    /// reframing or does not start with the magic.
    pub reframed: u8,
}

/// Runs one fuzz input; panics, naming what broke, if a check fails.
pub fn check(data: &[u8]) -> Reached {
    let mut reached = Reached::default();
    (reached.frame, reached.take) = plain(data);
    let mut copy = data.to_vec();
    if let Ok(f) = Frame::decode_cobs(&mut copy) {
        round_trip(&f);
        reached.cobs = true;
    }
    reached.restored = restore_all(data);
    if let Some(fixed) = reframe(data) {
        reached.reframed = restore_all(&fixed);
    }
    reached
}

/// Restores `data` into all four workspaces; returns how many accepted it.
fn restore_all(data: &[u8]) -> u8 {
    let b = &*BASELINES;
    let small = same(
        restore(&mut b.small_inline.clone(), data),
        restore(&mut b.small_heap.clone(), data),
    );
    let large = same(
        restore(&mut b.large_inline.clone(), data),
        restore(&mut b.large_heap.clone(), data),
    );
    2 * (u8::from(small) + u8::from(large))
}

/// Snapshot framing (`core::snapshot`): magic, format, body length, then the body; CRC last.
const HEAD: usize = 4 + 2 + 4;
const TAIL: usize = 4;

/// `data` with the snapshot framing around its body made right, if it starts with the magic
/// and is not framed right already.
pub fn reframe(data: &[u8]) -> Option<Vec<u8>> {
    if data.len() < HEAD + TAIL || data[..4] != snapshot::MAGIC {
        return None;
    }
    let fixed = frame_snapshot(&data[HEAD..data.len() - TAIL]);
    (fixed != data).then_some(fixed)
}

/// A snapshot around `body`: magic, format, length, body, checksum.
pub fn frame_snapshot(body: &[u8]) -> Vec<u8> {
    let len = u32::try_from(body.len()).expect("a body under 4 GiB");
    let mut out = Vec::with_capacity(HEAD + body.len() + TAIL);
    out.extend(snapshot::MAGIC);
    out.extend(snapshot::FORMAT.to_le_bytes());
    out.extend(len.to_le_bytes());
    out.extend(body);
    out.extend(crc32(&out).to_le_bytes());
    out
}

/// CRC-32/ISO-HDLC (zlib's), bit by bit: the checksum snapshots end with.
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = (crc >> 1) ^ (0xEDB8_8320 & (crc & 1).wrapping_neg());
        }
    }
    !crc
}

/// Checks `decode` against `take`; returns whether each accepted the input.
fn plain(data: &[u8]) -> (bool, bool) {
    let decoded = Frame::decode(data);
    match Frame::take(data) {
        Err(e) => {
            assert_eq!(decoded, Err(e), "decode and take disagree");
            (false, false)
        }
        Ok((g, [])) => {
            let f = decoded.expect("take consumed everything, yet decode refused");
            assert_eq!(
                encode(&f),
                encode(&g),
                "decode and take decoded differently"
            );
            round_trip(&g);
            (true, true)
        }
        Ok((g, rest)) => {
            assert_eq!(decoded, Err(DecodeError::TrailingBytes(rest.len())));
            round_trip(&g);
            (false, true)
        }
    }
}

fn encode(f: &Frame<'_>) -> Vec<u8> {
    let mut buf = [0; FRAME_MAX];
    f.encode(&mut buf)
        .expect("every frame fits FRAME_MAX")
        .to_vec()
}

/// Encodes a decoded frame, plain and COBS-framed, and decodes it again.
fn round_trip(f: &Frame<'_>) {
    let bytes = encode(f);
    let g = Frame::decode(&bytes).expect("a re-encoded frame decodes");
    // A frame holding a NaN is not equal to itself; its bytes are compared below all the same.
    #[expect(clippy::eq_op, reason = "false exactly when the frame holds a NaN")]
    let comparable = f == f;
    if comparable {
        assert_eq!(&g, f, "a re-encoded frame decodes to another frame");
    }
    assert_eq!(
        encode(&g),
        bytes,
        "a frame encodes to other bytes the second time"
    );

    let mut cobs = [0; COBS_FRAME_MAX];
    let cobs = f
        .encode_cobs(&mut cobs)
        .expect("every frame fits COBS_FRAME_MAX");
    let (&sentinel, body) = cobs.split_last().expect("never empty");
    assert!(sentinel == 0 && !body.contains(&0), "bad COBS framing");
    for framed in [&*cobs, body] {
        let mut copy = framed.to_vec();
        let h = Frame::decode_cobs(&mut copy).expect("a COBS-framed frame decodes");
        assert_eq!(
            encode(&h),
            bytes,
            "a COBS-framed frame decodes to another frame"
        );
    }
}

fn snap<S: Storage>(ws: &Workspace<S>) -> Vec<u8> {
    let mut buf = vec![0; snapshot::max_len(ws.capacities())];
    let n = ws
        .snapshot(&mut buf)
        .expect("max_len bytes always suffice")
        .len();
    buf.truncate(n);
    buf
}

/// Restores `data` into `ws`; returns the snapshot of the restored state.
fn restore<S: Storage>(ws: &mut Workspace<S>, data: &[u8]) -> Result<Vec<u8>, SnapshotError> {
    let before = snap(ws);
    if let Err(e) = ws.restore(data) {
        assert!(
            snap(ws) == before,
            "a refused restore ({e:?}) changed the workspace"
        );
        return Err(e);
    }
    if let Err(v) = script::check_state(ws) {
        panic!("restore accepted a state that breaks an invariant of apply: {v}");
    }
    let a = snap(ws);
    if let Err(e) = ws.restore(&a) {
        panic!("the snapshot of a restored workspace does not restore: {e:?}");
    }
    assert!(
        snap(ws) == a,
        "snapshot, restore, snapshot gave other bytes"
    );
    // A few operations from the restored state, chosen by the checksum bytes (any bytes: the
    // input was accepted, so it has at least a checksum).
    let c = &data[data.len() - 4..];
    let ops = [
        0, c[0], c[1], 1, c[2], c[3], 6, 2, c[3], c[0], 3, c[1], c[2], 7, 6,
    ];
    crate::apply::run(ws, &ops);
    Ok(a)
}

/// Inline and heap workspaces of the same capacities must agree; returns whether they
/// accepted.
fn same(inline: Result<Vec<u8>, SnapshotError>, heap: Result<Vec<u8>, SnapshotError>) -> bool {
    assert!(
        inline == heap,
        "inline and heap workspaces disagree: {inline:?} vs {heap:?}"
    );
    inline.is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_is_zlibs() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    #[test]
    fn reframing_leaves_a_valid_snapshot_alone_and_repairs_a_damaged_one() {
        let ws = populate(heap(LARGE));
        let good = snap(&ws);
        assert_eq!(reframe(&good), None);
        let mut bad = good.clone();
        let n = bad.len();
        bad[4] ^= 0xff; // format version
        bad[6] ^= 0x01; // body length
        bad[n - 1] ^= 0x80; // checksum
        assert!(ws.clone().restore(&bad).is_err());
        assert_eq!(reframe(&bad), Some(good));
        assert_eq!(reframe(b"EVH"), None);
        assert_eq!(reframe(b"not a snapshot at all"), None);
    }
}
