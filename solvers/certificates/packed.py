"""The checker of the packed search's upper-bound certificates (:mod:`solvers.opt.packed_exact`): Opt(C) <= u for a
class over at most 64 points, its version spaces matched up to the signed permutations of the cube.

The certificate is ``{"kind": "upper-bound", "bound": u, "form": "packed", "group": G, "entries": [...]}``. Each
entry is ``{"path": [[j, b], ...], "bound": h, ...}``: the version space V of the path (point j labelled b, from
the whole class) and the claim Opt(V) <= h. The claim is *valid* when

* V holds fewer than 2^(h+1) concepts (the Halving bound, [Rivest94] and [OnlineAlgs]); or
* the entry carries ``"proof"``: an upper-bound certificate of V as a class of its own (its concepts, in the order
  of their truth tables, over the points that split V, in increasing order), which
  :func:`solvers.certificates.verify_upper` accepts with a bound of at most h; or
* the entry carries ``"covers"``, and for every point x that splits V into sides of at least 2^h concepts each
  there is a cover ``[x, b, r]`` (``[x, b, r, sigma, f, c]`` with a group): the side V_x^b is mapped by the group
  element onto the version space of entry r, and entry r claims at most h - 1.

``G`` is null (the identity alone: the side's closure must equal entry r's) or ``{"n": n, "complement": c}``: the
class lies on the 2^n points of the cube (point index = the coordinates' bits) and the group is that of the maps
x -> sigma(x) XOR f (sigma renames the index bits: bit i to bit sigma[i]), each with the labels complemented when
``c`` and the cover's complement flag are true. The checker first verifies that the class is closed under a set
of generators of that group (two renamings that generate all of them, the negation of bit 0, the complement),
so every element is a symmetry of C, and Opt(g(W)) = Opt(W) for every version space W ([Rivest94]: the game with
the points renamed and the labels flipped). A version space reached by examples is named one to one by its
*closure*, the points on which all its concepts agree with those labels, and g maps the closure of W to that of
g(W); so the side V_x^b and entry r's version space have the same Opt when the image of the side's closure is
entry r's closure.

By the recurrence of [Rivest94] (Opt(V) = max over splitting x of 1 + min(Opt(V_x^0), Opt(V_x^1))) and
induction on |V| (a side is smaller than V, and entry r's version space is as large as the side), every claim is
true. The root, the empty path, must be an entry claiming at most u, or the class must hold fewer than 2^(u+1)
concepts. The checker reads the truth tables only (an EvaluatedClass's, or the matrix packed here), never the
search's memo.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

import numpy as np

from .._errors import TreeError
from ._reading import _fmt, _show, entry_list, path_entries, point_step, whole

__all__ = ["verify_packed_upper", "check_packed"]

_CHUNK = 1 << 18


def _tables_of(C) -> tuple[np.ndarray, int]:
    m = C.n_points
    if m > 64:
        raise TreeError(f"a packed certificate is for a class over at most 64 points; this one has {m}")
    T = getattr(C, "tables", None)
    if T is None:
        M = np.asarray(C.matrix, dtype=bool)
        weights = np.uint64(1) << np.arange(m, dtype=np.uint64)
        T = np.zeros(len(M), dtype=np.uint64)
        for j in range(m):
            T[M[:, j]] |= weights[j]
    return np.sort(np.asarray(T, dtype=np.uint64)), m


def _label_bits(V: np.ndarray, m: int) -> np.ndarray:
    """A 0/1 matrix (uint8): row i, column x = the label of concept i at point x."""
    V = np.ascontiguousarray(V, dtype="<u8")
    return np.unpackbits(V.view(np.uint8).reshape(-1, 8), axis=1, bitorder="little")[:, :m]


def _tables(bits: np.ndarray) -> np.ndarray:
    """The truth tables of the rows of a 0/1 matrix over at most 64 points."""
    full = np.zeros((len(bits), 64), dtype=np.uint8)
    full[:, :bits.shape[1]] = bits
    return np.packbits(full, axis=1, bitorder="little").view("<u8").ravel().astype(np.uint64)


def _counts(V: np.ndarray, m: int) -> np.ndarray:
    out = np.zeros(m, dtype=np.int64)
    for a in range(0, len(V), _CHUNK):
        out += _label_bits(V[a:a + _CHUNK], m).sum(axis=0, dtype=np.int64)
    return out


def _closure(V: np.ndarray, m: int, counts: np.ndarray | None = None) -> tuple:
    """(the points every concept of V labels 1, those every one labels 0), as sorted tuples (from V's ``counts`` of
    ones per point, when given)."""
    c = _counts(V, m) if counts is None else counts
    return tuple(np.flatnonzero(c == len(V)).tolist()), tuple(np.flatnonzero(c == 0).tolist())


def _maps_onto_itself(T: np.ndarray, m: int, perm, complement: bool) -> bool:
    image = np.zeros_like(T)
    for a in range(0, len(T), _CHUNK):
        bits = _label_bits(T[a:a + _CHUNK], m)
        moved = np.zeros_like(bits)
        moved[:, perm] = bits  # the concept c -> c', c'(perm[x]) = c(x) XOR complement
        if complement:
            moved ^= 1
        image[a:a + _CHUNK] = _tables(moved)
    return bool(np.array_equal(np.sort(image), T))


def _group(G, m: int, T: np.ndarray):
    """None (identity) or n, after checking that C is closed under the group's generators."""
    if G is None:
        return None
    if not isinstance(G, dict) or set(G) != {"n", "complement"} or not isinstance(G["complement"], bool):
        raise TreeError('"group" must be null or {"n": n, "complement": true/false}')
    n = whole(G["n"], "the group's n")
    if not 1 <= n <= 6 or m != 2 ** n:
        fits = f"n = {m.bit_length() - 1}" if m & (m - 1) == 0 and 2 <= m <= 64 else "null (no group)"
        raise TreeError(f"the group acts on {{0,1}}^{n} (n = 1..6, 2^n points), and the class has {m} points: "
                        f"give {fits}")
    x = np.arange(m)
    gens = [(x ^ 1, False)]
    if n >= 2:
        gens.append(((x & ~3) | ((x & 1) << 1) | ((x >> 1) & 1), False))  # swap bits 0 and 1
        gens.append((((x << 1) & (m - 1)) | (x >> (n - 1)), False))  # rotate the bits
    if G["complement"]:
        gens.append((x, True))
    for perm, comp in gens:
        if not _maps_onto_itself(T, m, perm, comp):
            what = "complementing the labels" if comp else "a signed permutation of the cube's coordinates"
            raise TreeError(f"the class is not closed under {what}, which the certificate's group holds")
    return n


