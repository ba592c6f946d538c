//! The `.ehp` file: reading and checking it (`FORMAT.md` is the specification).
//!
//! [`Model::new`] checks everything a run relies on — the magic, the version, the length, the
//! CRC-32, the metadata's UTF-8, and every reference of every operation (inside its buffer, no
//! output overlapping an input of the same operation, sizes without overflow) — so that
//! evaluating a checked model needs no further checks of the file. Reading untrusted bytes
//! never panics: every problem is a [`FormatError`].

use core::fmt;
use core::ops::Range;

/// The first eight bytes of every file.
pub const MAGIC: [u8; 8] = *b"EVOHPOL\0";
/// The format version this crate reads and writes.
pub const VERSION: u16 = 1;
/// The fixed header's length in bytes.
pub const HEADER_LEN: usize = 88;
/// One operation record's length in bytes.
pub const OP_LEN: usize = 32;
/// The weights start at a multiple of this many bytes from the start of the file.
pub const WEIGHT_ALIGN: usize = 16;
/// The CRC-32 at the end of the file.
pub const TRAILER_LEN: usize = 4;
/// "No bias" in a dense operation's bias field.
pub const NONE: u32 = u32::MAX;

pub(crate) static CRC: crc::Crc<u32, crc::Table<1>> =
    crc::Crc::<u32, crc::Table<1>>::new(&crc::CRC_32_ISO_HDLC);

/// What a file's bytes can be wrong in. Reading never panics; each problem is one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FormatError {
    /// Shorter than a header and a trailer, or than the header's length says.
    Truncated,
    /// The first eight bytes are not [`MAGIC`]: not a policy file of this kind.
    BadMagic,
    /// A format version this crate does not read.
    UnsupportedVersion(u16),
    /// The header's length field is not the length of the bytes.
    LengthMismatch {
        /// What the header says.
        declared: u32,
        /// The bytes given.
        actual: usize,
    },
    /// The CRC-32 over the file does not match its trailer: corrupted.
    Checksum,
    /// Reserved bits that must be zero are not.
    Reserved,
    /// The metadata section is malformed or not UTF-8.
    Metadata,
    /// The sections (metadata, operations, weights) do not fit the file or overlap.
    Sections,
    /// The bytes do not start at a 4-byte boundary, so the weights cannot be read as `f32`
    /// in place (place the file in an aligned buffer).
    Misaligned,
    /// An input or output entry of the header is invalid (a zero-length `obs`, `mask` or
    /// `logits`, or an output outside the scratch).
    Interface,
    /// Operation `index` is invalid: an unknown kind or activation, a reference outside its
    /// buffer, an output overlapping its inputs, or sizes that overflow.
    Op {
        /// Which operation, from 0.
        index: u32,
        /// Its kind byte.
        kind: u8,
    },
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Truncated => f.write_str("the file is truncated"),
            Self::BadMagic => f.write_str("not an evoharness native policy file (bad magic)"),
            Self::UnsupportedVersion(v) => {
                write!(f, "format version {v}; this reader reads version {VERSION}")
            }
            Self::LengthMismatch { declared, actual } => {
                write!(f, "the header says {declared} bytes, the file has {actual}")
            }
            Self::Checksum => f.write_str("the checksum does not match: the file is corrupted"),
            Self::Reserved => f.write_str("reserved fields are not zero"),
            Self::Metadata => f.write_str("the metadata section is malformed"),
            Self::Sections => f.write_str("the file's sections do not fit it"),
            Self::Misaligned => {
                f.write_str("the bytes are not 4-byte aligned: the weights cannot be read in place")
            }
            Self::Interface => f.write_str("an input or output entry of the header is invalid"),
            Self::Op { index, kind } => write!(f, "operation {index} (kind {kind}) is invalid"),
        }
    }
}

impl core::error::Error for FormatError {}

