"""Worlds written in Python (evoharness.world) through the library's VecEnv: a world the suite
has never seen, with 3 and 5 tools, stepped with random legal actions and with a script; its
episode stats; and the error a user gets for each mistake."""

import numpy as np
import pytest

import evoharness
from evoharness import Event, HarnessEnv, VecEnv, WorldError


class Invoices:
    """Invoice-to-payment, small: `next` gives an invoice id (or done), `pay` pays one by id,
    `audit` says how many are unpaid. 2 + seed % 3 invoices; success is finishing with every
    invoice paid exactly once."""

    tools = ["next", "pay", "audit"]

    def __init__(self):
        self.items, self.next, self.paid, self.seeds = 0, 0, [], []

    def reset(self, seed):
        self.seeds.append(seed)
        self.items, self.next = 2 + seed % 3, 0
        self.paid = [0] * self.items
        return Event.notice(invoices=self.items, org="acme")

    def call(self, tool, args):
        if tool == "next":
            if self.next < self.items:
                self.next += 1
                return Event.result(invoice=100 + self.next - 1, amount=12.5)
            return Event.result(done=True)
        if tool == "pay":
            if not args or not isinstance(args[0], int) or not 100 <= args[0] < 100 + self.items:
                return Event.error(code="unknown_invoice")
            self.paid[args[0] - 100] += 1
            return {"paid": args[0]}  # a dict is a result event
        return Event.result(unpaid=sum(p == 0 for p in self.paid))

    def judge(self, finished):
        doubles = sum(p > 1 for p in self.paid)
        return {"success": finished is True and all(p == 1 for p in self.paid),
                "violations": doubles, "paid": sum(self.paid)}


class Five(Invoices):
    """The same with five tools (two that only report)."""

    tools = ["next", "pay", "audit", "balance", "ping"]

    def call(self, tool, args):
        if tool in ("balance", "ping"):
            return Event.result(ok=True, note=b"\x00\x01")
        return super().call(tool, args)


class Scripted(Invoices):
    """Invoices that remember what it said last, for the script."""

    def reset(self, seed):
        self.said = "start"
        return super().reset(seed)

    def call(self, tool, args):
        e = super().call(tool, args)
        fields = e.fields if isinstance(e, Event) else e
        self.said = "invoice" if "invoice" in fields else "done" if "done" in fields else "other"
        return e


def scripted_action(env, i):
    t, said = env.templates, env.worlds[i].said
    if said == "invoice":
        return t.act(1, field=0)  # pay the invoice the event shows
    if said == "done":
        return t.finish(True)
    return t.act(0)


def test_a_scripted_world_succeeds_with_its_stats():
    env = VecEnv.from_worlds(Scripted, 3, budget=40, seed=10)
    assert env.tools == ["next", "pay", "audit"]
    assert env.capacities == {"facts": 16, "steps": 8, "lessons": 4, "tools": 3}
    assert env.layout["tools"] == 3 and env.actions == env.layout["actions"] < 348
    assert env.obs.shape == (3, env.obs_len) and env.mask.shape == (3, env.actions)
    assert [w.seeds for w in env.worlds] == [[10], [11], [12]]
    episodes = []
    while len(episodes) < 9:
        acts = [scripted_action(env, i) for i in range(3)]
        assert all(env.mask[i, a] == 1 for i, a in enumerate(acts))
        _, _, reward, done = env.step(acts)
        for i in np.flatnonzero(done):
            e = env.last_episode(int(i))
            assert reward[i] > 1.0
            episodes.append((int(i), e))
    for i, e in episodes:
        assert e["success"] and e["finished"] is True and e["violations"] == 0
        assert e["harness_actions"] == 0 and e["world_actions"] % 2 == 1
        items = (e["world_actions"] - 1) // 2
        assert e["judge"]["paid"] == items and 2 <= items <= 4
        assert e["steps"] == e["world_actions"] + 1 and e["cost"] == e["world_actions"]
    # Environment i's k-th episode runs seed 10 + i + 3k.
    assert env.worlds[1].seeds[:3] == [11, 14, 17]
    assert env.episodes(0) >= 3
    env.close()


