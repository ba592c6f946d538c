"""``python -m evoharness``: the package's commands, one line each. Each is
``python -m evoharness.COMMAND`` and says the rest with ``--help``."""

import sys

#: (command, what it does, the extra it needs beyond the base install). A test checks that
#: these are the package's runnable modules, all of them.
COMMANDS = [
    ("evaluate", "an agent (a policy, a teacher or random) on a Python world, over seeds", None),
    ("record", "a teacher's demonstrations in a world (JSON lines for train --demos)", None),
    ("train", "a structured policy for a Python world or the suite: imitation, then RL", "train"),
    ("lm", "the suite's language-model policy (generative-v1), trained from scratch", "train"),
    ("lm.hf_export", "a Hugging Face causal LM into the generative-v1 layout", "hf"),
]


def main() -> int:
    print("evoharness commands (python -m evoharness.COMMAND [--help]):\n")
    for name, what, extra in COMMANDS:
        print(f"  {name:<13} {f'[{extra}]' if extra else '':<8} {what}")
    print('\n[train], [hf]: the extra to install first (pip install "evoharness[train]": torch, '
          "onnx;\nthe package's README says how to get a CPU-only torch). The others run on the "
          "base install.")
    return 0

if __name__ == "__main__":
    sys.exit(main())
