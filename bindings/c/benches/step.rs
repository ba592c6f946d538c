//! What the C ABI adds to one agent step: the same step of the same agent on the same suite
//! task, through the Rust API (`Agent<World>::step`) and through the exported C function
//! `evoharness_agent_step` (called through a function pointer, as a C program calls it: nothing
//! is inlined across the boundary).
//!
//! ```sh
//! cargo bench -p evoharness-c --bench step
//! ```
//!
//! Both agents run `runtime/tests/fixtures/suite_mlp.onnx` (random weights) on tract against a
//! migration world (horizon 50, organisation 1), sampling at temperature 1 from the same seed,
//! so they take the very same steps. When a task ends, the next one starts outside the timed
//! region. The C ABI's step adds the pointer checks, the panic boundary, the re-entrancy guard,
//! the report it writes, and the host world's dispatch (host callbacks over the suite's world).
//! Criterion reports the medians; see `bindings/README.md` for the figures.

use std::ffi::CString;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use evoharness::{
    evoharness_agent, evoharness_agent_config, evoharness_agent_config_default,
    evoharness_agent_free, evoharness_agent_new, evoharness_agent_start_task,
    evoharness_agent_step, evoharness_costs, evoharness_policy, evoharness_policy_load,
    evoharness_policy_options, evoharness_policy_options_default, evoharness_status,
    evoharness_step_report, evoharness_world, world_handle,
};
use evoharness_runtime::{Agent, AgentConfig, Backend, PolicyBuilder, Selection};
use evoharness_suite::{SuiteWorld, TaskConfig, TaskKind};

const HORIZON: u32 = 50;
const ORGANISATION: u64 = 1;
const SEED: u64 = 7;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../runtime/tests/fixtures/suite_mlp.onnx")
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("agent_step");

    // Rust: Agent<SuiteWorld>.
    let task = TaskConfig::new(TaskKind::Migration, HORIZON);
    let policy = PolicyBuilder::new()
        .backend(Backend::Tract)
        .commit_from_file(fixture())
        .expect("the fixture loads");
    let config = AgentConfig {
        budget: task.budget(),
        costs: task.costs(),
        selection: Selection::Sample { temperature: 1.0 },
        seed: SEED,
    };
    let mut agent =
        Agent::new(policy, SuiteWorld::new(task, ORGANISATION), config).expect("an agent");
    let mut rust_task = SEED;
    g.bench_function("rust Agent::step", |b| {
        b.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            let mut done = 0;
            while done < iters {
                let t0 = Instant::now();
                let report = agent.step().expect("a step");
                let dt = t0.elapsed();
                if black_box(report).is_some() {
                    spent += dt;
                    done += 1;
                } else {
                    rust_task += 1;
                    agent.start_task(rust_task);
                }
            }
            spent
        })
    });

    // C: the same agent through the exported functions.
    let path = CString::new(fixture().display().to_string()).expect("a path without NUL");
    let mut options = std::mem::MaybeUninit::<evoharness_policy_options>::uninit();
    let mut cfg = std::mem::MaybeUninit::<evoharness_agent_config>::uninit();
    let mut policy: *mut evoharness_policy = std::ptr::null_mut();
    let mut c_agent: *mut evoharness_agent = std::ptr::null_mut();
    // SAFETY: every pointer is valid for what each function writes or reads; the options and
    // config are initialised by their `_default`/`_agent_config` functions before use.
    unsafe {
        assert_eq!(
            evoharness_policy_options_default(options.as_mut_ptr()),
            evoharness_status::Ok
        );
        let mut options = options.assume_init();
        options.backend = evoharness::evoharness_backend::Tract as u32;
        assert_eq!(
            evoharness_policy_load(path.as_ptr(), &options, &mut policy),
            evoharness_status::Ok
        );
        assert_eq!(
            evoharness_agent_config_default(cfg.as_mut_ptr()),
            evoharness_status::Ok
        );
        let mut cfg = cfg.assume_init();
        cfg.budget = task.budget();
        cfg.costs = evoharness_costs::from_core(task.costs());
        cfg.temperature = 1.0;
        cfg.seed = SEED;
        // The suite's world as a C world handle, as libevoharness_train makes it.
        let mut world: *mut evoharness_world = world_handle(SuiteWorld::new(task, ORGANISATION));
        assert_eq!(
            evoharness_agent_new(&mut policy, &mut world, &cfg, &mut c_agent),
            evoharness_status::Ok
        );
    }
    type StepFn = unsafe extern "C" fn(
        *mut evoharness_agent,
        *mut evoharness_step_report,
    ) -> evoharness_status;
    let c_step: StepFn = black_box(evoharness_agent_step);
    let mut c_task = SEED;
    g.bench_function("C evoharness_agent_step", |b| {
        b.iter_custom(|iters| {
            let mut report = std::mem::MaybeUninit::<evoharness_step_report>::uninit();
            let mut spent = Duration::ZERO;
            let mut done = 0;
            while done < iters {
                let t0 = Instant::now();
                // SAFETY: `c_agent` is a live agent used by this thread only; `report` is
                // writable.
                let status = unsafe { c_step(c_agent, report.as_mut_ptr()) };
                let dt = t0.elapsed();
                assert_eq!(status, evoharness_status::Ok);
                // SAFETY: written by the successful call.
                if black_box(unsafe { report.assume_init_ref() }).taken {
                    spent += dt;
                    done += 1;
                } else {
                    c_task += 1;
                    // SAFETY: as above.
                    let s = unsafe { evoharness_agent_start_task(c_agent, c_task) };
                    assert_eq!(s, evoharness_status::Ok);
                }
            }
            spent
        })
    });
    g.finish();
    // SAFETY: the agent is not used after this.
    unsafe { evoharness_agent_free(c_agent) };
}

criterion_group!(benches, bench);
criterion_main!(benches);
