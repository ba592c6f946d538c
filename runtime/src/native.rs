//! The native backend: structured MLP policies on `evoharness-native`'s evaluator, without
//! ort, tract or ONNX Runtime.
//!
//! [`convert`] turns an ONNX policy file into the native format (`native/FORMAT.md`): it walks
//! the graph in order, folds constants, turns `Gemm` and `MatMul` with constant weights into
//! dense products (with the activation or bias `Add` that follows, when nothing else reads the
//! product), ONNX Runtime's dynamic quantization (`DynamicQuantizeLinear` → `MatMulInteger`
//! with int8 weights → `Cast` → `Mul` by the scales) into int8 dense products, the elementwise
//! `Add`, `Sub`, `Mul`, `Relu`, `Tanh` and `Sigmoid` into the format's operations, and places
//! intermediate values in a scratch it reuses. A graph with any other operator is refused with
//! an error that names it. The ONNX file's `evoharness.*` metadata is carried over, so the
//! contract checks are the same for both files.
//!
//! An int8 product quantizes each row on its own, as a batch-1 file does (the shipped int8
//! policy is one); ONNX's `DynamicQuantizeLinear` on a batch would share one scale among its
//! rows.
//!
//! A policy loaded with [`Backend::Native`](crate::Backend::Native) from an ONNX file is
//! converted in memory; a `.ehp` file ([`is_native`]) is loaded as it is. Every row of the
//! program is independent, so a native policy runs a whole batch in one call whatever the file's
//! batch dimension.

use std::collections::HashMap;

use evoharness_native::{
    Act, AlignedBytes, BinOp, Buf, Inputs, Interface, Model, Op, Operand, Outputs, Writer,
};

use crate::error::{Error, ErrorKind, Result};
use crate::limits::PolicyLimits;

/// Whether `bytes` are a native policy file (they start with its magic).
pub fn is_native(bytes: &[u8]) -> bool {
    bytes.starts_with(&evoharness_native::format::MAGIC)
}

/// What a native file holds, in numbers ([`describe`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Description {
    /// Operations of its program.
    pub operations: usize,
    /// Weight floats.
    pub weights: usize,
    /// Scratch floats a row needs.
    pub scratch_per_row: usize,
    /// Multiply-adds of the dense products per row (a decision's FLOPs are twice this).
    pub macs_per_row: u64,
}

/// Checks the native file `bytes` (named `name` in errors) and describes it.
pub fn describe(bytes: &[u8], name: &str) -> Result<Description> {
    let e = Engine::new(bytes, name, &PolicyLimits::default())?;
    let m = e.model();
    Ok(Description {
        operations: m.op_count(),
        weights: m.weight_count(),
        scratch_per_row: m.scratch_per_row(),
        macs_per_row: m.macs_per_row(),
    })
}

