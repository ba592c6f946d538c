#!/usr/bin/env bash
# What a crates.io user of evoharness gets: packages the published crates, serves them with their
# crates.io dependencies as the only registry, and runs tests/registry-user (a crate that
# depends on evoharness-runtime by version only) against them: a policy agent's memory stays flat
# on tract and on ONNX Runtime.
#
#   scripts/registry-check.sh
#
# 1. `cargo package --no-verify` for every workspace member that may be published (today
#    evoharness-core, -runtime, -train, -suite, -fleet, -cli and -ort-tract, vendor/ort-tract) into
#    $CARGO_TARGET_DIR/package. --no-verify: building the registry user compiles the packaged
#    core, ort-tract and runtime; a verifying `cargo package` would also compile the suite, the
#    fleet's databases and the tool, 9 minutes on 2 cores.
# 2. A directory source: the workspace's crates.io dependencies (`cargo vendor --locked`: the
#    versions of Cargo.lock, where a registry user might get newer compatible ones) and the
#    packaged crates, unpacked as crates.io would serve them.
# 3. tests/registry-user, copied out of the repository, built with crates.io replaced by that
#    source (no path into the workspace, no [patch]) and tested: tract, then ONNX Runtime (the
#    library from scripts/fetch-onnxruntime.sh unless EVOHARNESS_ORT_LIB names one).
#
# Works in $CARGO_TARGET_DIR/registry-check (replaced on every run; the vendored sources, about
# 330 MB, are removed at the end) and builds into $CARGO_TARGET_DIR/registry-user (kept, ~1 GB).
# Not into $CARGO_TARGET_DIR itself: a dependency built from the vendored copy gets the same
# file names as the workspace's build of it but another source path, so each build would
# overwrite the other's and the next workspace build would compile tract again. Cold: 2.5 to
# 4 minutes on 2 cores (tract in debug); warm: about 1.5 (our crates are rebuilt). Needs
# crates.io (cargo package resolves each crate's lock file against it).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
target="${CARGO_TARGET_DIR:-$root/target}"
work="$target/registry-check"

rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work/registry"' EXIT

# The members that may be published (no `publish = false`), as name and name-version.
cargo metadata --format-version 1 --no-deps --locked | python3 -c '
import json, sys
for p in json.load(sys.stdin)["packages"]:
    if p["publish"] is None:
        print(p["name"], p["name"] + "-" + p["version"])' >"$work/crates.txt"
pkg_args=()
while read -r name _; do pkg_args+=(-p "$name"); done <"$work/crates.txt"

echo "registry-check: packaging $(cut -d' ' -f1 "$work/crates.txt" | tr '\n' ' ')" >&2
# --allow-dirty: the check is of what the working tree would publish, committed or not. The
# warnings for the tests, benches and examples left out of the packages are expected.
cargo package --locked --no-verify --allow-dirty "${pkg_args[@]}" \
    2> >(grep -v '^warning: ignoring .* is not included in the published package$' >&2)

echo "registry-check: the registry: crates.io dependencies (Cargo.lock) and the packaged crates" >&2
cargo vendor --locked --versioned-dirs --quiet "$work/registry" >/dev/null
while read -r _ crate; do
    file="$target/package/$crate.crate"
    tar -xzf "$file" -C "$work/registry"
    # A directory source checks the unpacked files against this list (none: they come straight
    # from the .crate) and takes the package checksum as crates.io's index gives it.
    printf '{"files":{},"package":"%s"}\n' "$(sha256sum "$file" | cut -d' ' -f1)" \
        >"$work/registry/$crate/.cargo-checksum.json"
    printf '  %s.crate: %s bytes\n' "$crate" "$(stat -c %s "$file")" >&2
done <"$work/crates.txt"

# The registry user, out of the repository (no workspace above it, no lock file of ours), with
# the policy it runs.
cp -r tests/registry-user "$work/user"
cp runtime/tests/fixtures/mlp.onnx "$work/user/policy.onnx"
export CARGO_TARGET_DIR="$target/registry-user"
user=(--manifest-path "$work/user/Cargo.toml" --offline
    --config "source.crates-io.replace-with = 'registry-check'"
    --config "source.registry-check.directory = '$work/registry'")

# What it resolved: every evoharness crate from the registry, none from a path.
cargo tree "${user[@]}" --prefix none -e normal | tail -n +2 >"$work/tree.txt" # 1st: the user
if grep -E '^evoharness-.*\(/' "$work/tree.txt"; then
    echo "registry-check: FAIL: the evoharness crates above came from a path" >&2
    exit 1
fi
grep -E '^evoharness-' "$work/tree.txt" | sort -u | tee "$work/ours.txt" >&2
# Cargo takes a registry crate of a given version to be immutable and would reuse its build
# from an earlier run of this script: ours are built afresh.
clean_args=()
while read -r name _; do clean_args+=(-p "$name"); done <"$work/ours.txt"
cargo clean "${user[@]}" --quiet "${clean_args[@]}"

echo "registry-check: the memory test on tract" >&2
cargo test "${user[@]}" --test memory -- --nocapture
echo "registry-check: the memory test on ONNX Runtime" >&2
if [ -z "${EVOHARNESS_ORT_LIB:-}" ]; then
    EVOHARNESS_ORT_LIB="$(scripts/fetch-onnxruntime.sh)"
    export EVOHARNESS_ORT_LIB
fi
cargo test "${user[@]}" --test memory -- --ignored --nocapture
echo "registry-check: passed" >&2
