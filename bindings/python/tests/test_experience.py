"""The experience store through the library: notes and ratings, its file and bytes, refused
bytes, replicas, and merges that are a join (any order, any repetition, nothing counted twice)."""

import itertools
import random

import pytest

from evoharness import EvoharnessError, ExperienceStore
from evoharness.experience import STATUS_EXPERIENCE_STORE


TRIGGERS = [[t, f"E{t}", float(t) / 4, bytes([t])][t % 4] for t in range(16)]


def random_store(seed: int, budget: int = 8, n: int = 60) -> ExperienceStore:
    rng = random.Random(seed)
    s = ExperienceStore(budget, replica=seed)
    for _ in range(n):
        t = rng.randrange(16)
        trigger = [t, f"E{t}", float(t) / 4, bytes([t])][t % 4]
        if rng.random() < 0.6 or s.lesson(trigger) is None:
            s.note(trigger, rng.randrange(3))
        else:
            s.rate(trigger, rng.random() < 0.7)
    return s


def test_notes_and_ratings_count():
    s = ExperienceStore(4)
    assert (len(s), s.budget) == (0, 4)
    s.note("E429", 1)
    s.note("E429", 1)
    s.rate("E429", True)
    s.rate("E429", False)
    assert s.lesson("E429") == {"trigger": "E429", "remedy": 1, "helpful": 1, "harmful": 1,
                                "uses": 0, "noted": 2, "last_use": 1}
    # Another remedy replaces the lesson's and resets its ratings.
    s.note("E429", b"\x01")
    assert s.lesson("E429")["remedy"] == b"\x01"
    assert s.lesson("E429")["helpful"] == 0
    assert s.lesson("nope") is None
    with pytest.raises(EvoharnessError) as e:
        s.rate("nope")
    assert e.value.status == 4
    with pytest.raises(ValueError):
        s.note("x" * 33, 0)
    with pytest.raises(EvoharnessError):
        ExperienceStore(0)


def test_a_full_store_evicts_the_least_useful():
    s = ExperienceStore(2)
    s.note("a", 0)
    s.note("b", 0)
    s.rate("a", True)
    s.note("c", 0)
    assert len(s) == 2
    assert s.lesson("b") is None and s.lesson("a") is not None


def test_save_load_and_bytes_round_trip(tmp_path):
    s = random_store(1)
    path = tmp_path / "lessons.evhe"
    s.save(path)
    assert ExperienceStore.load(path).to_bytes() == s.to_bytes()
    assert ExperienceStore.from_bytes(s.to_bytes()).to_bytes() == s.to_bytes()
    assert path.read_bytes() == s.to_bytes()
    with pytest.raises(EvoharnessError) as e:
        ExperienceStore.load(tmp_path / "missing")
    assert e.value.status == 12  # IO


