"""Independent checkers for the certificates of the games beyond Opt (:mod:`solvers.game_rules`).

Like :mod:`solvers.certificates`, these read only the class's 0/1 matrix: a state is a vector of budgets
(one per concept, k minus the labels so far that disagree with it; negative means dead), replayed from
the paths the certificate names, never the solver's bitsets or memo. Values are exact (Fractions).

Lower bounds
------------
* :func:`verify_error_tree` -- a *mistake tree with k errors*: a complete binary tree of depth d whose
  every root-to-leaf path is labelled within k errors of some concept. The adversary that answers each
  node with the label the learner did not predict forces d mistakes, so D_k(C) >= d.
* :func:`verify_randomized_tree` -- a *shattered tree* for the randomized game: internal nodes
  ``{"point": j, "0": node, "1": node}`` whose point is a move (both labels legal), null leaves at any
  depth, and (k >= 1, no horizon) *repeat* nodes ``{"point": j, "repeat": y0, "exit": node}`` where
  every living concept says y0 at j and some budget is left. Its value is computed bottom-up: 0 at a
  leaf, f(v_0, v_1) = max(v_0, v_1, (1 + v_0 + v_1)/2) at a node, 1 + v_exit at a repeat node. Against
  any learner the adversary that knows the learner's probability p at a node and answers the label worth
  more (p + v_0 or 1 - p + v_1) gains at least min over p of that, which is f; at a repeat node it
  answers y0 (costing the learner p each time, and changing nothing) while p is positive and 1 - y0 once
  p is small enough, gaining 1 + v_exit minus as little as it likes. So the game's value is at least the
  tree's value. For k = 0 the checker also gives the random-walk average depth / 2 (a fair coin for every
  label, [FHMM23]'s definition of RL), which is at most the value and equal to it for the trees the
  solver writes.

Upper bounds
------------
:func:`verify_game_upper` checks ``{"kind": "upper-bound", "game": {...}, "bound": u, "entries": [{"path":
[[j, y], ...], "bound": h}, ...]}``. For every entry (a state reached by its path, with t = T - len(path)
rounds left under a horizon; its claim h >= 0, as every living state is worth at least 0) and every point x
that is a move there, with claim(s') = the smallest entry claim of s' or else its cheap bound:

* deterministic: a split needs min(claim(s_x^0), claim(s_x^1)) <= h - 1, a loop (one label leaves the
  state as it is) needs claim(exit) <= h - 1. The value satisfies D(s) = max over moves of 1 + min(...)
  (1 + D(exit) for a loop): the max(a, b) part of the one-round value never wins, because a child's best
  move is a move of s with larger children (monotonicity, :mod:`solvers.game_rules`). A horizon T only caps
  the value: a bound >= T needs nothing, a smaller one is checked on the game without a horizon.
* randomized: a split needs f(claim_0, claim_1) <= h; a loop without a horizon 1 + claim(exit) <= h
  (with a horizon a loop is a split whose unanimous child is the same budgets with t - 1 rounds).

The cheap bounds (proven in :mod:`solvers.game_rules`): E(n) of n living concepts for the randomized game
with k = 0 -- or U(n, d) of :func:`solvers.game_rules.rank_rl_bound` when the certificate carries ``"opt_bound":
{"bound": d, "proof": an upper-bound certificate of Opt(C) <= d}``, checked first by
:func:`solvers.certificates.verify_upper` (every version space V has Opt(V) <= Opt(C) <= d) -- the volume bound max{q : 2^q <= sum over living c of sum_{i <= b_c} C(q, i)} otherwise, and
t/2 (randomized) or t (deterministic) with t rounds left. Children are strictly smaller states (or have
fewer rounds), so by induction every claim holds, and the root's entry (or its cheap bound) proves u.

Up to symmetry. A certificate with ``"symmetry": {"points": n, "generators": [{"permutation": [...],
"complement": false}, ...]}`` (from a search that kept one entry per orbit, :class:`solvers.opt.games.StateKeys`)
lets an entry stand for every state a renaming of the points maps it to. A renaming pi with pi(C) = C
maps each concept c to the concept sigma(c) with sigma(c)(pi(x)) = c(x), and a state b to the state
giving sigma(c) the budget b(c); the game from it is the game from b with the points renamed, so both
have the same value. Each generator is checked to be a renaming (no complement) that maps C onto itself.
The checker then names states by a canonical form of the class's bipartite graph coloured by the
budgets (bliss, through igraph) -- but it does not trust the form: whenever it lets a state use the claim
of another state of the same name, it reads off the relabelling (pi, sigma) that the two canonical
labellings give and checks that pi is a permutation of the points, sigma one of the concepts, that
C[sigma(c), pi(x)] = C[c, x] for every concept and point (so pi maps C onto itself and sigma is the map
it induces), and that sigma carries the one state's budgets onto the other's; a merge that fails stops
the check. So every merge is proven by the renaming the checker exhibits, whatever bliss returned.

References
----------
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).

Examples
--------
>>> from solvers.classes import ConceptClass
>>> C = ConceptClass.from_matrix([[0], [1]])
>>> verify_randomized_tree({"kind": "randomized-tree", "game": {"game": "randomized", "errors": 0},
...                         "value": "1/2", "root": {"point": 0, "0": None, "1": None}}, C)
ProvenFraction(Fraction(1, 2), claim='RL(C) >= 1/2', rule='randomized-tree')
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..classes.automorphisms import canonical_labels, load_igraph
from ..game_rules import Game, rank_rl_bound, universal_rl, volume_bound
from ._reading import (_POINT_KEYS, _POINT_NODE, _fmt, _show, entry_list, generators, inner, path_entries, point_of,
                       point_step, read_game, read_tree)
from .opt import TreeError, check_made_for, verify_upper

__all__ = ["verify_error_tree", "verify_randomized_tree", "verify_game_upper", "read_game", "read_number",
           "random_walk_value", "check_error_tree", "check_randomized_tree", "check_game_paths", "check_game_orbit"]


def claim_at_least_0(who: str):
    """The reader of an entry's claim in a game (for :func:`solvers.certificates._reading.path_entries`): a
    number >= 0 (:func:`read_number`), as every state with a living ``who`` is worth at least 0 (the checks of a
    claim hold vacuously at a state without moves, whose value is 0, not the claim)."""
    def claim(v, i: int) -> Fraction:
        h = read_number(v, f"entry {i}'s bound")
        if h < 0:
            raise TreeError(f"entry {i} claims {_frac(h)} < 0, but a state with a living {who} is worth at least 0")
        return h

    return claim


def read_number(v, what: str) -> Fraction:
    """An int, or a string "p/q" (or a decimal), as a Fraction; TreeError otherwise."""
    if isinstance(v, bool):
        raise TreeError(f"{what} {_show(v)} is not a number")
    if isinstance(v, int):
        return Fraction(v)
    if isinstance(v, str) and len(v) <= 10_000:
        try:
            return Fraction(v.strip())
        except (ValueError, ZeroDivisionError):
            pass
    raise TreeError(f'{what} {_show(v)} is not a whole number or a fraction "p/q"')


# ---------------------------------------------------------------------------------------- states
def _start(M: np.ndarray, k: int) -> np.ndarray:
    return np.full(M.shape[0], k, dtype=np.int64)


def _step(M: np.ndarray, b: np.ndarray, j: int, y: int) -> np.ndarray:
    """Budgets after labelling point j with y (a dead concept stays dead)."""
    agree = M[:, j] == bool(y)
    out = np.where(agree, b, b - 1)
    out[b < 0] = -1
    out[out < 0] = -1
    return out


def _alive(b: np.ndarray) -> bool:
    return bool((b >= 0).any())


def _counts(b: np.ndarray, k: int) -> list[int]:
    return [int((b == j).sum()) for j in range(k + 1)]


def _is_loop(M: np.ndarray, b: np.ndarray, j: int) -> int | None:
    """y0 when every living concept says y0 at point j (so label y0 changes nothing), else None."""
    col = M[b >= 0, j]
    if col.all():
        return 1
    if not col.any():
        return 0
    return None


# ---------------------------------------------------------------------------------------- lower bounds
def verify_error_tree(tree: dict, C, errors: int, horizon: int | None = None) -> int:
    """Check a mistake tree whose paths may disagree ``errors`` times with their concept; return its depth d,
    as a :class:`~solvers.certificates.opt.ProvenInt` whose ``claim`` says what it proves (``"D_1(C) >= d"``).
    With a ``horizon`` T (the game of T rounds) the depth is at most T: a deeper tree proves nothing there.

    Raises
    ------
    TreeError
        Saying what is wrong (malformed node, wrong depth, a path no concept labels within k errors).
    """
    read_tree(tree)
    from .rules import rule_of

    rule_of(tree, within=frozenset({"mistake-tree", "error-tree"}))  # its version (a newer one refused) and rule
    check_made_for(tree, C, what="tree")  # (its game is the caller's, not the tree's: not through rules.verify)
    from ._proven import ProvenInt

    depth = _error_tree(tree, C, errors, horizon)
    game = Game(errors=errors, horizon=horizon)
    return ProvenInt(depth, f"{game.symbol}(C) >= {depth}", "error-tree")  # the int, saying what it proves


def check_error_tree(tree: dict, C) -> int:
    """The checker of the rule ``error-tree`` (:mod:`solvers.certificates.rules`): :func:`verify_error_tree` for
    the game the tree names, once its class is matched."""
    G = read_game(tree)
    if G.randomized:
        raise TreeError('a mistake tree names a randomized game; a randomized game\'s tree has "kind": '
                        '"randomized-tree"')
    return _error_tree(tree, C, G.errors, G.horizon)


def _error_tree(tree: dict, C, errors: int, horizon) -> int:
    depth = read_tree(tree)
    M = np.asarray(C.matrix, dtype=bool)
    most = volume_bound([0] * errors + [M.shape[0]])
    if depth > most:
        raise TreeError(f"the tree claims depth {depth}, more than the volume bound {most} of {M.shape[0]} concepts "
                        f"with {errors} errors allows")
    if horizon is not None and depth > horizon:
        raise TreeError(f"the tree claims depth {depth}, more mistakes than the {horizon} rounds of the game allow")
    stack = [(tree["root"], _start(M, errors), 0, ())]
    while stack:
        node, b, level, path = stack.pop()
        if not _alive(b):
            raise TreeError(f"the path {_fmt(path)} is labelled within {errors} errors of no concept of the class")
        if not inner(node, level, depth, _POINT_KEYS, _POINT_NODE, f"after {_fmt(path)}"):
            continue
        j = point_of(node, M.shape[1], path)
        stack.append((node["1"], _step(M, b, j, 1), level + 1, path + ((j, 1),)))
        stack.append((node["0"], _step(M, b, j, 0), level + 1, path + ((j, 0),)))
    return depth


def verify_randomized_tree(cert: dict, C) -> Fraction:
    """Check a shattered tree of the randomized game (module docstring) and return its value, a proven
    lower bound of the game's value; TreeError if the tree is malformed, a node's point is not a move, or
    the value is below the certificate's claimed ``"value"``."""
    if not isinstance(cert, dict) or cert.get("kind") != "randomized-tree" or "root" not in cert:
        raise TreeError('a randomized tree is {"kind": "randomized-tree", "game": {...}, "value": v, "root": node}')
    from .rules import verify

    return verify(cert, C, within=frozenset({"randomized-tree"}))


