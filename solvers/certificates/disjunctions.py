"""Independent checkers for the certificates of :mod:`solvers.opt.disjunctions`: mistake trees over
explicit points (any class whose points are not listed), and the upper-bound certificate of
``monotone-disjunctions n k`` that uses the renaming of variables.

Neither uses the solver: the concepts come from the family's own definition (its literal form, c_S(x)
= OR_{i in S} x_i), version spaces are recomputed here by filtering them, and every claimed symmetry is
re-checked by applying it.

The upper-bound certificate
---------------------------
``{"kind": "upper-bound", "symmetry": "renaming", "family": "monotone-disjunctions", "params": {"n", "k"},
"bound": u, "entries": [...]}``. Entry i is ``{"R": [variables], "edges": [[variables], ...], "bound":
h, "children": [{"point": [variables], "label": y, "entry": j, "renaming": [pi(0), ..., pi(n-1)]}, ...]}``
and claims Opt(V_i) <= h for the version space

    V_i = {c_S in C : S subset of R, S meets every edge}.

Entry 0 must be the whole class (R = every variable, no edge) and claim u. An entry is *valid* when
|V_i| < 2^(h+1) (then Opt(V_i) <= floor(log2 |V_i|) <= h by the Halving bound, [Rivest94] section
2.3.2), or when h >= 1 and every point x splitting V_i into two sides of >= 2^h concepts each has a
child record whose side (V_i)_x^y, renamed by pi, is exactly V_j of an entry j claiming <= h - 1. By the recurrence
Opt(V) = max over x of 1 + min(Opt(V_x^0), Opt(V_x^1)) ([Rivest94]), induction on |V| then proves
every claim: a side with < 2^h concepts has Opt <= h - 1 by Halving, and renaming the variables maps
the class onto itself, so it keeps Opt.

Only one point per orbit is looked at. Variables outside R are in no concept of V_i, so a point's
values there change no label. Two variables of R in exactly the same edges (a *block*) can be swapped:
the swap maps R and every edge onto itself, hence V_i onto V_i, and a point x onto a point with the
same split up to that swap. So every point has the split of the point holding, in each block, the same
number of variables, the lowest-numbered ones; those are the points checked here, and the record of
each is looked up by its variables.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
"""

from __future__ import annotations

import numpy as np

from .._errors import TreeError
from ._reading import depth_at_most, entry_list, read_tree, whole

__all__ = ["verify_upper", "check_renaming", "verify_point_tree", "FAMILY"]

FAMILY = "monotone-disjunctions"


# ---------------------------------------------------------------------------------------- mistake trees
def verify_point_tree(tree: dict, C) -> int:
    """Check a mistake tree whose nodes hold explicit points (``"point"``: a list of n 0/1 values)
    against a class whose points are not listed (``C.labels(x)``: every concept's label of x); return
    its depth.

    Raises
    ------
    TreeError
        Saying what is wrong: a malformed node or point, a leaf at the wrong depth, or a root-to-leaf
        path no concept realises.
    """
    depth = read_tree(tree)
    m = C.n_concepts
    depth_at_most(depth, m)
    # Level by level: at[c] is the node (of this level, left to right) whose path concept c follows.
    nodes = [tree["root"]]
    at = np.zeros(m, dtype=np.int64)
    for level in range(depth + 1):
        counts = np.bincount(at, minlength=len(nodes))
        if (counts == 0).any():
            i = int(np.flatnonzero(counts == 0)[0])
            raise TreeError(f"the path to node {i} of level {level} is realised by no concept of the class")
        if level == depth:
            if any(node is not None for node in nodes):
                raise TreeError(f"the tree is deeper than its stated depth {depth}")
            break
        label = np.zeros(m, dtype=np.int64)
        below = []
        for i, node in enumerate(nodes):
            if not isinstance(node, dict) or set(node) != {"point", "0", "1"}:
                raise TreeError(f'node {i} of level {level} is not {{"point": [0/1, ...], "0": ..., "1": ...}} '
                                f"(a leaf above depth {depth}?)")
            try:
                labels = C.labels(node["point"])
            except ValueError as e:
                raise TreeError(f"node {i} of level {level}: {e}") from None
            here = at == i
            label[here] = labels[here]
            below += (node["0"], node["1"])
        at = 2 * at + label
        nodes = below
    return depth


