//! Quickstart: a trained policy runs a long task from the suite, and says what it did.
//!
//! Loads the shipped generalist policy (`examples/policies/generalist.onnx`, trained by
//! `examples/train/run.sh`) on the embedded default backend (tract: pure Rust, nothing to
//! install) and lets it run two episodes of the migration task for one organisation: batches
//! to copy exactly once through outages, timeouts, rejected batches and a schema change
//! announced once. It prints the moments where the workspace mattered (what the policy
//! tracked, noted and applied), the outcome as the simulator judges it, and then its Belief,
//! Progress and Experience. The second episode shows a lesson from the first one at work.
//!
//! Run: `cargo run --release --example quickstart [-- POLICY.onnx [TASK [HORIZON]]]`

use evoharness_core::{Action, Arg, EventBuf, Outcome, Value};
use evoharness_runtime::{Agent, Backend, PolicyBuilder};
use evoharness_suite::episode::agent_config;
use evoharness_suite::{SuiteWorld, TaskConfig, TaskKind};

/// The organisation: it decides the error codes and their remedies.
const ORGANISATION: u64 = 42;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/policies/generalist.onnx").to_string()
    });
    let kind: TaskKind = args.next().as_deref().unwrap_or("migration").parse()?;
    let horizon: u32 = args.next().map_or(Ok(400), |h| h.parse())?;

    let policy = PolicyBuilder::new()
        .backend(Backend::Tract)
        .commit_from_file(&path)?;
    println!(
        "policy: {} ({}; made by {}), on {}",
        path.rsplit('/').next().unwrap_or(&path),
        policy.abi().abi,
        policy
            .abi()
            .producer
            .as_deref()
            .unwrap_or("an unrecorded producer"),
        policy.backend().name()
    );
    let task = TaskConfig::new(kind, horizon);
    let names = kind.tool_names();
    // The suite's budget and costs for this task, greedy choices, seed 1.
    let config = agent_config(&task, 1);
    let mut agent = Agent::new(policy, SuiteWorld::new(task, ORGANISATION), config)?;
    for episode in 1..=2 {
        if episode > 1 {
            // A new task for the same organisation: Belief and Progress are cleared,
            // Experience (the lessons) is kept.
            agent.start_task(episode);
        }
        let w = agent.world();
        println!(
            "\n== episode {episode}: {kind}, {} items, budget {} steps",
            w.items(),
            task.budget()
        );
        let mut waits = 0u32;
        while let Some(step) = agent.step()? {
            let n = agent.summary().steps;
            let event = agent.workspace().event().cloned();
            let say = |what: String| println!("  step {n:>4}: {what}");
            match (&step.action, &step.outcome) {
                (Action::Act { tool, args }, Outcome::Call(_)) => {
                    let name = names[usize::from(*tool)];
                    if *tool == 3 {
                        waits += 1;
                    } else if waits > 0 {
                        say(format!("the service is back after {waits} wait(s)"));
                        waits = 0;
                    }
                    let from_belief = matches!(args.first(), Some(Arg::Fact(_)));
                    let ev = event.as_ref();
                    if from_belief {
                        say(format!(
                            "{name} with the item it had tracked: {}",
                            brief(ev)
                        ));
                    } else if let Some(e) = ev.filter(|e| e.get("error").is_some()) {
                        let err = e.get("error").map(show).unwrap_or_default();
                        if err != "\"backoff\"" {
                            say(format!("{name} -> error {}", brief(Some(e))));
                        }
                    } else if ev.is_some_and(|e| e.get("fixed").is_some()) {
                        say(format!("{name} fixed it: {}", brief(ev)));
                    } else if ev.is_some_and(|e| e.get(kind.mode_key()).is_some()) {
                        say(format!("{name} -> the setting changed: {}", brief(ev)));
                    }
                }
                (Action::Track(_), Outcome::Tracked { slot, change }) => {
                    let f = &agent.workspace().belief().facts()[usize::from(*slot)];
                    say(format!(
                        "track: {:?} belief {} = {}",
                        change,
                        f.key.as_str(),
                        show(&f.value)
                    ));
                }
                (Action::Note(_), Outcome::Noted { slot, .. }) => {
                    let l = &agent.workspace().experience().lessons()[usize::from(*slot)];
                    say(format!(
                        "note: when {} -> {}",
                        show(&l.trigger),
                        remedy(&l.remedy, &names)
                    ));
                }
                (Action::Recall { .. }, Outcome::Recalled(r)) => {
                    say(format!("recall: {} lesson(s)", r.len()));
                }
                (Action::Commit(_), Outcome::Committed { step, status }) => {
                    say(format!("commit: plan step {step} is {status:?}"));
                }
                (Action::Finish { success }, _) => {
                    say(format!("finish, claiming success: {success}"));
                }
                _ => {}
            }
        }
        let s = agent.summary();
        let w = agent.world();
        let v = w.violations();
        println!(
            "  => {}: {} of {} items landed exactly once; {} duplicates, {} gaps, {} wrong writes",
            if w.judge(s.finished) {
                "SUCCESS"
            } else {
                "FAILURE"
            },
            w.landed_count(),
            w.items(),
            v.duplicates,
            v.gaps,
            v.wrong_writes
        );
        println!(
            "     {} steps: {} world actions, {} harness actions, {} of {} budget spent",
            s.steps,
            s.world_actions,
            s.harness_actions,
            s.spent,
            task.budget()
        );
    }

    let ws = agent.workspace();
    println!("\nwhat the workspace holds now");
    println!("  belief ({} facts):", ws.belief().len());
    // A fact is dated by the workspace clock, which counts every action over the agent's life
    // (one a step); the episode's own step number is what a person reads.
    let steps = agent.summary().steps;
    for f in ws.belief().facts() {
        let ago = u64::from(ws.clock().wrapping_sub(f.set_at));
        let when = if ago < steps {
            format!("set at step {} of this episode", steps - ago)
        } else {
            "set in an earlier episode".to_string()
        };
        println!(
            "    {:<8} = {} ({when}; lifetime clock {})",
            f.key.as_str(),
            show(&f.value),
            f.set_at
        );
    }
    println!(
        "  progress: {} plan steps (this policy keeps no plan: its task is one queue, and its \
         cursor comes back with every fetch)",
        ws.progress().len()
    );
    println!("  experience ({} lessons):", ws.experience().len());
    for l in ws.experience().lessons() {
        println!(
            "    when {} -> {} (noted {} time(s), recalled {} time(s))",
            show(&l.trigger),
            remedy(&l.remedy, &names),
            l.noted,
            l.uses
        );
    }
    println!(
        "  (the policy reads its lessons from its observation, where each one says whether the \
         current event matches its trigger, so it applies them without spending a `recall`)"
    );
    Ok(())
}

fn remedy(v: &Value, names: &[&str]) -> String {
    match v {
        Value::Int(t) => usize::try_from(*t)
            .ok()
            .and_then(|t| names.get(t))
            .map_or_else(|| t.to_string(), |n| format!("call {n}")),
        other => show(other),
    }
}

fn brief(e: Option<&EventBuf>) -> String {
    e.map(|e| {
        e.fields
            .iter()
            .map(|f| format!("{}={}", f.key.as_str(), show(&f.value)))
            .collect::<Vec<_>>()
            .join(" ")
    })
    .unwrap_or_default()
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