def check_randomized_tree(cert: dict, C) -> Fraction:
    """The checker of the rule ``randomized-tree`` (:mod:`solvers.certificates.rules`):
    :func:`verify_randomized_tree` once its class is matched."""
    if "root" not in cert:
        raise TreeError('a randomized tree is {"kind": "randomized-tree", "game": {...}, "value": v, "root": node}')
    G = read_game(cert)
    if not G.randomized:
        raise TreeError('a randomized tree needs "game": {"game": "randomized", ...}')
    claim = read_number(cert.get("value"), "the claimed value")
    M = np.asarray(C.matrix, dtype=bool)
    value = _tree_value(cert["root"], M, G)
    if value < claim:
        raise TreeError(f"the tree is worth {_frac(value)}, less than the claimed {_frac(claim)}")
    return value


def random_walk_value(cert: dict) -> Fraction:
    """Half the average depth of the leaf a fair random walk from the root reaches ([FHMM23]); a
    repeat node counts as the one node it is shown as (use it on trees without repeat nodes)."""
    total = Fraction(0)
    stack = [(cert["root"], 0)]
    while stack:
        node, depth = stack.pop()
        if node is None:
            total += Fraction(depth, 1 << depth)
        elif "repeat" in node:
            stack.append((node["exit"], depth + 1))
        else:
            stack.append((node["0"], depth + 1))
            stack.append((node["1"], depth + 1))
    return total / 2


