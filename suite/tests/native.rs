//! The native backend takes the same actions as tract on held-out episodes of every shipped
//! MLP policy, with the same episode outcomes; its int8 evaluator, on the int8 policy, also
//! takes the f32 policy's actions on 99.9% of the steps, with success within one point.
//!
//! Each episode is played twice. Once by tract, with the native policy deciding beside it on
//! every step's observation and mask (a twin controller: tract's action is taken, native's is
//! compared), which measures agreement step by step on tract's own trajectory. Once by the
//! native policy alone, whose episode outcomes must be tract's. The organisations and seeds are
//! ones no training, validation or shipped evaluation used.

use std::path::PathBuf;

use evoharness_core::obs::Layout;
use evoharness_core::{Action, Capacities, EventBuf};
use evoharness_runtime::rng::SplitMix64;
use evoharness_runtime::{
    Agent, Backend, Controller, Decision, Needs, Policy, PolicyBuilder, Result, View,
};
use evoharness_suite::{SuiteWorld, TaskConfig, TaskKind, episode};

fn shipped(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/policies")
        .join(name)
}

/// tract decides; the native policy decides beside it on the same view, and is counted.
struct Twin {
    tract: Policy,
    native: Policy,
    steps: u64,
    agree: u64,
    max_logit_diff: f32,
}

impl Controller<SuiteWorld> for Twin {
    fn capacities(&self) -> Capacities {
        Controller::<SuiteWorld>::capacities(&self.tract)
    }
    fn layout(&self) -> Layout {
        Controller::<SuiteWorld>::layout(&self.tract)
    }
    fn needs(&self) -> Needs {
        Controller::<SuiteWorld>::needs(&self.tract)
    }
    fn begin(&mut self, view: &View<'_, SuiteWorld>) {
        self.tract.begin(view);
        self.native.begin(view);
    }
    fn decide(&mut self, view: &View<'_, SuiteWorld>, rng: &mut SplitMix64) -> Result<Decision> {
        let mut twin_rng = *rng;
        let d = self.tract.decide(view, rng)?;
        let n = self.native.decide(view, &mut twin_rng)?;
        self.steps += 1;
        self.agree += u64::from(d == n);
        let legal = |i: &usize| view.mask[*i] != 0;
        for i in (0..view.mask.len()).filter(legal) {
            let diff = (self.tract.logits()[i] - self.native.logits()[i]).abs();
            self.max_logit_diff = self.max_logit_diff.max(diff);
        }
        Ok(d)
    }
    fn observe(&mut self, action: &Action<'_>, event: Option<&EventBuf>) {
        Controller::<SuiteWorld>::observe(&mut self.tract, action, event);
        Controller::<SuiteWorld>::observe(&mut self.native, action, event);
    }
    fn identity(&self) -> u64 {
        Controller::<SuiteWorld>::identity(&self.tract)
    }
}

/// Plays `seeds` on each of `organisations` for each task, by tract with the native twin and by
/// native alone; asserts ≥ 99.9% of the steps agree and every episode ends the same.
fn compare(
    file: &str,
    tasks: &[TaskConfig],
    organisations: std::ops::Range<u64>,
    seeds: std::ops::Range<u64>,
) {
    compare_files(file, file, tasks, organisations, seeds, Outcomes::Same);
}

/// What the episodes' outcomes must be.
#[derive(Clone, Copy, PartialEq)]
enum Outcomes {
    /// Each episode ends the same on both.
    Same,
    /// Success rates within one point.
    WithinOnePoint,
}

