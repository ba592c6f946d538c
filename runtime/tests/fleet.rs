//! A fleet's agents do exactly what they would do alone: the same actions and the same
//! checkpoint bytes after every step, with one batched policy run per fleet step — for a
//! feed-forward and a recurrent policy with a dynamic batch dimension, and for a batch-1 file
//! (one run per agent). A batch's rows are bit for bit what `Policy::run` gives for each alone.
//!
//! The tract tests run by default; the ONNX Runtime ones are ignored (they need the library)
//! and run in a child process, since ort's backend is process-global:
//!
//! ```sh
//! cargo test -p evoharness-runtime --test fleet -- --ignored
//! ```

mod common;

use common::{fixture, reference};
use evoharness_runtime::{
    Agent, AgentConfig, Backend, Batch, ErrorKind, FixtureWorld, Fleet, Policy, PolicyBuilder,
    Selection, StepReport,
};

fn load(backend: &Backend, model: &str) -> Policy {
    PolicyBuilder::new()
        .backend(backend.clone())
        .commit_from_file(fixture(model))
        .unwrap()
}

/// Agent `i`'s set-up: some sample (each with its own seed), some take the argmax; budgets
/// differ so that tasks end at different fleet steps.
fn config(i: u64) -> AgentConfig {
    AgentConfig {
        budget: 40 + 13 * i as u32,
        selection: if i % 3 == 2 {
            Selection::Argmax
        } else {
            Selection::Sample { temperature: 1.0 }
        },
        seed: 100 + i,
        ..Default::default()
    }
}

const AGENTS: u64 = 7;
/// Further tasks for each agent after its first ends, as a service runs them (the fixture
/// policies' random weights often finish a task early).
const TASKS: u64 = 6;

/// What one agent did: each step's report and the checkpoint bytes after it.
type Record = Vec<(StepReport, Vec<u8>)>;

fn checkpoint<C: evoharness_runtime::Controller<FixtureWorld>>(
    a: &Agent<FixtureWorld, C>,
) -> Vec<u8> {
    let mut out = Vec::new();
    a.checkpoint_bytes(&mut out).unwrap();
    out
}

fn alone(backend: &Backend, model: &str) -> Vec<Record> {
    (0..AGENTS)
        .map(|i| {
            let mut a = Agent::new(load(backend, model), FixtureWorld::new(), config(i)).unwrap();
            let mut record = Vec::new();
            for task in 0..TASKS {
                if task > 0 {
                    a.start_task(1_000 + i * 10 + task);
                }
                while let Some(r) = a.step().unwrap() {
                    record.push((r, checkpoint(&a)));
                }
            }
            record
        })
        .collect()
}

fn in_fleet(backend: &Backend, model: &str) -> Vec<Record> {
    let mut fleet = Fleet::new(load(backend, model));
    for i in 0..AGENTS {
        assert_eq!(
            fleet.spawn(FixtureWorld::new(), config(i)).unwrap(),
            i as usize
        );
    }
    let mut records = vec![Vec::new(); AGENTS as usize];
    let mut tasks = vec![1; AGENTS as usize];
    let mut steps = 0;
    loop {
        let mut stepped = fleet.step().unwrap();
        steps += 1;
        for (i, record) in records.iter_mut().enumerate() {
            match fleet.report(i) {
                Some(r) => {
                    let r = r.as_ref().unwrap().clone();
                    record.push((r, checkpoint(fleet.agent(i))));
                }
                // Its task has ended: the next, as the agent alone does.
                None if tasks[i] < TASKS => {
                    fleet
                        .agent_mut(i)
                        .start_task(1_000 + i as u64 * 10 + tasks[i]);
                    tasks[i] += 1;
                    stepped += 1;
                }
                None => {}
            }
        }
        if stepped == 0 {
            break;
        }
        assert!(steps < 10_000, "the fleet never ends");
    }
    records
}

