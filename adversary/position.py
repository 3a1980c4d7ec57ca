"""The game's one model: a position = (the learner's state, the version space V) on a class.

The mistake-bound game ([Mehta], Definition 1; [Rivest94], section 2.1): the adversary shows x, the
learner predicts, the adversary reveals a label y that keeps the examples realizable, i.e. leaves
V_x^y = {c in V : c(x) = y} non-empty ([Rivest94]'s xi_0 and xi_1). A *move* is such an (x, y); it
is a *mistake* when y differs from the prediction. Everything here goes through the class protocol
(:mod:`solvers.classes.protocol`: ``full``, ``split(V, x)``) and the learner protocol
(:mod:`solvers.learners.base`: ``predict_one``, ``learn_one``, ``state_key``, ``predict_many``), so it
holds for every kind of class: V is a bitset of concepts for finite and implicit classes, and the tuple
of the examples so far for margin halfspaces (whose consistent directions are not enumerated: there a
label is never refused here, the referee checks the target at the end, :mod:`adversary.referee`).

* :class:`Position` -- immutable from the outside: ``moves(points)``, ``play(x, y)``, ``key``,
  ``prediction(x)``, ``predictions(points)``, ``mistake(x, y)``, ``split(x)``;
* :func:`advance` -- the learner's step: a copy after ``learn_one(x, y)``;
* :class:`States` -- learner states interned as small ints, their predictions on every point of a
  finite class and their steps cached: the exact search's cache over the same semantics
  (:mod:`adversary.strategies.exact`);
* :class:`Key` -- a position's key with its hash computed once;
* :class:`IllegalMove` -- what :meth:`Position.play` and :meth:`Position.run` refuse.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"

Examples
--------
>>> from solvers.classes.families import make
>>> from solvers.learners import make_learner
>>> C = make("thresholds", N=3)
>>> pos = Position.start(make_learner("halving", {}, C), C)
>>> pos.prediction((2,)), pos.labels((2,))
(1, (0, 1))
>>> [(x, y, mistake) for x, y, mistake, _ in pos.moves([(2,)])]
[((2,), 0, True), ((2,), 1, False)]
>>> after = pos.play((2,), 0)
>>> after.labels((3,)), after.labels((1,)), pos.labels((1,))
((0, 1), (0,), (0, 1))
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Optional

import numpy as np

from solvers.numbers import point_text as _show

__all__ = ["Position", "IllegalMove", "Key", "States", "advance", "predictions"]


class IllegalMove(ValueError):
    """A move the game refuses: ``kind`` is ``"unrealizable"`` (V_x^y is empty), ``"failed"`` (the
    learner raised ``cause``) or ``"prediction"`` (it predicted ``cause``, not 0 or 1); ``t`` is the
    example's index in the sequence played (None for one move)."""

    def __init__(self, kind: str, t: Optional[int], x, y, cause=None):
        self.kind, self.t, self.x, self.y, self.cause = kind, t, x, y, cause
        where = "" if t is None else f"example {t + 1}: "
        if kind == "unrealizable":
            text = f"label {y} of x = {_show(x)} is not realizable by any concept consistent so far"
        elif kind == "failed":
            text = f"the learner failed on x = {_show(x)}: {' '.join(str(cause).split())}"
        else:
            text = f"the learner predicted {cause!r} on x = {_show(x)}; predictions must be 0 or 1"
        super().__init__(where + text)


def advance(learner, x, y):
    """A copy of ``learner`` after ``learn_one(x, y)`` (the original is left as it was)."""
    copier = getattr(learner, "__deepcopy__", None)  # (what copy.deepcopy would call, without its bookkeeping)
    child = copier({}) if copier is not None else copy.deepcopy(learner)
    child.learn_one(x, y)
    return child


def _batch(learner) -> bool:
    return bool(getattr(learner, "batch_predictions", False))


def predictions(learner, points, *, binary: bool) -> list:
    """The learner's predictions (0/1) on ``points``: its own ``predict_many`` (one exact integer matrix
    product) when it declares ``batch_predictions`` and the points are 0/1 vectors (``binary``), else
    ``predict_one`` point by point."""
    if binary and len(points) > 1 and _batch(learner):
        return learner.predict_many(points).tolist()
    return [int(learner.predict_one(x)) for x in points]


class Key:
    """A position's key ``(learner.state_key(), V)`` with its hash computed once (a state key can be a
    tuple of many Fractions, whose hash is slow; dictionaries of positions look keys up repeatedly)."""

    __slots__ = ("key", "_hash")

    def __init__(self, learner, V):
        self.key = (learner.state_key(), V)
        self._hash = hash(self.key)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other) -> bool:
        return isinstance(other, Key) and self._hash == other._hash and self.key == other.key


