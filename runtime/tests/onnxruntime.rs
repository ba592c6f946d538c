//! The ONNX Runtime backend, from the library `scripts/fetch-onnxruntime.sh` fetches: the same
//! contract checks as on tract, outputs equal to Python ONNX Runtime's, device errors, and
//! parity with tract (each backend in its own child process: ort's backend is process-global).
//!
//! Ignored by default (the library is not checked in); `.ci/run` fetches it and runs them:
//!
//! ```sh
//! scripts/fetch-onnxruntime.sh
//! cargo test -p evoharness-runtime --test onnxruntime -- --ignored
//! ```
//!
//! The library is found through `EVOHARNESS_ORT_LIB`, else in `third_party/onnxruntime/lib/`
//! above the current directory; a missing library fails these tests, it does not skip them.

mod common;
#[path = "common/toy.rs"]
mod toy;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{fixture, hf_reference, max_diff, reference};
use evoharness_runtime::backend::ORT_VERSION;
use evoharness_runtime::{
    Active, Agent, AgentConfig, Backend, Device, ErrorKind, Policy, PolicyBuilder, Selection,
};
use serde_json::{Value, json};

fn builder() -> PolicyBuilder {
    PolicyBuilder::new().backend(Backend::OnnxRuntime { library: None })
}

fn load(name: &str) -> evoharness_runtime::Result<Policy> {
    builder().commit_from_file(fixture(name))
}

/// Checks a policy against the reference cases; returns the largest difference seen.
fn against_reference(p: &mut Policy, model: &str) -> f32 {
    let mut worst = 0f32;
    for c in reference(model) {
        if let Some(s) = &c.state_in {
            p.set_state(s).unwrap();
        }
        let logits = p.run(&c.obs, &c.mask).unwrap().to_vec();
        worst = worst.max(max_diff(&logits, &c.logits));
        if let Some(v) = c.value {
            worst = worst.max((p.value().unwrap() - v).abs());
        }
        if let Some(s) = &c.state_out {
            worst = worst.max(max_diff(p.state(), s));
        }
        let best = (0..logits.len())
            .max_by(|&a, &b| logits[a].total_cmp(&logits[b]).then(b.cmp(&a)))
            .unwrap();
        assert_eq!(best, c.argmax, "{model}");
    }
    assert!(worst <= 1e-5, "{model}: outputs differ by {worst}");
    worst
}

/// One step of the recurrent fixture's `rollout`.
struct RolloutStep {
    obs: Vec<f32>,
    mask: Vec<u8>,
    logits: Vec<f32>,
    state_out: Vec<f32>,
}

/// The recurrent fixture's `rollout`: four steps from a zero state, each `state_out` fed back.
fn rollout() -> Vec<RolloutStep> {
    let text = std::fs::read_to_string(fixture("reference.json")).unwrap();
    let d: Value = serde_json::from_str(&text).unwrap();
    let floats = |v: &Value| -> Vec<f32> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap() as f32)
            .collect()
    };
    d["models"]["recurrent.onnx"]["rollout"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let mask = floats(&s["inputs"]["mask"]);
            RolloutStep {
                obs: floats(&s["inputs"]["obs"]),
                mask: mask.iter().map(|&m| u8::from(m != 0.0)).collect(),
                logits: floats(&s["outputs"]["logits"]),
                state_out: floats(&s["outputs"]["state_out"]),
            }
        })
        .collect()
}

#[test]
#[ignore = "needs ONNX Runtime: run scripts/fetch-onnxruntime.sh, then cargo test -p evoharness-runtime --test onnxruntime -- --ignored"]
fn the_good_fixtures_load_on_onnx_runtime() {
    let p = load("mlp.onnx").unwrap();
    let Active::OnnxRuntime { version, library } = p.backend() else {
        panic!("expected ONNX Runtime, got {:?}", p.backend());
    };
    assert_eq!(version, ORT_VERSION, "loaded from {}", library.display());
    let abi = p.abi();
    assert_eq!((abi.obs_len, abi.actions), (534, 223));
    assert_eq!(abi.tool_names, ["copy", "wait", "verify"]);
    assert!(abi.has_value);
    assert_eq!(abi.state_len, None);

    let r = load("recurrent.onnx").unwrap();
    assert_eq!(r.abi().state_len, Some(8));
    assert!(!r.abi().has_value);
    assert_eq!(r.value(), None);
}

