//! Agent checkpoints: the whole agent to one checksummed file, replaced atomically.
//!
//! A checkpoint holds everything a killed process needs to continue a task exactly where it
//! stood: the core workspace snapshot, the agent's step counters, the sampler's state, the
//! policy's recurrent state, the world's resume point where the world saves one
//! (see [`World::save_resume_point`]), and the agent's experience store if it has one.
//! [`Agent::resume`] rebuilds an agent from it; the agent writes one on its own at the
//! boundaries a [`CheckpointSchedule`] names.
//!
//! # Format (version 2)
//!
//! A framed file ([`crate::framed_file`]) with the magic "EVHA". All integers little-endian.
//!
//! ```text
//! body:
//!   policy identity          u64   (see policy::policy_identity)
//!   steps                    u64   steps taken in the current task
//!   world actions            u64
//!   harness actions          u64
//!   sampler state            u64   (SplitMix64: its whole state)
//!   recurrent state length   u32   n, in floats (0 for a feed-forward policy)
//!   recurrent state          n × f32 (IEEE 754 bits, little-endian)
//!   world resume point     u8: 0 = none; 1 = then u32 length m and m bytes
//!   workspace snapshot       u32 length w, then w bytes in the core snapshot format
//!                            (its own magic "EVHW", version and CRC-32; see core's PROTOCOL.md)
//!   experience store   u8: 0 = none; 1 = then u32 length s and s bytes in the store format
//!                            (its own magic "EVHE", version and CRC-32; see
//!                            [`crate::experience_store`])
//! ```
//!
//! Version 1 is the same without the experience store section; this crate still reads it (as a
//! checkpoint of an agent without a store) and writes version 2.
//!
//! The body must be consumed exactly. The policy identity ([`policy_identity`]) is a CRC-64 of
//! the policy's contract (ABI, layout version, capacities, observation and action sizes,
//! recurrent state length, tool names) and of the policy file's bytes
//! ([`Policy::fingerprint`]), so a checkpoint made for another policy is refused: another
//! shape, and also the same shape retrained.
//!
//! # Reading untrusted bytes
//!
//! [`Checkpoint::decode`] never panics: truncated, corrupted, foreign or hand-crafted bytes give a
//! [`CheckpointError`] that names the problem. The frame and checksum are checked before the body
//! is read ([`FileFormat::open`]); the workspace snapshot is then checked completely by the core,
//! and the experience store by its reader, when the agent is restored, and nothing of an agent is
//! built from a checkpoint that fails any check.
//!
//! An agent replaces its checkpoint file atomically ([`crate::framed_file::write_atomic`]):
//! after a crash at any instant it is either the old checkpoint or the new one, whole.
//!
//! [`World::save_resume_point`]: crate::World::save_resume_point
//! [`Agent::resume`]: crate::Agent::resume
//! [`CheckpointSchedule`]: crate::agent::CheckpointSchedule
//! [`policy_identity`]: crate::policy::policy_identity
//! [`Policy::fingerprint`]: crate::Policy::fingerprint

use std::fmt;

use crate::framed_file::{FileError, FileFormat, Reader};

/// The first four bytes of every agent checkpoint.
pub const MAGIC: [u8; 4] = *b"EVHA";
/// The checkpoint format version this crate writes; it reads this one and every earlier one
/// (from 1).
pub const FORMAT: u16 = 2;
/// The checkpoint file format: [`MAGIC`], versions 1 to [`FORMAT`].
pub const FILE: FileFormat = FileFormat {
    magic: MAGIC,
    oldest: 1,
    current: FORMAT,
};

/// Why checkpoint bytes were refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CheckpointError {
    /// The bytes are not a whole checkpoint file of a version this crate reads (truncated,
    /// corrupted, another kind of file), or its body does not parse.
    File(FileError),
    /// The checkpoint was made for a policy with another contract.
    ForeignPolicy {
        /// The identity of the policy given.
        policy: u64,
        /// The identity recorded in the checkpoint.
        checkpoint: u64,
    },
    /// The recurrent state's length differs from the policy's.
    StateLength {
        /// Floats the policy's state has.
        policy: usize,
        /// Floats the checkpoint holds.
        checkpoint: usize,
    },
    /// The workspace snapshot inside was refused by the core.
    Workspace(evoharness_core::snapshot::SnapshotError),
    /// The experience store inside was refused.
    ExperienceStore(FileError),
    /// The checkpoint was made with another budget or other costs than the configuration given
    /// to resume it; names which.
    ConfigMismatch(&'static str),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use CheckpointError::*;
        match self {
            File(e) => write!(f, "not an agent checkpoint this runtime reads: {e}"),
            ForeignPolicy { policy, checkpoint } => write!(
                f,
                "the checkpoint was made for another policy (identity {checkpoint:016x}; this \
                 policy's is {policy:016x})"
            ),
            StateLength { policy, checkpoint } => write!(
                f,
                "the checkpoint holds a recurrent state of {checkpoint} floats; the policy's has \
                 {policy}"
            ),
            Workspace(e) => write!(f, "the workspace in the checkpoint: {e}"),
            ExperienceStore(e) => write!(f, "the experience store in the checkpoint: {e}"),
            ConfigMismatch(what) => write!(
                f,
                "the checkpoint was made with another {what} than the configuration given"
            ),
        }
    }
}

