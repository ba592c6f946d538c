//! The runtime's one file format: a body inside a frame that says what the file is, which
//! version of it, how long it is, and whether it arrived whole; and the atomic replace that
//! writes such a file. Agent checkpoints ([`crate::checkpoint`]) and experience stores
//! ([`crate::experience_store`]) are framed files; each defines only its magic, its versions and
//! its body.
//!
//! # Frame
//!
//! All integers little-endian.
//!
//! ```text
//! magic: 4 bytes | format version: u16 | body length: u32 | body | CRC-32: u32
//! ```
//!
//! The CRC-32 (IEEE, as zlib; the core workspace snapshot's) covers every byte before it: the
//! magic, the version and the length too. Nothing may follow it.
//!
//! # Reading untrusted bytes
//!
//! [`FileFormat::open`] never panics. It checks, in this order, the magic (as soon as four
//! bytes are there), the length of the frame, the version, the body length against the bytes
//! there, and the checksum, and hands out the body only when all hold; a [`FileError`] names
//! the first that fails. A body that passed the checksum was written that way, so a body that
//! ends early, or a body that breaks a rule of its format, is [`FileError::Malformed`],
//! naming the field.
//!
//! # Atomic replace
//!
//! [`write_atomic`] writes the bytes to a temporary file beside the target ([`temp_path`]: the
//! target's name with `.tmp` appended), syncs it to disk, renames it over the target and (on
//! Unix) syncs the directory, so that after a crash at any instant the target is either the old
//! file or the new one, whole. A temporary file left by a crash is overwritten by the next
//! write.

use std::ffi::OsString;
use std::fmt;
use std::fs::{self, File};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The frame's bytes before the body: magic, version, body length.
pub(crate) const HEAD: usize = 4 + 2 + 4;
/// The frame's bytes after the body: the checksum.
pub(crate) const TAIL: usize = 4;

/// The same CRC-32 as core's workspace snapshots.
static CRC32: crc::Crc<u32, crc::Table<1>> =
    crc::Crc::<u32, crc::Table<1>>::new(&crc::CRC_32_ISO_HDLC);

/// The runtime's 64-bit checksum (CRC-64/XZ): policy files' fingerprints and identities, and the
/// replica name of an experience store read from a format-1 file.
pub(crate) static CRC64: crc::Crc<u64, crc::Table<1>> =
    crc::Crc::<u64, crc::Table<1>>::new(&crc::CRC_64_XZ);

/// One kind of framed file: its magic and the versions this crate reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileFormat {
    /// The first four bytes of every file of this kind.
    pub magic: [u8; 4],
    /// The oldest version this crate reads.
    pub oldest: u16,
    /// The version this crate writes, and the newest it reads.
    pub current: u16,
}

impl FileFormat {
    /// The length of a file whose body is `body` bytes long.
    pub const fn file_len(body: usize) -> usize {
        HEAD + body + TAIL
    }

    /// Starts a file in `out` (cleared first): the magic, the current version and room for the
    /// body length. Append the body, then [`FileFormat::finish`].
    pub fn begin(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(&self.magic);
        out.extend_from_slice(&self.current.to_le_bytes());
        out.extend_from_slice(&[0; 4]);
    }

    /// Ends the file that [`FileFormat::begin`] started in `out`: fills in the body length and
    /// appends the checksum.
    ///
    /// # Panics
    ///
    /// If the body exceeds 4 GiB, which no file this crate writes reaches.
    pub fn finish(&self, out: &mut Vec<u8>) {
        let body = u32::try_from(out.len() - HEAD).expect("a framed body is below 4 GiB");
        out[6..HEAD].copy_from_slice(&body.to_le_bytes());
        let crc = CRC32.checksum(out);
        out.extend_from_slice(&crc.to_le_bytes());
    }

    /// Checks the frame of `bytes` (see the [module docs](self)); returns the version and the
    /// body. Never panics.
    pub fn open<'a>(&self, bytes: &'a [u8]) -> Result<(u16, &'a [u8]), FileError> {
        if bytes.len() >= 4 && bytes[..4] != self.magic {
            return Err(FileError::BadMagic);
        }
        let truncated = |need| FileError::Truncated {
            len: bytes.len(),
            need,
        };
        if bytes.len() < HEAD + TAIL {
            return Err(truncated(HEAD + TAIL));
        }
        let version = u16::from_le_bytes([bytes[4], bytes[5]]);
        if !(self.oldest..=self.current).contains(&version) {
            return Err(FileError::UnsupportedVersion(version));
        }
        let body_len = u32::from_le_bytes([bytes[6], bytes[7], bytes[8], bytes[9]]) as usize;
        let end = HEAD.saturating_add(body_len);
        let total = end.saturating_add(TAIL);
        if bytes.len() < total {
            return Err(truncated(total));
        }
        if bytes.len() > total {
            return Err(FileError::TrailingBytes);
        }
        let crc = u32::from_le_bytes([bytes[end], bytes[end + 1], bytes[end + 2], bytes[end + 3]]);
        if CRC32.checksum(&bytes[..end]) != crc {
            return Err(FileError::Checksum);
        }
        Ok((version, &bytes[HEAD..end]))
    }
}

