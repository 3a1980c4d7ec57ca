"""The mistake-bound game played interactively: show a point, get the prediction, reveal a label.

The game ([Mehta], Definition 1; [Rivest94], section 2.1): each round the adversary shows a point, the
learner predicts, the adversary reveals a label that keeps the sequence realizable. :class:`GameInProgress` holds
one game in progress under the referee's rules (:mod:`adversary.referee`) and turns it into a witness;
:func:`play` plays one with a point-picking function and [Rivest94]'s contrary labels. Both are thin
uses of :class:`~adversary.position.Position`: the game in progress is its position (the learner's state
and the version space) plus the examples played and an optional fixed target.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
"""

from __future__ import annotations

from typing import Callable

from solvers.numbers import point_text as _show

from .position import Position
from .referee import (WitnessError, build_learner, check_realizable, full_params, json_target, learner_spec,
                      make_witness, parse_point, witness_class)

__all__ = ["GameInProgress", "play", "contrary"]


def contrary(game: "GameInProgress", x, prediction: int) -> int:
    """The label that makes the learner wrong when realizability allows it, else the other one.

    [Rivest94]'s adversary: answering each point with the label the learner did not predict forces a
    mistake every round the version space still splits on x.
    """
    allowed = game.allowed_labels(x)
    if not allowed:
        raise WitnessError(f"no label of x = {_show(x)} keeps the labels realizable")
    return 1 - prediction if (1 - prediction) in allowed else prediction


class GameInProgress:
    """One game in progress: a fresh learner, a class, and the examples played so far.

    The adversary shows a point with :meth:`show` (which returns the learner's prediction), then
    reveals its label with :meth:`reveal`; labels that would leave no concept of the class consistent
    (or that the fixed ``target`` does not give) are refused. :meth:`witness` turns the game into a
    witness. Search strategies that need to branch should copy the game (``copy.deepcopy``).

    Parameters
    ----------
    learner : str, dict, (name, params) or learner object
        Rebuilt fresh from its name and parameters.
    cls : dict or a class of :mod:`solvers.classes`
        The class (see :func:`adversary.referee.witness_class`).
    target : int or dict, optional
        Fix the target concept (required for margin halfspaces: ``{"w": [...]}``).

    Examples
    --------
    >>> from solvers.classes.families import make
    >>> g = GameInProgress("halving", make("thresholds", N=3))
    >>> g.show((2,))
    1
    >>> g.reveal(0)
    True
    >>> g.mistakes, g.allowed_labels((3,)), g.allowed_labels((1,))
    (1, (0, 1), (0,))
    """

    def __init__(self, learner, cls, *, target=None):
        self.cls = witness_class(cls)
        self.learner_name, params = learner_spec(learner)
        learner = build_learner(self.learner_name, params, self.cls)
        self.learner_params = full_params(learner, params)
        self.position = Position.start(learner, self.cls)
        self.examples: list[tuple[tuple, int]] = []
        self.predictions: list[int] = []
        self.mistakes = 0
        self._pending = None
        self.target = None
        if target is not None or self.cls.n_concepts is None:  # margin halfspaces: a direction w
            self.target = check_realizable(self.cls, [], target)

    @property
    def learner(self):
        """The learner in its current state (the position's: do not teach it directly)."""
        return self.position.learner

    @property
    def V(self):
        """The version space (a bitset of concepts), None on a class whose concepts are not listed."""
        return self.position.V if self.cls.n_concepts is not None else None

    def allowed_labels(self, x) -> tuple:
        """The labels of ``x`` that keep the game realizable (by the target, if one is fixed)."""
        x = parse_point(x, len(self.examples) + 1, self.cls)
        if self.target is not None:
            return tuple(y for y in (0, 1) if self._fits(x, y))
        return self.position.labels(x)

    def _fits(self, x, y) -> bool:
        """Whether the fixed target labels ``x`` with ``y`` (with the margin, on margin halfspaces)."""
        try:
            self.cls.check_target([(x, y)], json_target(self.cls, self.target))
        except ValueError:
            return False
        return True

    @property
    def pending(self):
        """The point shown and not yet labelled (the class's own form of it), or None."""
        return None if self._pending is None else self._pending[0]

    def show(self, x) -> int:
        """Show the learner point ``x``; return its prediction."""
        if self._pending is not None:
            raise WitnessError("reveal the label of the point shown before showing another")
        x = parse_point(x, len(self.examples) + 1, self.cls)
        p = self.position.learner.predict_one(x)
        if p is not True and p is not False and p != 0 and p != 1:
            raise WitnessError(f"learner {self.learner_name} predicted {p!r}; predictions must be 0 or 1")
        p = int(p)
        self._pending = (x, p)
        return p

    def reveal(self, y: int) -> bool:
        """Reveal the label of the point shown; play it (the next position); return whether the learner erred."""
        if self._pending is None:
            raise WitnessError("show a point before revealing a label")
        x, p = self._pending
        t = len(self.examples) + 1
        if isinstance(y, bool) or y not in (0, 1):
            raise WitnessError(f"example {t}: label {y!r} is not 0 or 1")
        if y not in self.allowed_labels(x):
            raise WitnessError(f"example {t}: label {y} of x = {_show(x)} is not realizable "
                               f"{'by the target' if self.target is not None else 'by any concept consistent so far'}")
        self.position = self.position.play(x, y)
        self._pending = None
        self.examples.append((x, y))
        self.predictions.append(p)
        self.mistakes += p != y
        return p != y

    def witness(self, *, extra=None) -> dict:
        """The game so far as a witness (re-checked by replaying from scratch)."""
        target = None if self.target is None else json_target(self.cls, self.target)
        if target is None and not self.cls.finite:  # an implicit class's witnesses name the target
            target = (self.V & -self.V).bit_length() - 1
        return make_witness(self.learner_name, self.learner_params, self.cls, self.examples, target, extra=extra)


def play(learner, cls, adversary: Callable, *, label: Callable = contrary, target=None,
         max_rounds: int = 10_000) -> GameInProgress:
    """Play a game: ``adversary(game)`` picks each point (None to stop), ``label(game, x, prediction)``
    its label (default :func:`contrary`, the mistake-forcing realizable answer).

    Returns the finished :class:`GameInProgress`; ``game.witness()`` gives the witness.

    Examples
    --------
    >>> from solvers.classes.families import make
    >>> from adversary.referee import verify_witness
    >>> points = iter([(2,), (3,), (1,)])
    >>> g = play("halving", make("thresholds", N=3), lambda game: next(points, None))
    >>> g.mistakes, [y for _, y in g.examples]    # contrary: 0 where Halving says 1, as long as it can
    (2, [0, 0, 0])
    >>> verify_witness(g.witness()).ok
    True
    """
    game = GameInProgress(learner, cls, target=target)
    for _ in range(max_rounds):
        x = adversary(game)
        if x is None:
            break
        p = game.show(x)
        game.reveal(label(game, game.pending, p))
    return game