@pytest.mark.parametrize("world", [Invoices, Five])
def test_random_legal_actions_run_episodes_to_their_end(world):
    env = VecEnv.from_worlds(world, 4, budget=30, seed=1, costs={"track": 2})
    rng = np.random.default_rng(0)
    ended = []
    for _ in range(600):
        acts = [rng.choice(np.flatnonzero(m)) for m in env.mask]
        _, _, reward, done = env.step(acts)
        assert reward.dtype == np.float32 and np.all(np.isfinite(reward))
        for i in np.flatnonzero(done):
            ended.append(env.last_episode(int(i)))
    assert len(ended) > 20
    for e in ended:
        assert e["cost"] <= 30
        assert e["steps"] == e["world_actions"] + e["harness_actions"] + (e["finished"] is not None)
        assert e["finished"] is not None or e["cost"] >= 29  # out of budget
        assert not e["success"] or e["violations"] == 0
        assert set(e["harness_by_verb"]) == {"track", "commit", "recall", "note"}
        assert "paid" in e["judge"]
    env.close()


def test_the_gymnasium_wrapper():
    gym_mod = pytest.importorskip("evoharness.gym")
    env = gym_mod.HarnessVectorEnv(Scripted, 2, budget=25, seed=3)
    obs, info = env.reset(seed=4)
    assert env.observation_space.contains(obs)
    assert env.single_action_space.n == env.harness.actions
    seen = None
    for _ in range(200):
        acts = [scripted_action(env.harness, i) for i in range(2)]
        obs, rew, term, trunc, info = env.step(acts)
        if "episode" in info:
            i = int(np.flatnonzero(info["_episode"])[0])
            seen = info["episode"][i]
            assert term[i] and not trunc[i]
            break
    assert seen is not None and seen["success"]
    env.close()


class Raises(Invoices):
    def call(self, tool, args):
        if tool == "audit":
            raise KeyError("the audit service is down")
        return super().call(tool, args)


class Returns:
    """Returns whatever it is told to, from `call`."""

    tools = ["a", "b"]
    value = None

    def reset(self, seed):
        return Event.notice()

    def call(self, tool, args):
        return type(self).value

    def judge(self, finished):
        return {"success": False}


def test_an_exception_in_the_world_is_a_world_error_with_its_text():
    env = VecEnv.from_worlds(Raises, 2, budget=30)
    audit = env.templates.act(2)
    with pytest.raises(WorldError, match="world 0: KeyError: 'the audit service is down'") as e:
        env.step([audit, audit])
    assert isinstance(e.value.__cause__, KeyError)
    assert e.value.status == 17  # EVOHARNESS_STATUS_WORLD
    # The environment goes on after a failure.
    env.step([env.templates.act(0)] * 2)
    env.close()


@pytest.mark.parametrize("value, message", [
    (None, "call('a', []) returned NoneType"),
    ([1, 2], "returned list"),
    (Event("oops"), "kind 'oops'"),
    (Event.result(x=[1]), "field 'x' of type list"),
    (Event.result(k_this_is_too_long_a_key=1), "keys are non-empty str of at most 16 bytes"),
    (Event.result(t="x" * 33), "text of 33 bytes; at most 32"),
    (Event.result(b=b"x" * 33), "33 bytes; at most 32"),
    (Event.result(i=1 << 64), "out of the 64-bit range"),
    (Event.result(**{f"f{i}": i for i in range(9)}), "9 fields; at most 8"),
])
def test_a_bad_event_is_a_world_error_that_says_what_is_wrong(value, message):
    Returns.value = value
    env = VecEnv.from_worlds(Returns, 1, budget=10)
    with pytest.raises(WorldError, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):
        env.step([env.templates.act(0)])
    env.close()


class BadJudge(Invoices):
    verdict = None

    def judge(self, finished):
        return type(self).verdict


@pytest.mark.parametrize("verdict, message", [
    (None, "return a dict with at least 'success'"),
    ({"violations": 0}, "return a dict with at least 'success'"),
    ({"success": 1}, "success=1; it must be a bool"),
    ({"success": True, "violations": -1}, "violations=-1"),
])
def test_a_bad_verdict_is_a_world_error(verdict, message):
    BadJudge.verdict = verdict
    env = VecEnv.from_worlds(BadJudge, 1, budget=10)
    with pytest.raises(WorldError, match=message):
        env.step([env.templates.finish(True)])  # the episode ends: the world is judged
    env.close()


