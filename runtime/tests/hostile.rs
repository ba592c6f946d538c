//! Hostile policy files: seeded mutants of the shipped policy and the fixtures (bit flips,
//! byte overwrites, truncations, huge varints, splices of two files) are loaded in-process and,
//! when accepted, run once. Each must give a typed error or a working policy: a panic, an abort
//! or a hang fails the run. `EVOHARNESS_MUTANTS` sets how many per source file (default 40).
//!
//! The tract test runs by default; the ONNX Runtime one is ignored (it needs the library, and
//! the backend is process-global):
//!
//! ```sh
//! cargo test -p evoharness-runtime --test hostile -- --ignored --nocapture
//! ```

mod common;

use std::path::PathBuf;

use common::fixture;
use evoharness_runtime::rng::SplitMix64;
use evoharness_runtime::{Backend, ErrorKind, PolicyBuilder};

fn sources() -> Vec<Vec<u8>> {
    let shipped =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/policies/generalist.onnx");
    // And its int8 twin: quantized operators (DynamicQuantizeLinear, MatMulInteger).
    let int8 = shipped.with_file_name("generalist-int8.onnx");
    [
        shipped,
        int8,
        fixture("mlp.onnx"),
        fixture("recurrent.onnx"),
    ]
    .iter()
    .map(|p| std::fs::read(p).unwrap())
    .collect()
}

/// One mutant of `base` (with `other` for splices), drawn from `rng`.
fn mutate(base: &[u8], other: &[u8], rng: &mut SplitMix64) -> Vec<u8> {
    let mut b = base.to_vec();
    let at = |rng: &mut SplitMix64, len: usize| (rng.next_u64() % len.max(1) as u64) as usize;
    let rounds = 1 + rng.next_u64() % 4;
    for _ in 0..rounds {
        match rng.next_u64() % 5 {
            0 => {
                let i = at(rng, b.len());
                b[i] ^= 1 << (rng.next_u64() % 8);
            }
            1 => {
                let i = at(rng, b.len());
                b[i] = rng.next_u64() as u8;
            }
            2 => {
                let i = at(rng, b.len());
                b.truncate(i);
            }
            3 => {
                // A varint that claims an enormous length.
                let i = at(rng, b.len());
                let bomb = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
                b.splice(i..i, bomb);
            }
            _ => {
                let (i, j) = (at(rng, b.len()), at(rng, other.len()));
                b.truncate(i);
                b.extend_from_slice(&other[j..]);
            }
        }
        if b.is_empty() {
            break;
        }
    }
    b
}

fn survive(backend: Backend) {
    let n: u64 = std::env::var("EVOHARNESS_MUTANTS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let files = sources();
    let mut rng = SplitMix64(0x6d75_7461);
    let (mut accepted, mut refused) = (0u64, 0u64);
    for (k, base) in files.iter().enumerate() {
        let other = &files[(k + 1) % files.len()];
        for _ in 0..n {
            let bytes = mutate(base, other, &mut rng);
            match PolicyBuilder::new()
                .backend(backend.clone())
                .commit_from_memory(&bytes)
            {
                Ok(mut p) => {
                    accepted += 1;
                    let obs = vec![0.5; p.abi().obs_len];
                    let mut mask = vec![0; p.abi().actions];
                    mask[0] = 1;
                    // A run may fail with an error; it must not panic or abort.
                    let _ = p.run(&obs, &mask);
                }
                Err(e) => {
                    refused += 1;
                    assert!(
                        matches!(
                            e.kind(),
                            ErrorKind::Policy | ErrorKind::Config | ErrorKind::Backend
                        ),
                        "an unexpected kind of refusal: {e}"
                    );
                }
            }
        }
    }
    eprintln!("{accepted} mutants accepted (and run), {refused} refused with a typed error");
    assert_eq!(accepted + refused, n * files.len() as u64);
    assert!(refused > 0, "the mutations reach the checks");
}

#[test]
fn mutated_policy_files_never_crash_tract() {
    survive(Backend::Tract);
}

#[test]
#[ignore = "needs ONNX Runtime: run scripts/fetch-onnxruntime.sh, then cargo test -p evoharness-runtime --test hostile -- --ignored"]
fn mutated_policy_files_never_crash_onnxruntime() {
    survive(Backend::OnnxRuntime { library: None });
}