impl std::error::Error for CheckpointError {}

impl From<FileError> for CheckpointError {
    fn from(e: FileError) -> Self {
        CheckpointError::File(e)
    }
}

/// An agent checkpoint, decoded (borrowing from its bytes) or about to be encoded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Checkpoint<'a> {
    /// The [`policy_identity`](crate::policy::policy_identity) of the policy that made it.
    pub policy: u64,
    /// Steps taken in the current task.
    pub steps: u64,
    /// World actions among them.
    pub world_actions: u64,
    /// Harness actions among them.
    pub harness_actions: u64,
    /// The sampler's state.
    pub rng: u64,
    /// The recurrent state.
    pub state: State<'a>,
    /// The world's resume point, if it saved one.
    pub world: Option<&'a [u8]>,
    /// The core workspace snapshot.
    pub workspace: &'a [u8],
    /// The agent's experience store, in its own format, if it has one.
    pub store: Option<&'a [u8]>,
}

/// A recurrent state as stored: `f32`s, little-endian.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct State<'a>(&'a [u8]);

impl<'a> State<'a> {
    /// Wraps little-endian `f32` bytes; `None` unless the length is a multiple of 4.
    pub fn from_le_bytes(bytes: &'a [u8]) -> Option<Self> {
        bytes.len().is_multiple_of(4).then_some(Self(bytes))
    }

    /// The bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// How many floats.
    pub fn len(&self) -> usize {
        self.0.len() / 4
    }

    /// Whether there are none (a feed-forward policy).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The floats, bit for bit.
    pub fn floats(&self) -> impl Iterator<Item = f32> + 'a {
        self.0
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
    }

    /// Writes `floats` into `out` as little-endian bytes (clearing it first) and wraps them.
    pub fn encode_into(floats: &[f32], out: &'a mut Vec<u8>) -> Self {
        out.clear();
        for f in floats {
            out.extend_from_slice(&f.to_le_bytes());
        }
        Self(out)
    }
}

impl<'a> Checkpoint<'a> {
    /// The encoded length.
    pub fn encoded_len(&self) -> usize {
        FileFormat::file_len(
            5 * 8
                + 4
                + self.state.0.len()
                + 1
                + self.world.map_or(0, |e| 4 + e.len())
                + 4
                + self.workspace.len()
                + 1
                + self.store.map_or(0, |s| 4 + s.len()),
        )
    }

