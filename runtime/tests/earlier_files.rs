//! Files that an earlier version of this crate wrote still load, and load to the same thing,
//! from `tests/fixtures/earlier/`:
//!
//! - `agent-format-2.evha` and `lessons-format-1.evhe`: a checkpoint (format 2, with a
//!   recurrent state, a world position and an experience store of format 1) and an experience
//!   store file of format 1, written at commit 8231e5d, before stores had replicas. They load to
//!   the same lessons as [`store`] makes today and are written again in today's store format.
//! - `agent-format-2-store-2.evha`: the same with the store format 2 (replicas) and a workspace
//!   snapshot of format 1, written when the store format came. It resumes to the same lessons
//!   and is written again with today's workspace format (no harness streak, no last verb: a
//!   format 1 snapshot has neither, so they start from nothing).
//! - `agent-format-2-store-2-workspace-2.evha` and `lessons-format-2.evhe`: today's formats
//!   (workspace snapshot format 2, which keeps the harness streak and the last verb), written by
//!   [`write_the_earlier_files`] (ignored) when that format came; they load and write the same
//!   bytes. It uses only public calls, so it still runs and, while the formats are unchanged,
//!   still writes the same bytes:
//!
//! ```sh
//! cargo test -p evoharness-runtime --test earlier_files -- --ignored write_the_earlier_files
//! ```
//!
//! A deliberate format change adds a new version and new files here; these stay, so that
//! every version a runtime claims to read is read in a test.

mod common;

use std::path::PathBuf;

use evoharness_core::Value;
use evoharness_runtime::controller::Selection;
use evoharness_runtime::{
    Agent, AgentConfig, Backend, ExperienceStore, FixtureWorld, Policy, PolicyBuilder,
};

const CHECKPOINT_STORE_1: &str = "agent-format-2.evha";
const STORE_1: &str = "lessons-format-1.evhe";
const CHECKPOINT_WORKSPACE_1: &str = "agent-format-2-store-2.evha";
const CHECKPOINT: &str = "agent-format-2-store-2-workspace-2.evha";
const STORE: &str = "lessons-format-2.evhe";
const STEPS: u64 = 5;

fn earlier(name: &str) -> PathBuf {
    common::fixture("earlier").join(name)
}

fn policy() -> Policy {
    PolicyBuilder::new()
        .backend(Backend::Tract)
        .commit_from_file(common::fixture("recurrent.onnx"))
        .expect("the recurrent fixture policy")
}

fn config() -> AgentConfig {
    AgentConfig {
        budget: 200,
        selection: Selection::Sample { temperature: 0.7 },
        seed: 27,
        ..AgentConfig::default()
    }
}

/// A store with lessons of every value kind and every counter in use.
fn store() -> ExperienceStore {
    let mut s = ExperienceStore::for_replica(16, 0x5eed).expect("a budget");
    let text = |t: &str| Value::text(t).expect("a short text");
    s.note(text("E429"), text("wait"));
    s.note(Value::Int(-7), Value::Bool(true));
    s.note(Value::Float(0.25), Value::Int(3));
    s.note(
        Value::bytes(&[1, 2, 3]).expect("short bytes"),
        text("retry"),
    );
    s.note(text("E429"), text("wait"));
    s.rate(&text("E429"), true);
    s.rate(&Value::Int(-7), false);
    s.count_use(&Value::Float(0.25));
    s
}

#[test]
#[ignore = "writes the fixtures; run by hand, see the module docs"]
fn write_the_earlier_files() {
    std::fs::create_dir_all(earlier("")).expect("the folder");
    let mut agent = Agent::new(policy(), FixtureWorld::new(), config()).expect("an agent");
    agent.set_experience_store(store());
    agent.run(STEPS).expect("steps");
    agent
        .checkpoint(earlier(CHECKPOINT))
        .expect("the checkpoint");
    store().save(earlier(STORE)).expect("the store");
}

