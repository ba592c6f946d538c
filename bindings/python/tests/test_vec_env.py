"""The VecEnv and layout through the C library: sizes from the library, teacher-driven
episodes that succeed, refusals that change nothing, groups that run the same episodes."""

import numpy as np
import pytest

import evoharness


def test_layout_comes_from_the_library():
    caps = evoharness.suite_capacities()
    assert caps == {"facts": 16, "steps": 8, "lessons": 4, "tools": 8}
    lay = evoharness.suite_layout()
    env = evoharness.VecEnv("migration", 50, 2)
    assert (lay["obs_len"], lay["actions"]) == (env.obs_len, env.actions)
    assert len(lay["templates"]) == lay["actions"]
    last = lay["segments"][-1]
    assert last["offset"] + last["rows"] * last["width"] == lay["obs_len"]
    verbs = {v for v, _ in lay["templates"]}
    assert verbs == {"finish", "act", "track", "commit", "recall", "note"}
    with pytest.raises(evoharness.EvoharnessError):
        evoharness.layout(16, 8, 4, 0)
    env.close()


@pytest.mark.parametrize("task", sorted(evoharness.TASKS))
def test_the_lean_teacher_succeeds_through_python(task):
    env = evoharness.VecEnv(task, 80, 4, organisations=range(3), seed=7)
    episodes = []
    while len(episodes) < 8:
        a = env.teacher_actions("lean")
        assert all(env.mask[i, a[i]] == 1 for i in range(env.n))
        _, _, reward, done = env.step(a)
        for i in np.nonzero(done)[0]:
            e = env.last_episode(int(i))
            assert reward[i] > 1.0
            episodes.append(e)
    assert all(e["success"] and e["integrity_violations"] == 0 for e in episodes)
    assert env.last_episode(0)["harness_actions"] < env.last_episode(0)["world_actions"]


@pytest.mark.parametrize("teacher", ["lean", "tuned"])
def test_v2_tasks_through_python_cost_more_and_the_rules_still_succeed(teacher):
    with pytest.raises(ValueError, match="scenario"):
        evoharness.VecEnv("records", 80, 2, scenario="v4")
    env = evoharness.VecEnv("records", 120, 4, organisations=range(2), seed=3, scenario="v2")
    assert env.scenario == "v2"
    episodes = []
    while len(episodes) < 12:
        _, _, _, done = env.step(env.teacher_actions(teacher))
        episodes += [env.last_episode(int(i)) for i in np.nonzero(done)[0]]
    assert all(e["success"] for e in episodes)
    # A quarter of the items rejected: remedies are noted (and failed ones marked) in v2, and
    # a world call costs two units of budget.
    assert sum(e["harness_by_verb"]["note"] for e in episodes) > 0
    assert all(e["cost"] >= 2 * e["world_actions"] for e in episodes)
    # Only the tuned rule recalls lessons from the experience store.
    recalls = sum(e["harness_by_verb"]["recall"] for e in episodes)
    assert (recalls > 0) == (teacher == "tuned")
    env.close()


def test_agents_with_a_lifetime_start_afresh_on_the_next_organisation():
    with pytest.raises(ValueError, match="lifetime"):
        evoharness.VecEnv("records", 60, 2, scenario="v2", lifetime=-1)
    g = [s for s in evoharness.suite_layout()["segments"] if s["name"] == "global"][0]
    names = [name for name, _ in g["features"]]
    assert all(w == 1 for _, w in g["features"][: names.index("experience_fill")])
    fill = g["offset"] + names.index("experience_fill")
    firsts = {}
    for lifetime in (0, 2):
        env = evoharness.VecEnv("records", 60, 2, organisations=range(3), seed=3,
                                scenario="v2", lifetime=lifetime)
        assert env.lifetime == lifetime
        # The experience fill each environment starts its episodes 2, 3 and 4 with.
        seen = [[] for _ in range(env.n)]
        while min(env.episodes(i) for i in range(env.n)) < 4:
            obs, _, _, done = env.step(env.teacher_actions("tuned"))
            for i in np.nonzero(done)[0]:
                if env.episodes(int(i)) < 4:
                    seen[i].append(float(obs[i, fill]))
        firsts[lifetime] = seen
        env.close()
    # The tuned rule notes lessons; an agent that lives on starts each episode with some, a
    # new one (after episodes 2 and 4) with none.
    assert all(f > 0 for s in firsts[0] for f in s)
    assert all(s[1] == 0 and s[0] > 0 and s[2] > 0 for s in firsts[2])


