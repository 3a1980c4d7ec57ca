"""Opt(C) of thresholds and intervals on {1..N} by a search over compact states, for N = 10^5 and 10^3.

The recurrence of [Rivest94] (see :mod:`solvers.opt.states`) is run over states that determine the
version space, using three facts proven here (and checked against the generic solver and the brute
force in ``tests/solvers/opt/test_intervals.py``).

**Lemma 1 (chains).** A *chain* of m thresholds -- concepts t in [lo, lo + m - 1], point x labelled 1 iff
t <= x -- has Opt = floor(log2 m). Upper: the Halving bound Opt(V) <= floor(log2 |V|) ([Rivest94],
section 2.3.2; [OnlineAlgs]). Lower: if m >= 2^k, the point x = lo + 2^(k-1) - 1 leaves 2^(k-1) thresholds
on one side and m - 2^(k-1) >= 2^(k-1) on the other; by induction this bisection is a mistake tree of
depth k. So for a chain the cardinality bound is exact: "Opt >= d" iff m >= 2^d. Thresholds on {1..N}
are one chain of N + 1 concepts: Opt = floor(log2(N + 1)).

**Lemma 2 (products).** If the points split into X1 and X2 and V = P x R (every pair of a labelling p of
X1 from P and r of X2 from R), then Opt(V) = Opt(P) + Opt(R). By induction on |V| with the recurrence:
a point of X1 splits V exactly when it splits P, into P_x^0 x R and P_x^1 x R, whose values are by
induction Opt(P_x^b) + Opt(R); so the best point of X1 gives 1 + min_b Opt(P_x^b) + Opt(R) =
Opt(P) + Opt(R), and likewise the best point of X2; when no point splits V, |P| = |R| = 1 and both
sides are 0.

**Lemma 3 (relabelling).** Renaming the points (a bijection between two domains that carries the
concepts of V onto the concepts of W) preserves Opt, and points constant on V (splitting nothing)
can be dropped.

**States of intervals.** Concepts [a, b], 1 <= a <= b <= N, and the empty concept when ``empty=1``.

* *No positive example yet.* The consistent concepts are the empty one (if in the class) and the
  intervals inside the *free segments*, the maximal runs of points not labelled 0. A bijection that
  carries segments onto segments of the same lengths (in order or reversed) carries intervals onto
  intervals, so by Lemma 3 Opt depends only on the multiset S of segment lengths: the state is S, kept
  as a tuple sorted in decreasing order.
* *A positive example seen.* Let the positives span [l, r]. Every consistent interval has
  a in [a0, l] and b in [r, b0] (a0 - 1 and b0 + 1 the nearest negatives, or the ends of the line), and
  every such pair is consistent. A point x < l is labelled 1 iff a <= x, a point y > r iff b >= y, and
  points in [l, r] or beyond a negative split nothing: V is a product of two chains of alpha = l - a0 + 1
  and beta = b0 - r + 1 elements on disjoint points, and by Lemmas 1 and 2 Opt = floor(log2 alpha) +
  floor(log2 beta).

So with F(S) the value of the state S, |V| = empty + sum over L in S of L (L + 1) / 2, and the p-th
point of a segment of length L labelled 1 leaving the chains alpha = p, beta = L + 1 - p::

    F(S) = max over L in S, 1 <= p <= L (the 0-side non-empty) of
           1 + min(floor(log2 p) + floor(log2(L + 1 - p)), F(S - {L} + {p - 1, L - p}))

(lengths 0 dropped; p and L + 1 - p give the same two sides). :class:`IntervalSolver` decides
"F(S) >= d?" with a memo on S: a move needs floor(log2 p) + floor(log2(L + 1 - p)) >= d - 1 and a 0-side
of at least 2^(d-1) concepts, and only the 0-side is searched.

**Certificates.** The mistake tree is written over explicit points: the free segments are carried along
the tree, and after the first 1 the two chains are bisected (Lemma 1) one after the other (Lemma 2).
:func:`solvers.certificates.verify_tree` checks it against the family's labels. The upper bound is the
Halving bound at the root when |C| < 2^(Opt+1) (thresholds always, intervals N = 1000: no entry); otherwise
a certificate over multisets that :func:`solvers.certificates.states.verify_state_upper` checks by
recomputing every child itself, relying on Lemmas 1-3 for the positive side.

**Why this engine is kept** (issue 19: an engine the generic search comes within 1.5x of is retired). It
does what no matrix can -- thresholds N = 10^5, intervals N = 1000 (500,501 concepts x 1000 points) and
beyond -- and on the instances that fit a matrix ``scripts/bench_engines.py`` measured the generic search,
with its compiled kernel, at 65-75x its time on thresholds N = 1000, 4000 and 12-139x on intervals N = 60,
100 (listed or as a raw matrix; idle 2-core machine).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)

Examples
--------
>>> from solvers.classes.evaluated import EvaluatedClass
>>> S = IntervalSolver(EvaluatedClass("intervals", {"N": 1000}), memo_bytes=2**20)
>>> S.value(S.root), S.value((3, 3)), S.size((3, 3))     # intervals N=1000; two free segments of 3
(18, 3, 13)
>>> T = ThresholdSolver(EvaluatedClass("thresholds", {"N": 10**5}), memo_bytes=2**20)
>>> T.value(T.root)
16
"""

