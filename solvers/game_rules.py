"""The games beyond Opt: a randomized learner, k label errors, a bounded horizon -- their rules in one place.

This module says what the quantities are (the rules, the one-round values, the bounds proven from them);
:mod:`solvers.opt.games` is the search that computes them.

Opt(C) is the value of the mistake-bound game of [Rivest94] (section 2.1): the adversary shows x, a
deterministic learner predicts, the adversary reveals a label that some concept of C agrees with on every
example so far. Three variations of the rules give the quantities of Filmus, Hanneke, Mehalel and Moran,
"Optimal prediction using expert advice and randomized Littlestone dimension" (COLT 2023), here called
[FHMM23]; :class:`Game` names one combination:

* **randomized** -- the learner predicts 1 with a probability p of its choosing; the adversary knows p
  (it knows the learner) but not the coin, and the learner is charged the *expected* number of mistakes;
* **errors = k** -- the adversary may mislabel: a label sequence is allowed while some concept disagrees
  with at most k of its labels ([FHMM23]'s k-realizable sequences; the best expert makes at most k
  mistakes);
* **horizon = T** -- the game stops after T rounds.

States
------
With k errors each concept c has a remaining *budget* b_c in {k, ..., 0} (how many more labels may
disagree with it) or is dead. A state is the tuple of nested bitsets over the concept indices

    levels = (A_0, A_1, ..., A_k),   A_j = {c : b_c >= j},   A_0 >= A_1 >= ... >= A_k,

starting from (C, C, ..., C); A_0 is the version space of [Rivest94] when k = 0 (``levels == (V,)``).
Labelling x with y keeps the budget of every concept with c(x) = y and takes one from the others (a
concept whose budget was 0 dies): A_j' = (A_j & agree) | (A_{j+1} & ~agree), with A_{k+1} = {}
(:func:`step`). The label is *legal* when A_0' is not empty.

Moves and values
----------------
A point x is a *move* of the state s when both labels are legal. (When only y is legal, every living
concept says y and has budget 0, so labelling x with y leaves s as it is: nothing happens.) A move is
either a *split* (both children differ from s) or a *loop* (one label, say y0, leaves s unchanged: every
living concept says y0, and the other label takes one from every budget).

Write v(s) for the value of the game from s. Both values are monotone: if every budget of s' is at most
the same concept's budget in s, then v(s') <= v(s), because every adversary strategy that is legal from
s' is legal from s (a learner strategy is a function of the history either way). The one-round values:

* deterministic, split x with children values a, b:  g(a, b) = max(a, b, 1 + min(a, b)). (The learner
  predicts one label; the adversary either makes it wrong, 1 + the other child, or not.) A loop x with
  exit value a': the learner predicts the unanimous label y0, so the adversary gains a mistake only by
  the other label: 1 + a' (predicting 1 - y0 would let the adversary answer y0 and repeat for ever).
* randomized, split x with children values a = v(s_x^0), b = v(s_x^1): the learner picks p = P(predict
  1); the adversary picks the label knowing p: min over p of max(p + a, (1 - p) + b) equals

      f(a, b) = max(a, b, (1 + a + b)/2)

  (p = clip((1 + b - a)/2, 0, 1), [FHMM23]'s RandSOA rule). A loop x: the learner must predict y0 with
  probability 1 (any other p lets the adversary repeat x, labelled y0, for p per round, for ever), so the
  adversary gains 1 + a' by the other label.

So, without a horizon, v(s) = 0 when s has no move, and otherwise the largest of the values of its moves
(g or f of the children of a split; 1 + the exit's value for a loop). The recursion ends: every split
shrinks A_0 or a budget, and a loop's exit takes one from every budget. For k = 0 there are no loops and
this is Opt(V) = max over x splitting V of 1 + min(Opt(V_x^0), Opt(V_x^1)) of [Rivest94] (the max(a, b)
part of g never wins, by monotonicity), and RL(V) of [FHMM23] for the randomized learner.

With a horizon the state also holds t, the rounds left: v_0(s) = 0, and v_t(s) is the best over moves
of g or f of the children's v_{t-1}; a loop is then an ordinary move whose y0-child is (s, t - 1).
The deterministic value needs no search: v_T = min(T, v) (an adversary that makes the learner err every
round, as the mistake tree's does, forces min(T, v) mistakes in T rounds).

Bounds used by the solvers (and proven here)
---------------------------------------------
* ``f(a, b) >= (1 + a + b)/2`` and f is non-decreasing in each argument (it is a max of such
  functions); so are the integer g's pieces.
* RL <= Opt: if a, b <= Opt of the children, f(a, b) <= max(Opt(V_0), Opt(V_1), (1 + Opt(V_0) +
  Opt(V_1))/2) <= Opt(V), because Opt(V) >= max(Opt(V_0), Opt(V_1)) and Opt(V) >= 1 + min(...) give
  2 Opt(V) >= 1 + Opt(V_0) + Opt(V_1). Induction on |V|.
* Opt/2 <= RL: take x with Opt(V) = 1 + min(Opt(V_0), Opt(V_1)) = d; by induction RL(V_b) >= (d-1)/2,
  so RL(V) >= f >= (1 + (d-1)/2 + (d-1)/2)/2 = d/2.
* RL is monotone under subclasses (V' in V): every split of V' is one of V with smaller children.
* :func:`universal_rl`: RL of any class of n concepts is at most E(n) = (d + n/2^d - 1)/2, d = floor(log2
  n), [FHMM23]'s value for n experts one of whom is perfect. Proof. Map each point x to its advice
  vector (c_1(x), ..., c_n(x)): the class is the universal class U_n of n "dictators" on {0,1}^n with
  the adversary restricted to some points, and restricting the adversary lowers the value. In U_n a
  point with i experts saying 1 has children U_i and U_{n-i}. Let G(n) = 2 E(n) = d - 1 + n/2^d: the
  piecewise linear interpolation of G(2^d) = d, concave, increasing, with G(n/2) = G(n) - 1 for every
  real n >= 2. By induction, f(E(i), E(n-i)) <= E(n): the max(a, b) parts since E increases, and
  (1 + (G(i) + G(n-i))/2)/2 <= (1 + G(n/2))/2 = G(n)/2 by concavity. Equality at i = floor(n/2), since
  i and n - i then lie on the linear piece through n/2. So RL(U_n) = E(n).
* :func:`rank_rl_bound`: RL(V) <= U(|V|, d) whenever Opt(V) <= d, where U(n, d) is the largest
  random-walk average depth / 2 of a binary tree with at most n leaves and *rank* at most d (a leaf has
  rank 0; a node whose children have ranks r0, r1 has rank max(r0, r1), or r0 + 1 when r0 = r1):

      U(n, 0) = U(1, d) = 0,   U(n, d) = max over n0 + n1 = n of (1 + U(n0, d) + U(n1, d - 1))/2.

  Proof. RL(V) is half the average depth of some shattered tree of V ([FHMM23]; the recurrence above,
  whose f is met by a node or by one child's tree). Its leaves are realised by distinct concepts, so it
  has at most |V| leaves; a node of rank r has below it a complete binary tree of height r as a
  topological minor, and the adversary that shows the points along that minor (labelling the points in
  between as the minor's paths go) forces r mistakes, so r <= Opt(V). A tree of rank <= d has one
  child of rank <= d - 1 and one of rank <= d (they are not both d), whence the recurrence; U is
  non-decreasing in n, so "at most n leaves" is "n0 + n1 = n". For d >= floor(log2 n) the rank is no
  constraint (n leaves give rank at most floor(log2 n)) and U(n, d) = E(n); U(n, 1) = 1 - 2^-(n-1)
  (a caterpillar). Since Opt(V) <= Opt(C) for V in C, one bound d of Opt(C) serves every version space.
* :func:`volume_bound`: D_k(s) <= B(s) = max{q : 2^q <= Phi_q(s)}, Phi_q(s) = sum over living c of
  V(q, b_c), V(q, b) = sum_{i <= b} C(q, i) (for the n experts game, B = max{q : 2^q <= n sum_{i<=k}
  C(q, i)}, the bound of Cesa-Bianchi, Freund, Helmbold and Warmuth). Proof. Pascal's rule gives
  Phi_{q-1}(s_x^0) + Phi_{q-1}(s_x^1) = Phi_q(s) for every x (a concept keeps b in one child and has b - 1
  in the other). With q = B(s) + 1, Phi_q(s) < 2^q; predict the label y whose child has the larger
  Phi_{q-1}. After a mistake Phi_{q-1}(s') <= Phi_q(s)/2 < 2^(q-1), so B(s') <= B(s) - 1; otherwise
  B(s') <= B(s) (Phi only falls). B >= 0 while a concept lives, so at most B(s) mistakes. Since the
  randomized value is at most the deterministic one, R_k(s) <= B(s) too.
* With a horizon, v_t <= t for the deterministic learner and v_t <= t/2 for the randomized one (a fair
  coin errs with probability 1/2 whatever the label).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).

Examples
--------
>>> G = Game(randomized=True, errors=1)
>>> G.symbol, G.describe()
('R_1', 'the randomized optimum with 1 label error, R_1(C)')
>>> s = start(0b111, 1)                       # three concepts, budget 1 each
>>> step(s, 0b001, 1)                         # x labelled 1: concept 0 agrees, 1 and 2 spend their error
(7, 1)
>>> f(Fraction(0), Fraction(1, 2)), g(0, 1), universal_rl(3)
(Fraction(3, 4), 1, Fraction(3, 4))
>>> volume_bound([0, 2])                      # two experts, one error each: 2k + 1 = 3
3
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional

__all__ = [
    "Game",
    "GAMES",
    "MAX_ERRORS",
    "start",
    "step",
    "children",
    "is_loop",
    "budgets",
    "counts",
    "f",
    "g",
    "universal_rl",
    "rank_rl_bound",
    "volume_bound",
    "value_text",
]

#: The names :class:`Game` accepts for ``kind`` (the API's ``game=``).
GAMES = ("deterministic", "randomized")


#: The most label errors K a game takes: its searches recurse once per mistake, 2K + Opt(C) deep, so that a K
#: much larger exhausts Python's recursion limit (K = 1000 did, after 72 s) or the memory (K = 100000: 23 GB).
MAX_ERRORS = 256


@dataclass(frozen=True)
class Game:
    """One combination of the rules (see the module docstring).

    Parameters
    ----------
    randomized : bool
        The learner may randomize; values are expected mistakes (Fractions).
    errors : int
        k >= 0: the labels may disagree with the best concept k times.
    horizon : int or None
        T >= 0: the game stops after T rounds (None: no limit).

    Raises
    ------
    ValueError
        For a negative or non-integer ``errors`` or ``horizon``.
    """

    randomized: bool = False
    errors: int = 0
    horizon: Optional[int] = None

    def __post_init__(self):
        if not isinstance(self.randomized, bool):
            raise ValueError(f"randomized must be True or False, not {self.randomized!r}")
        for name, v in (("errors", self.errors), ("horizon", self.horizon)):
            if name == "horizon" and v is None:
                continue
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"{name}={v!r}: give a whole number >= 0"
                                 + (" (the labels the adversary may get wrong)" if name == "errors"
                                    else " (the number of rounds)"))
        if self.errors > MAX_ERRORS:
            raise ValueError(f"errors={self.errors}: the games take at most {MAX_ERRORS} label errors (their searches "
                             f"recurse once per mistake, 2K + Opt(C) deep); give errors <= {MAX_ERRORS}")

    @classmethod
    def of(cls, game: str = "deterministic", errors: int = 0, horizon: Optional[int] = None) -> "Game":
        """``Game.of("randomized", errors=1)``: the API's spelling (``game`` one of :data:`GAMES`)."""
        if game == "deterministic" and errors == 0 and horizon is None and cls is Game and type(errors) is int:
            return _OPT  # (frozen: Opt(C)'s game shared; opt() asks for it on every call)
        if game not in GAMES:
            raise ValueError(f"game={game!r}: use one of {', '.join(map(repr, GAMES))}")
        return cls(game == "randomized", errors, horizon)

    @property
    def kind(self) -> str:
        return "randomized" if self.randomized else "deterministic"

    @property
    def standard(self) -> bool:
        """True for Opt(C) itself: a deterministic learner, no label errors, no horizon."""
        return not self.randomized and self.errors == 0 and self.horizon is None

    @property
    def symbol(self) -> str:
        """``Opt``, ``RL``, ``D_k``, ``R_k``, with ``_T`` for a horizon T (``RL_T=5``)."""
        if self.errors == 0:
            base = "RL" if self.randomized else "Opt"
        else:
            base = f"{'R' if self.randomized else 'D'}_{self.errors}"
        return base if self.horizon is None else f"{base}[T={self.horizon}]"

    def describe(self) -> str:
        """The quantity in words, e.g. ``the randomized optimum, RL(C)``."""
        who = "the randomized optimum" if self.randomized else "the deterministic optimum"
        if self.standard:
            who = "Opt(C), the Littlestone dimension"
            return who
        parts = []
        if self.errors:
            parts.append(f"{self.errors} label error{'s' if self.errors != 1 else ''}")
        if self.horizon is not None:
            parts.append(f"{self.horizon} round{'s' if self.horizon != 1 else ''}")
        with_ = f" with {' and '.join(parts)}" if parts else ""
        return f"{who}{with_}, {self.symbol}(C)"

    def to_json(self) -> dict:
        return {"game": self.kind, "errors": self.errors, "horizon": self.horizon}


