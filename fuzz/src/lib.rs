//! Fuzz checks for `evoharness-core` and the runtime's checkpoints, as ordinary functions.
//!
//! Each fuzz target in `fuzz_targets/` is one call into this crate, so the checks are plain,
//! tested code: the unit tests run every checked-in seed through them on stable Rust, and a
//! crash the fuzzer finds reproduces with `cargo test` once its bytes are a seed.
//!
//! # Layout
//!
//! | module | what |
//! | --- | --- |
//! | [`decode`] | untrusted bytes into frames (plain, streamed, COBS) and snapshot restores |
//! | [`apply`] | a few header bytes choose a workspace; the rest is a script for `core`'s interpreter |
//! | [`apply_fast`] | one small inline workspace, many actions per input, only cheap checks per action |
//! | [`c_abi`] | the C ABI driven from bytes: hostile lengths, buffers, strings, frames, snapshots, checkpoints, policy files; a handle table |
//! | [`checkpoint`] | untrusted bytes resumed as a suite agent's checkpoint |
//! | [`experience_store`] | untrusted bytes read as an experience store; merges and operations on what was read |
//! | [`policy`] | untrusted bytes loaded as a policy file through tract, and run once |
//! | `native` (in `evoharness_native::fuzzing`) | untrusted bytes read as a native policy file (`.ehp`), and run on 1 and 3 rows |
//! | [`session`] | one scripted task that uses every action and outcome, for seeds and baselines |
//! | [`seeds`] | the checked-in seed corpus, generated (`cargo run --example seeds`) |
//!
//! Any broken invariant panics with a message naming it: that panic is what the fuzzer
//! reports as a crash.

pub mod apply;
pub mod apply_fast;
pub mod c_abi;
pub mod checkpoint;
pub mod decode;
pub mod experience_store;
pub mod policy;
pub mod seeds;
pub mod session;
