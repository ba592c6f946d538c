#!/usr/bin/env bash
# The artefact of README.md without tract: unswitch.rs (tract's `all_equal` over `DatumType`, in
# 40 lines) built three ways with the toolchain in use, each run under valgrind memcheck. Passes
# when valgrind reports the jump at -O3 and nothing at -O2 or at -O3 with LLVM's non-trivial loop
# unswitching turned off (`-unswitch-threshold=0`), and each build prints `all equal: true`.
# If -O3 stops reporting, the toolchain no longer unswitches this loop: the suppressions in
# release.supp and dist.supp may be stale (the C ABI test fails on one that matches nothing).
#
#   bindings/c/tests/valgrind-optimised/reproduce.sh [OUT_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$(mktemp -d)}"
mkdir -p "$out"

run() { # NAME RUSTC_FLAGS... ; prints valgrind's error count for the build
    local name="$1"
    shift
    rustc --edition 2021 -C debuginfo=line-tables-only "$@" "$here/unswitch.rs" -o "$out/$name"
    valgrind --track-origins=yes --error-exitcode=0 "$out/$name" >"$out/$name.stdout" 2>"$out/$name.stderr"
    grep -qx 'all equal: true' "$out/$name.stdout"
    sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors from \([0-9]*\) contexts.*/\1 \2/p' "$out/$name.stderr"
}

o3="$(run o3 -C opt-level=3)"
o2="$(run o2 -C opt-level=2)"
o3_kept="$(run o3-no-unswitch -C opt-level=3 -C llvm-args=-unswitch-threshold=0)"
echo "valgrind errors (errors contexts): -O3: $o3; -O2: $o2; -O3 without unswitching: $o3_kept"

fail() { echo "FAIL: $1 (valgrind's report: $out)" >&2; exit 1; }
[ "$o2" = "0 0" ] || fail "-O2 should be clean"
[ "$o3_kept" = "0 0" ] || fail "-O3 without loop unswitching should be clean"
[ "${o3#* }" = "1" ] || fail "-O3 should report one context (the unswitched loop)"
grep -q 'Conditional jump or move depends on uninitialised value' "$out/o3.stderr" || fail "-O3: not the jump"
grep -q 'Uninitialised value was created by a stack allocation' "$out/o3.stderr" || fail "-O3: not the stack slot"
# In LLVM's IR the unswitched condition is frozen (`freeze`: an arbitrary but fixed value, so the
# branch is defined behaviour); valgrind has no notion of freeze.
rustc --edition 2021 -C opt-level=3 --emit=llvm-ir "$here/unswitch.rs" -o "$out/o3.ll"
# (To a file first: `awk | grep -q` under pipefail fails when grep exits before awk is done.)
awk '/^define .*unswitch5check/,/^}/' "$out/o3.ll" >"$out/o3-check.ll"
grep -q ' = freeze i32 ' "$out/o3-check.ll" || fail "-O3: no freeze in check()"
echo "reproduced: the jump exists only where LLVM unswitched the loop, on a frozen value"
