"""The exact adversary (adversary/strategies/exact.py) against a brute force written here.

The brute force is the game played out literally: every point, every realizable label, a deep copy
of the learner per move, plain recursion with no memo. The only thing it shares with the exact search
is the learner protocol. To terminate on learners that can cycle (the Perceptron) it stops a line of
play when a position (state_key, version space) repeats on it: with a mistake in between the worst
case is infinite, without one the repeat adds nothing. It skips only moves that change nothing at all
(same state, same version space, no mistake), a weaker rule than the exact search's.

References
----------
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

import copy
import itertools
import math

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from adversary.referee import make_witness, verify_witness
from adversary.strategies import get_strategy
from adversary.strategies.base import Found, Problem, StrategyError
from adversary.strategies.exact import ExactStrategy
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.learners import make_learner
from solvers.learners.base import Bound, VersionSpaceLearner, cite

EXACT = get_strategy("exact")


# ------------------------------------------------------------------------------------------ brute force
def brute_worst(learner, C, V=None, path=None, mistakes=0):
    """The most mistakes an adversary forces on ``learner`` from version space V (math.inf if unbounded)."""
    V = C.full if V is None else V
    path = {} if path is None else path
    key = (learner.state_key(), V)
    if key in path:
        return math.inf if mistakes > path[key] else 0
    path[key] = mistakes
    best = 0
    for j, x in enumerate(C.points):
        col = C.columns[j]
        for y, Vy in ((0, V & ~col), (1, V & col)):
            if not Vy:
                continue
            gain = int(learner.predict_one(x) != y)
            after = copy.deepcopy(learner)
            after.learn_one(x, y)
            if gain == 0 and Vy == V and after.state_key() == learner.state_key():
                continue
            best = max(best, gain + brute_worst(after, C, Vy, path, mistakes + gain))
            if best == math.inf:
                break
        if best == math.inf:
            break
    del path[key]
    return best


def problem(name, C, params=None):
    L = make_learner(name, dict(params or {}), C)
    return Problem(name, L.get_params(), C, {"matrix": C.matrix.astype(int).tolist(), "points": [list(p) for p in C.points]})


def check_found(found: Found, name, C, params=None):
    """The sequence is realizable, its mistakes are what the referee counts, and a cycle closes."""
    extra = {} if found.cycle is None else {"cycle": {"start": found.cycle[0], "length": found.cycle[1]}}
    L = make_learner(name, dict(params or {}), C)
    w = make_witness(name, L.get_params(), C, found.sequence, found.target, extra=extra)
    assert w["mistakes"] == found.mistakes
    r = verify_witness(w)
    assert r.ok, r.message
    assert (r.cycle is not None) == (found.cycle is not None)


def exact_value(found: Found):
    return math.inf if found.cycle is not None else found.mistakes


# ------------------------------------------------------------------------------------------ random classes
@st.composite
def cube_classes(draw, max_concepts=5, max_points=4):
    """At most 5 monotone disjunctions on at most 4 points of {0,1}^n (n = 2 or 3)."""
    n = draw(st.integers(2, 3))
    cube = list(itertools.product((0, 1), repeat=n))
    points = draw(st.lists(st.sampled_from(cube), min_size=1, max_size=max_points, unique=True))
    subsets = [S for r in range(n + 1) for S in itertools.combinations(range(n), r)]
    chosen = draw(st.lists(st.sampled_from(subsets), min_size=1, max_size=max_concepts, unique=True))
    rows = [[int(any(x[i] for i in S)) for x in points] for S in chosen]
    return ConceptClass(rows, points)


@st.composite
def matrix_classes(draw):
    """Any 0/1 matrix of at most 5 concepts x 4 points (for the class-based learners)."""
    m = draw(st.integers(1, 5))
    N = draw(st.integers(1, 4))
    rows = draw(st.lists(st.lists(st.integers(0, 1), min_size=N, max_size=N), min_size=m, max_size=m))
    return ConceptClass(rows)


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


#: Every way the exact strategy can search (module docstring of adversary/strategies/exact.py).
SEARCHES = {
    "targets": ExactStrategy(mode="targets"),
    "targets-plain": ExactStrategy(mode="targets", symmetry=False),
    "version-space": ExactStrategy(mode="version-space"),
}


@SETTINGS
@given(C=cube_classes(), name=st.sampled_from(["halving", "winnow1", "winnow2", "perceptron", "elim"]))
def test_exact_equals_brute_force_on_cube_classes(C, name):
    truth = brute_worst(make_learner(name, {}, C), C)
    for how, strat in SEARCHES.items():
        found = strat.run(problem(name, C))
        assert exact_value(found) == truth, how
        assert found.exact
        check_found(found, name, C)


@st.composite
def full_cube_classes(draw):
    """Some monotone disjunctions over the whole of {0,1}^n (n = 3 or 4): a domain closed under
    renaming the variables, so the targets search uses its symmetry (the class itself need not be)."""
    n = draw(st.integers(3, 4))
    cube = list(itertools.product((0, 1), repeat=n))
    subsets = [S for r in range(n + 1) for S in itertools.combinations(range(n), r)]
    chosen = draw(st.lists(st.sampled_from(subsets), min_size=1, max_size=6, unique=True))
    return ConceptClass([[int(any(x[i] for i in S)) for x in cube] for S in chosen], cube)


@SETTINGS
@given(C=full_cube_classes(), name=st.sampled_from(["winnow1", "winnow2", "winnow-r", "perceptron"]))
def test_symmetry_changes_nothing_but_the_work(C, name):
    # the version-space search is tested against the brute force above; the targets search with its
    # renamings must give the same worst case, and its sequences (renamed out of memo hits) must replay
    values = []
    for how, strat in SEARCHES.items():
        found = strat.run(problem(name, C))
        assert found.exact, how
        check_found(found, name, C)
        values.append(exact_value(found))
    assert len(set(values)) == 1, values


@pytest.mark.parametrize("family, params", [
    ("monotone-disjunctions", {"n": 4, "k": 2}), ("monotone-disjunctions", {"n": 4, "k": 4}),
    ("monotone-conjunctions", {"n": 3}), ("conjunctions", {"n": 3}), ("parities", {"n": 3}),
    ("disjunctions", {"n": 3, "k": 2}),
])
@pytest.mark.parametrize("name", ["winnow1", "winnow2", "perceptron", "conjunction-elimination"])
def test_targets_search_on_symmetric_families(family, params, name):
    C = make(family, **params)
    results = [strat.run(problem(name, C)) for strat in SEARCHES.values()]
    assert len({exact_value(f) for f in results}) == 1
    for f in results:
        check_found(f, name, C)
    assert results[0].stats["targets"] <= len(C)


def test_winnow_on_monotone_disjunctions_known_values():
    # Worst cases found by this search (and by the version-space search where it finishes, n <= 5),
    # each replayed by the referee: Winnow2 on ORs of at most 2 of n variables, n = 4, 5, 6.
    for n, worst in ((4, 7), (5, 10), (6, 12)):
        C = make("monotone-disjunctions", n=n, k=2)
        found = EXACT.run(problem("winnow2", C))
        assert found.exact and found.mistakes == worst
        assert found.stats["targets"] == 3  # ORs of 0, 1 and 2 variables: one target each
        check_found(found, "winnow2", C)
    found = ExactStrategy(mode="version-space").run(problem("winnow2", make("monotone-disjunctions", n=4, k=2)))
    assert found.mistakes == 7


@SETTINGS
@given(C=matrix_classes(), name=st.sampled_from(["halving", "soa", "con"]))
def test_exact_equals_brute_force_on_matrices(C, name):
    for strat in (EXACT, ExactStrategy(prune=False)):
        found = strat.run(problem(name, C))
        assert found.mistakes == brute_worst(make_learner(name, {}, C), C)
        assert found.exact and found.cycle is None
        check_found(found, name, C)


def test_weighted_majority_stops_honestly():
    # Weighted majority charges wrong experts on every example, so its states need never repeat: on
    # 2 experts and 1 point the search without its bound runs into the depth limit and says so.
    C = ConceptClass([[0], [1]])
    found = ExactStrategy(prune=False).run(problem("weighted-majority", C))
    assert not found.exact and found.stats["stopped"] == "depth limit"
    assert found.mistakes == 1
    check_found(found, "weighted-majority", C)
    # Whatever the search returns is a verified sequence within the (Littlestone-Warmuth) bound.
    C = make("thresholds", N=3)
    found = EXACT.run(problem("weighted-majority", C))
    check_found(found, "weighted-majority", C)
    assert 2 <= found.mistakes <= make_learner("weighted-majority", {}, C).mistake_bound().value


def test_known_values():
    # Halving on thresholds over 7 points: floor(log2 8) = 3; SOA meets Opt; CON errs |C| - 1 times on
    # thresholds (it predicts with the first consistent concept, the all-ones one).
    C = make("thresholds", N=7)
    assert EXACT.run(problem("halving", C)).mistakes == 3
    assert EXACT.run(problem("soa", C)).mistakes == 3
    assert EXACT.run(problem("con", C)).mistakes == 7
    # ELIM on ORs of literals over 2 variables: n + 1 = 3 ([OnlineAlgs]); elimination on monotone conjunctions: n.
    assert EXACT.run(problem("elim", make("disjunctions", n=2))).mistakes == 3
    assert EXACT.run(problem("conjunction-elimination", make("monotone-conjunctions", n=3))).mistakes == 3


# ------------------------------------------------------------------------------------------ cycles
def test_perceptron_on_the_zero_point_is_a_cycle():
    C = make("monotone-disjunctions", n=2, k=1)
    found = EXACT.run(problem("perceptron", C))
    assert found.cycle == (0, 1) and found.sequence == [((0, 0), 0)]
    assert found.mistakes == 1 and found.exact
    check_found(found, "perceptron", C)


class ToggleHalving(VersionSpaceLearner):
    """Halving with a bit that flips on every example: correct predictions change its state, so the
    adversary's graph has cycles without mistakes (a forced label twice brings the state back)."""

    name = "toggle-halving"

    def __init__(self, C):
        super().__init__(C)
        self.t = 0

    def predict_one(self, x):
        V1 = self.V & self.C.columns[self._column(x)]
        return int(2 * V1.bit_count() >= self.V.bit_count())

    def learn_one(self, x, y):
        super().learn_one(x, y)
        self.t ^= 1

    def state_key(self):
        return (self.V, self.t)

    def mistake_bound(self):
        return Bound(self.C.log2_size(), "floor(log2 |C|)", cite("OnlineAlgs"))


