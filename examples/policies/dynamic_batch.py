"""Gives a policy file exported at batch 1 a dynamic batch dimension, changing nothing else.

    python examples/policies/dynamic_batch.py FILE.onnx [...]       # rewrite in place
    python examples/policies/dynamic_batch.py --check FILE.onnx [...]

The exporter writes a dynamic batch dimension since fleets run one policy call for all their
agents (runtime/POLICY.md); files exported before have batch 1 and still work, one call per
agent. This script made generalist.onnx batched: the first dimension of every graph input and
output becomes the symbolic `batch`; weights, metadata and every other byte of the graph stay.
Only for graphs that treat rows independently (the trainer's MLP does); not for the int8 file,
whose dynamic quantization scales activations over the whole tensor and so mixes rows.
--check fails unless every file given already has the dynamic batch.
"""

import argparse
import sys

import onnx


def batched(m: onnx.ModelProto) -> bool:
    return all(v.type.tensor_type.shape.dim[0].dim_param == "batch"
               for v in [*m.graph.input, *m.graph.output])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="+")
    p.add_argument("--check", action="store_true", help="only check, write nothing")
    args = p.parse_args()
    for path in args.files:
        m = onnx.load(path)
        if args.check:
            if not batched(m):
                sys.exit(f"{path} has no dynamic batch dimension (run dynamic_batch.py on it)")
            continue
        for v in [*m.graph.input, *m.graph.output]:
            dim = v.type.tensor_type.shape.dim[0]
            if dim.HasField("dim_value") and dim.dim_value != 1:
                sys.exit(f"{path}: `{v.name}` has batch {dim.dim_value}, not 1")
            dim.dim_param = "batch"  # clears dim_value (a oneof)
        del m.graph.value_info[:]  # tract refuses symbolic shapes left there
        onnx.checker.check_model(m, full_check=True)
        onnx.save(m, path)
        print(f"{path}: dynamic batch")


if __name__ == "__main__":
    main()
