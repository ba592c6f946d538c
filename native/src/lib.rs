//! A `no_std`, allocation-free evaluator for evoharness's structured MLP policies, and their
//! compact file format (`.ehp`, specified in `FORMAT.md`).
//!
//! A policy exported to ONNX (`runtime/POLICY.md`) is converted once on a host (`evoharness
//! convert POLICY.onnx -o POLICY.ehp`, or in memory by the runtime's native backend); this crate
//! checks the file's bytes where they lie (flash, a host's buffer) and runs the program they hold
//! on a batch of rows, with the caller's scratch. It runs dense products (from `Gemm` and
//! `MatMul` with constant weights) in f32, or with int8 weights and per-row dynamically
//! quantized inputs (ONNX's `DynamicQuantizeLinear` → `MatMulInteger`, per-output weight
//! scales), elementwise `Add`, `Sub` and `Mul` (with constants or other values), and `Relu`,
//! `Tanh` and `Sigmoid`: what the shipped MLP policies use, their in-graph mask included.
//!
//! ```
//! use evoharness_native::{Act, Buf, Inputs, Model, Op, Operand, Outputs, Writer, AlignedBytes};
//!
//! // logits = relu(obs · W + b) + mask, for 2 observation floats and 2 actions.
//! let mut w = Writer::new();
//! let weights = w.constant(&[1.0, 2.0, 3.0, 4.0]);
//! let bias = w.constant(&[0.0, -100.0]);
//! w.op(Op::Dense {
//!     src: Operand { buf: Buf::Obs, off: 0, len: 2 },
//!     dst: 0, n_in: 2, n_out: 2, w: weights, bias: Some(bias), act: Act::Relu,
//! });
//! w.op(Op::Binary {
//!     a: Operand { buf: Buf::Scratch, off: 0, len: 2 },
//!     b: Operand { buf: Buf::Mask, off: 0, len: 2 },
//!     dst: 2, n: 2, op: evoharness_native::BinOp::Add,
//! });
//! w.scratch = 4;
//! w.interface.inputs = [2, 2, 0];
//! w.interface.outputs = [(2, 2), (0, 0), (0, 0)];
//! let file = AlignedBytes::new(&w.finish().unwrap());
//!
//! let model = Model::new(file.as_ref()).unwrap();
//! let mut scratch = [0.0; 4];
//! let mut logits = [0.0; 2];
//! model.run(
//!     1,
//!     Inputs { obs: &[1.0, 1.0], mask: &[1.0, 0.0], state: &[] },
//!     &mut scratch,
//!     Outputs { logits: &mut logits, value: &mut [], state: &mut [] },
//! ).unwrap();
//! assert_eq!(logits, [5.0, 0.0]);
//! ```
//!
//! # Layout
//!
//! | module | what |
//! | --- | --- |
//! | [`format`](mod@format) | the file: checking its bytes ([`Model::new`]), its operations, [`FormatError`] |
//! | [`eval`] | running a checked model on a batch of rows in the caller's scratch |
//! | `kernels` | the dense product: portable, and AVX2 with FMA or AVX-512 on x86-64 ([`kernels()`]) |
//! | `write` | (feature `alloc`) writing a file: `Writer`, `AlignedBytes` |
//!
//! Reading untrusted bytes never panics: [`Model::new`] checks every field and every reference
//! once, and a run of a checked model only indexes what was checked. The weights are read in
//! place as `f32`, so the bytes must start at a 4-byte boundary ([`FormatError::Misaligned`]
//! otherwise) and the target must be little-endian.
//!
//! Features: `alloc` (the writer), `std` (implies `alloc`; picks the AVX2 or AVX-512 kernels at
//! run time on x86-64 CPUs that have them). Without either the crate needs no allocator and builds for
//! `thumbv7em-none-eabihf`.

#![cfg_attr(not(any(test, feature = "std")), no_std)]

#[cfg(target_endian = "big")]
compile_error!(
    "evoharness-native reads little-endian weights in place: little-endian targets only"
);

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod eval;
pub mod format;
#[cfg(feature = "alloc")]
#[doc(hidden)]
pub mod fuzzing;
mod kernels;
#[cfg(feature = "alloc")]
pub mod write;

pub use eval::{Inputs, Outputs, RunError};
pub use format::{Act, BinOp, Buf, FormatError, Interface, Model, Op, Operand};
pub use kernels::kernels;
#[cfg(feature = "alloc")]
pub use write::{AlignedBytes, WriteError, Writer};

#[cfg(test)]
mod tests;