/// Where an operand lives. Its numeric value is the buffer byte of `FORMAT.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Buf {
    /// The observation input, one row of `obs_len` floats per batch row.
    Obs = 0,
    /// The mask input (1.0 legal, 0.0 illegal), `actions` floats per row.
    Mask = 1,
    /// The recurrent state input, `state_len` floats per row.
    State = 2,
    /// The caller's scratch.
    Scratch = 3,
    /// The file's constants, shared by every row.
    Weights = 4,
}

impl Buf {
    fn from_u8(b: u8) -> Option<Self> {
        Some(match b {
            0 => Self::Obs,
            1 => Self::Mask,
            2 => Self::State,
            3 => Self::Scratch,
            4 => Self::Weights,
            _ => return None,
        })
    }
}

/// An elementwise function, applied alone or after a dense product.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Act {
    /// The identity.
    None = 0,
    /// `max(x, 0)`.
    Relu = 1,
    /// `tanh(x)`.
    Tanh = 2,
    /// `1 / (1 + exp(-x))`.
    Sigmoid = 3,
}

impl Act {
    fn from_u8(b: u8) -> Option<Self> {
        Some(match b {
            0 => Self::None,
            1 => Self::Relu,
            2 => Self::Tanh,
            3 => Self::Sigmoid,
            _ => return None,
        })
    }
}

/// An elementwise binary operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum BinOp {
    /// `a + b`.
    Add = 1,
    /// `a - b`.
    Sub = 2,
    /// `a * b`.
    Mul = 3,
}

impl BinOp {
    fn from_u8(b: u8) -> Option<Self> {
        Some(match b {
            1 => Self::Add,
            2 => Self::Sub,
            3 => Self::Mul,
            _ => return None,
        })
    }
}

/// A vector operand: `len` floats at `off` of `buf` (per row, except in [`Buf::Weights`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operand {
    /// The buffer.
    pub buf: Buf,
    /// The offset in floats.
    pub off: u32,
    /// The length in floats.
    pub len: u32,
}

/// One operation of the program, as [`Model::ops`] decodes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `dst = act(src · W + bias)`, `W` of `n_in × n_out` floats, row-major (`k`-th row: the
    /// weights from input `k`), at float `w` of the weights.
    Dense {
        /// The input, `n_in` floats.
        src: Operand,
        /// The output's offset in the scratch, `n_out` floats.
        dst: u32,
        /// Inputs.
        n_in: u32,
        /// Outputs.
        n_out: u32,
        /// The weights' offset in floats.
        w: u32,
        /// The bias's offset in floats (`n_out` floats), if any.
        bias: Option<u32>,
        /// The activation applied after.
        act: Act,
    },
    /// The int8 dense product: each row's input is quantized to u8 as ONNX's
    /// `DynamicQuantizeLinear` does (scale and zero point from the row's range, zero included),
    /// multiplied in integers by int8 weights (symmetric: zero point 0), and scaled back:
    /// `dst[o] = act(Σ_k (q[k] − z) · W[k][o] · (s · scale[o]) + bias[o])`.
    DenseQ8 {
        /// The input, `n_in` floats.
        src: Operand,
        /// The output's offset in the scratch, `n_out` floats.
        dst: u32,
        /// Inputs.
        n_in: u32,
        /// Outputs.
        n_out: u32,
        /// The int8 weights' offset in bytes in the int8 section (`n_in × n_out`,
        /// input-major).
        w: u32,
        /// The per-output weight scales' offset in the weights (`n_out` floats).
        scales: u32,
        /// The bias's offset in floats (`n_out` floats), if any.
        bias: Option<u32>,
        /// The activation applied after.
        act: Act,
    },
    /// `dst = act(src)`, elementwise.
    Unary {
        /// The input.
        src: Operand,
        /// The output's offset in the scratch, `src.len` floats.
        dst: u32,
        /// The function.
        act: Act,
    },
    /// `dst = a ∘ b`, elementwise over `n` floats; an operand of length 1 is broadcast.
    Binary {
        /// The left operand (length 1 or `n`).
        a: Operand,
        /// The right operand (length 1 or `n`).
        b: Operand,
        /// The output's offset in the scratch.
        dst: u32,
        /// The output's length.
        n: u32,
        /// The operation.
        op: BinOp,
    },
}

