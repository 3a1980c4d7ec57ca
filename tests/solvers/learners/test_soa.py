"""The optimal learner SOA: its prediction rule against the brute-force Opt, its worst case against the
exhaustive adversary, realizability, state keys and its mistake bound.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

import copy
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.opt import Solver, opt
from solvers.learners import SOA

from ...oracles import (
    FirstConsistentBrute,
    HalvingBrute,
    Unbounded,
    adversary_brute,
    matrices,
    opt_brute,
    opt_of,
    rows_of,
    split_rows,
    sparse_rows,
)

SETTINGS = settings(max_examples=100, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def brute_prediction(V: frozenset, j: int, n_points: int) -> int:
    """[Rivest94], 2.3.3: predict 1 iff Opt(xi_1(V, x)) >= Opt(xi_0(V, x)), with Opt(empty) = -1."""
    V0, V1 = split_rows(V, j)
    return int(opt_of(V1, n_points) >= opt_of(V0, n_points))


# ---------------------------------------------------------------------------------------- the rule
@SETTINGS
@given(matrices(), st.data())
def test_predictions_follow_the_rule(rows, data):
    C = ConceptClass.from_matrix(rows)
    L = SOA(C)
    n = C.n_points
    V = rows_of(rows)
    target = data.draw(st.sampled_from(sorted(V)), label="target")
    steps = data.draw(st.integers(0, 8), label="steps")
    for _ in range(steps + 1):
        # every point's prediction matches the brute-force rule on the current version space
        for j in range(n):
            assert L.predict_one(C.points[j]) == brute_prediction(V, j, n), (sorted(V), j)
        j = data.draw(st.integers(0, n - 1))
        y = target[j]
        L.learn_one(C.points[j], y)
        V = split_rows(V, j)[y]
        # the learner's version space holds exactly the rows consistent so far
        assert {tuple(int(b) for b in C.matrix[c]) for c in C.concepts_of(L.V)} == set(V)


@SETTINGS
@given(matrices(), st.data())
def test_predictions_follow_the_rule_adversarial_labels(rows, data):
    """Labels chosen freely (any realisable one), not from a fixed target."""
    C = ConceptClass.from_matrix(rows)
    L = SOA(C)
    n = C.n_points
    V = rows_of(rows)
    for _ in range(data.draw(st.integers(0, 8))):
        j = data.draw(st.integers(0, n - 1))
        assert L.predict_one(C.points[j]) == brute_prediction(V, j, n)
        choices = [y for y in (0, 1) if split_rows(V, j)[y]]
        y = data.draw(st.sampled_from(choices))
        L.learn_one(C.points[j], y)
        V = split_rows(V, j)[y]


def test_rule_ties_go_to_one():
    # two concepts differing on point 0 only: Opt(V^0) = Opt(V^1) = 0, so predict 1
    C = ConceptClass.from_matrix([[0, 1], [1, 1]])
    assert SOA(C).predict_one((0,)) == 1
    # a constant point: predict its label
    assert SOA(C).predict_one((1,)) == 1
    D = ConceptClass.from_matrix([[0, 0], [1, 0]])
    assert SOA(D).predict_one((1,)) == 0


def test_rule_not_majority():
    """[Rivest94]'s example: singletons over many points. Halving would predict 1 only with a majority;
    SOA predicts 0 (Opt(V^1) = 0 < Opt(V^0) = 1) and so errs at most once."""
    N = 8
    rows = [[int(i == j) for j in range(N)] for i in range(N)] + [[0] * N]
    C = ConceptClass.from_matrix(rows)
    L = SOA(C)
    assert all(L.predict_one((j,)) == 0 for j in range(N))
    assert L.mistake_bound().value == 1


@pytest.mark.parametrize("orientation", ["x>=t", "x<=t"])
def test_thresholds_by_hand(orientation):
    """Thresholds on points 1..7, built here in both orientations (independent of the families registry)."""
    if orientation == "x>=t":
        rows = [[int(x >= t) for x in range(1, 8)] for t in range(1, 9)]
    else:
        rows = [[int(x <= t) for x in range(1, 8)] for t in range(0, 8)]
    C = ConceptClass.from_matrix(rows, points=range(1, 8))
    L = SOA(C)
    assert L.predict_one((4,)) == 1  # 4 concepts each side, Opt 2 each side: a tie goes to 1
    L.learn_one((4,), 0)
    if orientation == "x>=t":
        # t in {5,6,7,8}: point 6 splits it into {5,6} / {7,8}, Opt 1 each: a tie, so 1
        assert L.predict_one((6,)) == 1
    else:
        # t in {0,1,2,3}: every remaining concept labels 6 with 0
        assert L.predict_one((6,)) == 0
    assert L.mistake_bound().value == 3


# ---------------------------------------------------------------------------------------- the adversary
@settings(max_examples=200, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices(max_rows=6, max_cols=5))
def test_exhaustive_adversary_forces_exactly_opt(rows):
    C = ConceptClass.from_matrix(rows)
    b = opt_brute(rows)
    assert adversary_brute(SOA(C), C.matrix, C.points) == b


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices(max_rows=6, max_cols=5))
def test_adversary_sanity_on_reference_learners(rows):
    """The brute adversary itself: on any learner it forces >= Opt mistakes; on Halving <= log2|C|; on
    the first-consistent learner <= |C| - 1."""
    C = ConceptClass.from_matrix(rows)
    b = opt_brute(rows)
    size = len(rows_of(rows))
    h = adversary_brute(HalvingBrute(C.matrix, C.points), C.matrix, C.points)
    assert b <= h <= math.floor(math.log2(size))
    f = adversary_brute(FirstConsistentBrute(C.matrix, C.points), C.matrix, C.points)
    assert b <= f <= size - 1


def test_adversary_detects_a_suboptimal_learner():
    """Singletons on 4 points: Opt = 1. The first-consistent learner can be forced into 3 mistakes, SOA
    into exactly 1 (a check that the brute adversary really searches)."""
    rows = [[int(i == j) for j in range(4)] for i in range(4)]
    C = ConceptClass.from_matrix(rows)
    assert opt_brute(rows) == 1
    assert adversary_brute(FirstConsistentBrute(C.matrix, C.points), C.matrix, C.points) == 3
    assert adversary_brute(SOA(C), C.matrix, C.points) == 1


def test_adversary_detects_unbounded_learner():
    class AlwaysOne:
        def predict_one(self, x):
            return 1

        def learn_one(self, x, y):
            pass

        def state_key(self):
            return 0

    C = ConceptClass.from_matrix([[0, 1], [0, 0]])  # point 0 is always 0: a mistake every time
    with pytest.raises(Unbounded):
        adversary_brute(AlwaysOne(), C.matrix, C.points)


@pytest.mark.parametrize(
    "C, expected",
    [
        (make("thresholds", N=6), 2),
        (make("thresholds", N=7), 3),
        (ConceptClass.from_matrix(sparse_rows(4, 2)), 2),
        (ConceptClass.from_matrix([[(i >> b) & 1 for b in range(3)] for i in range(8)]), 3),
    ],
)
def test_exhaustive_adversary_known_classes(C, expected):
    assert adversary_brute(SOA(C), C.matrix, C.points) == expected == opt(C).value


@SETTINGS
@given(matrices(), st.data())
def test_mistakes_on_any_realisable_sequence_at_most_opt(rows, data):
    C = ConceptClass.from_matrix(rows)
    L = SOA(C)
    bound = L.mistake_bound().value
    target = data.draw(st.integers(0, len(C) - 1))
    seq = data.draw(st.lists(st.integers(0, C.n_points - 1), max_size=20))
    mistakes = 0
    for j in seq:
        y = int(C.matrix[target, j])
        mistakes += L.predict_one(C.points[j]) != y
        L.learn_one(C.points[j], y)
    assert mistakes <= bound
    assert (L.V >> target) & 1


# ---------------------------------------------------------------------------------------- protocol
def test_learn_one_unrealizable_raises():
    C = ConceptClass.from_matrix([[0, 0], [0, 1]])
    L = SOA(C)
    with pytest.raises(ValueError):
        L.learn_one((0,), 1)  # no concept labels point 0 with 1
    L.learn_one((1,), 1)
    before = L.state_key()
    with pytest.raises(ValueError):
        L.learn_one((1,), 0)
    assert L.state_key() == before  # a refused example leaves the learner unchanged
    assert L.predict_one((1,)) == 1


@SETTINGS
@given(matrices(), st.data())
def test_learn_one_unrealizable_random(rows, data):
    C = ConceptClass.from_matrix(rows)
    L = SOA(C)
    V = rows_of(rows)
    for _ in range(data.draw(st.integers(0, 6))):
        j = data.draw(st.integers(0, C.n_points - 1))
        for y in (0, 1):
            if not split_rows(V, j)[y]:
                key = L.state_key()
                with pytest.raises(ValueError):
                    L.learn_one(C.points[j], y)
                assert L.state_key() == key
        y = data.draw(st.sampled_from([y for y in (0, 1) if split_rows(V, j)[y]]))
        L.learn_one(C.points[j], y)
        V = split_rows(V, j)[y]


@pytest.mark.parametrize("y", [2, -1, "1", None, 0.5])
def test_learn_one_bad_label(y):
    L = SOA(ConceptClass.from_matrix([[0, 1], [1, 0]]))
    with pytest.raises(ValueError):
        L.learn_one((0,), y)


def test_unknown_point_raises():
    L = SOA(ConceptClass.from_matrix([[0, 1], [1, 0]]))
    with pytest.raises(ValueError):
        L.predict_one((7,))
    with pytest.raises(ValueError):
        L.learn_one((7,), 0)


@SETTINGS
@given(matrices(), st.data())
def test_state_key_equal_after_equal_histories(rows, data):
    C = ConceptClass.from_matrix(rows)
    A, B = SOA(C), SOA(C)
    assert A.state_key() == B.state_key()
    hash(A.state_key())
    target = data.draw(st.integers(0, len(C) - 1))
    seq = data.draw(st.lists(st.integers(0, C.n_points - 1), max_size=10))
    for j in seq:
        y = int(C.matrix[target, j])
        A.learn_one(C.points[j], y)
        B.learn_one(C.points[j], y)
        assert A.state_key() == B.state_key()
        hash(A.state_key())
    # the same examples in another order lead to the same state (SOA's state is its version space)
    D = SOA(C)
    for j in reversed(seq):
        D.learn_one(C.points[j], int(C.matrix[target, j]))
    assert D.state_key() == A.state_key()
    # and a deep copy has the same key and then evolves independently
    E = copy.deepcopy(A)
    assert E.state_key() == A.state_key()
    for j in range(C.n_points):
        E.learn_one(C.points[j], int(C.matrix[target, j]))
    assert D.state_key() == A.state_key()


def test_state_key_differs_for_different_version_spaces():
    C = make("thresholds", N=3)
    A, B = SOA(C), SOA(C)
    A.learn_one((2,), 0)
    B.learn_one((2,), 1)
    assert A.state_key() != B.state_key()


@SETTINGS
@given(matrices())
def test_mistake_bound_is_opt(rows):
    C = ConceptClass.from_matrix(rows)
    mb = SOA(C).mistake_bound()
    assert mb.value == opt_brute(rows) == opt(C).value


def test_mistake_bound_thresholds():
    for N in (1, 2, 3, 7, 8, 31, 100):
        assert SOA(make("thresholds", N=N)).mistake_bound().value == (N + 1).bit_length() - 1


def test_mistake_bound_unchanged_after_learning():
    C = make("thresholds", N=15)
    L = SOA(C)
    L.learn_one((8,), 1)
    assert L.mistake_bound().value == 4  # the bound is Opt(C), for the whole run


def test_shared_solver():
    C = ConceptClass.from_matrix(sparse_rows(6, 2))
    S = Solver(C)
    r = opt(C, solver=S)
    L = SOA(C, solver=S)
    assert L.mistake_bound().value == r.value == 2
    assert adversary_brute(L, C.matrix, C.points) == 2


def test_solver_for_another_class_refused():
    C = make("thresholds", N=4)
    D = make("thresholds", N=5)
    with pytest.raises(ValueError):
        SOA(C, solver=Solver(D))
    with pytest.raises(TypeError):
        SOA([[0, 1]])


def test_soa_on_a_class_with_every_split():
    """13 concepts and every non-constant column (4095 distinct splits): Opt(V) = floor(log2 |V|) for
    every V, so SOA predicts 1 iff floor(log2 |V^1|) >= floor(log2 |V^0|) (with log2 of 0 taken as -1)."""
    import numpy as np

    n = 13
    cols = range(1, 2**n - 1)
    C = ConceptClass.from_matrix(np.array([[(c >> i) & 1 for c in cols] for i in range(n)], dtype=bool))
    L = SOA(C)
    assert L.mistake_bound().value == 3
    rng = np.random.default_rng(3)
    target = int(rng.integers(n))

    def flog(k):
        return k.bit_length() - 1  # floor(log2 k), and -1 for k = 0

    V = set(range(n))
    mistakes = 0
    for _ in range(12):
        for j in rng.integers(0, C.n_points, size=25):
            j = int(j)
            k1 = sum(int(C.matrix[c, j]) for c in V)
            assert L.predict_one(C.points[j]) == int(flog(k1) >= flog(len(V) - k1))
        j = int(rng.integers(C.n_points))
        y = int(C.matrix[target, j])
        mistakes += L.predict_one(C.points[j]) != y
        L.learn_one(C.points[j], y)
        V = {c for c in V if int(C.matrix[c, j]) == y}
    assert mistakes <= 3


def test_soa_is_a_version_space_learner_with_one_name():
    import solvers
    from solvers.learners import make_learner
    from solvers.learners.base import VersionSpaceLearner

    C = make("thresholds", N=7)
    assert solvers.SOA is SOA and isinstance(SOA(C), VersionSpaceLearner)
    assert type(make_learner("soa", {}, C)) is SOA


def test_soa_keeps_working_when_its_solver_gets_a_table_later():
    """A solver shared with opt(): the table opt() may build afterwards does not confuse the learner."""
    C = ConceptClass.from_matrix(sparse_rows(9, 3))
    S = Solver(C)
    L = SOA(C, solver=S)
    L.learn_one(C.points[0], 1)
    assert opt(C, solver=S, engine="table").value == 3 and S.table is not None
    assert L.predict_one(C.points[1]) == brute_prediction(split_rows(rows_of(C.matrix), 0)[1], 1, C.n_points)
    L.learn_one(C.points[1], 0)
    assert L.mistake_bound().value == 3


# ---------------------------------------------------------------------------------------- any oracle
class BruteOracle:
    """A version-space oracle (:class:`solvers.opt.VersionSpaceOracle`) written from the definition of Opt
    ([Rivest94]: Opt(V) = max over points splitting V of 1 + min(Opt(V^0), Opt(V^1)), 0 for one concept,
    -1 for none) by the brute force of tests/oracles.py: no solver of the package is involved."""

    def __init__(self, C):
        from solvers.game_rules import Game

        self.C, self.game, self.deadline = C, Game(), None
        self.rows = [tuple(int(b) for b in C.matrix[c]) for c in range(len(C))]
        self.asked = 0

    def _rows(self, V):
        return frozenset(r for c, r in enumerate(self.rows) if (V >> c) & 1)

    def root(self):
        return sum(1 << c for c in range(len(self.rows)))

    def child(self, V, j, y):
        return sum(1 << c for c, r in enumerate(self.rows) if (V >> c) & 1 and r[j] == y) or None

    def value(self, V=None):
        self.asked += 1
        return opt_of(self._rows(self.root() if V is None else V), self.C.n_points)

    def bounds(self, V=None):
        n = len(self._rows(self.root() if V is None else V))
        return (-1, -1) if n == 0 else (0, n.bit_length() - 1)  # Opt(V) <= floor(log2 |V|)

    def record(self, V, lower, upper):
        pass

    def limits(self, *, deadline=None):
        import contextlib

        @contextlib.contextmanager
        def block():
            old, self.deadline = self.deadline, deadline
            try:
                yield self
            finally:
                self.deadline = old

        return block()


@SETTINGS
@given(matrices(max_rows=8, max_cols=6), st.data())
def test_soa_driven_by_a_brute_force_oracle(rows, data):
    """SOA on the brute-force oracle: the real solver's predictions, at most Opt(C) mistakes on a random
    realizable sequence, and it asked the oracle (nothing else)."""
    C = ConceptClass.from_matrix(rows)
    O = BruteOracle(C)
    A, B = SOA(C, solver=O), SOA(C)
    assert A.oracle is O and A.mistake_bound().value == opt_brute(rows)
    target = data.draw(st.integers(0, len(C) - 1), label="target")
    seq = data.draw(st.lists(st.integers(0, C.n_points - 1), max_size=15), label="points")
    mistakes = 0
    for j in seq:
        x, y = C.points[j], int(C.matrix[target, j])
        assert all(A.predict_one(z) == B.predict_one(z) for z in C.points)
        mistakes += A.predict_one(x) != y
        A.learn_one(x, y)
        B.learn_one(x, y)
        assert A.state_key() == B.state_key() == A.V
        assert A.remaining_bound(A.V) == opt_of(rows_of([O.rows[c] for c in C.concepts_of(A.V)]), C.n_points)
    assert mistakes <= opt_brute(rows)
    assert O.asked > 0 or not seq


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices(max_rows=6, max_cols=4))
def test_exhaustive_adversary_forces_opt_on_soa_with_a_brute_force_oracle(rows):
    C = ConceptClass.from_matrix(rows)
    assert adversary_brute(SOA(C, solver=BruteOracle(C)), C.matrix, C.points) == opt_brute(rows)


def test_a_deadline_reaches_any_oracle():
    C = make("thresholds", N=7)
    O = BruteOracle(C)
    seen = []
    O.value = lambda V=None: seen.append(O.deadline) or 0
    L = SOA(C, solver=O)
    L.set_deadline(123.0)
    L.predict_one((4,))
    assert seen == [123.0, 123.0] and O.deadline is None


@pytest.mark.parametrize("bad", [object(), Solver, "soa", make("thresholds", N=3)])
def test_what_is_not_an_oracle_is_refused_in_one_line(bad):
    with pytest.raises(ValueError) as e:
        SOA(make("thresholds", N=3), solver=bad)
    assert "\n" not in str(e.value) and "SOA" in str(e.value) and "VersionSpaceOracle" in str(e.value)


def test_an_oracle_missing_one_member_is_refused_naming_it():
    C = make("thresholds", N=3)
    O = BruteOracle(C)
    Partial = type("Partial", (), {k: getattr(BruteOracle, k) for k in ("root", "value", "bounds", "record", "limits")})
    P = Partial()
    P.__dict__.update(O.__dict__)
    with pytest.raises(ValueError, match=r"it has no child\)"):
        SOA(C, solver=P)


def test_an_oracle_of_another_game_is_refused():
    from solvers.opt import oracle_for
    from solvers.game_rules import Game

    C = make("thresholds", N=5)
    with pytest.raises(ValueError, match="not the deterministic optimum with 1 label error"):
        SOA(C, solver=oracle_for(C), errors=1)
    with pytest.raises(ValueError, match="is for the deterministic optimum with 1 label error, D_1"):
        SOA(C, solver=oracle_for(C, Game(errors=1)))
    L = SOA(C, errors=1)
    assert SOA(C, solver=L.oracle, errors=1).oracle is L.oracle  # shared between learners


def test_soa_does_not_import_the_solvers():
    """The learner names the interface only (issue 35): no solver class in its module."""
    import solvers.learners.soa as soa_module

    names = vars(soa_module)
    assert "Solver" not in names and "GameSolver" not in names and "oracle_for" in names
