#!/usr/bin/env bash
# Installs the C library for use without cargo: headers, libevoharness.{a,so}, pkg-config files
# (evoharness, evoharness-static) and a CMake config (evoharness::evoharness,
# evoharness::evoharness_static, evoharness::cpp), all relocatable.
#
#   cargo build --release -p evoharness-c
#   bindings/c/install.sh PREFIX [LIB_DIR]
#
# LIB_DIR holds the built libevoharness.a and libevoharness.so (default: the release folder of
# $CARGO_TARGET_DIR, else of target/). The result:
#
#   PREFIX/include/evoharness.h, PREFIX/include/evoharness.hpp
#   PREFIX/lib/libevoharness.a, PREFIX/lib/libevoharness.so
#   PREFIX/lib/pkgconfig/evoharness.pc, PREFIX/lib/pkgconfig/evoharness-static.pc
#   PREFIX/lib/cmake/evoharness/evoharness-config.cmake (and -config-version.cmake)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
prefix="$1"
libdir="${2:-${CARGO_TARGET_DIR:-$root/target}/release}"
for lib in libevoharness.a libevoharness.so; do
    [ -f "$libdir/$lib" ] || {
        echo "install.sh: $libdir/$lib is missing (cargo build --release -p evoharness-c)" >&2
        exit 1
    }
done

# One source for each fact: the version is the workspace's, the system libraries a static link
# needs are static-libs.txt (checked against rustc by tests/c_abi.rs and .ci/run).
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$root/Cargo.toml" | head -n 1)"
static_libs="$(tr -s ' \n' ' ' < "$here/static-libs.txt" | sed 's/ $//')"
fill() { sed -e "s|@VERSION@|$version|g" -e "s|@STATIC_LIBS@|$static_libs|g" "$1" > "$2"; }

mkdir -p "$prefix/include" "$prefix/lib/pkgconfig" "$prefix/lib/cmake/evoharness"
install -m 0644 "$here/include/evoharness.h" "$root/bindings/cpp/include/evoharness.hpp" \
    "$prefix/include/"
install -m 0644 "$libdir/libevoharness.a" "$prefix/lib/"
install -m 0755 "$libdir/libevoharness.so" "$prefix/lib/"
fill "$here/pkgconfig/evoharness.pc.in" "$prefix/lib/pkgconfig/evoharness.pc"
fill "$here/pkgconfig/evoharness-static.pc.in" "$prefix/lib/pkgconfig/evoharness-static.pc"
fill "$here/cmake/evoharness-config.cmake.in" "$prefix/lib/cmake/evoharness/evoharness-config.cmake"
fill "$here/cmake/evoharness-config-version.cmake.in" \
    "$prefix/lib/cmake/evoharness/evoharness-config-version.cmake"
echo "installed evoharness $version in $prefix"