/// Converts the ONNX policy in `onnx` (named `name` in errors) to the native format's bytes.
/// The contract (metadata, names, sizes) is not checked here: loading the result does it.
pub fn convert(onnx: &[u8], name: &str) -> Result<Vec<u8>> {
    use prost::Message as _;
    let bad = |what: String| Error::new(ErrorKind::Policy, format!("{name}: {what}"));
    let model = proto::Model::decode(onnx).map_err(|e| {
        Error::new(
            ErrorKind::Policy,
            format!("{name} is not a valid ONNX model"),
        )
        .with_source(e)
    })?;
    let g = model
        .graph
        .as_ref()
        .ok_or_else(|| bad("is not an ONNX model: it has no graph".into()))?;
    let mut c = Converter {
        name,
        w: Writer::new(),
        vals: HashMap::new(),
        uses: HashMap::new(),
        slot_refs: HashMap::new(),
        free: Vec::new(),
        top: 0,
    };
    for p in &model.metadata_props {
        if p.key.starts_with("evoharness.") {
            c.w.meta(&p.key, &p.value);
        }
    }
    // An operator the evaluator does not have is named before anything else is looked at.
    for n in &g.node {
        let known = n.domain.is_empty() || n.domain == "ai.onnx";
        if !known || !OPS.contains(&n.op_type.as_str()) {
            return Err(bad(format!(
                "the native backend cannot run operator `{}`{} (node `{}`); it runs {}",
                n.op_type,
                if known {
                    String::new()
                } else {
                    format!(" of domain `{}`", n.domain)
                },
                n.name,
                OPS.join(", ")
            )));
        }
    }
    // How many times each value is read: by nodes, and (forever) as a graph output.
    for n in &g.node {
        for i in n.input.iter().filter(|i| !i.is_empty()) {
            *c.uses.entry(i.clone()).or_default() += 1;
        }
    }
    for o in &g.output {
        *c.uses.entry(o.name.clone()).or_default() += PINNED;
    }
    for t in &g.initializer {
        let v = c.tensor(t)?;
        c.vals.insert(t.name.clone(), v);
    }
    let mut inputs = [0u32; 3];
    for i in &g.input {
        if c.vals.contains_key(&i.name) {
            // An initializer listed as an input too (older exporters): a constant.
            continue;
        }
        let (buf, k) = match i.name.as_str() {
            "obs" => (Buf::Obs, 0),
            "mask" => (Buf::Mask, 1),
            "state_in" => (Buf::State, 2),
            other => {
                return Err(bad(format!(
                    "unexpected input `{other}` (structured-v1 takes obs, mask and optionally \
                     state_in)"
                )));
            }
        };
        let len = width(i).ok_or_else(|| {
            bad(format!(
                "input `{}` is not a float32 tensor of shape [batch, n]",
                i.name
            ))
        })?;
        inputs[k] = len;
        c.vals.insert(
            i.name.clone(),
            Val::Row {
                at: Operand { buf, off: 0, len },
                dense: None,
            },
        );
    }
    for n in &g.node {
        c.node(n)?;
    }
    let mut outputs = [(0u32, 0u32); 3];
    for o in &g.output {
        let k = match o.name.as_str() {
            "logits" => 0,
            "value" => 1,
            "state_out" => 2,
            _ => continue,
        };
        match c.vals.get(&o.name) {
            Some(Val::Row {
                at:
                    Operand {
                        buf: Buf::Scratch,
                        off,
                        len,
                    },
                ..
            }) => outputs[k] = (*off, *len),
            _ => {
                return Err(bad(format!(
                    "output `{}` is not computed from the inputs (the native backend runs \
                     outputs that the graph computes)",
                    o.name
                )));
            }
        }
    }
    c.w.scratch = c.top;
    c.w.interface = Interface { inputs, outputs };
    c.w.finish()
        .map_err(|e| bad(format!("cannot write a native policy: {e}")))
}

/// The ONNX operators a conversion handles.
const OPS: &[&str] = &[
    "Gemm",
    "MatMul",
    "Add",
    "Sub",
    "Mul",
    "Relu",
    "Tanh",
    "Sigmoid",
    "Constant",
    "Identity",
    "DynamicQuantizeLinear",
    "MatMulInteger",
    "Cast",
];

/// A graph output's read count: never released.
const PINNED: usize = 1 << 40;

/// A value of the graph during conversion.
#[derive(Clone, Debug)]
enum Val {
    /// A constant, folded at conversion.
    Const {
        dims: Vec<usize>,
        data: Vec<f32>,
    },
    /// A per-row vector; `dense` is the operation that wrote it, while it is a dense product
    /// without activation that may still take one.
    Row {
        at: Operand,
        dense: Option<usize>,
    },
    /// Int8 weights (an initializer of ONNX type INT8).
    ConstI8 {
        dims: Vec<usize>,
        data: Vec<i8>,
    },
    /// The outputs of `DynamicQuantizeLinear` over the row value at `src`: the quantized row,
    /// its scale, its zero point. They live on only inside the int8 product they feed.
    QRow {
        src: Operand,
    },
    QScale {
        src: Operand,
    },
    QZero {
        src: Operand,
    },
    /// `MatMulInteger` of a quantized row by int8 weights (`K × N`), before its scale.
    QAcc {
        src: Operand,
        w: Vec<i8>,
        n_out: usize,
    },
    /// A quantized row's scale times the weights' scales (one, or one per output).
    QScaleTimes {
        src: Operand,
        c: Vec<f32>,
    },
}

struct Converter<'n> {
    name: &'n str,
    w: Writer,
    vals: HashMap<String, Val>,
    /// Reads left per value name.
    uses: HashMap<String, usize>,
    /// Reads left per scratch place (by offset), over every name that refers to it.
    slot_refs: HashMap<u32, usize>,
    /// Scratch places free for reuse: (offset, length).
    free: Vec<(u32, u32)>,
    /// Scratch floats used so far.
    top: u32,
}

