#!/usr/bin/env bash
# Cross-builds evoharness for a Linux Arm board and runs it there, emulated by qemu-user, next
# to the same runs on this x86-64 machine: what an agent does must not depend on the machine.
#
#   scripts/cross.sh aarch64 [--no-ort]   64-bit Arm (aarch64-unknown-linux-gnu)
#   scripts/cross.sh armv7 [--no-ort]     32-bit Arm, hard float (armv7-unknown-linux-gnueabihf);
#                                         tract only: PyPI has no ONNX Runtime for it
#   scripts/cross.sh sizes                release-size builds of the embedding library for aarch64
#
# For an architecture it builds (debug: the comparison needs no speed) the `evoharness` tool,
# libevoharness.{a,so} (the embedding API), libevoharness_train.{a,so} (with the task suite)
# and the C example (which uses the suite), for the host and for the target, and then runs each
# comparison below on both and compares what they wrote, file by file, with
# scripts/cross-compare.py (timings left out; checkpoint files byte for byte):
#
#   - `evoharness eval` of the shipped policy on the migration task (the per-run figures);
#   - `evoharness run` of a fixture policy, sampling, and its per-step trace;
#   - the C example linked statically and dynamically: its output and its checkpoint file;
#   - the same on ONNX Runtime 1.31.1 (aarch64, unless --no-ort): the x86-64 and aarch64
#     libraries from PyPI's wheels (scripts/fetch-onnxruntime.sh x86_64, and aarch64).
#
# Installs what it needs when missing (Debian: the cross compiler, the target's C and C++
# runtime, qemu-user; the Rust target through rustup), with sudo when not root. Outputs go to
# $CARGO_TARGET_DIR/cross/ (default target/cross/). Fails on the first difference.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tdir="${CARGO_TARGET_DIR:-$root/target}"
policy="$root/examples/policies/generalist.onnx"
fixture="$root/runtime/tests/fixtures/mlp.onnx"

die() { echo "cross: error: $*" >&2; exit 1; }
say() { printf '\n-- %s\n' "$*"; }

usage() { sed -n '2,8p' "$root/scripts/cross.sh" | sed 's/^# \{0,1\}//'; exit 2; }
arch="${1:-}"
[ $# -ge 1 ] || usage
shift
ort=1
for a in "$@"; do
    case "$a" in
        --no-ort) ort=0 ;;
        *) usage ;;
    esac
done

# Per architecture: the Rust target, the GNU toolchain's prefix, Debian's packages, qemu's
# program and the CPU it emulates, and the /proc/cpuinfo that CPU would show (see below).
case "$arch" in
    aarch64 | sizes)
        triple=aarch64-unknown-linux-gnu gnu=aarch64-linux-gnu
        packages=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross libstdc++6-arm64-cross qemu-user)
        qemu=qemu-aarch64 cpu=cortex-a72
        cpuinfo='Features\t: fp asimd evtstrm crc32 cpuid\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd08\nCPU revision\t: 3'
        ;;
    armv7)
        triple=armv7-unknown-linux-gnueabihf gnu=arm-linux-gnueabihf
        packages=(gcc-arm-linux-gnueabihf libc6-dev-armhf-cross qemu-user)
        qemu=qemu-arm cpu=cortex-a15
        cpuinfo='model name\t: ARMv7 Processor rev 3 (v7l)\nFeatures\t: half thumb fastmult vfp edsp neon vfpv3 tls vfpv4 idiva idivt vfpd32 lpae evtstrm\nCPU implementer\t: 0x41\nCPU architecture: 7\nCPU variant\t: 0x2\nCPU part\t: 0xc0f\nCPU revision\t: 3'
        ort=0
        ;;
    *) usage ;;
esac

