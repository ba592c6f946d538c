//! Snapshots: the whole workspace to checksummed bytes and back.
//!
//! ```text
//! magic "EVHW" | format version: u16 LE | body length: u32 LE | body (postcard) | CRC-32: u32 LE
//! ```
//!
//! The CRC-32 (IEEE, as zlib) covers everything before it. The body is specified in
//! `PROTOCOL.md`. Restoring is all-or-nothing: the bytes are checked completely (framing,
//! checksum, every item, and the invariants `apply` relies on: capacities, unique keys and
//! triggers, confidences in range, spending within the budget, the last act within the tool
//! schema) before the workspace is touched, so truncated, corrupted, foreign or hand-crafted
//! bytes give a [`SnapshotError`] and leave the workspace as it was. Snapshotting the same state always gives the same bytes.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::action::Verb;
use crate::belief::Fact;
use crate::event::EventBuf;
use crate::experience::Lesson;
use crate::max::MaxEncoded;
use crate::progress::Step;
use crate::workspace::Storage;
use crate::workspace::{Capacities, Config, Workspace};

/// The first four bytes of every snapshot.
pub const MAGIC: [u8; 4] = *b"EVHW";
/// The snapshot format version this crate writes. It reads this one and every earlier one.
///
/// Format 2 adds the harness streak and the last action's verb (what a structured-v2
/// observation shows) after the last world action; a format 1 snapshot restores with a streak
/// of 0 and no last verb, as a task that has just begun.
pub const FORMAT: u16 = 2;
const HEAD: usize = 4 + 2 + 4;

/// CRC-32/ISO-HDLC (the zlib/IEEE CRC-32) with a 1 KiB table: small flash matters more here
/// than speed, as snapshots are a few KiB.
static CRC: crc::Crc<u32, crc::Table<1>> =
    crc::Crc::<u32, crc::Table<1>>::new(&crc::CRC_32_ISO_HDLC);
const TAIL: usize = 4;

/// An upper bound on the snapshot of a workspace with these capacities, in bytes: a buffer of
/// this size always suffices.
pub const fn max_len(caps: Capacities) -> usize {
    HEAD + 3 * u16::BOUND
        + Config::BOUND
        + 2 * u32::BOUND
        + Option::<bool>::BOUND
        + Option::<u16>::BOUND
        + u16::BOUND
        + Option::<u8>::BOUND
        + Option::<EventBuf>::BOUND
        + 3 * u16::BOUND
        + caps.facts as usize * Fact::BOUND
        + caps.steps as usize * Step::BOUND
        + caps.lessons as usize * Lesson::BOUND
        + TAIL
}

/// Taking or restoring a snapshot failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SnapshotError {
    /// The output buffer is too small ([`max_len`] bytes never is).
    BufferTooSmall,
    /// The input ends early.
    Truncated,
    /// The input does not start with [`MAGIC`]: it is not a workspace snapshot.
    BadMagic,
    /// The snapshot is of a format version this crate does not read.
    UnsupportedVersion(u16),
    /// The checksum does not match: the bytes were corrupted.
    Checksum,
    /// Bytes follow the checksum.
    TrailingBytes,
    /// The body does not decode (it passed the checksum, so it was written that way).
    Malformed,
    /// The snapshot's capacities (or tool count) differ from the workspace's.
    CapacityMismatch,
    /// The body decodes but breaks an invariant (duplicate keys, a confidence out of range,
    /// more items than capacity, ...).
    Invalid,
}

impl core::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use SnapshotError::*;
        match self {
            BufferTooSmall => f.write_str("the output buffer is too small for the snapshot"),
            Truncated => f.write_str("the snapshot is truncated"),
            BadMagic => f.write_str("not a workspace snapshot (bad magic)"),
            UnsupportedVersion(v) => {
                write!(
                    f,
                    "snapshot format {v} is not supported (this side reads formats 1 to {FORMAT})"
                )
            }
            Checksum => f.write_str("the snapshot checksum does not match (corrupted)"),
            TrailingBytes => f.write_str("bytes follow the snapshot"),
            Malformed => f.write_str("the snapshot body is malformed"),
            CapacityMismatch => {
                f.write_str("the snapshot's capacities differ from the workspace's")
            }
            Invalid => f.write_str("the snapshot breaks a workspace invariant"),
        }
    }
}

