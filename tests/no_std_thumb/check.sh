#!/usr/bin/env bash
# The honest no_std check: links evoharness-core (no default features) into a Cortex-M
# firmware image that has no global allocator, prints its code size against a baseline image
# without core, and proves the check can fail: the same image with core's `alloc` feature and a
# `HeapWorkspace` must not build. See README.md. Idempotent; installs what it needs via rustup.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

target=thumbv7em-none-eabihf
target_dir="${CARGO_TARGET_DIR:-$here/target}"
cargo_args=(--release --locked --target "$target" --target-dir "$target_dir")

if command -v rustup >/dev/null; then
    rustup target add "$target" >/dev/null 2>&1 || rustup target add "$target"
    rustup component add llvm-tools >/dev/null 2>&1 ||
        rustup component add llvm-tools-preview
fi
host="$(rustc -vV | sed -n 's/^host: //p')"
llvm_size="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-size"
[[ -x "$llvm_size" ]] || { echo "no llvm-size at $llvm_size (rustup component add llvm-tools)" >&2; exit 1; }

echo "== lint"
cargo fmt --check
cargo clippy "${cargo_args[@]}" -- -D warnings

echo "== build (opt-level z, fat LTO), no #[global_allocator]"
cargo build "${cargo_args[@]}"
bin="$target_dir/$target/release"

# Prints "<vector_table> <text> <rodata> <data> <bss>" for an ELF image.
sections() {
    "$llvm_size" -A "$1" | awk '
        $1 == ".vector_table" { v = $2 } $1 == ".text" { t = $2 } $1 == ".rodata" { r = $2 }
        $1 == ".data" { d = $2 } $1 == ".bss" { b = $2 }
        END { print v + 0, t + 0, r + 0, d + 0, b + 0 }'
}
read -r bv bt br bd bb < <(sections "$bin/baseline")
read -r fv ft fr fd fb < <(sections "$bin/firmware")
row() { printf '%-22s %8s %8s %8s %8s %8s %8s\n' "$@"; }
row image .vector .text .rodata .data .bss flash
row baseline "$bv" "$bt" "$br" "$bd" "$bb" $((bv + bt + br + bd))
row firmware "$fv" "$ft" "$fr" "$fd" "$fb" $((fv + ft + fr + fd))
row "core + this use of it" $((fv - bv)) $((ft - bt)) $((fr - br)) $((fd - bd)) $((fb - bb)) \
    $((fv + ft + fr + fd - bv - bt - br - bd))
echo "(flash = .vector_table + .text + .rodata + .data; bytes; $("$llvm_size" --version | sed -n 's/.*LLVM version /LLVM /p'), $(rustc -V))"

echo "== the check can fail: core's alloc feature without an allocator"
# An rlib build for the target does not notice: core with `alloc` builds fine as a library.
cargo build "${cargo_args[@]}" --lib --features _alloc_canary
# The final image does.
if out="$(cargo build "${cargo_args[@]}" --bin firmware --features _alloc_canary 2>&1)"; then
    echo "FAIL: the image with core's alloc feature and a HeapWorkspace linked without an allocator" >&2
    exit 1
fi
if ! grep -q "no global memory allocator found" <<<"$out"; then
    echo "FAIL: the _alloc_canary build failed, but not for the missing allocator:" >&2
    echo "$out" >&2
    exit 1
fi
grep -m1 "no global memory allocator found" <<<"$out" | sed 's/^/expected: /'

echo "no_std thumb check: ok"
