"""Record demonstrations of a teacher (a host's rule-based automation) in a world.

    python -m evoharness.record --world MODULE:FACTORY --teacher MODULE:CALLABLE
                                --seeds A..B --out DEMOS.jsonl [--horizon H]

Writes the ``evoharness-demos-v1`` JSON lines of :mod:`evoharness.demos` (one line per step:
the event the teacher saw and the action it took; a line at each episode's start with its seed
and at its end), which ``python -m evoharness.train --demos DEMOS.jsonl`` learns from. Needs no torch.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m evoharness.record", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--world", required=True, help="MODULE:FACTORY")
    ap.add_argument("--teacher", required=True, help="MODULE:CALLABLE")
    ap.add_argument("--seeds", default="0..200", help="A..B (default 0..200)")
    ap.add_argument("--out", required=True, help="the JSONL file to write")
    ap.add_argument("--horizon", type=int, help="the step budget (default: the world's `budget`)")
    args = ap.parse_args(argv)
    from ._native import EvoharnessError
    from .demos import record
    from .evaluate import parse_seeds
    from .spec import load_object
    from .world import world_settings

    try:
        factory = load_object(args.world, "--world")
        teacher = load_object(args.teacher, "--teacher")
        stats = record(factory, teacher, parse_seeds(args.seeds), args.out,
                       world_settings(factory, args.horizon))
    except (ValueError, EvoharnessError) as e:
        print(f"evoharness.record: {e}", file=sys.stderr)
        return 2
    print(f"{len(stats)} episodes to {args.out}: success "
          f"{100 * np.mean([s['success'] for s in stats]):.1f}%, "
          f"{sum(s['steps'] for s in stats)} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