def _element(cover, i: int, n: int, complement: bool):
    """The map of the point indices and the complement flag of a cover's group element."""
    sigma, f, c = cover[3], cover[4], cover[5]
    if (not isinstance(sigma, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in sigma)
            or sorted(sigma) != list(range(n))):
        raise TreeError(f"entry {i} has a cover whose sigma {_show(sigma)} does not rename the {n} index bits")
    if isinstance(f, bool) or not isinstance(f, int) or not 0 <= f < 2 ** n or not isinstance(c, bool):
        raise TreeError(f"entry {i} has a cover whose flip {_show(f)} or complement {_show(c)} is not valid")
    if c and not complement:
        raise TreeError(f"entry {i} has a cover that complements the labels, which the group does not hold")
    x = np.arange(2 ** n)
    image = np.zeros_like(x)
    for b, s in enumerate(sigma):
        image |= ((x >> b) & 1) << s
    return image ^ f, c


def _image(closure: tuple, perm, c: bool) -> tuple:
    ones, zeros = (sorted(int(perm[x]) for x in side) for side in closure)
    return (tuple(zeros), tuple(ones)) if c else (tuple(ones), tuple(zeros))


def _walk(entries: list, T: np.ndarray, m: int):
    """``(i, path, V)`` for every entry in turn: its path and version space (the spaces of the last path's prefixes
    are kept, so entries in the order of a depth-first walk share their work)."""
    stack: list = [((), T)]
    for i, _, _, path in path_entries(entries, point_step(m), form='{"path": [[j, b], ...], "bound": h, ...}'):
        while len(stack) > 1 and stack[-1][0] != path[:len(stack[-1][0])]:
            stack.pop()
        have, V = stack[-1]
        for k in range(len(have), len(path)):
            j, b = path[k]
            V = V[((V >> np.uint64(j)) & np.uint64(1)) == b]
            stack.append((path[:k + 1], V))
        yield i, path, V


