#!/usr/bin/env bash
# Fetches the ONNX Runtime shared library that the runtime's ORT backend loads at run time
# (ort with `load-dynamic`), for one architecture of Linux:
#
#   scripts/fetch-onnxruntime.sh [x86_64|aarch64]
#
#   x86_64 (the default): the host's library, which the runtime, the tests and the CLI look for,
#     into the git-ignored third_party/onnxruntime/lib/. Linux x86_64 hosts only, since that is
#     where it is loaded.
#   aarch64: 64-bit Arm Linux, for cross-built programs run under qemu-aarch64 by
#     scripts/cross.sh, into the git-ignored third_party/onnxruntime-aarch64/lib/. Runs on any
#     machine (it only downloads and unpacks); the library needs an aarch64 libstdc++ (Debian:
#     libstdc++6-arm64-cross) at run time.
#
# Either way the folder then holds
#
#   libonnxruntime.so.1.31.1
#   libonnxruntime.so -> libonnxruntime.so.1.31.1
#
# The library comes from the onnxruntime wheel on PyPI (the only registry reachable from CI;
# 1.31.1 is published for both architectures as manylinux_2_28) and is checked against a pinned
# sha256; the .so inside does not use Python, so the wheel's CPython tag does not matter.
# Idempotent: when the library is already there with the expected sha256, nothing is
# downloaded. Prints the library's path on stdout (messages go to stderr), so
#
#   export EVOHARNESS_ORT_LIB="$(scripts/fetch-onnxruntime.sh)"
#
# works. Needs python3 with pip (set PYTHON to choose another interpreter).
set -euo pipefail

ORT_VERSION=1.31.1
WHEEL_PYTHON=3.11
arch="${1:-x86_64}"
# Per architecture: the sha256 of onnxruntime/capi/libonnxruntime.so.$ORT_VERSION in the wheel
# named, the wheel's platform tag and where the library goes. Update the sums together with
# ORT_VERSION.
case "$arch" in
    x86_64)
        # onnxruntime-1.31.1-cp311-cp311-manylinux_2_28_x86_64.whl (29,352,200 bytes).
        ORT_SHA256=fc44112fbe06d7d689c57e11d3862031f64711007e4ee020f8eed5185fd2c1d3
        folder=onnxruntime
        ;;
    aarch64)
        # onnxruntime-1.31.1-cp311-cp311-manylinux_2_28_aarch64.whl (25,265,040 bytes; the
        # wheel's own sha256 is da05378364c44d4407e463982d2bf8d5e4cfea873283757e48beeb41df97b7f3).
        ORT_SHA256=8aa3b76b28c778a2b1dd660d34161adb1d508c9ccd04ff9dc80e26eca5df8467
        folder=onnxruntime-aarch64
        ;;
    *)
        echo "fetch-onnxruntime: error: unknown architecture '$arch' (x86_64 or aarch64)" >&2
        exit 2
        ;;
esac
WHEEL_PLATFORM="manylinux_2_28_$arch"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$root/third_party/$folder/lib"
lib="libonnxruntime.so.$ORT_VERSION"
python="${PYTHON:-python3}"

die() { echo "fetch-onnxruntime ($arch): error: $*" >&2; exit 1; }
say() { echo "fetch-onnxruntime ($arch): $*" >&2; }
sha256() { sha256sum "$1" | cut -d' ' -f1; }

finish() {
    ln -sfn "$lib" "$dest/libonnxruntime.so"
    echo "$dest/$lib"
    exit 0
}

if [ "$arch" = x86_64 ]; then
    [ "$(uname -s)/$(uname -m)" = "Linux/x86_64" ] \
        || die "the host's library is for Linux x86_64 only (this is $(uname -s)/$(uname -m))"
fi

if [ -f "$dest/$lib" ]; then
    if [ "$(sha256 "$dest/$lib")" = "$ORT_SHA256" ]; then
        say "$lib already present"
        finish
    fi
    say "$dest/$lib has an unexpected sha256; fetching it again"
fi

command -v "$python" >/dev/null || die "$python not found (set PYTHON to a Python 3 with pip)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

say "downloading the onnxruntime $ORT_VERSION wheel ($WHEEL_PLATFORM) from PyPI"
"$python" -m pip download --quiet --disable-pip-version-check --no-cache-dir --no-deps \
    --only-binary=:all: --platform "$WHEEL_PLATFORM" --python-version "$WHEEL_PYTHON" \
    --implementation cp -d "$tmp" "onnxruntime==$ORT_VERSION" >&2 \
    || die "pip download of onnxruntime==$ORT_VERSION ($WHEEL_PLATFORM, Python $WHEEL_PYTHON) failed"

wheels=("$tmp"/onnxruntime-"$ORT_VERSION"-*.whl)
[ -f "${wheels[0]}" ] || die "pip reported success but left no onnxruntime-$ORT_VERSION wheel"

"$python" - "${wheels[0]}" "onnxruntime/capi/$lib" "$tmp/$lib" <<'PY' \
    || die "could not extract onnxruntime/capi/$lib from $(basename "${wheels[0]}")"
import shutil, sys, zipfile
wheel, member, out = sys.argv[1:]
with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(out, "wb") as dst:
    shutil.copyfileobj(src, dst)
PY

got="$(sha256 "$tmp/$lib")"
[ "$got" = "$ORT_SHA256" ] \
    || die "$lib from $(basename "${wheels[0]}") has sha256 $got, expected $ORT_SHA256"

mkdir -p "$dest"
chmod 0755 "$tmp/$lib"
mv -f "$tmp/$lib" "$dest/$lib.partial"
mv -f "$dest/$lib.partial" "$dest/$lib"
say "installed $lib"
finish
