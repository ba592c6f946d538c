//! The agent loop on the embedded default backend: legal actions only, deterministic for a
//! seed, recurrent state carried, budgets respected.

mod common;

use common::fixture;
use evoharness_core::Outcome;
use evoharness_runtime::{
    Agent, AgentConfig, Backend, ErrorKind, FixtureWorld, PolicyBuilder, Selection,
};

fn agent(model: &str, config: AgentConfig) -> Agent<FixtureWorld> {
    let p = PolicyBuilder::new()
        .backend(Backend::Tract)
        .commit_from_file(fixture(model))
        .unwrap();
    Agent::new(p, FixtureWorld::new(), config).unwrap()
}

fn snapshot(a: &Agent<FixtureWorld>) -> Vec<u8> {
    let ws = a.workspace();
    let mut buf = vec![0; evoharness_core::snapshot::max_len(ws.capacities())];
    let n = ws.snapshot(&mut buf).unwrap().len();
    buf.truncate(n);
    buf
}

fn trace(a: &mut Agent<FixtureWorld>, steps: usize) -> Vec<usize> {
    (0..steps)
        .map_while(|_| a.step().unwrap())
        .map(|r| r.template.expect("a policy always picks a template"))
        .collect()
}

#[test]
fn every_step_is_legal_and_tool_calls_reach_the_world() {
    let sample = Selection::Sample { temperature: 1.0 };
    let mut a = agent(
        "mlp.onnx",
        AgentConfig {
            selection: sample,
            seed: 3,
            budget: 400,
            ..Default::default()
        },
    );
    let mut calls = 0;
    while let Some(r) = a.step().unwrap() {
        if matches!(r.outcome, Outcome::Call(_)) {
            calls += 1;
        }
    }
    let s = a.summary();
    assert_eq!(a.world().calls(), calls);
    assert_eq!(s.world_actions, calls);
    assert!(s.steps > 0);
    assert!(s.spent <= 400);
}

#[test]
fn the_same_seed_gives_the_same_run() {
    for (model, selection) in [
        ("mlp.onnx", Selection::Argmax),
        ("mlp.onnx", Selection::Sample { temperature: 0.7 }),
        ("recurrent.onnx", Selection::Sample { temperature: 1.0 }),
    ] {
        let config = AgentConfig {
            selection,
            seed: 11,
            budget: 150,
            ..Default::default()
        };
        let (mut a, mut b) = (agent(model, config), agent(model, config));
        assert_eq!(
            trace(&mut a, 200),
            trace(&mut b, 200),
            "{model} {selection:?}"
        );
        assert_eq!(snapshot(&a), snapshot(&b));
        let mut c = agent(model, AgentConfig { seed: 12, ..config });
        if matches!(selection, Selection::Sample { .. }) {
            assert_ne!(
                trace(&mut c, 200),
                trace(&mut agent(model, config), 200),
                "seed must matter"
            );
        }
    }
}

#[test]
fn a_recurrent_policy_carries_its_state() {
    let mut a = agent("recurrent.onnx", AgentConfig::default());
    assert!(a.policy().state().iter().all(|&x| x == 0.0));
    a.step().unwrap();
    assert!(a.policy().state().iter().any(|&x| x != 0.0));
    a.start_task(5);
    assert!(
        a.policy().state().iter().all(|&x| x == 0.0),
        "a new task starts from zero state"
    );
}

#[test]
fn the_budget_ends_the_task() {
    let mut a = agent(
        "mlp.onnx",
        AgentConfig {
            budget: 5,
            ..Default::default()
        },
    );
    let s = a.run(1_000).unwrap();
    assert!(s.spent <= 5);
    assert!(s.steps <= 6, "{s:?}");
}

#[test]
fn mismatched_world_and_bad_temperature_are_refused() {
    struct Two;
    impl evoharness_runtime::World for Two {
        fn tools(&self) -> u16 {
            2
        }
        fn reset(&mut self, _: u64) -> evoharness_core::EventBuf {
            unreachable!()
        }
        fn call(&mut self, _: &evoharness_core::ToolCall) -> evoharness_core::EventBuf {
            unreachable!()
        }
    }
    let p = || {
        PolicyBuilder::new()
            .backend(Backend::Tract)
            .commit_from_file(fixture("mlp.onnx"))
            .unwrap()
    };
    let e = Agent::new(p(), Two, AgentConfig::default()).err().unwrap();
    assert_eq!(e.kind(), ErrorKind::Config);
    assert!(e.to_string().contains("2 tools"), "{e}");
    let bad = AgentConfig {
        selection: Selection::Sample { temperature: 0.0 },
        ..Default::default()
    };
    assert_eq!(
        Agent::new(p(), FixtureWorld::new(), bad)
            .err()
            .unwrap()
            .kind(),
        ErrorKind::Config
    );
}

/// A trace sink the test reads back: every byte written, shared with the test.
#[derive(Clone, Default)]
struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn traces_are_one_json_line_per_step_and_off_by_default() {
    use std::sync::{Arc, Mutex};
    let mut a = agent(
        "mlp.onnx",
        AgentConfig {
            budget: 30,
            ..Default::default()
        },
    );
    a.step().unwrap();
    let out = Shared::default();
    a.set_trace(evoharness_runtime::TraceSink::Json(Box::new(out.clone())))
        .unwrap();
    let s = a.run(10).unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines.len() as u64,
        s.steps - 1,
        "the untraced first step is not in the trace"
    );
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["step"], i as u64 + 2);
        for key in ["template", "action", "outcome", "cost", "latency_ns"] {
            assert!(l.get(key).is_some(), "{key} missing in {l}");
        }
    }
    // A callback sees the same records.
    let seen = Arc::new(Mutex::new(0u64));
    let s2 = seen.clone();
    let mut b = agent(
        "mlp.onnx",
        AgentConfig {
            budget: 30,
            ..Default::default()
        },
    );
    b.set_trace(evoharness_runtime::TraceSink::Callback(Box::new(
        move |r| {
            assert!(r.latency_ns > 0);
            *s2.lock().unwrap() += 1;
        },
    )))
    .unwrap();
    let s = b.run(10).unwrap();
    assert_eq!(*seen.lock().unwrap(), s.steps);
}

