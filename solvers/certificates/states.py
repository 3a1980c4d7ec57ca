"""Upper-bound certificates over compact states, and their checker: intervals on {1..N}, any N.

An upper-bound certificate of :mod:`solvers.certificates` names each version space by a labelled path and
is checked against every point of the class: for intervals N = 5000 (12.5 million concepts, 5000 points)
that is too slow. When the Halving bound does not settle Opt at the root,
:meth:`solvers.opt.intervals.IntervalSolver.upper_proof` writes instead::

    {"kind": "upper-bound-states", "family": "intervals", "params": {"N": N, "empty": e},
     "bound": u, "entries": [{"segments": [L1, L2, ...], "bound": h}, ...]}

Each entry claims Opt <= h for the version space left when no positive example has been seen and the
points not yet labelled 0 form free segments of lengths L1, L2, ... (as a multiset). :func:`verify_state_upper`
recomputes everything from the definition of the class, not from the solver: the number of concepts of
a state (the empty concept if ``empty=1``, and L (L + 1) / 2 intervals per segment), and for *every*
point -- the p-th of a segment of length L, p = 1..L -- its two sides:

* labelled 1: the intervals [a, b] with a among the p points up to it and b among the L + 1 - p from it,
  two independent chains of thresholds, worth floor(log2 p) + floor(log2(L + 1 - p));
* labelled 0: the segment cut into lengths p - 1 and L - p (a point whose 0-side is empty splits nothing).

An entry is valid when the state has fewer than 2^(h+1) concepts (Halving, [OnlineAlgs]) or, for every
point, one side is worth at most h - 1: the 1-side by the formula above, the 0-side by having fewer
than 2^h concepts or by an entry claiming at most h - 1. By [Rivest94]'s recurrence and induction every
claim is then true. The checker relies on three proven facts, stated and proven in
:mod:`solvers.opt.intervals` (Lemmas 1-3) and tested there against the generic solver and the brute force:
a chain of m thresholds has Opt floor(log2 m); Opt of a product of classes on disjoint points is the sum;
and Opt of a state depends only on the multiset of its segment lengths (renaming points). It needs no
matrix and never calls the solver.

Which certificates need these facts: none, where the Halving bound settles the root (thresholds, any N;
intervals whenever Opt = floor(log2 |C|), e.g. N = 1000); those of kind ``upper-bound-states`` do.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)

Examples
--------
>>> from solvers.classes.evaluated import EvaluatedClass
>>> C = EvaluatedClass("intervals", {"N": 5})
>>> proof = {"kind": "upper-bound-states", "family": "intervals", "params": {"N": 5, "empty": 1}, "bound": 3,
...          "entries": [{"segments": [5], "bound": 3}, {"segments": [3, 1], "bound": 2},
...                      {"segments": [1, 1, 1], "bound": 1}]}
>>> verify_state_upper(proof, C)
ProvenInt(3, claim='Opt(C) <= 3', rule='states')
>>> proof["bound"] = proof["entries"][0]["bound"] = 2
>>> verify_state_upper(proof, C)  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
solvers._errors.TreeError: entry 0 (segments [5], Opt <= 2): point 1 of the segment of length 5 leaves 1 x 5 intervals on its 1-side (worth 2) and 11 concepts on its 0-side (segments [4]), and neither is shown to be worth at most 1
"""

from __future__ import annotations

from ._reading import entry_list
from .opt import TreeError, _show, whole

__all__ = ["verify_state_upper", "check_states"]


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def verify_state_upper(proof: dict, C) -> int:
    """Check a certificate ``Opt(C) <= u`` over states (module docstring) against the class ``C`` that
    ``make`` or :class:`~solvers.classes.evaluated.EvaluatedClass` builds; return ``u``.

    Raises
    ------
    TreeError
        One line: malformed, for another class, or an entry that does not hold.
    """
    if not isinstance(proof, dict) or proof.get("kind") != "upper-bound-states":
        raise TreeError('a state certificate is {"kind": "upper-bound-states", "family": ..., "params": ..., '
                        '"bound": u, "entries": [...]}')
    from .rules import verify

    return verify(proof, C, within=frozenset({"states"}))


