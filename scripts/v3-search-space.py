#!/usr/bin/env python3
"""Where the v3 `retuned` teacher of training searches (suite/src/tune.rs, SEARCH_SPACE): a few
settings of the tuned rule's knobs that hold the retuning gain, chosen on training
organisations alone.

Each training organisation (default 0-599) is tuned on 16 episodes of one seed range and
measured on 16 of another (`evoharness tune --json`, every setting's reward per organisation).
Forward selection starts from the fixed-best setting and adds, one at a time, the setting that
most raises what retuning over the chosen ones gains over fixed-best out of sample (the
setting each organisation picks on the first range, measured on the second). Prints each step
and what retuning over all 96 settings gains the same way.

With --regional it also prints suite/src/tune.rs's REGIONAL: for each pair of the card's model
and machines tiers, the setting of SEARCH_SPACE that earns the most over the training
organisations whose cards show that pair (on the first range), and what that map from card to
setting gains over fixed-best on the second range; and the best setting per model tier alone
(examples/train/v3/upgrade.py's TUNED_FOR).

    python3 scripts/v3-search-space.py [--bin target/release/evoharness] [--organisations 0..600] [--regional]
"""

import argparse
import json
import subprocess


def tune(binary, orgs, seeds):
    out = subprocess.run([binary, "tune", "--scenario", "v3", "--task", "migration",
                          "--horizon", "100", "--organisations", orgs, "--seeds", seeds, "--json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="target/release/evoharness")
    ap.add_argument("--organisations", default="0..600")
    ap.add_argument("--steps", type=int, default=6)
    ap.add_argument("--regional", action="store_true",
                    help="also the best setting of SEARCH_SPACE per model and machines tier")
    args = ap.parse_args()
    a, b = (int(x) for x in args.organisations.split(".."))
    n = 16 * (b - a)
    pick = tune(args.bin, args.organisations, f"40000000..{40000000 + n}")
    measure = tune(args.bin, args.organisations, f"41000000..{41000000 + n}")
    rules = pick["rules"]
    fb = rules.index("tuned:plain:guess-unknown:no-note:commit-6")  # tune.rs FIXED_BEST
    P = [o["rewards"] for o in pick["organisations"]]
    M = [o["rewards"] for o in measure["organisations"]]

    def gain(idx):
        g = []
        for p, m in zip(P, M):
            best = max(idx, key=lambda i: p[i])
            g.append(m[best] - m[fb])
        mean = sum(g) / len(g)
        sd = (sum((x - mean) ** 2 for x in g) / (len(g) - 1)) ** 0.5
        return mean, 1.96 * sd / len(g) ** 0.5

    print("retuning over all %d settings: %+.4f ± %.4f" % (len(rules), *gain(range(len(rules)))))
    chosen = [fb]
    for _ in range(args.steps):
        best = max((i for i in range(len(rules)) if i not in chosen),
                   key=lambda i: gain(chosen + [i])[0])
        chosen.append(best)
        print("%d settings: %+.4f ± %.4f  %s" % (len(chosen), *gain(chosen),
                                                   ", ".join(rules[i] for i in chosen)))
    if args.regional:
        regional(pick, measure, fb)


# suite/src/tune.rs SEARCH_SPACE
SEARCH_SPACE = ["tuned:plain:guess-unknown:no-note:commit-6", "tuned:recall:guess-unknown:commit-6",
                "tuned:plain:guess-unknown:no-note", "tuned:plain:no-note"]


def regional(pick, measure, fb):
    """REGIONAL: per (model, machines) of the card, the setting of SEARCH_SPACE with the most
    reward over those organisations on `pick`, and the map's gain over fixed-best on `measure`."""
    rules = pick["rules"]
    space = [rules.index(r) for r in SEARCH_SPACE]
    tier = lambda o: tuple(o["region"].split("/")[:2])  # noqa: E731
    groups = {}
    for o in pick["organisations"]:
        groups.setdefault(tier(o), []).append(o["rewards"])
    table = {k: max(space, key=lambda i: sum(r[i] for r in rs)) for k, rs in groups.items()}
    for k in sorted(table):
        print("(%r, %r, %r),  # %d organisations" % (*k, rules[table[k]], len(groups[k])))
    # examples/train/v3/upgrade.py's TUNED_FOR: the same search pooled by the model's tier alone.
    for model in ("weak", "strong"):
        rs = [r for k, g in groups.items() if k[0] == model for r in g]
        best = max(space, key=lambda i: sum(r[i] for r in rs))
        print("tuned for %s models: %s  # %d organisations" % (model, rules[best], len(rs)))
    g = [m["rewards"][table[tier(p)]] - m["rewards"][fb]
         for p, m in zip(pick["organisations"], measure["organisations"])]
    mean = sum(g) / len(g)
    sd = (sum((x - mean) ** 2 for x in g) / (len(g) - 1)) ** 0.5
    print("regional over fixed-best, measured on the second range: %+.4f ± %.4f"
          % (mean, 1.96 * sd / len(g) ** 0.5))


if __name__ == "__main__":
    main()
