#!/usr/bin/env bash
# Fetches ONNX Runtime's shared library for 64-bit Arm Linux (aarch64), for cross-built
# programs run under qemu-aarch64 by scripts/cross.sh, into the git-ignored
# third_party/onnxruntime-aarch64/lib/:
#
#   libonnxruntime.so.1.31.1
#   libonnxruntime.so -> libonnxruntime.so.1.31.1
#
# The twin of fetch-onnxruntime.sh (x86-64), the same way: the library comes from the
# onnxruntime wheel on PyPI (1.31.1 is published for aarch64 only as manylinux_2_28; the .so does
# not use Python, so the CPython tag does not matter) and is checked against a pinned sha256.
# Runs on any machine (it only downloads and unpacks). Idempotent: nothing is downloaded when
# the library is there with the expected sha256. Prints the library's path on stdout (messages
# go to stderr). Needs python3 with pip (set PYTHON to choose another interpreter).
#
# The library needs an aarch64 libstdc++ (Debian: libstdc++6-arm64-cross) at run time.
set -euo pipefail

ORT_VERSION=1.31.1
# sha256 of onnxruntime/capi/libonnxruntime.so.$ORT_VERSION in
# onnxruntime-1.31.1-cp311-cp311-manylinux_2_28_aarch64.whl (25,265,040 bytes; the wheel's own
# sha256 is da05378364c44d4407e463982d2bf8d5e4cfea873283757e48beeb41df97b7f3).
# Update it together with ORT_VERSION.
ORT_SHA256=8aa3b76b28c778a2b1dd660d34161adb1d508c9ccd04ff9dc80e26eca5df8467
WHEEL_PLATFORM=manylinux_2_28_aarch64
WHEEL_PYTHON=3.11

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$root/third_party/onnxruntime-aarch64/lib"
lib="libonnxruntime.so.$ORT_VERSION"
python="${PYTHON:-python3}"

die() { echo "fetch-onnxruntime-aarch64: error: $*" >&2; exit 1; }
say() { echo "fetch-onnxruntime-aarch64: $*" >&2; }
sha256() { sha256sum "$1" | cut -d' ' -f1; }

finish() {
    ln -sfn "$lib" "$dest/libonnxruntime.so"
    echo "$dest/$lib"
    exit 0
}

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