# ---------------------------------------------------------------------------------------- upper bounds
def verify_upper(proof: dict, C) -> int:
    """Check the certificate of ``Opt(C) <= u`` described in the module docstring against ``C`` (the
    class ``monotone-disjunctions n k``, listed or implicit); return ``u``.

    Raises
    ------
    TreeError
        Saying which entry fails and why, or that the certificate is for another class.
    """
    from .rules import verify, version_of

    if not isinstance(proof, dict) or proof.get("kind") != "upper-bound" or (
            version_of(proof) < 2 and proof.get("symmetry") != "renaming"):
        raise TreeError('this certificate is {"kind": "upper-bound", "symmetry": "renaming", ...}')
    return verify(proof, C, within=frozenset({"renaming"}))


def check_renaming(proof: dict, C) -> int:
    """The checker of the rule ``renaming`` (:mod:`solvers.certificates.rules`): :func:`verify_upper` once its
    class is matched."""
    n, k = _class_of(proof, C)
    u = whole(proof.get("bound"), "bound")
    entries = entry_list(proof, '{"R", "edges", "bound", "children"}')
    concepts = _concepts(n, k)
    if len(concepts).bit_length() <= u + 1:
        return u  # |C| < 2^(u+1): the Halving bound alone
    if not entries:
        raise TreeError(f"no entry claims Opt(C) <= {u}")
    parsed = [_entry(i, e, n) for i, e in enumerate(entries)]
    R0, edges0, h0, _ = parsed[0]
    if R0 != (1 << n) - 1 or edges0 or h0 > u:
        raise TreeError(f"entry 0 must be the whole class (R = every variable, no edge) claiming Opt <= {u}")
    spaces = [_space(concepts, R, edges) for R, edges, _, _ in parsed]
    for i, (R, edges, h, children) in enumerate(parsed):
        V = spaces[i]
        if V.size.bit_length() <= h + 1:
            continue  # |V| < 2^(h+1)
        if h == 0:
            raise TreeError(f"entry {i} claims Opt <= 0 for {V.size} concepts")
        for A in _points_to_check(V, R, edges, 1 << h):
            record = children.get(A)
            if record is None:
                raise TreeError(f"entry {i} (Opt <= {h}): the point {_vars(A)} splits it into "
                                f"{_side(V, A, 0).size} + {_side(V, A, 1).size} concepts and no child names a side")
            y, j, pi = record
            if parsed[j][2] > h - 1:
                raise TreeError(f"entry {i} (Opt <= {h}): the child of point {_vars(A)} is entry {j}, which claims "
                                f"{parsed[j][2]}, not <= {h - 1}")
            if not np.array_equal(np.sort(_rename(_side(V, A, y), pi)), spaces[j]):
                raise TreeError(f"entry {i} (Opt <= {h}): the side {y} of point {_vars(A)}, renamed, is not the "
                                f"version space of entry {j}")
    return u


def _class_of(proof: dict, C) -> tuple[int, int]:
    """(n, k) of the certificate, once its class is ``C``'s."""
    params = proof.get("params")
    if proof.get("family") != FAMILY or not isinstance(params, dict):
        raise TreeError(f'this certificate is for the family {FAMILY}: give "family" and "params" {{"n", "k"}}')
    if getattr(C, "family", None) != FAMILY or (getattr(C, "finite", False) and not getattr(C, "made", False)):
        raise TreeError(f"this certificate is for {FAMILY}, and the class given is not that family's own class")
    n, k = C.params.get("n"), C.params.get("k")
    if params.get("n") != n or params.get("k") != k:
        raise TreeError(f"this certificate is for {FAMILY} n={params.get('n')} k={params.get('k')}, "
                        f"and the class given has n={n} k={k}")
    return n, k


def _concepts(n: int, k: int) -> np.ndarray:
    """The class's concepts as sets of variables (bit i: variable i), from the family's definition."""
    from ..classes.families import literal_form

    pos = literal_form(FAMILY, n=n, k=k).pos  # words of 64 variables; n <= 64 here
    if pos.shape[1] != 1:
        raise TreeError(f"this checker handles n <= 64 variables, not n = {n}")
    return np.sort(pos[:, 0].astype(np.uint64))