def test_corrupted_bytes_are_refused():
    good = random_store(2).to_bytes()
    for n in range(0, len(good), 7):
        with pytest.raises(EvoharnessError) as e:
            ExperienceStore.from_bytes(good[:n])
        assert e.value.status == STATUS_EXPERIENCE_STORE
    for i in range(0, len(good) * 8, 13):
        bad = bytearray(good)
        bad[i // 8] ^= 1 << (i % 8)
        with pytest.raises(EvoharnessError) as e:
            ExperienceStore.from_bytes(bytes(bad))
        assert e.value.status == STATUS_EXPERIENCE_STORE
        assert "experience store" in str(e.value)


def seen(s: ExperienceStore) -> dict:
    """What an agent sees: every trigger's lesson."""
    return {repr(t): s.lesson(t) for t in TRIGGERS}


def test_merges_are_a_join():
    a, b = random_store(3), random_store(4, budget=12)
    assert (a.replica, b.replica) == (3, 4)
    ab = ExperienceStore.from_bytes(a.to_bytes())
    ab.merge(b)
    ba = ExperienceStore.from_bytes(b.to_bytes())
    ba.merge(a)
    # The same replicas either way; what a store shows puts its own replica's remedies first,
    # so compare as a: a joined with b, and a joined with (b joined with a).
    a_ba = ExperienceStore.from_bytes(a.to_bytes())
    a_ba.merge(ba)
    assert seen(ab) == seen(a_ba) and len(ab) == len(ba)
    assert (ab.budget, ab.replica) == (8, 3)
    fleet = [random_store(10 + i) for i in range(4)]
    first = seen(ExperienceStore.merge_all(fleet))
    for order in itertools.permutations(fleet):
        assert seen(ExperienceStore.merge_all([fleet[0], *order])) == first
    # Nothing counts twice: a store merged with itself, or again, changes nothing.
    assert ExperienceStore.merge_all([a, a]).to_bytes() == a.to_bytes()
    again = ExperienceStore.from_bytes(ab.to_bytes())
    again.merge(b)
    again.merge(ab)
    assert again.to_bytes() == ab.to_bytes()
    with pytest.raises(EvoharnessError):
        ExperienceStore.merge_all([])


def test_a_fleet_that_hands_its_store_back_and_merges_again_counts_once():
    a, b = ExperienceStore(4, replica=1), ExperienceStore(4, replica=2)
    for s, n in ((a, 1), (b, 2)):
        s.note("E429", 7)
        for _ in range(n):
            s.rate("E429", True)
    fleet = ExperienceStore.merge_all([a, b])
    assert fleet.lesson("E429")["helpful"] == 3
    a.merge(fleet)
    b.merge(fleet)
    a.rate("E429", True)
    fleet = ExperienceStore.merge_all([fleet, a, b, a])
    assert (fleet.lesson("E429")["helpful"], fleet.lesson("E429")["noted"]) == (4, 2)
    # A shared store given to a new agent: it writes as its own replica.
    c = ExperienceStore.from_bytes(fleet.to_bytes())
    c.become_replica(3)
    c.rate("E429", False)
    assert c.replica == 3
    assert ExperienceStore.merge_all([fleet, c]).lesson("E429")["harmful"] == 1
    assert ExperienceStore(1).replica != ExperienceStore(1).replica


def test_a_fleet_database_counts_each_lesson_once(tmp_path):
    url = f"sqlite:{tmp_path / 'fleet.db'}"
    a, b = ExperienceStore(4, replica=1), ExperienceStore(4, replica=2)
    a.note("E429", 7)
    a.rate("E429", True)
    b.note("E429", 7)
    assert a.push(url) == 1
    assert a.push(url) == 0  # nothing new
    b.push(url)
    c = ExperienceStore(4, replica=3)
    assert c.pull(url) == 2
    c.pull(url)
    assert (c.lesson("E429")["helpful"], c.lesson("E429")["noted"]) == (1, 2)
    with pytest.raises(EvoharnessError) as e:
        c.pull("mysql://x")
    assert e.value.status == 2  # INVALID_ARGUMENT
    with pytest.raises(EvoharnessError) as e:
        a.push(f"sqlite:{tmp_path / 'no/such/dir/fleet.db'}")
    assert e.value.status == 12  # IO: worth retrying later


def invoices_agent():
    """The embedded agent's module, the invoices example's folder and its world; skips the
    test when no ONNX Runtime is installed."""
    agent_mod = pytest.importorskip("evoharness.agent")
    try:
        agent_mod.onnxruntime_library()
    except agent_mod.NoBackend as e:
        pytest.skip(str(e))
    import pathlib
    import sys

    here = pathlib.Path(__file__).resolve().parents[3] / "examples" / "workflows" / "invoices"
    sys.path.insert(0, str(here))
    try:
        from world import Invoices
    finally:
        sys.path.remove(str(here))
    return agent_mod, here, Invoices


def test_an_agent_takes_a_store_over_and_gives_it_back():
    agent_mod, here, Invoices = invoices_agent()
    with agent_mod.Agent(here / "policy.onnx", Invoices, budget=Invoices.budget) as agent:
        assert agent.take_experience_store() is None
        store = ExperienceStore(64)
        store.note("seeded", 1)
        agent.set_experience_store(store)
        with pytest.raises(EvoharnessError):
            store.note("x", 0)  # the agent owns it now
        second = ExperienceStore(4)
        with pytest.raises(EvoharnessError) as e:
            agent.set_experience_store(second)
        assert e.value.status == 2
        assert len(second) == 0  # refused: still ours
        agent.run_task(1_000_000)
        back = agent.take_experience_store()
        assert back.lesson("seeded")["remedy"] == 1
        assert agent.take_experience_store() is None


def test_an_agents_trace_goes_to_a_file_the_viewer_reads(tmp_path):
    import json

    agent_mod, here, Invoices = invoices_agent()
    trace = tmp_path / "trace.jsonl"
    with agent_mod.Agent(here / "policy.onnx", Invoices, budget=Invoices.budget) as agent:
        agent.trace_to(trace)
        stats = agent.run_task(1_000_001)
        agent.trace_to(None)
        with pytest.raises(EvoharnessError):
            agent.trace_to("")
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    assert len(lines) == stats["steps"] > 0
    assert [r["step"] for r in lines] == list(range(1, len(lines) + 1))
    assert lines[0]["begin"]["trace"] == 1 and "end" in lines[-1]


@pytest.mark.parametrize("batched", [False, True])
def test_a_fleet_does_what_its_agents_do_alone(tmp_path, batched):
    """Six agents of a fleet (one policy run per step for all) end their tasks exactly as six
    agents alone do; the shipped invoices policy has batch 1 (one run per agent), its copy
    given a dynamic batch dimension runs once per step."""
    agent_mod, here, Invoices = invoices_agent()
    policy = here / "policy.onnx"
    if batched:
        onnx = pytest.importorskip("onnx")
        m = onnx.load(str(policy))
        for v in [*m.graph.input, *m.graph.output]:
            v.type.tensor_type.shape.dim[0].dim_param = "batch"
        del m.graph.value_info[:]
        policy = tmp_path / "batched.onnx"
        onnx.save(m, str(policy))
    seeds = [1_000_000 + 7 * i for i in range(6)]
    alone = []
    for s in seeds:
        with agent_mod.Agent(policy, Invoices, budget=Invoices.budget, seed=s) as a:
            alone.append(a.run_task(s))
    with agent_mod.Fleet(policy, lambda i: Invoices(), 6, budget=Invoices.budget,
                         seeds=seeds) as fleet:
        assert len(fleet) == 6
        together = fleet.run_tasks(seeds)
        # A second round of tasks: a fleet goes on as its agents would.
        again = fleet.run_tasks([s + 1 for s in seeds])
        # The invoices world keeps no resume point: its agents cannot be checkpointed, and the
        # fleet says so as an agent does.
        with pytest.raises(EvoharnessError, match="save_resume_point"):
            fleet.checkpoint(0, tmp_path / "agent0.ckpt")
    assert together == alone
    assert sum(r["success"] for r in together) >= 5
    assert all(r["steps"] > 0 for r in again)
    with pytest.raises(ValueError):
        agent_mod.Fleet(policy, lambda i: Invoices(), 2, budget=10, seeds=[1])
