#!/usr/bin/env bash
# The soak: an agent that writes a checkpoint every 100 steps runs a task of 10^6 steps while
# it is killed with SIGKILL at 100 random points; every process after a kill resumes from the
# last checkpoint. It passes when every record was copied exactly once and the final
# checkpoint is byte-identical to the one of a run that was never killed.
#
#   scripts/soak.sh                          # 10^6 steps, a checkpoint every 100, 100 kills
#   EVOHARNESS_SOAK_STEPS=100000 EVOHARNESS_SOAK_KILLS=20 scripts/soak.sh
#   EVOHARNESS_CRASH_SEED=0x1234 scripts/soak.sh   # another (or a failed run's) kill schedule
#
# It is the ignored test `soak` in runtime/tests/crash.rs (the machinery of the default
# `the_task_survives_sigkill`, at full size), built with optimisations: the release profile
# without its fat LTO and single codegen unit, which cost minutes of build and change nothing
# the soak checks. Prints the build time, the test's figures and its run time.
set -euo pipefail
cd "$(dirname "$0")/.."

export EVOHARNESS_SOAK_STEPS=${EVOHARNESS_SOAK_STEPS:-1000000}
export EVOHARNESS_SOAK_EVERY=${EVOHARNESS_SOAK_EVERY:-100}
export EVOHARNESS_SOAK_KILLS=${EVOHARNESS_SOAK_KILLS:-100}
export CARGO_PROFILE_BENCH_LTO=false CARGO_PROFILE_BENCH_CODEGEN_UNITS=16
test=(cargo test --release --locked -p evoharness-runtime --test crash)

echo "== build (release, no LTO)"
t0=$(date +%s)
"${test[@]}" --no-run
t1=$(date +%s)
echo "built in $((t1 - t0)) s"

echo "== soak: $EVOHARNESS_SOAK_STEPS steps, a checkpoint every $EVOHARNESS_SOAK_EVERY, $EVOHARNESS_SOAK_KILLS SIGKILLs"
"${test[@]}" -- --ignored --exact soak --nocapture
t2=$(date +%s)
echo "soak passed in $((t2 - t1)) s (build $((t1 - t0)) s)"
