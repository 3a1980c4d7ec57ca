"""Random equivalence queries (solvers.params.random_queries): against a brute force that lists every deterministic
learner as a tree, the hand-worked values, and the witness checker (solvers.certificates.params_more)."""

import copy
import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.certificates.params import check, check_bounds
from solvers.classes.families import make
from solvers.classes.finite import ConceptClass
from solvers.params import compute
from solvers.params.random_queries import req, rpeq

SETTINGS = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def _learners(M, proper: bool, V: tuple):
    """Every deterministic learner on the concepts V (row indices of M) with its expected number of queries for each
    target of V, from the definition: a hypothesis (a row of M, or any labelling), then after each counterexample x
    (uniform on the points where the target differs) a learner of its own on the concepts that differ at x."""
    m, n = M.shape
    if len(V) <= 1:
        yield (0,) * len(V)
        return
    hyps = [tuple(M[g]) for g in range(m)] if proper else list(itertools.product((0, 1), repeat=n))
    for h in hyps:
        if any(all(M[c][x] != h[x] for c in V) for x in range(n)):
            continue  # a counterexample there would leave V as it was: not allowed
        sides = {x: tuple(c for c in V if M[c][x] != h[x]) for x in range(n)}
        sides = {x: S for x, S in sides.items() if S}
        options = [list(_learners(M, proper, S)) for S in sides.values()]
        for pick in itertools.product(*options):
            after = dict(zip(sides, pick))
            costs = []
            for t in V:
                differ = [x for x in range(n) if M[t][x] != h[x]]
                if not differ:
                    costs.append(Fraction(1))
                else:
                    costs.append(1 + Fraction(sum(after[x][sides[x].index(t)] for x in differ), len(differ)))
            yield tuple(costs)


def _brute(M, proper: bool) -> Fraction:
    M = [list(map(int, r)) for r in M]
    return min(max(v, default=Fraction(0)) for v in _learners(np.array(M), proper, tuple(range(len(M)))))


@st.composite
def small_classes(draw, max_rows=4, max_cols=3):
    n = draw(st.integers(1, max_cols))
    rows = draw(st.lists(st.tuples(*[st.integers(0, 1)] * n), min_size=1, max_size=max_rows, unique=True))
    return np.array(rows, dtype=np.uint8)


@SETTINGS
@given(M=small_classes())
def test_equals_every_learner_listed(M):
    C = ConceptClass(M)
    assert rpeq(C).value == _brute(M, True)
    assert req(C).value == _brute(M, False)


@SETTINGS
@given(M=small_classes(max_rows=7, max_cols=5))
def test_the_witness_replays_to_the_value(M):
    """The learner's tree, played against every target, costs exactly the value, and the checker's own enumeration
    (on at most 5 concepts and points) agrees."""
    C = ConceptClass(M)
    r = compute(C, ("req", "rpeq", "peq"))
    for key in ("req", "rpeq"):
        p = r[key]
        j = json.loads(json.dumps(p.to_json()))
        ok, msg, lo, hi = check_bounds(C, key, j)
        assert ok, msg
        assert hi == p.value and lo in (None, p.value)
    # a labelling may be any concept; an expectation is at most the worst case (peq; Opt: equivalence queries)
    assert r["req"].value <= r["rpeq"].value <= r["peq"].value
    from solvers.opt import opt

    assert r["req"].value <= opt(C).value


@pytest.mark.parametrize("N", range(2, 7))
def test_singletons(N):
    """A proposed singleton {i} is the target, or is told i or the target's point with probability 1/2 each:
    rpeq(S_N) = 1 + rpeq(S_(N-1)) / 2 = 2 - 2^(2-N). The empty labelling is told the target's point: req = 1."""
    C = make("singletons", N=N, empty=0)
    assert rpeq(C).value == 2 - Fraction(2) ** (2 - N)
    assert req(C).value == 1


def test_below_the_recurrence_it_starts_from():
    """The worst case is outside the expectation, so giving each version space its best worst case (the recurrence
    whose value, 9/4 here, caps the search at first) is not the value: the best learner's worst case is 13/6."""
    M = np.array([[0, 0, 0, 0, 1], [0, 0, 1, 1, 1], [0, 1, 1, 0, 1], [1, 1, 0, 1, 1], [1, 1, 1, 1, 0]], dtype=np.uint8)
    C = ConceptClass(M)
    assert rpeq(C).value == _brute(M, True) == Fraction(13, 6)
    from solvers.params.random_queries import _Frontiers

    assert _Frontiers(C, True, None).upper((1 << 5) - 1) == Fraction(9, 4)


def test_tampered_witnesses_fail():
    C = make("singletons", N=4, empty=0)
    p = rpeq(C).to_json()
    assert p["value"] == "7/4" and check(C, "rpeq", p)[0]
    assert not check(C, "rpeq", {**p, "value": "3/2"})[0]
    bad = copy.deepcopy(p)
    bad["witness"]["strategy"]["after"] = {}
    ok, msg = check(C, "rpeq", bad)
    assert not ok and "node" in msg
    bad = copy.deepcopy(p)
    bad["witness"]["strategy"]["query"] = 9
    assert not check(C, "rpeq", bad)[0]
    assert not check(C, "rpeq", {**p, "witness": {**p["witness"], "mu": "other"}})[0]
    assert not check(C, "rpeq", {**p, "value": 1.75})[0]  # a float is no exact value


@pytest.mark.parametrize("key", ["req", "rpeq"])
def test_a_stopped_search_gives_proven_bounds(key):
    """Stopped at once, or while it tries caps from below: bounds around the value, the upper one with the learner
    that keeps one hypothesis per version space, replayed by the checker."""
    C = make("singletons", N=5, empty=0)
    value = compute(C, (key,))[key].value
    for limit in (1e-9, 0.002):
        p = compute(C, (key,), time_limit=limit)[key]
        assert p.lower <= value <= p.upper
        j = json.loads(json.dumps(p.to_json()))
        assert check(C, key, j)[0]
        if p.value is None and j["witness"]["strategy"] is not None:
            assert not check(C, key, {**j, "upper": str(value - Fraction(1, 100))})[0] or p.upper > value