fn fleet_matches_agents_alone(backend: &Backend) {
    for model in ["mlp_batch.onnx", "recurrent_batch.onnx", "mlp.onnx"] {
        let batched = load(backend, model).batched();
        assert_eq!(batched, model.contains("batch"), "{model}");
        let want = alone(backend, model);
        let got = in_fleet(backend, model);
        let total: usize = want.iter().map(Vec::len).sum();
        assert!(total > 200, "{model}: only {total} agent-steps");
        for (i, (w, g)) in want.iter().zip(&got).enumerate() {
            assert_eq!(w.len(), g.len(), "{model}: agent {i}'s step count");
            for (k, (a, b)) in w.iter().zip(g).enumerate() {
                assert_eq!(a.0, b.0, "{model}: agent {i}, step {k}: the action");
                assert!(
                    a.1 == b.1,
                    "{model}: agent {i}, step {k}: the checkpoint bytes"
                );
            }
        }
        println!(
            "{model} (batched: {batched}): {} agent-steps, the same actions and checkpoints",
            want.iter().map(Vec::len).sum::<usize>()
        );
    }
}

fn rows_match_single_runs(backend: &Backend) {
    for model in [
        "mlp_batch.onnx",
        "recurrent_batch.onnx",
        "mlp.onnx",
        "recurrent.onnx",
    ] {
        let mut p = load(backend, model);
        let cases = reference(model.replace("_batch", "").as_str());
        let h = p.abi().state_len.unwrap_or(0);
        let mut batch = Batch::new(p.abi(), 2 * cases.len());
        // Every case twice, each time with another recurrent state.
        let states: Vec<Vec<f32>> = (0..2 * cases.len())
            .map(|r| {
                (0..h)
                    .map(|j| ((r * 7 + j) % 5) as f32 / 4.0 - 0.5)
                    .collect()
            })
            .collect();
        for (r, s) in states.iter().enumerate() {
            let c = &cases[r % cases.len()];
            assert_eq!(batch.push(&c.obs, &c.mask, s).unwrap(), r);
        }
        p.run_batch(&mut batch).unwrap();
        for (r, s) in states.iter().enumerate() {
            let c = &cases[r % cases.len()];
            p.set_state(s).unwrap();
            let logits = p.run(&c.obs, &c.mask).unwrap().to_vec();
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(batch.logits(r)),
                bits(&logits),
                "{model} row {r}: logits"
            );
            assert_eq!(
                bits(batch.state(r)),
                bits(p.state()),
                "{model} row {r}: state"
            );
            assert_eq!(
                batch.value(r),
                p.value().unwrap_or(0.0),
                "{model} row {r}: value"
            );
        }
    }
}

#[test]
fn tract_fleet_matches_agents_alone() {
    fleet_matches_agents_alone(&Backend::Tract);
}

/// The GEMM micro-benchmark measures a rate (the bench's arithmetic limit divides by it).
#[test]
fn the_gemm_rate_is_measured() {
    let r =
        evoharness_runtime::gemm::measure(&Backend::Tract, 64, std::time::Duration::ZERO).unwrap();
    assert_eq!((r.n, r.runs), (64, 3));
    assert!(r.flops_per_s.is_finite() && r.flops_per_s > 1e6, "{r:?}");
    assert!(evoharness_runtime::gemm::measure(&Backend::Tract, 0, Default::default()).is_err());
}

#[test]
fn tract_batch_rows_match_single_runs() {
    rows_match_single_runs(&Backend::Tract);
}

