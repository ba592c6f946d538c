"""Prints README.md's table from criterion's estimates and python_ort.py's JSON.

    python3 runtime/benches/table.py [--criterion target/criterion] [--python FILE]

Medians in microseconds; ratios of medians. Only the standard library.
"""

import argparse
import json
import pathlib

MODELS = ("mlp", "recurrent")


def median_us(criterion, backend, bench, model):
    f = criterion / backend / f"{bench} {model}" / "new" / "estimates.json"
    if not f.exists():
        return None
    return json.loads(f.read_text())["median"]["point_estimate"] / 1000


def fmt(x, unit=""):
    return "n/a" if x is None else f"{x:.2f}{unit}"


def ratio(a, b):
    return None if a is None or b is None else a / b


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--criterion", default="target/criterion", type=pathlib.Path)
    ap.add_argument("--python", type=pathlib.Path, help="python_ort.py --json output")
    args = ap.parse_args()
    py = json.loads(args.python.read_text()) if args.python else {}

    print("| model | measured | tract | ONNX Runtime (Rust) | ONNX Runtime (Python) "
          "| tract / ORT Rust | ORT Rust / ORT Python |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for model in MODELS:
        for bench, what in (("policy_run", "`Policy::run`"), ("agent_step", "`Agent::step`")):
            tract = median_us(args.criterion, "tract", bench, model)
            ort = median_us(args.criterion, "onnxruntime", bench, model)
            python = py.get(model) / 1000 if bench == "policy_run" and model in py else None
            print(f"| {model} | {what} | {fmt(tract, ' µs')} | {fmt(ort, ' µs')} "
                  f"| {fmt(python, ' µs') if bench == 'policy_run' else '—'} "
                  f"| {fmt(ratio(tract, ort), '×')} "
                  f"| {fmt(ratio(ort, python), '×') if bench == 'policy_run' else '—'} |")


if __name__ == "__main__":
    main()
