"""Independent checkers for the certificates of the experts game (:mod:`solvers.opt.experts`), in count space.

The game is that of :mod:`solvers.game_rules` on the universal class of n dictators (concept i labels the
point x of {0,1}^n with x_i), with k label errors. These checkers use only count arithmetic -- a state is
m = (m_0, ..., m_k), m_j the living experts with budget exactly j; a move is a = (a_0, ..., a_k),
0 <= a_j <= m_j, the experts at each level saying 1; its children are

    label 1: c1_j = a_j + (m_{j+1} - a_{j+1}),     label 0: c0_j = (m_j - a_j) + a_{j+1}     (m_{k+1} = a_{k+1} = 0)

-- and the proven bounds of :mod:`solvers.game_rules` (:func:`~solvers.game_rules.volume_bound`,
:func:`~solvers.game_rules.universal_rl`), never the solver.

Why checking counts is sound
----------------------------
Renaming the experts by a permutation maps the points of {0,1}^n to points (permute the coordinates) and
keeps every rule of the game (legal labels, children, loops), so the value of a budget vector is the
value of every renamed one: it is a function of the counts m. At a state, a point x acts only through its
count vector a (the experts saying 1, level by level; a dead expert's advice changes nothing), and every
a with 0 <= a_j <= m_j comes from some point, because every advice vector is a point of {0,1}^n. So:

* a count-space adversary strategy (a tree of move vectors) is played on the dictators by showing, at
  each node, any point whose count vector is the node's a -- the labels, children and mistakes are the
  same -- so it forces what the tree claims on the class itself;
* an upper-bound entry checked against *every* count vector a of its state is checked against every
  point of the class at every budget vector with those counts.

Lower bounds: :func:`verify_experts_tree`
------------------------------------------
``{"kind": "experts-tree", "game": {"game": ..., "errors": k}, "experts": n, "value": v, "root": node}``,
a node being null (a leaf), ``{"move": [a_0..a_k], "0": node, "1": node}`` or (randomized only)
``{"move": [0, .., 0] or m, "repeat": y0, "exit": node}``.

* Deterministic: a complete mistake tree of depth v: every leaf at depth v, every label along every path
  legal (a living expert is left). The adversary that answers each node with the label the learner did not
  predict forces v mistakes, so D_k(n) >= v. A unanimous move (a = 0 or a = m) is allowed: its
  unanimous label leaves the state as it is.
* Randomized: the tree's value, bottom-up: 0 at a leaf, f(v_0, v_1) = max(v_0, v_1, (1 + v_0 + v_1)/2)
  at a split (a not unanimous), 1 + v_exit at a repeat node (every living expert says y0, a budget is left;
  the exit is the other label, which shifts every budget down). The adversary that answers the label worth
  more against the learner's probability gains at least f; at a repeat node it answers y0 while the
  learner's probability of predicting 1 - y0 is positive and flips once it is small enough, gaining
  1 + v_exit minus as little as it likes (:mod:`solvers.certificates.games`). So R_k(n) >= the value.

Upper bounds: :func:`verify_experts_upper`
-------------------------------------------
``{"kind": "experts-upper", "game": {...}, "experts": n, "bound": u, "entries": [{"path": [[[a_0..a_k], y],
...], "bound": h}, ...]}``. Each entry's path is replayed from (0, .., 0, n) (every step a legal label);
claim(s) is the smallest entry claim of s, or else its cheap bound: E(|s|) for the randomized game with
k = 0, the volume bound otherwise. At every entry whose cheap bound exceeds its claim h (h >= 0: a living
state is worth at least 0), for every count vector a of the state:

* a loop (a = 0 or a = m, when some budget is left): claim(shift) + 1 <= h;
* a split, deterministic: min(claim(c0), claim(c1)) <= h - 1; randomized: f(claim(c0), claim(c1)) <= h.

The value is max(0, 1 + v(shift) [loop], max over splits of g or f of the children) and the max(a, b) part
of g never wins (:mod:`solvers.game_rules`); children have a smaller potential sum_j (j + 1) m_j than their
state, so by induction on it every claim holds, and the root's claim (or cheap bound) proves u.

References
----------
.. [CFHHSW97] Cesa-Bianchi, Freund, Haussler, Helmbold, Schapire and Warmuth, "How to use expert advice",
   Journal of the ACM 44(3), 1997.
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).

Examples
--------
>>> leaf2 = {"move": [1, 0], "0": None, "1": None}          # at (2, 0): the experts disagree
>>> loop = {"move": [0, 0], "0": None, "1": None}           # at (0, 1): both say 0; label 1 costs the budget
>>> tree = {"kind": "experts-tree", "game": {"game": "deterministic", "errors": 1}, "experts": 2, "value": 3,
...         "root": {"move": [0, 1], "0": {"move": [1, 0], "0": loop, "1": leaf2},
...                                  "1": {"move": [1, 0], "0": loop, "1": leaf2}}}
>>> verify_experts_tree(tree)                 # two experts, one error: three mistakes
ProvenInt(3, claim="the experts game's value >= 3", rule='experts-tree')
>>> verify_experts_tree({"kind": "experts-tree", "game": {"game": "randomized", "errors": 1}, "experts": 1,
...                      "value": 1, "root": {"move": [0, 0], "repeat": 0, "exit": None}})
ProvenFraction(Fraction(1, 1), claim="the experts game's value >= 1", rule='experts-tree')
>>> verify_experts_upper({"kind": "experts-upper", "game": {"game": "randomized", "errors": 0}, "experts": 8,
...                       "bound": "3/2", "entries": []})     # E(8) = 3/2, the cheap bound itself
ProvenFraction(Fraction(3, 2), claim="the experts game's value <= 3/2", rule='experts')
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from ._reading import entry_list, path_entries
from .opt import TreeError, _show, inner
from .games import check_split, claim_at_least_0, read_game, read_number
from ..game_rules import Game, universal_rl, volume_bound

__all__ = ["verify_experts_tree", "verify_experts_upper", "check_experts_tree", "check_experts_upper", "MAX_CHECK_MOVES"]

#: The upper-bound checker looks at every move of every entry; past this many it refuses the certificate.
MAX_CHECK_MOVES = 50_000_000


# ---------------------------------------------------------------------------------------- the header
def _header(cert, kind: str) -> tuple[Game, int]:
    if not isinstance(cert, dict) or cert.get("kind") != kind:
        raise TreeError(f'an experts certificate here is a JSON object with "kind": "{kind}"')
    G = read_game(cert)
    if G.horizon is not None:
        raise TreeError('the experts certificates have no horizon; give "horizon": null')
    n = cert.get("experts")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise TreeError(f'"experts" {_show(n)} is not a number of experts >= 1')
    return G, n


# ---------------------------------------------------------------------------------------- count arithmetic
def _vector(v, m: tuple, where: str) -> tuple:
    """A move a of the state m read from JSON: k + 1 whole numbers 0 <= a_j <= m_j."""
    if (not isinstance(v, list) or len(v) != len(m)
            or any(isinstance(x, bool) or not isinstance(x, int) for x in v)):
        raise TreeError(f"{where}: the move {_show(v)} is not a list of {len(m)} whole numbers (a_0, ..., a_k)")
    if any(not 0 <= x <= mj for x, mj in zip(v, m)):
        raise TreeError(f"{where}: the move {_show(v)} is not between 0 and the state's counts {list(m)}")
    return tuple(v)


def _child(m: tuple, a: tuple, y: int) -> tuple:
    K = len(m)
    if y:
        return tuple(a[j] + (m[j + 1] - a[j + 1] if j + 1 < K else 0) for j in range(K))
    return tuple(m[j] - a[j] + (a[j + 1] if j + 1 < K else 0) for j in range(K))


def _where(path) -> str:
    if not path:
        return "the root"
    steps = [f"{list(a)}->{y}" for a, y in path]
    if len(steps) > 8:
        steps = steps[:5] + [f"... ({len(steps)} steps) ..."] + steps[-2:]
    return "after " + " ".join(steps)


def _cheap(m: tuple, G: Game) -> Fraction:
    """The bound a state gets without an entry (module docstring)."""
    if G.randomized and G.errors == 0:
        return universal_rl(sum(m))
    return Fraction(volume_bound(m))


def _f(a, b):
    return max(a, b, (1 + a + b) / 2)


def _frac(v) -> str:
    v = Fraction(v)
    return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"


# ---------------------------------------------------------------------------------------- lower bounds
def verify_experts_tree(cert) -> object:
    """Check a tree of moves (module docstring) from count arithmetic alone; return the proven lower bound
    (an int for the deterministic game, a Fraction for the randomized one).

    Raises
    ------
    TreeError
        Saying what is wrong: a malformed node, an illegal move or label, a leaf at the wrong depth, a
        value below the claim.
    """
    from .rules import verify

    _header(cert, "experts-tree")
    return verify(cert, within=frozenset({"experts-tree"}))


def check_experts_tree(cert, C=None) -> object:
    """The checker of the rule ``experts-tree`` (:mod:`solvers.certificates.rules`): :func:`verify_experts_tree`."""
    G, n = _header(cert, "experts-tree")
    if "root" not in cert:
        raise TreeError('the tree has no "root"')
    k = G.errors
    root_state = (0,) * k + (n,)
    claim = read_number(cert.get("value"), "the claimed value")
    if not G.randomized:
        if claim.denominator != 1 or claim < 0:
            raise TreeError(f"the claimed depth {_frac(claim)} is not a whole number >= 0")
        depth = int(claim)
        most = volume_bound(root_state)
        if depth > most:
            raise TreeError(f"the tree claims depth {depth}, more than the volume bound {most} of {n} experts with "
                            f"{k} errors allows")
        _check_mistake_tree(cert["root"], root_state, depth)
        return depth
    value = _randomized_value(cert["root"], root_state)
    if value < claim:
        raise TreeError(f"the tree is worth {_frac(value)}, less than the claimed {_frac(claim)}")
    return value


def _check_mistake_tree(root, start: tuple, depth: int) -> None:
    stack = [(root, start, 0, ())]
    while stack:
        node, m, level, path = stack.pop()
        if not inner(node, level, depth, {"move", "0", "1"}, '{"move": [a_0, ..., a_k], "0": ..., "1": ...}',
                     _where(path)):
            continue
        a = _vector(node["move"], m, f"the node {_where(path)}")
        for y in (1, 0):
            c = _child(m, a, y)
            if not any(c):
                raise TreeError(f"the node {_where(path)}: label {y} of the move {list(a)} leaves no expert within "
                                "its errors (not a legal label)")
            stack.append((node[str(y)], c, level + 1, path + ((a, y),)))


def _randomized_value(root, start: tuple) -> Fraction:
    """Bottom-up value of a randomized tree, iteratively (post-order)."""
    values: dict = {}
    stack = [(root, start, (), False, 0)]
    while stack:
        node, m, path, done, ident = stack.pop()
        if node is None:
            values[ident] = Fraction(0)
            continue
        repeat = isinstance(node, dict) and "repeat" in node
        if (not isinstance(node, dict) or repeat and set(node) != {"move", "repeat", "exit"}
                or not repeat and set(node) != {"move", "0", "1"}):
            raise TreeError(f'the node {_where(path)} is not null, {{"move": a, "0": ..., "1": ...}} or '
                            '{"move": a, "repeat": y0, "exit": ...}')
        if done:
            if repeat:
                values[ident] = 1 + values.pop((ident, "exit"))
            else:
                a0, a1 = values.pop((ident, 0)), values.pop((ident, 1))
                values[ident] = _f(a0, a1)
            continue
        where = f"the node {_where(path)}"
        a = _vector(node["move"], m, where)
        unanimous = 0 if not any(a) else 1 if a == m else None
        if repeat:
            y0 = node["repeat"]
            if isinstance(y0, bool) or y0 not in (0, 1):
                raise TreeError(f"{where}: repeat {_show(y0)} is not 0 or 1")
            if unanimous != y0:
                raise TreeError(f"{where}: the move {list(a)} does not have every living expert say {y0} "
                                f"(give [0, ..., 0] for 0 or the state {list(m)} for 1)")
            ex = _child(m, a, 1 - y0)
            if not any(ex):
                raise TreeError(f"{where}: no budget is left for the label {1 - y0} (the loop has no exit)")
            stack.append((node, m, path, True, ident))
            stack.append((node["exit"], ex, path + ((a, 1 - y0),), False, (ident, "exit")))
            continue
        if unanimous is not None:
            raise TreeError(f"{where}: every living expert says {unanimous} at the move {list(a)}; write it as a "
                            'repeat node {"move": a, "repeat": y0, "exit": ...}')
        stack.append((node, m, path, True, ident))
        stack.append((node["1"], _child(m, a, 1), path + ((a, 1),), False, (ident, 1)))
        stack.append((node["0"], _child(m, a, 0), path + ((a, 0),), False, (ident, 0)))
    return values[0]


# ---------------------------------------------------------------------------------------- upper bounds
def verify_experts_upper(cert) -> object:
    """Check an upper-bound certificate (module docstring) from count arithmetic alone; return the bound
    (an int for the deterministic game, a Fraction for the randomized one).

    Raises
    ------
    TreeError
        Saying which entry fails and why (or that the certificate is malformed or too large to check).
    """
    from .rules import verify

    _header(cert, "experts-upper")
    return verify(cert, within=frozenset({"experts"}))


def _move_step(s, i: int) -> tuple:
    """A step ``[[a_0, ..., a_k], y]`` of an entry's path (the move read against its state by :func:`_vector`)."""
    if type(s) is not list or len(s) != 2 or type(s[1]) is not int or s[1] not in (0, 1):
        raise TreeError(f"entry {i} has the path step {_show(s)}; give [[a_0, ..., a_k], 0 or 1]")
    return s[0], s[1]


