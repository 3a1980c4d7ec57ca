"""The combinatorial parameters researchers compute beside Opt(C), exactly, each with a witness that
:mod:`solvers.certificates.params` replays without the search.

| key | parameter | module |
| --- | --- | --- |
| ``vc``, ``dual_vc`` | VC dimension of C and of its dual (points as concepts over the concepts) | :mod:`solvers.vc` |
| ``threshold`` | threshold dimension: points x_1..x_t, concepts c_1..c_t, c_i(x_j) = 1 iff i <= j | :mod:`.threshold` |
| ``star`` | star number: a concept c and points x_1..x_s, each x_i flipped alone (on those points) by some concept | :mod:`.star` |
| ``td``, ``rtd`` | teaching dimension, recursive teaching dimension | :mod:`.teaching` |
| ``best_order``, ``worst_order`` | offline mistake bounds: every point shown once, in the best / worst order | :mod:`.orders` |
| ``proper`` | Opt when the learner predicts with a concept of C each round | :mod:`.proper` |
| ``dual_opt`` | Opt of the dual class (the dual Littlestone dimension) | :mod:`.dual` |
| ``threshold_chain`` | the catalogue's threshold dimension: d + 1 nested traces on d points, the empty one included | :mod:`.chains` |
| ``path``, ``eluder`` | path dimension; combinatorial eluder dimension | :mod:`.chains` |
| ``covc``, ``min_star`` | co-VC dimension (hollow star number); minimum star number | :mod:`.holes` |
| ``min_td``, ``xtd``, ``nctd``, ``rtd_p`` | minimum teaching set size; extended and no-clash teaching dimensions; projected RTD | :mod:`.specify` |
| ``self_directed``, ``mq``, ``peq``, ``mpeq``, ``meq``, ``partial_eq``, ``majority`` | self-directed learning; membership, proper equivalence, both, membership and equivalence, partial equivalence queries; the Halving learner's queries | :mod:`.queries` |
| ``prefix_2``, ``prefix_3``, ``block_2`` | prefix-k and 2-block Littlestone dimensions | :mod:`.trees` |
| ``req``, ``rpeq`` | random equivalence queries, any or proper hypotheses (an expected cost: an exact fraction) | :mod:`.random_queries` |

:data:`DEFAULT_KEYS` are the first nine; :data:`KEYS` all of them. Two conventions of the threshold dimension are
offered: ``threshold`` (t concepts whose traces are the nonempty suffixes of t points, littlestone's default) and
``threshold_chain`` (the catalogue obousquet/Combinatorial-Parameters: d + 1 nested traces on d points); they differ
by at most one.

Each is a :class:`ParamResult` (``value``, or ``lower``/``upper`` when a time limit stopped its search, and
``witness``). A class is a set of functions: duplicate rows are merged before anything is computed.

Examples
--------
>>> from solvers.classes.families import make
>>> r = compute(make("thresholds", N=4))
>>> {k: p.value for k, p in r.items()}  # doctest: +NORMALIZE_WHITESPACE
{'vc': 1, 'dual_vc': 1, 'threshold': 4, 'star': 2, 'td': 2, 'rtd': 1, 'best_order': 1, 'worst_order': 2,
 'proper': 2}
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Optional

from ..numbers import bit_positions

__all__ = ["ParamResult", "compute", "KEYS", "DEFAULT_KEYS", "ROUTES", "METHODS", "Stopped", "row_bits", "column_bits", "bits_of", "members",
           "distinct_columns"]

#: The parameters ``littlestone params`` computes when not told which (``--only all``: every one of :data:`KEYS`).
DEFAULT_KEYS = ("vc", "dual_vc", "threshold", "star", "td", "rtd", "best_order", "worst_order", "proper")
#: The parameters :func:`compute` knows, in the order it lists them.
KEYS = DEFAULT_KEYS + ("dual_opt", "threshold_chain", "path", "eluder", "covc", "min_star", "min_td", "xtd", "nctd",
                       "rtd_p", "self_directed", "mq", "peq", "mpeq", "meq", "partial_eq", "majority", "prefix_2",
                       "prefix_3", "block_2", "req", "rpeq")
#: Where each key of :data:`KEYS` past :data:`DEFAULT_KEYS` is computed: (module, function).
ROUTES = {"threshold_chain": ("chains", "threshold_chain"), "path": ("chains", "path_dimension"), "eluder": ("chains", "eluder"),
          "covc": ("holes", "covc"), "min_star": ("holes", "min_star"), "min_td": ("specify", "min_td"),
          "xtd": ("specify", "xtd"), "nctd": ("specify", "nctd"), "rtd_p": ("specify", "rtd_p"),
          "dual_opt": ("dual", "dual_opt"), "prefix_2": ("trees", "prefix_2"), "prefix_3": ("trees", "prefix_3"),
          "block_2": ("trees", "block_2"), "req": ("random_queries", "req"), "rpeq": ("random_queries", "rpeq"),
          **{k: ("queries", k) for k in ("self_directed", "mq", "peq", "mpeq", "meq", "partial_eq", "majority")}}


@dataclass
class ParamResult:
    """One parameter of a class: its exact ``value`` (None when stopped), proven ``lower`` and ``upper`` bounds (ints,
    or :class:`~fractions.Fraction` for the expected costs of ``req`` and ``rpeq``), a ``witness`` (JSON-able, replayed
    by :func:`solvers.certificates.params.check`) and the ``seconds`` it took."""

    key: str
    lower: int
    upper: int
    witness: dict = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def value(self) -> Optional[int]:
        return self.lower if self.lower == self.upper else None

    def to_json(self) -> dict:
        """The JSON of the result: a fraction as exact text ("7/4"), an int as it is."""
        def text(v):
            return v if type(v) is int else (int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}")

        out = {"value": text(self.value)} if self.value is not None else {"lower": text(self.lower),
                                                                          "upper": text(self.upper)}
        out.update(witness=self.witness, seconds=round(self.seconds, 4))
        return out


class Stopped(Exception):
    """The deadline passed while a search prepared its bitsets (:func:`row_bits`, :func:`column_bits`)."""


def _look(deadline) -> None:
    from .. import interrupts

    interrupts.check()  # a Ctrl-C that a library swallowed stops the search here
    if deadline is not None and time.monotonic() > deadline:
        raise Stopped


#: Rows converted per numpy call by :func:`row_bits` (a look at the clock between two blocks).
_BLOCK = 1 << 16


def row_bits(M, deadline: Optional[float] = None) -> list:
    """Each row of the 0/1 matrix ``M`` as an int (bit j: column j), a block of rows per numpy call, with a look at
    ``deadline`` between blocks (:class:`Stopped` past it): a class of millions of concepts takes seconds, not the
    minutes of a Python loop over its entries."""
    import numpy as np

    m, n = M.shape
    out: list = []
    for i in range(0, m, _BLOCK):
        _look(deadline)
        B = np.packbits(np.asarray(M[i:i + _BLOCK], dtype=bool), axis=1, bitorder="little")
        if n <= 64:
            W = np.zeros((B.shape[0], 8), dtype=np.uint8)
            W[:, :B.shape[1]] = B
            out.extend(W.view("<u8").ravel().tolist())
        else:
            out.extend(int.from_bytes(r.tobytes(), "little") for r in B)
    return out


def column_bits(M, deadline: Optional[float] = None) -> list:
    """Each column of ``M`` as an int (bit c: row c): :func:`row_bits` of its transpose, a block of columns per numpy
    call with a look at ``deadline`` between blocks (a million points take a second, not a numpy call each)."""
    import numpy as np

    return row_bits(np.asarray(M).T, deadline)


def bits_of(flags) -> int:
    """The int whose bit j is ``flags[j]`` (a 0/1 vector), made by numpy: a million flags in milliseconds, where summing
    ``1 << j`` is quadratic."""
    import numpy as np

    return int.from_bytes(np.packbits(np.asarray(flags, dtype=bool), bitorder="little").tobytes(), "little")


def members(v: int) -> list:
    """The positions of the 1 bits of ``v`` (>= 0), in increasing order (:func:`solvers.numbers.bit_positions`)."""
    return bit_positions(v)


def distinct_columns(M, *, nonzero: bool = False) -> list:
    """The index of the first of each distinct column of the 0/1 matrix ``M`` (only the columns with a 1 when
    ``nonzero``), in increasing order, by numpy."""
    import numpy as np

    M = np.asarray(M, dtype=bool)
    keep = np.flatnonzero(M.any(axis=0)) if nonzero else np.arange(M.shape[1])
    if not len(keep):
        return []
    packed = np.ascontiguousarray(np.packbits(M[:, keep], axis=0).T)
    _, first = np.unique(packed.view(np.dtype((np.void, packed.shape[1]))).ravel(), return_index=True)
    return sorted(int(keep[i]) for i in first)


#: Seconds making the dual class takes a concept of the class (measured: about 0.5 s a million concepts on a
#: 2-core machine, twice that loaded): dual_vc is left at its bounds when its time is shorter.
DUAL_SECONDS = 1e-6


def _dual(C):
    from ..classes.finite import ConceptClass

    return ConceptClass.from_matrix(C.matrix.T)


def _opt_upper(C, time_limit):
    """An upper bound on Opt(C) (its value when the search finishes within the time limit), for worst_order."""
    from ..opt import opt

    try:
        return opt(C, time_limit=time_limit).upper
    except (Exception, KeyboardInterrupt):  # noqa: BLE001 - only a bound to stop early: the search stands without it
        return None


#: The routes :func:`compute` takes for vc, dual_vc, threshold, star, td and rtd.
METHODS = ("auto", "search", "sat")
#: Seconds ``method="auto"`` gives the VC search before it asks Opt(C) for an upper bound (at most a quarter of the
#: time limit).
VC_FIRST = 0.25
#: Seconds Opt's search may take for that bound (at most a tenth of the time left).
VC_OPT = 1.0
#: The largest class (cells, points) whose Opt ``method="auto"`` asks for: past it Opt's setup alone outlasts a
#: short budget (measured: 64 x 300,000 took 1.2 s for 0.3 s).
VC_OPT_CELLS, VC_OPT_POINTS = 1 << 24, 1 << 17


def _vc(C, key: str, time_limit, method: str):
    """vc (``key="vc"``) or dual_vc: the search, CP-SAT (:func:`solvers.params.sat.vc`), or ``"auto"``: the search for
    :data:`VC_FIRST` seconds; unsettled, Opt(C) (of the dual class for dual_vc) within :data:`VC_OPT` seconds bounds
    it (a shattered set is a mistake tree, so VC <= Opt) on a class within :data:`VC_OPT_CELLS` cells and
    :data:`VC_OPT_POINTS` points, and the search goes on from its shattered set to that bound with the time left. The witness's ``upper`` says what proves the upper bound: ``"search"`` (it went
    through), ``"bound"`` (floor(log2 |C|) or the distinct points), ``"opt"`` (Opt(C)'s upper bound, reached),
    ``"cp-sat"``."""
    from ..vc import vc_search
    from . import sat

    name = "points" if key == "vc" else "concepts"
    start = time.monotonic()
    D = C if key == "vc" else _dual(C)
    trivial = min(max(D.n_concepts.bit_length() - 1, 0), D.n_points)
    if method == "sat":
        r = sat.vc(D.matrix, deadline=None if time_limit is None else start + time_limit)
        return ParamResult(key, r.lower, r.upper, {name: r.witness["points"], "upper": r.witness["upper"]})
    first = time_limit if method == "search" else VC_FIRST if time_limit is None else min(VC_FIRST, time_limit / 4)
    r = vc_search(D, time_limit=first)
    bound = None
    if r.value is None and method == "auto" and D.n_points <= VC_OPT_POINTS and \
            D.n_concepts * D.n_points <= VC_OPT_CELLS:
        left = None if time_limit is None else time_limit - (time.monotonic() - start)
        bound = _opt_upper(D, VC_OPT if left is None else max(min(VC_OPT, left / 10), 1e-3))
        left = None if time_limit is None else max(time_limit - (time.monotonic() - start), 1e-3)
        r = vc_search(D, time_limit=left, upper=bound, known=r.witness)
    if r.value is None:
        proof = {"by": "bound", "text": "floor(log2 |C|) and the points where concepts differ"}
        if bound is not None and bound < r.upper:
            proof = {"by": "opt", "text": f"Opt <= {bound}"}
    elif r.value == trivial:
        proof = {"by": "bound", "text": "floor(log2 |C|) and the points where concepts differ"}
    elif bound is not None and r.value == bound:
        proof = {"by": "opt", "text": f"Opt <= {bound}: a shattered set is a mistake tree"}
    else:
        proof = {"by": "search"}
    upper = r.upper if bound is None else min(r.upper, max(bound, r.lower))
    return ParamResult(key, r.lower, upper, {name: [int(j) for j in r.witness], "upper": proof})


def compute(C, keys=DEFAULT_KEYS, *, time_limit: Optional[float] = None, method: str = "auto") -> dict:
    """``{key: ParamResult}`` for each key of ``keys`` (default :data:`DEFAULT_KEYS`; :data:`KEYS` for all) on the
    finite class ``C``, each search within ``time_limit`` seconds (its proven bounds when stopped).

    ``method`` (vc, dual_vc, threshold, star, td, rtd): ``"search"``, ``"sat"`` (a constraint solver, its refutation
    checked by a second one: :mod:`.sat`, :mod:`.teaching`) or ``"auto"`` (each module says how it chooses:
    :func:`_vc`, :func:`.threshold.search`, :func:`.star.search`, :func:`.teaching.search`)."""
    from . import orders, proper, star, teaching, threshold

    unknown = [k for k in keys if k not in KEYS]
    if unknown:
        raise ValueError(f"unknown parameter {unknown[0]!r}; choose from: {', '.join(KEYS)}")
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose from: {', '.join(METHODS)}")
    out = {}
    for key in keys:
        t0 = time.monotonic()
        if key == "dual_vc" and C.n_points == 0:  # no points: the dual has no concept, and shatters nothing
            p = ParamResult(key, 0, 0, {"concepts": [], "upper": {"by": "bound", "text": "no points"}})
        elif key == "dual_vc" and time_limit is not None and C.n_concepts * DUAL_SECONDS > time_limit:
            # the dual (a point per concept) takes longer to make than the time given: its bounds without it
            p = ParamResult(key, 0, min(max(C.n_points.bit_length() - 1, 0), C.n_concepts), {"concepts": []})
        elif key in ("vc", "dual_vc"):
            p = _vc(C, key, time_limit, method)
        elif key == "threshold":
            p = threshold.search(C, time_limit=time_limit, method=method)
        elif key == "star":
            p = star.search(C, time_limit=time_limit, method=method)
        elif key in ("best_order", "worst_order"):
            # worst_order stops early at Opt(C): Opt's search gets a quarter of the time, the orders the rest
            upper = _opt_upper(C, None if time_limit is None else time_limit / 4) if key == "worst_order" else None
            left = None if time_limit is None else max(time_limit - (time.monotonic() - t0), 1e-3)
            p = orders.search(C, key, time_limit=left, upper=upper)
        elif key == "proper":
            p = proper.search(C, time_limit=time_limit)
        elif key in ROUTES:
            import importlib

            where, name = ROUTES[key]
            p = getattr(importlib.import_module(f"{__name__}.{where}"), name)(C, time_limit=time_limit)
        else:
            p = teaching.search(C, key, time_limit=time_limit, method=method)
        p.seconds = time.monotonic() - t0
        out[key] = p
    return out