def check_packed(proof: dict, C) -> int:
    """The checker of the rule ``packed`` (:mod:`solvers.certificates.rules`): :func:`verify_packed_upper`, an
    entry's own certificate checked by :func:`solvers.certificates.verify_upper`."""
    from .opt import verify_upper

    return verify_packed_upper(proof, C, nested=verify_upper)


def verify_packed_upper(proof: dict, C, *, nested) -> int:
    """Check a packed upper-bound certificate (see the module's docstring) against ``C``; return its bound u.
    ``nested(cert, D)`` checks an entry's own certificate (:func:`solvers.certificates.verify_upper`, which calls
    this one and passes itself).

    Raises
    ------
    TreeError
        Saying which entry fails and why.
    """
    u = whole(proof.get("bound"), "bound")
    entries = entry_list(proof, '{"path": [[j, b], ...], "bound": h, ...}')
    T, m = _tables_of(C)
    if len(T).bit_length() <= u + 1:
        return u  # fewer than 2^(u+1) concepts
    n = _group(proof.get("group"), m, T)
    complement = bool(proof["group"]["complement"]) if n is not None else False
    from ..classes.finite import ConceptClass

    spaces = []  # per entry: its path, size, ones per point and closure
    for _, path, V in _walk(entries, T, m):
        counts = _counts(V, m)
        spaces.append((path, len(V), counts, _closure(V, m, counts)))
    if not any(not s[0] and entries[i]["bound"] <= u for i, s in enumerate(spaces)):
        raise TreeError(f"no entry with the empty path claims Opt(C) <= {u}")
    for i, _, V in _walk(entries, T, m):
        e = entries[i]
        path, size, counts, _ = spaces[i]
        h = e["bound"]
        if size.bit_length() <= h + 1:
            continue  # fewer than 2^(h+1) concepts
        if "proof" in e:
            cols = np.flatnonzero((counts > 0) & (counts < size))
            D = ConceptClass(_label_bits(V, m)[:, cols].astype(bool))
            try:
                got = nested(e["proof"], D)
            except TreeError as err:
                raise TreeError(f"entry {i} (path {_fmt(path)}): its version space's own certificate fails: {err}") from None
            if got > h:
                raise TreeError(f"entry {i} (path {_fmt(path)}) claims Opt <= {h}, and its own certificate proves {got}")
            continue
        if h == 0:
            raise TreeError(f"entry {i} claims Opt <= 0 for {size} concepts")
        covers = e.get("covers")
        if not isinstance(covers, list):
            raise TreeError(f"entry {i} (path {_fmt(path)}) has neither \"covers\" nor \"proof\"")
        by_point = {}
        for cover in covers:
            if (not isinstance(cover, list) or len(cover) != (3 if n is None else 6)
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in cover[:3])):
                raise TreeError(f"entry {i} has the cover {_show(cover)}; give [x, b, r]"
                                + ("" if n is None else " with sigma, f and the complement flag"))
            by_point[cover[0]] = cover
        small = 2 ** h
        for x in np.flatnonzero((counts > 0) & (counts < size)).tolist():
            c1 = int(counts[x])
            if c1 < small or size - c1 < small:
                continue
            cover = by_point.get(x)
            if cover is None:
                raise TreeError(f"entry {i} (path {_fmt(path)}, Opt <= {h}): point {x} splits it into {size - c1} + "
                                f"{c1} concepts and no cover says which side has Opt <= {h - 1}")
            b, r = cover[1], cover[2]
            if b not in (0, 1) or not 0 <= r < len(entries):
                raise TreeError(f"entry {i} has the cover {_show(cover)}: its side must be 0 or 1 and its entry one "
                                f"of the {len(entries)}")
            if entries[r]["bound"] > h - 1:
                raise TreeError(f"entry {i} (path {_fmt(path)}, Opt <= {h}): point {x}'s cover names entry {r}, which "
                                f"claims {entries[r]['bound']}, not at most {h - 1}")
            W = V[((V >> np.uint64(x)) & np.uint64(1)) == b]
            got = _closure(W, m)
            if n is not None:
                perm, c = _element(cover, i, n, complement)
                got = _image(got, perm, c)
            if got != spaces[r][3]:
                raise TreeError(f"entry {i} (path {_fmt(path)}): the side x{x}={b} is not mapped onto entry {r}'s "
                                "version space")
    return u