def check_experts_upper(cert, C=None) -> object:
    """The checker of the rule ``experts`` (:mod:`solvers.certificates.rules`): :func:`verify_experts_upper`."""
    G, n = _header(cert, "experts-upper")
    k = G.errors
    K = k + 1
    u = read_number(cert.get("bound"), "bound")
    form = '{"path": [[[a_0, ..., a_k], y], ...], "bound": h}'
    entries = entry_list(cert, form)
    root = (0,) * k + (n,)
    claims: dict = {}
    states = []
    work = 0
    for i, _, h, steps in path_entries(entries, _move_step, claim_at_least_0("expert"), form):
        m, path = root, ()
        for move, y in steps:
            a = _vector(move, m, f"entry {i}, {_where(path)}")
            c = _child(m, a, y)
            if not any(c):
                raise TreeError(f"entry {i}'s path is not legal: label {y} of the move {list(a)} "
                                f"{_where(path)} leaves no expert")
            m, path = c, path + ((a, y),)
        claims[m] = min(h, claims.get(m, h))
        states.append((i, m, path))
        size = 1
        for x in m:
            size *= x + 1
        work += size
        if work > MAX_CHECK_MOVES:
            raise TreeError(f"the certificate asks for more than {MAX_CHECK_MOVES:,} moves to be checked; "
                            "give a certificate for a smaller n")
    cheap_root = _cheap(root, G)
    if min(claims.get(root, cheap_root), cheap_root) > u:
        raise TreeError(f"no entry with the empty path claims {G.symbol}({n} experts) <= {_frac(u)}, and the cheap "
                        f"bound gives only {_frac(cheap_root)}")

    def claim(s: tuple) -> Fraction:
        c = _cheap(s, G)
        e2 = claims.get(s)
        return c if e2 is None or e2 > c else e2

    done = set()
    for i, m, path in states:
        h = claims[m]
        if m in done or _cheap(m, G) <= h:
            continue
        done.add(m)
        where = f"entry {i} ({_where(path)}, state {list(m)}, claim <= {_frac(h)})"
        if any(m[1:]):  # the loop
            c = claim(m[1:] + (0,))
            if c + 1 > h:
                raise TreeError(f"{where}: the loop's exit is bounded only by {_frac(c)}, and 1 + {_frac(c)} > {_frac(h)}")
        zero = (0,) * K
        for a in itertools.product(*(range(x + 1) for x in m)):
            if a == zero or a == m:
                continue
            c0, c1 = claim(_child(m, a, 0)), claim(_child(m, a, 1))
            check_split(G, c0, c1, h, where, f"the move {list(a)} has children")
    return u if G.randomized else (int(u) if u.denominator == 1 else u)