def _tree_value(root, M: np.ndarray, G: Game) -> Fraction:
    """Bottom-up value of a randomized tree, iteratively (post-order)."""
    k, T = G.errors, G.horizon
    n_points = M.shape[1]
    values: dict = {}
    stack = [(root, _start(M, k), 0, (), False, 0)]
    order = 0
    while stack:
        node, b, level, path, done, ident = stack.pop()
        if node is None:
            values[ident] = Fraction(0)
            continue
        if not isinstance(node, dict):
            raise TreeError(f"node after {_fmt(path)} is not null or an object")
        if T is not None and level >= T:
            raise TreeError(f"the tree is deeper than the horizon T = {T} (after {_fmt(path)})")
        repeat = "repeat" in node
        if repeat and set(node) != {"point", "repeat", "exit"} or not repeat and set(node) != {"point", "0", "1"}:
            raise TreeError(f'node after {_fmt(path)} is not {{"point": j, "0": ..., "1": ...}} '
                            f'or {{"point": j, "repeat": y0, "exit": ...}}')
        j = point_of(node, n_points, path)
        if done:
            if repeat:
                values[ident] = 1 + values.pop((ident, "exit"))
            else:
                a, c = values.pop((ident, 0)), values.pop((ident, 1))
                values[ident] = max(a, c, (1 + a + c) / 2)
            continue
        if repeat:
            y0 = node["repeat"]
            if y0 not in (0, 1) or isinstance(y0, bool):
                raise TreeError(f"the repeat node after {_fmt(path)} has repeat {_show(y0)}, not 0 or 1")
            if T is not None:
                raise TreeError(f"repeat node after {_fmt(path)}: a game with a horizon has no repeat nodes")
            if _is_loop(M, b, j) != y0:
                raise TreeError(f"repeat node after {_fmt(path)}: not every living concept says {y0} at point {j}")
            ex = _step(M, b, j, 1 - y0)
            if not _alive(ex):
                raise TreeError(f"repeat node after {_fmt(path)}: no budget is left for the label {1 - y0} at point {j}")
            stack.append((node, b, level, path, True, ident))
            order += 1
            stack.append((node["exit"], ex, level + 1, path + ((j, 1 - y0),), False, (ident, "exit")))
            continue
        b0, b1 = _step(M, b, j, 0), _step(M, b, j, 1)
        if not (_alive(b0) and _alive(b1)):
            raise TreeError(f"node after {_fmt(path)}: point {j} is not a move (a label there is not legal)")
        if T is None and (np.array_equal(b0, b) or np.array_equal(b1, b)):
            raise TreeError(f"node after {_fmt(path)}: a label at point {j} changes nothing; "
                            'write it as a repeat node {"point": j, "repeat": y0, "exit": ...}')
        stack.append((node, b, level, path, True, ident))
        stack.append((node["1"], b1, level + 1, path + ((j, 1),), False, (ident, 1)))
        stack.append((node["0"], b0, level + 1, path + ((j, 0),), False, (ident, 0)))
    return values[0]