_OPT = Game()  # Opt(C)'s game, which Game.of gives for the default arguments


# ---------------------------------------------------------------------------------------- states
def start(full: int, errors: int) -> tuple[int, ...]:
    """The first state: every concept of ``full`` (a bitset) with budget ``errors``."""
    return (full,) * (errors + 1)


def step(levels: tuple, col: int, y: int) -> Optional[tuple]:
    """The state after labelling a point with ``y``; ``col`` is the bitset of concepts saying 1 on it.
    None when the label is not legal (no concept survives)."""
    k = len(levels)
    out = []
    if y:
        for j in range(k):
            nxt = levels[j + 1] if j + 1 < k else 0
            out.append((levels[j] & col) | (nxt & ~col))
    else:
        for j in range(k):
            nxt = levels[j + 1] if j + 1 < k else 0
            out.append((levels[j] & ~col) | (nxt & col))
    return tuple(out) if out[0] else None


def children(levels: tuple, col: int) -> tuple[Optional[tuple], Optional[tuple]]:
    """(state after label 0, state after label 1); None for an illegal label."""
    return step(levels, col, 0), step(levels, col, 1)


def is_loop(levels: tuple, child: Optional[tuple]) -> bool:
    """True when ``child`` is ``levels`` itself (a label that every living concept agrees with)."""
    return child == levels


