//! `evoharness inspect`: print a policy file's contract, and check that it loads and runs.

use evoharness_core::obs::Layout;
use evoharness_core::{Config, EventBuf, EventKind, HeapWorkspace};
use evoharness_runtime::{Error, ErrorKind, Policy};

use crate::args::{self, Flag};
use crate::failure::Failure;
use crate::options;

const HELP: &str = concat!(
    "\
evoharness inspect: print a policy file's contract and check it

Usage: evoharness inspect POLICY.onnx [OPTIONS]

Reads the file's evoharness.* metadata (runtime/POLICY.md says what an exported policy carries),
checks it against this runtime's structured layout of its version (v1 or v2), loads the model
on the chosen backend, checks its inputs and outputs, and runs it once on a fresh workspace.
Prints the contract: ABI and layout version, capacities, observation and action sizes,
recurrent state, value head, tool names, producer, backend. A generative-v1 file (a language
model) gets its text and grammar versions, model sizes, tokenizer and context, and the line it
decodes on a fresh workspace. A file that breaks the contract gets one line on stderr that says
what is wrong, and exit status 2.

Options:
",
    "  --json               print the contract as one JSON object instead
  -v, --verbose        also print the runtime's information messages (which backend, and why)
"
);

/// `evoharness inspect --help`.
pub(crate) fn help() -> String {
    format!("{HELP}{}{}", options::BACKEND_HELP, options::HELP_HELP)
}

const FLAGS: &[Flag] = &[
    options::BACKEND_FLAGS[0],
    options::BACKEND_FLAGS[1],
    Flag::switch("--json"),
    Flag::switch("--verbose"),
    Flag::switch("-v"),
];

pub(crate) fn main(argv: impl IntoIterator<Item = String>) -> Result<(), Failure> {
    let p = args::parse("inspect", FLAGS, argv)?;
    if p.help {
        print!("{}", help());
        return Ok(());
    }
    let [file] = p.positionals([("POLICY", "the .onnx policy file to inspect")])?;
    crate::init_log(p.switch("--verbose") || p.switch("-v"));
    let choice = options::choice(&p, "inspect")?;
    let head = std::fs::read(file).unwrap_or_default();
    if evoharness_runtime::generative::is_generative(&head) {
        return generative(&choice, file, head.len() as u64, p.switch("--json"));
    }
    let mut policy = options::load(&choice, file)?.policy;
    let check = smoke(&mut policy).map_err(|e| Failure::about(file, &e))?;
    let size = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    if p.switch("--json") {
        println!("{}", json(file, size, &policy, &check));
    } else {
        print!("{}", text(file, size, &policy, &check));
    }
    Ok(())
}

/// `inspect` of a `generative-v1` file: its contract, and one decision on a fresh workspace
/// (the decoded line, legal by construction).
fn generative(
    choice: &options::Choice,
    file: &str,
    size: u64,
    as_json: bool,
) -> Result<(), Failure> {
    let mut policy = choice
        .builder()
        .commit_generative_from_file(file)
        .map_err(|e| Failure::about(file, &e))?;
    let abi = policy.abi().clone();
    let c = abi.capacities;
    let layout = policy.layout();
    let decided = (|| -> Result<usize, Error> {
        let mut ws =
            HeapWorkspace::with_capacities(c.facts, c.steps, c.lessons, Config::new(c.tools, 100))
                .map_err(|e| Error::new(ErrorKind::Workspace, format!("a fresh workspace: {e}")))?;
        ws.observe_owned(EventBuf::new(EventKind::Notice, 0));
        let mut mask = vec![0; layout.actions()];
        layout
            .mask(&ws, &mut mask)
            .map_err(|e| Error::new(ErrorKind::Workspace, format!("a fresh workspace: {e}")))?;
        let mut rng = evoharness_runtime::rng::SplitMix64(0);
        policy.decide_text(&ws, &mask, evoharness_runtime::Selection::Argmax, &mut rng)
    })()
    .map_err(|e| Failure::about(file, &e))?;
    let line = String::from_utf8_lossy(policy.output())
        .trim_end()
        .to_string();
    let prompt_tokens = policy.stats().prompt_tokens;
    if as_json {
        let active = Some(policy.backend());
        println!(
            "{}",
            serde_json::json!({
                "file": file,
                "bytes": size,
                "valid": true,
                "abi": evoharness_core::text::ABI,
                "text_version": evoharness_core::text::TEXT_VERSION,
                "grammar_version": evoharness_core::text::GRAMMAR_VERSION,
                "capacities": {
                    "facts": c.facts, "steps": c.steps, "lessons": c.lessons, "tools": c.tools,
                },
                "actions": layout.actions(),
                "context": abi.context,
                "tokenizer": abi.tokenizer.name(),
                "vocab": abi.vocab,
                "layers": abi.layers,
                "heads": abi.heads,
                "head_dim": abi.head_dim,
                "producer": abi.producer,
                "backend": active.map(|a| a.name()),
                "check": { "template": decided, "line": line, "prompt_tokens": prompt_tokens },
            })
        );
        return Ok(());
    }
    let mut out = format!(
        "{file}: a valid {} policy ({size} bytes)\n",
        evoharness_core::text::ABI
    );
    let mut row = |k: &str, v: String| out.push_str(&format!("  {k:<14}{v}\n"));
    row(
        "abi",
        format!(
            "{}, workspace-text-v{}, action-text-v{}",
            evoharness_core::text::ABI,
            evoharness_core::text::TEXT_VERSION,
            evoharness_core::text::GRAMMAR_VERSION
        ),
    );
    row("capacities", capacities(c));
    row("actions", format!("{} templates", layout.actions()));
    row(
        "model",
        format!(
            "{} layers, {} heads of {}, {} tokens ({}), context {}",
            abi.layers,
            abi.heads,
            abi.head_dim,
            abi.vocab,
            abi.tokenizer.name(),
            abi.context
        ),
    );
    row("producer", producer(abi.producer.as_deref()));
    row("backend", options::backend_phrase(Some(policy.backend())));
    row(
        "check",
        format!(
            "decided once on a fresh workspace ({prompt_tokens} prompt tokens): `{line}` \
             (template {decided})"
        ),
    );
    print!("{out}");
    Ok(())
}