# ---------------------------------------------------------------------------------------- upper bounds
def _cheap(b: np.ndarray, t, G: Game, opt_bound=None) -> Fraction:
    """The bound a state gets without an entry (module docstring)."""
    k = G.errors
    counts = _counts(b, k)
    n = sum(counts)
    if G.randomized:
        if k == 0:
            v = universal_rl(n) if opt_bound is None else rank_rl_bound(n, opt_bound)
        else:
            v = Fraction(volume_bound(counts))
        return v if t is None else min(v, Fraction(t, 2))
    v = Fraction(volume_bound(counts))
    return v if t is None else min(v, Fraction(t))


def _key(b: np.ndarray, t) -> tuple:
    return (np.clip(b, -1, None).astype(np.int16).tobytes(), t)


class _Orbits:
    """Names of states up to the renamings of the points that map the class onto itself, each merge of two
    states checked by the renaming it rests on (module docstring, "Up to symmetry")."""

    def __init__(self, sym, M: np.ndarray, k: int):
        m, n = M.shape
        generators(sym, M, complement=False)  # each a renaming of the points that maps the class onto itself
        igraph = load_igraph()
        self.M, self.m, self.n = M, m, n
        self.graph = igraph.Graph.Biadjacency(M.astype(np.int8))
        self.edges = np.array(self.graph.get_edgelist(), dtype=np.int64).reshape(-1, 2)
        self.points = [k + 2] * n
        self.reps: dict = {}  # name -> (budgets, canonical labels) of the first state seen with it
        self.known: dict = {}  # budgets (bytes) -> the name already checked for them

    def name(self, b: np.ndarray) -> tuple:
        """(name, the canonical label of every vertex) of the state with budgets b."""
        colours = (np.clip(b, -1, None) + 1).tolist() + self.points
        labels = canonical_labels(self.graph, colours)
        width = self.m + self.n
        out = np.empty(width, dtype=np.int16)
        out[labels] = colours
        e = labels[self.edges]
        form = np.sort(e.min(axis=1) * width + e.max(axis=1))
        return (form.tobytes(), out.tobytes()), labels

    def merge(self, b: np.ndarray, where: str) -> tuple:
        """The name of state b, after checking the renaming that maps it onto the first state of that name."""
        plain = np.clip(b, -1, None).astype(np.int16).tobytes()
        key = self.known.get(plain)
        if key is not None:
            return key
        key, labels = self.name(b)
        self.known[plain] = key
        rep = self.reps.get(key)
        if rep is None:
            self.reps[key] = (b, labels)
            return key
        b2, labels2 = rep
        if np.array_equal(b, b2):
            return key
        back = np.empty_like(labels2)
        back[labels2] = np.arange(len(labels2))
        phi = back[labels]  # vertex v of b's graph -> the vertex of b2's with the same canonical label
        m = self.m
        sigma, pi = phi[:m], phi[m:] - m
        if (not (np.sort(sigma) == np.arange(m)).all() or not (np.sort(pi) == np.arange(self.n)).all()
                or not np.array_equal(self.M[np.ix_(sigma, pi)], self.M)
                or not np.array_equal(np.clip(b2[sigma], -1, None), np.clip(b, -1, None))):
            raise TreeError(f"{where}: the canonical form names it like another state, but the relabelling between "
                            "them is not a renaming of the points that maps the class and the one state onto the other")
        return key


