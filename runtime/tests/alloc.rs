//! After warm-up, an agent step allocates exactly what its policy run allocates: encoding,
//! masking, selection, resolving, applying and the tool call allocate nothing; only the
//! inference backend does. Counted by a global allocator that counts per thread (so the
//! parallel test harness does not disturb the count), as in `core/tests/no_alloc.rs`.
//!
//! Only Rust allocations are counted: on ONNX Runtime that is ort's side of a run, not the C++
//! library's own `malloc`s. The native backend allocates nothing per run. The tract and native
//! tests run by default; the ONNX Runtime one is ignored
//! (it needs the library) and runs in a child process, since ort's backend is process-global:
//!
//! ```sh
//! cargo test -p evoharness-runtime --test alloc -- --ignored --nocapture
//! ```

mod common;
#[path = "common/toy.rs"]
mod toy;

#[path = "common/counting.rs"]
mod counting;

use counting::{Counting, allocs};

use common::{fixture, reference};
use evoharness_runtime::{Agent, AgentConfig, Backend, Policy, PolicyBuilder, Selection};

#[global_allocator]
static GLOBAL: Counting = Counting;

const WARM_UP: usize = 20;
const COUNTED: usize = 300;

fn load(backend: &Backend, model: &str) -> Policy {
    PolicyBuilder::new()
        .backend(backend.clone())
        .commit_from_file(fixture(model))
        .unwrap()
}

/// Allocations of each of `COUNTED` calls after `WARM_UP` calls of `f`; `f` returns whether it
/// did the work being counted (a step that ends a task does not run the policy).
fn per_call(mut f: impl FnMut() -> bool) -> Vec<u64> {
    for _ in 0..WARM_UP {
        f();
    }
    let mut counts = Vec::with_capacity(COUNTED);
    while counts.len() < COUNTED {
        let before = allocs();
        let counted = f();
        let n = allocs() - before;
        if counted {
            counts.push(n);
        }
    }
    counts
}

/// Every call allocated the same number of times; that number.
#[track_caller]
fn constant(counts: &[u64], what: &str) -> u64 {
    let (min, max) = (counts.iter().min().unwrap(), counts.iter().max().unwrap());
    assert_eq!(
        min, max,
        "{what}: between {min} and {max} allocations per call"
    );
    *min
}

/// Checks, for both fixture policies on `backend`, that a step allocates what a run does;
/// prints the counts.
fn step_allocates_only_its_policy_run(backend: &Backend) {
    // The counter itself works (else this test could not fail).
    let probe = allocs();
    drop(std::hint::black_box(Box::new(7u64)));
    assert_eq!(allocs(), probe + 1);

    for model in ["mlp.onnx", "recurrent.onnx"] {
        let mut p = load(backend, model);
        let name = p.backend().name();
        let cases = reference(model);
        let mut k = 0;
        let run = constant(
            &per_call(|| {
                let c = &cases[k % cases.len()];
                k += 1;
                p.run(&c.obs, &c.mask).is_ok()
            }),
            &format!("{name} {model} Policy::run"),
        );

        let config = AgentConfig {
            budget: 1_000_000,
            selection: Selection::Sample { temperature: 1.0 },
            seed: 5,
            ..Default::default()
        };
        let mut agent = Agent::new(load(backend, model), toy::Toy::default(), config).unwrap();
        let mut task = 5;
        let step = constant(
            &per_call(|| {
                if agent.step().unwrap().is_some() {
                    return true;
                }
                task += 1;
                agent.start_task(task);
                false
            }),
            &format!("{name} {model} Agent::step"),
        );
        println!("{name} {model}: Policy::run allocates {run} times, Agent::step {step} times");
        assert_eq!(
            step, run,
            "{name} {model}: a step allocates {step} times, its policy run {run}: the agent's \
             own code allocates"
        );
    }
}

/// A fleet step of 16 agents allocates what its one batched policy run allocates: preparing,
/// selecting and stepping each agent allocate nothing, whatever the fleet's size.
fn fleet_step_allocates_only_its_batched_run(backend: &Backend) {
    use evoharness_runtime::{Batch, Fleet};
    const N: usize = 16;
    for model in ["mlp_batch.onnx", "recurrent_batch.onnx"] {
        let mut p = load(backend, model);
        let name = p.backend().name();
        let cases = reference(&model.replace("_batch", ""));
        let h = p.abi().state_len.unwrap_or(0);
        let mut batch = Batch::new(p.abi(), N);
        let state = vec![0.0; h];
        let run = constant(
            &per_call(|| {
                batch.clear();
                for k in 0..N {
                    let c = &cases[k % cases.len()];
                    batch.push(&c.obs, &c.mask, &state).unwrap();
                }
                p.run_batch(&mut batch).is_ok()
            }),
            &format!("{name} {model} Policy::run_batch"),
        );

        let mut fleet = Fleet::new(load(backend, model));
        for i in 0..N as u64 {
            let config = AgentConfig {
                budget: 1_000_000,
                selection: Selection::Sample { temperature: 1.0 },
                seed: 5 + i,
                ..Default::default()
            };
            fleet.spawn(toy::Toy::default(), config).unwrap();
        }
        let mut task = 100;
        let step = constant(
            &per_call(|| {
                if fleet.step().unwrap() == N {
                    return true;
                }
                // A task ended (the fixture's random policy may finish): the next starts
                // outside the counted steps, as in the agent's test.
                for i in 0..N {
                    if fleet.report(i).is_none() {
                        task += 1;
                        fleet.agent_mut(i).start_task(task);
                    }
                }
                false
            }),
            &format!("{name} {model} Fleet::step"),
        );
        println!(
            "{name} {model}: Policy::run_batch of {N} rows allocates {run} times, Fleet::step \
             of {N} agents {step} times"
        );
        assert_eq!(
            step, run,
            "{name} {model}: a fleet step allocates {step} times, its batched run {run}: the \
             fleet's own code allocates"
        );
    }
}

