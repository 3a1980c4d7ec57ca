"""``dual_opt``: the dual Littlestone dimension, Opt of the dual class (the points as concepts over the concepts:
the transposed matrix, its duplicate rows merged), with both of Opt's certificates for the dual class: a mistake
tree (the lower side) and the upper-bound certificate (:func:`solvers.certificates.verify_upper`).

Examples
--------
>>> from solvers.classes.families import make
>>> C = make("thresholds", N=7)   # 8 concepts on 7 points: its dual is 7 thresholds on 8 points
>>> dual_opt(C).value
2
"""

from __future__ import annotations

from typing import Optional

__all__ = ["dual_opt", "PROOF_LIMIT"]

#: The most entries of the upper-bound certificate a witness lists (past it, the upper side is not replayed).
PROOF_LIMIT = 20_000


def dual_opt(C, *, time_limit: Optional[float] = None):
    """Opt of the dual class as a :class:`~solvers.params.ParamResult`: witness ``{"tree": the dual's mistake tree,
    "upper_certificate": its upper-bound certificate}`` (either None when too large or not found in time)."""
    from ..certificates import ProofTooLarge
    from ..opt import SearchStop, opt
    from . import ParamResult, _dual

    if C.n_points == 0:  # no points: the dual has no concepts to predict with, and no game to play
        return ParamResult("dual_opt", 0, 0, {"tree": None, "upper_certificate": None, "empty": True})
    D = _dual(C)
    r = opt(D, time_limit=time_limit)
    cert = None
    try:
        cert = r.upper_certificate(limit=PROOF_LIMIT)
    except (ProofTooLarge, ValueError, SearchStop):
        pass
    return ParamResult("dual_opt", r.lower, r.upper, {"tree": None if r.tree is None else r.tree.to_json(),
                                                      "upper_certificate": cert})
