//! The `policy` target: untrusted bytes loaded as a policy file through the tract backend.
//!
//! A model file is untrusted input (the runtime's `limits` module). The input is handed to
//! `PolicyBuilder::commit_from_memory` with the tract backend and the default limits. Checked,
//! besides never panicking, aborting or hanging (libFuzzer's timeout):
//!
//! - a refusal is an error of kind `Policy`, `Config` or `Backend` (a typed error that names
//!   what was wrong), never another kind;
//! - an accepted policy reports a consistent interface (`obs_len` and `actions` at least 1, at
//!   most the element limit), and runs on a constant observation with a one-action mask: the run
//!   may fail with a typed error, and when it succeeds it gives one logit per action template.
//!
//! The seeds are the shipped policy and the runtime's ONNX fixtures ([`sources`]); the files
//! are read at run time from the checkout, so they are not copied into the corpus twice.

use std::path::PathBuf;

use evoharness_runtime::{Backend, ErrorKind, PolicyBuilder, PolicyLimits};

/// The policy files the seeds start from, relative to the checkout's root.
pub const SOURCES: [&str; 3] = [
    "examples/policies/generalist.onnx",
    "runtime/tests/fixtures/mlp.onnx",
    "runtime/tests/fixtures/recurrent.onnx",
];

/// The bytes of [`SOURCES`].
pub fn sources() -> Vec<Vec<u8>> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    SOURCES
        .iter()
        .map(|p| {
            let path = root.join(p);
            std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        })
        .collect()
}

/// What became of one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Load {
    /// Refused with a typed error of an allowed kind.
    Refused,
    /// Loaded; the run failed with a typed error.
    RunFailed,
    /// Loaded and ran: one logit per action template.
    Ran,
}

/// Loads `data` as a policy through tract and runs it once; panics on a broken invariant.
pub fn check(data: &[u8]) -> Load {
    let mut policy = match PolicyBuilder::new()
        .backend(Backend::Tract)
        .commit_from_memory(data)
    {
        Ok(p) => p,
        Err(e) => {
            assert!(
                matches!(
                    e.kind(),
                    ErrorKind::Policy | ErrorKind::Config | ErrorKind::Backend
                ),
                "an unexpected kind of refusal: {:?}: {e}",
                e.kind()
            );
            return Load::Refused;
        }
    };
    let abi = policy.abi().clone();
    let cap = usize::try_from(PolicyLimits::default().max_tensor_elements).unwrap_or(usize::MAX);
    assert!(
        (1..=cap).contains(&abi.obs_len) && (1..=cap).contains(&abi.actions),
        "an accepted policy with an interface out of range: {abi:?}"
    );
    let obs = vec![0.5; abi.obs_len];
    let mut mask = vec![0; abi.actions];
    mask[abi.actions - 1] = 1;
    match policy.run(&obs, &mask) {
        Ok(logits) => {
            assert_eq!(logits.len(), abi.actions, "one logit per action template");
            Load::Ran
        }
        Err(_) => Load::RunFailed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sources_load_and_run() {
        for s in sources() {
            assert_eq!(check(&s), Load::Ran);
        }
    }

    #[test]
    fn garbage_and_truncations_are_refused() {
        assert_eq!(check(b""), Load::Refused);
        assert_eq!(check(b"not an onnx file"), Load::Refused);
        let shipped = &sources()[0];
        assert_eq!(check(&shipped[..shipped.len() / 2]), Load::Refused);
    }
}