#[test]
#[ignore = "needs ONNX Runtime: run scripts/fetch-onnxruntime.sh, then cargo test -p evoharness-runtime --test onnxruntime -- --ignored"]
fn onnx_runtime_matches_python_onnx_runtime() {
    let mlp = against_reference(&mut load("mlp.onnx").unwrap(), "mlp.onnx");
    let mut p = load("recurrent.onnx").unwrap();
    let recurrent = against_reference(&mut p, "recurrent.onnx");

    // The rollout feeds each state_out back: the policy carries its own state.
    p.reset_state();
    let mut carried = 0f32;
    let steps = rollout();
    assert_eq!(steps.len(), 4);
    for s in steps {
        carried = carried.max(max_diff(p.run(&s.obs, &s.mask).unwrap(), &s.logits));
        carried = carried.max(max_diff(p.state(), &s.state_out));
    }
    assert!(carried <= 1e-5, "rollout differs by {carried}");
    println!(
        "max |Rust ONNX Runtime - Python ONNX Runtime {ORT_VERSION}|: mlp {mlp:e}, recurrent \
         {recurrent:e}, recurrent rollout {carried:e}"
    );
}

#[test]
#[ignore = "needs ONNX Runtime: run scripts/fetch-onnxruntime.sh, then cargo test -p evoharness-runtime --test onnxruntime -- --ignored"]
fn a_transformers_export_matches_transformers_on_onnx_runtime() {
    let mut p = builder()
        .commit_generative_from_file(fixture("generative_hf.onnx"))
        .unwrap();
    let mut worst = 0f32;
    for case in hf_reference() {
        let logits = p.run_prompt(&case.prompt).unwrap().to_vec();
        assert_eq!(p.prompt_tokens(), &case.ids[..]);
        worst = worst.max(max_diff(&logits, &case.last_logits));
    }
    assert!(worst <= 1e-4, "logits differ from transformers' by {worst}");
    println!("max |Rust ONNX Runtime - transformers| on the exported Llama: {worst:e}");
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
#[ignore = "needs ONNX Runtime: run scripts/fetch-onnxruntime.sh, then cargo test -p evoharness-runtime --test onnxruntime -- --ignored"]
fn bad_fixtures_are_refused_as_on_tract() {
    // The same messages as `tests/policy.rs` expects on tract.
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
    assert_eq!(load("nope.onnx").unwrap_err().kind(), ErrorKind::Io);
}

/// The whole error chain, as one string.
fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(" <- ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

#[test]
#[ignore = "needs ONNX Runtime: run scripts/fetch-onnxruntime.sh, then cargo test -p evoharness-runtime --test onnxruntime -- --ignored"]
fn a_gpu_on_the_cpu_library_is_a_device_error() {
    for (device, ep) in [
        (Device::Cuda { device: 0 }, "CUDA"),
        (Device::TensorRt { device: 0 }, "TensorRT"),
    ] {
        let e = builder()
            .device(device)
            .commit_from_file(fixture("mlp.onnx"))
            .unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Device, "{e}");
        let msg = chain(&e);
        println!("{msg}");
        assert!(msg.contains(&format!("{device} is not available")), "{msg}");
        assert!(msg.contains("CPU build"), "{msg}");
        // The cause from ONNX Runtime names the execution provider.
        assert!(
            e.to_string().len() > e.message().len() && msg.contains(ep),
            "{msg}"
        );
    }
}

#[test]
#[ignore = "needs ONNX Runtime: run scripts/fetch-onnxruntime.sh, then cargo test -p evoharness-runtime --test onnxruntime -- --ignored"]
fn cpu_fallback_loads_and_runs_on_the_cpu() {
    let mut p = builder()
        .device(Device::Cuda { device: 0 })
        .cpu_fallback(true)
        .commit_from_file(fixture("mlp.onnx"))
        .unwrap();
    against_reference(&mut p, "mlp.onnx");
}

// Parity with tract: each backend runs the same agents in a child process (this test binary,
// re-executed with `parity_child` selected), which writes what it did to a JSON file.

const CHILD_BACKEND: &str = "EVOHARNESS_PARITY_BACKEND";
const CHILD_OUT: &str = "EVOHARNESS_PARITY_OUT";
const MODELS: [&str; 2] = ["mlp.onnx", "recurrent.onnx"];
const SELECTIONS: [Selection; 2] = [Selection::Argmax, Selection::Sample { temperature: 1.0 }];
const SEEDS: [u64; 3] = [1, 2, 3];

#[test]
#[ignore = "needs ONNX Runtime: run scripts/fetch-onnxruntime.sh, then cargo test -p evoharness-runtime --test onnxruntime -- --ignored"]
fn tract_and_onnx_runtime_take_the_same_actions() {
    let tract = run_child("tract");
    let ort = run_child("onnxruntime");
    assert_eq!(tract["backend"], "tract");
    assert_eq!(ort["backend"], "onnxruntime");

    let mut worst = 0f32;
    let mut steps = 0;
    for (k, (a, b)) in runs(&tract).iter().zip(runs(&ort)).enumerate() {
        let what = &a["what"];
        assert_eq!(what, &b["what"]);
        assert_eq!(
            a["templates"], b["templates"],
            "run {k} ({what}): actions differ"
        );
        assert_eq!(
            a["snapshot"], b["snapshot"],
            "run {k} ({what}): workspaces differ"
        );
        steps += a["templates"].as_array().unwrap().len();
        for key in ["logits", "values", "states"] {
            for (x, y) in rows(&a[key]).iter().zip(rows(&b[key])) {
                worst = worst.max(max_diff(x, &y));
            }
        }
    }
    for (x, y) in rows(&tract["cases"]).iter().zip(rows(&ort["cases"])) {
        worst = worst.max(max_diff(x, &y));
    }
    assert!(steps > 500, "only {steps} steps compared");
    assert!(worst <= 1e-5, "outputs differ by {worst}");
    println!(
        "tract vs ONNX Runtime: {} runs, {steps} steps with identical actions; max output \
         difference {worst:e}",
        runs(&tract).len()
    );
}

fn runs(d: &Value) -> &Vec<Value> {
    d["runs"].as_array().unwrap()
}

fn rows(v: &Value) -> Vec<Vec<f32>> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap() as f32)
                .collect()
        })
        .collect()
}