impl core::error::Error for SnapshotError {}

struct Out<'b> {
    buf: &'b mut [u8],
    pos: usize,
}

impl Out<'_> {
    fn put<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), SnapshotError> {
        let rest = self
            .buf
            .get_mut(self.pos..)
            .ok_or(SnapshotError::BufferTooSmall)?;
        let n = postcard::to_slice(v, rest)
            .map_err(|_| SnapshotError::BufferTooSmall)?
            .len();
        self.pos += n;
        Ok(())
    }
}

struct In<'b> {
    rest: &'b [u8],
}

impl In<'_> {
    fn get<T: DeserializeOwned>(&mut self) -> Result<T, SnapshotError> {
        let (v, rest) =
            postcard::take_from_bytes(self.rest).map_err(|_| SnapshotError::Malformed)?;
        self.rest = rest;
        Ok(v)
    }

    fn len(&mut self, cap: usize) -> Result<usize, SnapshotError> {
        let n: u16 = self.get()?;
        if usize::from(n) > cap {
            Err(SnapshotError::Invalid)
        } else {
            Ok(usize::from(n))
        }
    }
}

impl<St: Storage> Workspace<St> {
    /// Writes a snapshot into `buf`; returns the used prefix. A buffer of
    /// [`max_len`]`(self.capacities())` bytes always suffices.
    pub fn snapshot<'b>(&self, buf: &'b mut [u8]) -> Result<&'b mut [u8], SnapshotError> {
        if buf.len() < HEAD + TAIL {
            return Err(SnapshotError::BufferTooSmall);
        }
        let mut out = Out {
            buf: &mut *buf,
            pos: HEAD,
        };
        let caps = self.capacities();
        out.put(&(caps.facts, caps.steps, caps.lessons))?;
        out.put(&self.config)?;
        out.put(&(self.clock, self.spent, self.finished, self.last_act))?;
        out.put(&(self.streak, self.last_verb.map(|v| v as u8)))?;
        out.put(&self.event)?;
        // Lengths fit u16: capacities do.
        out.put(&(self.belief.len() as u16))?;
        for f in self.belief.facts() {
            out.put(f)?;
        }
        out.put(&(self.progress.len() as u16))?;
        for s in self.progress.steps() {
            out.put(s)?;
        }
        out.put(&(self.experience.len() as u16))?;
        for l in self.experience.lessons() {
            out.put(l)?;
        }
        let end = out.pos;
        if end + TAIL > buf.len() {
            return Err(SnapshotError::BufferTooSmall);
        }
        buf[..4].copy_from_slice(&MAGIC);
        buf[4..6].copy_from_slice(&FORMAT.to_le_bytes());
        // The body is bounded by `max_len`, far below 4 GiB.
        buf[6..10].copy_from_slice(&((end - HEAD) as u32).to_le_bytes());
        let crc = CRC.checksum(&buf[..end]);
        buf[end..end + TAIL].copy_from_slice(&crc.to_le_bytes());
        Ok(&mut buf[..end + TAIL])
    }

    /// Replaces the whole state with a snapshot's. All-or-nothing: on error the workspace is
    /// unchanged.
    pub fn restore(&mut self, bytes: &[u8]) -> Result<(), SnapshotError> {
        let (version, body) = frame(bytes)?;
        self.read(version, body, false)?;
        self.read(version, body, true)
    }

    /// Reads the body; checks everything when `write` is false, stores it when true. The
    /// checking pass runs first and the decoding is deterministic, so the storing pass cannot
    /// fail half-way.
    fn read(&mut self, version: u16, body: &[u8], write: bool) -> Result<(), SnapshotError> {
        let mut r = In { rest: body };
        let (facts, steps, lessons): (u16, u16, u16) = r.get()?;
        let config: Config = r.get()?;
        let caps = Capacities {
            facts,
            steps,
            lessons,
            tools: config.tools,
        };
        if caps != self.capacities() {
            return Err(SnapshotError::CapacityMismatch);
        }
        let (clock, spent, finished, last_act): (u32, u32, Option<bool>, Option<u16>) = r.get()?;
        let (streak, last_verb): (u16, Option<u8>) =
            if version >= 2 { r.get()? } else { (0, None) };
        let last_verb = match last_verb {
            None => None,
            Some(v) => Some(Verb::from_u8(v).ok_or(SnapshotError::Invalid)?),
        };
        let event: Option<EventBuf> = r.get()?;
        if spent > config.budget || last_act.is_some_and(|t| t >= config.tools) {
            return Err(SnapshotError::Invalid);
        }
        if write {
            self.config = config;
            self.clock = clock;
            self.spent = spent;
            self.finished = finished;
            self.last_act = last_act;
            self.streak = streak;
            self.last_verb = last_verb;
            self.event = event;
            self.belief.table.clear();
            self.progress.table.clear();
            self.experience.table.clear();
        }
        let n = r.len(self.belief.capacity())?;
        let facts_at = r.rest;
        for i in 0..n {
            let f: Fact = r.get()?;
            // Keys are unique: compare with the facts before this one, decoded again from the
            // bytes (no allocation; quadratic, but only in the checking pass).
            let dup = !write && earlier::<Fact>(facts_at, i, |g| g.key == f.key);
            if dup || !(0.0..=1.0).contains(&f.confidence) {
                return Err(SnapshotError::Invalid);
            }
            if write {
                let _ = self.belief.table.push(f);
            }
        }
        let n = r.len(self.progress.capacity())?;
        for _ in 0..n {
            let s: Step = r.get()?;
            if write {
                let _ = self.progress.table.push(s);
            }
        }
        let n = r.len(self.experience.capacity())?;
        let lessons_at = r.rest;
        for i in 0..n {
            let l: Lesson = r.get()?;
            // Triggers are unique (note merges duplicates).
            if !write && earlier::<Lesson>(lessons_at, i, |g| g.trigger.same(&l.trigger)) {
                return Err(SnapshotError::Invalid);
            }
            if write {
                let _ = self.experience.table.push(l);
            }
        }
        if !r.rest.is_empty() {
            return Err(SnapshotError::Malformed);
        }
        Ok(())
    }
}

