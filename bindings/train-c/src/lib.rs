//! The C ABI of the evoharness training kit: `libevoharness_train.a` and
//! `libevoharness_train.so`, with the header `include/evoharness_train.h` that `build.rs`
//! generates from this crate (cbindgen) and that is committed. What a team training a policy
//! for its own world loads (Python's package does); hosts that only run policies link
//! `libevoharness` (crate `evoharness-c`) instead.
//!
//! The library is a superset of `libevoharness`: it exports every function of `evoharness.h`,
//! and the training kit's besides, so a program links one of the two, never both. What it
//! adds, every name starting with `evoharness_suite_` or `evoharness_vec_env_`:
//!
//! - a task of the suite as an `evoharness_world` (task kind, horizon, organisation), which an
//!   agent takes like any world, with the host serving some of its tools; the agent config a
//!   task needs (budget, costs); how a suite agent's task went ([`evoharness_task_stats`]);
//! - the suite's capacities;
//! - the vectorised environment that training steps (grouped or not; the training kit's
//!   `VecEnv`) over any worlds a host gives (`evoharness_vec_env_new_worlds`, with worlds
//!   written by the host through `evoharness_world_from_callbacks`: how a product trains a
//!   policy for its own tools) or over the suite's tasks, with the suite's rule-based
//!   teachers' labels for imitation.
//!
//! Python (`bindings/python`) loads this library. Its conventions are `evoharness.h`'s, and its
//! functions use the same boundary (the hidden `evoharness::ffi` helpers).
//!
//! # Layout
//!
//! | module | what |
//! | --- | --- |
//! | [`suite`] | the suite's tasks, to train on: worlds, capacities, agent configs, task stats |
//! | [`vec_env`] | the vectorised environment over any worlds or the suite's, groups, the suite's teachers |
#![allow(
    non_camel_case_types,
    reason = "C names: evoharness_<type>, as the header spells them"
)]

// In reading order: cbindgen writes the header's items in the order it meets the modules.
pub mod suite;
pub mod vec_env;

// The embedding library, whole: its functions are this library's too.
pub use evoharness::*;
pub use suite::*;
pub use vec_env::*;

#[cfg(test)]
mod tests {
    #[test]
    fn the_default_workspace_capacities_are_the_suites() {
        assert_eq!(evoharness::DEFAULT_CAPACITIES, evoharness_suite::CAPACITIES);
        assert_eq!(evoharness::DEFAULT_CAPACITIES, train::DEFAULT_CAPACITIES);
    }
}
