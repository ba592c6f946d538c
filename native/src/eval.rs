//! Running a checked [`Model`] on a batch of rows, in the caller's scratch.
//!
//! The scratch holds every intermediate value of every row: a value the file places at float
//! `off` with `len` floats per row occupies `scratch[off × rows..][..len × rows]`, row `r` at
//! `off × rows + r × len`, so one operation's rows are contiguous and a dense product reads
//! and writes them as one block. The file guarantees that no operation's output overlaps its
//! inputs, so a run borrows the scratch as disjoint input and output parts, and the rows stay
//! independent: a row's outputs are what it gives alone.

use core::fmt;
use core::ops::Range;

use crate::format::{Act, BinOp, Buf, Model, Op, Operand};
use crate::kernels;

/// The inputs of a run: `rows` rows of each, row after row.
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'a> {
    /// `rows × obs_len` floats.
    pub obs: &'a [f32],
    /// `rows × mask_len` floats, 1.0 for a legal action template and 0.0 for an illegal one.
    pub mask: &'a [f32],
    /// `rows × state_len` floats (empty for a feed-forward policy).
    pub state: &'a [f32],
}

/// Where a run writes its outputs: `rows` rows of each, row after row.
#[derive(Debug)]
pub struct Outputs<'a> {
    /// `rows × logits_len` floats.
    pub logits: &'a mut [f32],
    /// `rows` floats for a model with a value output; not touched for one without.
    pub value: &'a mut [f32],
    /// `rows × state_len` floats: the new recurrent state (empty for a feed-forward policy).
    pub state: &'a mut [f32],
}

/// What a run can refuse: buffers of the wrong size. A run of a checked model cannot fail
/// otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RunError {
    /// A buffer's length is not what `rows` rows need.
    Length {
        /// Which: `obs`, `mask`, `state`, `logits`, `value` or `state_out`.
        what: &'static str,
        /// Floats needed.
        expected: usize,
        /// Floats given.
        got: usize,
    },
    /// The scratch is smaller than `rows ×` [`Model::scratch_per_row`].
    Scratch {
        /// Floats needed.
        need: usize,
        /// Floats given.
        have: usize,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Length {
                what,
                expected,
                got,
            } => write!(f, "`{what}` has {got} floats; the batch needs {expected}"),
            Self::Scratch { need, have } => {
                write!(f, "a scratch of {have} floats; the batch needs {need}")
            }
        }
    }
}

impl core::error::Error for RunError {}

/// The scratch without an operation's output (`left` below it, `right` above it), for reading
/// that operation's inputs.
struct Rest<'s> {
    left: &'s [f32],
    right: &'s [f32],
    right_start: usize,
}

impl Rest<'_> {
    fn get(&self, r: Range<usize>) -> &[f32] {
        if r.end <= self.left.len() {
            &self.left[r]
        } else {
            &self.right[r.start - self.right_start..r.end - self.right_start]
        }
    }
}

/// Splits `scratch` into the output range `dst` and the rest.
fn split(scratch: &mut [f32], dst: Range<usize>) -> (Rest<'_>, &mut [f32]) {
    let (left, tail) = scratch.split_at_mut(dst.start);
    let (out, right) = tail.split_at_mut(dst.len());
    (
        Rest {
            left,
            right,
            right_start: dst.end,
        },
        out,
    )
}

impl<B: AsRef<[u8]>> Model<B> {
    /// Runs the model on `rows` rows; see the [module docs](self). `scratch` needs at least
    /// `rows ×` [`Model::scratch_per_row`] floats; its contents before and after are
    /// unspecified. Allocates nothing.
    pub fn run(
        &self,
        rows: usize,
        inputs: Inputs<'_>,
        scratch: &mut [f32],
        out: Outputs<'_>,
    ) -> Result<(), RunError> {
        let io = self.interface();
        let len = |what, got: usize, per_row: usize| {
            let expected = per_row.saturating_mul(rows);
            if got == expected {
                Ok(())
            } else {
                Err(RunError::Length {
                    what,
                    expected,
                    got,
                })
            }
        };
        len("obs", inputs.obs.len(), self.obs_len())?;
        len("mask", inputs.mask.len(), self.mask_len())?;
        len("state", inputs.state.len(), self.state_len())?;
        len("logits", out.logits.len(), self.logits_len())?;
        if self.has_value() {
            len("value", out.value.len(), 1)?;
        }
        len("state_out", out.state.len(), self.state_len())?;
        let need = self.scratch_per_row().saturating_mul(rows);
        if scratch.len() < need {
            return Err(RunError::Scratch {
                need,
                have: scratch.len(),
            });
        }
        if rows == 0 {
            return Ok(());
        }
        let scratch = &mut scratch[..need];
        let (weights, q8) = (self.weights(), self.weights_q8());
        for op in self.ops() {
            step(op, rows, &inputs, weights, q8, scratch);
        }
        let outputs: [&mut [f32]; 3] = [out.logits, out.value, out.state];
        for (k, o) in outputs.into_iter().enumerate() {
            let (off, n) = io.outputs[k];
            if n == 0 {
                continue;
            }
            let (off, n) = (off as usize, n as usize);
            o.copy_from_slice(&scratch[off * rows..][..n * rows]);
        }
        Ok(())
    }
}