def _no_split(V, x):
    return None, None


class _Board:
    """What every position on one class shares: the class, its point index, whether V is a bitset
    (``cls`` None: no class, the learner alone, V None)."""

    __slots__ = ("cls", "split", "listed", "binary")

    def __init__(self, cls):
        self.cls = cls
        if cls is None:
            self.split, self.listed, self.binary = _no_split, False, False
            return
        self.listed = cls.n_concepts is not None  # V is a bitset of concepts (else the examples so far)
        self.binary = False                       # every point is a 0/1 vector (batched predictions apply)
        split = cls.split
        if cls.finite:
            index = {p: j for j, p in enumerate(cls.points)}
            split_index = cls.split_index

            def split(V, x):  # noqa: F811 - a finite class: the column of x, without re-reading x
                try:
                    return split_index(V, index[x])
                except (KeyError, TypeError):  # not a point tuple of the domain: the class reads it
                    return cls.split(V, x)

            self.binary = all(v in (0, 1) for p in cls.points for v in p)
        elif self.listed:
            self.binary = "n" in cls.facts
        self.split = split


class Position:
    """A position of the game: a learner (in some state) and the version space V of a class.

    Immutable from the outside: :meth:`play` returns a new position (the learner copied) and never
    touches this one; do not call ``learn_one`` on ``learner``.

    Parameters
    ----------
    learner
        A learner of :mod:`solvers.learners`, in the position's state.
    cls
        A class of :mod:`solvers.classes` (or the board of another position, for children).
    V : optional
        The version space (default ``cls.full``).
    """

    __slots__ = ("_board", "learner", "V", "_key", "_pending")

    def __init__(self, learner, cls, V=None, *, pending=None):
        self._board = cls if isinstance(cls, _Board) else _Board(cls)
        self.learner = learner
        self._key = None
        self._pending = pending
        if pending is None:
            self.V = V if V is not None or self._board.cls is None else self._board.cls.full

    def __getattr__(self, name):
        # V computed when first read: ``pending`` = (V before, the examples since as a linked list
        # (rest, x, y)); so a long line of play on margin halfspaces (V: the examples so far) costs no tuple
        # copy per move, a target-fixed search no split per move, and no earlier learner is kept alive.
        if name != "V" or self._pending is None:
            raise AttributeError(name)
        V, node = self._pending
        examples = []
        while node is not None:
            node, x, y = node
            examples.append((x, y))
        self.V = V = self._board.cls.consistent(examples[::-1], V)
        self._pending = None
        return V

    def _after(self, learner, x, y) -> "Position":
        """The position after (x, y), its V computed when first read (the class's ``consistent``)."""
        base, node = self._pending if self._pending is not None else (self.V, None)
        return Position(learner, self._board, pending=(base, (node, x, y)))

    @classmethod
    def start(cls, learner, concept_class) -> "Position":
        """The position before any example: ``learner`` as given and V = the whole class."""
        return cls(learner, concept_class)

    # ------------------------------------------------------------------ what it is
    @property
    def cls(self):
        return self._board.cls

    @property
    def binary(self) -> bool:
        """Whether every point is a 0/1 vector (the learner's ``predict_many`` applies)."""
        return self._board.binary

    @property
    def key(self) -> Key:
        """``(learner.state_key(), V)``, hashable, hash computed once: equal keys, equal futures."""
        k = self._key
        if k is None:
            k = self._key = Key(self.learner, self.V)
        return k

    def lowest(self) -> int:
        """The lowest concept of V (a consistent target; listed classes)."""
        V = self.V
        return (V & -V).bit_length() - 1

    def __repr__(self) -> str:
        return f"Position({self.learner!r}, V={self.V!r})"

    # ------------------------------------------------------------------ the learner's side
    def prediction(self, x) -> int:
        """The learner's prediction on ``x`` (0 or 1; ValueError for anything else)."""
        p = self.learner.predict_one(x)
        if p is not True and p is not False and p != 0 and p != 1:
            raise ValueError(f"learner {getattr(self.learner, 'name', self.learner)} predicted {p!r} on "
                             f"x = {_show(x)}; predictions must be 0 or 1")
        return int(p)

    def predictions(self, points) -> list:
        """The predictions on many points (batched by the learner when it can, :func:`predictions`)."""
        return predictions(self.learner, points, binary=self._board.binary)

    def mistake(self, x, y) -> bool:
        """Whether the label y of x is a mistake of the learner."""
        return self.prediction(x) != y

    # ------------------------------------------------------------------ the adversary's side
    def split(self, x) -> tuple:
        """(V_x^0, V_x^1), the class's ``split(V, x)``."""
        return self._board.split(self.V, x)

    def labels(self, x) -> tuple:
        """The labels of x that keep the examples realizable (both, on margin halfspaces)."""
        V0, V1 = self._board.split(self.V, x)
        if not self._board.listed:
            return (0, 1)
        return tuple(y for y, Vy in ((0, V0), (1, V1)) if Vy)

    def moves(self, points, *, quiet: bool = True) -> list:
        """The realizable moves ``(x, y, mistake, V_x^y)`` over ``points``: the mistakes first (in the
        order of ``points``), then (when ``quiet``) the moves that agree with the prediction."""
        board = self._board
        split, listed, V = board.split, board.listed, self.V
        hits, quiet_moves = [], []
        for x, p in zip(points, predictions(self.learner, points, binary=board.binary)):
            V0, V1 = split(V, x)
            Vm, Vq = (V1, V0) if p == 0 else (V0, V1)
            if Vm or not listed:
                hits.append((x, 1 - p, True, Vm))
            if quiet and (Vq or not listed):
                quiet_moves.append((x, p, False, Vq))
        return hits + quiet_moves

    def play(self, x, y) -> "Position":
        """The position after the example (x, y): the learner copied and told ``learn_one(x, y)``, V
        narrowed to V_x^y; :class:`IllegalMove` when V_x^y is empty."""
        if not self._board.listed and self._board.cls is not None:
            return self._after(advance(self.learner, x, y), x, y)
        V0, V1 = self._board.split(self.V, x)
        Vy = V1 if y else V0
        if self._board.listed and not Vy:
            raise IllegalMove("unrealizable", None, x, y)
        return Position(advance(self.learner, x, y), self._board, Vy)

    def run(self, examples, *, first: int = 0) -> tuple["Position", list]:
        """Play ``examples`` [(x, y), ...] in order from here: (the position after them, the learner's
        predictions). The learner is copied once and told every example (river's protocol: predict, then
        learn, every round); :class:`IllegalMove` names the first example refused (numbered from
        ``first``)."""
        board = self._board
        split, listed = board.split, board.listed
        learner = copy.deepcopy(self.learner)
        lazy = not listed and board.cls is not None  # V is the examples: extended once, at the end
        V = None if lazy else self.V
        out = []
        for t, (x, y) in enumerate(examples, first):  # hot loop of every replay: keep it lean
            try:
                p = learner.predict_one(x)
                learner.learn_one(x, y)
            except (ValueError, TypeError, IndexError, KeyError, ArithmeticError) as e:
                raise IllegalMove("failed", t, x, y, e) from None
            if p is not True and p is not False and p != 0 and p != 1:
                raise IllegalMove("prediction", t, x, y, p)
            out.append(int(p))
            if lazy:
                continue
            V0, V1 = split(V, x)
            V = V1 if y else V0
            if listed and not V:
                raise IllegalMove("unrealizable", t, x, y)
        if lazy:
            end = self
            for x, y in examples:
                end = end._after(None, x, y)
            return Position(learner, board, pending=end._pending), out
        return Position(learner, board, V), out

    def child(self, x, y, Vy=None, learner=None) -> "Position":
        """The position after a move (x, y) the caller knows to be realizable: V_x^y = ``Vy`` when
        known (from :meth:`moves`), else computed when first read; the learner after it when the caller
        has it already."""
        learner = advance(self.learner, x, y) if learner is None else learner
        if Vy is None:
            return self._after(learner, x, y)
        return Position(learner, self._board, Vy)


