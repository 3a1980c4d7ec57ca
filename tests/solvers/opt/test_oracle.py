"""The version-space oracles of :mod:`solvers.opt.oracle`: the library's own satisfy the protocol, give the
brute force's values along random walks of labelled points (and on sets no examples reach), keep their
deadline, and anything else is refused in one line.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.game_rules import Game
from solvers.opt import SearchStop, Solver, VersionSpaceOracle, opt, oracle_for
from solvers.opt.games import GameSolver
from solvers.opt.oracle import ORACLE_MEMBERS, GameOracle, SolverOracle, TableOracle

from ...oracles import dk_brute, matrices, opt_brute, opt_of, rl_brute

SETTINGS = settings(max_examples=60, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def rows_in(C, V: int) -> frozenset:
    """The concepts of bitset V as rows (tuples of 0/1), read from the matrix."""
    return frozenset(tuple(int(b) for b in C.matrix[c]) for c in range(len(C)) if (V >> c) & 1)


def consistent(C, examples) -> int:
    """The bitset of concepts agreeing with the (point index, label) examples, from the matrix."""
    return sum(1 << c for c in range(len(C)) if all(int(C.matrix[c, j]) == y for j, y in examples))


# ---------------------------------------------------------------------------------------- the protocol
def test_the_library_oracles_satisfy_the_protocol():
    small, large = make("thresholds", N=7), make("intervals", N=14)  # 7 and 14 distinct points
    made = {
        "table": (oracle_for(small), TableOracle, Game()),
        "search": (oracle_for(large), SolverOracle, Game()),
        "given Solver": (oracle_for(large, solver=Solver(large)), SolverOracle, Game()),
        "given Solver with a table": (oracle_for(small, solver=opt(small, engine="table").solver), TableOracle, Game()),
        "errors": (oracle_for(small, Game(errors=1)), GameOracle, Game(errors=1)),
        "randomized": (oracle_for(small, Game(randomized=True)), GameOracle, Game(randomized=True)),
        "given GameSolver": (oracle_for(small, Game(errors=2), solver=GameSolver(small, Game(errors=2))), GameOracle,
                             Game(errors=2)),
    }
    for what, (O, kind, game) in made.items():
        assert isinstance(O, VersionSpaceOracle), what
        assert type(O) is kind and O.game == game, what
        assert O.deadline is None, what
        # an oracle given back is used as it is (and so shares its memo)
        assert oracle_for(O.C, game, solver=O) is O, what
    # a Solver with no table gets none: the table is made only for a new solver
    assert type(oracle_for(small, solver=Solver(small))) is SolverOracle


def test_a_toy_object_with_the_members_is_an_oracle():
    class Toy:
        C, game, deadline = make("thresholds", N=3), Game(), None

        def root(self):
            return self.C.full

        def child(self, V, j, y):
            return None

        def value(self, V=None):
            return 0

        def bounds(self, V=None):
            return 0, 0

        def record(self, V, lo, hi):
            pass

        def limits(self, *, deadline=None):
            return None

    toy = Toy()
    assert isinstance(toy, VersionSpaceOracle)
    assert oracle_for(Toy.C, solver=toy) is toy
    for m in ORACLE_MEMBERS:  # each member is needed
        stripped = type("Stripped", (), {k: v for k, v in vars(Toy).items() if k != m})()
        assert not isinstance(stripped, VersionSpaceOracle), m


@pytest.mark.parametrize("bad, says", [
    (object(), "has no C, game, root, child, value, bounds, record, limits, deadline"),
    ([1, 2], "not a list"),
    (make("thresholds", N=3), "not a ConceptClass"),
])
def test_what_is_not_an_oracle_is_refused_in_one_line(bad, says):
    with pytest.raises(ValueError) as e:
        oracle_for(make("thresholds", N=3), solver=bad)
    assert "\n" not in str(e.value) and says in str(e.value) and "VersionSpaceOracle" in str(e.value)


def test_an_oracle_of_another_class_or_game_is_refused_in_one_line():
    C, D = make("thresholds", N=4), make("thresholds", N=5)
    cases = [
        (dict(solver=Solver(D)), "another class"),
        (dict(solver=oracle_for(D)), "another class"),
        (dict(game=Game(errors=1), solver=Solver(C)), "is for Opt(C), the Littlestone dimension, not the "
                                                      "deterministic optimum with 1 label error"),
        (dict(game=Game(errors=1), solver=GameSolver(C, Game(errors=2))), "is for the deterministic optimum with 2 "
                                                                          "label errors, D_2(C), not"),
        (dict(game=Game(randomized=True), solver=oracle_for(C)), "not the randomized optimum, RL(C)"),
        (dict(game=Game(errors=1, horizon=3)), "horizon"),
    ]
    for kw, says in cases:
        with pytest.raises(ValueError) as e:
            oracle_for(C, **kw)
        assert "\n" not in str(e.value) and says in str(e.value), (kw, str(e.value))
    with pytest.raises(ValueError, match="ConceptClass"):
        oracle_for([[0, 1]])


# ---------------------------------------------------------------------------------------- values
def walk(data, C, n_steps: int = 6):
    """A random sequence of realizable (point index, label) examples."""
    examples = []
    for _ in range(data.draw(st.integers(0, n_steps), label="steps")):
        j = data.draw(st.integers(0, C.n_points - 1), label="point")
        labels = [y for y in (0, 1) if consistent(C, examples + [(j, y)])]
        examples.append((j, data.draw(st.sampled_from(labels), label="label")))
    return examples


def with_copies(rows, data) -> list:
    """``rows`` with some columns repeated, complemented and constant (the points the table maps onto
    others, or ignores)."""
    n = len(rows[0])
    extra = data.draw(st.lists(st.tuples(st.sampled_from(["same", "complement", "zeros", "ones"]),
                                         st.integers(0, n - 1)), max_size=4), label="extra columns")
    value = {"same": lambda r, j: r[j], "complement": lambda r, j: 1 - r[j], "zeros": lambda r, j: 0,
             "ones": lambda r, j: 1}
    return [list(r) + [value[kind](r, j) for kind, j in extra] for r in rows]


@SETTINGS
@given(matrices(max_rows=9, max_cols=5), st.data())
def test_opt_oracles_give_the_brute_force_values_along_a_walk(rows, data):
    """Search and table: child is the consistent set, value is Opt of it ([Rivest94]), bounds contain it."""
    rows = with_copies(rows, data)
    C = ConceptClass.from_matrix(rows)
    n = C.n_points
    oracles = [oracle_for(C, table_points=0), oracle_for(C)]
    assert [type(O) for O in oracles] == [SolverOracle, TableOracle]
    for O in oracles:
        assert O.root() == C.full and O.value() == opt_brute(rows)
    examples = []
    states = [O.root() for O in oracles]
    for j, y in walk(data, C):
        examples.append((j, y))
        states = [O.child(s, j, y) for O, s in zip(oracles, states)]
        V = consistent(C, examples)
        assert states == [V, V]
        for O in oracles:
            lo, hi = O.bounds(V)
            v = O.value(V)
            assert lo <= v <= hi and v == opt_of(rows_in(C, V), n)
            for jj in range(n):  # the children: None exactly when empty, else the consistent set
                for yy in (0, 1):
                    W = consistent(C, examples + [(jj, yy)])
                    assert O.child(V, jj, yy) == (W or None)
                    if W:
                        assert O.value(W) == opt_of(rows_in(C, W), n)


@SETTINGS
@given(matrices(max_rows=9, max_cols=6), st.data())
def test_the_table_oracle_on_sets_no_examples_reach(rows, data):
    """Any nonempty set of concepts: the table answers those that are a subcube, the search the others."""
    C = ConceptClass.from_matrix(rows)
    O = oracle_for(C)
    assert type(O) is TableOracle
    for _ in range(5):
        V = data.draw(st.integers(1, C.full), label="V") & C.full
        if V:
            assert O.value(V) == opt_of(rows_in(C, V), C.n_points)
            lo, hi = O.bounds(V)
            assert lo <= O.value(V) <= hi
    assert O.value(0) == -1 and O.bounds(0) == (-1, -1)


@SETTINGS
@given(matrices(max_rows=9, max_cols=6), st.data())
def test_the_table_oracle_forgetting_its_subcubes_still_answers(rows, data):
    """With room for one subcube only, every other is found again from the labels V agrees on."""
    C = ConceptClass.from_matrix(with_copies(rows, data))
    S = Solver(C)
    S.subcube_table()
    O = TableOracle(S, remember=1)
    V, examples = O.root(), []
    for j, y in walk(data, C):
        examples.append((j, y))
        V = O.child(V, j, y)
        assert V == consistent(C, examples)
        assert O.value(V) == opt_of(rows_in(C, V), C.n_points)


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices(max_rows=6, max_cols=4), st.data())
def test_game_oracles_give_the_brute_force_values(rows, data):
    """D_1 and RL at the root and along a walk (RL of a version space V is RL of V's rows), children as
    :meth:`ConceptClass.levels` has them."""
    C = ConceptClass.from_matrix(rows)
    D1, RL = oracle_for(C, Game(errors=1)), oracle_for(C, Game(randomized=True))
    assert D1.root() == (C.full, C.full) and RL.root() == (C.full,)
    assert D1.value() == dk_brute(rows, 1) and RL.value() == rl_brute(rows)
    d_state, r_state, examples = D1.root(), RL.root(), []
    for _ in range(data.draw(st.integers(0, 4))):
        j = data.draw(st.integers(0, C.n_points - 1))
        y = data.draw(st.integers(0, 1))
        ex = [(C.points[i], b) for i, b in examples + [(j, y)]]
        d_next, r_next = D1.child(d_state, j, y), RL.child(r_state, j, y)
        want_d, want_r = C.levels(ex, 1), C.levels(ex, 0)
        assert d_next == (want_d if want_d[0] else None)
        assert r_next == (want_r if want_r[0] else None)
        if r_next is None:
            break
        examples.append((j, y))
        d_state, r_state = d_next, r_next
        assert RL.value(r_state) == rl_brute(sorted(rows_in(C, r_state[0])))
        lo, hi = RL.bounds(r_state)
        assert lo <= RL.value(r_state) <= hi


def test_record_is_read_back():
    C = make("intervals", N=20)
    O = oracle_for(C)
    V = O.child(O.root(), 5, 0)
    v = opt(ConceptClass.from_matrix(C.matrix[[c for c in range(len(C)) if (V >> c) & 1]])).value
    O.record(V, v, v)
    assert O.bounds(V) == (v, v) and O.value(V) == v
    G = oracle_for(make("thresholds", N=6), Game(errors=1))
    s = G.child(G.root(), 2, 1)
    nodes = G.solver.nodes
    G.record(s, 4, 4)  # (not the true value: shows that a recorded value is answered without a search)
    assert G.bounds(s) == (4, 4) and G.value(s) == 4 and G.solver.nodes == nodes


def test_opt_of_monotone_disjunctions_by_their_own_search():
    C = make("monotone-disjunctions", n=4, k=2)  # 16 points: the search's oracle, not the table
    O = oracle_for(C)
    assert O.bounds()[0] < O.bounds()[1]
    assert O.value() == opt(C).value == opt_brute(C.matrix)
    assert O.solver.nodes == 0  # the family's search settled it, not the generic one
    lo, hi = O.bounds()
    assert lo == hi == O.value()  # recorded in the solver's memo


def test_limits_set_the_deadline_and_a_past_one_stops_the_search():
    O = oracle_for(make("intervals", N=40))
    with O.limits(deadline=12.5):
        assert O.deadline == 12.5
    assert O.deadline is None
    with pytest.raises(SearchStop):
        with O.limits(deadline=time.monotonic() - 1):
            O.value()
    assert O.deadline is None
    G = oracle_for(make("thresholds", N=40), Game(errors=2))
    with pytest.raises(SearchStop):
        with G.limits(deadline=time.monotonic() - 1):
            G.value()