say "toolchain for $triple"
missing=()
for p in "${packages[@]}"; do
    [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" == *"install ok installed"* ]] || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi
rustup target add "$triple" >/dev/null 2>&1 || rustup target add "$triple"
# Cargo's per-target settings: link with the cross gcc (which knows the target's C library),
# and build C and assembly (tract's kernels) with it too.
env_triple="$(tr 'a-z-' 'A-Z_' <<<"$triple")"
export "CARGO_TARGET_${env_triple}_LINKER=$gnu-gcc" "CC_${triple//-/_}=$gnu-gcc" \
    "AR_${triple//-/_}=$gnu-ar"

# qemu-user runs the target's programs on this machine. Its -L folder is searched first for
# every absolute path a program opens: it gives them the target's C library and loader, and a
# /proc/cpuinfo of the emulated CPU. Without that they read this machine's (x86) one, and
# ONNX Runtime's CPU detection (cpuinfo) dereferences NULL at start-up under qemu 7.2.
prefix="$tdir/cross/$arch/qemu-prefix"
mkdir -p "$prefix/proc"
ln -sfn "/usr/$gnu/lib" "$prefix/lib"
for i in $(seq 0 $(($(nproc) - 1))); do printf "processor\t: %d\n$cpuinfo\n\n" "$i"; done \
    >"$prefix/proc/cpuinfo"
on_target() { "$qemu" -cpu "$cpu" -L "$prefix" "$@"; }

# The C example's build line, the one place to adapt when its link line changes:
# c_example CC LIB_DIR static|shared OUT. It uses the task suite, so it links
# libevoharness_train (which carries the embedding API too).
c_example() {
    local cc="$1" dir="$2" link="$3" exe="$4"
    local flags=(-std=c11 -Wall -Wextra -Wpedantic -Werror -O1 examples/c/agent.c
        -Ibindings/c/include -Ibindings/train-c/include)
    if [ "$link" = static ]; then
        # shellcheck disable=SC2046 # one word per library
        "$cc" "${flags[@]}" "$dir/libevoharness_train.a" -Wl,-z,noexecstack \
            $(cat bindings/c/static-libs.txt) -o "$exe"
    else
        "$cc" "${flags[@]}" -L"$dir" -levoharness_train -Wl,-rpath,"$dir" -o "$exe"
    fi
}
# Its inputs, for relinking only when one changed.
c_example_inputs=(examples/c/agent.c bindings/c/include/evoharness.h
    bindings/train-c/include/evoharness_train.h "$root/scripts/cross.sh")

if [ "$arch" = sizes ]; then
    # The embedding library (no task suite) as a product ships it: release-size (opt-level z,
    # fat LTO, stripped, panics abort), without tract (ONNX Runtime loaded at run time only)
    # and with it (the default, built last so that release-size/ keeps it). Both share their
    # file names, so each is copied to cross/sizes/VARIANT/ before the next build.
    row() { printf '%-28s %18s %18s %14s\n' "$@"; }
    rows=()
    for variant in onnxruntime-only tract; do
        features=()
        [ "$variant" = tract ] || features=(--no-default-features)
        say "cargo build --profile release-size --target $triple -p evoharness-c ${features[*]}"
        cargo build --locked --profile release-size --target "$triple" -p evoharness-c "${features[@]}"
        keep="$tdir/cross/sizes/$variant"
        mkdir -p "$keep"
        cp "$tdir/$triple/release-size/libevoharness.so" "$tdir/$triple/release-size/libevoharness.a" "$keep/"
        # The archive holds every object with its symbols; the shared library's loaded text
        # and data are closer to what a program gains from it.
        loaded="$("$gnu-size" "$keep/libevoharness.so" | awk 'NR == 2 { print $1 + $2 }')"
        rows+=("$(row "$variant" "$(stat -c %s "$keep/libevoharness.so")" \
            "$(stat -c %s "$keep/libevoharness.a")" "$loaded")")
    done
    echo
    row "evoharness-c, $triple" "libevoharness.so" "libevoharness.a" ".so text+data"
    printf '%s\n' "${rows[@]}"
    echo "(bytes; $(rustc -V))"
    exit 0
fi

say "build the tool and the C libraries, host and $triple (debug)"
# One command for each side: cargo resolves dependency features for the packages selected, so
# separate builds of the tool and of the libraries compiled tract twice. The host side is not
# built when EVOHARNESS_BIN (a tool) and EVOHARNESS_C_LIBS (a folder with libevoharness.{a,so}
# and libevoharness_train.{a,so}, as tests/c_abi.rs reads it) name debug builds already there
# (.ci/run: what its `cargo test --workspace` built, with the whole workspace's features).
crates=(-p evoharness-cli -p evoharness-c -p evoharness-train-c)
host_tool="${EVOHARNESS_BIN:-}" host_lib="${EVOHARNESS_C_LIBS:-}" target_lib="$tdir/$triple/debug"
if [ -n "$host_tool" ] && [ -n "$host_lib" ]; then
    for f in "$host_tool" "$host_lib"/libevoharness{,_train}.{a,so}; do
        [ -f "$f" ] || { echo "EVOHARNESS_BIN / EVOHARNESS_C_LIBS: $f is missing" >&2; exit 1; }
    done
else
    cargo build --locked "${crates[@]}"
    host_tool="$tdir/debug/evoharness" host_lib="$tdir/debug"
fi
cargo build --locked "${crates[@]}" --target "$triple"

# Linking against the debug archive takes seconds: only when the program is older than its inputs.
fresh() {
    local exe="$1" dir="$2" f
    for f in "$dir/libevoharness_train.a" "$dir/libevoharness_train.so" "${c_example_inputs[@]}"; do
        [ "$exe" -nt "$f" ] || return 1
    done
}
bin="$tdir/cross/$arch/bin"
mkdir -p "$bin/host" "$bin/$arch"
for link in static shared; do
    fresh "$bin/host/agent-$link" "$host_lib" || c_example cc "$host_lib" "$link" "$bin/host/agent-$link"
    fresh "$bin/$arch/agent-$link" "$target_lib" ||
        c_example "$gnu-gcc" "$target_lib" "$link" "$bin/$arch/agent-$link"
done

host_ort="" target_ort=""
if [ "$ort" = 1 ]; then
    say "ONNX Runtime 1.31.1 for x86-64 and aarch64 (PyPI wheels)"
    host_ort="$(scripts/fetch-onnxruntime.sh x86_64)"
    target_ort="$(scripts/fetch-onnxruntime.sh aarch64)"
fi

# compare NAME PROGRAM OUTPUT ARGS...: runs PROGRAM (tool, agent-static or agent-shared) built
# for each side, with ARGS, in that side's empty folder cross/ARCH/NAME/SIDE, stdout to OUTPUT
# there; relative paths in ARGS (a trace, a checkpoint) land there too. Then compares the two
# folders.
compare() {
    local name="$1" prog="$2" output="$3"
    shift 3
    local dir="$tdir/cross/$arch/$name" side exe t0
    rm -rf "$dir"
    for side in host "$arch"; do
        mkdir -p "$dir/$side"
        case "$prog" in
            tool) [ "$side" = host ] && exe="$host_tool" || exe="$target_lib/evoharness" ;;
            *) exe="$bin/$side/$prog" ;;
        esac
        t0=$EPOCHREALTIME
        if [ "$side" = host ]; then
            (cd "$dir/$side" && EVOHARNESS_ORT_LIB="$host_ort" "$exe" "$@") \
                >"$dir/$side/$output" 2>"$dir/$side.stderr"
        else
            (cd "$dir/$side" && EVOHARNESS_ORT_LIB="$target_ort" on_target "$exe" "$@") \
                >"$dir/$side/$output" 2>"$dir/$side.stderr"
        fi || { cat "$dir/$side.stderr" >&2; die "$name failed on $side"; }
        printf '%s on %s: %s s\n' "$name" "$side" \
            "$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')"
    done
    python3 scripts/cross-compare.py "$dir/host" "$dir/$arch" | sed 's/^/  /' ||
        die "$name: $arch did not do what host did (see above)"
}

