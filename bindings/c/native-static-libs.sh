#!/usr/bin/env bash
# Prints the system libraries that a static link of libevoharness.a needs, as rustc reports them
# for this crate's dependency graph (`--print native-static-libs`). static-libs.txt keeps the
# list that the pkg-config and CMake files ship; `--check` fails when the two differ.
#
#   bindings/c/native-static-libs.sh [--check]
#
# Builds the library (dev profile) with cargo; uses $CARGO_TARGET_DIR like any cargo command.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/../.."
out="$(cargo rustc --locked -p evoharness-c --lib --crate-type staticlib -- \
    --print native-static-libs 2>&1)" || { echo "$out" >&2; exit 1; }
libs="$(printf '%s\n' "$out" | sed -n 's/^note: native-static-libs: //p' | tail -n 1)"
[ -n "$libs" ] || { echo "$out" >&2; echo "no native-static-libs line" >&2; exit 1; }
echo "$libs"
if [ "${1:-}" = "--check" ]; then
    want="$(tr -s ' \n' ' ' < "$here/static-libs.txt" | sed 's/ $//')"
    if [ "$libs" != "$want" ]; then
        echo "bindings/c/static-libs.txt says: $want" >&2
        echo "rustc says:                      $libs" >&2
        echo "update static-libs.txt (it feeds the pkg-config and CMake files)" >&2
        exit 1
    fi
    echo "bindings/c/static-libs.txt matches"
fi
