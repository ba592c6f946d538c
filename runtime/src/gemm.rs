//! The machine's single-core f32 matrix-product throughput, measured through the inference
//! backend in use.
//!
//! A policy decision is nearly all matrix products (the `evoharness bench` command counts
//! them from the policy file's graph), so the fastest a CPU
//! core can step agents is its GEMM throughput divided by a decision's FLOPs: the arithmetic
//! limit the `evoharness bench` command reports beside what a [`Fleet`] reaches. [`measure`]
//! times one square `MatMul` (`n × n` by `n × n`, `2n³` FLOPs) on the backend this process
//! initialised — ONNX Runtime's MLAS or tract's kernels, each with its hand-written SIMD
//! micro-kernels for the CPU it finds — with one thread, so the limit uses the best product
//! that backend has for this machine, not a figure from a data sheet.
//!
//! [`Fleet`]: crate::Fleet

use std::time::{Duration, Instant};

use ort::session::Session;
use ort::session::builder::GraphOptimizationLevel;
use ort::value::TensorRef;

use crate::backend::{self, Active, Backend};
use crate::error::{Context, Error, ErrorKind, Result};

/// What [`measure`] found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GemmRate {
    /// Floating-point operations per second: `2n³` per product over the median time of one.
    pub flops_per_s: f64,
    /// The matrices' side.
    pub n: usize,
    /// Products timed.
    pub runs: usize,
}

/// Times `n × n` f32 products on `backend` (initialised here if no policy did it first) with
/// one thread, for at least `min_time` after one untimed product; returns the median rate.
pub fn measure(backend: &Backend, n: usize, min_time: Duration) -> Result<GemmRate> {
    if n == 0 {
        return Err(Error::new(ErrorKind::Config, "a GEMM of side 0"));
    }
    let active = backend::init(backend)?;
    let env = backend::environment().ok_or_else(|| {
        Error::new(
            ErrorKind::Backend,
            "backend initialised without an environment",
        )
    })?;
    let fail = |what: &str| {
        let what = what.to_string();
        move |e: ort::Error| Error::new(ErrorKind::Backend, what).with_source(e)
    };
    let mut b = Session::builder(env).map_err(fail("a GEMM session"))?;
    b = b
        .with_optimization_level(GraphOptimizationLevel::All)
        .map_err(|e| fail("a GEMM session")(e.into()))?;
    if matches!(active, Active::OnnxRuntime { .. }) {
        b = b
            .with_intra_threads(1)
            .map_err(|e| fail("a GEMM session")(e.into()))?;
    }
    let mut session = b
        .commit_from_memory(&matmul_model(n))
        .map_err(fail("the GEMM model"))?;
    // Entries in [-1, 1), exact in f32, so no denormals or infinities slow a kernel down.
    let data: Vec<f32> = (0..n * n)
        .map(|i| ((i * 7919) % 1024) as f32 / 512.0 - 1.0)
        .collect();
    let mut once = || -> Result<Duration> {
        let view = || {
            TensorRef::from_array_view(([n, n], &data[..]))
                .context(ErrorKind::Backend, || "a GEMM input".to_string())
        };
        let (a, b) = (view()?, view()?);
        let t = Instant::now();
        let out = session
            .run([(&*a).into(), (&*b).into()])
            .context(ErrorKind::Backend, || "running the GEMM".to_string())?;
        let took = t.elapsed();
        std::hint::black_box(&out);
        Ok(took)
    };
    once()?;
    let mut times = Vec::new();
    let started = Instant::now();
    while times.len() < 3 || started.elapsed() < min_time {
        times.push(once()?);
    }
    times.sort();
    let median = times[times.len() / 2].as_secs_f64();
    let flops = 2.0 * (n as f64).powi(3);
    Ok(GemmRate {
        flops_per_s: flops / median,
        n,
        runs: times.len(),
    })
}

/// An ONNX model `c = MatMul(a, b)` with `a`, `b` and `c` float32 of shape `[n, n]`: written
/// here rather than shipped, so that the benchmark needs no file.
fn matmul_model(n: usize) -> Vec<u8> {
    use prost::Message as _;
    let square = |name: &str| ValueInfo {
        name: name.into(),
        r#type: Some(Type {
            tensor_type: Some(TensorType {
                elem_type: 1, // FLOAT
                shape: Some(Shape {
                    dim: vec![
                        Dim {
                            dim_value: n as i64
                        };
                        2
                    ],
                }),
            }),
        }),
    };
    Model {
        ir_version: 8,
        opset_import: vec![OpSet {
            domain: String::new(),
            version: 17,
        }],
        graph: Some(Graph {
            node: vec![Node {
                input: vec!["a".into(), "b".into()],
                output: vec!["c".into()],
                op_type: "MatMul".into(),
            }],
            name: "gemm".into(),
            input: vec![square("a"), square("b")],
            output: vec![square("c")],
        }),
    }
    .encode_to_vec()
}

// The few ONNX protobuf messages the model above needs (onnx.proto field numbers).

#[derive(Clone, PartialEq, prost::Message)]
struct Model {
    #[prost(int64, tag = "1")]
    ir_version: i64,
    #[prost(message, optional, tag = "7")]
    graph: Option<Graph>,
    #[prost(message, repeated, tag = "8")]
    opset_import: Vec<OpSet>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct OpSet {
    #[prost(string, tag = "1")]
    domain: String,
    #[prost(int64, tag = "2")]
    version: i64,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Graph {
    #[prost(message, repeated, tag = "1")]
    node: Vec<Node>,
    #[prost(string, tag = "2")]
    name: String,
    #[prost(message, repeated, tag = "11")]
    input: Vec<ValueInfo>,
    #[prost(message, repeated, tag = "12")]
    output: Vec<ValueInfo>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Node {
    #[prost(string, repeated, tag = "1")]
    input: Vec<String>,
    #[prost(string, repeated, tag = "2")]
    output: Vec<String>,
    #[prost(string, tag = "4")]
    op_type: String,
}

#[derive(Clone, PartialEq, prost::Message)]
struct ValueInfo {
    #[prost(string, tag = "1")]
    name: String,
    #[prost(message, optional, tag = "2")]
    r#type: Option<Type>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Type {
    #[prost(message, optional, tag = "1")]
    tensor_type: Option<TensorType>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct TensorType {
    #[prost(int32, tag = "1")]
    elem_type: i32,
    #[prost(message, optional, tag = "2")]
    shape: Option<Shape>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Shape {
    #[prost(message, repeated, tag = "1")]
    dim: Vec<Dim>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct Dim {
    #[prost(int64, tag = "1")]
    dim_value: i64,
}