def budgets(levels: tuple, n_concepts: int) -> list[int]:
    """Each concept's remaining budget (-1 for a dead concept)."""
    return [max((j for j, A in enumerate(levels) if A >> c & 1), default=-1) for c in range(n_concepts)]


def counts(levels: tuple) -> tuple[int, ...]:
    """(m_0, ..., m_k): how many living concepts have budget exactly j."""
    k = len(levels)
    return tuple((levels[j] & ~(levels[j + 1] if j + 1 < k else 0)).bit_count() for j in range(k))


# ---------------------------------------------------------------------------------------- values
def f(a, b):
    """The randomized one-round value max(a, b, (1 + a + b)/2) (see the module docstring)."""
    return max(a, b, Fraction(1 + a + b) / 2)


def g(a, b):
    """The deterministic one-round value max(a, b, 1 + min(a, b))."""
    return max(a, b, 1 + min(a, b))


def universal_rl(n: int) -> Fraction:
    """E(n) = (d + n/2^d - 1)/2, d = floor(log2 n): RL of n experts with a perfect one, and an upper bound
    on RL of every class of n concepts (proof in the module docstring). E(0) is -1 (no concept).

    >>> [str(universal_rl(n)) for n in range(1, 9)]
    ['0', '1/2', '3/4', '1', '9/8', '5/4', '11/8', '3/2']
    """
    if n <= 0:
        return Fraction(-1)
    d = n.bit_length() - 1
    return Fraction(d - 1, 2) + Fraction(n, 1 << (d + 1))


