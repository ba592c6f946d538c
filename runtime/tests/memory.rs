//! A policy agent's memory is flat: it runs the `Agent` loop with a policy in it (a fixture
//! policy in the fixture world, task after task) for `EVOHARNESS_MEMORY_STEPS` steps (default
//! 200,000) and fails if the process's resident memory grew by more than 1 MiB between the end
//! of the warm-up (10,000 steps) and the end. ort 2.0.0-rc.14 leaked one type info per output
//! per run (about 160 B a step on tract, 530 B on ONNX Runtime; fixed in rc.15); see
//! `vendor/README.md`. `tests/registry-user/` runs a copy of this test against the crates as
//! packaged.
//!
//! The same for the fixture language model (`generative-v1`): 20,000 steps by default
//! (`EVOHARNESS_MEMORY_LM_STEPS`), warm-up 10,000; ignored by default on both backends (slow in
//! a debug build). One backend per process, so one test per run:
//!
//! ```sh
//! cargo test --release -p evoharness-runtime --test memory -- --ignored language_model_agent_on_tract
//! cargo test --release -p evoharness-runtime --test memory -- --ignored language_model_agent_on_onnxruntime
//! ```
//!
//! The structured policy's tract test runs by default. The ONNX Runtime one needs the library and, since ort's
//! backend is process-global, runs alone:
//!
//! ```sh
//! cargo test -p evoharness-runtime --test memory -- --ignored --nocapture
//! ```
//!
//! `EVOHARNESS_MEMORY_STEPS=10000000` (with `--release`) gives the long measurement; every
//! power of ten of steps is printed with the resident memory then.

mod common;

use common::fixture;
use evoharness_runtime::{Agent, AgentConfig, Backend, Controller, FixtureWorld, PolicyBuilder};

const WARM_UP: u64 = 10_000;
/// The language model's warm-up: its prompts (and the buffers and tensors sized by them) reach
/// their longest once the workspace's tables have filled, within the first ten tasks of the
/// fixture world (measured: +2.5 MiB from step 1,000 to 10,000, then flat to 100,000).
const LM_WARM_UP: u64 = 10_000;
const ALLOWED_GROWTH_KIB: u64 = 1024;

/// `VmRSS` of `/proc/self/status`, in KiB.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .expect("a VmRSS line")
}

fn steps(var: &str, default: u64, warm_up: u64) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
        .max(2 * warm_up)
}

fn flat(backend: Backend) {
    let policy = PolicyBuilder::new()
        .backend(backend)
        .commit_from_file(fixture("mlp.onnx"))
        .unwrap();
    let name = policy.backend().name();
    run_flat(
        policy,
        name,
        steps("EVOHARNESS_MEMORY_STEPS", 200_000, WARM_UP),
        WARM_UP,
    );
}

/// The same with the fixture language model (`generative-v1`): its prompt, key/value cache and
/// decoding buffers must reach a steady size too. `EVOHARNESS_MEMORY_LM_STEPS` (default
/// 20,000; the figure in `docs/src/results.md` is 10^5).
fn flat_generative(backend: Backend) {
    let policy = PolicyBuilder::new()
        .backend(backend)
        .commit_generative_from_file(fixture("generative.onnx"))
        .unwrap();
    let name = policy.backend().name();
    run_flat(
        policy,
        &format!("{name}, language model"),
        steps("EVOHARNESS_MEMORY_LM_STEPS", 20_000, LM_WARM_UP),
        LM_WARM_UP,
    );
}

fn run_flat<C: Controller<FixtureWorld>>(policy: C, name: &str, total: u64, warm_up: u64) {
    let mut agent = Agent::new(policy, FixtureWorld::new(), AgentConfig::default()).unwrap();
    let (mut done, mut task, mut runs) = (0u64, 0u64, 0u64);
    let mut at_warm_up = 0;
    let mut next_mark = 10_000u64;
    let mut runs_at = 0u64;
    while done < total {
        match agent.step().unwrap() {
            Some(_) => {
                done += 1;
                runs += 1;
            }
            None => {
                task += 1;
                agent.start_task(task);
            }
        }
        if done == warm_up {
            at_warm_up = rss_kib();
        }
        if done == next_mark || (done > 0 && done % (total / 10).max(1) == 0 && runs_at != done) {
            eprintln!("{name}: {done} steps, RSS {} KiB", rss_kib());
            if done == next_mark {
                next_mark *= 10;
            }
            runs_at = done;
        }
    }
    let end = rss_kib();
    eprintln!(
        "{name}: {total} steps ({runs} policy runs, {task} tasks): RSS {at_warm_up} KiB after \
         {warm_up}, {end} KiB at the end"
    );
    assert!(
        end <= at_warm_up + ALLOWED_GROWTH_KIB,
        "{name}: resident memory grew from {at_warm_up} KiB to {end} KiB over {} steps",
        total - warm_up
    );
}

#[test]
fn a_policy_agent_on_tract_keeps_its_memory_flat() {
    flat(Backend::Tract);
}

#[test]
#[ignore = "needs ONNX Runtime: run scripts/fetch-onnxruntime.sh, then cargo test -p evoharness-runtime --test memory -- --ignored"]
fn a_policy_agent_on_onnxruntime_keeps_its_memory_flat() {
    flat(Backend::OnnxRuntime { library: None });
}

#[test]
#[ignore = "needs ONNX Runtime, and takes minutes in a debug build: .ci/run runs it with --release"]
fn a_language_model_agent_on_onnxruntime_keeps_its_memory_flat() {
    flat_generative(Backend::OnnxRuntime { library: None });
}

#[test]
#[ignore = "20,000 language-model steps take minutes in a debug build: .ci/run runs it with --release"]
fn a_language_model_agent_on_tract_keeps_its_memory_flat() {
    flat_generative(Backend::Tract);
}
