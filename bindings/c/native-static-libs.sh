#!/usr/bin/env bash
# Prints the system libraries that a static link of libevoharness.a (and of
# libevoharness_train.a, which must need the same) needs, as rustc reports them for each
# crate's dependency graph (`--print native-static-libs`). static-libs.txt keeps the list that
# the pkg-config and CMake files ship; `--check` fails when they differ.
#
#   bindings/c/native-static-libs.sh [--check]
#
# Builds the libraries (dev profile) with cargo; uses $CARGO_TARGET_DIR like any cargo command.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/../.."
want="$(tr -s ' \n' ' ' < "$here/static-libs.txt" | sed 's/ $//')"
status=0
for package in evoharness-c evoharness-train-c; do
    out="$(cargo rustc --locked -p "$package" --lib --crate-type staticlib -- \
        --print native-static-libs 2>&1)" || { echo "$out" >&2; exit 1; }
    libs="$(printf '%s\n' "$out" | sed -n 's/^note: native-static-libs: //p' | tail -n 1)"
    [ -n "$libs" ] || { echo "$out" >&2; echo "no native-static-libs line" >&2; exit 1; }
    echo "$package: $libs"
    if [ "${1:-}" = "--check" ] && [ "$libs" != "$want" ]; then
        echo "bindings/c/static-libs.txt says: $want" >&2
        echo "rustc says for $package:  $libs" >&2
        status=1
    fi
done
if [ "${1:-}" = "--check" ]; then
    if [ "$status" != 0 ]; then
        echo "update static-libs.txt (it feeds the pkg-config and CMake files)" >&2
        exit 1
    fi
    echo "bindings/c/static-libs.txt matches"
fi
