//! The native backend: the fixtures' outputs equal what Python ONNX Runtime computed, alone and
//! in batches, from an ONNX file converted in memory and from a `.ehp` file; graphs it cannot
//! run and broken files are refused with what is wrong named. No ort backend is initialised.

mod common;

use common::{fixture, max_diff, reference};
use evoharness_runtime::native::{convert, is_native};
use evoharness_runtime::{Backend, Batch, ErrorKind, PolicyBuilder};

fn native() -> PolicyBuilder {
    PolicyBuilder::new().backend(Backend::Native)
}

fn shipped(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/policies")
        .join(name)
}

#[test]
fn the_fixtures_match_onnxruntime() {
    for name in ["mlp.onnx", "recurrent.onnx"] {
        let mut p = native().commit_from_file(fixture(name)).unwrap();
        assert_eq!(p.backend().name(), "native");
        assert!(p.batched(), "a native policy runs batches in one call");
        for c in reference(name) {
            if let Some(s) = &c.state_in {
                p.set_state(s).unwrap();
            }
            let logits = p.run(&c.obs, &c.mask).unwrap().to_vec();
            let d = max_diff(&logits, &c.logits);
            assert!(d <= 1e-4, "{name}: logits differ by {d}");
            let best = (0..logits.len())
                .max_by(|&a, &b| logits[a].total_cmp(&logits[b]))
                .unwrap();
            assert_eq!(best, c.argmax, "{name}");
            if let Some(v) = c.value {
                assert!((p.value().unwrap() - v).abs() <= 1e-5, "{name}");
            }
            if let Some(s) = &c.state_out {
                assert!(max_diff(p.state(), s) <= 1e-5, "{name}");
            }
        }
    }
}

#[test]
fn a_batch_gives_each_row_what_it_gives_alone() {
    for name in ["mlp.onnx", "recurrent.onnx"] {
        let mut p = native().commit_from_file(fixture(name)).unwrap();
        let cases = reference(name);
        let mut batch = Batch::new(p.abi(), 8);
        let zero = vec![0.0; p.abi().state_len.unwrap_or(0)];
        for c in cases.iter().chain(&cases) {
            batch
                .push(&c.obs, &c.mask, c.state_in.as_deref().unwrap_or(&zero))
                .unwrap();
        }
        p.run_batch(&mut batch).unwrap();
        for (r, c) in cases.iter().chain(&cases).enumerate() {
            p.set_state(c.state_in.as_deref().unwrap_or(&zero)).unwrap();
            let alone = p.run(&c.obs, &c.mask).unwrap().to_vec();
            assert_eq!(batch.logits(r), alone.as_slice(), "{name} row {r}");
            assert_eq!(batch.state(r), p.state(), "{name} row {r}");
            assert_eq!(batch.value(r), p.value().unwrap_or(0.0), "{name} row {r}");
        }
    }
}

#[test]
fn a_converted_file_loads_as_the_onnx_file_does() {
    let onnx = std::fs::read(shipped("generalist.onnx")).unwrap();
    let ehp = convert(&onnx, "generalist.onnx").unwrap();
    assert!(is_native(&ehp) && !is_native(&onnx));
    // Weights dominate: the file is about the size of the ONNX one.
    assert!(ehp.len() < onnx.len() + 4096, "{} bytes", ehp.len());
    let from_onnx = native().commit_from_memory(&onnx).unwrap();
    // Auto runs a native file natively, without choosing an ort backend.
    let mut from_ehp = PolicyBuilder::new().commit_from_memory(&ehp).unwrap();
    assert_eq!(from_onnx.abi(), from_ehp.abi());
    assert_eq!(from_ehp.backend().name(), "native");
    let mut from_onnx = from_onnx;
    let layout = from_ehp.layout();
    let obs: Vec<f32> = (0..layout.obs_len())
        .map(|i| {
            if i % 5 == 0 {
                (i % 7) as f32 / 7.0
            } else {
                0.0
            }
        })
        .collect();
    let mask = vec![1u8; layout.actions()];
    let a = from_onnx.run(&obs, &mask).unwrap().to_vec();
    let b = from_ehp.run(&obs, &mask).unwrap().to_vec();
    assert_eq!(a, b);
    // The other backends refuse a native file rather than run it unasked.
    let e = PolicyBuilder::new()
        .backend(Backend::Tract)
        .commit_from_memory(&ehp)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Config, "{e}");
}