from __future__ import annotations

from ..certificates import ProofTooLarge
from .states import StateSearch

__all__ = ["ThresholdSolver", "IntervalSolver", "chains_value"]


def chains_value(*lengths: int) -> int:
    """Opt of a product of chains of these lengths: the sum of floor(log2 m) (Lemmas 1 and 2)."""
    return sum(m.bit_length() - 1 for m in lengths)


def _left_chain(lo: int, hi: int, k: int, below):
    """A mistake tree of depth k over the chain t in [lo, hi] where point x labels t 1 iff t <= x
    (thresholds, or the left end a of an interval): bisection as in Lemma 1, ``below`` at every leaf."""
    if k == 0:
        return below
    x = lo + (1 << (k - 1)) - 1
    return {"point": x - 1, "0": _left_chain(x + 1, hi, k - 1, below), "1": _left_chain(lo, x, k - 1, below)}


def _right_chain(lo: int, hi: int, k: int, below):
    """As :func:`_left_chain` for the right end b in [lo, hi] of an interval (point y labels b 1 iff b >= y)."""
    if k == 0:
        return below
    y = hi - (1 << (k - 1)) + 1
    return {"point": y - 1, "0": _right_chain(lo, y - 1, k - 1, below), "1": _right_chain(y, hi, k - 1, below)}


def _chains_tree(a_lo: int, a_hi: int, b_lo: int, b_hi: int, d: int):
    """A mistake tree of depth d (<= Opt) for the intervals [a, b] with a in [a_lo, a_hi], b in [b_lo, b_hi]:
    the left chain bisected first, then the right one under every leaf (Lemma 2)."""
    da = min((a_hi - a_lo + 1).bit_length() - 1, d)
    return _left_chain(a_lo, a_hi, da, _right_chain(b_lo, b_hi, d - da, None))


class ThresholdSolver(StateSearch):
    """Thresholds on {1..N}: one chain of N + 1 concepts (Lemma 1); the state is the chain's length."""

    def __init__(self, C, *, memo_bytes: int):
        self.C = C
        self.root = C.N + 1
        self._init_search(memo_bytes, 64)

    def size(self, m: int) -> int:
        return m

    def at_least(self, m: int, d: int) -> bool:
        """Opt of a chain of m >= d: m >= 2^d (Lemma 1: the cardinality bound is exact on a chain)."""
        self.nodes += 1
        return m >= 1 if d <= 0 else m >= 1 << d

    def value(self, m: int) -> int:
        return m.bit_length() - 1

    def mistake_tree(self, d: int):
        return _left_chain(1, self.C.N + 1, d, None)

    def upper_proof(self, h: int, *, limit: int = 100_000) -> dict:
        """The Halving bound at the root: N + 1 < 2^(h + 1) (no entries)."""
        return _halving_proof(self.root, h)


def _halving_proof(n: int, h: int) -> dict:
    """The certificate of Opt(C) <= h for a class of n < 2^(h+1) concepts (the Halving bound alone)."""
    if n.bit_length() > h + 1:
        raise RuntimeError(f"internal error: Opt <= {h} claimed for {n} concepts without a refutation")
    from ..certificates.rules import stamp

    return stamp({"kind": "upper-bound", "bound": h, "concepts": n, "entries": []}, "paths")


