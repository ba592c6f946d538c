//! Loading policies on the embedded default backend (tract): the contract checks with every bad
//! fixture, and outputs equal to what Python ONNX Runtime computed for the same inputs.

mod common;

use common::{fixture, max_diff, reference};
use evoharness_runtime::{Backend, Device, ErrorKind, PolicyBuilder};

fn load(name: &str) -> evoharness_runtime::Result<evoharness_runtime::Policy> {
    PolicyBuilder::new()
        .backend(Backend::Tract)
        .commit_from_file(fixture(name))
}

#[test]
fn the_mlp_fixture_loads_with_its_contract() {
    let p = load("mlp.onnx").unwrap();
    let abi = p.abi();
    assert_eq!(abi.abi, "structured-v1");
    assert_eq!(
        (
            abi.capacities.facts,
            abi.capacities.steps,
            abi.capacities.lessons,
            abi.capacities.tools
        ),
        (16, 8, 4, 3)
    );
    assert_eq!(
        (abi.obs_len, abi.actions),
        (p.layout().obs_len(), p.layout().actions())
    );
    assert_eq!(abi.tool_names, ["copy", "wait", "verify"]);
    assert!(abi.has_value);
    assert_eq!(abi.state_len, None);
    assert_eq!(p.backend().name(), "tract");
}

#[test]
fn tract_matches_onnxruntime_on_the_mlp() {
    let mut p = load("mlp.onnx").unwrap();
    for c in reference("mlp.onnx") {
        let logits = p.run(&c.obs, &c.mask).unwrap().to_vec();
        assert_eq!(p.logits(), logits.as_slice(), "logits() is the last run's");
        let d = max_diff(&logits, &c.logits);
        assert!(d <= 1e-5, "logits differ by {d}");
        let v = p.value().unwrap();
        assert!((v - c.value.unwrap()).abs() <= 1e-5);
        let best = (0..logits.len())
            .max_by(|&a, &b| logits[a].total_cmp(&logits[b]))
            .unwrap();
        assert_eq!(best, c.argmax);
    }
}

#[test]
fn tract_matches_onnxruntime_on_the_recurrent_policy() {
    let mut p = load("recurrent.onnx").unwrap();
    assert_eq!(p.abi().state_len, Some(8));
    for c in reference("recurrent.onnx") {
        p.set_state(c.state_in.as_ref().unwrap()).unwrap();
        let logits = p.run(&c.obs, &c.mask).unwrap().to_vec();
        assert!(max_diff(&logits, &c.logits) <= 1e-5);
        assert!(max_diff(p.state(), c.state_out.as_ref().unwrap()) <= 1e-5);
    }
    p.reset_state();
    assert!(p.state().iter().all(|&x| x == 0.0));
    assert_eq!(
        p.set_state(&[0.0; 3]).unwrap_err().kind(),
        ErrorKind::Checkpoint
    );
}

#[track_caller]
fn refused(name: &str, needle: &str) {
    let e = load(name).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Policy, "{e}");
    let msg = e.to_string();
    assert!(msg.contains(needle), "`{msg}` should mention `{needle}`");
    assert!(msg.contains(name), "`{msg}` should name the file");
}

#[test]
fn bad_fixtures_are_refused_with_the_mismatch_named() {
    refused(
        "bad_obs_size.onnx",
        "input `obs`: has 535 columns, the layout needs 534",
    );
    refused("no_metadata.onnx", "no evoharness.abi metadata");
    refused("truncated.onnx", "is not a valid ONNX model");
    refused("wrong_abi.onnx", "declares ABI `generative-v1`");
    refused(
        "mismatched_layout.onnx",
        "but the layout for 16 facts, 8 steps, 4 lessons and 4 tools has",
    );
    refused(
        "v2_wrong_version.onnx",
        "was made for layout version 1 of `structured-v2`; this runtime's is 2",
    );
}

