"""The generic training, evaluation and demonstration commands on a world the project has
never seen (tests/worlds/tickets.py: four tools), from Python only; and the embedded agent
against the vectorised environment. Needs torch, onnx and onnxruntime
(examples/train/requirements.txt)."""

import json
import pathlib

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

import sys  # noqa: E402

import evoharness  # noqa: E402
from evoharness import demos, evaluate, record, train  # noqa: E402
from evoharness.agent import episode_reward  # noqa: E402
from evoharness.spec import load_object  # noqa: E402
from evoharness.train import cli  # noqa: E402
from evoharness.train import rollouts as rollouts_module  # noqa: E402
from evoharness.train import sources as sources_module  # noqa: E402
from evoharness.train.export import load_weights  # noqa: E402
from evoharness.train.grpo import group_advantages, sample  # noqa: E402
from evoharness.train.imitation import Buffer, dagger, dagger_lr  # noqa: E402
from evoharness.train.layout import feature_offset, harness_templates, template_kinds  # noqa: E402
from evoharness.train.net import Net, staleness_scale, tensor  # noqa: E402
from evoharness.train.ppo import flip_kind, gae  # noqa: E402
from evoharness.train.rollouts import Branches, alternatives, rollout_update, rollouts  # noqa: E402
from evoharness.train.seeds import CHECK_SEED, VALID_SEED  # noqa: E402
from evoharness.train.selection import choose, select  # noqa: E402
from evoharness.train.sources import (SuiteSource, WorldSource, first_episodes,  # noqa: E402
                                      suite_policy, warm_up)
from evoharness.train.units import unit_slices  # noqa: E402
from evoharness.world import world_settings  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # worlds.tickets, for picky_teacher
WORLD = f"{HERE / 'worlds' / 'tickets.py'}:Tickets"
TEACHER = f"{HERE / 'worlds' / 'tickets.py'}:teacher"
SEEDS = "1000000..1000040"