fn run_child(backend: &str) -> Value {
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("parity-{}-{backend}.json", std::process::id()));
    let _ = std::fs::remove_file(&out);
    let exe = std::env::current_exe().unwrap();
    let status = Command::new(&exe)
        .args(["--exact", "parity_child", "--nocapture", "--test-threads=1"])
        .env(CHILD_BACKEND, backend)
        .env(CHILD_OUT, &out)
        .status()
        .unwrap();
    assert!(status.success(), "the {backend} child failed: {status}");
    let text = std::fs::read_to_string(&out)
        .unwrap_or_else(|e| panic!("the {backend} child wrote no {}: {e}", out.display()));
    std::fs::remove_file(&out).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The child half of the parity test: does nothing unless the parent selected it.
#[test]
fn parity_child() {
    let (Some(backend), Some(out)) = (std::env::var_os(CHILD_BACKEND), std::env::var_os(CHILD_OUT))
    else {
        return;
    };
    let backend = Backend::parse(backend.to_str().unwrap()).unwrap();
    let d = record(&backend);
    std::fs::write(Path::new(&out), serde_json::to_vec(&d).unwrap()).unwrap();
}

/// Runs every model, selection and seed on `backend`; records each step's action, the logits
/// it was chosen from, and the policy's outputs.
fn record(backend: &Backend) -> Value {
    let load = |model: &str| {
        PolicyBuilder::new()
            .backend(backend.clone())
            .commit_from_file(fixture(model))
            .unwrap()
    };
    let mut cases = Vec::new();
    for model in MODELS {
        let mut p = load(model);
        for c in reference(model) {
            if let Some(s) = &c.state_in {
                p.set_state(s).unwrap();
            }
            cases.push(p.run(&c.obs, &c.mask).unwrap().to_vec());
            cases.push(p.state().to_vec());
            cases.push(p.value().into_iter().collect());
        }
    }
    let mut runs = Vec::new();
    let mut name = "";
    for model in MODELS {
        for selection in SELECTIONS {
            for seed in SEEDS {
                let config = AgentConfig {
                    selection,
                    seed,
                    budget: 150,
                    ..Default::default()
                };
                let mut agent = Agent::new(load(model), toy::Toy::default(), config).unwrap();
                name = agent.policy().backend().name();
                // A second policy on the same file recomputes each step's logits from the
                // agent's observation, mask and state: the agent does not expose its own.
                let mut shadow = load(model);
                let layout = agent.policy().layout();
                let mut obs = vec![0f32; layout.obs_len()];
                let mut mask = vec![0u8; layout.actions()];
                let (mut templates, mut logits, mut values, mut states) =
                    (vec![], vec![], vec![], vec![]);
                for _ in 0..200 {
                    layout.encode(agent.workspace(), &mut obs).unwrap();
                    layout.mask(agent.workspace(), &mut mask).unwrap();
                    shadow.set_state(agent.policy().state()).unwrap();
                    let Some(report) = agent.step().unwrap() else {
                        break;
                    };
                    logits.push(shadow.run(&obs, &mask).unwrap().to_vec());
                    templates.push(report.template);
                    values.push(agent.policy().value().into_iter().collect::<Vec<_>>());
                    states.push(agent.policy().state().to_vec());
                }
                let ws = agent.workspace();
                let mut snap = vec![0; evoharness_core::snapshot::max_len(ws.capacities())];
                let n = ws.snapshot(&mut snap).unwrap().len();
                snap.truncate(n);
                runs.push(json!({
                    "what": format!("{model} {selection:?} seed {seed}"),
                    "templates": templates,
                    "logits": logits,
                    "values": values,
                    "states": states,
                    "snapshot": snap,
                }));
            }
        }
    }
    json!({ "backend": name, "cases": cases, "runs": runs })
}
