"""The game's one model (adversary/position.py) against brute force on small random classes.

A move from (learner, V) is an (x, y) with some concept of V labelling x with y ([Rivest94], section
2.1; [Mehta], Definition 1); it is a mistake when y differs from the learner's prediction. The oracle
here filters the concept rows of V directly (tests/oracles.py's version spaces: frozensets of rows).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
"""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adversary.position import IllegalMove, Key, Position, States, advance
from adversary.referee import WitnessError, replay
from solvers.classes import ConceptClass, ImplicitFamily, MarginHalfspaces
from solvers.classes.families import make
from solvers.learners import make_learner
from tests.oracles import matrices, rows_of

LEARNERS = ("halving", "con", "soa", "winnow2")


def rows_in(C, V: int) -> frozenset:
    """The concept rows of bitset V."""
    return frozenset(tuple(int(v) for v in C.matrix[c]) for c in range(C.n_concepts) if V >> c & 1)


def realizable_moves(learner, C, rows, points) -> set:
    """(x, y, mistake) for every point and every label some row of ``rows`` gives it."""
    out = set()
    for x in points:
        j = C.points.index(x)
        p = int(learner.predict_one(x))
        for y in (0, 1):
            if any(r[j] == y for r in rows):
                out.add((x, y, p != y))
    return out


def build(name, C):
    n = len(C.points[0])
    return make_learner(name, {"n": n} if name == "winnow2" else {}, C)


@st.composite
def games(draw):
    """A small random class (0/1 vector points, so every learner reads them), a learner, and a
    realizable sequence of labels drawn along the way."""
    rows = draw(matrices(max_rows=8, max_cols=3))
    n = 3
    points = [tuple((j >> i) & 1 for i in range(n)) for j in range(len(rows[0]))]
    C = ConceptClass.from_matrix(rows, points)
    name = draw(st.sampled_from(LEARNERS))
    picks = draw(st.lists(st.tuples(st.integers(0, len(points) - 1), st.booleans()), max_size=6))
    return C, name, picks


@settings(max_examples=60, deadline=None)
@given(games())
def test_moves_and_play_match_the_brute_force(game):
    C, name, picks = game
    pos = Position.start(build(name, C), C)
    rows = rows_of(C.matrix.astype(int).tolist())
    shadow = copy.deepcopy(pos.learner)  # the learner taught in place, beside the immutable positions
    for j, flip in picks:
        assert rows_in(C, pos.V) == rows
        moves = pos.moves(C.points)
        assert {(x, y, m) for x, y, m, _ in moves} == realizable_moves(shadow, C, rows, C.points)
        assert len(moves) == len({(x, y) for x, y, _, _ in moves})
        seen_quiet = False
        for x, y, mistake, Vy in moves:  # mistakes first; each child's V is V_x^y
            assert not (mistake and seen_quiet)
            seen_quiet |= not mistake
            assert rows_in(C, Vy) == frozenset(r for r in rows if r[C.points.index(x)] == y)
            assert pos.mistake(x, y) == mistake and pos.prediction(x) == (1 - y if mistake else y)
        assert not any(m for _, _, m, _ in pos.moves(C.points, quiet=False)) or all(
            m for _, _, m, _ in pos.moves(C.points, quiet=False))
        x = C.points[j]
        y = int(flip)
        labels = pos.labels(x)
        assert labels == tuple(v for v in (0, 1) if any(r[j] == v for r in rows))
        if y not in labels:
            with pytest.raises(IllegalMove, match="not realizable"):
                pos.play(x, y)
            y = labels[0]
        before = pos.learner.state_key()
        nxt = pos.play(x, y)
        assert pos.learner.state_key() == before  # the position played from is unchanged
        rows = frozenset(r for r in rows if r[j] == y)
        shadow.learn_one(x, y)
        assert rows_in(C, nxt.V) == rows and nxt.learner.state_key() == shadow.state_key()
        pos = nxt


