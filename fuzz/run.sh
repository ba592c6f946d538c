#!/usr/bin/env bash
# Fuzz every target for a fixed time: `fuzz/run.sh SECONDS` (by hand; CI runs only this crate's
# tests, and `fuzz/run.sh N` too when EVOHARNESS_FUZZ_SECONDS=N).
#
# Installs what it needs when missing (a nightly toolchain, cargo-fuzz), checks that the
# checked-in seed corpus is what `cargo run --example seeds` generates, builds every target,
# then runs each one after the other for SECONDS on a scratch copy of its corpus, so the
# inputs libFuzzer finds never land in git. Prints each target's executions; exits non-zero
# if a target crashed (the reproducer is under fuzz/artifacts/TARGET/).
#
# EVOHARNESS_FUZZ_SANITIZER=address runs under AddressSanitizer. The default is none: core has
# no unsafe code, the C ABI's runs under ASan and valgrind in tests/c_abi.rs, and ASan costs
# about 5x in executions per second.
set -euo pipefail

secs=${1:?usage: fuzz/run.sh SECONDS}
case $secs in '' | *[!0-9]*) echo "SECONDS must be a whole number, got '$secs'" >&2; exit 2 ;; esac
cd "$(dirname "$0")"

if ! grep -q '^nightly' <<<"$(rustup toolchain list)"; then
    rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install --locked cargo-fuzz --version 0.13.2
fi

# Debug assertions and overflow checks on: an overflow in core is a bug to find, not to wrap.
# EVOHARNESS_FUZZ_PROFILE=dev builds without optimisations: minutes less to build (tract, which
# the `policy` and `c_abi` targets load, is the bulk of it) for far fewer executions per second,
# what a short CI run wants; longer runs (and grow.sh) build optimised.
build=(-a -s "${EVOHARNESS_FUZZ_SANITIZER:-none}")
case ${EVOHARNESS_FUZZ_PROFILE:-release} in
    release) ;;
    dev) build+=(--dev) ;;
    *) echo "EVOHARNESS_FUZZ_PROFILE must be release or dev" >&2; exit 2 ;;
esac

echo "== seed corpus and the checks it drives (cargo test)"
cargo +nightly test --quiet

echo "== build"
cargo +nightly fuzz build "${build[@]}"

work=$(mktemp -d "${TMPDIR:-/tmp}/evoharness-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT

targets=$(cargo +nightly fuzz list)
if [ -z "$targets" ]; then
    echo "cargo fuzz list found no targets" >&2
    exit 1
fi
# Read-only seed folders beside the corpus: the `policy` target starts from the runtime's
# ONNX fixtures and the shipped policies (tens to hundreds of KB each, not copied into corpus/).
extra_seeds() {
    case $1 in
        policy) echo ../runtime/tests/fixtures ../examples/policies ;;
    esac
}
failed=()
summary=()
for t in $targets; do
    echo "== fuzz $t for ${secs}s"
    mkdir -p "$work/corpus"
    cp -R "corpus/$t" "$work/corpus/$t"
    log="$work/$t.log"
    status=0
    # shellcheck disable=SC2046 # the folders have no spaces
    cargo +nightly fuzz run "${build[@]}" "$t" "$work/corpus/$t" $(extra_seeds "$t") -- \
        -max_total_time="$secs" -timeout=20 -print_final_stats=1 >"$log" 2>&1 || status=$?
    # libFuzzer's final stats; the last status line (`#N DONE ...`) if they are missing.
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    if [ -z "$runs" ]; then
        runs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
    fi
    line="$t: ${runs:-?} executions in ${secs}s (${rate:-?} exec/s), corpus $(ls "$work/corpus/$t" | wc -l) inputs"
    if [ "$status" -ne 0 ]; then
        tail -n 60 "$log"
        line="$line: FAILED (exit $status)"
        failed+=("$t")
    fi
    echo "$line"
    summary+=("$line")
done

echo "== summary"
printf '%s\n' "${summary[@]}"
if [ "${#failed[@]}" -ne 0 ]; then
    echo "crashed: ${failed[*]} (reproducers under fuzz/artifacts/)" >&2
    exit 1
fi