/// The capacities row of either kind of contract.
fn capacities(c: evoharness_core::Capacities) -> String {
    format!(
        "{} facts, {} steps, {} lessons, {} tools",
        c.facts, c.steps, c.lessons, c.tools
    )
}

/// The producer row of either kind of contract.
fn producer(p: Option<&str>) -> String {
    p.unwrap_or("(not given)").to_string()
}

/// What one run on a fresh workspace gave.
struct Check {
    legal: usize,
    best: usize,
    value: Option<f32>,
}

/// Runs the policy once on the observation of a fresh workspace (budget 100, one notice event)
/// with its legal-action mask: the backend must accept the inputs and give finite logits for
/// every legal template.
fn smoke(policy: &mut Policy) -> Result<Check, Error> {
    let caps = policy.abi().capacities;
    let workspace = |e: &dyn std::fmt::Display| {
        Error::new(ErrorKind::Workspace, format!("a fresh workspace: {e}"))
    };
    let mut ws = HeapWorkspace::with_capacities(
        caps.facts,
        caps.steps,
        caps.lessons,
        Config::new(caps.tools, 100),
    )
    .map_err(|e| workspace(&e))?;
    ws.observe_owned(EventBuf::new(EventKind::Notice, 0));
    let layout: Layout = policy.layout();
    let mut obs = vec![0.0; layout.obs_len()];
    let mut mask = vec![0; layout.actions()];
    layout.encode(&ws, &mut obs).map_err(|e| workspace(&e))?;
    let legal = layout.mask(&ws, &mut mask).map_err(|e| workspace(&e))?;
    let logits = policy.run(&obs, &mask)?;
    let mut best = None::<(usize, f32)>;
    for (i, (&l, &m)) in logits.iter().zip(&mask).enumerate() {
        if m == 0 {
            continue;
        }
        if !l.is_finite() {
            return Err(Error::new(
                ErrorKind::Policy,
                format!(
                    "gives logit {l} for the legal template {i} ({:?}) on a fresh workspace; \
                     a policy must give finite logits for legal templates",
                    layout.template(i)
                ),
            ));
        }
        if best.is_none_or(|(_, b)| l > b) {
            best = Some((i, l));
        }
    }
    Ok(Check {
        legal,
        best: best.map_or(0, |(i, _)| i),
        value: policy.value(),
    })
}

fn text(file: &str, size: u64, policy: &Policy, check: &Check) -> String {
    let abi = policy.abi();
    let c = abi.capacities;
    let layout = policy.layout();
    let mut out = format!("{file}: a valid {} policy ({size} bytes)\n", abi.abi);
    let mut row = |k: &str, v: String| out.push_str(&format!("  {k:<14}{v}\n"));
    row(
        "abi",
        format!("{}, layout version {}", abi.abi, abi.layout_version),
    );
    row("capacities", capacities(c));
    row("obs_len", format!("{} floats", abi.obs_len));
    row("actions", format!("{} templates", abi.actions));
    row(
        "state_len",
        abi.state_len
            .map_or("none (feed-forward)".to_string(), |h| {
                format!("{h} floats (recurrent)")
            }),
    );
    row(
        "value head",
        if abi.has_value { "yes" } else { "no" }.to_string(),
    );
    row(
        "tools",
        if abi.tool_names.is_empty() {
            "(not named in the file)".to_string()
        } else {
            abi.tool_names.join(", ")
        },
    );
    row("producer", producer(abi.producer.as_deref()));
    row("backend", options::backend_phrase(Some(policy.backend())));
    let value = check
        .value
        .map_or(String::new(), |v| format!(", value {v:.3}"));
    row(
        "check",
        format!(
            "ran once on a fresh workspace: {} of {} templates legal, logits finite, best {} \
             ({}){value}",
            check.legal,
            layout.actions(),
            check.best,
            layout
                .template(check.best)
                .map_or("?".to_string(), |t| format!("{t:?}")),
        ),
    );
    out
}

fn json(file: &str, size: u64, policy: &Policy, check: &Check) -> serde_json::Value {
    let abi = policy.abi();
    let c = abi.capacities;
    let active = Some(policy.backend());
    serde_json::json!({
        "file": file,
        "bytes": size,
        "valid": true,
        "abi": abi.abi,
        "layout_version": abi.layout_version,
        "capacities": {
            "facts": c.facts, "steps": c.steps, "lessons": c.lessons, "tools": c.tools,
        },
        "obs_len": abi.obs_len,
        "actions": abi.actions,
        "state_len": abi.state_len,
        "value": abi.has_value,
        "tool_names": abi.tool_names,
        "producer": abi.producer,
        "backend": active.map(|a| a.name()),
        "backend_version": match active {
            Some(evoharness_runtime::Active::OnnxRuntime { version, .. }) => Some(version.as_str()),
            _ => None,
        },
        "check": { "legal": check.legal, "best": check.best, "value": check.value },
    })
}
