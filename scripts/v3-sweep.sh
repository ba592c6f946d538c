#!/usr/bin/env bash
# The v3 sweep (docs/src/suite.md, "v3: deployments"): which fixed rule wins in which region of the
# deployment family, and by how much. For each family, `evoharness tune` runs the static and
# lean rules and every setting of the tuned rule's knobs on the same episodes of organisations
# 2000-2047 (seeds 20000-20383, eight episodes an organisation, in seed order) at horizon 100:
# organisations no test, tuning or training uses. Prints a Markdown table per family: per
# region, the fixed rules' mean rewards (the v2 `tuned` rule, and `fixed-best`, the setting
# committed in suite/src/tune.rs from training organisations), the single setting that earns
# the most in the region and what it earns, and the mean of each organisation's own best
# setting (retuned; in-sample). PROFILE=release builds the tool in release (faster runs, a
# longer build); the default reuses the debug build the tests made.
#
#   [PROFILE=release] scripts/v3-sweep.sh [HORIZON]
set -euo pipefail
cd "$(dirname "$0")/.."
h="${1:-100}"
profile="${PROFILE:-debug}"
flag=(); [ "$profile" = release ] && flag=(--release)
cargo build "${flag[@]}" -q --locked -p evoharness-cli --bin evoharness
bin="${CARGO_TARGET_DIR:-target}/$profile/evoharness"
for task in migration records orchestration; do
  echo
  echo "$task, horizon $h:"
  echo
  echo "| region | orgs | static | lean | tuned | fixed-best | best setting there | its reward | retuned |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"
  "$bin" tune --scenario v3 --task "$task" --horizon "$h" --organisations 2000..2048 \
    --seeds 20000..20384 --threads "${THREADS:-2}" --json |
    python3 -c 'import json, sys
r = json.load(sys.stdin)
for g in r["regions"]:
    f = g["fixed_rules"]
    print("| %s | %d | %.4f | %.4f | %.4f | %.4f | `%s` | %.4f | %.4f |" % (g["region"],
          g["organisations"], f["static-harness"], f["lean-harness"], f["tuned"],
          f["fixed-best"], g["best"]["rule"], g["best"]["mean_reward"], g["retuned_reward"]))
print()
print("All %d organisations: best single setting `%s` %.4f; retuning gains %+.4f over it (in-sample)."
      % (len(r["organisations"]), r["fixed_best"]["rule"], r["fixed_best"]["mean_reward"],
         r["retuning_gain"]))'
done