class States:
    """Learner states interned as ints, over a finite class: the exact search's cache of the game.

    ``sid`` 0 is ``root``; :meth:`step` is :func:`advance` (cached per (sid, point index, label));
    :meth:`predictions` the state's predictions on every point (``predict_many`` when the learner
    batches them, else ``predict_one`` point by point, calling ``tick`` between points). Equal
    ``state_key()`` means one sid: equal futures ([Rivest94]'s game depends on the state alone).
    With ``by_distribution`` the states are interned by ``distribution_key()`` instead (a randomized
    learner, whose generator is in its state key but not in its game), and :meth:`probabilities` gives
    the exact P(predict 1) of a state on every point. Subclasses set ``fail(message)`` to turn a
    learner's failure into their own error.
    """

    def __init__(self, root, cls, *, name: Optional[str] = None, by_distribution: bool = False):
        self.points = cls.points
        self.n_points = cls.n_points
        self.name = name or getattr(root, "name", type(root).__name__)
        self.by_distribution = by_distribution
        self.probs: list = []           # id -> its P(predict 1) on every point (a tuple), once asked
        self.ids: dict = {}
        self.reps: list = []            # id -> a learner in that state
        self.preds: list = []           # id -> its predictions on every point (a tuple), once asked
        self.steps: dict = {}           # (id, j, y) -> id
        self.root = self.intern(root)
        self._many = _batch(root)
        self._P = None

    def fail(self, message: str):
        """Raise the error a learner's failure becomes (ValueError here)."""
        raise ValueError(message)

    def tick(self) -> None:
        """Called between two slow predictions (a deadline check in subclasses)."""

    def intern(self, learner) -> int:
        key = learner.distribution_key() if self.by_distribution else learner.state_key()
        try:
            sid = self.ids.get(key)
        except TypeError:
            what = "distribution_key()" if self.by_distribution else "state_key()"
            self.fail(f"learner {self.name}: {what} is not hashable; "
                      "the exact search needs an exact, hashable state")
        if sid is None:
            sid = len(self.reps)
            self.ids[key] = sid
            self.reps.append(learner)
            self.preds.append(None)
            self.probs.append(None)
        return sid

    def probabilities(self, sid: int) -> tuple:
        """State ``sid``'s exact P(predict 1) on every point: ``probability(x)`` for a randomized learner
        (Fractions), its predictions (0 or 1) for a deterministic one."""
        p = self.probs[sid]
        if p is None:
            if not self.by_distribution:
                p = self.predictions(sid)
            else:
                L = self.reps[sid]
                out = []
                for x in self.points:
                    self.tick()
                    try:
                        v = L.probability(x)
                    except (ValueError, TypeError, ArithmeticError) as e:
                        self.fail(f"learner {self.name} failed to give its probability on x = {x}: {e}")
                    if isinstance(v, bool) or not isinstance(v, (int, Fraction)) or not 0 <= v <= 1:
                        self.fail(f"learner {self.name} gave the probability {v!r} on x = {x}; it must be an "
                                  "exact number (an int or a Fraction) in [0, 1]")
                    out.append(Fraction(v))
                p = tuple(out)
            self.probs[sid] = p
        return p

    def predictions(self, sid: int) -> tuple:
        p = self.preds[sid]
        if p is None:
            L = self.reps[sid]
            p = self._predict_many(L)
            if p is None:
                out = []
                for x in self.points:
                    self.tick()  # a learner can be slow to predict (weighted majority: a sum over C)
                    try:
                        v = L.predict_one(x)
                    except (ValueError, TypeError, ArithmeticError) as e:
                        self.fail(f"learner {self.name} failed to predict x = {x}: {e}")
                    if v is not True and v is not False and v != 0 and v != 1:
                        self.fail(f"learner {self.name} predicted {v!r} on x = {x}; predictions must be 0 or 1")
                    out.append(int(v))
                p = tuple(out)
            self.preds[sid] = p
        return p

    def _predict_many(self, L):
        """The learner's batched predictions (``predict_many``) on integer points, or None."""
        if not self._many:
            return None
        if self._P is None:
            try:
                P = np.asarray(self.points)
            except (ValueError, TypeError):
                P = None
            self._P = P if P is not None and P.ndim == 2 and P.dtype.kind in "iub" else False
        if self._P is False:
            return None
        try:
            return tuple(np.asarray(L.predict_many(self._P), dtype=np.int64).tolist())
        except (ValueError, TypeError, ArithmeticError) as e:
            self.fail(f"learner {self.name} failed to predict: {e}")

    def step(self, sid: int, j: int, y: int) -> int:
        """The sid after the example (point j, y)."""
        key = (sid, j, y)
        s2 = self.steps.get(key)
        if s2 is None:
            try:
                L = advance(self.reps[sid], self.points[j], y)
            except (ValueError, TypeError, ArithmeticError) as e:
                self.fail(f"learner {self.name} failed to learn ({self.points[j]}, {y}): {e}")
            s2 = self.steps[key] = self.intern(L)
        return s2

    def position(self, sid: int, cls, V=None) -> Position:
        """State ``sid`` with version space V as a :class:`Position`."""
        return Position(self.reps[sid], cls, V)
