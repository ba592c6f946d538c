//! Shared by the runtime's integration tests: fixture paths and the reference outputs that
//! Python ONNX Runtime computed for them (`tests/fixtures/make_fixtures.py`).

#![allow(dead_code, reason = "each test binary uses a different part")]

use std::path::PathBuf;

pub(crate) fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

pub(crate) struct Case {
    pub(crate) obs: Vec<f32>,
    pub(crate) mask: Vec<u8>,
    pub(crate) state_in: Option<Vec<f32>>,
    pub(crate) logits: Vec<f32>,
    pub(crate) value: Option<f32>,
    pub(crate) state_out: Option<Vec<f32>>,
    pub(crate) argmax: usize,
}

fn floats(v: &serde_json::Value) -> Vec<f32> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_f64().expect("a number") as f32)
        .collect()
}

/// The reference cases for one model.
pub(crate) fn reference(model: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(fixture("reference.json")).expect("reference.json");
    let d: serde_json::Value = serde_json::from_str(&text).expect("valid json");
    d["models"][model]["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| Case {
            obs: floats(&c["inputs"]["obs"]),
            mask: floats(&c["inputs"]["mask"])
                .iter()
                .map(|&m| u8::from(m != 0.0))
                .collect(),
            state_in: c["inputs"].get("state_in").map(floats),
            logits: floats(&c["outputs"]["logits"]),
            value: c["outputs"].get("value").map(|v| floats(v)[0]),
            state_out: c["outputs"].get("state_out").map(floats),
            argmax: c["argmax"].as_u64().expect("argmax") as usize,
        })
        .collect()
}

/// The largest absolute difference.
/// One prompt of `hf_reference.json` (`make_hf_fixture.py`): the text, the ids transformers'
/// tokenizer gives it, and the torch model's logits for its last token.
pub(crate) struct HfCase {
    pub(crate) prompt: String,
    pub(crate) ids: Vec<i64>,
    pub(crate) last_logits: Vec<f32>,
}

/// The prompts of `hf_reference.json`, for `generative_hf.onnx`.
pub(crate) fn hf_reference() -> Vec<HfCase> {
    let text = std::fs::read_to_string(fixture("hf_reference.json")).unwrap();
    let d: serde_json::Value = serde_json::from_str(&text).unwrap();
    d["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| HfCase {
            prompt: c["prompt"].as_str().unwrap().to_owned(),
            ids: c["ids"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect(),
            last_logits: floats(&c["last_logits"]),
        })
        .collect()
}

pub(crate) fn max_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

/// Runs test `child` of this test binary in a child process with `env` set to `backend` (ort's
/// backend is process-global, so an ONNX Runtime test runs beside the tract ones this way);
/// fails unless the child ran its one test and passed; returns its stdout.
pub(crate) fn run_child(child: &str, env: &str, backend: &str) -> String {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", child, "--nocapture", "--test-threads=1"])
        .env(env, backend)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    print!("{stdout}");
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the {backend} child failed");
    assert!(stdout.contains("1 passed"), "the child did not run");
    stdout
}