/// Operation kind bytes.
pub(crate) const KIND_DENSE: u8 = 1;
pub(crate) const KIND_UNARY: u8 = 2;
pub(crate) const KIND_BINARY: u8 = 3;
pub(crate) const KIND_DENSE_Q8: u8 = 4;

/// The roles of the inputs and outputs, in header order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Interface {
    /// Floats per row of `obs`, `mask` and `state_in` (0: no `state_in`).
    pub inputs: [u32; 3],
    /// Where `logits`, `value` and `state_out` are in the scratch (offset, length; length 0:
    /// absent).
    pub outputs: [(u32, u32); 3],
}

/// The sections' places, as the header states them (all checked).
#[derive(Clone, Debug)]
struct Sections {
    meta: Range<usize>,
    meta_count: u32,
    ops: Range<usize>,
    op_count: u32,
    weights: Range<usize>,
    q8: Range<usize>,
    scratch: u32,
}

/// A checked model over its bytes `B` (a slice, or anything that holds one, such as a buffer
/// the host owns); see the [module docs](self).
#[derive(Clone, Debug)]
pub struct Model<B> {
    bytes: B,
    s: Sections,
    io: Interface,
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// `off..off + len` as a range of `usize`, if it does not overflow.
fn span(off: u32, len: u32) -> Option<Range<usize>> {
    let s = usize::try_from(off).ok()?;
    let e = s.checked_add(usize::try_from(len).ok()?)?;
    Some(s..e)
}

fn overlap(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

impl<B: AsRef<[u8]>> Model<B> {
    /// Checks `bytes` and keeps them: see the [module docs](self).
    pub fn new(bytes: B) -> Result<Self, FormatError> {
        let b = bytes.as_ref();
        let (s, io) = check(b)?;
        Ok(Self { bytes, s, io })
    }

    /// The whole file.
    pub fn bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    /// Floats per row of the `obs` input.
    pub fn obs_len(&self) -> usize {
        self.io.inputs[0] as usize
    }

    /// Floats per row of the `mask` input (the number of action templates).
    pub fn mask_len(&self) -> usize {
        self.io.inputs[1] as usize
    }

    /// Floats per row of the recurrent state (0 for a feed-forward policy).
    pub fn state_len(&self) -> usize {
        self.io.inputs[2] as usize
    }

    /// Floats per row of the `logits` output.
    pub fn logits_len(&self) -> usize {
        self.io.outputs[0].1 as usize
    }

    /// Whether the model outputs a value estimate (one float per row).
    pub fn has_value(&self) -> bool {
        self.io.outputs[1].1 > 0
    }

    /// The inputs' and outputs' places, as the header states them.
    pub fn interface(&self) -> Interface {
        self.io
    }

    /// Scratch floats a run needs per row: a run of `rows` rows needs `rows` times this.
    pub fn scratch_per_row(&self) -> usize {
        self.s.scratch as usize
    }

    /// The number of operations.
    pub fn op_count(&self) -> usize {
        self.s.op_count as usize
    }

    /// The number of weight floats.
    pub fn weight_count(&self) -> usize {
        self.s.weights.len() / 4
    }

    /// The metadata entries (key, value), in file order.
    pub fn metadata(&self) -> Metadata<'_> {
        Metadata {
            rest: &self.bytes()[self.s.meta.clone()],
            left: self.s.meta_count,
        }
    }

    /// The value of metadata key `key`, if present.
    pub fn meta(&self, key: &str) -> Option<&str> {
        self.metadata().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// The operations, in execution order.
    pub fn ops(&self) -> impl Iterator<Item = Op> + '_ {
        self.bytes()[self.s.ops.clone()]
            .chunks_exact(OP_LEN)
            // Checked at load: every record decodes.
            .filter_map(|r| decode_op(r).ok())
    }

    /// The weights as floats.
    pub fn weights(&self) -> &[f32] {
        weights_of(&self.bytes()[self.s.weights.clone()])
    }

    /// The int8 weights.
    pub fn weights_q8(&self) -> &[i8] {
        let b = &self.bytes()[self.s.q8.clone()];
        // Every byte is an i8 of the same bits.
        let (pre, q, _) = {
            // SAFETY: u8 and i8 have the same size and alignment, and every bit pattern is a
            // valid i8; the slice borrows `self`.
            unsafe { b.align_to::<i8>() }
        };
        if pre.is_empty() { q } else { &[] }
    }

    /// Multiply-adds a row costs in the dense operations (twice this: the FLOPs).
    pub fn macs_per_row(&self) -> u64 {
        self.ops()
            .map(|op| match op {
                Op::Dense { n_in, n_out, .. } | Op::DenseQ8 { n_in, n_out, .. } => {
                    u64::from(n_in) * u64::from(n_out)
                }
                _ => 0,
            })
            .sum()
    }
}

/// The 4-aligned bytes of the weights section as floats (checked at load: aligned, a multiple
/// of 4 long).
fn weights_of(b: &[u8]) -> &[f32] {
    // SAFETY: every bit pattern is a valid f32, and `align_to` only yields the middle part at
    // f32 alignment; the prefix and suffix are empty for the checked section.
    let (pre, w, _post) = unsafe { b.align_to::<f32>() };
    if pre.is_empty() { w } else { &[] }
}

/// The metadata entries of a [`Model`].
#[derive(Clone, Debug)]
pub struct Metadata<'a> {
    rest: &'a [u8],
    left: u32,
}