/// Where an operand's rows are: the slice from its first row, and the distance between rows
/// (0 for a constant).
fn rows_of<'a>(
    o: &Operand,
    rows: usize,
    inputs: &Inputs<'a>,
    weights: &'a [f32],
    rest: &'a Rest<'a>,
) -> (&'a [f32], usize) {
    let (off, len) = (o.off as usize, o.len as usize);
    match o.buf {
        Buf::Obs => (&inputs.obs[off..], inputs.obs.len() / rows),
        Buf::Mask => (&inputs.mask[off..], inputs.mask.len() / rows),
        Buf::State => (&inputs.state[off..], inputs.state.len() / rows),
        Buf::Scratch => (rest.get(off * rows..(off + len) * rows), len),
        Buf::Weights => (&weights[off..off + len], 0),
    }
}

/// One operation over every row.
fn step(op: Op, rows: usize, inputs: &Inputs<'_>, weights: &[f32], q8: &[i8], scratch: &mut [f32]) {
    match op {
        Op::DenseQ8 {
            src,
            dst,
            n_in,
            n_out,
            w,
            scales,
            bias,
            act,
        } => {
            let (n_in, n_out) = (n_in as usize, n_out as usize);
            let d = dst as usize * rows..(dst as usize + n_out) * rows;
            let (rest, y) = split(scratch, d);
            let (xs, stride) = rows_of(&src, rows, inputs, weights, &rest);
            let w = &q8[w as usize..][..n_in * n_out];
            let scales = &weights[scales as usize..][..n_out];
            let bias = bias.map(|b| &weights[b as usize..][..n_out]);
            for (r, yr) in y.chunks_exact_mut(n_out).enumerate() {
                kernels::dense_q8(&xs[r * stride..][..n_in], w, scales, bias, yr, act);
            }
        }
        Op::Dense {
            src,
            dst,
            n_in,
            n_out,
            w,
            bias,
            act,
        } => {
            let (n_in, n_out) = (n_in as usize, n_out as usize);
            let d = dst as usize * rows..(dst as usize + n_out) * rows;
            let (rest, y) = split(scratch, d);
            let (xs, stride) = rows_of(&src, rows, inputs, weights, &rest);
            let w = &weights[w as usize..][..n_in * n_out];
            let bias = bias.map(|b| &weights[b as usize..][..n_out]);
            kernels::dense(xs, stride, rows, w, bias, n_in, n_out, y, act);
        }
        Op::Unary { src, dst, act } => {
            let n = src.len as usize;
            let d = dst as usize * rows..(dst as usize + n) * rows;
            let (rest, y) = split(scratch, d);
            let (xs, stride) = rows_of(&src, rows, inputs, weights, &rest);
            for (r, yr) in y.chunks_exact_mut(n).enumerate() {
                let xr = &xs[r * stride..][..n];
                unary(act, xr, yr);
            }
        }
        Op::Binary { a, b, dst, n, op } => {
            let n = n as usize;
            let d = dst as usize * rows..(dst as usize + n) * rows;
            let (rest, y) = split(scratch, d);
            let (xa, sa) = rows_of(&a, rows, inputs, weights, &rest);
            let (xb, sb) = rows_of(&b, rows, inputs, weights, &rest);
            let (la, lb) = (a.len as usize, b.len as usize);
            for (r, yr) in y.chunks_exact_mut(n).enumerate() {
                let ar = &xa[r * sa..][..la];
                let br = &xb[r * sb..][..lb];
                binary(op, ar, br, yr);
            }
        }
    }
}

fn unary(act: Act, x: &[f32], y: &mut [f32]) {
    if act == Act::Relu {
        for (d, &v) in y.iter_mut().zip(x) {
            *d = if v > 0.0 { v } else { 0.0 };
        }
    } else {
        for (d, &v) in y.iter_mut().zip(x) {
            *d = kernels::apply(act, v);
        }
    }
}

/// `y = a ∘ b`, an operand of length 1 broadcast.
fn binary(op: BinOp, a: &[f32], b: &[f32], y: &mut [f32]) {
    let f = |x: f32, z: f32| match op {
        BinOp::Add => x + z,
        BinOp::Sub => x - z,
        BinOp::Mul => x * z,
    };
    match (a, b) {
        ([x], [z]) => y.fill(f(*x, *z)),
        ([x], b) => y.iter_mut().zip(b).for_each(|(d, &z)| *d = f(*x, z)),
        (a, [z]) => y.iter_mut().zip(a).for_each(|(d, &x)| *d = f(x, *z)),
        (a, b) => y
            .iter_mut()
            .zip(a.iter().zip(b))
            .for_each(|(d, (&x, &z))| *d = f(x, z)),
    }
}