def test_mistakes_in_making_an_environment_are_clear():
    class TooMany(Invoices):
        tools = [f"t{i}" for i in range(65)]

    class NoTools(Invoices):
        tools = []

    class Twice(Invoices):
        tools = ["next", "next"]

    class NoCall:
        tools = ["a"]

        def reset(self, seed):
            return Event.notice()

    class BadReset(Invoices):
        def reset(self, seed):
            return "hello"

    with pytest.raises(WorldError, match="65 tools; a layout expresses 1 to 64"):
        VecEnv.from_worlds(TooMany, 1)
    with pytest.raises(WorldError, match="0 tools"):
        VecEnv.from_worlds(NoTools, 1)
    with pytest.raises(WorldError, match="'next' is repeated"):
        VecEnv.from_worlds(Twice, 1)
    with pytest.raises(WorldError, match="no `call` method"):
        VecEnv.from_worlds(NoCall, 1)
    with pytest.raises(WorldError, match=r"reset\(0\) returned str"):
        VecEnv.from_worlds(BadReset, 1)
    worlds = iter([Invoices(), Five()])
    with pytest.raises(WorldError, match="same"):
        VecEnv.from_worlds(lambda: next(worlds), 2)
    with pytest.raises(ValueError, match="unknown capacity 'tools'"):
        VecEnv.from_worlds(Invoices, 1, capacities={"tools": 4})
    with pytest.raises(ValueError, match="unknown verb"):
        VecEnv.from_worlds(Invoices, 1, costs={"fly": 1})
    with pytest.raises(evoharness.EvoharnessError, match="capacities"):
        VecEnv.from_worlds(Invoices, 1, capacities={"facts": 0})
    with pytest.raises(evoharness.EvoharnessError, match="do not divide"):
        VecEnv.from_worlds(Invoices, 3, group=2)
    env = VecEnv.from_worlds(Invoices, 2, capacities={"facts": 4, "steps": 2, "lessons": 1}, horizon=20)
    assert env.layout["facts"] == 4 and env.budget == 20
    with pytest.raises(evoharness.EvoharnessError, match="environment 0"):
        env.step([int(np.flatnonzero(env.mask[0] == 0)[0]), env.templates.act(0)])
    with pytest.raises(ValueError):
        env.templates.act(3)
    env.close()
    with pytest.raises(evoharness.EvoharnessError, match="closed"):
        env.observe()


def test_the_readme_world_runs_as_it_stands_there():
    import pathlib

    readme = (pathlib.Path(__file__).resolve().parents[1] / "README.md").read_text()
    block = readme[readme.index("## Your own world"):]
    code = block[block.index("```python\n") + 10:]
    code = code[:code.index("```")]
    scope = {}
    exec(compile(code, "README.md", "exec"), scope)
    env = scope["env"]
    assert env.n == 16 and env.tools == ["next", "pay", "audit"]
    assert scope["done"].shape == (16,)
    env.close()


def invoice_teacher(world, event):
    """Says what to do in high-level terms, from the last event: pay what `next` showed."""
    if "invoice" in event.fields:
        return ("call", "pay", event.fields["invoice"])
    if "done" in event.fields:
        return ("finish", True)
    return ("call", "next")


def test_a_teacher_in_high_level_terms_is_mapped_to_templates():
    env = VecEnv.from_worlds(Invoices, 3, budget=40, seed=4)
    ended = 0
    while ended < 6:
        acts = env.teacher_actions(invoice_teacher)
        assert all(env.mask[i, a] == 1 for i, a in enumerate(acts))
        _, _, _, done = env.step(acts)
        for i in np.flatnonzero(done):
            assert env.last_episode(int(i))["success"]
            ended += 1
    t = env.templates
    assert env.intent_template(0, ("call", "next")) == t.act(0)
    assert env.intent_template(0, "finish") == t.finish(True)
    assert env.intent_template(0, {"finish": False}) == t.finish(False)
    env.close()


def test_a_teacher_action_the_layout_cannot_express_is_a_clear_error():
    env = VecEnv.from_worlds(Scripted, 1, budget=40)
    env.step([env.templates.act(0)])  # the event is now {invoice: 100, amount: 12.5}
    assert env.intent_template(0, ("call", "pay", 100)) == env.templates.act(1, field=0)
    assert env.intent_template(0, ("track", "amount")) == env.templates.track(1)
    cases = [
        (("call", "pay", 999), evoharness.TeacherError,
         'cannot express a call of "pay" with Int(999): a call\'s argument must be a field of '
         "the current event or a belief slot"),
        (("call", "refund"), evoharness.TeacherError, 'no tool "refund"'),
        (("track", "code"), evoharness.TeacherError,
         'the current event has no field "code" (its fields: invoice, amount)'),
        (("retract", "code"), evoharness.TeacherError, 'belief has no fact "code"'),
        (("step", 99, "start"), evoharness.TeacherError, "it has 8 plan steps"),
        (("step", 0, "complete"), evoharness.TeacherError, "not legal now"),
        (("fly", 1), ValueError, "unknown teacher action"),
        (("call", "pay", b"x"), ValueError, "not bytes"),
        (("track",), ValueError, "track takes a key"),
    ]
    for action, error, message in cases:
        with pytest.raises(error, match=re_escape(message)):
            env.intent_template(0, action)
    env.close()