#[test]
fn the_int8_policy_runs_with_int8_weights() {
    let onnx = std::fs::read(shipped("generalist-int8.onnx")).unwrap();
    let ehp = convert(&onnx, "generalist-int8.onnx").unwrap();
    // A quarter of the f32 file: the weights are bytes.
    assert!(ehp.len() < 150_000, "{} bytes", ehp.len());
    let mut int8 = native().commit_from_memory(&ehp).unwrap();
    let mut f32 = native()
        .commit_from_file(shipped("generalist.onnx"))
        .unwrap();
    let layout = int8.layout();
    let obs: Vec<f32> = (0..layout.obs_len())
        .map(|i| {
            if i % 5 == 0 {
                (i % 7) as f32 / 7.0
            } else {
                0.0
            }
        })
        .collect();
    let mask = vec![1u8; layout.actions()];
    let a = int8.run(&obs, &mask).unwrap().to_vec();
    let b = f32.run(&obs, &mask).unwrap().to_vec();
    let d = max_diff(&a, &b);
    assert!(d < 0.5, "int8 and f32 logits differ by {d}");
}

#[test]
fn a_graph_with_another_operator_is_refused_naming_it() {
    // The mlp fixture with its first node's operator renamed.
    let mut bytes = std::fs::read(fixture("mlp.onnx")).unwrap();
    let at = bytes
        .windows(4)
        .position(|w| w == b"Gemm")
        .expect("a Gemm node");
    bytes[at..at + 4].copy_from_slice(b"Gelu");
    let e = native().commit_from_memory(&bytes).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Policy);
    assert!(e.to_string().contains("cannot run operator `Gelu`"), "{e}");
}

#[track_caller]
fn refused(name: &str, needle: &str) {
    let e = native().commit_from_file(fixture(name)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Policy, "{e}");
    let msg = e.to_string();
    assert!(msg.contains(needle), "`{msg}` should mention `{needle}`");
}

#[test]
fn bad_fixtures_are_refused_as_on_the_other_backends() {
    refused(
        "bad_obs_size.onnx",
        "input `obs` has 535 columns, the layout needs 534",
    );
    refused("no_metadata.onnx", "no evoharness.abi metadata");
    refused("truncated.onnx", "is not a valid ONNX model");
    refused("wrong_abi.onnx", "declares ABI `generative-v1`");
    refused(
        "mismatched_layout.onnx",
        "but the layout for 16 facts, 8 steps, 4 lessons and 4 tools has",
    );
}

#[test]
fn a_corrupted_native_file_is_refused() {
    let onnx = std::fs::read(fixture("mlp.onnx")).unwrap();
    let mut ehp = convert(&onnx, "mlp.onnx").unwrap();
    let mid = ehp.len() / 2;
    ehp[mid] ^= 0x10;
    let e = native().commit_from_memory(&ehp).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Policy);
    assert!(e.to_string().contains("checksum"), "{e}");
    let e = native().commit_from_memory(&ehp[..40]).unwrap_err();
    assert!(e.to_string().contains("truncated"), "{e}");
}

/// A well-formed native file whose header asks for huge buffers is refused before any is
/// made.
#[test]
fn a_native_file_over_the_limits_is_refused_before_its_buffers_are_made() {
    use evoharness_runtime::PolicyLimits;
    let onnx = std::fs::read(fixture("mlp.onnx")).unwrap();
    let ehp = convert(&onnx, "mlp.onnx").unwrap();
    let small = PolicyLimits {
        max_tensor_elements: 100,
        ..PolicyLimits::default()
    };
    let e = native().limits(small).commit_from_memory(&ehp).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Policy);
    assert!(e.to_string().contains("a limit of PolicyLimits"), "{e}");
}