def verify_game_upper(proof: dict, C) -> Fraction:
    """Check an upper-bound certificate of a game (module docstring) from the matrix alone; return the
    bound (an int for the deterministic game, else a Fraction).

    Raises
    ------
    TreeError
        Saying which entry fails and why.
    """
    if not isinstance(proof, dict) or proof.get("kind") != "upper-bound":
        raise TreeError('an upper-bound certificate is {"kind": "upper-bound", "bound": u, "entries": [...]}')
    from .rules import GAME_UPPER, verify

    return verify(proof, C, within=GAME_UPPER)


def check_game_paths(proof: dict, C):
    """The checker of the rule ``game-paths`` (:mod:`solvers.certificates.rules`): :func:`verify_game_upper` of a
    certificate without a symmetry group, once its class is matched."""
    if "symmetry" in proof:
        raise TreeError('a certificate with a "symmetry" group follows the rule "game-orbit", not "game-paths"')
    return _check_game(proof, C)


def check_game_orbit(proof: dict, C):
    """The checker of the rule ``game-orbit``: :func:`verify_game_upper` of a certificate whose states stand for
    their orbits under the renamings of its ``"symmetry"``, once its class is matched."""
    if "symmetry" not in proof:
        raise TreeError('the rule "game-orbit" names states up to the renamings of "symmetry", and this certificate '
                        'gives none; give its "symmetry" or follow the rule "game-paths"')
    return _check_game(proof, C)