def _entry(i: int, e, n: int) -> tuple[int, list[int], int, dict]:
    """(R, edges, bound, {point: (label, entry, renaming)}) of entry ``e``, its shape checked."""
    if not isinstance(e, dict) or not {"R", "edges", "bound", "children"} <= set(e):
        raise TreeError(f'entry {i} is not {{"R": [...], "edges": [[...], ...], "bound": h, "children": [...]}}')
    R = _set_of(e["R"], n, f"entry {i}'s R")
    if not isinstance(e["edges"], list):
        raise TreeError(f"entry {i}'s edges are not a list of lists of variables")
    edges = [_set_of(x, n, f"an edge of entry {i}") for x in e["edges"]]
    h = e["bound"]
    if isinstance(h, bool) or not isinstance(h, int) or h < 0:
        raise TreeError(f"entry {i} claims bound {h!r:.60}, not a whole number >= 0")
    if not isinstance(e["children"], list):
        raise TreeError(f"entry {i}'s children are not a list")
    children = {}
    for c in e["children"]:
        if not isinstance(c, dict) or not {"point", "label", "entry", "renaming"} <= set(c):
            raise TreeError(f'a child of entry {i} is not {{"point", "label", "entry", "renaming"}}')
        A = _set_of(c["point"], n, f"a child's point in entry {i}")
        y, j, pi = c["label"], c["entry"], c["renaming"]
        if y not in (0, 1) or isinstance(y, bool):
            raise TreeError(f"a child of entry {i} has label {y!r:.60}, not 0 or 1")
        if isinstance(j, bool) or not isinstance(j, int) or not 0 <= j:
            raise TreeError(f"a child of entry {i} names entry {j!r:.60}")
        if not isinstance(pi, list) or sorted(x for x in pi if type(x) is int) != list(range(n)):
            raise TreeError(f"a child of entry {i} has a renaming that is not a permutation of 0..{n - 1}")
        children[A] = (y, j, pi)
    return R, edges, h, children


def _set_of(xs, n: int, what: str) -> int:
    if not isinstance(xs, list) or any(isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < n for x in xs):
        raise TreeError(f"{what} is not a list of variables 0..{n - 1}")
    return sum(1 << x for x in set(xs))


def _space(concepts: np.ndarray, R: int, edges: list[int]) -> np.ndarray:
    """{S : S subset of R, S meets every edge}, sorted."""
    keep = (concepts & np.uint64(((1 << 64) - 1) ^ R)) == 0
    for e in edges:
        keep &= (concepts & np.uint64(e)) != 0
    return concepts[keep]


def _side(V: np.ndarray, A: int, y: int) -> np.ndarray:
    """The concepts of V that label the point A (a set of variables) with y."""
    hit = (V & np.uint64(A)) != 0
    return V[hit] if y else V[~hit]


def _rename(V: np.ndarray, pi: list[int]) -> np.ndarray:
    """Every concept of V with variable i renamed pi[i]."""
    out = np.zeros_like(V)
    for i, j in enumerate(pi):
        out |= ((V >> np.uint64(i)) & np.uint64(1)) << np.uint64(j)
    return out


def _points_to_check(V: np.ndarray, R: int, edges: list[int], least: int):
    """The points (sets of variables) holding, in each block of (R, edges), its lowest-numbered
    variables, that split V into two sides of >= ``least`` concepts each.

    Both sides are monotone in the point (adding a variable only moves concepts from side 0 to side 1),
    so a partial choice (blocks so far; none of the later ones) is abandoned when side 0 is already
    below ``least``, or when even taking all of the later blocks leaves side 1 below it."""
    blocks: dict[int, list[int]] = {}
    for i in range(R.bit_length()):
        if R >> i & 1:
            blocks.setdefault(sum(1 << j for j, e in enumerate(edges) if e >> i & 1), []).append(i)
    order = list(blocks.values())
    later = [sum(1 << i for b in order[t:] for i in b) for t in range(len(order) + 1)]

    def extend(t: int, A: int):
        if _side(V, A, 0).size < least or _side(V, A | later[t], 1).size < least:
            return
        if t == len(order):
            yield A
            return
        for c in range(len(order[t]) + 1):
            yield from extend(t + 1, A | sum(1 << i for i in order[t][:c]))

    yield from extend(0, 0)


def _vars(A: int) -> str:
    return "{" + ", ".join(f"x{i}" for i in range(A.bit_length()) if A >> i & 1) + "}"