@pytest.mark.parametrize("teacher", ["static", "static-lean"])
def test_the_static_teacher_labels_a_learners_states_and_leads_harness_heavy_episodes(teacher):
    env = evoharness.VecEnv("migration", 60, 2, organisations=range(2), seed=3)
    episodes, strayed = [], 0
    rng = np.random.default_rng(0)
    for step in range(4000):
        a = env.teacher_actions(teacher)
        assert a.dtype == np.int64
        ok = a >= 0
        assert all(env.mask[i, a[i]] == 1 for i in np.flatnonzero(ok))
        # Past the first 1,500 steps a learner strays a tenth of the time; before, it follows.
        stray = (rng.random(env.n) < 0.1) & (step > 1500) | ~ok
        legal = [np.flatnonzero(env.mask[i])[0] for i in range(env.n)]
        a = np.where(stray, legal, a)
        strayed += int(stray.sum())
        _, _, _, done = env.step(a)
        if step <= 1500:
            episodes += [env.last_episode(int(i)) for i in np.nonzero(done)[0]]
    assert strayed > 0 and episodes
    assert all(e["success"] for e in episodes)
    assert all(e["harness_actions"] > e["world_actions"] for e in episodes)


def test_refusals_change_nothing():
    env = evoharness.VecEnv("records", 50, 2)
    before = env.obs.copy(), env.mask.copy()
    illegal = np.array([np.flatnonzero(env.mask[i] == 0)[0] for i in range(2)], np.uint32)
    with pytest.raises(evoharness.EvoharnessError, match="environment 0"):
        env.step(illegal)
    env.observe()
    assert np.array_equal(env.obs, before[0]) and np.array_equal(env.mask, before[1])
    with pytest.raises(ValueError):
        env.step(np.zeros(3, np.uint32))
    with pytest.raises(ValueError):
        evoharness.VecEnv("payroll", 50, 2)
    with pytest.raises(evoharness.EvoharnessError):
        evoharness.VecEnv("records", 50, 0)
    with pytest.raises(evoharness.EvoharnessError):
        evoharness.VecEnv("records", 50, 4, group=3)
    with pytest.raises(evoharness.EvoharnessError, match="no environment 2"):
        env.episodes(2)
    with pytest.raises(evoharness.EvoharnessError, match="no environment 2"):
        env.last_episode(2)
    env.close()
    with pytest.raises(evoharness.EvoharnessError, match="closed"):
        env.observe()
    env.close()  # twice is fine


def test_a_copy_plays_on_like_its_source():
    env = evoharness.VecEnv("migration", 100, 3, organisations=range(3), seed=5, scenario="v2")
    for _ in range(40):  # environment 2 goes its own way on another organisation
        a = env.teacher_actions("lean")
        a[2] = np.flatnonzero(env.mask[2])[-1]
        env.step(a)
    assert not np.array_equal(env.obs[0], env.obs[2])
    with pytest.raises(evoharness.EvoharnessError, match="no environment 3"):
        env.copy(0, 3)
    with pytest.raises(evoharness.EvoharnessError, match="no environment -1"):
        env.copy(-1, 0)
    env.copy(0, 2)
    assert np.array_equal(env.obs[0], env.obs[2]) and np.array_equal(env.mask[0], env.mask[2])
    assert env.episodes(2) == env.episodes(0)
    steps = 0
    while True:
        a = env.teacher_actions("tuned")
        a[2] = a[0]
        _, _, reward, done = env.step(a)
        steps += 1
        assert reward[0] == reward[2] and done[0] == done[2], steps
        if done[0]:
            break
        assert np.array_equal(env.obs[0], env.obs[2]), steps
    assert steps > 20
    assert env.last_episode(0) == env.last_episode(2)
    env.close()


def test_a_group_sees_the_same_episode():
    env = evoharness.VecEnv("orchestration", 60, 6, organisations=range(2), seed=3, group=3)
    for _ in range(3):  # the first event (the task's notice) is the same for every seed
        env.step(env.teacher_actions("lean"))
    for g in range(2):
        assert np.array_equal(env.obs[3 * g], env.obs[3 * g + 2])
    assert not np.array_equal(env.obs[0], env.obs[3])
    env.close()


def test_workspace_snapshots_round_trip_and_bad_ones_change_nothing():
    ws = evoharness.Workspace(facts=8, steps=4, lessons=2, tools=3, budget=50)
    info = ws.info()
    assert info["capacities"] == {"facts": 8, "steps": 4, "lessons": 2, "tools": 3}
    assert (info["budget"], info["spent"], info["finished"], info["has_event"]) == (50, 0, None, False)
    snap = ws.snapshot()
    assert snap[:4] == b"EVHW"
    other = evoharness.Workspace(facts=8, steps=4, lessons=2, tools=3, budget=50)
    other.restore(snap)
    assert other.snapshot() == snap
    bad = bytearray(snap)
    bad[-1] ^= 0xFF
    with pytest.raises(evoharness.EvoharnessError):
        other.restore(bytes(bad))
    with pytest.raises(evoharness.EvoharnessError):
        other.restore(b"")
    assert other.snapshot() == snap, "a refused snapshot changes nothing"
    with pytest.raises(evoharness.EvoharnessError):
        other.apply(b"\x07")  # not a frame of this version
    assert other.snapshot() == snap
    with pytest.raises(evoharness.EvoharnessError):
        evoharness.Workspace(facts=0)
    ws.close()
    with pytest.raises(evoharness.EvoharnessError, match="closed"):
        ws.snapshot()