/// Whether any of the first `n` items encoded at `at` satisfies `pred`.
fn earlier<T: DeserializeOwned>(at: &[u8], n: usize, pred: impl Fn(&T) -> bool) -> bool {
    let mut r = In { rest: at };
    (0..n).any(|_| r.get::<T>().is_ok_and(|g| pred(&g)))
}

/// Checks the framing and checksum; returns the format version and the body.
fn frame(bytes: &[u8]) -> Result<(u16, &[u8]), SnapshotError> {
    if bytes.len() >= 4 && bytes[..4] != MAGIC {
        return Err(SnapshotError::BadMagic);
    }
    if bytes.len() < HEAD + TAIL {
        return Err(SnapshotError::Truncated);
    }
    let version = u16::from_le_bytes([bytes[4], bytes[5]]);
    if version == 0 || version > FORMAT {
        return Err(SnapshotError::UnsupportedVersion(version));
    }
    let len = u32::from_le_bytes([bytes[6], bytes[7], bytes[8], bytes[9]]) as usize;
    let end = HEAD.checked_add(len).ok_or(SnapshotError::Truncated)?;
    let total = end.checked_add(TAIL).ok_or(SnapshotError::Truncated)?;
    if bytes.len() < total {
        return Err(SnapshotError::Truncated);
    }
    if bytes.len() > total {
        return Err(SnapshotError::TrailingBytes);
    }
    let crc = u32::from_le_bytes([bytes[end], bytes[end + 1], bytes[end + 2], bytes[end + 3]]);
    if CRC.checksum(&bytes[..end]) != crc {
        return Err(SnapshotError::Checksum);
    }
    Ok((version, &bytes[HEAD..end]))
}
