//! How fast the task suite steps without a policy: [`VecEnv::step`] over `n` environments
//! (world, workspace, structured-v1 observation and mask, reward, auto-reset), one thread, with
//! actions chosen by a cheap rule (the first legal template at or after a rotating offset,
//! never `finish`), whose cost is included. Criterion reports environment steps per second.
//!
//! ```sh
//! cargo bench -p evoharness-suite --no-default-features --bench vec_env
//! ```
//!
//! (`--no-default-features` leaves tract out of the build: nothing here runs a policy.)

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use evoharness_suite::{SuiteVecEnv, TaskConfig, TaskKind, Teacher};

fn pick(mask: &[u8], salt: usize) -> u32 {
    let n = mask.len();
    (0..n)
        .map(|k| (k + salt * 13) % n)
        .find(|&t| t >= 2 && mask[t] == 1)
        .unwrap_or(0) as u32
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("vec_env");
    for kind in TaskKind::ALL {
        for n in [1usize, 64] {
            let mut v = SuiteVecEnv::new(TaskConfig::new(kind, 1_000), n, 0..4, 0).unwrap();
            let al = v.actions();
            let mut buf = v.buffers().unwrap();
            let mut s = 0usize;
            g.throughput(Throughput::Elements(n as u64));
            g.bench_function(format!("{kind} n={n}"), |b| {
                b.iter(|| {
                    for i in 0..n {
                        buf.actions[i] = pick(&buf.mask[i * al..(i + 1) * al], s + i);
                    }
                    s += 1;
                    v.step_into(&mut buf).unwrap();
                    black_box(buf.reward[0])
                })
            });
        }
    }
    // Driven by the lean teacher's labels (their cost included), as DAgger's first round
    // is: mostly world actions, where the rotating rule above takes mostly harness actions.
    for kind in TaskKind::ALL {
        let n = 64;
        let mut v = SuiteVecEnv::new(TaskConfig::new(kind, 1_000), n, 0..4, 0).unwrap();
        let mut buf = v.buffers().unwrap();
        g.throughput(Throughput::Elements(n as u64));
        g.bench_function(format!("{kind} lean n={n}"), |b| {
            b.iter(|| {
                v.teacher_actions(Teacher::Lean, &mut buf.actions).unwrap();
                v.step_into(&mut buf).unwrap();
                black_box(buf.reward[0])
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