#[test]
fn a_full_or_foreign_batch_and_a_foreign_agent_are_refused() {
    let mut p = load(&Backend::Tract, "mlp_batch.onnx");
    let c = &reference("mlp.onnx")[0];
    let mut batch = Batch::new(p.abi(), 1);
    let e = batch.push(&c.obs[1..], &c.mask, &[]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Inference);
    assert!(batch.is_empty(), "a refused row is not added");
    batch.push(&c.obs, &c.mask, &[]).unwrap();
    let e = batch.push(&c.obs, &c.mask, &[]).unwrap_err();
    assert!(e.message().contains("full"), "{e}");

    // A batch made for the recurrent policy's contract does not run on the MLP.
    let r = load(&Backend::Tract, "recurrent_batch.onnx");
    let mut other = Batch::new(r.abi(), 1);
    other.push(&c.obs, &c.mask, &[0.0; 8]).unwrap();
    assert_eq!(
        p.run_batch(&mut other).unwrap_err().kind(),
        ErrorKind::Inference
    );

    // An agent of another policy's fleet is handed back; a member stepped alone says why not.
    let mut fleet = Fleet::<FixtureWorld>::new(p);
    let foreign = Fleet::<FixtureWorld>::new(r).member();
    let agent = Agent::new(foreign, FixtureWorld::new(), config(0)).unwrap();
    let not = fleet.add(agent).unwrap_err();
    assert_eq!(not.error.kind(), ErrorKind::Config);
    let mut loose = Agent::new(fleet.member(), FixtureWorld::new(), config(0)).unwrap();
    let e = loose.step().unwrap_err();
    assert!(e.message().contains("fleet"), "{e}");
    assert!(fleet.is_empty());
    assert_eq!(fleet.step().unwrap(), 0, "an empty fleet steps nothing");
}

#[test]
fn a_fleet_checkpoint_resumes_alone_and_the_reverse() {
    let model = "recurrent_batch.onnx";
    let want = alone(&Backend::Tract, model);
    // The agent that took the most steps, from a third of the way in.
    let i = (0..want.len()).max_by_key(|&i| want[i].len()).unwrap();
    let k = want[i].len() / 3;
    assert!(want[i].len() > k + 17, "agent {i}: {} steps", want[i].len());
    // A checkpoint the fleet wrote resumes with the policy alone, and goes on as alone.
    let bytes = &want[i][k].1;
    let mut fleet = Fleet::new(load(&Backend::Tract, model));
    let resumed =
        Agent::resume_from_bytes(fleet.member(), FixtureWorld::new(), config(i as u64), bytes)
            .unwrap();
    fleet.add(resumed).unwrap();
    for (step, expected) in want[i][k + 1..].iter().take(15).enumerate() {
        assert_eq!(fleet.step().unwrap(), 1);
        let r = fleet.report(0).unwrap().as_ref().unwrap();
        assert_eq!(r, &expected.0, "step {step} after resuming in the fleet");
        assert!(checkpoint(fleet.agent(0)) == expected.1);
    }
    let (_, mut agents) = fleet.into_parts();
    let bytes = checkpoint(&agents.remove(0));
    let mut alone_again = Agent::resume_from_bytes(
        load(&Backend::Tract, model),
        FixtureWorld::new(),
        config(i as u64),
        &bytes,
    )
    .unwrap();
    let next = alone_again.step().unwrap().unwrap();
    assert_eq!(next, want[i][k + 16].0);
}

const CHILD_BACKEND: &str = "EVOHARNESS_FLEET_BACKEND";

#[test]
#[ignore = "needs ONNX Runtime: run scripts/fetch-onnxruntime.sh, then cargo test -p evoharness-runtime --test fleet -- --ignored"]
fn onnx_runtime_fleet_matches_agents_alone() {
    let stdout = common::run_child("fleet_child", CHILD_BACKEND, "onnxruntime");
    assert!(
        stdout.contains("the same actions"),
        "the child checked nothing"
    );
}

/// The child half of the ONNX Runtime test: does nothing unless the parent selected it.
#[test]
fn fleet_child() {
    if let Some(b) = std::env::var_os(CHILD_BACKEND) {
        let backend = Backend::parse(b.to_str().unwrap()).unwrap();
        rows_match_single_runs(&backend);
        fleet_matches_agents_alone(&backend);
    }
}