impl<'a> Iterator for Metadata<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        let (k, rest) = take_str(self.rest)?;
        let (v, rest) = take_str(rest)?;
        self.rest = rest;
        self.left -= 1;
        Some((k, v))
    }
}

/// A string with a u16 length before it, and what follows it.
fn take_str(b: &[u8]) -> Option<(&str, &[u8])> {
    let n = usize::from(u16_at(b, 0)?);
    let s = b.get(2..2 + n)?;
    Some((core::str::from_utf8(s).ok()?, &b[2 + n..]))
}

fn check(b: &[u8]) -> Result<(Sections, Interface), FormatError> {
    use FormatError as E;
    if b.len() < 8 {
        return Err(E::Truncated);
    }
    if b[..8] != MAGIC {
        return Err(E::BadMagic);
    }
    if b.len() < HEADER_LEN + TRAILER_LEN {
        return Err(E::Truncated);
    }
    let u16h = |at| u16_at(b, at).ok_or(E::Truncated);
    let u32h = |at| u32_at(b, at).ok_or(E::Truncated);
    let version = u16h(8)?;
    if version != VERSION {
        return Err(E::UnsupportedVersion(version));
    }
    let declared = u32h(12)?;
    if usize::try_from(declared).ok() != Some(b.len()) {
        return Err(if (declared as usize) > b.len() {
            E::Truncated
        } else {
            E::LengthMismatch {
                declared,
                actual: b.len(),
            }
        });
    }
    let body = b.len() - TRAILER_LEN;
    let stored = u32h(body)?;
    if CRC.checksum(&b[..body]) != stored {
        return Err(E::Checksum);
    }
    if u16h(10)? != 0 || b[84..HEADER_LEN].iter().any(|&x| x != 0) {
        return Err(E::Reserved);
    }
    if b.as_ptr().align_offset(4) != 0 {
        return Err(E::Misaligned);
    }
    let meta_count = u32h(16)?;
    let meta_len = u32h(20)?;
    let op_count = u32h(24)?;
    let scratch = u32h(28)?;
    let w_off = u32h(32)?;
    let w_count = u32h(36)?;
    let mut inputs = [0u32; 3];
    for (i, x) in inputs.iter_mut().enumerate() {
        *x = u32h(40 + 4 * i)?;
    }
    let mut outputs = [(0u32, 0u32); 3];
    for (i, x) in outputs.iter_mut().enumerate() {
        *x = (u32h(52 + 8 * i)?, u32h(56 + 8 * i)?);
    }
    // The sections, in order: metadata, operations, padding, weights, trailer.
    let meta = span(HEADER_LEN as u32, meta_len).ok_or(E::Sections)?;
    let ops_len = op_count.checked_mul(OP_LEN as u32).ok_or(E::Sections)?;
    let ops = span(meta.end as u32, ops_len).ok_or(E::Sections)?;
    let w_bytes = w_count.checked_mul(4).ok_or(E::Sections)?;
    let weights = span(w_off, w_bytes).ok_or(E::Sections)?;
    // The int8 section follows the weights directly.
    let q8 = span(weights.end as u32, u32h(80)?).ok_or(E::Sections)?;
    if meta.end > body
        || ops.end > weights.start
        || weights.start % WEIGHT_ALIGN != 0
        || u32h(76)? as usize != weights.end
        || q8.end > body
        || b[ops.end..weights.start].iter().any(|&x| x != 0)
        || b[q8.end..body].iter().any(|&x| x != 0)
    {
        return Err(E::Sections);
    }
    // The metadata: `meta_count` UTF-8 pairs filling the section exactly.
    let mut rest = &b[meta.clone()];
    for _ in 0..meta_count {
        let (_, r) = take_str(rest).ok_or(E::Metadata)?;
        let (_, r) = take_str(r).ok_or(E::Metadata)?;
        rest = r;
    }
    if !rest.is_empty() {
        return Err(E::Metadata);
    }
    // The interface: obs, mask and logits present; outputs inside the scratch.
    if inputs[0] == 0 || inputs[1] == 0 || outputs[0].1 == 0 || outputs[1].1 > 1 {
        return Err(E::Interface);
    }
    for &(off, len) in &outputs {
        let r = span(off, len).ok_or(E::Interface)?;
        if len > 0 && r.end > scratch as usize {
            return Err(E::Interface);
        }
    }
    if (outputs[2].1 == 0) != (inputs[2] == 0) || (inputs[2] > 0 && outputs[2].1 != inputs[2]) {
        return Err(E::Interface);
    }
    let io = Interface { inputs, outputs };
    let len_of = |buf: Buf| -> usize {
        match buf {
            Buf::Obs => inputs[0] as usize,
            Buf::Mask => inputs[1] as usize,
            Buf::State => inputs[2] as usize,
            Buf::Scratch => scratch as usize,
            Buf::Weights => w_count as usize,
        }
    };
    let q8_len = q8.len();
    let inside = |o: &Operand| -> Option<Range<usize>> {
        let r = span(o.off, o.len)?;
        (o.len > 0 && r.end <= len_of(o.buf)).then_some(r)
    };
    for (index, rec) in b[ops.clone()].chunks_exact(OP_LEN).enumerate() {
        let bad = E::Op {
            index: index as u32,
            kind: rec[0],
        };
        let op = decode_op(rec).map_err(|()| bad)?;
        let ok = match op {
            Op::Dense {
                src,
                dst,
                n_in,
                n_out,
                w,
                bias,
                act: _,
            } => (|| {
                let s = inside(&src)?;
                let d = inside(&Operand {
                    buf: Buf::Scratch,
                    off: dst,
                    len: n_out,
                })?;
                let wn = n_in.checked_mul(n_out)?;
                inside(&Operand {
                    buf: Buf::Weights,
                    off: w,
                    len: wn,
                })?;
                if let Some(bias) = bias {
                    inside(&Operand {
                        buf: Buf::Weights,
                        off: bias,
                        len: n_out,
                    })?;
                }
                let clash = src.buf == Buf::Scratch && overlap(&s, &d);
                (src.len == n_in && !clash).then_some(())
            })(),
            Op::DenseQ8 {
                src,
                dst,
                n_in,
                n_out,
                w,
                scales,
                bias,
                act: _,
            } => (|| {
                let s = inside(&src)?;
                let d = inside(&Operand {
                    buf: Buf::Scratch,
                    off: dst,
                    len: n_out,
                })?;
                let wn = n_in.checked_mul(n_out)?;
                (span(w, wn)?.end <= q8_len).then_some(())?;
                for off in [Some(scales), bias].into_iter().flatten() {
                    inside(&Operand {
                        buf: Buf::Weights,
                        off,
                        len: n_out,
                    })?;
                }
                let clash = src.buf == Buf::Scratch && overlap(&s, &d);
                (src.len == n_in && !clash).then_some(())
            })(),
            Op::Unary { src, dst, act: _ } => (|| {
                let s = inside(&src)?;
                let d = inside(&Operand {
                    buf: Buf::Scratch,
                    off: dst,
                    len: src.len,
                })?;
                (!(src.buf == Buf::Scratch && overlap(&s, &d))).then_some(())
            })(),
            Op::Binary {
                a,
                b: bb,
                dst,
                n,
                op: _,
            } => (|| {
                let d = inside(&Operand {
                    buf: Buf::Scratch,
                    off: dst,
                    len: n,
                })?;
                for o in [a, bb] {
                    let r = inside(&o)?;
                    if (o.len != 1 && o.len != n) || (o.buf == Buf::Scratch && overlap(&r, &d)) {
                        return None;
                    }
                }
                Some(())
            })(),
        };
        ok.ok_or(bad)?;
    }
    Ok((
        Sections {
            meta,
            meta_count,
            ops,
            op_count,
            weights,
            q8,
            scratch,
        },
        io,
    ))
}