class ToggleProblem(Problem):
    def new_learner(self):
        return ToggleHalving(self.cls)


@SETTINGS
@given(C=matrix_classes())
def test_cycles_without_mistakes_leave_the_memo_exact(C):
    found = EXACT.run(ToggleProblem("toggle-halving", {}, C, {}))
    assert found.cycle is None and found.exact
    assert found.mistakes == brute_worst(ToggleHalving(C), C) == brute_worst(make_learner("halving", {}, C), C)


# ------------------------------------------------------------------------------------------ refusals and limits
def test_learners_that_refuse_label_errors_are_refused():
    C = make("thresholds", N=3)
    for name in ("halving", "con", "randomized-halving"):
        p = problem(name, C)
        p.errors = 1
        with pytest.raises(StrategyError, match="refuses labels that no concept of the class gives"):
            EXACT.run(p)
    p = problem("soa", C, {"errors": 1})
    p.errors = 2
    with pytest.raises(StrategyError, match="built for at most 1 label error"):
        EXACT.run(p)


def test_margin_halfspaces_are_refused():
    from adversary.referee import witness_class

    H = witness_class({"family": "margin-halfspaces", "params": {"d": 2, "gamma": 0.5}})
    with pytest.raises(StrategyError, match="finite class"):
        EXACT.check(Problem("perceptron", {"d": 2}, H, {}))


def test_deadline_returns_the_best_so_far():
    import time

    C = make("monotone-disjunctions", n=9, k=3)
    found = EXACT.run(problem("winnow2", C), deadline=time.monotonic() + 0.3)
    assert not found.exact and found.stats["stopped"] == "time limit"
    assert found.mistakes >= 1
    check_found(found, "winnow2", C)
