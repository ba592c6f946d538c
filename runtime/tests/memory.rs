//! A policy agent's memory is flat: it runs the `Agent` loop with a policy in it (a fixture
//! policy in the fixture world, task after task) for `EVOHARNESS_MEMORY_STEPS` steps (default
//! 200,000) and fails if the process's resident memory grew by more than 1 MiB between the end
//! of the warm-up (10,000 steps) and the end. ort 2.0.0-rc.14 leaked one type info per output
//! per run (about 160 B a step on tract, 530 B on ONNX Runtime; fixed in rc.15); see
//! `vendor/README.md`. `tests/registry-user/` runs a copy of this test against the crates as
//! packaged.
//!
//! The tract test runs by default. The ONNX Runtime one needs the library and, since ort's
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
use evoharness_runtime::{Agent, AgentConfig, Backend, FixtureWorld, PolicyBuilder};

const WARM_UP: u64 = 10_000;
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

fn steps() -> u64 {
    std::env::var("EVOHARNESS_MEMORY_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200_000)
        .max(2 * WARM_UP)
}

fn flat(backend: Backend) {
    let policy = PolicyBuilder::new()
        .backend(backend)
        .commit_from_file(fixture("mlp.onnx"))
        .unwrap();
    let name = policy.backend().name();
    let mut agent = Agent::new(policy, FixtureWorld::new(), AgentConfig::default()).unwrap();
    let total = steps();
    let (mut done, mut task, mut runs) = (0u64, 0u64, 0u64);
    let mut at_warm_up = 0;
    let mut next_mark = 10_000u64;
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
        if done == WARM_UP {
            at_warm_up = rss_kib();
        }
        if done == next_mark {
            eprintln!("{name}: {done} steps, RSS {} KiB", rss_kib());
            next_mark *= 10;
        }
    }
    let end = rss_kib();
    eprintln!(
        "{name}: {total} steps ({runs} policy runs, {task} tasks): RSS {at_warm_up} KiB after \
         {WARM_UP}, {end} KiB at the end"
    );
    assert!(
        end <= at_warm_up + ALLOWED_GROWTH_KIB,
        "{name}: resident memory grew from {at_warm_up} KiB to {end} KiB over {} steps",
        total - WARM_UP
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