#: rank_rl_bound computes U(n, d) by its recurrence up to this many leaves (O(n^2 d) exact steps), and
#: answers E(n) above it (a valid, weaker bound) unless d = 1 (closed form).
RANK_BOUND_LEAVES = 256


def rank_rl_bound(n: int, d: int) -> Fraction:
    """U(n, d): an upper bound on RL(V) for every class V of n concepts with Opt(V) <= d (proof in the
    module docstring); E(n) when d >= floor(log2 n) or n > :data:`RANK_BOUND_LEAVES` (and d > 1).

    >>> [str(rank_rl_bound(n, 1)) for n in (1, 2, 3, 4, 13)]
    ['0', '1/2', '3/4', '7/8', '4095/4096']
    >>> rank_rl_bound(137, 5) < universal_rl(137), rank_rl_bound(16, 4) == universal_rl(16)
    (True, True)
    """
    if n <= 1 or d <= 0:
        return Fraction(0) if n >= 1 else Fraction(-1)
    if d >= n.bit_length() - 1:
        return universal_rl(n)
    if d == 1:
        return 1 - Fraction(1, 1 << (n - 1))
    if n > RANK_BOUND_LEAVES:
        return universal_rl(n)
    return Fraction(_rank_table(d)[n], 1 << _RANK_BITS)