def check_states(proof: dict, C) -> int:
    """The checker of the rule ``states`` (:mod:`solvers.certificates.rules`): :func:`verify_state_upper` once its
    class is matched."""
    if proof.get("family") == "rectangles":
        from .rectangles import check_rectangles

        return check_rectangles(proof, C)
    if proof.get("family") != "intervals":
        raise TreeError(f"a state certificate is written for intervals or rectangles, not for "
                        f"{_show(proof.get('family'))}")
    family, params = getattr(C, "family", None), dict(getattr(C, "params", {}) or {})
    if family != "intervals":
        raise TreeError(f"the certificate is for intervals {_params(proof.get('params'))}, and the class given is "
                        f"{'not made by a family' if family is None else family}; give 'intervals' with its parameters")
    if proof.get("params") != params:
        raise TreeError(f"the certificate is for intervals {_params(proof.get('params'))}, and the class given is "
                        f"intervals {_params(params)}")
    N, empty = params["N"], params["empty"]
    u = whole(proof.get("bound"), "bound")
    entries = entry_list(proof, '{"segments": [L, ...], "bound": h}')

    def size(S) -> int:
        return empty + sum(L * (L + 1) // 2 for L in S)

    claims: dict[tuple, int] = {}
    states = []
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or set(e) != {"segments", "bound"}:
            raise TreeError(f'entry {i} is not {{"segments": [L, ...], "bound": h}}')
        S, h = e["segments"], e["bound"]
        if not _whole(h):
            raise TreeError(f"entry {i} claims bound {_show(h)}, not a whole number >= 0")
        if not isinstance(S, list) or not all(_whole(L) and L >= 1 for L in S):
            raise TreeError(f"entry {i} has segments {_show(S)}; give a list of lengths >= 1")
        if S and sum(S) + len(S) - 1 > N:
            raise TreeError(f"entry {i} has segments {_show(S)}: they do not fit on {{1..{N}}} with a point "
                            "labelled 0 between each two")
        key = tuple(sorted(S, reverse=True))
        claims[key] = min(h, claims.get(key, h))
        states.append((i, key, h))
    if size((N,)).bit_length() > u + 1 and claims.get((N,), u + 1) > u:
        raise TreeError(f"no entry with the segments [{N}] (the whole line) claims Opt(C) <= {u}")
    for i, S, h in states:
        n = size(S)
        if n.bit_length() <= h + 1:  # n < 2^(h+1): Halving
            continue
        if h == 0:
            raise TreeError(f"entry {i} claims Opt <= 0 for {n} concepts")
        for k, L in enumerate(S):
            if k and S[k - 1] == L:
                continue  # the same length: the same children
            rest = list(S[:k] + S[k + 1:])
            for p in range(1, L + 1):
                q = L + 1 - p
                ones = (p.bit_length() - 1) + (q.bit_length() - 1)
                if ones <= h - 1:
                    continue
                zero = tuple(sorted(rest + [v for v in (p - 1, L - p) if v], reverse=True))
                z = size(zero)
                if z == 0 or z.bit_length() <= h or claims.get(zero, h) <= h - 1:
                    continue  # splits nothing; fewer than 2^h concepts; or a claim of at most h - 1
                raise TreeError(
                    f"entry {i} (segments {list(S)}, Opt <= {h}): point {p} of the segment of length {L} leaves "
                    f"{p} x {q} intervals on its 1-side (worth {ones}) and {z} concepts on its 0-side (segments "
                    f"{list(zero)}), and neither is shown to be worth at most {h - 1}")
    return u


def _params(params) -> str:
    if not isinstance(params, dict):
        return _show(params)
    return " ".join(f"{k}={_show(v)}" for k, v in params.items())