def _check_game(proof: dict, C):
    G = read_game(proof)
    u = read_number(proof.get("bound"), "bound")
    entries = entry_list(proof, '{"path": [[j, b], ...], "bound": h}')
    M = np.asarray(C.matrix, dtype=bool)
    m, n_points = M.shape
    k, T = G.errors, G.horizon
    opt_bound = None
    if "opt_bound" in proof:
        ob = proof["opt_bound"]
        if not (G.randomized and k == 0) or not isinstance(ob, dict) or not isinstance(ob.get("proof"), dict):
            raise TreeError('"opt_bound" is {"bound": d, "proof": an upper-bound certificate of Opt(C) <= d}, for '
                            "the randomized game without errors")
        opt_bound = verify_upper(ob["proof"], C)
        if ob.get("bound") != opt_bound:
            raise TreeError(f'"opt_bound" claims {_show(ob.get("bound"))} but its proof shows Opt(C) <= {opt_bound}')
    if not G.randomized and T is not None:
        if u >= T:
            return _out(u, G)
        T = None  # a smaller bound is a bound of the game without a horizon
        if k == 0:  # that is, of Opt(C): its certificate, checked as one (with its symmetries, if it has any)
            # (as a certificate of version 1, its dialect telling its rule: "symmetry" or none, as it always was)
            return _out(verify_upper({key: v for key, v in proof.items() if key not in ("game", "format", "rule")},
                                     C), G)
    orbits = _Orbits(proof["symmetry"], M, k) if "symmetry" in proof else None

    def name(b2, t2, where: str) -> tuple:
        """The claims' key of a state: its budgets, or (with a symmetry group) its orbit's checked name."""
        return _key(b2, t2) if orbits is None else (orbits.merge(b2, where), t2)

    claims: dict = {}
    states = []
    for i, e, h, path in path_entries(entries, point_step(n_points), claim_at_least_0("concept")):
        b = _start(M, k)
        for j, y in path:
            b = _step(M, b, j, y)
            if not _alive(b):
                raise TreeError(f"entry {i}'s path {_fmt(path)} is not legal: no concept is within {k} errors of it")
        t = None if T is None else T - len(path)
        if t is not None and t < 0:
            raise TreeError(f"entry {i}'s path is longer than the horizon T = {T}")
        key = name(b, t, f"entry {i}")
        claims[key] = min(h, claims.get(key, h))
        states.append((i, b, t, key))
    root = _start(M, k)
    if min(claims.get(name(root, T, "the root"), u + 1), _cheap(root, T, G, opt_bound)) > u:
        raise TreeError(f"no entry with the empty path claims {G.symbol}(C) <= {_frac(u)}, and the cheap bounds "
                        f"give only {_frac(_cheap(root, T, G, opt_bound))}")

    def claim(b2, t2, where: str) -> Fraction:
        c = _cheap(b2, t2, G, opt_bound)
        e2 = claims.get(name(b2, t2, where))
        return c if e2 is None or e2 > c else e2

    for i, b, t, key in states:
        h = claims[key]
        if _cheap(b, t, G, opt_bound) <= h:
            continue
        if t == 0:
            continue  # no rounds left: the value is 0
        t1 = None if t is None else t - 1
        where = f"entry {i} (path {_fmt(tuple(map(tuple, entries[i]['path'])))}, claim <= {_frac(h)})"
        for j in range(n_points):
            b0, b1 = _step(M, b, j, 0), _step(M, b, j, 1)
            if not (_alive(b0) and _alive(b1)):
                continue  # not a move: one label changes nothing, the other is not legal
            loop0, loop1 = np.array_equal(b0, b), np.array_equal(b1, b)
            if (loop0 or loop1) and (t is None or not G.randomized):
                ex = b1 if loop0 else b0
                c = claim(ex, t1, f"{where}, the exit of point {j}")
                if c + 1 > h:
                    raise TreeError(f"{where}: point {j} is a loop whose exit is bounded only by {_frac(c)}, "
                                    f"and 1 + {_frac(c)} > {_frac(h)}")
                continue
            c0, c1 = _cheap(b0, t1, G, opt_bound), _cheap(b1, t1, G, opt_bound)
            if (max(c0, c1, (1 + c0 + c1) / 2) <= h) if G.randomized else min(c0, c1) <= h - 1:
                continue  # the cheap bounds suffice (a claim is never above them)
            c0, c1 = claim(b0, t1, f"{where}, point {j} labelled 0"), claim(b1, t1, f"{where}, point {j} labelled 1")
            check_split(G, c0, c1, h, where, f"point {j} splits it into states")
    return _out(u, G)


def _out(u: Fraction, G: Game):
    return u if G.randomized else int(u) if u.denominator == 1 else u


def check_split(G: Game, c0, c1, h, where: str, what: str) -> None:
    """The step every upper-bound checker of the games takes at a claim "<= h" and one of its splits, whose
    two children are bounded by ``c0`` and ``c1``: in the randomized game f(c0, c1) = max(c0, c1,
    (1 + c0 + c1)/2) <= h (the learner's best randomized prediction, :mod:`solvers.game_rules`), else one
    child <= h - 1 (a mistake costs one). :class:`TreeError` names ``where`` and ``what`` split it was."""
    if G.randomized:
        v = max(c0, c1, (1 + c0 + c1) / 2)
        if v > h:
            raise TreeError(f"{where}: {what} bounded by {_frac(c0)} and {_frac(c1)}, and f of them is {_frac(v)} "
                            f"> {_frac(h)}")
    elif min(c0, c1) > h - 1:
        raise TreeError(f"{where}: {what} bounded by {_frac(c0)} and {_frac(c1)}, neither shown to be at most "
                        f"{_frac(h - 1)}")


def _frac(v) -> str:
    v = Fraction(v)
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
