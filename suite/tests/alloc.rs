//! After warm-up, stepping the task suite allocates nothing: a [`VecEnv`] step (world, workspace,
//! observation, mask, reward, auto-reset) and an [`Agent`] episode of the oracle, the static
//! harness, the lean harness and the random baseline. (The append-only baseline's transcript grows by design.)
//! Counted by a global allocator that counts per thread, as in `alloc.rs`.

// The runtime's counting allocator, shared rather than copied.
#[path = "../../runtime/tests/common/counting.rs"]
mod counting;

use counting::{Counting, allocs};
use evoharness_runtime::{Agent, Controller};
use evoharness_suite::baselines::{LeanHarness, Oracle, RandomAgent, StaticHarness};
use evoharness_suite::episode::{self, agent_config};
use evoharness_suite::{SuiteVecEnv, SuiteWorld, TaskConfig, TaskKind};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The first legal template at or after a rotating offset, skipping `finish` (so episodes
/// run long and end by budget as well as by choice).
fn pick(mask: &[u8], salt: usize) -> u32 {
    let n = mask.len();
    (0..n)
        .map(|k| (k + salt * 13) % n)
        .find(|&t| t >= 2 && mask[t] == 1)
        .unwrap_or(0) as u32
}

#[test]
fn the_counter_counts() {
    let before = allocs();
    let v = std::hint::black_box(vec![1u8; 10]);
    assert_eq!(allocs() - before, 1);
    drop(v);
}

#[test]
fn a_vec_env_step_allocates_nothing() {
    for kind in TaskKind::ALL {
        let n = 8;
        let mut v = SuiteVecEnv::new(TaskConfig::new(kind, 60), n, 0..3, 1).unwrap();
        let al = v.actions();
        let mut b = v.buffers().unwrap();
        let mut step = |s: usize, v: &mut SuiteVecEnv| -> u64 {
            for i in 0..n {
                b.actions[i] = pick(&b.mask[i * al..(i + 1) * al], s + i);
            }
            v.step_into(&mut b).unwrap();
            u64::from(b.done.iter().map(|&d| u32::from(d)).sum::<u32>())
        };
        // Warm-up: every environment ends and restarts at least once.
        let mut s = 0;
        while (0..n).any(|i| v.episodes(i) < 2) {
            step(s, &mut v);
            s += 1;
        }
        let before = allocs();
        let mut ends = 0;
        for _ in 0..5_000 {
            ends += step(s, &mut v);
            s += 1;
        }
        assert_eq!(allocs() - before, 0, "{kind}: VecEnv steps allocated");
        assert!(ends > 0, "{kind}: the measured steps include auto-resets");
    }
}

#[test]
fn baseline_episodes_allocate_nothing_after_the_first() {
    let controllers = || -> [Box<dyn Controller<SuiteWorld>>; 4] {
        [
            Box::new(Oracle),
            Box::new(StaticHarness::default()),
            Box::new(LeanHarness),
            Box::new(RandomAgent::default()),
        ]
    };
    for kind in TaskKind::ALL {
        for ctl in controllers() {
            let task = TaskConfig::new(kind, 300);
            let name = ctl.name();
            let mut agent =
                Agent::new(ctl, SuiteWorld::new(task, 2), agent_config(&task, 0)).unwrap();
            episode::run(&mut agent, 0, u64::MAX, None).unwrap();
            let before = allocs();
            for seed in 1..4 {
                episode::run(&mut agent, seed, u64::MAX, None).unwrap();
            }
            assert_eq!(allocs() - before, 0, "{kind}: {name}");
        }
    }
}