/// One 32-byte record (see `FORMAT.md`); `Err` for an unknown kind, buffer, activation or
/// operation, or reserved fields that are not zero.
fn decode_op(r: &[u8]) -> Result<Op, ()> {
    let f = |i: usize| u32_at(r, 4 + 4 * i).ok_or(());
    let buf = |b: u8| Buf::from_u8(b).ok_or(());
    let (kind, sub, ba, bb) = (r[0], r[1], r[2], r[3]);
    match kind {
        KIND_DENSE => {
            if bb != 0 || f(6)? != 0 {
                return Err(());
            }
            let (n_in, n_out) = (f(2)?, f(3)?);
            let bias = f(5)?;
            Ok(Op::Dense {
                src: Operand {
                    buf: buf(ba)?,
                    off: f(0)?,
                    len: n_in,
                },
                dst: f(1)?,
                n_in,
                n_out,
                w: f(4)?,
                bias: (bias != NONE).then_some(bias),
                act: Act::from_u8(sub).ok_or(())?,
            })
        }
        KIND_DENSE_Q8 => {
            if bb != 0 {
                return Err(());
            }
            let (n_in, n_out) = (f(2)?, f(3)?);
            let bias = f(6)?;
            Ok(Op::DenseQ8 {
                src: Operand {
                    buf: buf(ba)?,
                    off: f(0)?,
                    len: n_in,
                },
                dst: f(1)?,
                n_in,
                n_out,
                w: f(4)?,
                scales: f(5)?,
                bias: (bias != NONE).then_some(bias),
                act: Act::from_u8(sub).ok_or(())?,
            })
        }
        KIND_UNARY => {
            if bb != 0 || (3..7).any(|i| f(i) != Ok(0)) {
                return Err(());
            }
            Ok(Op::Unary {
                src: Operand {
                    buf: buf(ba)?,
                    off: f(0)?,
                    len: f(2)?,
                },
                dst: f(1)?,
                act: Act::from_u8(sub).ok_or(())?,
            })
        }
        KIND_BINARY => {
            if f(6)? != 0 {
                return Err(());
            }
            Ok(Op::Binary {
                a: Operand {
                    buf: buf(ba)?,
                    off: f(0)?,
                    len: f(1)?,
                },
                b: Operand {
                    buf: buf(bb)?,
                    off: f(2)?,
                    len: f(3)?,
                },
                dst: f(4)?,
                n: f(5)?,
                op: BinOp::from_u8(sub).ok_or(())?,
            })
        }
        _ => Err(()),
    }
}
