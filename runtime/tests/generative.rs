//! `generative-v1` on the embedded default backend (tract): the file contract, logits equal to
//! Python ONNX Runtime's, the KV cache (same logits with and without it), and an agent driven
//! by a language model whose every decoded action is legal.

mod common;

use common::{fixture, hf_reference, max_diff};
use evoharness_runtime::{
    Agent, AgentConfig, Backend, Controller, ErrorKind, FixtureWorld, GenerativePolicy,
    PolicyBuilder, Selection, generative,
};

fn load(name: &str) -> evoharness_runtime::Result<GenerativePolicy> {
    PolicyBuilder::new()
        .backend(Backend::Tract)
        .commit_generative_from_file(fixture(name))
}

fn reference() -> serde_json::Value {
    let text = std::fs::read_to_string(fixture("reference.json")).unwrap();
    let d: serde_json::Value = serde_json::from_str(&text).unwrap();
    d["models"]["generative.onnx"].clone()
}

fn floats(v: &serde_json::Value) -> Vec<f32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect()
}

#[test]
fn the_fixture_loads_with_its_contract() {
    let p = load("generative.onnx").unwrap();
    let abi = p.abi();
    assert_eq!(
        (abi.vocab, abi.layers, abi.heads, abi.head_dim, abi.context),
        (256, 2, 2, 16, 8192)
    );
    assert_eq!(abi.capacities.tools, 3);
    assert_eq!(abi.tokenizer.name(), "bytes");
    assert!(generative::is_generative(
        &std::fs::read(fixture("generative.onnx")).unwrap()
    ));
    assert!(!generative::is_generative(
        &std::fs::read(fixture("mlp.onnx")).unwrap()
    ));
    assert!(!generative::is_generative(b"not a model"));
}

