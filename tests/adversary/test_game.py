"""The interactive game (adversary/game.py): Game and play under the referee's rules.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

import pytest

from adversary.game import GameInProgress, play
from adversary.referee import WitnessError, verify_witness
from solvers.classes.families import make

MARGIN = {"family": "margin-halfspaces", "params": {"d": 2, "gamma": 0.1, "R": 1}}
W_STAR = [0.6, 0.8]


def ok(result):
    assert result.ok, result.message
    return result


def bisect(game):
    """The point that splits the version space most evenly (None once no point splits it)."""
    C = game.cls
    best = max(range(C.n_points), key=lambda j: min(s.bit_count() for s in C.split_index(game.V, j)))
    if min(s.bit_count() for s in C.split_index(game.V, best)) == 0:
        return None
    return C.points[best]


@pytest.mark.parametrize("learner", ["halving", "con", "soa"])
def test_play_contrary_bisection_forces_opt(learner):
    C = make("thresholds", N=7)  # Opt = 3: bisecting and contradicting forces 3 mistakes on any learner
    g = play(learner, C, bisect)
    assert g.mistakes == 3 and len(g.examples) == 3
    w = g.witness(extra={"note": "bisection"})
    assert ok(verify_witness(w)).mistakes == 3 and w["note"] == "bisection"


def test_game_refuses_unrealizable_labels():
    g = GameInProgress("halving", make("thresholds", N=3))
    g.show((2,))
    g.reveal(1)
    g.show((3,))
    with pytest.raises(WitnessError, match="not realizable"):
        g.reveal(0)
    with pytest.raises(WitnessError, match="label 2"):
        g.reveal(2)
    g.reveal(1)
    with pytest.raises(WitnessError, match="show a point"):
        g.reveal(1)


def test_game_on_margin_halfspaces():
    g = GameInProgress(("perceptron", {"d": 2}), MARGIN, target={"w": W_STAR})
    assert g.allowed_labels((1.0, 0.0)) == (1,) and g.allowed_labels((-0.8, 0.6)) == ()
    g.show((0.0, -1.0))
    assert g.reveal(0)  # Perceptron starts with w = 0 and sgn(0) = +1
    assert ok(verify_witness(g.witness())).mistakes == 1
