#!/usr/bin/env bash
# Installs the C libraries for use without cargo: headers, libraries, pkg-config files and a
# CMake config, all relocatable. libevoharness (the embedding API) is required; the training kit's
# libevoharness_train (a superset: link one of the two) is installed too when it was built.
#
#   cargo build --profile dist -p evoharness-c [-p evoharness-train-c]
#   bindings/c/install.sh PREFIX [LIB_DIR]
#
# LIB_DIR holds the built libraries (default: the dist folder of $CARGO_TARGET_DIR, else of
# target/: the profile for what hosts ship; a --release build is in release/). The result:
#
#   PREFIX/include/evoharness.h, evoharness.hpp        (and evoharness_train.h, .hpp)
#   PREFIX/lib/libevoharness.{a,so}                    (and libevoharness_train.{a,so})
#   PREFIX/lib/pkgconfig/evoharness.pc, evoharness-static.pc
#                                                      (and evoharness-train{,-static}.pc)
#   PREFIX/lib/cmake/evoharness/evoharness-config.cmake (and -config-version.cmake)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
train="$root/bindings/train-c"
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
prefix="$1"
libdir="${2:-${CARGO_TARGET_DIR:-$root/target}/dist}"
for lib in libevoharness.a libevoharness.so; do
    [ -f "$libdir/$lib" ] || {
        echo "install.sh: $libdir/$lib is missing (cargo build --profile dist -p evoharness-c)" >&2
        exit 1
    }
done
with_train=0
if [ -f "$libdir/libevoharness_train.a" ] && [ -f "$libdir/libevoharness_train.so" ]; then
    with_train=1
fi

# One source for each fact: the version is the C library's (its ABI version), the system
# libraries a static link needs are static-libs.txt (checked against rustc by
# native-static-libs.sh, which .ci/run runs).
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$here/Cargo.toml" | head -n 1)"
static_libs="$(tr -s ' \n' ' ' < "$here/static-libs.txt" | sed 's/ $//')"
fill() { sed -e "s|@VERSION@|$version|g" -e "s|@STATIC_LIBS@|$static_libs|g" "$1" > "$2"; }

mkdir -p "$prefix/include" "$prefix/lib/pkgconfig" "$prefix/lib/cmake/evoharness"
install -m 0644 "$here/include/evoharness.h" "$root/bindings/cpp/include/evoharness.hpp" \
    "$prefix/include/"
install -m 0644 "$libdir/libevoharness.a" "$prefix/lib/"
install -m 0755 "$libdir/libevoharness.so" "$prefix/lib/"
fill "$here/pkgconfig/evoharness.pc.in" "$prefix/lib/pkgconfig/evoharness.pc"
fill "$here/pkgconfig/evoharness-static.pc.in" "$prefix/lib/pkgconfig/evoharness-static.pc"
if [ "$with_train" = 1 ]; then
    install -m 0644 "$train/include/evoharness_train.h" \
        "$root/bindings/cpp/include/evoharness_train.hpp" "$prefix/include/"
    install -m 0644 "$libdir/libevoharness_train.a" "$prefix/lib/"
    install -m 0755 "$libdir/libevoharness_train.so" "$prefix/lib/"
    fill "$train/pkgconfig/evoharness-train.pc.in" "$prefix/lib/pkgconfig/evoharness-train.pc"
    fill "$train/pkgconfig/evoharness-train-static.pc.in" \
        "$prefix/lib/pkgconfig/evoharness-train-static.pc"
fi
fill "$here/cmake/evoharness-config.cmake.in" "$prefix/lib/cmake/evoharness/evoharness-config.cmake"
fill "$here/cmake/evoharness-config-version.cmake.in" \
    "$prefix/lib/cmake/evoharness/evoharness-config-version.cmake"
if [ "$with_train" = 1 ]; then
    echo "installed evoharness $version (libevoharness and libevoharness_train) in $prefix"
else
    echo "installed evoharness $version (libevoharness) in $prefix"
fi