/// What an agent sees in a store, by the lessons' encodings.
fn seen(s: &ExperienceStore) -> Vec<Vec<u8>> {
    s.lessons()
        .into_iter()
        .map(|l| {
            let mut buf = [0; Value::ENCODED_MAX];
            let mut b = l.trigger.encode(&mut buf).to_vec();
            b.extend_from_slice(l.remedy.encode(&mut buf));
            b.extend(
                [l.helpful, l.harmful, l.uses, l.noted]
                    .iter()
                    .flat_map(|n| n.to_le_bytes()),
            );
            b.extend_from_slice(&l.last_use.to_le_bytes());
            b
        })
        .collect()
}

fn resume(bytes: &[u8]) -> Agent<FixtureWorld> {
    let agent = Agent::resume_from_bytes(policy(), FixtureWorld::new(), config(), bytes)
        .expect("an earlier checkpoint resumes");
    assert_eq!(agent.summary().steps, STEPS);
    assert!(!agent.policy().state().is_empty());
    agent
}

#[test]
fn a_checkpoint_written_earlier_resumes_and_writes_the_same_bytes() {
    let bytes = std::fs::read(earlier(CHECKPOINT)).expect("the fixture");
    let agent = resume(&bytes);
    let s = agent.experience_store().expect("the checkpoint's store");
    assert_eq!(seen(s), seen(&store()));
    assert_eq!(s.replica(), store().replica());
    let mut again = Vec::new();
    agent.checkpoint_bytes(&mut again).expect("a checkpoint");
    assert_eq!(again, bytes, "the resumed agent writes other bytes");
}

/// An earlier checkpoint resumes with the lessons of [`store`]; written again in today's
/// formats, it resumes to the same agent (the same bytes once more).
fn resumes_with_its_lessons(name: &str) -> Vec<u8> {
    let bytes = std::fs::read(earlier(name)).expect("the fixture");
    let agent = resume(&bytes);
    let s = agent.experience_store().expect("the checkpoint's store");
    assert_eq!(seen(s), seen(&store()));
    let mut again = Vec::new();
    agent.checkpoint_bytes(&mut again).expect("a checkpoint");
    let twice = resume(&again);
    let mut third = Vec::new();
    twice.checkpoint_bytes(&mut third).expect("a checkpoint");
    assert_eq!(third, again);
    again
}

#[test]
fn a_checkpoint_with_a_store_of_format_1_resumes_with_its_lessons() {
    resumes_with_its_lessons(CHECKPOINT_STORE_1);
}

#[test]
fn a_checkpoint_with_a_workspace_of_format_1_resumes_in_todays_format() {
    let again = resumes_with_its_lessons(CHECKPOINT_WORKSPACE_1);
    // The same agent after the same steps as today's file, but the earlier snapshot kept no
    // harness streak and no last verb. A structured-v1 policy does not see them, so both
    // agents go on alike, and once a world action has reset the streak they are one agent.
    let today = std::fs::read(earlier(CHECKPOINT)).expect("the fixture");
    assert_ne!(again, today);
    let (mut a, mut b) = (resume(&again), resume(&today));
    a.run(20).expect("steps");
    b.run(20).expect("steps");
    let (mut a_bytes, mut b_bytes) = (Vec::new(), Vec::new());
    a.checkpoint_bytes(&mut a_bytes).expect("a checkpoint");
    b.checkpoint_bytes(&mut b_bytes).expect("a checkpoint");
    assert_eq!(
        a_bytes, b_bytes,
        "the earlier checkpoint went on differently"
    );
}

#[test]
fn a_store_written_earlier_loads_and_writes_the_same_bytes() {
    let loaded = ExperienceStore::load(earlier(STORE)).expect("an earlier store loads");
    assert_eq!(loaded.to_bytes(), store().to_bytes());
    assert_eq!(
        loaded.to_bytes(),
        std::fs::read(earlier(STORE)).expect("the fixture")
    );
}

#[test]
fn a_store_of_format_1_loads_with_its_lessons_and_merges_once() {
    let loaded = ExperienceStore::load(earlier(STORE_1)).expect("an earlier store loads");
    assert_eq!(seen(&loaded), seen(&store()));
    let mut twice = loaded.clone();
    twice.merge(&ExperienceStore::load(earlier(STORE_1)).expect("again"));
    assert_eq!(seen(&twice), seen(&store()));
}