#[test]
fn a_structured_v2_policy_loads_with_its_layout() {
    use evoharness_core::obs::{Layout, Version};
    let mut p = load("mlp_v2.onnx").unwrap();
    let abi = p.abi().clone();
    assert_eq!((abi.abi.as_str(), abi.layout_version), ("structured-v2", 2));
    assert_eq!(abi.version(), Version::V2);
    assert_eq!(
        p.layout(),
        Layout::with_version(abi.capacities, Version::V2)
    );
    assert_eq!(
        (abi.obs_len, abi.actions),
        (p.layout().obs_len(), p.layout().actions())
    );
    let v1 = load("mlp.onnx").unwrap();
    assert_eq!(v1.abi().version(), Version::V1);
    assert_eq!(abi.obs_len, v1.abi().obs_len + 15);
    assert_eq!(abi.actions, v1.abi().actions);
    let obs = vec![0.25; abi.obs_len];
    let mask = vec![1u8; abi.actions];
    assert_eq!(p.run(&obs, &mask).unwrap().len(), abi.actions);
    // An observation of the other version's length is refused.
    assert!(p.run(&obs[..v1.abi().obs_len], &mask).is_err());
}

#[test]
fn a_missing_file_is_an_io_error() {
    assert_eq!(load("nope.onnx").unwrap_err().kind(), ErrorKind::Io);
}

#[test]
fn gpu_on_tract_is_refused_clearly() {
    let e = PolicyBuilder::new()
        .backend(Backend::Tract)
        .device(Device::Cuda { device: 0 })
        .commit_from_file(fixture("mlp.onnx"))
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Device);
    assert!(e.to_string().contains("CPU only"), "{e}");
}

#[test]
fn a_second_backend_in_one_process_is_an_error() {
    load("mlp.onnx").unwrap();
    let e = PolicyBuilder::new()
        .backend(Backend::OnnxRuntime { library: None })
        .commit_from_file(fixture("mlp.onnx"))
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Backend);
    assert!(
        e.to_string().contains("already uses the tract backend"),
        "{e}"
    );
}

#[test]
fn wrong_buffer_sizes_are_an_error() {
    let mut p = load("mlp.onnx").unwrap();
    let e = p.run(&[0.0; 3], &[1; 223]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Inference);
}

#[test]
fn gpu_on_tract_falls_back_to_the_cpu_when_allowed() {
    let p = PolicyBuilder::new()
        .backend(Backend::Tract)
        .device(Device::Cuda { device: 0 })
        .cpu_fallback(true)
        .commit_from_file(fixture("mlp.onnx"))
        .unwrap();
    assert_eq!(p.device(), Device::Cpu);
    assert_eq!(Device::TensorRt { device: 2 }.to_string(), "tensorrt:2");
    assert_eq!(Device::parse("cuda:1").unwrap(), Device::Cuda { device: 1 });
}

#[test]
fn limits_refuse_a_costly_file_before_loading_it_and_name_the_limit() {
    use evoharness_runtime::PolicyLimits;
    let load = |limits: PolicyLimits| {
        PolicyBuilder::new()
            .backend(Backend::Tract)
            .limits(limits)
            .commit_from_file(fixture("mlp.onnx"))
    };
    let d = PolicyLimits::default();
    assert!(load(d).is_ok(), "the defaults admit the fixtures");
    for (limits, says) in [
        (
            PolicyLimits {
                max_file_bytes: 1_000,
                ..d
            },
            "more than the 1000 a policy file may have",
        ),
        (PolicyLimits { max_nodes: 2, ..d }, "more than 2 nodes"),
        (
            PolicyLimits {
                max_tensor_elements: 100,
                ..d
            },
            "more than 100 elements",
        ),
        (
            PolicyLimits {
                max_constant_bytes: 1_000,
                ..d
            },
            "declare more than 1000 bytes",
        ),
    ] {
        let e = load(limits).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Policy, "{e}");
        assert!(e.to_string().contains(says), "{e}");
        assert!(e.to_string().contains("PolicyLimits"), "{e}");
    }
}