def run_json(capsys, argv):
    assert evaluate.main(argv + ["--json"]) == 0
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A policy trained for a few seconds: small, but enough to solve the tickets."""
    out = tmp_path_factory.mktemp("train") / "tickets.onnx"
    argv = ["--world", WORLD, "--teacher", TEACHER, "--out", str(out), "--quiet",
            "--envs", "16", "--rounds", "6", "--round-steps", "60", "--epochs", "4", "--hidden", "64",
            "--rl-iters", "2", "--group", "2", "--groups", "4", "--valid-episodes", "16"]
    assert train.main(argv) == 0
    return out


def test_smoke_training_writes_a_policy_the_library_loads_and_its_record(tmp_path, capsys):
    out = tmp_path / "smoke.onnx"
    assert train.main(["--world", WORLD, "--teacher", TEACHER, "--out", str(out), "--smoke",
                       "--quiet", "--eval-seeds", "1000000..1000010"]) == 0
    import onnx

    meta = {p.key: p.value for p in onnx.load(str(out)).metadata_props}
    lay = evoharness.layout(4, 2, 1, 4)
    assert meta["evoharness.tools"] == "4"
    assert meta["evoharness.tool_names"] == "next_ticket,answer,escalate,pause"
    assert int(meta["evoharness.obs_len"]) == lay["obs_len"]
    assert int(meta["evoharness.actions"]) == lay["actions"]
    rows = [json.loads(x) for x in (tmp_path / "smoke.train.jsonl").read_text().splitlines()]
    assert rows[0]["event"] == "start" and rows[-1]["event"] == "done"
    # The CPU, on which bit-for-bit repetition depends: torch's kernels named.
    assert "torch kernels " in rows[0]["cpu"] and rows[0]["cpu"] == cli.cpu()
    assert any(r.get("stage") == 1 for r in rows) and any(r.get("stage") == 2 for r in rows)
    assert rows[-1]["load_check"].startswith("ok")
    assert (tmp_path / "smoke.training.svg").read_text().startswith("<svg")
    record = json.loads((tmp_path / "smoke.json").read_text())
    assert record["tools"] == ["next_ticket", "answer", "escalate", "pause"]
    assert record["versions"]["cpu"] == cli.cpu()
    assert record["command"].endswith(f"--out {out} --smoke --quiet --eval-seeds 1000000..1000010")
    assert record["held_out"]["episodes"] == 10 and record["held_out"]["via"] == "agent"
    r = run_json(capsys, ["--world", WORLD, "--agent", f"policy:{out}", "--seeds", SEEDS])
    assert r["episodes"] == 40 and r["via"] == "agent"
    # A policy made for another world's tools is refused, naming both counts.
    assert evaluate.main(["--world", f"{__file__}:ThreeTools", "--agent", f"policy:{out}",
                          "--seeds", SEEDS]) == 2
    assert "has 4 tools; the world has 3 (a, b, c)" in capsys.readouterr().err


class ThreeTools:
    tools = ["a", "b", "c"]

    def reset(self, seed):
        return {"seed": seed}

    def call(self, tool, args):
        return {"tool": tool}


def test_a_trained_policy_solves_held_out_tickets_through_the_embedded_agent(trained, capsys):
    pol = run_json(capsys, ["--world", WORLD, "--agent", f"policy:{trained}", "--seeds", SEEDS])
    tea = run_json(capsys, ["--world", WORLD, "--agent", f"teacher:{TEACHER}", "--seeds", SEEDS])
    rnd = run_json(capsys, ["--world", WORLD, "--agent", "random", "--seeds", SEEDS])
    assert tea["success_rate"] == 1.0
    assert pol["success_rate"] >= 0.9, pol
    assert rnd["success_rate"] < 0.5 and rnd["mean_reward"] < pol["mean_reward"]
    for r in (pol, tea, rnd):
        assert {"success_rate", "mean_reward", "reward_se", "mean_harness_actions",
                "mean_steps", "integrity_violations"} <= set(r)
        assert "paired" not in r
    # Paired on the same seeds: the teacher against itself is the same in every episode; the
    # policy against random gains what their means differ by, and is rarely worse.
    same = run_json(capsys, ["--world", WORLD, "--agent", f"teacher:{TEACHER}", "--seeds", SEEDS,
                             "--against", f"teacher:{TEACHER}"])["paired"]
    assert (same["episodes"], same["same"]) == (40, 40)
    assert (same["mean_reward_gain"], same["gain_se"]) == (0, 0)
    r = run_json(capsys, ["--world", WORLD, "--agent", f"policy:{trained}", "--seeds", SEEDS,
                          "--against", "random"])
    p = r["paired"]
    assert p["against"] == "random" and p["better"] + p["worse"] + p["same"] == 40
    assert p["mean_reward_gain"] == pytest.approx(pol["mean_reward"] - rnd["mean_reward"])
    assert p["better"] > p["worse"] and p["gain_se"] > 0
    assert evaluate.main(["--world", WORLD, "--agent", "random", "--seeds", SEEDS,
                          "--against", "clever"]) == 2
    # Rewards a few ulps apart (the embedded agent's and an environment's) are the same.
    p = evaluate.paired([{"reward": 1.3 + 1e-15}, {"reward": 1.5}],
                        [{"reward": 1.3}, {"reward": 1.0}], "x")
    assert (p["better"], p["worse"], p["same"]) == (1, 0, 1)
    assert p["mean_reward_gain"] == pytest.approx(0.25)
    with pytest.raises(ValueError, match="the same episodes on both sides: 2 against 1"):
        evaluate.paired([{"reward": 1.0}] * 2, [{"reward": 1.0}], "x")


def test_the_embedded_agent_and_the_environment_play_the_same_episodes(trained):
    factory = load_object(WORLD)
    settings = world_settings(factory)
    seeds = range(1_000_000, 1_000_030)
    a = evaluate.policy_agent(trained, factory, settings, seeds)
    e = evaluate.policy_env(trained, factory, settings, seeds)
    for x, y in zip(a, e):
        for k in ("success", "steps", "world_actions", "harness_actions", "cost"):
            assert x[k] == y[k], (k, x, y)
        # The agent's reward is computed from its verdict and cost as the library does.
        assert x["reward"] == pytest.approx(y["reward"], abs=1e-5)
    assert any(x["success"] for x in a) and len({x["steps"] for x in a}) > 1


def test_episode_reward_matches_the_library_on_failures_and_violations():
    assert episode_reward(False, 0, 30, 30) == pytest.approx(-0.1)
    assert episode_reward(False, 2, 15, 30) == pytest.approx(-0.05 - 0.5)
    assert episode_reward(True, 0, 15, 30) == pytest.approx(-0.05 + 1.25)


def test_demonstrations_round_trip_and_train(tmp_path):
    path = tmp_path / "demos.jsonl"
    factory = load_object(WORLD)
    settings = world_settings(factory)
    stats = demos.record(factory, load_object(TEACHER), range(5), path, settings)
    assert all(s["success"] for s in stats)
    eps = demos.load(path)
    assert [e["seed"] for e in eps] == list(range(5))
    obs, mask, act, replayed = demos.replay(factory, settings, eps)
    assert len(act) == sum(s["steps"] for s in stats) and obs.shape[0] == len(act)
    assert np.all(mask[np.arange(len(act)), act] == 1)  # every demonstrated template is legal
    assert [s["reward"] for s in replayed] == pytest.approx([s["reward"] for s in stats])
    out = tmp_path / "demo.onnx"
    assert train.main(["--world", WORLD, "--demos", str(path), "--out", str(out), "--smoke",
                       "--quiet"]) == 0
    assert out.stat().st_size > 0


def test_the_record_command_writes_demonstrations_that_load(tmp_path, capsys):
    path = tmp_path / "rec.jsonl"
    assert record.main(["--world", WORLD, "--teacher", TEACHER, "--seeds", "3..6", "--out",
                        str(path)]) == 0
    assert "3 episodes" in capsys.readouterr().out
    assert [e["seed"] for e in demos.load(path)] == [3, 4, 5]
    assert record.main(["--world", WORLD, "--teacher", TEACHER, "--seeds", "6..3", "--out",
                        str(path)]) == 2
    assert "an empty or negative range" in capsys.readouterr().err


def test_a_demonstration_that_is_not_the_worlds_is_refused_naming_its_line(tmp_path):
    path = tmp_path / "demos.jsonl"
    factory = load_object(WORLD)
    settings = world_settings(factory)
    demos.record(factory, load_object(TEACHER), range(2), path, settings)
    lines = path.read_text().splitlines()
    step = json.loads(lines[2])
    step["event"]["fields"]["ticket"] = 1  # the world showed another ticket
    lines[2] = json.dumps(step)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(demos.DemoError, match=r"demos.jsonl:3: the world's last event"):
        demos.replay(factory, settings, demos.load(path), "demos.jsonl")
    step["event"]["fields"]["ticket"] = [1]
    lines[2] = json.dumps(step)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(demos.DemoError, match=r":3: field 'ticket': a field value is"):
        demos.load(path)
    path.write_text(json.dumps({"type": "step", "episode": 0, "event": {}, "action": []}) + "\n")
    with pytest.raises(demos.DemoError, match=r":1: episode 0 has no \"episode\" line"):
        demos.load(path)
    path.write_text('{"type": "episode", "episode": 0, "seed": 1}\n'
                    '{"type": "step", "episode": 0, "event": {"kind": "notice"}, '
                    '"action": ["fly", 1]}\n')
    with pytest.raises(demos.DemoError, match=r":2: unknown teacher action"):
        demos.load(path)


def test_a_teacher_of_three_parameters_sees_what_was_tracked():
    from evoharness import VecEnv

    seen = []

    def teacher(world, event, tracked):
        seen.append(dict(tracked))
        if "ticket" in event.fields and "ticket" not in tracked:
            return ("track", "ticket")
        return ("call", "next_ticket") if "ticket" not in event.fields else ("finish", False)

    factory = load_object(WORLD)
    with VecEnv.from_worlds(factory, 1, **world_settings(factory)) as env:
        for _ in range(4):
            env.step(env.teacher_actions(teacher))
        assert seen[-1] == {} and env.tracked[0] == {}  # finished: a new episode, nothing kept
        assert seen[2] == {"ticket": seen[2]["ticket"]} and isinstance(seen[2]["ticket"], int)


def picky_teacher(world, event):
    """The tickets teacher, except that it asks for a ticket the layout cannot point at on the
    first event of a task: those states must be skipped (and counted), not abort training."""
    from worlds.tickets import teacher

    if event.kind == "notice":
        return ("call", "answer", 424242)
    return teacher(world, event)


def test_dagger_skips_and_counts_the_states_the_teacher_cannot_label(tmp_path):
    out = tmp_path / "picky.onnx"
    assert train.main(["--world", WORLD, "--teacher", f"{__file__}:picky_teacher", "--out",
                       str(out), "--smoke", "--quiet"]) == 0
    rows = [json.loads(x) for x in (tmp_path / "picky.train.jsonl").read_text().splitlines()]
    refused = [r["teacher_refused"] for r in rows if r.get("stage") == 1]
    assert refused and refused[0] >= 4  # every environment starts on a notice
    assert all(r["samples"] > 0 for r in rows if r.get("stage") == 1)


def test_the_commands_say_what_is_wrong(tmp_path, capsys):
    out = str(tmp_path / "x.onnx")
    assert train.main(["--world", "no_such_module_xyz:W", "--teacher", TEACHER, "--out", out]) == 2
    assert "cannot import no_such_module_xyz" in capsys.readouterr().err
    assert train.main(["--world", f"{HERE / 'worlds' / 'tickets.py'}:Nope", "--teacher", TEACHER,
                       "--out", out]) == 2
    assert "has no 'Nope'" in capsys.readouterr().err
    assert train.main(["--world", "tickets", "--teacher", TEACHER, "--out", out]) == 2
    assert "MODULE:NAME" in capsys.readouterr().err
    assert train.main(["--world", WORLD, "--teacher", TEACHER, "--out", out,
                       "--eval-seeds", "1..1"]) == 2
    assert "an empty or negative range" in capsys.readouterr().err
    assert not pathlib.Path(out).exists()
    assert evaluate.main(["--world", WORLD, "--agent", "oracle", "--seeds", SEEDS]) == 2
    assert "policy:PATH, teacher:MODULE:CALLABLE or random" in capsys.readouterr().err
    assert evaluate.main(["--world", WORLD, "--agent", "random", "--seeds", "7"]) == 2
    assert "give A..B" in capsys.readouterr().err
    assert evaluate.main(["--world", WORLD, "--agent", f"policy:{tmp_path}/none.onnx"]) == 2
    assert "none.onnx" in capsys.readouterr().err
    assert evaluate.main(["--world", WORLD, "--agent", "random", "--seeds", SEEDS,
                          "--min-success", "0.5"]) == 1
    assert "below the bar" in capsys.readouterr().err
    assert train.main(["--world", WORLD, "--demos", str(tmp_path / "d.jsonl"), "--out", out,
                       "--skip-harness", "0.2"]) == 2
    assert "--skip-harness and --skip-label need a teacher" in capsys.readouterr().err
    assert train.main(["--suite", "migration", "--teacher", "static", "--out", out,
                       "--skip-harness", "1"]) == 2
    assert "--skip-harness is 1.0" in capsys.readouterr().err
    assert train.main(["--world", WORLD, "--teacher", TEACHER, "--out", out,
                       "--harness-cost", "-0.01"]) == 2
    assert "--harness-cost is -0.01" in capsys.readouterr().err


def test_a_harness_cost_favours_the_group_member_with_fewer_harness_actions():
    """Two members of a group with the same reward: without a harness cost neither is
    favoured; with one, the member with fewer harness actions gets the positive advantage. A
    group where nobody succeeded still sits out."""
    ep = [{"reward": 1.3, "success": True, "harness_actions": h} for h in (40, 10)]
    traj = [[(np.zeros(2), np.ones(2), 0, 0.0)], [(np.zeros(2), np.ones(2), 1, 0.0)]]
    plain = group_advantages(traj, ep, 2)
    assert [b[4] for b in plain] == [0.0, 0.0]
    costly = group_advantages(traj, ep, 2, harness_cost=0.001)
    assert costly[0][4] < 0 < costly[1][4]
    failed = [dict(e, success=False) for e in ep]
    assert group_advantages(traj, failed, 2, harness_cost=0.001) == []


def test_the_suite_trains_through_the_same_command(tmp_path, capsys):
    """`--suite` runs the generic stages on the suite's own simulations (how the shipped
    generalist is made): every task is a kind of environment, validated separately."""
    out = tmp_path / "suite.onnx"
    assert train.main(["--suite", "records,migration", "--teacher", "lean", "--out", str(out),
                       "--smoke", "--quiet", "--horizon", "40"]) == 0
    rows = [json.loads(x) for x in (tmp_path / "suite.train.jsonl").read_text().splitlines()]
    assert rows[0]["world"] == "suite:records,migration" and rows[0]["actions"] == 348
    stage1 = [r for r in rows if r.get("stage") == 1]
    assert stage1 and all("valid_records" in r and "valid_migration" in r for r in stage1)
    # The library's teacher labels every state it is asked about: one sample per environment
    # and step, each task's environments alike (4 of each in smoke, 20 steps a round).
    assert all(r["teacher_refused"] == 0 for r in stage1)
    assert stage1[0]["samples"] == 2 * 4 * 20
    assert rows[-1]["load_check"].startswith("ok")
    record = json.loads((tmp_path / "suite.json").read_text())
    assert record["settings"] == {"budget": 40, "tasks": ["records", "migration"]}
    # What the suite cannot do is said before training.
    for argv, says in [
        (["--suite", "records,payroll", "--teacher", "lean"], "unknown suite task(s) ['payroll']"),
        (["--suite", "records", "--teacher", "rules"], "teachers are lean, oracle, static"),
        (["--suite", "records", "--demos", str(tmp_path / "d.jsonl")], "--suite trains from a library teacher"),
    ]:
        assert train.main(argv + ["--out", str(tmp_path / "x.onnx")]) == 2
        assert says in capsys.readouterr().err
    assert not (tmp_path / "x.onnx").exists()
    # The static harness teaches too (harness annealing starts from it): while it leads (the
    # first round), it has a label for every state.
    assert train.main(["--suite", "migration", "--teacher", "static", "--out",
                       str(tmp_path / "static.onnx"), "--smoke", "--quiet", "--horizon", "40"]) == 0
    rows = [json.loads(x) for x in (tmp_path / "static.train.jsonl").read_text().splitlines()]
    first = [r for r in rows if r.get("stage") == 1][0]
    assert first["beta"] == 1.0 and first["teacher_refused"] == 0
    assert rows[-1]["load_check"].startswith("ok")
    assert json.loads((tmp_path / "static.json").read_text())["source"] == "static"
    # The static-lean teacher with a fifth of the harness actions skipped in DAgger: skips
    # happen (only once a plan step is active, so the teacher still labels every state).
    assert train.main(["--suite", "migration", "--teacher", "static-lean", "--skip-harness", "0.2",
                       "--out", str(tmp_path / "skip.onnx"), "--smoke", "--quiet",
                       "--horizon", "40"]) == 0
    rows = [json.loads(x) for x in (tmp_path / "skip.train.jsonl").read_text().splitlines()]
    dagger = [r for r in rows if r.get("stage") == 1]
    assert sum(r["skipped"] for r in dagger) > 0
    assert all(r["teacher_refused"] == 0 for r in dagger if r["beta"] == 1.0)


def test_a_structured_v2_policy_trains_exports_and_loads(tmp_path):
    """`--layout-version 2`: the network reads structured-v2 observations, the file declares
    `structured-v2`, and the library's agent loads and runs it."""
    import onnx

    out = tmp_path / "v2.onnx"
    assert train.main(["--suite", "migration", "--teacher", "lean", "--layout-version", "2",
                       "--out", str(out), "--smoke", "--quiet", "--horizon", "40"]) == 0
    props = {p.key: p.value for p in onnx.load(str(out)).metadata_props}
    assert (props["evoharness.abi"], props["evoharness.layout_version"]) == ("structured-v2", "2")
    assert props["evoharness.obs_len"] == str(evoharness.suite_layout(2)["obs_len"])
    rows = [json.loads(x) for x in (tmp_path / "v2.train.jsonl").read_text().splitlines()]
    assert rows[0]["obs_len"] == evoharness.suite_layout(2)["obs_len"]
    assert rows[-1]["load_check"].startswith("ok")


