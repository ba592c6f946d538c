#!/usr/bin/env bash
# Grow the checked-in corpus: `fuzz/grow.sh SECONDS [TARGET...]` fuzzes each target (every one
# by default) for SECONDS, one after the other, starting from its corpus, then merges what it
# found into corpus/TARGET, minimised: the generated seeds stay as they are, and of the rest
# libFuzzer keeps a smallest set that reaches every edge the seeds do not (-set_cover_merge=1
# with -use_counters=0: edges, not hit counts, or the corpus grows by megabytes). Kept inputs
# are named by their SHA-1, as libFuzzer names them, which is how `cargo run --example seeds`
# and the tests tell them from seeds. `fuzz/grow.sh 0` only minimises the corpus again.
#
# Each run's executions are added to executions.tsv, the running total per target (the goal
# is 10^8 executions per target over time): commit it with the corpus. Exits non-zero if a
# target crashed (the reproducer is under fuzz/artifacts/TARGET/); nothing is merged for that
# target, and the others still run. Run it at low priority on a shared machine:
# `nice -n 10 fuzz/grow.sh 600`.
#
# EVOHARNESS_FUZZ_FAST=1 trades guidance for speed, for the slow targets' long runs: it builds
# without the trace-compare hooks (in target/fast, so the usual build stays) and runs
# libFuzzer with -entropic=0; the c_abi target then runs about 1.8x the executions per second.
# EVOHARNESS_FUZZ_JOBS=N runs N fuzzing processes on one shared corpus (libFuzzer's -fork=N):
# on an idle machine with N cores, N times the executions in the same time.
set -euo pipefail

secs=${1:?usage: fuzz/grow.sh SECONDS [TARGET...]}
case $secs in '' | *[!0-9]*) echo "SECONDS must be a whole number, got '$secs'" >&2; exit 2 ;; esac
shift
cd "$(dirname "$0")"

# The same build as run.sh: debug assertions and overflow checks on, no sanitizer by default.
build=(-a -s "${EVOHARNESS_FUZZ_SANITIZER:-none}")
flags=()
if [ "${EVOHARNESS_FUZZ_FAST:-0}" = 1 ]; then
    build+=(--no-trace-compares --target-dir target/fast)
    flags=(-entropic=0)
fi
jobs=${EVOHARNESS_FUZZ_JOBS:-1}
case $jobs in '' | *[!0-9]* | 0) echo "EVOHARNESS_FUZZ_JOBS must be a whole number > 0, got '$jobs'" >&2; exit 2 ;; esac
[ "$jobs" -eq 1 ] || flags+=(-fork="$jobs")

echo "== seed corpus and the checks it drives (cargo test)"
cargo +nightly test --quiet
echo "== build"
if [ "$#" -gt 0 ]; then
    for t in "$@"; do cargo +nightly fuzz build "${build[@]}" "$t"; done
else
    cargo +nightly fuzz build "${build[@]}"
fi

if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/evoharness-grow.XXXXXX")
trap 'rm -rf "$work"' EXIT
found() { [[ $(basename "$1") =~ ^[0-9a-f]{40}$ ]]; }

ledger=executions.tsv
[ -f "$ledger" ] || printf 'target\texecutions\tseconds\n' >"$ledger"

# As run.sh: the `policy` target also reads the ONNX fixtures and the shipped policies. Its
# inputs are mutated model files of tens of kilobytes, so nothing it finds is merged into
# corpus/ (its executions still count in the ledger).
extra_seeds() {
    case $1 in
        policy) echo ../runtime/tests/fixtures ../examples/policies ;;
    esac
}
failed=()
summary=()
for t in "${targets[@]}"; do
    echo "== fuzz $t for ${secs}s"
    mkdir -p "$work/$t/run" "$work/$t/merged"
    cp corpus/"$t"/* "$work/$t/run/"
    log="$work/$t.log"
    status=0
    began=$(date +%s)
    if [ "$secs" -gt 0 ]; then
        # shellcheck disable=SC2046 # the folders have no spaces
        cargo +nightly fuzz run "${build[@]}" "$t" "$work/$t/run" $(extra_seeds "$t") -- \
            -max_total_time="$secs" -timeout=20 -print_final_stats=1 "${flags[@]}" >"$log" 2>&1 ||
            status=$?
    else
        : >"$log"
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    if [ -z "$runs" ]; then
        runs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
    fi
    runs=${runs:-0}
    # The running total, whatever the run's outcome: the executions happened, in the time the
    # run really took (a crash ends it early).
    took=$(( $(date +%s) - began ))
    [ "$secs" -gt 0 ] || { runs=0; took=0; }
    awk -v t="$t" -v n="$runs" -v s="$took" 'BEGIN { FS = OFS = "\t" }
        NR > 1 && $1 == t { $2 += n; $3 += s; done = 1 }
        { print }
        END { if (!done) print t, n, s }' "$ledger" >"$work/ledger" && cp "$work/ledger" "$ledger"
    total=$(awk -v t="$t" -F '\t' '$1 == t { print $2 }' "$ledger")
    line="$t: $runs executions in ${took}s (${rate:-?} exec/s), $total in all"
    if [ "$status" -ne 0 ]; then
        # The whole log stays beside the reproducer: the panic message is far above its end.
        mkdir -p "artifacts/$t" && cp "$log" "artifacts/$t/run.log"
        grep -m 5 -A 2 'panicked at' "$log" || true
        tail -n 60 "$log"
        summary+=("$line: CRASHED (exit $status), nothing merged")
        failed+=("$t")
        continue
    fi
    if [ -n "$(extra_seeds "$t")" ]; then
        summary+=("$line; corpus: not merged (inputs are whole model files)")
        continue
    fi

    # The seeds first, whole; then what the run holds (the old kept inputs and the new ones),
    # a smallest set of them that adds every edge the seeds miss.
    for f in corpus/"$t"/*; do
        found "$f" || cp "$f" "$work/$t/merged/"
    done
    cargo +nightly fuzz run "${build[@]}" "$t" "$work/$t/merged" "$work/$t/run" -- \
        -set_cover_merge=1 -use_counters=0 -timeout=20 >"$work/$t.merge.log" 2>&1 || {
        tail -n 30 "$work/$t.merge.log"
        summary+=("$line: the merge failed")
        failed+=("$t")
        continue
    }
    for f in corpus/"$t"/*; do
        if found "$f"; then rm "$f"; fi
    done
    kept=0
    for f in "$work/$t/merged"/*; do
        if found "$f"; then
            cp "$f" corpus/"$t"/
            kept=$((kept + 1))
        fi
    done
    summary+=("$line; corpus: $kept kept inputs, $(cat corpus/"$t"/* | wc -c) bytes")
done

echo "== summary"
printf '%s\n' "${summary[@]}"
if [ "${#failed[@]}" -ne 0 ]; then
    echo "failed: ${failed[*]} (reproducers under fuzz/artifacts/)" >&2
    exit 1
fi