    /// Appends the encoding to `out` (cleared first). Reuses `out`'s allocation.
    ///
    /// # Panics
    ///
    /// If the recurrent state, the world resume point, the workspace snapshot, the experience store
    /// or the whole body
    /// exceeds 4 GiB, which no policy or workspace this crate can build reaches.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let len32 = |n: usize| u32::try_from(n).expect("checkpoint parts are below 4 GiB");
        out.clear();
        out.reserve(self.encoded_len());
        FILE.begin(out);
        for n in [
            self.policy,
            self.steps,
            self.world_actions,
            self.harness_actions,
            self.rng,
        ] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(&len32(self.state.len()).to_le_bytes());
        out.extend_from_slice(self.state.0);
        match self.world {
            None => out.push(0),
            Some(e) => {
                out.push(1);
                out.extend_from_slice(&len32(e.len()).to_le_bytes());
                out.extend_from_slice(e);
            }
        }
        out.extend_from_slice(&len32(self.workspace.len()).to_le_bytes());
        out.extend_from_slice(self.workspace);
        match self.store {
            None => out.push(0),
            Some(s) => {
                out.push(1);
                out.extend_from_slice(&len32(s.len()).to_le_bytes());
                out.extend_from_slice(s);
            }
        }
        FILE.finish(out);
    }

    /// Reads checkpoint bytes (of any format version from 1 to [`FORMAT`]): the frame, the
    /// checksum, then the body. Never panics.
    pub fn decode(bytes: &'a [u8]) -> Result<Self, CheckpointError> {
        let (version, body) = FILE.open(bytes)?;
        let mut r = Reader(body);
        let policy = r.u64("policy identity")?;
        let steps = r.u64("step count")?;
        let world_actions = r.u64("world action count")?;
        let harness_actions = r.u64("harness action count")?;
        let rng = r.u64("sampler state")?;
        let floats = r.u32("recurrent state length")? as usize;
        let state = State(
            r.take(
                floats
                    .checked_mul(4)
                    .ok_or(FileError::Malformed("recurrent state length"))?,
                "recurrent state",
            )?,
        );
        let world = match r.take(1, "world resume point flag")?[0] {
            0 => None,
            1 => {
                let n = r.u32("world resume point length")? as usize;
                Some(r.take(n, "world resume point")?)
            }
            _ => return Err(FileError::Malformed("world resume point flag").into()),
        };
        let n = r.u32("workspace snapshot length")? as usize;
        let workspace = r.take(n, "workspace snapshot")?;
        // Version 1 ends here.
        let store = match version {
            1 => None,
            _ => match r.take(1, "experience store flag")?[0] {
                0 => None,
                1 => {
                    let n = r.u32("experience store length")? as usize;
                    Some(r.take(n, "experience store")?)
                }
                _ => return Err(FileError::Malformed("experience store flag").into()),
            },
        };
        if !r.is_empty() {
            return Err(FileError::Malformed("body (bytes after the last section)").into());
        }
        Ok(Self {
            policy,
            steps,
            world_actions,
            harness_actions,
            rng,
            state,
            world,
            workspace,
            store,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framed_file::{HEAD, TAIL};

    fn sample(state: &[u8], env: Option<&[u8]>) -> Vec<u8> {
        sample_with(state, env, None)
    }

    fn sample_with(state: &[u8], env: Option<&[u8]>, store: Option<&[u8]>) -> Vec<u8> {
        let c = Checkpoint {
            policy: 0x1234_5678_9abc_def0,
            steps: 42,
            world_actions: 10,
            harness_actions: 31,
            rng: u64::MAX - 3,
            state: State::from_le_bytes(state).unwrap(),
            world: env,
            workspace: b"EVHW-not-checked-here",
            store,
        };
        let mut out = vec![0xAA; 3];
        c.encode(&mut out);
        assert_eq!(out.len(), c.encoded_len());
        assert_eq!(Checkpoint::decode(&out).unwrap(), c);
        out
    }

    #[test]
    fn round_trips_with_and_without_state_and_position() {
        let mut floats = Vec::new();
        let state = State::encode_into(&[1.5, -0.0, f32::MIN_POSITIVE, 3e30], &mut floats);
        assert_eq!(
            state.floats().map(f32::to_bits).collect::<Vec<_>>(),
            [1.5f32, -0.0, f32::MIN_POSITIVE, 3e30].map(f32::to_bits)
        );
        sample(state.as_bytes(), Some(b"resume point"));
        sample(&[], None);
        sample(&[], Some(b""));
        sample_with(&[], None, Some(b"EVHE-not-checked-here"));
        sample_with(state.as_bytes(), Some(b"c"), Some(b""));
        assert!(State::from_le_bytes(&[0; 5]).is_none());
    }

    #[test]
    fn the_frame_is_pinned() {
        let b = sample(&[0; 8], Some(b"ab"));
        assert_eq!(&b[..4], b"EVHA");
        assert_eq!(&b[4..6], &[2, 0]);
        let body = u32::from_le_bytes(b[6..10].try_into().unwrap()) as usize;
        assert_eq!(body, b.len() - HEAD - TAIL);
        assert_eq!(&b[HEAD..HEAD + 8], &0x1234_5678_9abc_def0u64.to_le_bytes());
        assert_eq!(
            u32::from_le_bytes(b[b.len() - 4..].try_into().unwrap()),
            crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC).checksum(&b[..b.len() - 4])
        );
    }

    #[test]
    fn every_truncation_is_refused() {
        let b = sample_with(&[7; 16], Some(b"resume point bytes"), Some(b"store"));
        for n in 0..b.len() {
            let e = Checkpoint::decode(&b[..n]).unwrap_err();
            assert!(
                matches!(e, CheckpointError::File(FileError::Truncated { len, .. }) if len == n),
                "{n}: {e:?}"
            );
        }
        let mut long = b.clone();
        long.push(0);
        assert_eq!(
            Checkpoint::decode(&long),
            Err(CheckpointError::File(FileError::TrailingBytes))
        );
    }

    #[test]
    fn every_bit_flip_is_refused() {
        let b = sample_with(&[7; 16], Some(b"resume point bytes"), Some(b"store"));
        for i in 0..b.len() * 8 {
            let mut c = b.clone();
            c[i / 8] ^= 1 << (i % 8);
            assert!(
                Checkpoint::decode(&c).is_err(),
                "bit {i} flipped went unnoticed"
            );
        }
    }

    #[test]
    fn wrong_magic_and_version_are_named() {
        let b = sample(&[], None);
        let mut m = b.clone();
        m[0] = b'X';
        assert_eq!(
            Checkpoint::decode(&m),
            Err(CheckpointError::File(FileError::BadMagic))
        );
        assert_eq!(
            Checkpoint::decode(b"EVHW"),
            Err(CheckpointError::File(FileError::BadMagic))
        );
        for version in [0, 3, u16::MAX] {
            let mut v = b.clone();
            v[4..6].copy_from_slice(&version.to_le_bytes());
            assert_eq!(
                Checkpoint::decode(&v),
                Err(CheckpointError::File(FileError::UnsupportedVersion(
                    version
                )))
            );
        }
        assert!(
            CheckpointError::File(FileError::UnsupportedVersion(3))
                .to_string()
                .contains("version 3")
        );
    }

    /// Bodies with a valid checksum that a writer could not have made.
    #[test]
    fn malformed_bodies_with_good_checksums_are_refused() {
        let v_frame = |version: u16, body: &[u8]| {
            let mut out = Vec::new();
            let file = FileFormat {
                current: version,
                ..FILE
            };
            file.begin(&mut out);
            out.extend_from_slice(body);
            file.finish(&mut out);
            out
        };
        let frame = |body: &[u8]| v_frame(FORMAT, body);
        let mut body = vec![0u8; 40];
        assert_eq!(
            Checkpoint::decode(&frame(&body)),
            Err(CheckpointError::File(FileError::Malformed(
                "recurrent state length"
            )))
        );
        body.extend_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(
            Checkpoint::decode(&frame(&body)),
            Err(CheckpointError::File(FileError::Malformed(
                "recurrent state"
            )))
        );
        body.truncate(40);
        body.extend_from_slice(&0u32.to_le_bytes());
        body.push(2);
        assert_eq!(
            Checkpoint::decode(&frame(&body)),
            Err(CheckpointError::File(FileError::Malformed(
                "world resume point flag"
            )))
        );
        body.pop();
        body.push(1);
        body.extend_from_slice(&9u32.to_le_bytes());
        assert_eq!(
            Checkpoint::decode(&frame(&body)),
            Err(CheckpointError::File(FileError::Malformed(
                "world resume point"
            )))
        );
        body.truncate(44);
        body.push(0);
        body.extend_from_slice(&0u32.to_le_bytes());
        // Version 1 ends after the workspace; version 2 has the store section.
        assert_eq!(Checkpoint::decode(&v_frame(1, &body)).unwrap().store, None);
        assert_eq!(
            Checkpoint::decode(&frame(&body)),
            Err(CheckpointError::File(FileError::Malformed(
                "experience store flag"
            )))
        );
        let mut v1_long = body.clone();
        v1_long.push(0);
        assert_eq!(
            Checkpoint::decode(&v_frame(1, &v1_long)),
            Err(CheckpointError::File(FileError::Malformed(
                "body (bytes after the last section)"
            )))
        );
        body.push(2);
        assert_eq!(
            Checkpoint::decode(&frame(&body)),
            Err(CheckpointError::File(FileError::Malformed(
                "experience store flag"
            )))
        );
        body.pop();
        body.push(1);
        body.extend_from_slice(&9u32.to_le_bytes());
        assert_eq!(
            Checkpoint::decode(&frame(&body)),
            Err(CheckpointError::File(FileError::Malformed(
                "experience store"
            )))
        );
        body.truncate(49);
        body.push(0);
        assert!(Checkpoint::decode(&frame(&body)).is_ok());
        body.push(0);
        assert_eq!(
            Checkpoint::decode(&frame(&body)),
            Err(CheckpointError::File(FileError::Malformed(
                "body (bytes after the last section)"
            )))
        );
    }
}