def test_v2_validation_counts_an_episode_after_the_store_warmed_up():
    """v2 agents keep an experience store across episodes: validation counts each environment's
    fourth episode (a first one never reaches a full working set), v1 still its first."""
    v2 = SuiteSource(["records"], 80, "lean", scenario="v2")
    v1 = SuiteSource(["records"], 80, "lean")
    assert (v2.warmup, v1.warmup, v2.settings["scenario"]) == (3, 0, "v2")
    with pytest.raises(ValueError, match="scenarios"):
        SuiteSource(["records"], 80, "lean", scenario="v9")
    counted = []

    def lean(env):
        counted.append([env.episodes(i) for i in range(env.n)])
        return env.teacher_actions("lean")

    rows = first_episodes(v2, "records", lean, seed=11, episodes=3)
    assert len(rows) == 3 and all(r["success"] for r in rows)
    # Every environment finished four episodes before the last step.
    assert min(counted[-1]) >= 3
    counted.clear()
    first_episodes(v1, "records", lean, seed=11, episodes=3)
    assert max(counted[-1]) <= 1


def test_grpo_warms_v2_groups_up_with_the_teacher():
    """In v2, GRPO learns from an episode of agents whose store is at work: the teacher drives
    each environment's first episodes; a group's members stay in step through them."""
    src = SuiteSource(["migration"], 60, "lean", scenario="v2")
    env = src.envs("migration", 4, seed=5, group=2)
    try:
        poor = np.zeros(env.n, np.uint32)  # template 0: not what the teacher does
        warm = [None] * env.n  # each environment's last warm-up episode
        while True:
            acts, warming = warm_up(src, env, poor)
            for i in np.flatnonzero(~warming):
                warm[i] = warm[i] or env.last_episode(int(i))
            if not warming.any():
                break
            assert (acts[warming] == env.teacher_actions("lean")[warming]).all()
            assert (acts[~warming] == 0).all()
            env.step(acts)
            # A group's members stay in step.
            assert (env.obs[0] == env.obs[1]).all() and (env.obs[2] == env.obs[3]).all()
        assert all(w is not None and w["success"] for w in warm)
        assert all(env.episodes(i) >= 3 for i in range(env.n))
        # v1 sources have no warm-up.
        v1 = SuiteSource(["migration"], 60, "lean")
        acts, warming = warm_up(v1, env, poor)
        assert not warming.any() and (acts == poor).all()
    finally:
        env.close()


