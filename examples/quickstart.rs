//! Quickstart: load a policy file, run an agent with it, look at what it did.
//!
//! Loads the test fixture `runtime/tests/fixtures/mlp.onnx` on the embedded default backend
//! (tract: pure Rust, nothing to install), runs an agent against `FixtureEnv` (a toy
//! environment with the fixture's three tools, not a task) for a few dozen steps, prints each
//! step's action and outcome, then the workspace the policy managed: Belief, Progress and
//! Experience.
//!
//! **The fixture policy has random weights.** It picks only legal actions (the runtime masks
//! everything else), but what it picks is not meant to make sense. A trained policy comes with
//! the training issue; the loop and the calls here stay the same.
//!
//! Run: `cargo run --release --example quickstart [-- POLICY.onnx]`

use evoharness_core::{Action, EventKind, Outcome, Value};
use evoharness_runtime::fixture_env::{FixtureEnv, TOOL_NAMES};
use evoharness_runtime::{Agent, AgentConfig, Backend, PolicyBuilder, Selection};

/// At most this many steps (the seed below happens to finish sooner).
const STEPS: u64 = 60;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../runtime/tests/fixtures/mlp.onnx"
        )
        .to_string()
    });

    // Load and check the file: its evoharness.* metadata must match the core's layout, and
    // its inputs and outputs the sizes that layout gives.
    let policy = PolicyBuilder::new()
        .backend(Backend::Tract)
        .commit_from_file(&path)?;
    let abi = policy.abi();
    let caps = abi.capacities;
    println!(
        "policy: {} ({}, {} facts, {} steps, {} lessons, tools {}) on {}",
        abi.abi,
        if abi.state_len.is_some() {
            "recurrent"
        } else {
            "feed-forward"
        },
        caps.facts,
        caps.steps,
        caps.lessons,
        abi.tool_names.join(", "),
        policy.backend().name()
    );
    println!(
        "note: this fixture policy has random weights, so its choices are legal but not \
         sensible; a trained policy comes with the training issue.\n"
    );

    // The agent sizes its workspace from the policy's contract. Seeded sampling rather than
    // argmax shows more of the action space; with random weights most seeds finish within a
    // few steps, and seed 11 happens to give about forty that use every verb.
    let config = AgentConfig {
        budget: 200,
        selection: Selection::Sample { temperature: 1.0 },
        seed: 11,
        ..AgentConfig::default()
    };
    let mut agent = Agent::new(policy, FixtureEnv::new(), config)?;

    println!("step  cost  action -> outcome");
    for _ in 0..STEPS {
        let Some(step) = agent.step()? else { break };
        let s = agent.summary().steps;
        let outcome = match &step.outcome {
            Outcome::Call(_) => {
                // The environment's answer is now the workspace's current event.
                let ev = agent.workspace().event().expect("a call leaves an event");
                let fields: Vec<String> = ev
                    .fields
                    .iter()
                    .map(|f| format!("{}={}", f.key.as_str(), show(&f.value)))
                    .collect();
                let kind = match ev.kind {
                    EventKind::Error => "error",
                    EventKind::Result => "result",
                    EventKind::Notice => "notice",
                };
                format!("{kind} {}", fields.join(" "))
            }
            other => brief_outcome(other),
        };
        println!(
            "{s:>4}  {:>4}  {} -> {outcome}",
            step.cost,
            brief_action(&step.action)
        );
    }

    let summary = agent.summary();
    println!(
        "\n{} steps: {} world actions, {} harness actions, {} of {} budget spent; {}",
        summary.steps,
        summary.world_actions,
        summary.harness_actions,
        summary.spent,
        config.budget,
        match summary.finished {
            Some(true) => "finished, claiming success",
            Some(false) => "finished, giving up",
            None => "still going (stopped after the example's step limit)",
        }
    );

    let ws = agent.workspace();
    println!("\nbelief ({} of {} facts):", ws.belief().len(), caps.facts);
    for f in ws.belief().facts() {
        println!(
            "  {:<8} = {:<6} confidence {:.2}, from {:?}, set at step {}",
            f.key.as_str(),
            show(&f.value),
            f.confidence,
            f.provenance,
            f.set_at
        );
    }
    println!(
        "progress ({} of {} steps):",
        ws.progress().len(),
        caps.steps
    );
    for (i, s) in ws.progress().steps().iter().enumerate() {
        println!(
            "  {i}: {:<10} {:?}, {} attempt(s), cursor {}",
            show(&s.label),
            s.status,
            s.attempts,
            s.cursor.as_ref().map_or("-".to_string(), show)
        );
    }
    println!(
        "experience ({} of {} lessons):",
        ws.experience().len(),
        caps.lessons
    );
    for l in ws.experience().lessons() {
        // A remedy that is a tool index (as `note ... remedy: LastAct` stores) is named.
        let remedy = match l.remedy {
            Value::Int(t) => usize::try_from(t)
                .ok()
                .and_then(|t| TOOL_NAMES.get(t))
                .map_or_else(|| t.to_string(), |name| format!("call {name}")),
            ref other => show(other),
        };
        println!(
            "  when {} -> {remedy} (helpful {}, harmful {}, used {})",
            show(&l.trigger),
            l.helpful,
            l.harmful,
            l.uses
        );
    }
    Ok(())
}

fn show(v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(x) => format!("{x}"),
        Value::Text(t) => format!("{:?}", t.as_str()),
        Value::Bytes(b) => format!("<{} bytes>", b.len()),
    }
}

fn brief_action(a: &Action<'_>) -> String {
    match a {
        Action::Act { tool, args } => {
            let name = TOOL_NAMES.get(usize::from(*tool)).copied().unwrap_or("?");
            format!("call {name}{:?}", args.as_slice())
        }
        Action::Track(t) => format!("track {t:?}"),
        Action::Commit(c) => format!("commit {c:?}"),
        Action::Recall { query, k } => format!("recall {query:?} (best {k})"),
        Action::Note(n) => format!("note {n:?}"),
        Action::Finish { success } => format!("finish (success: {success})"),
    }
}

fn brief_outcome(o: &Outcome) -> String {
    match o {
        Outcome::Call(c) => format!("call tool {}", c.tool),
        Outcome::Tracked { slot, change } => format!("fact {slot} {change:?}"),
        Outcome::Compressed { removed, over } => {
            format!("compressed: {} removed, {over} over", removed.len())
        }
        Outcome::Committed { step, status } => format!("step {step} is {status:?}"),
        Outcome::Recalled(r) => format!("{} lesson(s) recalled", r.len()),
        Outcome::Noted { slot, merged } => {
            format!("lesson {slot} {}", if *merged { "merged" } else { "added" })
        }
        Outcome::Rated { slot } => format!("lesson {slot} rated"),
        Outcome::Consolidated { removed, over } => {
            format!("consolidated: {} removed, {over} over", removed.len())
        }
        Outcome::Finished { success } => format!("finished (success: {success})"),
    }
}