_RANK_BITS = RANK_BOUND_LEAVES + 2  # every U(n, d) with n <= RANK_BOUND_LEAVES is a multiple of 2^-(n - 1)
_RANK_TABLES: dict = {}


def _rank_table(d: int) -> list[int]:
    """[U(n, d) * 2^_RANK_BITS for n = 0..RANK_BOUND_LEAVES], by the recurrence (exact integers)."""
    got = _RANK_TABLES.get(d)
    if got is not None:
        return got
    one = 1 << _RANK_BITS
    size = RANK_BOUND_LEAVES + 1
    if d == 0:
        table = [0] * size
    else:
        lower = _rank_table(d - 1)
        table = [0, 0]
        for n in range(2, size):
            best = max(table[n - n1] + lower[n1] for n1 in range(1, n))
            table.append((one + best) >> 1)  # exact: the sum is even at this scale
    _RANK_TABLES[d] = table
    return table


def _binomial_prefix(q: int, b: int) -> int:
    """V(q, b) = sum_{i=0}^{b} C(q, i)."""
    return sum(math.comb(q, i) for i in range(min(b, q) + 1))


def volume_bound(budget_counts) -> int:
    """B = max{q : 2^q <= sum_j m_j V(q, j)} for ``budget_counts`` = (m_0, ..., m_k) living concepts with
    budget j: an upper bound on the deterministic value with label errors (module docstring); -1 when no
    concept lives. For k = 0 it is floor(log2 |V|), the Halving bound."""
    m = list(budget_counts)
    if sum(m) <= 0:
        return -1
    q = 0
    # Phi_{q+1} <= 2 Phi_q, so {q : 2^q <= Phi_q} is an initial segment: walk up to its end.
    while (1 << (q + 1)) <= sum(mj * _binomial_prefix(q + 1, j) for j, mj in enumerate(m) if mj):
        q += 1
    return q


def value_text(v, longest: int = 40) -> str:
    """A value as a fraction and a decimal: ``7/8 (0.875)``; an integer as itself; None as ``?``. A fraction
    longer than ``longest`` characters is shown by its decimal and the size of its denominator (JSON
    outputs keep it whole)."""
    if v is None:
        return "?"
    if isinstance(v, Fraction) and v.denominator != 1:
        dec = f"{float(v):.6f}".rstrip("0")
        text = f"{v.numerator}/{v.denominator}"
        if len(text) > longest:
            return f"{dec} (a fraction with a {len(str(v.denominator))}-digit denominator)"
        return f"{text} ({dec})"
    return str(int(v))