def test_branch_points_try_the_policys_choice_first_then_other_kinds():
    lay = {"templates": [["finish", -1], ["act", 0], ["act", 0], ["act", 1], ["track", -1],
                         ["track", -1]]}
    kinds = template_kinds(lay)
    assert list(kinds) == [0, 1, 1, 2, 3, 3]
    logits = np.array([0.0, 7.0, 6.0, 1.0, 9.0, 8.0])
    mask = np.ones(6, np.uint8)
    # Greedy (a track), then the likeliest of each other kind (tool 0, tool 1, finish), then
    # the likeliest left (the other track).
    act, tried = alternatives(logits, mask, 5, kinds)
    assert list(act) == [4, 1, 3, 0, 5] and tried.all()
    act, _ = alternatives(logits, mask, 3, kinds)
    assert list(act) == [4, 1, 3]
    # At a harness step (a track), with the harness templates named: no other harness action.
    harness = harness_templates(lay)
    assert list(harness) == [False, False, False, False, True, True]
    act, tried = alternatives(logits, mask, 5, kinds, harness)
    assert list(act) == [4, 1, 3, 0, 2] and tried.all()
    # Only legal templates; slots left over repeat the greedy one, marked untried.
    act, tried = alternatives(logits, np.array([0, 0, 1, 0, 0, 1]), 4, kinds)
    assert list(act) == [5, 2, 5, 5] and list(tried) == [True, True, False, False]

    ring = Branches(4, 3, 6, 3)
    ring.add(np.zeros(3), np.ones(6), [0, 1, 2], [1.0, 2.0, 3.0], [True, True, True])
    ring.add(np.zeros(3), np.ones(6), [0, 1, 0], [5.0, 5.0, 9.0], [True, True, False])
    ring.add(np.zeros(3), np.ones(6), [0, 1, 2], [4.0, 1.0, 4.0], [True, True, True])
    adv = ring.advantages()
    # Against the policy's own choice (slot 0), over the median gain (1.5), clipped.
    assert adv[0, 0] == 0 and np.allclose(adv[0, 1:], [2 / 3, 4 / 3])
    assert (adv[1] == 0).all()  # equal returns, and an untried slot, teach nothing
    assert adv[2, 1] == -2 and adv[2, 2] == 0
    ring.add(np.zeros(3), np.ones(6), [0, 1, 2], [0.0, 100.0, -100.0], [True, True, True])
    assert list(ring.advantages()[3]) == [0, 3, -30]


def test_a_rollout_update_moves_the_policy_towards_the_template_that_did_better():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    net = Net(3, 6, 16)
    obs = np.array([0.5, -1.0, 2.0], np.float32)
    with torch.no_grad():
        before = torch.log_softmax(net(tensor(obs[None]), torch.ones(1, 6))[0], -1)[0]
    greedy = int(before.argmax())
    other = (greedy + 1) % 6
    ring = Branches(8, 3, 6, 2)
    for _ in range(8):  # the policy's own choice did worse than the other template
        ring.add(obs, np.ones(6), [greedy, other], [1.0, 1.5], [True, True])

    class Args:
        rl_epochs, rl_batch, batch, kl = 30, 8, 8, 0.01

    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    rollout_update(net, opt, ring, Args, np.random.default_rng(0))
    with torch.no_grad():
        after = torch.log_softmax(net(tensor(obs[None]), torch.ones(1, 6))[0], -1)[0]
    assert after[other] > before[other] and after[greedy] < before[greedy]
    assert int(after.argmax()) == other


def test_branching_rollouts_train_from_a_policy_on_the_suite(tmp_path, capsys):
    """`--rl rollouts` (stage 2 from copies of an environment) on v2 migration, starting from a
    policy file with no imitation (`--init`, `--rounds 0`)."""
    first = tmp_path / "first.onnx"
    assert train.main(["--suite", "migration", "--scenario", "v2", "--teacher", "lean", "--out",
                       str(first), "--smoke", "--quiet", "--horizon", "40"]) == 0
    out = tmp_path / "branched.onnx"
    assert train.main(["--suite", "migration", "--scenario", "v2", "--teacher", "lean",
                       "--out", str(out), "--quiet", "--horizon", "40", "--hidden", "32",
                       "--init", str(first), "--rounds", "0", "--rl", "rollouts", "--rl-iters",
                       "1", "--branches", "2", "--rl-states", "4", "--groups", "2",
                       "--valid-episodes", "4", "--allow-worse"]) == 0
    rows = [json.loads(x) for x in (tmp_path / "branched.train.jsonl").read_text().splitlines()]
    assert not [r for r in rows if r.get("stage") == 1]
    assert [r for r in rows if r.get("event") == "init"]
    stage2 = [r for r in rows if r.get("stage") == 2]
    assert stage2 and stage2[0]["branch_points"] >= 4 and "valid_harness" in stage2[0]
    assert rows[-1]["load_check"].startswith("ok")
    # What the measurement scripts load: the same logits as the file under ONNX Runtime.
    import onnxruntime
    import torch
    src, net = suite_policy(out, "migration", 40, "v2", hidden=32)
    env = src.envs("migration", 1, 7)
    try:
        obs, mask = env.obs[:1].astype(np.float32), env.mask[:1].astype(np.float32)
        want = onnxruntime.InferenceSession(str(out)).run(["logits"], {"obs": obs, "mask": mask})[0]
        with torch.no_grad():
            got = net(torch.as_tensor(obs), torch.as_tensor(mask))[0].numpy()
        legal = mask[0] == 1
        assert legal.any()
        np.testing.assert_allclose(got[0][legal], want[0][legal], atol=1e-4)
    finally:
        env.close()
    for argv, says in [
        (["--world", WORLD, "--teacher", TEACHER, "--rounds", "5", "--max-rounds", "3"],
         "--max-rounds is 3: at least --rounds (5)"),
        (["--suite", "migration", "--teacher", "lean", "--rounds", "0"], "--rounds 0 needs --init"),
        (["--suite", "migration", "--teacher", "lean", "--rounds", "0", "--init",
          str(tmp_path / "none.onnx")], "not an ONNX file"),
        (["--suite", "migration", "--teacher", "lean", "--rounds", "0", "--init", str(first),
          "--hidden", "64"], "body.0.weight has shape (32, 564), this network (64, 564)"),
    ]:
        assert train.main(argv + ["--out", str(tmp_path / "x.onnx"), "--quiet"]) == 2
        assert says in capsys.readouterr().err
    assert not (tmp_path / "x.onnx").exists()