impl Converter<'_> {
    fn bad(&self, what: String) -> Error {
        Error::new(ErrorKind::Policy, format!("{}: {what}", self.name))
    }

    fn tensor(&self, t: &proto::Tensor) -> Result<Val> {
        let dims: Vec<usize> = t
            .dims
            .iter()
            .map(|&d| usize::try_from(d))
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| self.bad(format!("tensor `{}` has a negative dimension", t.name)))?;
        let n = dims
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
            .ok_or_else(|| self.bad(format!("tensor `{}` is too large", t.name)))?;
        if t.data_location == 1 {
            return Err(self.bad(format!(
                "tensor `{}` keeps its data in an external file",
                t.name
            )));
        }
        let data: Vec<f32> = match t.data_type {
            1 if !t.raw_data.is_empty() => t
                .raw_data
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
            1 => t.float_data.clone(),
            11 if !t.raw_data.is_empty() => t
                .raw_data
                .chunks_exact(8)
                .map(|c| f64::from_le_bytes(c.try_into().unwrap_or([0; 8])) as f32)
                .collect(),
            11 => t.double_data.iter().map(|&d| d as f32).collect(),
            3 => {
                let data: Vec<i8> = if t.raw_data.is_empty() {
                    t.int32_data.iter().map(|&v| v as i8).collect()
                } else {
                    t.raw_data.iter().map(|&b| b as i8).collect()
                };
                if data.len() != n {
                    return Err(self.bad(format!(
                        "tensor `{}` holds {} values for its shape {dims:?}",
                        t.name,
                        data.len()
                    )));
                }
                return Ok(Val::ConstI8 { dims, data });
            }
            ty => {
                return Err(self.bad(format!(
                    "tensor `{}` is of ONNX type {ty}; the native backend runs float32 \
                     and int8 weights",
                    t.name
                )));
            }
        };
        if data.len() != n {
            return Err(self.bad(format!(
                "tensor `{}` holds {} values for its shape {dims:?}",
                t.name,
                data.len()
            )));
        }
        if data.iter().any(|v| !v.is_finite()) {
            return Err(self.bad(format!(
                "tensor `{}` has a value that is not finite",
                t.name
            )));
        }
        Ok(Val::Const { dims, data })
    }

    fn get(&self, n: &proto::Node, i: usize) -> Result<Val> {
        let name =
            n.input.get(i).filter(|s| !s.is_empty()).ok_or_else(|| {
                self.bad(format!("{} node `{}` lacks input {i}", n.op_type, n.name))
            })?;
        self.vals
            .get(name)
            .cloned()
            .ok_or_else(|| self.bad(format!("value `{name}` is used before it is computed")))
    }

    /// A scratch place of `len` floats, reused if one is free.
    fn alloc(&mut self, len: u32) -> Result<u32> {
        if let Some(k) = self.free.iter().position(|&(_, l)| l >= len) {
            let (off, l) = self.free.swap_remove(k);
            if l > len {
                self.free.push((off + len, l - len));
            }
            return Ok(off);
        }
        let off = self.top;
        self.top = self
            .top
            .checked_add(len)
            .ok_or_else(|| self.bad("needs too much scratch".into()))?;
        Ok(off)
    }

    /// Binds `out` to a per-row value at `at`, with its reads.
    fn bind(&mut self, out: &str, at: Operand, dense: Option<usize>) {
        if at.buf == Buf::Scratch {
            let reads = self.uses.get(out).copied().unwrap_or(0);
            *self.slot_refs.entry(at.off).or_default() += reads;
            if reads == 0 {
                // Nothing reads it: its place is free again at once.
                self.release(at);
            }
        }
        self.vals.insert(out.to_string(), Val::Row { at, dense });
    }

    /// One read of each input of node `n` is done: frees the places nothing reads any more.
    fn consumed(&mut self, n: &proto::Node) {
        for i in n.input.iter().filter(|i| !i.is_empty()) {
            if let Some(Val::Row { at, .. }) = self.vals.get(i).cloned()
                && at.buf == Buf::Scratch
            {
                let r = self.slot_refs.entry(at.off).or_default();
                *r = r.saturating_sub(1);
                if *r == 0 {
                    self.release(at);
                }
            }
        }
    }

    fn release(&mut self, at: Operand) {
        self.slot_refs.remove(&at.off);
        self.free.push((at.off, at.len));
    }

    /// Whether `name`, a dense product's result, is read once only (by the node at hand).
    fn only_use(&self, name: &str) -> bool {
        self.uses.get(name) == Some(&1)
    }

    fn node(&mut self, n: &proto::Node) -> Result<()> {
        let out =
            n.output.first().cloned().ok_or_else(|| {
                self.bad(format!("{} node `{}` has no output", n.op_type, n.name))
            })?;
        let attr = |key: &str| n.attribute.iter().find(|a| a.name == key);
        match n.op_type.as_str() {
            "Constant" => {
                let t = attr("value").and_then(|a| a.t.as_ref()).ok_or_else(|| {
                    self.bad(format!(
                        "Constant node `{}` has no tensor `value` (the native backend reads \
                         that form only)",
                        n.name
                    ))
                })?;
                let v = self.tensor(t)?;
                self.vals.insert(out, v);
            }
            "Identity" => {
                let v = self.get(n, 0)?;
                match v {
                    Val::Row { at, .. } => {
                        self.bind(&out, at, None);
                        self.consumed(n);
                    }
                    c => {
                        self.vals.insert(out, c);
                    }
                }
            }
            "Gemm" | "MatMul" => self.dense(n, &out)?,
            "DynamicQuantizeLinear" => {
                let Val::Row { at, .. } = self.get(n, 0)? else {
                    return Err(self.int8(n, "quantizes a constant"));
                };
                let [q, scale, zero] = &n.output[..] else {
                    return Err(self.int8(n, "does not have its three outputs"));
                };
                // The row stays until every int8 product reading it is written: its read by
                // this node becomes one per reader of the quantized row.
                if at.buf == Buf::Scratch {
                    let readers = self.uses.get(q).copied().unwrap_or(0);
                    let r = self.slot_refs.entry(at.off).or_default();
                    *r = (*r + readers).saturating_sub(1);
                    if *r == 0 {
                        self.release(at);
                    }
                }
                self.vals.insert(q.clone(), Val::QRow { src: at });
                self.vals.insert(scale.clone(), Val::QScale { src: at });
                self.vals.insert(zero.clone(), Val::QZero { src: at });
            }
            "MatMulInteger" => {
                let (Val::QRow { src }, Val::ConstI8 { dims, data }) =
                    (self.get(n, 0)?, self.get(n, 1)?)
                else {
                    return Err(self.int8(
                        n,
                        "multiplies something else than a quantized row by int8 weights",
                    ));
                };
                match n
                    .input
                    .get(2)
                    .filter(|s| !s.is_empty())
                    .map(|_| self.get(n, 2))
                {
                    Some(Ok(Val::QZero { src: z })) if z == src => {}
                    _ => return Err(self.int8(n, "lacks its row's zero point")),
                }
                let zero_w = match n.input.get(3).filter(|s| !s.is_empty()) {
                    None => true,
                    Some(_) => match self.get(n, 3)? {
                        Val::ConstI8 { data, .. } => data.iter().all(|&z| z == 0),
                        _ => false,
                    },
                };
                if !zero_w {
                    return Err(self.int8(n, "has int8 weights with a zero point other than 0"));
                }
                let [k, n_out] = dims[..] else {
                    return Err(self.int8(n, "has weights that are not 2-D"));
                };
                if k != src.len as usize {
                    return Err(self.int8(n, "has weights for another input width"));
                }
                self.vals.insert(
                    out,
                    Val::QAcc {
                        src,
                        w: data,
                        n_out,
                    },
                );
            }
            "Cast" => {
                let to = attr("to").map_or(0, |a| a.i);
                match self.get(n, 0)? {
                    acc @ Val::QAcc { .. } if to == 1 => {
                        self.vals.insert(out, acc);
                    }
                    _ => return Err(self.int8(n, "casts something other than int8 sums to float")),
                }
            }
            "Relu" | "Tanh" | "Sigmoid" => {
                let act = match n.op_type.as_str() {
                    "Relu" => Act::Relu,
                    "Tanh" => Act::Tanh,
                    _ => Act::Sigmoid,
                };
                match self.get(n, 0)? {
                    Val::Const { dims, data } => {
                        let data = data.iter().map(|&v| apply(act, v)).collect();
                        self.vals.insert(out, Val::Const { dims, data });
                    }
                    Val::Row { at, dense } => {
                        let x = &n.input[0];
                        if let (Some(k), true) = (dense, self.only_use(x)) {
                            if let Op::Dense { act: a, .. } | Op::DenseQ8 { act: a, .. } =
                                &mut self.w.ops_mut()[k]
                            {
                                *a = act;
                            }
                            // The product's place becomes the activation's.
                            self.bind(&out, at, None);
                            self.consumed(n);
                        } else {
                            let dst = self.alloc(at.len)?;
                            self.w.op(Op::Unary { src: at, dst, act });
                            self.consumed(n);
                            self.bind(&out, scratch(dst, at.len), None);
                        }
                    }
                    _ => return Err(self.int8(n, "applies to an int8 value")),
                }
            }
            "Add" | "Sub" | "Mul" => self.binary(n, &out)?,
            other => {
                return Err(self.bad(format!(
                    "the native backend cannot run operator `{other}` (node `{}`)",
                    n.name
                )));
            }
        }
        Ok(())
    }

    fn dense(&mut self, n: &proto::Node, out: &str) -> Result<()> {
        let gemm = n.op_type == "Gemm";
        let int = |key: &str, default: i64| {
            n.attribute
                .iter()
                .find(|a| a.name == key)
                .map_or(default, |a| a.i)
        };
        let float = |key: &str| {
            n.attribute
                .iter()
                .find(|a| a.name == key)
                .map_or(1.0, |a| a.f)
        };
        let Val::Row { at: x, .. } = self.get(n, 0)? else {
            return Err(self.bad(format!(
                "{} node `{}`: the native backend needs the first operand to be computed from \
                 the inputs",
                n.op_type, n.name
            )));
        };
        let Val::Const { dims, data } = self.get(n, 1)? else {
            return Err(self.bad(format!(
                "{} node `{}`: the native backend needs constant weights",
                n.op_type, n.name
            )));
        };
        if gemm && int("transA", 0) != 0 {
            return Err(self.bad(format!("Gemm node `{}` with transA", n.name)));
        }
        let trans_b = gemm && int("transB", 0) != 0;
        let [r, c] = dims[..] else {
            return Err(self.bad(format!(
                "{} node `{}`: weights of shape {dims:?}, expected 2-D",
                n.op_type, n.name
            )));
        };
        let (k_in, n_out) = if trans_b { (c, r) } else { (r, c) };
        if k_in != x.len as usize {
            return Err(self.bad(format!(
                "{} node `{}`: weights for {k_in} inputs applied to {}",
                n.op_type, n.name, x.len
            )));
        }
        let alpha = if gemm { float("alpha") } else { 1.0 };
        let mut w = vec![0f32; k_in * n_out];
        for k in 0..k_in {
            for o in 0..n_out {
                let v = if trans_b {
                    data[o * c + k]
                } else {
                    data[k * c + o]
                };
                w[k * n_out + o] = if alpha == 1.0 { v } else { alpha * v };
            }
        }
        let bias = if gemm && n.input.get(2).is_some_and(|s| !s.is_empty()) {
            let Val::Const { data: b, .. } = self.get(n, 2)? else {
                return Err(self.bad(format!(
                    "Gemm node `{}`: the native backend needs a constant C",
                    n.name
                )));
            };
            let beta = float("beta");
            let b: Vec<f32> = match b.len() {
                1 => vec![beta * b[0]; n_out],
                l if l == n_out => b.iter().map(|&v| beta * v).collect(),
                l => {
                    return Err(self.bad(format!(
                        "Gemm node `{}`: C of {l} values for {n_out} outputs",
                        n.name
                    )));
                }
            };
            Some(self.w.constant(&b))
        } else {
            None
        };
        let n_out = u32::try_from(n_out).map_err(|_| self.bad("a product too large".into()))?;
        let w_at = self.w.constant(&w);
        let dst = self.alloc(n_out)?;
        let k = self.w_op_count();
        self.w.op(Op::Dense {
            src: x,
            dst,
            n_in: x.len,
            n_out,
            w: w_at,
            bias,
            act: Act::None,
        });
        self.consumed(n);
        self.bind(out, scratch(dst, n_out), Some(k));
        Ok(())
    }

    fn w_op_count(&mut self) -> usize {
        self.w.ops_mut().len()
    }

    fn binary(&mut self, n: &proto::Node, out: &str) -> Result<()> {
        let op = match n.op_type.as_str() {
            "Add" => BinOp::Add,
            "Sub" => BinOp::Sub,
            _ => BinOp::Mul,
        };
        let (a, b) = (self.get(n, 0)?, self.get(n, 1)?);
        let f = |x: f32, z: f32| match op {
            BinOp::Add => x + z,
            BinOp::Sub => x - z,
            BinOp::Mul => x * z,
        };
        let shape_err = || {
            self.bad(format!(
                "{} node `{}`: constants of shapes the native backend does not broadcast",
                n.op_type, n.name
            ))
        };
        match (a, b) {
            (Val::QScale { src }, Val::Const { data, .. })
            | (Val::Const { data, .. }, Val::QScale { src })
                if op == BinOp::Mul =>
            {
                self.vals
                    .insert(out.to_string(), Val::QScaleTimes { src, c: data });
            }
            (Val::QAcc { src, w, n_out }, Val::QScaleTimes { src: s2, c })
            | (Val::QScaleTimes { src: s2, c }, Val::QAcc { src, w, n_out })
                if op == BinOp::Mul && src == s2 =>
            {
                self.dense_q8(n, out, src, &w, n_out, &c)?;
            }
            (
                Val::QRow { .. }
                | Val::QScale { .. }
                | Val::QZero { .. }
                | Val::QAcc { .. }
                | Val::QScaleTimes { .. }
                | Val::ConstI8 { .. },
                _,
            )
            | (
                _,
                Val::QRow { .. }
                | Val::QScale { .. }
                | Val::QZero { .. }
                | Val::QAcc { .. }
                | Val::QScaleTimes { .. }
                | Val::ConstI8 { .. },
            ) => {
                return Err(self.int8(n, "combines int8 values other than as a quantized product"));
            }
            (Val::Const { dims: da, data: xa }, Val::Const { dims: db, data: xb }) => {
                let (dims, data) = match (xa.len(), xb.len()) {
                    (p, q) if p == q => (da, xa.iter().zip(&xb).map(|(&x, &z)| f(x, z)).collect()),
                    (1, _) => (db, xb.iter().map(|&z| f(xa[0], z)).collect()),
                    (_, 1) => (da, xa.iter().map(|&x| f(x, xb[0])).collect()),
                    _ => return Err(shape_err()),
                };
                self.vals.insert(out.to_string(), Val::Const { dims, data });
            }
            (Val::Row { at, dense }, Val::Const { data, .. }) if op == BinOp::Add => {
                // A bias after a product nothing else reads goes into the product.
                let x = &n.input[0];
                if let (Some(k), true, true) =
                    (dense, self.only_use(x), data.len() == at.len as usize)
                {
                    self.fold_bias(k, &data);
                    self.bind(out, at, Some(k));
                    self.consumed(n);
                } else {
                    self.emit(
                        n,
                        out,
                        op,
                        Val::Row { at, dense },
                        Val::Const { dims: vec![], data },
                    )?;
                }
            }
            (a, b) => self.emit(n, out, op, a, b)?,
        }
        Ok(())
    }

    /// A node of an int8 graph outside the one pattern the native backend runs.
    fn int8(&self, n: &proto::Node, what: &str) -> Error {
        self.bad(format!(
            "{} node `{}` {what}: the native backend runs int8 products of the form \
             DynamicQuantizeLinear → MatMulInteger (int8 weights, zero point 0) → Cast → Mul by \
             the two scales",
            n.op_type, n.name
        ))
    }

    /// The int8 product of the quantized row at `src` by `w` (`src.len × n_out`), scaled by
    /// `c` (the row's scale times one weight scale, or one per output).
    fn dense_q8(
        &mut self,
        n: &proto::Node,
        out: &str,
        src: Operand,
        w: &[i8],
        n_out: usize,
        c: &[f32],
    ) -> Result<()> {
        let scales: Vec<f32> = match c.len() {
            1 => vec![c[0]; n_out],
            l if l == n_out => c.to_vec(),
            _ => return Err(self.int8(n, "has weight scales of another width")),
        };
        let n_out = u32::try_from(n_out).map_err(|_| self.bad("a product too large".into()))?;
        let w_at = self.w.constant_q8(w);
        let s_at = self.w.constant(&scales);
        let dst = self.alloc(n_out)?;
        let k = self.w_op_count();
        self.w.op(Op::DenseQ8 {
            src,
            dst,
            n_in: src.len,
            n_out,
            w: w_at,
            scales: s_at,
            bias: None,
            act: Act::None,
        });
        // The quantized row's read by this product.
        if src.buf == Buf::Scratch {
            let r = self.slot_refs.entry(src.off).or_default();
            *r = r.saturating_sub(1);
            if *r == 0 {
                self.release(src);
            }
        }
        self.bind(out, scratch(dst, n_out), Some(k));
        Ok(())
    }

    /// Adds `b` to the bias of dense operation `k`.
    fn fold_bias(&mut self, k: usize, b: &[f32]) {
        let bias = match self.w.ops_mut()[k] {
            Op::Dense { bias, .. } | Op::DenseQ8 { bias, .. } => bias,
            _ => return,
        };
        match bias {
            Some(at) => {
                for (d, &v) in self.w.weights_mut()[at as usize..].iter_mut().zip(b) {
                    *d += v;
                }
            }
            None => {
                let at = self.w.constant(b);
                if let Op::Dense { bias, .. } | Op::DenseQ8 { bias, .. } = &mut self.w.ops_mut()[k]
                {
                    *bias = Some(at);
                }
            }
        }
    }

    /// A binary operation on at least one per-row operand.
    fn emit(&mut self, n: &proto::Node, out: &str, op: BinOp, a: Val, b: Val) -> Result<()> {
        let rows = |v: &Val| match v {
            Val::Row { at, .. } => Some(at.len),
            _ => None,
        };
        let len = match (rows(&a), rows(&b)) {
            (Some(p), Some(q)) if p == q => p,
            (Some(p), None) | (None, Some(p)) => p,
            _ => {
                return Err(self.bad(format!(
                    "{} node `{}`: operands of {:?} and {:?} floats per row",
                    n.op_type,
                    n.name,
                    rows(&a),
                    rows(&b)
                )));
            }
        };
        let mut operand = |v: Val| -> Result<Operand> {
            match v {
                Val::Row { at, .. } => Ok(at),
                Val::Const { data, .. } if data.len() == 1 || data.len() == len as usize => {
                    let off = self.w.constant(&data);
                    Ok(Operand {
                        buf: Buf::Weights,
                        off,
                        len: data.len() as u32,
                    })
                }
                Val::Const { data, .. } => Err(self.bad(format!(
                    "{} node `{}`: a constant of {} values for {len} floats per row",
                    n.op_type,
                    n.name,
                    data.len()
                ))),
                _ => Err(self.int8(n, "combines an int8 value")),
            }
        };
        let (a, b) = (operand(a)?, operand(b)?);
        let dst = self.alloc(len)?;
        self.w.op(Op::Binary {
            a,
            b,
            dst,
            n: len,
            op,
        });
        self.consumed(n);
        self.bind(out, scratch(dst, len), None);
        Ok(())
    }
}

