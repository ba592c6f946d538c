//! What one agent step costs, and how much of it is inference: a full [`Agent::step`] (encode,
//! mask, policy run, select, resolve, apply, the tool call) and [`Policy::run`] alone, for the
//! checked-in fixture policies, on one backend per process (ort's choice is process-global):
//!
//! ```sh
//! cargo bench -p evoharness-runtime --bench step                                      # tract
//! EVOHARNESS_BENCH_BACKEND=onnxruntime cargo bench -p evoharness-runtime --bench step # ORT
//! ```
//!
//! ONNX Runtime runs with one intra-op thread, as `python_ort.py` does. `Policy::run` gets the
//! inputs of the first case of `tests/fixtures/reference.json`, the same ones `python_ort.py`
//! feeds Python's `InferenceSession.run`. See `README.md` beside this file for the figures.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use evoharness_runtime::{Agent, AgentConfig, Backend, Policy, PolicyBuilder, Selection};

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/common/toy.rs"]
mod toy;

const MODELS: [&str; 2] = ["mlp", "recurrent"];
const SEED: u64 = 7;

fn backend() -> Backend {
    let name = std::env::var("EVOHARNESS_BENCH_BACKEND").unwrap_or_else(|_| "tract".into());
    Backend::parse(&name).expect("EVOHARNESS_BENCH_BACKEND: tract or onnxruntime")
}

fn policy(model: &str) -> Policy {
    PolicyBuilder::new()
        .backend(backend())
        .threads(1)
        .commit_from_file(common::fixture(&format!("{model}.onnx")))
        .expect("the fixture loads")
}

fn bench(c: &mut Criterion) {
    let name = policy("mlp").backend().name();
    let mut g = c.benchmark_group(name);
    for model in MODELS {
        let mut p = policy(model);
        let case = &common::reference(&format!("{model}.onnx"))[0];
        g.bench_function(format!("policy_run {model}"), |b| {
            b.iter(|| {
                // A recurrent policy's state advances each run; that costs nothing extra.
                black_box(p.run(black_box(&case.obs), black_box(&case.mask)).unwrap()[0])
            })
        });

        // Sampling keeps the workspace changing; a large budget keeps tasks long. When a task
        // ends anyway, the next one starts untimed.
        let config = AgentConfig {
            budget: 1_000_000,
            selection: Selection::Sample { temperature: 1.0 },
            seed: SEED,
            ..Default::default()
        };
        let mut agent = Agent::new(policy(model), toy::Toy::default(), config).unwrap();
        let mut task = SEED;
        g.bench_function(format!("agent_step {model}"), |b| {
            b.iter_custom(|iters| {
                let mut spent = Duration::ZERO;
                let mut done = 0;
                while done < iters {
                    let t0 = Instant::now();
                    let report = agent.step().unwrap();
                    let dt = t0.elapsed();
                    if black_box(report).is_some() {
                        spent += dt;
                        done += 1;
                    } else {
                        task += 1;
                        agent.start_task(task);
                    }
                }
                spent
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