def test_a_rollout_update_that_loses_reward_on_the_check_episodes_is_undone(monkeypatch):
    torch = pytest.importorskip("torch")
    src = SuiteSource(["migration"], 40, "lean", scenario="v2")
    net = Net(src.layout["obs_len"], src.layout["actions"], 32)
    start = {k: t.clone() for k, t in net.state_dict().items()}

    seen = []  # whether each update starts from the weights as they were at first

    def ruin(net, opt, ring, args, rng, anchors=None):  # an update that forgets everything
        seen.append(all(torch.equal(t, start[k]) for k, t in net.state_dict().items()))
        with torch.no_grad():
            for p in net.parameters():
                p.mul_(0.0)

    # The check episodes score 1.0 before any update and 0.99 after each (more than the slack
    # lost), then 1.0 again after the third: kept.
    scores = iter([1.0, 0.99, 0.99, 1.0])
    checked = []

    def episodes(source, kind, choose, seed, n, split="valid", chunk=64):
        checked.append((seed, split))
        r = next(scores) if split == "train" else 1.0
        return [{"success": True, "reward": r, "harness": 0, "world": 1, "steps": 1, "cost": 1,
                 "violations": 0}] * n

    def unit(source, kind, choose, n, seed, split, offset):  # validation runs in units
        return episodes(source, kind, choose, seed, n, split)

    # Where each is looked up: the rollouts' own module, and validation's.
    monkeypatch.setattr(rollouts_module, "rollout_update", ruin)
    monkeypatch.setattr(rollouts_module, "first_episodes", episodes)
    monkeypatch.setattr(sources_module, "episodes_unit", unit)
    rows = []

    class Args:
        branches, groups, rl_states, rl_iters, rl_lr, rollout_episodes = 2, 2, 4, 3, 1e-4, 1
        valid_episodes = 4

    rollouts(net, src, Args, lambda **r: rows.append(r), 1e18, None,
                      np.random.default_rng(0))
    assert [r["accepted"] for r in rows] == [False, False, True]
    assert [r["lr"] for r in rows] == [1e-4, 5e-5, 2.5e-5]
    assert "valid_reward" not in rows[0] and "valid_reward" in rows[2]
    # Undone twice (each update started from the weights as they were), kept the third time.
    assert seen == [True, True, True]
    assert [r["check_reward"] for r in rows] == [0.99, 0.99, 1.0]
    assert all((t == 0).all() for t in net.state_dict().values())
    assert checked[0] == (CHECK_SEED, "train")
    assert (VALID_SEED, "valid") in checked


def test_dagger_learning_rate_is_constant_or_decays_from_lr_to_lr_final():
    import types
    args = types.SimpleNamespace(lr=1e-3, rounds=28)
    assert [dagger_lr(args, r) for r in (0, 13, 27)] == [1e-3] * 3
    args.lr_final = 1e-4
    rates = [dagger_lr(args, r) for r in range(30)]
    assert rates[0] == 1e-3 and abs(rates[27] - 1e-4) < 1e-12
    assert all(a > b for a, b in zip(rates[:27], rates[1:28])), "it decays every round"
    assert rates[28] == rates[29] == rates[27], "rounds past the last keep the last rate"
    assert abs(rates[13] * rates[14] - 1e-3 * 1e-4) < 1e-12, "geometric: the middle is the mean"


def test_model_selection_keeps_only_the_checkpoints_it_could_still_choose():
    """`select` drops a checkpoint once a later one is at least as good on validation success
    and reward; `choose` then picks what it would have picked from every checkpoint, however
    the figures come (the unpruned choice is written out here), ties going to the later one."""
    import torch

    def unpruned(cands):
        top = max(c[0] for c in cands)
        ok = [i for i, c in enumerate(cands) if c[0] >= top - 0.01]
        return max(reversed(ok), key=lambda i: (cands[i][1], cands[i][0]))

    net = torch.nn.Linear(2, 2)
    rng = np.random.default_rng(7)
    for trial in range(200):
        n = int(rng.integers(1, 40))
        # Coarse figures, so that ties in success and in reward are common.
        cands = [(float(rng.integers(0, 5)) / 4, float(rng.integers(0, 6)) / 5) for _ in range(n)]
        best = None
        for i, (s, r) in enumerate(cands):
            best = select(best, {"success_rate": s, "mean_reward": r,
                                          "mean_harness_actions": 0.0}, net, ("it", i))
        assert choose(best)["tag"] == ("it", unpruned(cands)), cands
        # What is kept is the front: no kept checkpoint is matched by a later kept one.
        kept = best["all"]
        assert all(not (a["success"] <= b["success"] and a["reward"] <= b["reward"])
                   for k, a in enumerate(kept) for b in kept[k + 1:])
    # A run that only improves keeps one checkpoint.
    best = None
    for i in range(50):
        best = select(best, {"success_rate": 1.0, "mean_reward": i / 50,
                                      "mean_harness_actions": 0.0}, net, ("it", i))
    assert [c["tag"] for c in best["all"]] == [("it", 49)]


