//! Files that an earlier version of this crate wrote still load, and load to the same thing:
//! a checkpoint (format 2, with a recurrent state, a world position and an experience store)
//! and an experience store file (format 1), in `tests/fixtures/earlier/`.
//!
//! They were written by [`write_the_earlier_files`] (ignored) at the commit that added them,
//! before the checkpoint and the store shared one framed-file module; it uses only public
//! calls that the change kept, so it still runs and, the formats being unchanged, still writes
//! the same bytes:
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

const CHECKPOINT: &str = "agent-format-2.evha";
const STORE: &str = "lessons-format-1.evhe";
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
    let mut s = ExperienceStore::new(16).expect("a budget");
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

#[test]
fn a_checkpoint_written_earlier_resumes_and_writes_the_same_bytes() {
    let bytes = std::fs::read(earlier(CHECKPOINT)).expect("the fixture");
    let agent = Agent::resume_from_bytes(policy(), FixtureWorld::new(), config(), &bytes)
        .expect("an earlier checkpoint resumes");
    assert_eq!(agent.summary().steps, STEPS);
    assert!(!agent.policy().state().is_empty());
    assert_eq!(
        agent
            .experience_store()
            .expect("the checkpoint's store")
            .len(),
        store().len()
    );
    let mut again = Vec::new();
    agent.checkpoint_bytes(&mut again).expect("a checkpoint");
    assert_eq!(again, bytes, "the resumed agent writes other bytes");
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