#[test]
fn tract_matches_onnxruntime_with_and_without_the_cache() {
    let r = reference();
    let prompt = r["prompt"].as_str().unwrap();
    let want = floats(&r["last_logits"]);
    let mut p = load("generative.onnx").unwrap();
    let whole = p.run_prompt(prompt).unwrap().to_vec();
    assert!(
        max_diff(&whole, &want) <= 1e-4,
        "{}",
        max_diff(&whole, &want)
    );
    // The first part, then the whole prompt: the second run reuses the first's cache.
    p.clear_cache();
    p.reset_stats();
    let split = r["split"].as_u64().unwrap() as usize;
    p.run_prompt(&prompt[..split]).unwrap();
    let cached = p.run_prompt(prompt).unwrap().to_vec();
    assert_eq!(p.stats().reused_tokens, split as u64);
    assert_eq!(p.stats().fed_tokens, prompt.len() as u64);
    assert!(
        max_diff(&cached, &want) <= 1e-4,
        "{}",
        max_diff(&cached, &want)
    );
    // A prompt that differs inside the cached part: the cache is cut back, not trusted.
    let other = prompt.replacen("budget 60", "budget 70", 1);
    let changed = p.run_prompt(&other).unwrap().to_vec();
    p.clear_cache();
    let fresh = p.run_prompt(&other).unwrap().to_vec();
    assert!(max_diff(&changed, &fresh) <= 1e-5);
    assert!(
        max_diff(&changed, &want) > 1e-3,
        "a different prompt, different logits"
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
fn bad_files_are_refused_with_the_reason() {
    refused(
        "generative_short_context.onnx",
        "declares a context of 512 tokens",
    );
    refused(
        "generative_text_v9.onnx",
        "was made for evoharness.text_version 9",
    );
    refused(
        "generative_bad_tokenizer.onnx",
        "uses tokenizer `sentencepiece`",
    );
    refused(
        "mlp.onnx",
        "declares ABI `structured-v1`, not `generative-v1`",
    );
    refused("no_metadata.onnx", "no evoharness.abi metadata");
    refused("truncated.onnx", "is not a valid ONNX model");
    // The structured loader points a generative file at the right door.
    let e = PolicyBuilder::new()
        .backend(Backend::Tract)
        .commit_from_file(fixture("generative.onnx"))
        .unwrap_err();
    assert!(e.to_string().contains("commit_generative_from_file"), "{e}");
}

/// Runs an agent with the language model for `steps` steps; returns the templates chosen.
fn drive(
    p: GenerativePolicy,
    seed: u64,
    how: Selection,
    steps: usize,
) -> (Vec<usize>, GenerativePolicy) {
    let config = AgentConfig {
        seed,
        selection: how,
        ..AgentConfig::default()
    };
    let mut agent = Agent::new(p, FixtureWorld::new(), config).unwrap();
    let mut chosen = Vec::new();
    let mut task = 0;
    while chosen.len() < steps {
        // Legal by construction: a decision the workspace refused would be an error here.
        match agent.step().unwrap() {
            Some(r) => chosen.push(r.template.unwrap()),
            None => {
                task += 1;
                agent.start_task(seed + task);
            }
        }
    }
    (chosen, agent.into_parts().0)
}

#[test]
fn a_language_model_drives_an_agent_with_legal_actions_only() {
    let p = load("generative.onnx").unwrap();
    let (greedy, p) = drive(p, 1, Selection::Argmax, 40);
    let s = Controller::<FixtureWorld>::name(&p);
    assert_eq!(s, "generative");
    let stats = p.stats();
    assert_eq!(stats.decisions, 40);
    // The stable prefix is reused: most prompt tokens come from the cache.
    assert!(stats.reuse() > 0.5, "{stats:?}");
    // Sampling with a seed is reproducible, and differs from greedy somewhere.
    let temp = Selection::Sample { temperature: 1.0 };
    let (a, _) = drive(load("generative.onnx").unwrap(), 7, temp, 40);
    let (b, _) = drive(load("generative.onnx").unwrap(), 7, temp, 40);
    assert_eq!(a, b);
    assert_ne!(a, greedy);
    // Without the cache: the same greedy actions, every prompt token fed.
    let mut p = load("generative.onnx").unwrap();
    p.set_kv_reuse(false);
    let (no_cache, p) = drive(p, 1, Selection::Argmax, 40);
    assert_eq!(no_cache, greedy);
    assert_eq!(p.stats().reused_tokens, 0);
}

// --- a model brought from Hugging Face transformers (tokenizer.json) -------------------------

#[test]
fn a_transformers_export_tokenizes_and_computes_as_transformers_does() {
    let mut p = load("generative_hf.onnx").unwrap();
    let abi = p.abi().clone();
    assert_eq!(abi.tokenizer, generative::Tokenizer::Json);
    assert_eq!(abi.tokenizer.name(), "tokenizer.json");
    assert_eq!(
        (abi.vocab, abi.layers, abi.heads, abi.head_dim, abi.context),
        (320, 2, 2, 8, 8192)
    );
    assert_eq!(abi.capacities.tools, 3);
    for (k, case) in hf_reference().iter().enumerate() {
        let logits = p.run_prompt(&case.prompt).unwrap().to_vec();
        // The same ids as transformers' tokenizer (its beginning-of-sequence token first).
        assert_eq!(p.prompt_tokens(), &case.ids[..], "prompt {k}");
        // Fewer tokens than bytes: merged tokens, not bytes.
        assert!(
            case.ids.len() < case.prompt.len(),
            "{} tokens",
            case.ids.len()
        );
        let d = max_diff(&logits, &case.last_logits);
        assert!(d <= 1e-4, "prompt {k}: logits differ from torch's by {d}");
    }
    // The second prompt shares the first's opening lines: they came from the cache.
    assert!(p.stats().reused_tokens > 0, "{:?}", p.stats());
}

#[test]
fn a_transformers_export_drives_an_agent_with_legal_actions_only() {
    let (greedy, p) = drive(
        load("generative_hf.onnx").unwrap(),
        3,
        Selection::Argmax,
        40,
    );
    let stats = p.stats();
    // The note's reuse figure for a merged vocabulary: `-- --nocapture` prints it.
    println!("{stats:?}, reuse {:.1}%", 100.0 * stats.reuse());
    assert_eq!(stats.decisions, 40);
    assert!(stats.reuse() > 0.3, "{stats:?}");
    let temp = Selection::Sample { temperature: 1.0 };
    let (a, _) = drive(load("generative_hf.onnx").unwrap(), 9, temp, 40);
    let (b, _) = drive(load("generative_hf.onnx").unwrap(), 9, temp, 40);
    assert_eq!(a, b);
    assert_ne!(a, greedy);
}

/// The fixture's bytes with `from` replaced by `to` (same length: the protobuf stays valid).
fn edited(from: &str, to: &str) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let mut bytes = std::fs::read(fixture("generative_hf.onnx")).unwrap();
    let at = bytes
        .windows(from.len())
        .position(|w| w == from.as_bytes())
        .unwrap_or_else(|| panic!("{from} not in the fixture"));
    bytes[at..at + from.len()].copy_from_slice(to.as_bytes());
    bytes
}

#[test]
fn bad_tokenizers_are_refused_with_the_reason() {
    let load = |bytes: Vec<u8>| {
        PolicyBuilder::new()
            .backend(Backend::Tract)
            .commit_generative_from_memory(&bytes)
            .unwrap_err()
    };
    let cases = [
        // The metadata names a tokenizer.json but does not carry one.
        (
            edited("evoharness.tokenizer_json", "evoharness.tokenizer_jsoX"),
            "no evoharness.tokenizer_json",
        ),
        // Not a tokenizer the library can parse.
        (edited("\"model\":", "\"mode!\":"), "does not parse"),
        // A decoder other than ByteLevel: its tokens are not fixed byte strings.
        (
            edited(
                "\"decoder\":{\"type\":\"ByteLevel\"",
                "\"decoder\":{\"type\":\"Fuse\"     ",
            ),
            "has a `Fuse` decoder",
        ),
        // A tokenizer kind this runtime does not know.
        (
            edited("tokenizer.json", "tokenizer.jsoX"),
            "knows `bytes` and `tokenizer.json`",
        ),
    ];
    for (bytes, needle) in cases {
        let e = load(bytes);
        assert_eq!(e.kind(), ErrorKind::Policy, "{e}");
        assert!(e.to_string().contains(needle), "{e} (wanted {needle:?})");
    }
}
