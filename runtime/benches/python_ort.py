"""Python ONNX Runtime on the same fixture policies and inputs as `step.rs`'s `policy_run`.

Times `InferenceSession.run` (CPU execution provider, ORT_ENABLE_ALL, one intra-op thread, the
settings of reference.json) on the first reference case of each model, criterion-style: the
median over samples of the mean time per call within each sample. Run from the repository root
with the venv `runtime/tests/fixtures/make_fixtures.sh` creates:

    .venv/bin/python runtime/benches/python_ort.py

Prints one line per model; `--json FILE` also writes the medians (ns) for `table.py`.
"""

import argparse
import json
import pathlib
import statistics
import time

import numpy as np
import onnxruntime as ort

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures"
SAMPLES = 100
SAMPLE_SECONDS = 0.05


def session(model):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    return ort.InferenceSession(
        str(FIXTURES / model), so, providers=["CPUExecutionProvider"]
    )


def median_ns(run):
    # Warm up, then size samples to about SAMPLE_SECONDS each.
    t0 = time.perf_counter()
    n = 0
    while time.perf_counter() - t0 < 0.5:
        run()
        n += 1
    per_sample = max(1, int(n / 0.5 * SAMPLE_SECONDS))
    means = []
    for _ in range(SAMPLES):
        t0 = time.perf_counter_ns()
        for _ in range(per_sample):
            run()
        means.append((time.perf_counter_ns() - t0) / per_sample)
    return statistics.median(means)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write {model: median ns} here")
    args = ap.parse_args()
    ref = json.loads((FIXTURES / "reference.json").read_text())
    assert ref["onnxruntime"] == ort.__version__, (ref["onnxruntime"], ort.__version__)
    medians = {}
    for model in ("mlp.onnx", "recurrent.onnx"):
        case = ref["models"][model]["cases"][0]
        feeds = {
            k: np.asarray(v, dtype=np.float32).reshape(1, -1)
            for k, v in case["inputs"].items()
        }
        s = session(model)
        # The same outputs as the reference: the inputs are the ones step.rs feeds.
        got = s.run(["logits"], feeds)[0].reshape(-1)
        want = np.asarray(case["outputs"]["logits"], dtype=np.float32)
        assert np.array_equal(got, want), model
        ns = median_ns(lambda: s.run(None, feeds))
        medians[model.removesuffix(".onnx")] = ns
        print(f"python onnxruntime {ort.__version__} {model}: InferenceSession.run median {ns / 1000:.2f} us")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(medians, indent=1) + "\n")


if __name__ == "__main__":
    main()
