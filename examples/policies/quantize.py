"""Makes generalist-int8.onnx, the shipped policy with its weights quantized to int8 (ONNX
Runtime's dynamic quantization: int8 weights, activations quantized per run), and measures how
often it picks the f32 policy's action on held-out suite states.

    python examples/policies/quantize.py [--check | --time]

Needs the training requirements (onnx, onnxruntime, numpy; examples/train/requirements.txt) and
the training library (EVOHARNESS_LIB, as for the Python package). Writes generalist-int8.onnx and
the record generalist-int8.json beside this file; --check makes the file again and compares it
with the committed one byte for byte, and measures the agreement against the bar (99.9%). The file's metadata
(the structured-v1 contract) is the f32 file's: the runtime loads either on tract or ONNX
Runtime.
"""

import argparse
import json
import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.quantization import QuantType, quantize_dynamic

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bindings", "python"))
from evoharness import VecEnv  # noqa: E402

SRC = os.path.join(HERE, "generalist.onnx")
OUT = os.path.join(HERE, "generalist-int8.onnx")
RECORD = os.path.join(HERE, "generalist-int8.json")
# Held out: organisations and seeds no training run uses (examples/train/README.md).
ORGANISATIONS = range(20000, 20016)
SEED = 3000000
HORIZON = 250
STEPS = 1000  # per environment, 16 environments per task


def quantize(out: str) -> None:
    quantize_dynamic(SRC, out, weight_type=QuantType.QInt8)
    # quantize_dynamic keeps the metadata; say what made the file.
    m = onnx.load(out)
    # Batch 1: dynamic quantization scales the activations over the whole tensor, so rows run
    # together would change one another's results. A fleet runs this file once per agent.
    for v in [*m.graph.input, *m.graph.output, *m.graph.value_info]:
        dims = v.type.tensor_type.shape.dim
        if dims and dims[0].dim_param == "batch":
            dims[0].dim_value = 1
    props = {p.key: p for p in m.metadata_props}
    note = "int8 (dynamic quantization, onnxruntime " + ort.__version__ + ") of generalist.onnx"
    if "evoharness.producer" in props:
        props["evoharness.producer"].value = props["evoharness.producer"].value + "; " + note
    onnx.save(m, out)


def agreement(f32: str, int8: str) -> dict:
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    a = ort.InferenceSession(f32, opts)
    b = ort.InferenceSession(int8, opts)
    out = {}
    for task in ("migration", "records", "orchestration"):
        env = VecEnv(task, HORIZON, 16, organisations=ORGANISATIONS, seed=SEED)
        obs, mask = env.observe()
        same = total = 0
        for _ in range(STEPS):
            actions = np.empty(env.n, dtype=np.uint32)
            for i in range(env.n):
                feed = {"obs": obs[i:i + 1].astype(np.float32),
                        "mask": mask[i:i + 1].astype(np.float32)}
                x = int(np.argmax(a.run(["logits"], feed)[0][0]))
                y = int(np.argmax(b.run(["logits"], feed)[0][0]))
                same += x == y
                total += 1
                actions[i] = x  # the f32 policy's trajectory
            obs, mask, _, _ = env.step(actions)
        env.close()
        out[task] = {"steps": total, "same_action": same, "share": same / total}
    steps = sum(v["steps"] for v in out.values())
    same = sum(v["same_action"] for v in out.values())
    out["all"] = {"steps": steps, "same_action": same, "share": same / steps}
    return out


def timing(f32: str, int8: str, calls: int = 3000) -> dict:
    """Median seconds per InferenceSession.run (one thread, batch 1) of each file on the same
    held-out observations, the two interleaved call by call (a noisy machine slows both)."""
    import time
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    sessions = {"f32": ort.InferenceSession(f32, opts), "int8": ort.InferenceSession(int8, opts)}
    env = VecEnv("migration", HORIZON, 16, organisations=ORGANISATIONS, seed=SEED)
    obs, mask = env.observe()
    feeds = [{"obs": obs[i:i + 1].astype(np.float32), "mask": mask[i:i + 1].astype(np.float32)}
             for i in range(env.n)]
    env.close()
    times = {k: [] for k in sessions}
    for c in range(calls):
        for k, s in sessions.items():
            t = time.perf_counter()
            s.run(["logits"], feeds[c % len(feeds)])
            times[k].append(time.perf_counter() - t)
    med = {k: float(np.median(v)) for k, v in times.items()}
    return {"median_s": med, "int8_over_f32": med["int8"] / med["f32"], "calls": calls}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true",
                   help="compare a fresh quantization and its agreement with the committed ones")
    p.add_argument("--time", action="store_true",
                   help="time both files on ONNX Runtime, side by side (prints; records nothing)")
    args = p.parse_args()
    if args.time:
        print(json.dumps(timing(SRC, OUT), indent=2))
        return
    if args.check:
        with tempfile.TemporaryDirectory() as d:
            fresh = os.path.join(d, "int8.onnx")
            quantize(fresh)
            with open(fresh, "rb") as f, open(OUT, "rb") as g:
                if f.read() != g.read():
                    sys.exit("generalist-int8.onnx is not what quantize.py makes")
            got = agreement(SRC, OUT)
        with open(RECORD) as f:
            want = json.load(f)["agreement"]
        # Another kind of CPU may round ONNX Runtime's kernels otherwise: the bar, not the
        # record's exact count, must hold.
        if got["all"]["share"] < 0.999:
            sys.exit(f"agreement {got['all']} under 99.9% (the record: {want['all']})")
        print(f"generalist-int8.onnx reproduced; agreement {got['all']['share']:.5f} "
              f"(the record: {want['all']['share']:.5f})")
        return
    quantize(OUT)
    record = {}
    if os.path.exists(RECORD):
        with open(RECORD) as f:
            record = json.load(f)
    record.update({
        "policy": "generalist-int8.onnx",
        "made_from": "generalist.onnx",
        "command": "python examples/policies/quantize.py",
        "method": "onnxruntime.quantization.quantize_dynamic, weight_type QInt8",
        "versions": {"onnxruntime": ort.__version__, "onnx": onnx.__version__,
                     "numpy": np.__version__},
        "bytes": os.path.getsize(OUT),
        "f32_bytes": os.path.getsize(SRC),
        "held_out": {"organisations": [ORGANISATIONS.start, ORGANISATIONS.stop], "seed": SEED,
                     "horizon": HORIZON, "steps_per_environment": STEPS,
                     "trajectory": "the f32 policy's (argmax)"},
        "agreement": agreement(SRC, OUT),
    })
    with open(RECORD, "w") as f:
        json.dump(record, f, indent=2)
        f.write("\n")
    print(json.dumps(record["agreement"]["all"]))


if __name__ == "__main__":
    main()
