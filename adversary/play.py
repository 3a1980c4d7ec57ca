"""The mistake-bound game, played by a person: the rules and the bookkeeping behind ``littlestone play``.

As the adversary (:class:`AdversaryGame`) the player shows points and gives labels; every label must leave a
concept of the class consistent (the version space V nonempty), and the learner (SOA by default) predicts
first. After each move the game knows |V| and Opt(V), the mistakes the optimal adversary forces from there on
every learner; at the end it lists the player's missed chances: the positions where the mistakes still to come
fell short of Opt(V). As the learner (:class:`LearnerGame`) the player predicts against the optimal adversary,
which shows a point whose two labels both keep a mistake tree of depth Opt(V) - 1 and answers with the label
the player did not predict, until no point splits V: every learner makes at least Opt(C) mistakes ([Rivest94]:
Opt(C) is the value of this game), SOA exactly Opt(C), a player who lands where Opt did not fall more.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

__all__ = ["AdversaryGame", "LearnerGame", "BadMove", "parse_point"]


class BadMove(ValueError):
    """A move the rules refuse; its message says what to change, and the game goes on."""


def parse_point(text: str, C) -> int:
    """The column of the point ``text`` names: its index (``#3`` or ``3`` when no point reads so) or the point
    itself (``0110``, ``(0, 1, 1, 0)``, ``5``)."""
    t = text.strip()
    if not t:
        raise BadMove("give a point: its index, e.g. #3, or the point itself, e.g. 0110")
    if t.startswith("#"):
        try:
            j = int(t[1:])
        except ValueError:
            raise BadMove(f"{t!r} is not #INDEX; write e.g. #3") from None
        if not 0 <= j < C.n_points:
            raise BadMove(f"there is no point #{j}: choose #0..#{C.n_points - 1}")
        return j
    cleaned = t.strip("()[] ").replace(",", " ").split()
    cands = []
    if len(cleaned) == 1 and set(cleaned[0]) <= {"0", "1"} and len(C.points[0]) == len(cleaned[0]) > 1:
        cands.append(tuple(int(c) for c in cleaned[0]))
    try:
        cands.append(tuple(int(v) for v in cleaned))
    except ValueError:
        pass
    for p in cands:
        if p in C.points:
            return C.points.index(p)
    if len(cleaned) == 1 and cleaned[0].isdigit() and len(C.points[0]) > 1:
        j = int(cleaned[0])
        if 0 <= j < C.n_points:
            return j
    raise BadMove(f"{t!r} is not a point of the class; give its index #0..#{C.n_points - 1} or the point itself "
                  f"(e.g. {_show(C.points[0])})")


def _show(p) -> str:
    if len(p) > 1 and all(v in (0, 1) for v in p):
        return "".join(str(v) for v in p)
    return ", ".join(str(v) for v in p) if len(p) > 1 else str(p[0])


@dataclass
class Move:
    point: tuple
    label: int
    prediction: int
    size: int        # |V| before the move
    opt: int         # Opt(V) before the move
    opt_after: int = 0  # Opt of the version space the move left

    @property
    def mistake(self) -> bool:
        return self.prediction != self.label


@dataclass
class _Game:
    C: object
    moves: list = field(default_factory=list)

    def __post_init__(self):
        from solvers.opt.search import Solver

        self.solver = Solver(self.C)
        self.V = self.C.full

    def opt(self, V: Optional[int] = None) -> int:
        return self.solver.value(self.V if V is None else V)

    @property
    def size(self) -> int:
        return self.V.bit_count()

    @property
    def mistakes(self) -> int:
        return sum(m.mistake for m in self.moves)

    def splitting(self) -> list:
        """The columns both of whose labels a concept of V gives."""
        out = []
        for j in range(self.C.n_points):
            V0, V1 = self.C.split_index(self.V, j)
            if V0 and V1:
                out.append(j)
        return out

    @property
    def over(self) -> bool:
        return not self.splitting()


class AdversaryGame(_Game):
    """The player is the adversary against ``learner`` (built for ``C``)."""

    def __init__(self, C, learner):
        super().__init__(C)
        self.learner = learner

    def prediction(self, j: int) -> int:
        return int(self.learner.predict_one(self.C.points[j]))

    def play(self, j: int, y: int) -> Move:
        """The player shows point ``j`` with label ``y``: the learner predicts, then learns it."""
        if y not in (0, 1):
            raise BadMove(f"label {y!r}: give 0 or 1")
        V0, V1 = self.C.split_index(self.V, j)
        Vy = V1 if y else V0
        if not Vy:
            raise BadMove(f"no concept left labels {_show(self.C.points[j])} with {y} (all {self.size} say "
                          f"{1 - y}); give {1 - y}, or another point")
        move = Move(self.C.points[j], y, self.prediction(j), self.size, self.opt(), self.opt(Vy))
        self.learner.learn_one(self.C.points[j], y)
        self.V = Vy
        self.moves.append(move)
        return move

    def missed(self) -> list:
        """``[(move number, Opt(V) before it, what it kept: its mistake (0 or 1) + Opt of the version space it
        left)]`` for the moves that lost ground: from there the optimal adversary would have forced Opt(V) more
        mistakes on any learner, and after the move no more than what it kept can be forced."""
        return [(t, m.opt, int(m.mistake) + m.opt_after) for t, m in enumerate(self.moves, 1)
                if int(m.mistake) + m.opt_after < m.opt]


class LearnerGame(_Game):
    """The player is the learner against the optimal adversary on ``C``."""

    def next_point(self) -> Optional[int]:
        """A point of a mistake tree of depth Opt(V): both labels keep Opt(V) - 1 (None when no point splits V)."""
        d = self.opt()
        best, best_val = None, -1
        for j in self.splitting():
            V0, V1 = self.C.split_index(self.V, j)
            v = min(self.opt(V0), self.opt(V1))
            if v > best_val:
                best, best_val = j, v
            if v >= d - 1:
                return j
        return best

    def answer(self, j: int, prediction: int) -> Move:
        """The player predicted ``prediction`` at point ``j``; the adversary gives the other label (both are
        possible at a point of the tree), and the game moves on."""
        if prediction not in (0, 1):
            raise BadMove(f"prediction {prediction!r}: give 0 or 1")
        V0, V1 = self.C.split_index(self.V, j)
        y = 1 - prediction
        Vy = V1 if y else V0
        move = Move(self.C.points[j], y, prediction, self.size, self.opt(), self.opt(Vy))
        self.V = Vy
        self.moves.append(move)
        return move
