//! What a language-model policy costs beside the structured one, on the same episodes: the
//! per-decision latency of an [`Agent`] step (median and p99), and for the language model the
//! prompt tokens per decision, the share reused from its key/value cache, the tokens fed
//! through the model, and tokens per second — with the cache reused and without.
//!
//! ```sh
//! cargo bench -p evoharness-suite --bench generative
//! EVOHARNESS_ORT_LIB=/path/to/libonnxruntime.so.1.31.1 cargo bench -p evoharness-suite --bench generative
//! ```
//!
//! Policies: `EVOHARNESS_BENCH_LM` (default `examples/policies/lm.onnx`, else the random
//! fixture decoder `runtime/tests/fixtures/generative_suite.onnx`) against
//! `EVOHARNESS_BENCH_MLP` (default `examples/policies/generalist.onnx`); the task is v1
//! migration at horizon 100, organisations 3000 to 3003, seeds from 3,000,000
//! (`EVOHARNESS_BENCH_EPISODES` episodes, default 8). The backend is tract, or ONNX Runtime
//! (one intra-op thread) when `EVOHARNESS_ORT_LIB` names its library. A plain `--bench`
//! harness, not criterion: an episode is the unit, and each row runs the same episodes.

use std::path::{Path, PathBuf};
use std::time::Instant;

use evoharness_runtime::{Agent, Backend, Controller, GenerativePolicy, PolicyBuilder};
use evoharness_suite::episode::{self, StepTimes, agent_config};
use evoharness_suite::{SuiteWorld, TaskConfig, TaskKind};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn builder() -> (PolicyBuilder, &'static str) {
    match std::env::var_os("EVOHARNESS_ORT_LIB") {
        Some(lib) => (
            PolicyBuilder::new()
                .backend(Backend::OnnxRuntime {
                    library: Some(PathBuf::from(lib)),
                })
                .threads(1),
            "onnxruntime",
        ),
        None => (PolicyBuilder::new().backend(Backend::Tract), "tract"),
    }
}

struct Row {
    name: String,
    times: StepTimes,
    steps: u64,
    success: f64,
    seconds: f64,
    lm: Option<evoharness_runtime::GenerativeStats>,
}

fn run<C: Controller<SuiteWorld>>(
    name: &str,
    make: impl Fn() -> C,
    task: TaskConfig,
    episodes: u64,
) -> (Row, Vec<C>) {
    let mut times = StepTimes::default();
    let (mut steps, mut wins) = (0, 0);
    let mut kept = Vec::new();
    let t0 = Instant::now();
    for org in 3000..3004u64 {
        let mut a =
            Agent::new(make(), SuiteWorld::new(task, org), agent_config(&task, org)).unwrap();
        for k in 0..episodes.div_ceil(4) {
            let s = episode::run(&mut a, 3_000_000 + k, u64::MAX, Some(&mut times)).unwrap();
            steps += s.steps;
            wins += u64::from(s.success);
        }
        kept.push(a.into_parts().0);
    }
    let n = 4 * episodes.div_ceil(4);
    let row = Row {
        name: name.into(),
        times,
        steps,
        success: wins as f64 / n as f64,
        seconds: t0.elapsed().as_secs_f64(),
        lm: None,
    };
    (row, kept)
}

fn main() {
    // cargo passes `--bench`; nothing else is read from the command line.
    let lm = std::env::var_os("EVOHARNESS_BENCH_LM").map_or_else(
        || {
            let shipped = repo().join("examples/policies/lm.onnx");
            if shipped.exists() {
                shipped
            } else {
                repo().join("runtime/tests/fixtures/generative_suite.onnx")
            }
        },
        PathBuf::from,
    );
    let mlp = std::env::var_os("EVOHARNESS_BENCH_MLP").map_or_else(
        || repo().join("examples/policies/generalist.onnx"),
        PathBuf::from,
    );
    let episodes: u64 = std::env::var("EVOHARNESS_BENCH_EPISODES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8);
    let task = TaskConfig::new(TaskKind::Migration, 100);
    let (b, backend) = builder();
    println!(
        "backend {backend}; {} against {}; migration h100, {episodes} episodes\n",
        lm.display(),
        mlp.display()
    );

    let (structured, _) = run(
        "structured (MLP)",
        || b.clone().commit_from_file(&mlp).unwrap(),
        task,
        episodes,
    );
    let mut rows = vec![structured];
    for reuse in [true, false] {
        let load = || {
            let mut p: GenerativePolicy = b.clone().commit_generative_from_file(&lm).unwrap();
            p.set_kv_reuse(reuse);
            p
        };
        let name = if reuse {
            "language model, KV cache reused"
        } else {
            "language model, no reuse"
        };
        let (mut row, policies) = run(name, load, task, episodes);
        let mut total = evoharness_runtime::GenerativeStats::default();
        for p in &policies {
            let s = p.stats();
            total.decisions += s.decisions;
            total.prompt_tokens += s.prompt_tokens;
            total.reused_tokens += s.reused_tokens;
            total.fed_tokens += s.fed_tokens;
            total.decoded_tokens += s.decoded_tokens;
            total.forwards += s.forwards;
        }
        row.lm = Some(total);
        rows.push(row);
    }

    let base = rows[0].times.quantile_us(0.5);
    println!(
        "| policy | success | steps | median step (µs) | p99 (µs) | median / MLP | prompt tokens per decision | reused | tokens fed per decision | forwards per decision | tokens fed per s |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for r in &rows {
        let med = r.times.quantile_us(0.5);
        let (prompt, reused, fed, fwd, tps) = match r.lm {
            Some(s) => {
                let d = s.decisions.max(1) as f64;
                (
                    format!("{:.0}", s.prompt_tokens as f64 / d),
                    format!("{:.1}%", 100.0 * s.reuse()),
                    format!("{:.1}", s.fed_tokens as f64 / d),
                    format!("{:.2}", s.forwards as f64 / d),
                    format!("{:.0}", s.fed_tokens as f64 / r.seconds),
                )
            }
            None => Default::default(),
        };
        println!(
            "| {} | {:.0}% | {} | {:.1} | {:.1} | {:.1}× | {prompt} | {reused} | {fed} | {fwd} | {tps} |",
            r.name,
            100.0 * r.success,
            r.steps,
            med,
            r.times.quantile_us(0.99),
            med / base
        );
    }
}
