"""The isomorphism entries of an upper-bound certificate of Opt(C), and their checker.

The search may key a version space by a canonical form of its reduced matrix
(:mod:`solvers.opt.isomorphism`), so that an entry of its refutation stands for every version space
isomorphic to it. Such a use is written ``"isomorphic": {"entry": r, "concepts": [[c, c'], ...],
"points": [[x, x', f], ...]}`` on the entry of the version space V it bounds: a one-to-one map of V's
concepts onto those of entry r's version space V_r, and for every point x that splits V a point x' with a
flag f, such that c(x) xor f = c'(x') for every mapped pair. Then Opt(V) <= Opt(V_r): V's matrix on its
splitting points is V_r's matrix on the points x' (columns complemented where f is true, repeated where
two x map to one x'), and complementing a column, repeating it, or dropping columns never raises Opt
(a mistake tree of the smaller matrix is one of the larger, up to relabelling its edges) [Rivest94].
:func:`check_isomorphic` tests exactly these equalities on the class's labels, in time linear in V's part
of the matrix; :func:`solvers.certificates.verify_upper` calls it for each such entry, after checking the
entry r it names on its own (which must carry a refutation, not another isomorphism, and claim no more).

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

import numpy as np

from .._errors import TreeError
from ._reading import _fmt, _show

__all__ = ["check_isomorphic"]


def check_isomorphic(i: int, idx: np.ndarray, entries: list, spaces: list, table) -> None:
    """Check entry ``i`` of an upper-bound certificate used up to isomorphism; its version space is ``idx``
    (the concept indices), ``spaces[r][1]`` that of entry ``r``, ``table`` the class's labels (``shape``,
    ``ones(idx)``, ``labels(rows, cols)``). :class:`TreeError` says what is wrong."""
    e = entries[i]
    iso = e["isomorphic"]
    where = f"entry {i} (path {_fmt(tuple(map(tuple, e['path'])))}, Opt <= {e['bound']})"
    if not isinstance(iso, dict) or set(iso) != {"entry", "concepts", "points"}:
        raise TreeError(f'{where}: "isomorphic" must be {{"entry": r, "concepts": [[c, c\'], ...], '
                        f'"points": [[x, x\', f], ...]}}')
    r = iso["entry"]
    if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < len(entries) or r == i:
        raise TreeError(f"{where}: its isomorphism names entry {_show(r)}, not another entry's index")
    if "isomorphic" in entries[r]:
        raise TreeError(f"{where}: its isomorphism names entry {r}, which is itself used up to isomorphism; "
                        "name an entry with a refutation of its own")
    if entries[r]["bound"] > e["bound"]:
        raise TreeError(f"{where}: it is isomorphic to entry {r}, which claims only Opt <= {entries[r]['bound']}")
    target = spaces[r][1]
    m, n_points = table.shape
    pairs, points = iso["concepts"], iso["points"]
    try:
        cs = np.array(pairs, dtype=np.int64).reshape(-1, 2)
        xs = np.array([p[:2] for p in points], dtype=np.int64).reshape(-1, 2)
        flags = [p[2] for p in points]
        ok = (all(len(p) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in p) for p in pairs)
              and all(len(p) == 3 and all(isinstance(v, int) and not isinstance(v, bool) for v in p[:2])
                      and isinstance(p[2], bool) for p in points))
    except (TypeError, ValueError, IndexError):
        ok = False
    if not ok:
        raise TreeError(f"{where}: its isomorphism must list [concept, concept] pairs and [point, point, "
                        "true/false] triples")
    if ((cs < 0) | (cs >= m)).any() or ((xs < 0) | (xs >= n_points)).any():
        raise TreeError(f"{where}: its isomorphism names a concept or point outside the class")
    if len(cs) != idx.size or not np.array_equal(np.sort(cs[:, 0]), idx):
        raise TreeError(f"{where}: its isomorphism does not map exactly the {idx.size} concepts of its version space")
    inside = np.zeros(m, dtype=bool)
    inside[target] = True
    outside = np.flatnonzero(~inside[cs[:, 1]])
    if outside.size:
        c, c2 = cs[outside[0]]
        raise TreeError(f"{where}: its isomorphism maps concept {c} to concept {c2}, which is not in the version "
                        f"space of entry {r}")
    if len(np.unique(cs[:, 1])) != len(cs) or len(cs) != target.size:
        raise TreeError(f"{where}: its isomorphism does not map its {idx.size} concepts one to one onto the "
                        f"{target.size} of entry {r}")
    ones = table.ones(idx)
    splitting = np.flatnonzero((ones > 0) & (ones < idx.size))
    mapped = np.zeros(n_points, dtype=bool)
    mapped[xs[:, 0]] = True
    missing = splitting[~mapped[splitting]]
    if missing.size:
        raise TreeError(f"{where}: point {int(missing[0])} splits its version space but its isomorphism does not "
                        "map it")
    f = np.array(flags, dtype=bool)
    here = table.labels(cs[:, 0][:, None], xs[:, 0][None, :]) ^ f[None, :]
    there = table.labels(cs[:, 1][:, None], xs[:, 1][None, :])
    bad = np.argwhere(here != there)
    if bad.size:
        a, b = bad[0]
        c, c2 = cs[a]
        x, x2 = xs[b]
        raise TreeError(f"{where}: its isomorphism maps point {x} to point {x2} (complement {str(bool(f[b])).lower()}), "
                        f"but concept {c} labels point {x} with {int(here[a, b] ^ f[b])} and its image, concept {c2}, "
                        f"labels point {x2} with {int(there[a, b])}")