class IntervalSolver(StateSearch):
    """Intervals on {1..N}: decision queries over multisets of free-segment lengths (module docstring).

    Parameters
    ----------
    C : EvaluatedClass
        ``intervals`` with its ``N`` and ``empty``.
    memo_bytes : int
        Memory the memo may use (its older half is dropped past it).
    """

    def __init__(self, C, *, memo_bytes: int):
        self.C = C
        self.empty = C.params["empty"]
        self.root = (C.N,)
        self._init_search(memo_bytes, 160)

    def size(self, S: tuple) -> int:
        """|V| of the state S: the empty concept (if any) and L (L + 1) / 2 intervals per segment."""
        return self.empty + sum(L * (L + 1) // 2 for L in S)

    def at_least(self, S: tuple, d: int) -> bool:
        """Decide F(S) >= d."""
        return self._at_least(S, self.size(S), d)

    def _at_least(self, S: tuple, n: int, d: int) -> bool:
        # Hot loop: n == |V|. Only the 0-side is searched; the 1-side's value is two chains (Lemma 2).
        known, lo, hi = self._recall(S, n, d)
        if known is not None:
            return known
        self.nodes += 1
        if not self.nodes & 63:
            self._tick()
        need = d - 1
        small = 1 << need
        moves = []
        for i, L in enumerate(S):
            if i and S[i - 1] == L:
                continue
            for p in range(1, (L + 1) // 2 + 1):
                q = L + 1 - p
                if (p.bit_length() + q.bit_length() - 2) < need:
                    continue
                rest = n - p * q
                if rest >= small:
                    moves.append((rest, i, p))
        moves.sort(reverse=True)  # the 0-side keeping the most concepts first
        for rest, i, p in moves:
            L = S[i]
            child = _cut(S, i, p - 1, L - p)
            if self._at_least(child, rest, need):
                self._store(S, d, hi)
                self.moves[S] = (L, p)
                return True
        self._store(S, lo, d - 1)
        return False

    # ------------------------------------------------------------------ certificates
    def mistake_tree(self, d: int):
        """A mistake tree of depth d (<= Opt(C)) over explicit points (column x - 1 is point x)."""
        return self._tree([(1, self.C.N)], d)

    def _tree(self, segments: list, d: int):
        if d <= 0:
            return None
        S = _state(segments)
        hint = self.moves.get(S)
        order = sorted(range(len(segments)), key=lambda k: -(segments[k][1] - segments[k][0]))
        if hint is not None:
            order = [k for k in order if segments[k][1] - segments[k][0] + 1 == hint[0]] + order
        for k in order:
            start, end = segments[k]
            L = end - start + 1
            ps = range(1, (L + 1) // 2 + 1)
            if hint is not None and hint[0] == L:
                ps = [hint[1], *ps]
            for p in ps:
                q = L + 1 - p
                if p.bit_length() + q.bit_length() - 2 < d - 1:
                    continue
                x = start + p - 1
                rest = segments[:k] + segments[k + 1:] + [s for s in ((start, x - 1), (x + 1, end)) if s[0] <= s[1]]
                if self.at_least(_state(rest), d - 1):
                    return {"point": x - 1, "0": self._tree(rest, d - 1), "1": _chains_tree(start, x, x, end, d - 1)}
        raise RuntimeError(f"internal error: no point proves depth {d} for the free segments {S}")

    def upper_proof(self, h: int, *, limit: int = 100_000) -> dict:
        """The certificate of Opt(C) <= h: the Halving bound at the root when it suffices, else entries
        ``{"segments": S, "bound": b}`` for :func:`solvers.certificates.states.verify_state_upper`.

        Raises
        ------
        ProofTooLarge
            Past ``limit`` entries.
        RuntimeError
            If the claim is false (h below Opt(C)).
        """
        n = self.size(self.root)
        if n.bit_length() <= h + 1:
            return _halving_proof(n, h)
        entries: list[dict] = []
        best: dict[tuple, int] = {}
        stack = [(self.root, h)]
        while stack:
            S, b = stack.pop()
            n = self.size(S)
            if n.bit_length() <= b + 1 or best.get(S, b + 1) <= b:
                continue
            best[S] = b
            entries.append({"segments": list(S), "bound": b})
            if len(entries) > limit:
                raise ProofTooLarge(f"the upper-bound certificate needs more than {limit} entries; raise the limit")
            if b == 0:
                raise RuntimeError("internal error: a state of >= 2 concepts claimed Opt <= 0")
            for i, L in enumerate(S):
                if i and S[i - 1] == L:
                    continue
                for p in range(1, (L + 1) // 2 + 1):
                    q = L + 1 - p
                    if p.bit_length() + q.bit_length() - 2 <= b - 1:
                        continue  # the 1-side: two chains worth at most b - 1
                    child = _cut(S, i, p - 1, L - p)
                    if (n - p * q).bit_length() <= b:
                        continue  # the 0-side: fewer than 2^b concepts
                    if self.at_least(child, b):
                        raise RuntimeError(f"internal error: Opt <= {b} does not hold for the free segments {S}")
                    stack.append((child, b - 1))
        from ..certificates.rules import stamp

        return stamp({"kind": "upper-bound-states", "family": "intervals", "params": dict(self.C.params), "bound": h,
                      "entries": entries}, "states")


def _cut(S: tuple, i: int, left: int, right: int) -> tuple:
    """S with its i-th length replaced by the (non-zero) lengths ``left`` and ``right``, sorted decreasing."""
    rest = list(S[:i] + S[i + 1:])
    rest += [v for v in (left, right) if v]
    rest.sort(reverse=True)
    return tuple(rest)


def _state(segments: list) -> tuple:
    """The state (multiset of lengths, decreasing) of explicit free segments (start, end)."""
    return tuple(sorted((e - s + 1 for s, e in segments), reverse=True))
