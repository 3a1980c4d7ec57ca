"""Implicit classes: concepts listed, domain not. {0,1}^n families for n far beyond enumeration.

Winnow's promise is attribute efficiency ([Rivest94], section 2.4; [15-859B],
section "Winnow algorithm"): O(r log n) mistakes for an OR of r of n variables, "a small penalty for
throwing lots of features at the problem". Testing that promise needs n = 16, 32, 64, where the domain
{0,1}^n (2^n points) cannot be enumerated, but the class can: an OR of at most 2 of 32 variables is one
of 529 formulas. An :class:`ImplicitFamily` is such a class. It lists its concepts (in the row order of
:func:`solvers.classes.families.make`, through :func:`~solvers.classes.families.literal_form`), evaluates any concept on
any 0/1 vector, keeps version spaces as bitsets over its concepts like a
:class:`~solvers.classes.finite.ConceptClass`, and proposes *informative points* built from the
concepts' literals (points that satisfy or falsify a chosen concept over a sparse or dense background,
single variables, complements), since a search cannot try every point.

It implements the class protocol of :mod:`solvers.classes.protocol` with ``finite`` False. The class
spec codec (:func:`solvers.classes.spec.load_class`) loads a family with a literal form implicitly when its domain has
more than ``IMPLICIT_ABOVE`` points (``prefers_implicit``); the witness format does not change
(``"class": {"family": "monotone-disjunctions", "params": {"n": 32, "k": 2}}``), points are 0/1 lists
of length n, and the target is a concept index in the family's row order, which the witness must give.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"

Examples
--------
>>> F = ImplicitFamily("monotone-disjunctions", {"n": 32, "k": 2})
>>> F.n_concepts, F.n, F.names[17]
(529, 32, 'x26 v x31')
>>> x = (1,) + (0,) * 31
>>> F.label(F.n_concepts - 1, x), F.label(17, x)       # x0 v x1 holds, x26 v x31 does not
(1, 0)
>>> V0, V1 = F.split(F.full, x)
>>> bin(V1).count("1"), F.consistent([(x, 0)]).bit_count()   # 32 concepts hold x0; 497 do not
(32, 497)
"""

from __future__ import annotations

from typing import Iterable, Optional

import numpy as np

from .. import numbers
from . import families
from .finite import concept_index

__all__ = ["IMPLICIT_ABOVE", "ImplicitFamily", "has_implicit_form", "prefers_implicit"]

#: A family with a literal form is loaded implicitly when its domain has more than this many points.
IMPLICIT_ABOVE = 2**12

# Background densities of proposed points: empty, a few variables, a fraction of them, nearly all.
_DENSITIES = ("zero", "one", "two", 0.1, 0.25, 0.5, 0.75, 0.9, "all")


def has_implicit_form(name) -> bool:
    """Whether family ``name`` can be loaded implicitly (it has a literal form)."""
    return isinstance(name, str) and name in families.LITERAL_FAMILIES


def prefers_implicit(name, params: dict) -> bool:
    """True when family ``name`` has a literal form and its domain has more than ``IMPLICIT_ABOVE``
    points (``make`` would build a needlessly large matrix, or refuse it).

    Bad parameters raise ValueError with ``make``'s one-line message.

    Examples
    --------
    >>> prefers_implicit("monotone-disjunctions", {"n": 12, "k": 2}), prefers_implicit("monotone-disjunctions", {"n": 13, "k": 2})
    (False, True)
    """
    if not has_implicit_form(name):
        return False
    full = families.resolve_params(name, params, limits=False)
    return families.FAMILIES[name].n_points(full) > IMPLICIT_ABOVE


class _Names:
    """The concepts' names as formulas, computed on demand (``names[c]``)."""

    def __init__(self, form):
        self._form = form

    def __len__(self) -> int:
        return len(self._form)

    def __getitem__(self, c: int) -> str:
        return self._form.name(int(c))


