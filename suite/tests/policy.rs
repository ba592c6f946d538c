//! `evoharness eval` with a policy runs the loop a host embeds: an evaluation of the shipped
//! policy takes the same actions, in the same number of steps, as an [`Agent`] driven by hand
//! with that policy on the same seeds, and scores them the same.

use std::path::PathBuf;

use evoharness_runtime::{Agent, Backend, PolicyBuilder, TraceSink};
use evoharness_suite::episode::{self, agent_config};
use evoharness_suite::eval::{self, AgentSpec, EvalSpec};
use evoharness_suite::{SuiteWorld, TaskConfig, TaskKind};

fn shipped() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/policies/generalist.onnx")
}

/// Trace lines without their wall time, which differs between runs.
fn steps(jsonl: &str) -> Vec<serde_json::Value> {
    jsonl
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("latency_ns");
            v
        })
        .collect()
}

#[test]
fn eval_runs_a_policy_through_the_agent() {
    let builder = PolicyBuilder::new().backend(Backend::Tract);
    let task = TaskConfig::new(TaskKind::Orchestration, 120);
    let dir = std::env::temp_dir().join(format!("evoharness-policy-path-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let traced = dir.join("eval.jsonl");
    let spec = EvalSpec {
        organisations: 7..8,
        threads: 1,
        trace: Some(traced.clone()),
        ..EvalSpec::new(task, 40..43)
    };
    let agent = AgentSpec::Policy(shipped(), builder.clone());
    let (report, episodes) = eval::run(&spec, &agent, &|_, _| {}).unwrap();
    assert_eq!(report.episodes, 3);

    // The same three episodes by hand: one agent for the organisation, seeds in order.
    let by_hand = dir.join("by-hand.jsonl");
    let policy = builder.commit_from_file(shipped()).unwrap();
    let mut a = Agent::new(policy, SuiteWorld::new(task, 7), agent_config(&task, 40)).unwrap();
    let file = std::fs::File::create(&by_hand).unwrap();
    a.set_trace(TraceSink::Json(Box::new(std::io::BufWriter::new(file))))
        .unwrap();
    let mine: Vec<_> = (40..43)
        .map(|seed| episode::run(&mut a, seed, u64::MAX, None).unwrap())
        .collect();
    a.set_trace(TraceSink::Off).unwrap();

    let (e, h) = (
        std::fs::read_to_string(&traced).unwrap(),
        std::fs::read_to_string(&by_hand).unwrap(),
    );
    let (e, h) = (steps(&e), steps(&h));
    assert!(!e.is_empty());
    assert_eq!(e, h, "the same actions, outcomes and costs, step by step");
    let total: u64 = mine.iter().map(|s| s.steps).sum();
    assert_eq!(e.len() as u64, total, "one trace line per step");
    assert_eq!(episodes, mine, "the same stats, rewards included");
    assert!(
        mine.iter().any(|s| s.success),
        "the shipped policy does the task"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The int8 policy (`examples/policies/quantize.py`) loads on tract as the f32 one does and
/// does the task as well on the same episodes.
#[test]
fn the_int8_policy_runs_on_tract_and_does_what_the_f32_one_does() {
    let builder = PolicyBuilder::new().backend(Backend::Tract);
    let int8 = shipped().with_file_name("generalist-int8.onnx");
    let task = TaskConfig::new(TaskKind::Migration, 120);
    let spec = EvalSpec {
        organisations: 20000..20002,
        threads: 1,
        ..EvalSpec::new(task, 3_000_000..3_000_004)
    };
    let run = |path: PathBuf| {
        eval::run(&spec, &AgentSpec::Policy(path, builder.clone()), &|_, _| {})
            .unwrap()
            .1
    };
    let (f32s, int8s) = (run(shipped()), run(int8));
    assert_eq!(f32s.len(), 4);
    for (a, b) in f32s.iter().zip(&int8s) {
        assert!(!a.success || b.success, "{a:?} {b:?}");
        assert!((a.reward - b.reward).abs() < 0.05, "{a:?} {b:?}");
    }
}

/// A language-model policy (`generative-v1`) is evaluated through the same path, picked by the
/// file: the random fixture decoder for the suite's capacities takes only legal actions (an
/// illegal one would be an error) and the same ones as an agent driven by hand with it.
#[test]
fn eval_runs_a_language_model_picked_by_the_file() {
    let builder = PolicyBuilder::new().backend(Backend::Tract);
    let lm = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../runtime/tests/fixtures/generative_suite.onnx");
    let task = TaskConfig::new(TaskKind::Records, 30);
    // A random model wanders until the budget ends its episode: 25 steps each are enough.
    let spec = EvalSpec {
        organisations: 3..4,
        threads: 1,
        max_steps: 25,
        ..EvalSpec::new(task, 5..7)
    };
    let (report, episodes) = eval::run(
        &spec,
        &AgentSpec::Policy(lm.clone(), builder.clone()),
        &|_, _| {},
    )
    .unwrap();
    assert_eq!(report.episodes, 2);
    let policy = builder.commit_generative_from_file(&lm).unwrap();
    let mut a = Agent::new(policy, SuiteWorld::new(task, 3), agent_config(&task, 5)).unwrap();
    let mine: Vec<_> = (5..7)
        .map(|seed| episode::run(&mut a, seed, 25, None).unwrap())
        .collect();
    assert_eq!(episodes, mine);
    assert!(mine.iter().all(|s| s.steps == 25), "{mine:?}");
    assert!(a.controller().stats().decisions > 0);
}
