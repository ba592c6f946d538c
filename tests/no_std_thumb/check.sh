#!/usr/bin/env bash
# The honest no_std check: links evoharness-core (no default features) into a Cortex-M
# firmware image that has no global allocator, prints its code size against a baseline image
# without core and fails past the flash budget, runs the scripted episode on a Cortex-M4F
# under qemu-system-arm and requires the host's checksum, measures its peak stack, and proves
# the checks can fail: the same image with core's `alloc` feature and a `HeapWorkspace` must not
# build, and a changed script must not give the device's checksum. See README.md. Idempotent;
# installs what it needs via rustup, and qemu-system-arm via apt-get when it is missing.
set -euo pipefail

# The budgets, in bytes: the firmware image's flash (.vector_table + .text + .rodata + .data),
# and the peak stack of the scripted episode with the suite's capacities (its whole RAM: it has
# no statics). Raise one only on purpose, with the reason in the commit.
FLASH_BUDGET=$((52 * 1024))
STACK_BUDGET=$((32 * 1024))

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
if ! command -v qemu-system-arm >/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo apt-get install -y --no-install-recommends qemu-system-arm
fi
llvm_size="$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-size"
[[ -x "$llvm_size" ]] || { echo "no llvm-size at $llvm_size (rustup component add llvm-tools)" >&2; exit 1; }

echo "== lint"
cargo fmt --check
cargo clippy "${cargo_args[@]}" -- -D warnings
# The library and the episode's host run build for the host too.
host_args=(--release --locked --target "$host" --target-dir "$target_dir")
cargo clippy "${host_args[@]}" --examples -- -D warnings

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
for set in suite large; do
    read -r v t r d b < <(sections "$bin/episode_$set")
    row "episode_$set" "$v" "$t" "$r" "$d" "$b" $((v + t + r + d))
done
echo "(flash = .vector_table + .text + .rodata + .data; bytes; $("$llvm_size" --version | sed -n 's/.*LLVM version /LLVM /p'), $(rustc -V))"
flash=$((fv + ft + fr + fd))
if [ "$flash" -gt "$FLASH_BUDGET" ]; then
    echo "FAIL: the firmware image takes $flash bytes of flash, over its budget of $FLASH_BUDGET" >&2
    exit 1
fi
echo "firmware flash: $flash bytes, within the budget of $FLASH_BUDGET"

echo "== the scripted episode on a Cortex-M4F (qemu-system-arm, mps2-an386) and on the host"
# Each image prints "episode SET: checksum ..." and "stack SET: N bytes at most, ..." over
# semihosting and ends qemu with its status; the host's run prints the same "episode" lines.
device=""
for set in suite large; do
    t0=$EPOCHREALTIME
    out="$(timeout 120 qemu-system-arm -M mps2-an386 -cpu cortex-m4 -nographic -monitor none \
        -serial none -chardev stdio,id=semihosting \
        -semihosting-config enable=on,target=native,chardev=semihosting \
        -kernel "$bin/episode_$set" </dev/null 2>&1)" ||
        { echo "$out" >&2; echo "FAIL: episode_$set under qemu-system-arm" >&2; exit 1; }
    echo "$out"
    echo "(qemu: $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s)"
    device+="$(grep '^episode ' <<<"$out")"$'\n'
    if [ "$set" = suite ]; then
        stack="$(sed -n 's/^stack suite .*: \([0-9]*\) bytes at most.*/\1/p' <<<"$out")"
        [ -n "$stack" ] || { echo "FAIL: episode_suite printed no stack figure" >&2; exit 1; }
        if [ "$stack" -gt "$STACK_BUDGET" ]; then
            echo "FAIL: the suite episode's peak stack is $stack bytes, over its budget of $STACK_BUDGET" >&2
            exit 1
        fi
    fi
done
host_run() {
    cargo run --quiet "${host_args[@]}" --example episode_host "$@"
}
host_out="$(host_run)"$'\n'
if [ "$host_out" != "$device" ]; then
    echo "FAIL: the host's episode differs from the device's" >&2
    diff <(echo "$device") <(echo "$host_out") >&2 || true
    exit 1
fi
echo "host: the same checksums"
echo "suite episode peak stack: $stack bytes, within the budget of $STACK_BUDGET"

echo "== the check can fail: a changed script gives other checksums"
changed="$(host_run --features _changed_script 2>/dev/null)"$'\n'
echo -n "$changed"
# Every line must differ (the change is in the middle of every set's episode).
if [ -n "$(comm -12 <(sort <<<"$changed") <(sort <<<"$device") | grep .)" ]; then
    echo "FAIL: a changed script gave a device checksum" >&2
    exit 1
fi
echo "expected: every checksum differs from the device's"

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