class ImplicitFamily:
    """A {0,1}^n family listed by its concepts, for n too large to enumerate the domain.

    Parameters
    ----------
    family : str
        A family with a literal form (``solvers.classes.families.LITERAL_FAMILIES``): monotone-disjunctions,
        disjunctions, monotone-conjunctions, conjunctions, parities, k-of-r.
    params : dict
        Its parameters (defaults filled in as ``make`` does).

    Raises
    ------
    ValueError
        One line: no literal form, bad parameters, or more than ``MAX_LITERAL_CONCEPTS`` concepts.

    Notes
    -----
    Concept ``c`` is row ``c`` of ``make(family, **params)`` (whenever that can be built), so a witness's
    target index means the same concept in both forms. A version space is an int bitset over the
    concepts (bit c set while concept c is consistent), as for a ConceptClass; a point is its own key
    (``index_of(x)`` returns the point as a tuple of ints), and ``split(V, x)`` takes that key. The
    columns of the points seen are cached (up to ``cache_size`` of them) by this object.
    """

    def __init__(self, family: str, params: Optional[dict] = None, *, cache_size: int = 1 << 15):
        self.form = families.literal_form(family, **dict(params or {}))
        self.family = family
        self.params = dict(self.form.params)
        self.n = self.form.n
        self._cache: dict = {}
        self._cache_size = cache_size
        self._literals: dict = {}

    # ------------------------------------------------------------------ the class
    #: The 2^n points are not listed (the class protocol's ``finite``).
    finite = False

    @property
    def facts(self):
        """What the concepts are: the family's facts (see :mod:`solvers.classes.protocol`)."""
        from types import MappingProxyType

        return MappingProxyType(families.family_facts(self.family, self.params))

    @property
    def n_concepts(self) -> int:
        return len(self.form)

    def __len__(self) -> int:
        return len(self.form)

    @property
    def n_points(self) -> int:
        """|X| = 2^n (never enumerated)."""
        return 2**self.n

    def log2_size(self) -> int:
        """floor(log2 |C|): the Halving bound on Opt(C) ([Rivest94])."""
        return self.n_concepts.bit_length() - 1

    @property
    def full(self) -> int:
        """The bitset of all concepts: the first version space."""
        return (1 << self.n_concepts) - 1

    @property
    def names(self) -> _Names:
        """``names[c]``: concept c as a formula (``x3 v x7``)."""
        return _Names(self.form)

    def __str__(self) -> str:
        shown = " ".join(f"{k}={v}" for k, v in self.params.items())
        return f"{self.family} {shown} (implicit: {self.n_concepts} concepts on {{0,1}}^{self.n})"

    def __repr__(self) -> str:
        return f"<ImplicitFamily {self.family} {self.params}: {self.n_concepts} concepts on {{0,1}}^{self.n}>"

    def __eq__(self, other) -> bool:
        if not isinstance(other, ImplicitFamily):
            return NotImplemented
        return (self.family, self.params) == (other.family, other.params)

    def __hash__(self) -> int:
        return hash((self.family, tuple(sorted(self.params.items()))))

    # ------------------------------------------------------------------ points and labels
    def point(self, x) -> tuple:
        """``x`` as a tuple of n ints 0/1; ValueError (one line) when it is not a point of {0,1}^n."""
        if isinstance(x, np.ndarray):
            x = x.tolist()
        if not isinstance(x, (list, tuple)):
            raise ValueError(f"point {x!r} is not a list of {self.n} 0/1 values")
        if len(x) != self.n:
            raise ValueError(f"point has {len(x)} coordinates; {self.family} n={self.n} takes {self.n}")
        out = []
        for v in x:
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or v not in (0, 1):
                raise ValueError(f"point has the coordinate {v!r}; coordinates of {{0,1}}^{self.n} are 0 or 1")
            out.append(int(v))
        return tuple(out)

    def index_of(self, x) -> tuple:
        """The key of point ``x``: the point itself (the domain is not enumerated)."""
        return self.point(x)

    def labels(self, x) -> np.ndarray:
        """Every concept's label of ``x`` (a bool array over the concepts)."""
        return self.form.labels(self.point(x))

    def column(self, x) -> int:
        """The bitset of the concepts that label ``x`` with 1 (cached)."""
        key = x if type(x) is tuple else self.point(x)
        col = self._cache.get(key)
        if col is None:
            bits = self.form.labels(key)
            col = int.from_bytes(np.packbits(bits, bitorder="little").tobytes(), "little")
            if len(self._cache) >= self._cache_size:
                self._cache.clear()
            self._cache[key] = col
        return col

    def label(self, c: int, x) -> int:
        """The label concept ``c`` gives ``x``."""
        return (self.column(x) >> int(c)) & 1

    def evaluate(self, c: int, x) -> int:
        """The label concept ``c`` gives ``x``, evaluated from its literals alone (no cache)."""
        P, N = self.literals(c)
        x = self.point(x)
        rule, form = self.form.rule, self.form
        if rule == "or":
            return int(any(x[i] for i in P) or any(not x[i] for i in N))
        if rule == "and":
            return int(all(x[i] for i in P) and all(not x[i] for i in N))
        on = sum(x[i] for i in P)
        return int(on % 2 == 1) if rule == "xor" else int(on >= form.k)

    # ------------------------------------------------------------------ version spaces
    def split(self, V: int, x) -> tuple[int, int]:
        """(V_x^0, V_x^1): the concepts of V that label ``x`` 0, and 1."""
        V1 = V & self.column(x)
        return V ^ V1, V1

    def consistent(self, examples: Iterable, V: Optional[int] = None) -> int:
        """The bitset of the concepts (of V, default all) that label every example as given."""
        V = self.full if V is None else V
        for x, y in examples:
            V0, V1 = self.split(V, x)
            V = V1 if y else V0
        return V

    def members(self, V: int) -> np.ndarray:
        """The concept indices in bitset ``V``, increasing, as an int array."""
        if not V:
            return np.zeros(0, dtype=np.int64)
        raw = np.frombuffer(V.to_bytes((V.bit_length() + 7) // 8, "little"), dtype=np.uint8)
        return np.flatnonzero(np.unpackbits(raw, bitorder="little"))

    def concepts_of(self, V: int) -> list[int]:
        """The concept indices in bitset ``V``, increasing."""
        return self.members(V).tolist()

    def check_target(self, examples, target=None, *, exact: bool = False, errors: int = 0) -> int:
        """The target of an implicit class: required, a concept index, and it labels every example
        (evaluated from the concept's literals, independently of the search's caches); ValueError (one
        line) otherwise. ``exact`` is ignored (labels are exact); label errors (``errors`` > 0) are not
        supported on a class whose points are not listed."""
        if errors:
            raise ValueError(f"label errors (errors={errors}) need a finite class listed point by point, "
                             f"and {self} is too large to list; lower n (or give errors=0)")
        if target is None:
            raise ValueError(f'malformed witness: a witness on {self} needs "target": a concept index '
                             f"(0..{self.n_concepts - 1}, in the family's row order)")
        c = concept_index(target, self.n_concepts)
        for t, (x, y) in enumerate(examples, 1):
            label = self.evaluate(c, x)
            if label != y:
                raise ValueError(f"target concept {c} ({self.names[c]}) labels example {t} "
                                 f"(x = {numbers.point_text(x)}) {label}, not {y}")
        return c

    def concept_text(self, c: int) -> str:
        """Concept ``c`` as a formula (``x3 v x7``)."""
        return self.names[c]

    def to_spec(self) -> dict:
        """The JSON class spec: ``{"family", "params"}`` (every parameter, defaults included)."""
        return {"family": self.family, "params": dict(self.params)}

    def fingerprint(self) -> str:
        """The class's fingerprint: of its family and parameters (:func:`~solvers.classes.protocol.spec_fingerprint`)."""
        from .protocol import spec_fingerprint

        return spec_fingerprint(self.to_spec())

    @classmethod
    def from_spec(cls, spec) -> "ImplicitFamily":
        """The implicit class of a ``{"family", "params"}`` spec (any n the concepts allow)."""
        if not isinstance(spec, dict) or "family" not in spec:
            raise ValueError('an implicit class spec is {"family": NAME, "params": {...}}')
        return cls(spec["family"], spec.get("params") or {})

    def literals(self, c: int) -> tuple[list[int], list[int]]:
        """(P_c, N_c): the variables of concept c's positive and negative literals."""
        c = int(c)
        lit = self._literals.get(c)
        if lit is None:
            if len(self._literals) >= self._cache_size:
                self._literals.clear()
            lit = self._literals[c] = self.form.literals(c)
        return lit

    # ------------------------------------------------------------------ informative points
    def satisfying(self, c: int, rng: np.random.Generator, density=0.0) -> tuple:
        """A point concept ``c`` labels 1, over a random background of the given density."""
        x = self._background(rng, density)
        P, N = self.literals(c)
        self._set(x, c, P, N, rng, want=1)
        return tuple(x)

    def falsifying(self, c: int, rng: np.random.Generator, density=0.0) -> tuple:
        """A point concept ``c`` labels 0, over a random background of the given density."""
        x = self._background(rng, density)
        P, N = self.literals(c)
        self._set(x, c, P, N, rng, want=0)
        return tuple(x)

    def proposals(self, rng: np.random.Generator, V: Optional[int] = None, count: int = 64) -> list[tuple]:
        """About ``count`` distinct informative points for the version space ``V`` (default: all).

        A mix of: the all-0 and all-1 points; single variables e_i and their complements; and, for
        random concepts c of V, points that satisfy c and points that falsify it, over backgrounds of
        every density from empty to full (so both the sparse points that split V and the dense ones
        that push a linear learner over its threshold are there). Deterministic for a given ``rng``.
        """
        V = self.full if V is None else V
        members = self.members(V)
        out: dict = {}
        n = self.n

        def add(x):
            out.setdefault(tuple(int(v) for v in x), None)

        add((0,) * n)
        add((1,) * n)
        for i in rng.choice(n, size=min(n, max(1, count // 8)), replace=False).tolist():
            add(tuple(int(j == i) for j in range(n)))
            add(tuple(int(j != i) for j in range(n)))
        tries = 0
        while len(out) < count and tries < 4 * count:
            tries += 1
            c = int(members[rng.integers(len(members))]) if len(members) else int(rng.integers(self.n_concepts))
            density = _DENSITIES[int(rng.integers(len(_DENSITIES)))]
            add(self.satisfying(c, rng, density) if rng.random() < 0.5 else self.falsifying(c, rng, density))
        return list(out)

    def _background(self, rng, density) -> list:
        n = self.n
        if density == "zero":
            return [0] * n
        if density == "all":
            return [1] * n
        if density in ("one", "two"):
            x = [0] * n
            for i in rng.choice(n, size=min(n, 1 if density == "one" else 2), replace=False).tolist():
                x[i] = 1
            return x
        return (rng.random(n) < density).astype(int).tolist()

    def _set(self, x: list, c: int, P, N, rng, want: int) -> None:
        """Set the literals of concept c in x so that c labels x ``want``."""
        rule = self.form.rule
        lits = [(i, 1) for i in P] + [(i, 0) for i in N]  # (variable, the value that makes the literal true)
        if rule == "xor":
            if P and sum(x[i] for i in P) % 2 != want:
                i = P[int(rng.integers(len(P)))]
                x[i] = 1 - x[i]
            return
        if rule == "at-least":
            k = self.form.k
            on = k if want else k - 1
            chosen = set(rng.choice(len(P), size=min(on, len(P)), replace=False).tolist()) if P else set()
            for j, i in enumerate(P):
                x[i] = int(j in chosen)
            return
        # "or": 1 = some literal true, 0 = all false; "and": 1 = all true, 0 = some false.
        some_true = (rule == "or") == bool(want)
        if not lits:
            return
        if some_true and rule == "or":
            i, v = lits[int(rng.integers(len(lits)))]
            x[i] = v
        elif rule == "or":
            for i, v in lits:
                x[i] = 1 - v
        elif want:  # and, 1
            for i, v in lits:
                x[i] = v
        else:  # and, 0: all true but one (a contradictory "false" row is 0 anyway)
            for i, v in lits:
                x[i] = v
            i, v = lits[int(rng.integers(len(lits)))]
            x[i] = 1 - v