def test_grpo_samples_legal_templates_from_the_policys_softmax():
    """GRPO's sampler draws each row's template with the softmax's probabilities, never an
    illegal one, and gives the drawn template's log-probability."""
    import torch

    rng = np.random.default_rng(3)
    mask = np.zeros((4, 6), np.uint8)
    mask[0, :] = 1
    mask[1, [1, 4]] = 1
    mask[2, 5] = 1
    mask[3, [0, 2, 3]] = 1
    raw = torch.tensor([[0.0, 1.0, 2.0, -1.0, 0.5, 0.0]] * 4)
    logits = raw + (torch.tensor(mask, dtype=torch.float32) - 1.0) * 1e9
    want = torch.softmax(logits, -1).numpy()
    draws = 40_000
    counts = np.zeros_like(want)
    for _ in range(draws // 100):
        for _ in range(100):
            a, logp = sample(logits, mask, rng)
            counts[np.arange(4), a] += 1
            assert np.allclose(logp, np.log(want[np.arange(4), a]), atol=1e-5)
    assert counts[mask == 0].sum() == 0
    # Within five standard errors of every probability.
    se = np.sqrt(want * (1 - want) / draws)
    assert np.all(np.abs(counts / draws - want) <= 5 * se + 1e-9), counts / draws


def test_gae_on_a_sequence_worked_out_by_hand():
    """Two environments, three steps, gamma 0.9 and lambda 0.5. The first ends its episode at
    the last step (nothing bootstrapped past it); the second ends one at step 0 and is cut
    by the segment's end (bootstrapped from the last value, 4)."""
    rewards = np.array([[1.0, 0.5], [0.0, -1.0], [2.0, 0.25]])
    values = np.array([[0.5, 1.0], [1.0, 2.0], [0.0, 0.5]])
    dones = np.array([[0, 1], [0, 0], [1, 0]])
    adv, ret = gae(rewards, values, dones, np.array([9.0, 4.0]), 0.9, 0.5)
    # First: delta_2 = 2, delta_1 = 0 + 0.9 * 0 - 1 = -1, delta_0 = 1 + 0.9 * 1 - 0.5 = 1.4;
    # A_2 = 2, A_1 = -1 + 0.45 * 2 = -0.1, A_0 = 1.4 + 0.45 * -0.1 = 1.355.
    # Second: delta_2 = 0.25 + 0.9 * 4 - 0.5 = 3.35, delta_1 = -1 + 0.9 * 0.5 - 2 = -2.55,
    # delta_0 = 0.5 - 1 = -0.5 (its episode ended); A_1 = -2.55 + 0.45 * 3.35 = -1.0425.
    assert adv[:, 0] == pytest.approx([1.355, -0.1, 2.0])
    assert adv[:, 1] == pytest.approx([-0.5, -1.0425, 3.35])
    assert ret == pytest.approx(adv + values)
    # Lambda 1 and gamma 1: the return to the end of the episode (or to the bootstrap).
    adv, ret = gae(rewards[:, 1], values[:, 1], dones[:, 1], 4.0, 1.0, 1.0)
    assert ret == pytest.approx([0.5, -1.0 + 0.25 + 4.0, 0.25 + 4.0])


def test_flip_kind_takes_the_likeliest_template_across_the_harness_line():
    harness = np.array([False, False, True, True])
    logits = torch_tensor([[0.0, 1.0, 5.0, 4.0], [3.0, 1.0, 0.0, 2.0], [0.0, 1.0, 5.0, 4.0]])
    mask = np.array([[1, 1, 1, 1], [1, 1, 0, 1], [0, 0, 1, 1]], np.uint8)
    greedy = np.array([2, 0, 2])
    a0, lp0 = np.array([3, 1, 3]), np.zeros(3)
    a, lp = flip_kind(logits, mask, greedy, a0, lp0, harness, np.array([True, True, True]))
    # A world action for a harness choice, a legal harness action for a world one; none legal
    # across the line: as sampled.
    assert list(a) == [1, 3, 3]
    full = np.log(np.exp([0.0, 1.0, 5.0, 4.0]) / np.exp([0.0, 1.0, 5.0, 4.0]).sum())
    assert lp[0] == pytest.approx(full[1], abs=1e-5)
    a, _ = flip_kind(logits, mask, greedy, a0, lp0, harness, np.array([False, True, False]))
    assert list(a) == [3, 3, 3]


def torch_tensor(x):
    import torch

    return torch.tensor(x)


def test_ppo_smoke_trains_exports_and_the_library_loads_it(tmp_path):
    out = tmp_path / "ppo.onnx"
    assert train.main(["--world", WORLD, "--teacher", TEACHER, "--out", str(out), "--smoke",
                       "--quiet", "--rl", "ppo", "--explore", "0.1"]) == 0
    rows = [json.loads(x) for x in (tmp_path / "ppo.train.jsonl").read_text().splitlines()]
    ppo = [r for r in rows if r.get("stage") == 2]
    assert [r["critic_only"] for r in ppo] == [True, False]
    assert ppo[0]["steps"] == 4 * 16 and "value_loss" in ppo[0] and "kl" in ppo[1]
    assert rows[-1]["event"] == "done" and rows[-1]["load_check"].startswith("ok")
    record = json.loads((tmp_path / "ppo.json").read_text())
    assert record["load_check"].startswith("ok")
    pol = evaluate.evaluate(WORLD, f"policy:{out}", range(1_000_000, 1_000_004), None)
    assert pol["episodes"] == 4 and pol["via"] == "agent"
    assert train.main(["--world", WORLD, "--teacher", TEACHER, "--out", str(out), "--smoke",
                       "--rl", "ppo", "--gae-lambda", "1.5"]) == 2


def tracking_teacher(world, event, tracked):
    """The tickets teacher with the habit of a transcript-style harness: it tracks every field
    of an event that Belief does not hold yet, then acts."""
    from worlds.tickets import teacher

    for k, v in event.fields.items():
        if tracked.get(k) != v:
            return ("track", k)
    return teacher(world, event)


def test_skip_labels_are_what_the_teacher_does_once_told_its_tracks_were_done():
    from evoharness import VecEnv

    factory = load_object(WORLD)
    source = WorldSource(factory, world_settings(factory), tracking_teacher)
    with VecEnv.from_worlds(factory, 2, seed=7, **source.settings) as env:
        t = env.templates
        # The first event, {shift}: the teacher tracks it; skipped, it asks for the next ticket.
        labels, _ = source.labels(env)
        assert list(labels) == [t.track(0)] * 2
        assert list(source.skip_labels(env)) == [t.act(0)] * 2
        env.step(source.skip_labels(env))
        assert env.tracked == [{}, {}]  # left out: Belief stays empty
        # {ticket, prio}: two tracks wanted, both faked; the answer is the call it then makes,
        # on the event's ticket field.
        labels, _ = source.labels(env)
        assert list(labels) == [t.track(0)] * 2
        alt = source.skip_labels(env)
        want = [env.intent_template(i, load_object(TEACHER)(None, env.last_event(i)))
                for i in range(2)]
        assert list(alt) == want and all(a not in (t.track(0), t.track(1)) for a in alt)
        # Once it has tracked both, it does not track: no skip label there.
        env.step(labels.astype(np.uint32))
        env.step(source.labels(env)[0].astype(np.uint32))
        assert all(set(x) == {"ticket", "prio"} for x in env.tracked)
        assert list(source.skip_labels(env)) == [-1, -1]
    # A teacher of two parameters cannot be told what was tracked: no skip labels at all.
    plain = WorldSource(factory, source.settings, load_object(TEACHER))
    with VecEnv.from_worlds(factory, 2, seed=7, **source.settings) as env:
        assert list(plain.skip_labels(env)) == [-1, -1]


def skip_probability(skip_label: float) -> float:
    """DAgger from the tracking teacher with ``--skip-label``: the trained policy's median
    probability of the skip label at the states where the teacher tracks."""
    import argparse

    import torch

    torch.manual_seed(0)
    factory = load_object(WORLD)
    source = WorldSource(factory, world_settings(factory), tracking_teacher)
    lay = source.layout
    net = Net(lay["obs_len"], lay["actions"], 64)
    args = argparse.Namespace(lr=1e-3, envs=16, rounds=4, round_steps=40, epochs=4, batch=256,
                              valid_episodes=8, skip_harness=0.3, skip_label=skip_label)
    buf = Buffer(50_000, lay["obs_len"], lay["actions"])
    rows = []
    dagger(net, source, args, lambda **r: rows.append(r), float("inf"), buf,
                    np.random.default_rng(0))
    assert sum(r.get("skipped", 0) for r in rows) > 0
    assert (sum(r.get("skip_labelled", 0) for r in rows) > 0) == (skip_label > 0)
    p = []
    env = source.envs("world", 16, 900_000)
    try:
        for _ in range(30):
            labels, _ = source.labels(env)
            alt = source.skip_labels(env)
            with torch.no_grad():
                probs = torch.softmax(net(tensor(env.obs), tensor(env.mask))[0], -1)
            p += [float(probs[i, alt[i]]) for i in np.flatnonzero((alt >= 0) & (labels >= 0))]
            # The teacher's own episodes; where a full Belief refuses its track, the policy's.
            env.step(np.where(labels >= 0, labels, probs.argmax(-1).numpy()).astype(np.uint32))
    finally:
        env.close()
    return float(np.median(p))


def test_skip_label_leaves_the_policy_a_chance_of_leaving_a_track_out():
    # With a share of 0.5 the policy keeps about 0.5 / 1.5 of probability for the skip, for RL
    # to try; without it, only what a short imitation has not yet unlearned (measured: 0.06-0.09
    # here, by the random draws, 1e-5 on the invoices world after full training). A share of
    # 0.25 (0.15 measured after this short run) sits too near twice that to tell apart.
    without, with_ = skip_probability(0.0), skip_probability(0.5)
    assert without < 0.1 and with_ > max(0.1, 2 * without)


def test_v3_training_moves_through_many_deployments_and_sees_staleness_in_units(tmp_path):
    """v3 training draws each round's environments from a window of the training deployments
    moved on by the seed (the mapping from card to behaviour needs many), and its network
    scales Belief facts' staleness so that a fresh fact and a one-step-old one differ by a
    unit; the scale travels in the exported file and back into --init."""
    src = SuiteSource(["migration"], 50, "retuned", scenario="v3")
    a, b = src.envs("migration", 4, 0), src.envs("migration", 4, 4)
    assert a.organisations == range(0, 4) and b.organisations == range(4, 8)
    v = src.envs("migration", 4, 123, split="valid")
    assert v.organisations == SuiteSource.ORGANISATIONS_V3["valid"]
    for e in (a, b, v):
        e.close()
    scale = staleness_scale(src.layout)
    at = feature_offset(src.layout, "facts", "staleness")  # its first row
    facts = next(s for s in src.layout["segments"] if s["name"] == "facts")
    assert scale[at] == 32.0 and scale[at + facts["width"]] == 32.0
    assert int((scale != 1.0).sum()) == facts["rows"]
    out = tmp_path / "v3.onnx"
    assert train.main(["--suite", "migration", "--scenario", "v3", "--teacher", "retuned",
                       "--out", str(out), "--smoke", "--quiet", "--horizon", "50",
                       "--mistakes", "2"]) == 0
    # --mistakes: every state the learner got wrong is learned twice more.
    first = [json.loads(x) for x in (tmp_path / "v3.train.jsonl").read_text().splitlines()
             if '"stage": 1' in x][0]
    labelled = 4 * 20  # smoke: 4 environments, 20 steps a round
    wrong = round(labelled * (1 - first["agreement"]))
    assert wrong > 0 and first["samples"] == labelled + 2 * wrong
    net = Net(src.layout["obs_len"], src.layout["actions"], 32, scale)  # --smoke: 32
    load_weights(net, out)
    assert np.array_equal(net.scale.numpy(), scale)
    plain = Net(src.layout["obs_len"], src.layout["actions"], 128)
    assert plain.scale is None and "scale" not in plain.state_dict()


def test_units_split_whole_groups_and_one_unit_is_the_whole_set():
    assert unit_slices(32, 4, 0) == [(0, 32)]
    assert unit_slices(32, 4, 64) == [(0, 32)]
    assert unit_slices(32, 4, 10) == [(0, 8), (8, 8), (16, 8), (24, 8)]
    assert unit_slices(10, 1, 4) == [(0, 4), (4, 4), (8, 2)]
    assert unit_slices(12, 4, 3) == [(0, 4), (4, 4), (8, 4)]  # at least a group
    # A suite unit runs the organisations its groups would in the whole set.
    src = SuiteSource(["records"], 50, "lean")
    whole, part = src.envs("records", 8, 0, split="valid"), src.envs("records", 4, 4, split="valid",
                                                                      offset=20)
    try:
        assert whole.organisations == range(5000, 5016)
        assert part.organisations == range(5004, 5020)  # group 0 is the set's group 20
    finally:
        whole.close()
        part.close()


def test_training_on_ray_workers_gives_the_policy_of_one_process(tmp_path):
    """The rollouts (DAgger, GRPO, validation) on two Ray workers of a local cluster: the
    same units, the same draws, so the same weights, log and policy file as in this process
    with the same --unit-envs, and a different split is another run."""
    pytest.importorskip("ray")
    base = ["--world", WORLD, "--teacher", TEACHER, "--smoke", "--quiet", "--unit-envs", "2"]
    files = {}
    for name, extra in (("here", []), ("ray", ["--ray", "local", "--workers", "2"]),
                        ("other", ["--unit-envs", "4"])):
        out = tmp_path / f"{name}.onnx"
        assert train.main(base + extra + ["--out", str(out)]) == 0
        rows = [json.loads(x) for x in (tmp_path / f"{name}.train.jsonl").read_text().splitlines()]
        record = json.loads((tmp_path / f"{name}.json").read_text())
        files[name] = (out.read_bytes(), [(r.get("loss"), r.get("valid_reward"), r.get("rollout_steps"))
                                          for r in rows if "stage" in r], record["rollouts"])
    here, ray, other = files["here"], files["ray"], files["other"]
    assert ray[2]["where"] == "ray local, 2 workers" and here[2]["where"] == "this process"
    assert here[2]["steps"] == ray[2]["steps"] > 0
    assert ray[1] == here[1]
    assert ray[0] == here[0]
    assert other[0] != here[0]


def test_a_world_env_over_the_invoices_world_matches_the_trainer_s_layout():
    """The issue's case: the invoices example declares its capacities (16 facts, 4 steps, 2
    lessons) and budget; the trainer's source and a Gymnasium ``WorldEnv`` over it read the
    same observation (468 floats, not the default capacities' 552)."""
    from evoharness.gym import WorldEnv

    factory = load_object(f"{HERE.parents[2] / 'examples/workflows/invoices/world.py'}:Invoices")
    source = WorldSource(factory, world_settings(factory))
    env = WorldEnv(factory)
    try:
        assert env.harness.layout == source.layout
        assert env.observation_space["observation"].shape == (source.layout["obs_len"],)
        assert env.harness.budget == source.settings["budget"] == factory.budget
    finally:
        env.close()


def test_a_paired_gain_says_better_worse_or_the_same():
    from evoharness.figures import paired_gain, side_by_side, summary, verdict

    row = lambda r: {"success": True, "reward": r, "harness": 1, "world": 5, "steps": 6,  # noqa: E731
                     "cost": 6, "violations": 0}
    teacher = [row(1.0), row(1.1), row(0.9), row(1.0)]
    better = [row(1.2), row(1.25), row(1.1), row(1.21)]
    p = paired_gain(better, teacher)
    assert (p["episodes"], p["better"], p["worse"], p["same"]) == (4, 4, 0, 0)
    assert p["gain"] == pytest.approx(0.19) and p["low"] > 0 and verdict(p) == "better"
    assert verdict(paired_gain(teacher, better)) == "worse"
    same = paired_gain([row(1.0), row(1.2), row(0.8), row(1.0)], teacher)
    assert verdict(same) == "same" and same["low"] < 0 < same["high"]
    assert verdict(paired_gain(teacher, teacher)) == "same"
    # A few ulps apart (the embedded agent and an environment sum rewards along different
    # paths) is the same, not a sliver of an interval below zero.
    ulps = [dict(r, reward=r["reward"] - 4e-16) for r in teacher]
    assert verdict(paired_gain(ulps, teacher)) == "same"
    assert paired_gain(ulps, teacher)["same"] == 4
    text = side_by_side(summary(teacher), summary(better), p, "validation")
    assert "teacher" in text and "better than its teacher" in text and "+0.1900" in text
    with pytest.raises(ValueError):
        paired_gain(teacher, teacher[:2])


def test_a_policy_worse_than_its_teacher_is_not_written_where_asked(tmp_path, capsys):
    """Training too short to imitate the teacher: the policy is worse on the validation
    episodes, so --out stays unwritten, NAME.worse.onnx holds it, the command fails and says
    why; --allow-worse writes it where asked."""
    tiny = ["--world", WORLD, "--teacher", TEACHER, "--quiet", "--envs", "2", "--rounds", "1",
            "--round-steps", "2", "--hidden", "8", "--rl-iters", "0", "--valid-episodes", "8"]
    out = tmp_path / "p.onnx"
    assert train.main(tiny + ["--out", str(out)]) == 1
    captured = capsys.readouterr()
    assert not out.exists() and (tmp_path / "p.worse.onnx").is_file()
    assert "the policy is WORSE than its teacher" in captured.out
    assert "not to" in captured.err and "--allow-worse" in captured.err
    record = json.loads((tmp_path / "p.json").read_text())
    assert record["against_teacher"]["verdict"] == "worse"
    assert record["against_teacher"]["episodes"] == 8
    assert record["teacher_valid"]["success_rate"] > record["selected"]["valid_success"]
    assert train.main(tiny + ["--out", str(out), "--allow-worse"]) == 0
    assert out.is_file()


def test_branching_rollouts_train_on_a_python_world(tmp_path):
    """`--rl rollouts` on a world written in Python: its environments are made copyable (the
    worlds pickled), copies branch, and the policy exports."""
    out = tmp_path / "r.onnx"
    assert train.main(["--world", WORLD, "--teacher", TEACHER, "--out", str(out), "--smoke",
                       "--quiet", "--rl", "rollouts"]) == 0
    rows = [json.loads(x) for x in (tmp_path / "r.train.jsonl").read_text().splitlines()]
    stage2 = [r for r in rows if r.get("stage") == 2]
    assert stage2 and stage2[0]["branch_points"] >= 1
    assert out.is_file()


WASTEFUL = f"{HERE / 'worlds' / 'tickets.py'}:wasteful_teacher"
IMPROVE = ["--world", WORLD, "--teacher", WASTEFUL, "--quiet", "--envs", "16", "--rounds", "6",
           "--round-steps", "60", "--epochs", "4", "--hidden", "64", "--rl-iters", "2",
           "--valid-episodes", "32", "--rl-states", "64", "--groups", "8"]


def stage2_rows(path) -> list[dict]:
    return [r for r in map(json.loads, path.read_text().splitlines()) if r.get("stage") == 2]


def test_the_plain_command_leaves_out_a_track_no_decision_reads(tmp_path):
    """The default stage 2 with a teacher (`--rl improve`): the teacher keeps the queue's shift
    in Belief though nothing reads it; the measured gain of doing without it is a step an
    episode, the improved teacher leaves it out, passes its check against the teacher, and the
    policy written is better than the teacher on every validation episode, with no harness
    action."""
    out = tmp_path / "p.onnx"
    assert train.main(IMPROVE + ["--out", str(out)]) == 0
    record = json.loads((tmp_path / "p.json").read_text())
    assert "--rl" not in record["command"].split()
    assert record["selected"]["checkpoint"][0] == "improve"
    assert record["against_teacher"]["verdict"] == "better"
    assert record["against_teacher"]["better"] == record["against_teacher"]["episodes"]
    assert record["teacher_valid"]["mean_harness_actions"] == 1.0
    assert record["selected"]["valid_harness"] == 0.0
    rows = stage2_rows(tmp_path / "p.train.jsonl")
    assert rows and all(r["rule_passed"] for r in rows)
    assert rows[-1]["changes"].startswith("track -> act:next_ticket")


def test_gains_that_make_the_improved_teacher_worse_are_not_used(tmp_path, monkeypatch):
    """Gains that say finishing at once beats everything else (and nothing else differs): the
    improved teacher that changes world actions, checked against the teacher on its check
    episodes, fails; the one that only leaves harness actions out changes nothing and passes.
    So no label is changed, and the imitation is what is written."""
    from evoharness.train import improve as improve_module

    def wrong(q, opt, ring, unit, steps, batch, rng):
        finish = [i for i, (verb, _) in enumerate(ring_layout["templates"]) if verb == "finish"]
        with torch.no_grad():
            q.f[-1].weight.zero_()
            q.f[-1].bias.zero_()
            q.f[-1].bias[finish] = 1e3
            q.f[-1].bias[len(ring_layout["templates"]):] = -1e3  # no risk seen anywhere
        return 0.0

    import torch

    probe = WorldSource(load_object(WORLD, "--world"), world_settings(load_object(WORLD, "--world"), None))
    ring_layout = probe.layout
    monkeypatch.setattr(improve_module, "fit_gains", wrong)
    out = tmp_path / "p.onnx"
    assert train.main(IMPROVE + ["--out", str(out), "--rl-iters", "1"]) == 0
    rows = stage2_rows(tmp_path / "p.train.jsonl")
    assert len(rows) == 1 and rows[0]["rule_passed"] and rows[0]["rule_world"] is False
    assert rows[0]["rule_gain"] == 0.0 and rows[0]["relabelled"] == 0.0
    record = json.loads((tmp_path / "p.json").read_text())
    assert record["selected"]["checkpoint"][0] == "dagger"
    assert record["against_teacher"]["verdict"] == "same"


def test_the_improved_teacher_never_adds_a_harness_action():
    """Whatever the gains say, a state the teacher labels with a world action is relabelled only
    with another world action (or finish), and a harness label only with its skip label."""
    from evoharness.train.improve import Gains, Improved
    from evoharness.train.layout import harness_templates

    import torch

    source = WorldSource(load_object(WORLD, "--world"),
                         world_settings(load_object(WORLD, "--world"), None),
                         load_object(WASTEFUL, "--teacher"))
    lay = source.layout
    harness = harness_templates(lay)
    net = Net(lay["obs_len"], lay["actions"], 16)
    gains = [Gains(lay["obs_len"], lay["actions"], 16)]
    with torch.no_grad():  # every harness template looks wonderful, every other one dreadful
        gains[0].f[-1].bias[: lay["actions"]] = torch.as_tensor(np.where(harness, 1e3, -1e3))
        gains[0].f[-1].bias[lay["actions"]:] = -1e3  # no risk anywhere
    improved = Improved(source, net, gains, 5)
    env = source.envs("world", 8, 0)
    try:
        for _ in range(12):
            taught = improved.teacher(env)
            labels = improved.relabel(env.obs, env.mask, taught)
            for (label, skip), new in zip(taught, labels):
                if label < 0:
                    continue
                if harness[label]:
                    assert new in (label, skip)
                else:
                    assert not harness[new]
            env.step(taught[:, 0].astype(np.uint32))
    finally:
        env.close()


def test_the_learning_bench_tabulates_a_trained_policy(tmp_path):
    """`examples/learning/run.sh table --policies DIR`: the policy DIR/NAME.onnx that the
    trainer wrote for a bench world is evaluated beside the teacher, paired, with its record's
    training time, and its row says which checkpoint was kept."""
    import importlib.util

    root = HERE.parents[2]
    spec = importlib.util.spec_from_file_location("bench", root / "examples/learning/bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    world = root / "examples/learning/catalog.py"
    assert train.main(["--world", f"{world}:Catalog", "--teacher", f"{world}:track_everything",
                       "--out", str(tmp_path / "catalog.onnx"), "--smoke", "--quiet"]) == 0
    seeds = range(1_000_000, 1_000_008)
    assert bench.policy_row("rollout", seeds, tmp_path) is None  # no file for it
    row = bench.policy_row("catalog", seeds, tmp_path)
    assert row["better"] + row["worse"] + row["same"] == len(seeds)
    record = json.loads((tmp_path / "catalog.json").read_text())
    assert row["train_s"] == record["stage1_s"] + record["stage2_s"]
    hand = bench.run("catalog", seeds)
    text = bench.policy_table([row], [hand], seeds)
    assert "| catalog |" in text and f"{hand['gain']:+.4f}" in text


class Unpicklable(load_object(WORLD, "--world")):
    """The tickets world holding a lambda: its attributes do not pickle, so its environments
    cannot be copied."""

    def reset(self, seed):
        self.hook = lambda: None
        return super().reset(seed)


def test_a_world_that_does_not_pickle_trains_by_grpo_and_says_so(tmp_path, capsys):
    """With no --rl, stage 2 falls back to GRPO and says why; asked for improve by name, the
    command refuses before training."""
    out = tmp_path / "p.onnx"
    argv = ["--world", f"{__file__}:Unpicklable", "--teacher", TEACHER, "--smoke", "--quiet"]
    assert train.main(argv + ["--out", str(out)]) == 0
    assert "do not pickle" in capsys.readouterr().err
    start = json.loads((tmp_path / "p.train.jsonl").read_text().splitlines()[0])
    assert start["args"]["rl"] == "grpo"
    assert train.main(argv + ["--out", str(out), "--rl", "improve"]) == 2
    assert "do not pickle" in capsys.readouterr().err