/// An experience store at its budget notes (evicting), rates, counts uses and matches without
/// allocating: its table was sized for that at construction.
#[test]
fn a_full_experience_store_allocates_nothing() {
    use evoharness_core::Value;
    use evoharness_runtime::ExperienceStore;
    const BUDGET: usize = 64;
    let triggers: Vec<Value> = (0..BUDGET + COUNTED)
        .map(|i| Value::text(&format!("E{i}")).unwrap())
        .collect();
    let q = Value::text("E1").unwrap();
    let mut s = ExperienceStore::new(BUDGET).unwrap();
    for t in &triggers[..BUDGET] {
        s.note(t.clone(), Value::Int(0));
    }
    let before = allocs();
    for (i, t) in triggers[BUDGET..].iter().enumerate() {
        let evicted = s.note(t.clone(), Value::Int(i as i64 % 3)).evicted;
        assert!(evicted.is_some());
        s.rate(t, i % 2 == 0);
        s.count_use(t);
        std::hint::black_box(s.matches::<4>(&q, 4));
    }
    assert_eq!(allocs(), before, "a full store allocated");
    assert_eq!(s.len(), BUDGET);
}

/// With other replicas merged in, the view follows each change of the replica's own lessons
/// in place: still nothing allocated.
#[test]
fn a_full_store_with_a_fleet_merged_in_allocates_nothing() {
    use evoharness_core::Value;
    use evoharness_runtime::ExperienceStore;
    const BUDGET: usize = 32;
    let triggers: Vec<Value> = (0..BUDGET + COUNTED)
        .map(|i| Value::text(&format!("E{i}")).unwrap())
        .collect();
    let mut fleet = ExperienceStore::for_replica(BUDGET, 1).unwrap();
    for t in &triggers[..BUDGET] {
        fleet.note(t.clone(), Value::Int(1));
        fleet.rate(t, true);
    }
    let mut s = ExperienceStore::for_replica(BUDGET, 2).unwrap();
    for t in &triggers[BUDGET / 2..BUDGET + BUDGET / 2] {
        s.note(t.clone(), Value::Int(0));
    }
    s.merge(&fleet);
    let q = Value::text("E1").unwrap();
    let before = allocs();
    for (i, t) in triggers.iter().enumerate() {
        s.note(t.clone(), Value::Int(i as i64 % 3));
        s.rate(t, i % 2 == 0);
        s.count_use(t);
        std::hint::black_box(s.matches::<4>(&q, 4));
    }
    assert_eq!(allocs(), before, "a store with a fleet merged in allocated");
    // Every trigger is seen: the fleet's and what the replica keeps of its own.
    let own = s.replicas().into_iter().find(|r| r.id == 2).unwrap();
    assert_eq!(own.lessons.len(), BUDGET);
    let new = own
        .lessons
        .iter()
        .filter(|l| fleet.get(&l.trigger).is_none());
    assert_eq!(s.len(), BUDGET + new.count());
}

#[test]
fn tract_step_allocates_only_its_policy_run() {
    step_allocates_only_its_policy_run(&Backend::Tract);
}

#[test]
fn tract_fleet_step_allocates_only_its_batched_run() {
    fleet_step_allocates_only_its_batched_run(&Backend::Tract);
}

/// The native backend allocates nothing at all per step: its run is this crate's code, into
/// buffers made at load (a fleet's scratch, at its first batch of that size).
#[test]
fn native_step_and_fleet_step_allocate_nothing() {
    step_allocates_only_its_policy_run(&Backend::Native);
    fleet_step_allocates_only_its_batched_run(&Backend::Native);
    let mut p = load(&Backend::Native, "mlp.onnx");
    let c = &reference("mlp.onnx")[0];
    let run = constant(
        &per_call(|| p.run(&c.obs, &c.mask).is_ok()),
        "native Policy::run",
    );
    assert_eq!(run, 0, "a native run allocates {run} times");
}

const CHILD_BACKEND: &str = "EVOHARNESS_ALLOC_BACKEND";

#[test]
#[ignore = "needs ONNX Runtime: run scripts/fetch-onnxruntime.sh, then cargo test -p evoharness-runtime --test alloc -- --ignored"]
fn onnx_runtime_step_allocates_only_its_policy_run() {
    common::run_child("alloc_child", CHILD_BACKEND, "onnxruntime");
}

/// The child half of the ONNX Runtime test: does nothing unless the parent selected it.
#[test]
fn alloc_child() {
    if let Some(b) = std::env::var_os(CHILD_BACKEND) {
        let backend = Backend::parse(b.to_str().unwrap()).unwrap();
        step_allocates_only_its_policy_run(&backend);
        fleet_step_allocates_only_its_batched_run(&backend);
    }
}
