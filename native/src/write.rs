//! Writing a file (feature `alloc`): a converter describes the program with [`Writer`] and
//! gets the bytes of `FORMAT.md`; [`AlignedBytes`] holds a file where its weights can be read
//! in place.

use alloc::string::String;
use alloc::vec::Vec;

use crate::format::{
    CRC, HEADER_LEN, Interface, KIND_BINARY, KIND_DENSE, KIND_DENSE_Q8, KIND_UNARY, MAGIC, NONE,
    OP_LEN, Op, TRAILER_LEN, VERSION, WEIGHT_ALIGN,
};

/// A file under construction; see the [module docs](self).
#[derive(Clone, Debug, Default)]
pub struct Writer {
    meta: Vec<(String, String)>,
    ops: Vec<Op>,
    weights: Vec<f32>,
    q8: Vec<i8>,
    /// Scratch floats per row.
    pub scratch: u32,
    /// The inputs and outputs.
    pub interface: Interface,
}

/// Why [`Writer::finish`] could not write a file.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WriteError {
    /// A metadata key or value longer than 65,535 bytes.
    MetadataTooLong,
    /// The file would be 4 GiB or more.
    TooLarge,
}

impl core::fmt::Display for WriteError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::MetadataTooLong => f.write_str("a metadata key or value over 65,535 bytes"),
            Self::TooLarge => f.write_str("the file would be 4 GiB or more"),
        }
    }
}

impl core::error::Error for WriteError {}

impl Writer {
    /// An empty program.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a metadata entry.
    pub fn meta(&mut self, key: &str, value: &str) {
        self.meta.push((key.into(), value.into()));
    }

    /// Appends constants to the weights; returns their offset in floats.
    pub fn constant(&mut self, data: &[f32]) -> u32 {
        let at = self.weights.len() as u32;
        self.weights.extend_from_slice(data);
        at
    }

    /// Appends int8 weights to the int8 section; returns their offset in bytes.
    pub fn constant_q8(&mut self, data: &[i8]) -> u32 {
        let at = self.q8.len() as u32;
        self.q8.extend_from_slice(data);
        at
    }

    /// Appends an operation.
    pub fn op(&mut self, op: Op) {
        self.ops.push(op);
    }

    /// The operations so far.
    pub fn ops_mut(&mut self) -> &mut [Op] {
        &mut self.ops
    }

    /// The weights so far.
    pub fn weights_mut(&mut self) -> &mut [f32] {
        &mut self.weights
    }

    /// The file's bytes.
    pub fn finish(&self) -> Result<Vec<u8>, WriteError> {
        let mut meta = Vec::new();
        for (k, v) in &self.meta {
            for s in [k, v] {
                let n = u16::try_from(s.len()).map_err(|_| WriteError::MetadataTooLong)?;
                meta.extend_from_slice(&n.to_le_bytes());
                meta.extend_from_slice(s.as_bytes());
            }
        }
        let ops_end = HEADER_LEN + meta.len() + self.ops.len() * OP_LEN;
        let w_off = ops_end.div_ceil(WEIGHT_ALIGN) * WEIGHT_ALIGN;
        let q8_off = w_off + 4 * self.weights.len();
        let total = q8_off + self.q8.len() + TRAILER_LEN;
        let u32_of = |n: usize| u32::try_from(n).map_err(|_| WriteError::TooLarge);
        let mut b = Vec::with_capacity(total);
        b.extend_from_slice(&MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&0u16.to_le_bytes());
        for n in [
            total,
            self.meta.len(),
            meta.len(),
            self.ops.len(),
            self.scratch as usize,
            w_off,
            self.weights.len(),
        ] {
            b.extend_from_slice(&u32_of(n)?.to_le_bytes());
        }
        for n in self.interface.inputs {
            b.extend_from_slice(&n.to_le_bytes());
        }
        for (off, len) in self.interface.outputs {
            b.extend_from_slice(&off.to_le_bytes());
            b.extend_from_slice(&len.to_le_bytes());
        }
        b.extend_from_slice(&u32_of(q8_off)?.to_le_bytes());
        b.extend_from_slice(&u32_of(self.q8.len())?.to_le_bytes());
        b.resize(HEADER_LEN, 0);
        b.extend_from_slice(&meta);
        for op in &self.ops {
            b.extend_from_slice(&encode_op(op));
        }
        b.resize(w_off, 0);
        for w in &self.weights {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b.extend(self.q8.iter().map(|&q| q as u8));
        let crc = CRC.checksum(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        debug_assert_eq!(b.len(), total);
        Ok(b)
    }
}

/// One operation's 32-byte record.
pub(crate) fn encode_op(op: &Op) -> [u8; OP_LEN] {
    let (head, f): ([u8; 4], [u32; 7]) = match *op {
        Op::Dense {
            src,
            dst,
            n_in,
            n_out,
            w,
            bias,
            act,
        } => (
            [KIND_DENSE, act as u8, src.buf as u8, 0],
            [src.off, dst, n_in, n_out, w, bias.unwrap_or(NONE), 0],
        ),
        Op::DenseQ8 {
            src,
            dst,
            n_in,
            n_out,
            w,
            scales,
            bias,
            act,
        } => (
            [KIND_DENSE_Q8, act as u8, src.buf as u8, 0],
            [src.off, dst, n_in, n_out, w, scales, bias.unwrap_or(NONE)],
        ),
        Op::Unary { src, dst, act } => (
            [KIND_UNARY, act as u8, src.buf as u8, 0],
            [src.off, dst, src.len, 0, 0, 0, 0],
        ),
        Op::Binary { a, b, dst, n, op } => (
            [KIND_BINARY, op as u8, a.buf as u8, b.buf as u8],
            [a.off, a.len, b.off, b.len, dst, n, 0],
        ),
    };
    let mut r = [0u8; OP_LEN];
    r[..4].copy_from_slice(&head);
    for (i, v) in f.iter().enumerate() {
        r[4 + 4 * i..8 + 4 * i].copy_from_slice(&v.to_le_bytes());
    }
    r
}

/// Bytes at a 4-byte boundary, so that a [`Model`](crate::Model) over them reads its weights in
/// place (a `Vec<u8>` promises no alignment).
#[derive(Clone, Debug, Default)]
pub struct AlignedBytes {
    words: Vec<u32>,
    len: usize,
}

impl AlignedBytes {
    /// A copy of `bytes`.
    pub fn new(bytes: &[u8]) -> Self {
        let mut words = alloc::vec![0u32; bytes.len().div_ceil(4)];
        for (w, c) in words.iter_mut().zip(bytes.chunks(4)) {
            let mut q = [0u8; 4];
            q[..c.len()].copy_from_slice(c);
            *w = u32::from_ne_bytes(q);
        }
        Self {
            words,
            len: bytes.len(),
        }
    }
}

impl AsRef<[u8]> for AlignedBytes {
    fn as_ref(&self) -> &[u8] {
        // SAFETY: the words own `4 × words.len() ≥ len` initialised bytes at a 4-byte-aligned
        // address, any byte value is a valid u8, and the slice borrows `self`.
        unsafe { core::slice::from_raw_parts(self.words.as_ptr().cast::<u8>(), self.len) }
    }
}