def test_organisations_are_counts_or_ranges_and_families_is_their_old_name():
    a = evoharness.VecEnv("migration", 50, 4, organisations=3, seed=1)
    b = evoharness.VecEnv("migration", 50, 4, range(0, 3), 1)
    c = evoharness.VecEnv("migration", 50, 4, families=range(3), seed=1)
    assert a.organisations == b.organisations == c.organisations == range(3)
    for _ in range(5):
        for e in (a, b, c):
            e.step(e.teacher_actions("lean"))
    assert np.array_equal(a.obs, b.obs) and np.array_equal(a.obs, c.obs)
    d = evoharness.VecEnv("migration", 50, 4, organisations=range(5, 8), seed=1)
    for _ in range(5):
        d.step(d.teacher_actions("lean"))
    assert not np.array_equal(a.obs, d.obs), "other organisations, other episodes"
    with pytest.raises(ValueError):
        evoharness.VecEnv("migration", 50, 4, organisations=range(0, 6, 2))
    for e in (a, b, c, d):
        e.close()


def test_v3_deployments_through_python_carry_their_card_and_the_fixed_best_rule_succeeds():
    env = evoharness.VecEnv("migration", 80, 4, organisations=range(40, 44), seed=5, scenario="v3")
    assert env.scenario == "v3"
    episodes = []
    while len(episodes) < 12:
        _, _, _, done = env.step(env.teacher_actions("fixed-best"))
        episodes += [env.last_episode(int(i)) for i in np.nonzero(done)[0]]
    assert sum(e["success"] for e in episodes) >= 11, episodes
    # The fixed-best rule commits cursors (crashes roll back to them) and never recalls.
    assert sum(e["harness_by_verb"]["commit"] for e in episodes) > 0
    assert sum(e["harness_by_verb"]["recall"] for e in episodes) == 0
    env.close()


def test_v3_the_retuned_teacher_is_each_organisations_own_rule():
    """The retuned teacher differs between deployments (it tunes each organisation on its own
    episodes) and, in one organisation, is what the fixed-best teacher is where that setting
    is the one tuning found; it succeeds as a teacher should."""
    env = evoharness.VecEnv("migration", 60, 8, organisations=range(100, 108), seed=3, scenario="v3")
    episodes, differ = [], 0
    while len(episodes) < 24:
        retuned = env.teacher_actions("retuned")
        differ += int((retuned != env.teacher_actions("fixed-best")).sum())
        _, _, _, done = env.step(retuned)
        episodes += [env.last_episode(int(i)) for i in np.nonzero(done)[0]]
    assert differ > 0, "some deployment's own setting is not the fixed-best one"
    assert sum(e["success"] for e in episodes) >= 22, episodes
    env.close()


def test_structured_v2_appends_the_harness_segment_and_counts_harness_actions():
    """`layout_version=2`: the same templates and masks, structured-v1's floats first, then
    the configured costs, the harness streak (one-hot, 4 meaning 4 or more) and the last
    harness verb."""
    v1, v2 = evoharness.suite_layout(), evoharness.suite_layout(2)
    assert (v2["abi"], v2["layout_version"]) == ("structured-v2", 2)
    assert v2["templates"] == v1["templates"] and v2["segments"][:-1] == v1["segments"]
    seg = v2["segments"][-1]
    assert (seg["name"], seg["offset"], seg["rows"]) == ("harness", v1["obs_len"], 1)
    assert [f[0] for f in seg["features"]] == ["costs", "streak", "last_harness"]
    a = evoharness.VecEnv("migration", 60, 2, seed=3)
    b = evoharness.VecEnv("migration", 60, 2, seed=3, layout_version=2)
    assert (b.obs_len, b.layout_version) == (v2["obs_len"], 2)
    streaks = []
    for _ in range(40):
        np.testing.assert_array_equal(a.obs, b.obs[:, : v1["obs_len"]])
        np.testing.assert_array_equal(a.mask, b.mask)
        at = v1["obs_len"]
        np.testing.assert_allclose(b.obs[0, at:at + 6], [0.2] * 5 + [0.0])  # default costs
        streaks.append(int(np.argmax(b.obs[0, at + 6:at + 11])))
        act = a.teacher_actions("static")
        a.step(act)
        b.step(act)
    assert max(streaks) > 0, "the static teacher takes harness actions in a row"
    with pytest.raises(ValueError, match="layout version 3"):
        evoharness.VecEnv("migration", 60, 2, layout_version=3)
    a.close()
    b.close()


def test_the_teacher_names_are_the_c_headers_enum():
    """One list of the suite's teachers: Python's TEACHERS is the C enum evoharness_teacher of
    the committed header (EVOHARNESS_TEACHER_STATIC_LEAN = 4 is "static-lean": 4), name for
    name and value for value; the Rust side maps that enum with an exhaustive match."""
    import pathlib
    import re

    header = (pathlib.Path(__file__).resolve().parents[3]
              / "bindings" / "train-c" / "include" / "evoharness_train.h").read_text()
    enum = {m.group(1).lower().replace("_", "-"): int(m.group(2))
            for m in re.finditer(r"EVOHARNESS_TEACHER_([A-Z_]+) = (\d+)", header)}
    assert len(enum) >= 8, enum
    assert evoharness.TEACHERS == enum