# The eval of the shipped policy, greedy: two organisations of two episodes each (each second
# episode recalls what the first noted), with its per-step trace.
eval=(eval --agent "policy:$policy" --task migration --horizon 250 --families 2 --threads 1 --json
    --trace trace.jsonl)

backends=(tract)
[ "$ort" = 1 ] && backends+=(onnxruntime)
for b in "${backends[@]}"; do
    say "compare, $b: host (x86-64) and $arch under $qemu -cpu $cpu"
    compare "eval-$b" tool eval.json "${eval[@]}" --seeds 0..4 --backend "$b"
    # A fixture policy, sampling (softmax at temperature 1, seeded), with its per-step trace.
    compare "run-$b" tool run.json run "$fixture" --temperature 1 --seed 11 --budget 200 \
        --trace trace.jsonl --json --backend "$b"
    # The C example (sampling, a checkpoint after 30 steps, resumed by a new agent).
    for link in static shared; do
        compare "c-$link-$b" "agent-$link" stdout.txt "$policy" agent.ckpt "$b"
    done
done

say "the comparison can fail: the eval with other seeds, on the host, must not compare equal"
dir="$tdir/cross/$arch/changed"
rm -rf "$dir"
mkdir -p "$dir/other"
cp -r "$tdir/cross/$arch/eval-tract/host" "$dir/host"
(cd "$dir/other" && "$host_tool" "${eval[@]}" --seeds 1..5 --backend tract) \
    >"$dir/other/eval.json"
if python3 scripts/cross-compare.py "$dir/host" "$dir/other" | sed 's/^/  /'; then
    die "seeds 1..5 compared equal to seeds 0..4: the comparison cannot see a difference"
fi
echo "expected: they differ"

say "cross $arch: the same actions and outcomes as on x86-64"