/// Why the bytes of a framed file were refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FileError {
    /// The bytes end early: `len` bytes where the frame needs at least `need`.
    Truncated {
        /// Bytes there are.
        len: usize,
        /// Bytes the frame needs.
        need: usize,
    },
    /// The bytes do not start with the format's magic: another kind of file.
    BadMagic,
    /// A format version this crate does not read.
    UnsupportedVersion(u16),
    /// The checksum does not match: the bytes were corrupted.
    Checksum,
    /// Bytes follow the checksum.
    TrailingBytes,
    /// The body does not parse or breaks a rule of its format (it passed the checksum, so it
    /// was written that way); names the field.
    Malformed(&'static str),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FileError::*;
        match self {
            Truncated { len, need } => {
                write!(f, "the file is truncated ({len} bytes, needs {need})")
            }
            BadMagic => f.write_str("another kind of file (bad magic)"),
            UnsupportedVersion(v) => {
                write!(f, "format version {v} is not one this runtime reads")
            }
            Checksum => f.write_str("the checksum does not match (corrupted)"),
            TrailingBytes => f.write_str("bytes follow the checksum"),
            Malformed(what) => write!(f, "the {what} is malformed"),
        }
    }
}

impl std::error::Error for FileError {}

/// Reads the fields of a body that passed its checksum; running out is
/// [`FileError::Malformed`], naming the field.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Reader<'a>(pub(crate) &'a [u8]);

impl<'a> Reader<'a> {
    /// The next `n` bytes.
    pub(crate) fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], FileError> {
        if self.0.len() < n {
            return Err(FileError::Malformed(what));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    /// The next little-endian `u16`.
    pub(crate) fn u16(&mut self, what: &'static str) -> Result<u16, FileError> {
        let b = self.take(2, what)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    /// The next little-endian `u32`.
    pub(crate) fn u32(&mut self, what: &'static str) -> Result<u32, FileError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// The next little-endian `u64`.
    pub(crate) fn u64(&mut self, what: &'static str) -> Result<u64, FileError> {
        let b = self.take(8, what)?;
        let mut a = [0; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }

    /// Whether the body has been read to its end.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The temporary file [`write_atomic`] uses for `path`: its name with `.tmp` appended, in the
/// same directory (a rename is atomic only within one file system).
pub fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map_or_else(OsString::new, OsString::from);
    name.push(".tmp");
    path.with_file_name(name)
}

/// Replaces `path` with `bytes` atomically: writes `tmp` (see [`temp_path`]), syncs it, renames
/// it over `path`, and syncs the directory (on Unix; elsewhere the rename is as durable as the
/// platform makes it). After a crash at any point, `path` holds the old bytes or the new ones.
pub fn write_atomic(path: &Path, tmp: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = File::create(tmp)?;
    f.write_all(bytes)?;
    f.sync_all()?;
    drop(f);
    fs::rename(tmp, path)?;
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        File::open(dir)?.sync_all()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST: FileFormat = FileFormat {
        magic: *b"TEST",
        oldest: 2,
        current: 3,
    };

    fn file(body: &[u8]) -> Vec<u8> {
        let mut out = vec![0xAA; 3];
        TEST.begin(&mut out);
        out.extend_from_slice(body);
        TEST.finish(&mut out);
        assert_eq!(out.len(), FileFormat::file_len(body.len()));
        out
    }

    #[test]
    fn the_frame_is_pinned() {
        let b = file(b"body");
        assert_eq!(&b[..4], b"TEST");
        assert_eq!(&b[4..6], &[3, 0]);
        assert_eq!(&b[6..10], &4u32.to_le_bytes());
        assert_eq!(&b[10..14], b"body");
        assert_eq!(
            u32::from_le_bytes(b[14..].try_into().unwrap()),
            crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC).checksum(&b[..14])
        );
        assert_eq!(TEST.open(&b), Ok((3, &b"body"[..])));
    }

    #[test]
    fn every_truncation_bit_flip_and_extra_byte_is_refused() {
        let b = file(b"some body bytes");
        for n in 0..b.len() {
            let e = TEST.open(&b[..n]).unwrap_err();
            assert!(
                matches!(e, FileError::Truncated { len, .. } if len == n),
                "{n}: {e:?}"
            );
        }
        for i in 0..b.len() * 8 {
            let mut c = b.clone();
            c[i / 8] ^= 1 << (i % 8);
            assert!(TEST.open(&c).is_err(), "bit {i} flipped went unnoticed");
        }
        let mut long = b.clone();
        long.push(0);
        assert_eq!(TEST.open(&long), Err(FileError::TrailingBytes));
    }

    #[test]
    fn wrong_magic_and_versions_are_named() {
        let b = file(b"");
        assert_eq!(TEST.open(b"EVHA"), Err(FileError::BadMagic));
        for version in [0, 1, 4, u16::MAX] {
            let mut v = b.clone();
            v[4..6].copy_from_slice(&version.to_le_bytes());
            assert_eq!(TEST.open(&v), Err(FileError::UnsupportedVersion(version)));
        }
        let mut old = b.clone();
        old[4] = 2;
        // The checksum covers the version: an old file is an old file, not a patched one.
        assert_eq!(TEST.open(&old), Err(FileError::Checksum));
    }

    #[test]
    fn a_reader_names_the_field_it_runs_out_on() {
        let mut r = Reader(&[1, 0, 2, 0, 0, 0, 3]);
        assert_eq!(r.u16("a"), Ok(1));
        assert_eq!(r.u32("b"), Ok(2));
        assert_eq!(r.u64("c"), Err(FileError::Malformed("c")));
        assert_eq!(r.take(1, "d"), Ok(&[3][..]));
        assert!(r.is_empty());
    }

    #[test]
    fn atomic_writes_replace_whole_files() {
        let dir = std::env::temp_dir().join(format!("evoharness-file-unit-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("agent.ckpt");
        let tmp = temp_path(&path);
        assert_eq!(tmp.file_name().unwrap(), "agent.ckpt.tmp");
        write_atomic(&path, &tmp, b"first").unwrap();
        // A stale temporary file from a crash is simply overwritten.
        fs::write(&tmp, b"half-written garbage").unwrap();
        write_atomic(&path, &tmp, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        assert!(!tmp.exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
