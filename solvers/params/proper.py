"""Opt of the proper game: before each round the learner commits to a concept h of C and predicts h(x).

A hypothesis that contradicts an example already seen costs a mistake and teaches nothing (the adversary shows
that example again, and S stays as it was), so the learner picks h in the version space S. The adversary then
shows a point x where some concept of S disagrees with h and labels it 1 - h(x): a mistake, and S shrinks to
S_x^{1-h(x)}, which no longer holds h. The recurrence leaves out the points h gets right: they shrink S to a
version space that still holds h, and on no class we tried did that raise the value (Proper is not monotone
under taking subclasses in general: the singletons on N points have N - 1, with the empty concept added 1; but
it was under restriction by an example on 20,000 random restrictions). The tests hold the recurrence against a
brute force where the adversary may show any point and the learner may name any concept of C. The value is

    Proper(S) = min over h in S of max over (x, y = 1 - h(x)) with S_x^y nonempty of 1 + Proper(S_x^y),

0 when S is one concept. Opt(S) <= Proper(S) <= |S| - 1: the learner of the ordinary game may predict with a
function outside C, and each mistake here removes at least the concept predicted with.

The witness of Proper(C) >= d is a mistake tree of the proper game: at each node (a version space S) a few
replies (x, y), each leading to a node worth d - 1, that together catch every h of S (h(x) != y for some reply).
Every proper learner then errs d times. (The recurrence is evaluated per version space in one pass: each h's
worst reply is the first, by falling value, that catches it.) The witness of Proper(C) <= d, when the search's memo is small, is the
learner: the h it picks at each version space it can reach, every adversary reply then leading to at most d - 1.
:func:`solvers.certificates.params.check` replays both without the search.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994): the
   game and its version spaces.

Examples
--------
>>> from solvers.classes.families import make
>>> search(make("thresholds", N=7)).value     # Opt is 3: predicting with a threshold costs no more here
3
>>> search(make("singletons", N=4)).value     # the empty concept: one mistake reveals the target
1
"""

from __future__ import annotations

import sys
import time
from typing import Optional

from .. import interrupts

__all__ = ["search", "MAX_LEARNER", "MAX_TREE_NODES"]

#: The most version spaces a witness lists the learner's choice for (the upper-bound certificate).
MAX_LEARNER = 5000
#: The largest mistake tree a witness lists (nodes); past it the tree is left out.
MAX_TREE_NODES = 5000


class _Stop(Exception):
    pass


def _stopped(C, time_limit=None):
    """The bounds of a search stopped early: Opt(C) <= Proper(C) <= |C| - 1, the lower bound with Opt's mistake tree
    written as a proper one (at each node the point's two labels: one of them catches any hypothesis)."""
    from ..opt import opt
    from . import ParamResult

    m = C.n_concepts
    if m <= 1:
        return ParamResult("proper", 0, 0, {"tree": {"replies": []}, "learner": None})
    r = opt(C, time_limit=1.0 if time_limit is None else min(1.0, max(time_limit / 4, 0.05)))

    def replies(node):
        if node is None:
            return {"replies": []}
        j = int(node["point"])  # a column index
        return {"replies": [[j, 0, replies(node["0"])], [j, 1, replies(node["1"])]]}

    tree = r.tree.root if r.tree is not None and 2 ** r.lower <= MAX_TREE_NODES else None
    return ParamResult("proper", r.lower if tree is not None else 1, m - 1,
                       {"tree": None if tree is None else replies(tree), "learner": None})


def search(C, *, time_limit: Optional[float] = None):
    """Opt of the proper game on ``C`` as a :class:`~solvers.params.ParamResult`; the witness ``{"tree": {"replies":
    [[x, y, subtree], ...]}, "learner": {version space (hex bitset): h} or None}``."""
    from . import ParamResult, Stopped, column_bits

    M = C.matrix
    m, n = M.shape
    full = (1 << m) - 1
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        ones = column_bits(M, deadline)   # concepts that say 1 at j
    except (Stopped, KeyboardInterrupt):
        return _stopped(C, 0.05)
    memo: dict = {}     # S -> (value, best h)
    nodes = [0]

    def halves(S: int):
        """(x, y, S_x^y) for each point splitting S and each label: the replies possible at S."""
        out = []
        for j in range(n):
            s1 = S & ones[j]
            if s1 and s1 != S:
                out.append((j, 1, s1))
                out.append((j, 0, S & ~ones[j]))
        return out

    def value(S: int) -> int:
        """Proper(S), by the recurrence (memoised)."""
        got = memo.get(S)
        if got is not None:
            return got[0]
        nodes[0] += 1
        if nodes[0] & 255 == 0:
            interrupts.check()
            if deadline is not None and time.monotonic() > deadline:
                raise _Stop
        if S & (S - 1) == 0:
            memo[S] = (0, S.bit_length() - 1)
            return 0
        # Each h's worst reply is the first, by falling value, that catches it (h outside the reply's half); the
        # best h is the last one caught, so Proper(S) = 1 + the value of the reply that catches the last of S.
        replies = sorted(((value(T), T) for _, _, T in halves(S)), key=lambda r: -r[0])
        left = S
        for v, T in replies:  # hot loop: one AND per reply
            if left & T == 0:
                best, best_h = 1 + v, (left & -left).bit_length() - 1
                break
            left &= T
        memo[S] = (best, best_h)
        return best

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 4 * m + 1000))  # the recursion is as deep as the value, at most m - 1
    try:
        d = value(full)
    except (_Stop, KeyboardInterrupt):
        return _stopped(C, time_limit)
    finally:
        sys.setrecursionlimit(limit)

    size = [0]

    def tree(S: int, d: int):
        """The adversary's replies at S worth d: each leads to d - 1, together they catch every h of S."""
        size[0] += 1
        if size[0] > MAX_TREE_NODES:
            raise _Stop
        if d == 0:
            return {"replies": []}
        good = [(x, y, T) for x, y, T in halves(S) if value(T) >= d - 1]
        left, chosen = S, []
        while left:  # greedy cover of the hypotheses: the reply catching most of those left
            x, y, T = max(good, key=lambda r: ((left & ~r[2]) & ((1 << m) - 1)).bit_count())
            chosen.append((x, y, T))
            left &= T  # h in T is not caught by (x, y)
        return {"replies": [[int(x), int(y), tree(T, d - 1)] for x, y, T in chosen]}

    try:
        witness_tree = tree(full, d)
    except _Stop:
        witness_tree = None
    learner = None
    if len(memo) <= MAX_LEARNER:
        learner = {}
        stack, seen = [full], set()
        while stack:
            S = stack.pop()
            if S in seen or S & (S - 1) == 0:
                continue
            seen.add(S)
            h = memo[S][1]
            learner[format(S, "x")] = int(h)
            stack.extend(T for x, y, T in halves(S) if not (T >> h) & 1)
    return ParamResult("proper", d, d, {"tree": witness_tree, "learner": learner})
