#!/usr/bin/env bash
# The v2 sweep (docs/src/suite.md, "v2: tasks where no rule is optimal"): every rule and the oracle on
# v2 tasks of every family at the horizons given (default 100 and 400), 200 episodes each in
# 16 organisations (12.5 episodes an organisation, in seed order, so that each agent's
# experience store fills as it would in use). Prints a Markdown table: success, mean reward
# with its 95% confidence interval (1.96 standard errors), harness actions and recalls per
# episode. Seeds and organisations are ones no test and no training uses. AGENTS (a
# space-separated list of `evoharness eval --agent` names) replaces the default agents: the
# tuned rule's hints (bounds on what better remedy choices could gain) are
# `AGENTS="tuned tuned:hint-usual tuned:hint-drift tuned:hint-unknown tuned:hint-all"`.
#
#   [AGENTS="..."] scripts/v2-sweep.sh [HORIZON...]
set -euo pipefail
cd "$(dirname "$0")/.."
horizons=("$@")
[ ${#horizons[@]} -gt 0 ] || horizons=(100 400)
cargo build --release --locked -p evoharness-cli --bin evoharness
bin="${CARGO_TARGET_DIR:-target}/release/evoharness"

echo "| family | horizon | agent | success | reward (95% CI) | harness actions | recalls |"
echo "| --- | ---: | --- | ---: | ---: | ---: | ---: |"
for task in migration records orchestration; do
  for h in "${horizons[@]}"; do
    for agent in ${AGENTS:-oracle tuned tuned:recall tuned:favourite lean-harness static-harness}; do
      "$bin" eval --scenario v2 --task "$task" --agent "$agent" --horizon "$h" \
        --seeds 20000..20200 --organisations 2000..2016 --threads "${THREADS:-2}" --json |
        python3 -c 'import json, sys
r = json.load(sys.stdin)
print("| %s | %d | %s | %.1f%% | %.4f ± %.4f | %.1f | %.1f |" % (r["task"], r["horizon"],
      r["agent"], 100 * r["success_rate"], r["mean_reward"], 1.96 * r["reward_se"],
      r["mean_harness_actions"], r["harness_actions_by_verb"]["recall"]))'
    done
  done
done
