"""The ``experts`` engine: the games of n experts whose best errs k times, D_k(n) and R_k(n), exactly, in count
space (:func:`solvers.opt.experts.experts`).

The class is the universal class of n experts: concept i labels the point (x_1, ..., x_n) of {0,1}^n with x_i.
The engine takes it listed (a class whose concepts are n rows and whose columns are every vector of {0,1}^n, in any
order, repeated or not) or described by n alone (:class:`~solvers.opt.experts.UniversalExperts`: n up to 10^18 in
the deterministic game, where the matrix would have 2^n columns). The games are the deterministic learner's (k = 0:
Opt(C) = floor(log2 n)) and the randomized learner's, with k >= 0 label errors and no horizon.

Its certificates are those of :mod:`solvers.certificates.experts`, in count space: they name the number of experts,
not the class; the class is the universal class of that many experts (what :func:`experts_of` reads off a listed
class, and the conformance suite checks again from the class alone).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..control import Control, Tuning
from ..result import OptResult, Stats
from ._common import game_of, listed, run

NAME = "experts"

__all__ = ["NAME", "takes", "solve", "experts_of", "ExpertsTree"]

#: The most experts a listed class may have (its matrix has 2^n columns).
MAX_LISTED = 24


def experts_of(C) -> int | None:
    """n when ``C`` is the universal class of n experts (described, or listed: n distinct rows whose columns are
    every vector of {0,1}^n), else None."""
    from ..experts import UniversalExperts

    if isinstance(C, UniversalExperts):
        return C.n
    if not listed(C):
        return None
    M = np.asarray(C.matrix, dtype=bool)
    n, N = M.shape
    if not 1 <= n <= MAX_LISTED or N < 1 << n:
        return None
    codes = M.T.astype(np.int64) @ (np.int64(1) << np.arange(n, dtype=np.int64))  # each point as its advice vector
    return n if len(np.unique(codes, return_counts=True)[0]) == 1 << n else None  # (counts: see certificates.opt)


def takes(C, game=None) -> str | None:
    """None for the universal class of n experts and a game without a horizon; else why not."""
    from ..experts import check_size

    G = game_of(game)
    if G.horizon is not None:
        return ("the experts games have no horizon (the search engine takes Opt(C) with one, the games engine the "
                "others)")
    n = experts_of(C)
    if n is None:
        return ("the experts engine takes the universal class of n experts (concept i labels x in {0,1}^n with x_i), "
                "listed with every advice vector as a point or described by n")
    try:
        check_size(n, G.errors, G.randomized)
    except ValueError as e:
        return str(e)
    return None


#: The most nodes of a lower-bound tree the engine writes (a complete mistake tree of depth d has 2^d - 1).
TREE_NODES = 1_000_000


@dataclass(frozen=True)
class ExpertsTree:
    """The lower-bound tree of an experts game, in count space: the ``experts-tree`` certificate
    (:meth:`~solvers.opt.experts.ExpertsResult.lower_certificate`) proving ``depth``."""

    depth: object
    certificate: dict = field(repr=False, compare=False)
    #: no class: the certificate names its own (the universal class of its number of experts)
    C = None

    def to_json(self) -> dict:
        """The ``experts-tree`` certificate (:func:`solvers.certificates.verify` checks it)."""
        return self.certificate


def _tree(r, control: Control, tuning: Tuning):
    """(the tree proving ``r.lower``, None) or (None, why there is none): the randomized game's tree exists for its
    value only; a deterministic one has 2^lower - 1 nodes, built within the deadline or ``tuning.tree_grace`` past
    it (a stopped search may still have to prove its moves)."""
    import time

    from ...certificates import ProofTooLarge
    from ..memo import SearchStop

    if r.randomized and r.value is None:
        return None, "the randomized game's tree is written for its value only, and the game was not solved"
    if not r.randomized and (1 << max(int(r.lower), 0)) - 1 > TREE_NODES:
        return None, f"the mistake tree of depth {r.lower} has more than {TREE_NODES:,} nodes"
    until = None if control.deadline is None else max(control.deadline, time.monotonic() + tuning.tree_grace)
    try:
        if r.randomized:
            return ExpertsTree(r.lower, r.lower_certificate(limit=TREE_NODES)), None
        with r.solver.limits(deadline=until):
            return ExpertsTree(r.lower, r.lower_certificate(limit=TREE_NODES)), None
    except ProofTooLarge as e:
        return None, str(e)
    except SearchStop:
        return None, "the mistake tree could not be built in the time given"


def solve(C, game=None, control: Control = Control(), tuning: Tuning | None = None) -> OptResult:
    """D_k(n) or R_k(n) of the universal class of n experts ``C``, with its lower-bound tree (when it is small
    enough: ``stats["tree_note"]`` says why not)."""
    G = game_of(game)
    why = takes(C, G)
    if why is not None:
        raise ValueError(f"engine 'experts' does not take this: {why}")
    n = experts_of(C)

    def work() -> OptResult:
        from ..experts import experts

        r = experts(n, G.errors, randomized=G.randomized, time_limit=control.time_limit(),
                    progress=control.progress, memo_bytes=control.memo_bytes)
        tree, note = _tree(r, control, tuning or Tuning.default())
        stats = Stats({**r.stats, "engine": NAME, "method": r.stats.get("engine"), "volume": r.volume,
                       "game": G.to_json(), "symbol": G.symbol})
        if note is not None:
            stats["tree_note"] = note
        return OptResult(r.value, r.lower, r.upper, tree, stats, r, G)

    return run(control, work)