def re_escape(s):
    import re

    return re.escape(s)


class Reenters(Invoices):
    """Calls back into its own environment from inside a tool call: a bug the library refuses."""

    env = None

    def call(self, tool, args):
        type(self).env.observe()
        return super().call(tool, args)


def test_a_world_that_calls_back_into_its_environment_is_refused_not_undefined():
    env = VecEnv.from_worlds(Reenters, 1, budget=10)
    Reenters.env = env
    with pytest.raises(WorldError, match="the environment is in use") as e:
        env.step([env.templates.act(0)])
    assert isinstance(e.value.__cause__, evoharness.EvoharnessError)
    Reenters.env = None
    env.observe()  # and it goes on
    env.close()


def test_an_environment_left_open_at_exit_is_closed_cleanly():
    import os
    import pathlib
    import subprocess
    import sys

    here = pathlib.Path(__file__).resolve().parent
    code = ("import sys; sys.path[:0] = [%r, %r]\n"
            "import evoharness, test_world\n"
            "env = evoharness.VecEnv.from_worlds(test_world.Invoices, 2, budget=10)\n"
            "env.step([env.templates.act(0)] * 2)\n"
            "print('exiting')\n") % (str(here.parent), str(here))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=os.environ, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "exiting" and "Exception ignored" not in out.stderr


def test_one_environment_class_for_the_suite_and_for_python_worlds():
    worlds = VecEnv.from_worlds(Invoices, 2, budget=30, seed=3)
    suite = VecEnv("migration", 40, 2)
    assert type(worlds) is type(suite) is VecEnv
    assert worlds.over_worlds and not suite.over_worlds
    # The name from before is the same constructor.
    old = HarnessEnv(Invoices, 2, budget=30, seed=3)
    assert type(old) is VecEnv
    assert (old.obs == worlds.obs).all() and (old.mask == worlds.mask).all()
    # Both step and label alike; what only one kind has says so.
    for env in (worlds, suite):
        obs, mask, reward, done = env.step(np.argmax(env.mask[:, 2:], axis=1) + 2)
        assert obs.shape == (2, env.obs_len) and mask.shape == (2, env.actions)
    assert suite.teacher_actions("lean").shape == (2,)
    with pytest.raises(ValueError, match="suite's tasks only"):
        worlds.teacher_actions("lean")
    with pytest.raises(ValueError, match="Python worlds"):
        suite.last_event(0)
    for env in (worlds, suite, old):
        env.close()


class Noisy:
    """A world whose every call draws from its own generator: only a copy of that state makes a
    copied environment play on like its source."""

    tools = ["draw", "done"]
    budget = 12

    def reset(self, seed):
        import random

        self.rng, self.calls = random.Random(seed), 0
        return Event.notice(start=seed % 5)

    def call(self, tool, args):
        self.calls += 1
        return Event.result(x=self.rng.randrange(1000), calls=self.calls)

    def judge(self):
        return {"success": self.calls >= 3}


def test_a_copyable_python_world_copies_its_state_and_plays_on_like_its_source():
    env = VecEnv.from_worlds(Noisy, 3, seed=7, copyable=True)
    act = env.templates.act(0)  # "draw", no argument
    for _ in range(2):
        env.step(np.full(3, act, np.uint32))
    env.copy(0, 2)
    assert env.worlds[2].calls == env.worlds[0].calls == 2
    assert env.worlds[2].rng.getstate() == env.worlds[0].rng.getstate()
    assert np.array_equal(env.obs[2], env.obs[0]) and np.array_equal(env.mask[2], env.mask[0])
    for _ in range(3):
        _, _, reward, done = env.step(np.full(3, act, np.uint32))
        assert np.array_equal(env.obs[2], env.obs[0]) and reward[2] == reward[0]
    # Environment 1 was not copied: its own seed, its own draws.
    assert env.worlds[1].rng.getstate() != env.worlds[0].rng.getstate()
    env.close()
    # Without copyable the worlds save no resume point, and a copy is refused, changing nothing.
    plain = VecEnv.from_worlds(Noisy, 2, seed=7)
    plain.step(np.full(2, act, np.uint32))
    before = plain.obs.copy()
    with pytest.raises(evoharness.EvoharnessError, match="save_resume_point.*copyable=True"):
        plain.copy(0, 1)
    assert np.array_equal(plain.obs, before)
    plain.close()