fn scratch(off: u32, len: u32) -> Operand {
    Operand {
        buf: Buf::Scratch,
        off,
        len,
    }
}

fn apply(act: Act, v: f32) -> f32 {
    match act {
        Act::None => v,
        Act::Relu => v.max(0.0),
        Act::Tanh => v.tanh(),
        Act::Sigmoid => 1.0 / (1.0 + (-v).exp()),
    }
}

/// The width `n` of a float32 input of shape `[batch, n]`.
fn width(i: &proto::ValueInfo) -> Option<u32> {
    let t = i.r#type.as_ref()?.tensor_type.as_ref()?;
    if t.elem_type != 1 {
        return None;
    }
    match &t.shape.as_ref()?.dim[..] {
        [_, n] => u32::try_from(n.dim_value).ok().filter(|&n| n > 0),
        _ => None,
    }
}

/// A checked native model and the buffers of a run: see the [module docs](self).
pub(crate) struct Engine {
    model: Model<AlignedBytes>,
    mask: Vec<f32>,
    state: Vec<f32>,
    state_out: Vec<f32>,
    scratch: Vec<f32>,
    value: [f32; 1],
    /// A batch's new recurrent states, before they replace the old (kept between runs).
    pub(crate) batch_state: Vec<f32>,
}

impl Engine {
    /// Checks the native file `bytes`, and what its buffers would cost against `limits`
    /// (before any is made: a hostile header must not make the host allocate gigabytes).
    pub(crate) fn new(bytes: &[u8], name: &str, limits: &PolicyLimits) -> Result<Self> {
        let model = Model::new(AlignedBytes::new(bytes)).map_err(|e| {
            Error::new(
                ErrorKind::Policy,
                format!("{name} is not a valid native policy file: {e}"),
            )
            .with_source(e)
        })?;
        let over = |what: &str, n: u64, max: u64| {
            Error::new(
                ErrorKind::Policy,
                format!(
                    "{name}: {what} of {n}, more than the {max} allowed (a limit of \
                     PolicyLimits, to protect the host)"
                ),
            )
        };
        for (what, n) in [
            ("an observation", model.obs_len()),
            ("a mask", model.mask_len()),
            ("a recurrent state", model.state_len()),
            ("a scratch row", model.scratch_per_row()),
        ] {
            if n as u64 > limits.max_tensor_elements {
                return Err(over(what, n as u64, limits.max_tensor_elements));
            }
        }
        if model.op_count() as u64 > limits.max_nodes {
            return Err(over("a program", model.op_count() as u64, limits.max_nodes));
        }
        Ok(Self {
            mask: vec![0.0; model.mask_len()],
            state: vec![0.0; model.state_len()],
            state_out: vec![0.0; model.state_len()],
            scratch: vec![0.0; model.scratch_per_row()],
            value: [0.0],
            batch_state: Vec::new(),
            model,
        })
    }