/// [`compare`] with tract running `file` and native running `native_file`.
fn compare_files(
    file: &str,
    native_file: &str,
    tasks: &[TaskConfig],
    organisations: std::ops::Range<u64>,
    seeds: std::ops::Range<u64>,
    outcomes: Outcomes,
) {
    let load = |b: Backend| {
        let f = if b == Backend::Native {
            native_file
        } else {
            file
        };
        PolicyBuilder::new()
            .backend(b)
            .commit_from_file(shipped(f))
            .unwrap()
    };
    let mut native_successes = 0;
    let file = &format!("{native_file} on native against {file} on tract");
    let (mut steps, mut agree, mut episodes, mut same, mut successes) = (0, 0, 0, 0, 0);
    let mut max_diff = 0f32;
    for task in tasks {
        for org in organisations.clone() {
            let twin = Twin {
                tract: load(Backend::Tract),
                native: load(Backend::Native),
                steps: 0,
                agree: 0,
                max_logit_diff: 0.0,
            };
            let seed = seeds.start;
            let mut by_tract = Agent::new(
                twin,
                SuiteWorld::new(*task, org),
                episode::agent_config(task, seed),
            )
            .unwrap();
            let mut by_native = Agent::new(
                load(Backend::Native),
                SuiteWorld::new(*task, org),
                episode::agent_config(task, seed),
            )
            .unwrap();
            for seed in seeds.clone() {
                let t = episode::run(&mut by_tract, seed, u64::MAX, None).unwrap();
                let n = episode::run(&mut by_native, seed, u64::MAX, None).unwrap();
                episodes += 1;
                successes += u64::from(t.success);
                native_successes += u64::from(n.success);
                if (t.success, t.finished) == (n.success, n.finished) {
                    same += 1;
                } else {
                    eprintln!("{file} {task:?} org {org} seed {seed}: tract {t:?}, native {n:?}");
                }
            }
            let twin = by_tract.controller();
            steps += twin.steps;
            agree += twin.agree;
            max_diff = max_diff.max(twin.max_logit_diff);
        }
    }
    let share = agree as f64 / steps as f64;
    eprintln!(
        "{file}: {agree} of {steps} steps agree ({:.4}%), {same} of {episodes} episodes end the \
         same, {successes} successes, largest legal logit difference {max_diff:e}",
        100.0 * share
    );
    assert!(steps >= 1000, "{steps} steps: too few to judge 99.9%");
    assert!(share >= 0.999, "{file}: {agree} of {steps} steps agree");
    match outcomes {
        Outcomes::Same => assert_eq!(same, episodes, "{file}: every episode ends the same"),
        Outcomes::WithinOnePoint => {
            let gap = (successes as f64 - native_successes as f64).abs() / episodes as f64;
            assert!(
                gap <= 0.01,
                "{file}: {successes} and {native_successes} successes in {episodes} episodes"
            );
        }
    }
}

#[test]
fn the_generalist_acts_on_native_as_on_tract() {
    let tasks: Vec<TaskConfig> = [
        TaskKind::Migration,
        TaskKind::Records,
        TaskKind::Orchestration,
    ]
    .into_iter()
    .map(|k| TaskConfig::new(k, 250))
    .collect();
    compare(
        "generalist.onnx",
        &tasks,
        40_000..40_003,
        4_000_000..4_000_004,
    );
}

/// The int8 policy on native: as on tract, and within the int8 bar of the f32 policy.
#[test]
fn the_int8_policy_acts_on_native_as_on_tract_and_as_the_f32_policy() {
    let tasks: Vec<TaskConfig> = [
        TaskKind::Migration,
        TaskKind::Records,
        TaskKind::Orchestration,
    ]
    .into_iter()
    .map(|k| TaskConfig::new(k, 250))
    .collect();
    compare(
        "generalist-int8.onnx",
        &tasks,
        40_000..40_003,
        4_000_000..4_000_004,
    );
    compare_files(
        "generalist.onnx",
        "generalist-int8.onnx",
        &tasks,
        40_000..40_003,
        4_000_000..4_000_004,
        Outcomes::WithinOnePoint,
    );
}

#[test]
fn the_deployments_policy_acts_on_native_as_on_tract() {
    let tasks = [TaskConfig::v3(TaskKind::Migration, 100)];
    compare(
        "deployments.onnx",
        &tasks,
        40_000..40_006,
        4_000_000..4_000_004,
    );
}