@settings(max_examples=40, deadline=None)
@given(games())
def test_key_is_equal_iff_state_and_version_space_are(game):
    C, name, picks = game
    positions = [Position.start(build(name, C), C)]
    for j, flip in picks:
        pos = positions[-1]
        x = C.points[j]
        labels = pos.labels(x)
        positions.append(pos.play(x, int(flip) if int(flip) in labels else labels[0]))
    for a in positions:
        for b in positions:
            same = a.learner.state_key() == b.learner.state_key() and a.V == b.V
            assert (a.key == b.key) == same
            if same:
                assert hash(a.key) == hash(b.key)
    assert len({p.key for p in positions}) == len({(p.learner.state_key(), p.V) for p in positions})


def test_run_plays_a_sequence_as_play_does():
    C = make("monotone-disjunctions", n=3, k=2)
    seq = [((1, 1, 0), 1), ((1, 0, 0), 0), ((0, 1, 1), 1), ((0, 0, 1), 0)]
    start = Position.start(make_learner("winnow2", {"n": 3}), C)
    end, preds = start.run(seq)
    pos, expected = start, []
    for x, y in seq:
        expected.append(pos.prediction(x))
        pos = pos.play(x, y)
    assert preds == expected and end.key == pos.key and start.V == C.full
    with pytest.raises(IllegalMove, match="example 2: label 1 of x = "):
        start.run([((1, 0, 0), 0), ((1, 0, 0), 1)])


def test_predictions_batched_or_not_agree():
    C = make("monotone-disjunctions", n=4, k=2)
    pos = Position.start(make_learner("winnow2", {"n": 4}), C).play((1, 1, 0, 0), 1)
    assert pos.binary and getattr(pos.learner, "batch_predictions", False)
    assert pos.predictions(C.points) == [pos.prediction(x) for x in C.points]


def test_every_kind_of_class():
    # implicit: V a bitset over the concepts, points never listed
    F = ImplicitFamily("monotone-disjunctions", {"n": 13, "k": 1})
    pos = Position.start(make_learner("winnow2", {"n": 13}), F)
    x = (1,) + (0,) * 12
    moves = pos.moves([x])
    assert {(y, m) for _, y, m, _ in moves} == {(0, False), (1, True)}  # weight 1 < threshold n: predicts 0
    after = pos.play(x, 0)
    assert after.V == F.consistent([(x, 0)]) and after.labels(x) == (0,)
    with pytest.raises(IllegalMove):
        after.play(x, 1)
    # margin halfspaces: V is the examples so far, a label is never refused here (the referee checks the target)
    H = MarginHalfspaces.from_params({"d": 2, "gamma": "1/2"})
    pos = Position.start(make_learner("perceptron", {"d": 2}), H)
    assert pos.V == () and pos.labels((1, 0)) == (0, 1)
    after = pos.play((1, 0), 1).play((0, 1), 0)
    assert after.V == (((1, 0), 1), ((0, 1), 0))
    assert len(pos.moves([(1, 0), (0, 1)])) == 4


def test_states_interns_steps_as_advance_does():
    C = make("monotone-disjunctions", n=3, k=1)
    root = make_learner("winnow2", {"n": 3})
    S = States(root, C)
    j = C.points.index((1, 1, 0))
    s1 = S.step(S.root, j, 0)
    assert S.reps[s1].state_key() == advance(root, (1, 1, 0), 0).state_key()
    assert S.step(S.root, j, 0) == s1 and S.step(s1, C.points.index((0, 0, 0)), 0) == s1  # (0,0,0): no update
    assert list(S.predictions(s1)) == Position(S.reps[s1], C).predictions(C.points)
    assert S.position(s1, C).key == Key(S.reps[s1], C.full)


def test_replay_refuses_an_unrealizable_label_with_the_referees_message():
    C = make("monotone-disjunctions", n=3, k=1)
    with pytest.raises(WitnessError, match=r"example 2: label 1 of x = \(1, 0, 0\) is not realizable"):
        replay(("winnow2", {"n": 3}), [((1, 0, 0), 0), ((1, 0, 0), 1)], C)