    pub(crate) fn model(&self) -> &Model<AlignedBytes> {
        &self.model
    }

    /// The metadata entries, as the ONNX file had them.
    pub(crate) fn metadata(&self) -> Vec<(String, String)> {
        self.model
            .metadata()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    pub(crate) fn state(&self) -> &[f32] {
        &self.state
    }

    pub(crate) fn state_mut(&mut self) -> &mut [f32] {
        &mut self.state
    }

    /// One row: the mask as bytes (0 illegal); the logits into `logits`; returns the value
    /// (0 without one). The recurrent state advances.
    pub(crate) fn run(&mut self, obs: &[f32], mask: &[u8], logits: &mut [f32]) -> Result<f32> {
        for (m, &x) in self.mask.iter_mut().zip(mask) {
            *m = f32::from(x);
        }
        self.run_f32(obs, None, logits)
    }

    /// One row with the mask as floats (`None`: the one in the engine's buffer) and the
    /// engine's recurrent state.
    pub(crate) fn run_f32(
        &mut self,
        obs: &[f32],
        mask: Option<&[f32]>,
        logits: &mut [f32],
    ) -> Result<f32> {
        let Self {
            model,
            mask: own_mask,
            state,
            state_out,
            scratch,
            value,
            batch_state: _,
        } = self;
        model
            .run(
                1,
                Inputs {
                    obs,
                    mask: mask.unwrap_or(own_mask),
                    state,
                },
                scratch,
                Outputs {
                    logits,
                    value,
                    state: state_out,
                },
            )
            .map_err(|e| Error::new(ErrorKind::Inference, format!("running the policy: {e}")))?;
        state.copy_from_slice(state_out);
        Ok(value[0])
    }

    /// `rows` rows at once (see [`crate::batch`]): the scratch grows to the largest batch
    /// seen, then stays.
    pub(crate) fn run_batch(
        &mut self,
        rows: usize,
        inputs: Inputs<'_>,
        outputs: Outputs<'_>,
    ) -> Result<()> {
        let need = rows * self.model.scratch_per_row();
        if self.scratch.len() < need {
            self.scratch.resize(need, 0.0);
        }
        self.model
            .run(rows, inputs, &mut self.scratch, outputs)
            .map_err(|e| {
                Error::new(
                    ErrorKind::Inference,
                    format!("running the policy on a batch: {e}"),
                )
            })
    }
}

// The parts of ONNX's `ModelProto` the conversion reads (onnx.proto field numbers).
mod proto {
    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct Model {
        #[prost(message, optional, tag = "7")]
        pub(super) graph: Option<Graph>,
        #[prost(message, repeated, tag = "14")]
        pub(super) metadata_props: Vec<Entry>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct Entry {
        #[prost(string, tag = "1")]
        pub(super) key: String,
        #[prost(string, tag = "2")]
        pub(super) value: String,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct Graph {
        #[prost(message, repeated, tag = "1")]
        pub(super) node: Vec<Node>,
        #[prost(message, repeated, tag = "5")]
        pub(super) initializer: Vec<Tensor>,
        #[prost(message, repeated, tag = "11")]
        pub(super) input: Vec<ValueInfo>,
        #[prost(message, repeated, tag = "12")]
        pub(super) output: Vec<ValueInfo>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct Node {
        #[prost(string, repeated, tag = "1")]
        pub(super) input: Vec<String>,
        #[prost(string, repeated, tag = "2")]
        pub(super) output: Vec<String>,
        #[prost(string, tag = "3")]
        pub(super) name: String,
        #[prost(string, tag = "4")]
        pub(super) op_type: String,
        #[prost(message, repeated, tag = "5")]
        pub(super) attribute: Vec<Attribute>,
        #[prost(string, tag = "7")]
        pub(super) domain: String,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct Attribute {
        #[prost(string, tag = "1")]
        pub(super) name: String,
        #[prost(float, tag = "2")]
        pub(super) f: f32,
        #[prost(int64, tag = "3")]
        pub(super) i: i64,
        #[prost(message, optional, tag = "5")]
        pub(super) t: Option<Tensor>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct Tensor {
        #[prost(int64, repeated, tag = "1")]
        pub(super) dims: Vec<i64>,
        #[prost(int32, tag = "2")]
        pub(super) data_type: i32,
        #[prost(float, repeated, tag = "4")]
        pub(super) float_data: Vec<f32>,
        #[prost(int32, repeated, tag = "5")]
        pub(super) int32_data: Vec<i32>,
        #[prost(string, tag = "8")]
        pub(super) name: String,
        #[prost(bytes = "vec", tag = "9")]
        pub(super) raw_data: Vec<u8>,
        #[prost(double, repeated, tag = "10")]
        pub(super) double_data: Vec<f64>,
        #[prost(int32, tag = "14")]
        pub(super) data_location: i32,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct ValueInfo {
        #[prost(string, tag = "1")]
        pub(super) name: String,
        #[prost(message, optional, tag = "2")]
        pub(super) r#type: Option<Type>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct Type {
        #[prost(message, optional, tag = "1")]
        pub(super) tensor_type: Option<TensorType>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct TensorType {
        #[prost(int32, tag = "1")]
        pub(super) elem_type: i32,
        #[prost(message, optional, tag = "2")]
        pub(super) shape: Option<Shape>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct Shape {
        #[prost(message, repeated, tag = "1")]
        pub(super) dim: Vec<Dim>,
    }

    #[derive(Clone, PartialEq, prost::Message)]
    pub(super) struct Dim {
        #[prost(int64, tag = "1")]
        pub(super) dim_value: i64,
    }
}