#[test]
fn a_trace_holds_the_workspace_at_every_step_and_where_tasks_begin_and_end() {
    let parts = |a: &Agent<FixtureWorld>| -> [serde_json::Value; 4] {
        let ws = a.workspace();
        [
            serde_json::to_value(ws.event()).unwrap(),
            serde_json::to_value(ws.belief().facts()).unwrap(),
            serde_json::to_value(ws.progress().steps()).unwrap(),
            serde_json::to_value(ws.experience().lessons()).unwrap(),
        ]
    };
    let names = ["event", "belief", "progress", "experience"];
    let mut a = agent(
        "mlp.onnx",
        AgentConfig {
            budget: 25,
            ..Default::default()
        },
    );
    // Tracing starts mid-task: the first line's `begin` is the workspace before its step.
    a.step().unwrap();
    let before = parts(&a);
    let out = Shared::default();
    a.set_trace(evoharness_runtime::TraceSink::Json(Box::new(out.clone())))
        .unwrap();
    let mut expected = Vec::new();
    let run_task = |a: &mut Agent<FixtureWorld>, expected: &mut Vec<[serde_json::Value; 4]>| {
        while a.step().unwrap().is_some() {
            expected.push(parts(a));
        }
    };
    run_task(&mut a, &mut expected);
    a.start_task(77);
    let second_start = parts(&a);
    run_task(&mut a, &mut expected);
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), expected.len());

    // Rebuilt from the lines alone, as a reader does: each part is the last one carried.
    let mut ws: [serde_json::Value; 4] = Default::default();
    let mut begins = 0;
    for (i, (l, want)) in lines.iter().zip(&expected).enumerate() {
        if let Some(b) = l.get("begin") {
            begins += 1;
            assert_eq!(b["trace"], evoharness_runtime::trace::TRACE_VERSION);
            let start = if begins == 1 {
                assert_eq!(
                    (b["steps"].as_u64(), b["seed"].as_u64()),
                    (Some(1), Some(0))
                );
                &before
            } else {
                assert_eq!(
                    (b["steps"].as_u64(), b["seed"].as_u64()),
                    (Some(0), Some(77))
                );
                assert_eq!(l["step"], 1, "a new task counts its steps from 1");
                &second_start
            };
            for (k, name) in names.iter().enumerate() {
                assert_eq!(&b[name], &start[k], "begin.{name} on line {}", i + 1);
                ws[k] = b[name].clone();
            }
        }
        for (k, name) in names.iter().enumerate() {
            if let Some(v) = l.get(name) {
                ws[k] = v.clone();
            }
        }
        assert_eq!(&ws, want, "the workspace after line {}", i + 1);
        let last_of_task = lines.get(i + 1).is_none_or(|n| n.get("begin").is_some());
        assert_eq!(
            l.get("end").is_some(),
            last_of_task,
            "`end` on line {}",
            i + 1
        );
    }
    assert_eq!(begins, 2);
    // The clock counts every step of the agent's life; `step` restarts with each task.
    let clocks: Vec<u64> = lines.iter().map(|l| l["clock"].as_u64().unwrap()).collect();
    assert!(clocks.windows(2).all(|w| w[1] == w[0] + 1), "{clocks:?}");
}

/// A structured-v2 policy: the agent encodes the observation its file declares (structured-v1's
/// floats and the `harness` segment), and steps it like any other.
#[test]
fn a_structured_v2_policy_drives_the_agent_with_its_own_observation() {
    use evoharness_core::obs::{Layout, Version};
    let config = AgentConfig {
        selection: Selection::Sample { temperature: 1.0 },
        seed: 5,
        budget: 300,
        ..Default::default()
    };
    let mut a = agent("mlp_v2.onnx", config);
    let caps = a.workspace().capacities();
    assert_eq!(*a.layout(), Layout::with_version(caps, Version::V2));
    assert_eq!(a.policy().abi().version(), Version::V2);
    assert_eq!(
        a.layout().obs_len(),
        Layout::new(caps).obs_len() + 15,
        "structured-v1's floats and the harness row"
    );
    let (mut harness_after_harness, mut steps) = (0, 0);
    for task in 0..20 {
        a.start_task(100 + task);
        let mut last_was_harness = false;
        while let Some(r) = a.step().unwrap() {
            steps += 1;
            if matches!(r.outcome, Outcome::Finished { .. }) {
                continue; // no harness action; the streak stays
            }
            let harness = !matches!(r.outcome, Outcome::Call(_));
            if harness && last_was_harness {
                harness_after_harness += 1;
            }
            last_was_harness = harness;
            // What the streak feature shows is what the workspace counted.
            assert_eq!(
                a.workspace().harness_streak() > 0,
                harness,
                "{:?}",
                r.outcome
            );
        }
    }
    assert!(steps > 100, "{steps} steps");
    assert!(
        harness_after_harness > 0,
        "the runs never took two harness actions in a row"
    );
    // The same seed, the same run; a v1 policy of the same weights' shape is another file.
    let (mut b, mut c) = (agent("mlp_v2.onnx", config), agent("mlp_v2.onnx", config));
    assert_eq!(trace(&mut b, 100), trace(&mut c, 100));
}
