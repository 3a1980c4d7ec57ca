"""Finite concept classes: finite sets of 0/1 functions on a finite domain, listed point by point.

A concept class C is stored as a boolean matrix of shape (concepts, points): ``matrix[c, j]`` is the
label concept ``c`` gives to point ``j``. [Rivest94] calls the set of concepts
consistent with the examples so far the *version space*; here a version space is an integer bitset over
concept indices (bit ``c`` set when concept ``c`` is still consistent), and ``split(V, x)`` gives the two
version spaces (V_x^0, V_x^1) that the two possible labels of point ``x`` leave (``split_index(V, j)``
for the point of column ``j``, in the solvers' hot loops). :class:`ConceptClass` implements the class
protocol of :mod:`solvers.classes.protocol`.

A class is a *set* of functions: duplicate rows are merged on construction, keeping the first
occurrence, so ``len(C)`` is the number of distinct functions.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [FHMM23] Filmus, Hanneke, Mehalel and Moran, "Optimal prediction using expert advice and randomized
   Littlestone dimension", COLT 2023 (arXiv 2302.13849).
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

import csv
import functools
import json
import os
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence, Union

import numpy as np

from ..files import load_npy
from ..jsontext import loads
from ..numbers import bit_positions, point_text

if TYPE_CHECKING:
    from .automorphisms import Detection
    from .symmetry import Symmetry

__all__ = ["ConceptClass", "row_keys", "splits_of", "PointLike", "Example"]

#: A point as the class takes it: a tuple (or list) of ints, an int (``3`` is ``(3,)``) or a 1-d integer array.
PointLike = Union[Sequence[int], int, np.ndarray]
#: A labelled example ``(x, y)``, y in {0, 1}.
Example = tuple[PointLike, int]


def _ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _as_point(p) -> tuple[int, ...]:
    if isinstance(p, (int, np.integer)) and not isinstance(p, bool):
        return (int(p),)
    try:
        items = list(p)
    except TypeError:
        raise ValueError(f"point {p!r} is not an integer or a list of integers") from None
    out = []
    for v in items:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            if isinstance(v, float) and float(v).is_integer():
                v = int(v)
            else:
                raise ValueError(f"point {p!r} has a non-integer coordinate {v!r}; points are tuples of integers")
        out.append(int(v))
    return tuple(out)


class ConceptClass:
    """An immutable finite concept class.

    Parameters
    ----------
    matrix : array-like of 0/1, shape (concepts, points)
        Row ``c`` is the truth table of concept ``c`` over the points.
    points : sequence of int tuples, optional
        The feature vector of each point (column). For a bare matrix, point ``j`` is ``(j,)``.
    names : sequence of str, optional
        A name for each concept (before duplicate merging).
    family, params : provenance, optional
        The family and parameters the class was made from (see :mod:`solvers.classes.families`).
    facts : dict, optional
        What its concepts are, in the terms of the learners' theorems (see
        :mod:`solvers.classes.protocol`); ``make`` gives them, a class from a file or a matrix has none.
    words : callable, optional
        ``words(c) -> str or None``: concept ``c`` in words (``make`` gives its family's wording).
    symmetry : Symmetry, optional
        A group of symmetries of the class (:mod:`solvers.classes.symmetry`), as its family declares
        it; checked on the matrix by the solver before use (:meth:`checked_symmetry`).

    Raises
    ------
    ValueError
        If the matrix is empty, ragged, not 0/1, or the points do not match its columns.

    Examples
    --------
    >>> C = ConceptClass.from_matrix([[0, 1], [1, 1], [0, 1]])
    >>> len(C), C.n_points, C.points
    (2, 2, ((0,), (1,)))
    >>> V0, V1 = C.split(C.full, (0,))
    >>> bin(V0), bin(V1)
    ('0b1', '0b10')
    >>> C.split_index(C.full, 0) == (V0, V1), C.finite, dict(C.facts)
    (True, True, {})
    """

    __slots__ = ("_matrix", "_points", "_names", "family", "params", "_columns", "_packed", "_splits", "_point_index",
                 "_facts", "_words", "_fingerprint", "_symmetry", "_symmetry_checked", "_sorted_rows", "_detected",
                 "_declared", "_derived", "_invariants_tried")

    #: The points are listed (the class protocol's ``finite``).
    finite = True

    def __init__(self, matrix, points=None, *, names=None, family=None, params=None, facts=None, words=None,
                 symmetry=None):
        m = _validate_matrix(matrix)
        if names is not None:
            if isinstance(names, (str, bytes, dict)) or not isinstance(names, Iterable):
                raise ValueError(f"the names must be a list of strings, one per concept, got {type(names).__name__} "
                                 f"{_short(names)}")
            names = [str(v) for v in names]
            if len(names) != m.shape[0]:
                raise ValueError(f"{len(names)} names given for {m.shape[0]} concepts; give one name per row")
        # Merge duplicate rows, keeping the first occurrence (a class is a set of functions). Over no
        # points every row is the one empty function: the class has one concept and nothing to ask.
        if m.shape[1] == 0 and m.shape[0] > 1:
            m = m[:1]
            if names is not None:
                names = names[:1]
        sorted_rows = None
        if m.shape[0] > 1 and m.shape[1]:
            sorted_rows, first = _unique_rows(m)
            if len(first) < m.shape[0]:
                keep = np.sort(first)
                m = m[keep]
                if names is not None:
                    names = [names[i] for i in keep]
        m = np.ascontiguousarray(m)
        m.setflags(write=False)
        self._matrix = m
        if points is None:
            pts = tuple((j,) for j in range(m.shape[1]))
        else:
            if isinstance(points, (str, bytes, dict)) or not isinstance(points, Iterable):
                raise ValueError(f"the points must be a list of points, one per column, got {type(points).__name__} "
                                 f"{_short(points)}")
            pts = tuple(_as_point(p) for p in points)
            if len(pts) != m.shape[1]:
                raise ValueError(
                    f"{len(pts)} points given for a matrix with {m.shape[1]} columns; give one point per column"
                )
            if len(set(pts)) != len(pts):
                raise ValueError("points repeat; each column must be a distinct point")
        self._points = pts
        self._names = tuple(names) if names is not None else None
        if self._names is not None and len(self._names) != m.shape[0]:
            raise ValueError(f"{len(self._names)} names given for {m.shape[0]} concepts; give one name per row")
        self.family = family
        self.params = dict(params) if params else {}
        self._columns = None
        self._packed = None
        self._splits = None
        self._point_index = None
        self._fingerprint = None
        # The distinct rows sorted, as the fingerprint hashes them (found above in merging duplicates), kept
        # until the fingerprint is taken when small (a large class's fingerprint is cheap beside its use).
        self._sorted_rows = sorted_rows if sorted_rows is not None and sorted_rows.nbytes <= 1 << 20 else None
        self._facts = dict(facts) if facts else {}
        self._words = words
        if symmetry is not None and symmetry.n_points != m.shape[1]:
            raise ValueError(f"the symmetry acts on {symmetry.n_points} points, the class has {m.shape[1]}")
        self._symmetry = symmetry
        self._symmetry_checked = False
        self._detected = None  # the group found by automorphisms() (computed once; pickled with the class)
        self._invariants_tried = False  # whether the invariants were asked and did not settle it
        self._declared = {}  # the facts the user declared (solvers.classes.facts.declare), kept in the spec
        self._derived = None  # the facts its points show (derived_facts), found when a bound first asks

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_matrix(cls, matrix: np.ndarray | Sequence[Sequence[int]], points: Iterable[PointLike] | None = None,
                    **kw: Any) -> "ConceptClass":
        """Build a class from a 0/1 matrix (concepts x points) and optional point vectors; ``**kw`` are the
        constructor's keyword arguments (``names``, ``family``, ...)."""
        return cls(matrix, points, **kw)

    @classmethod
    def from_callable(cls, concepts: Iterable, domain: Sequence[PointLike], f: Callable[[Any, tuple[int, ...]], object],
                      **kw: Any) -> "ConceptClass":
        """Build ``{x -> f(c, x) : c in concepts}`` over ``domain``; ``**kw`` are the constructor's keyword
        arguments."""
        concepts = list(concepts)
        domain = [_as_point(x) for x in domain]
        mat = np.array([[bool(f(c, x)) for x in domain] for c in concepts], dtype=bool).reshape(len(concepts), len(domain))
        return cls(mat, domain, **kw)

    @classmethod
    def from_file(cls, path: str | os.PathLike, *, progress: Callable[[int, int], None] | None = None) -> "ConceptClass":
        """Load a class from ``.json`` (``{"matrix": [[0,1,..],..], "points": optional}``), ``.csv`` or ``.npy``.

        Parameters
        ----------
        path : str or path
        progress : callable, optional
            Called as ``progress(done, total)``: the bytes of the file read so far (for ``.json``, the
            share of the bytes its rows checked so far stand for) and the file's size, about once per
            megabyte. The command line shows it for large files.

        Raises
        ------
        ValueError
            Saying what is wrong with the file (missing, unknown type, not 0/1, ragged, ...).
        """
        p = Path(path)
        if not p.exists():
            raise ValueError(f"file {str(p)!r} does not exist; give the path of a .json, .csv or .npy class file")
        if p.is_dir():
            raise ValueError(f"{str(p)!r} is a directory; give the path of a .json, .csv or .npy class file")
        suffix = p.suffix.lower()
        total = p.stat().st_size
        report = progress if progress is not None else _no_progress
        report(0, total)
        if suffix == ".json":
            try:
                data = loads(p.read_text(), p, hint='a class file is {"matrix": [[0,1,...],...]}, nested 2 levels')
            except (json.JSONDecodeError, UnicodeDecodeError) as e:
                raise ValueError(f"{p}: not valid JSON ({e}); write {{\"matrix\": [[0,1,...],...]}}") from None
            except ValueError as e:  # a number of more than 4300 digits (Python's limit on int conversion)
                if "set_int_max_str_digits" not in str(e):
                    raise  # (nested too deep, a key given twice: the message names the file)
                raise ValueError(f"{p}: a number in it has more than 4300 digits; write {{\"matrix\": [[0,1,...],...]}}") from None
            if isinstance(data, list):
                data = {"matrix": data}
            if not isinstance(data, dict) or "matrix" not in data:
                raise ValueError(f"{p}: expected a JSON object with a \"matrix\" key (rows of 0/1)")
            family, params = data.get("family"), data.get("params")
            if family is not None and not isinstance(family, str):
                raise ValueError(f"{p}: \"family\" must be a family name (a string), got {_short(family)}")
            if params is not None and not isinstance(params, dict):
                raise ValueError(f"{p}: \"params\" must be an object of the family's parameters, got {_short(params)}")
            try:
                matrix = _validate_matrix(data["matrix"], lambda k, n: report(total * k // n, total))
                C = cls(matrix, data.get("points"), names=data.get("names"), family=family, params=params)
                dims = sorted({len(x) for x in C.points})
                if len(dims) > 1:  # a file's points are vectors of one space (the API takes any tuples)
                    raise ValueError(f"the points are ragged (numbers of coordinates {dims}); every point needs the "
                                     "same number of coordinates")
                return C
            except ValueError as e:
                raise ValueError(f"{p}: {e}") from None
        if suffix == ".csv":
            return cls._from_csv(p, total, report)
        if suffix == ".npy":
            try:
                arr = load_npy(p, "save a 2-d 0/1 array with numpy.save")
            except ValueError as e:
                raise ValueError(f"{p}: {e}") from None
            report(total, total)
            try:
                return cls(arr)
            except ValueError as e:
                raise ValueError(f"{p}: {e}") from None
        raise ValueError(f"{p}: unknown file type {suffix!r}; use .json, .csv or .npy")

    @classmethod
    def _from_csv(cls, p: Path, total: int, report) -> "ConceptClass":
        """A ``.csv`` of 0/1 rows (blank rows skipped), read a megabyte of lines at a time."""
        rows: list[str] = []  # each row's entries joined: "0110..."
        done = 0
        try:
            with open(p, newline="", encoding="utf-8-sig") as f:  # (a byte-order mark is not an entry)
                while lines := f.readlines(1 << 20):
                    for r in csv.reader(lines):
                        cells = [c.strip() for c in r]
                        if not any(cells):
                            continue
                        if not _ZERO_ONE.issuperset(cells):
                            bad = next(c for c in cells if c not in _ZERO_ONE)
                            raise ValueError(f"{p}: row {len(rows) + 1} has the entry {bad!r}; every entry must be 0 or 1")
                        rows.append("".join(cells))
                    done += sum(map(len, lines))
                    report(min(done, total), total)
        except UnicodeDecodeError:
            raise ValueError(f"{p}: not a text file; a .csv class has one row of 0/1 per concept") from None
        try:
            width = len(rows[0]) if rows else 0
            if rows and all(len(r) == width for r in rows):
                matrix = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8).reshape(len(rows), width) == 49
            else:  # empty or ragged: the constructor says what is wrong
                matrix = [[int(c) for c in r] for r in rows]
            return cls(matrix)
        except ValueError as e:
            raise ValueError(f"{p}: {e}") from None

    def to_json(self) -> dict:
        """The class as a JSON-able dict ``{"matrix", "points", ...}`` that :meth:`from_file` reads back."""
        out = {"matrix": self._matrix.astype(np.uint8).tolist(), "points": [list(p) for p in self._points]}
        if self._names is not None:
            out["names"] = list(self._names)
        if self.family is not None:
            out["family"] = self.family
            out["params"] = self.params
        return out

    # ------------------------------------------------------------------ data
    @property
    def matrix(self) -> np.ndarray:
        """Read-only bool array of shape (concepts, points)."""
        return self._matrix

    @property
    def points(self) -> tuple[tuple[int, ...], ...]:
        return self._points

    @property
    def names(self):
        return self._names

    @property
    def n_concepts(self) -> int:
        return self._matrix.shape[0]

    @property
    def n_points(self) -> int:
        return self._matrix.shape[1]

    def __len__(self) -> int:
        return self._matrix.shape[0]

    def __repr__(self) -> str:
        src = f" {self.family} {self.params}" if self.family else ""
        return f"<ConceptClass{src}: {self.n_concepts} concepts x {self.n_points} points>"

    def _repr_html_(self, rows: int = 8, cols: int = 16) -> str:
        """The class for a notebook: its name, size and the first ``rows`` concepts on the first ``cols``
        points of its matrix (truncated, saying so)."""
        from html import escape

        m, n = self.n_concepts, self.n_points
        M = self.matrix[:rows, :cols]

        def point(j):
            p = self.points[j]
            if isinstance(p, (tuple, list)):
                bits = len(p) > 1 and all(v in (0, 1) and not isinstance(v, float) for v in p)
                text = "".join(str(v) for v in p) if bits else ", ".join(str(v) for v in p)
            else:
                text = str(p)
            return escape(text if len(text) <= 10 else text[:9] + "\u2026")

        more_cols = "<th>&hellip;</th>" if n > cols else ""
        head = "<tr><th></th>" + "".join(f"<th>{point(j)}</th>" for j in range(M.shape[1])) + more_cols + "</tr>"
        body = "".join("<tr><th>c" + str(i) + "</th>" + "".join(f"<td>{int(v)}</td>" for v in row)
                       + ("<td>&hellip;</td>" if n > cols else "") + "</tr>" for i, row in enumerate(M.tolist()))
        if m > rows:
            body += f"<tr><td colspan='{M.shape[1] + 2}'>&hellip; {m - rows} more concepts</td></tr>"
        return (f"<div><b>{escape(str(self))}</b>: {m} concept{'s' if m != 1 else ''} x {n} point"
                f"{'s' if n != 1 else ''}<table style='font-family:monospace'>{head}{body}</table></div>")

    def __str__(self) -> str:
        if self.family is not None:
            return f"{self.family} {' '.join(f'{k}={v}' for k, v in self.params.items())}".strip()
        return f"the matrix class ({self.n_concepts} concepts x {self.n_points} points)"

    @property
    def made(self) -> bool:
        """True when the family's ``make`` built the class (its family, facts and words hold)."""
        return self._words is not None

    @property
    def words(self):
        """``words(c) -> str or None``: the family's wording of concept ``c`` (None for other classes)."""
        return self._words

    @property
    def symmetry(self):
        """The declared group of symmetries (:class:`~solvers.classes.symmetry.Symmetry`), or None."""
        return self._symmetry

    def checked_symmetry(self) -> Symmetry | None:
        """The declared symmetry group once every generator is checked to map the class onto itself
        (checked once), or None when none is declared.

        Raises
        ------
        ValueError
            If a declared generator is not a symmetry of the class."""
        if self._symmetry is not None and not self._symmetry_checked:
            self._symmetry.check(self._matrix)
            self._symmetry_checked = True
        return self._symmetry

    def automorphisms(self, *, compute: bool = True, cheap: bool = False) -> Detection | None:
        """The class's symmetry group as graph automorphism finds it, declared or not
        (:func:`solvers.classes.automorphisms.detect`: a :class:`~solvers.classes.automorphisms.Detection`
        with the group, or None and why, and the seconds it took). Computed once, on first use; with
        ``compute=False`` None until then, unless ``cheap`` and the columns' invariants settle it in
        milliseconds (:func:`~solvers.classes.automorphisms.settled_by_invariants`: the group is trivial)."""
        if self._detected is None and (compute or (cheap and not getattr(self, "_invariants_tried", False))):
            from .automorphisms import detect, settled_by_invariants

            self._detected = detect(self) if compute else settled_by_invariants(self)
            self._invariants_tried = True  # (a search asks at every pause: the invariants once are enough)
        return self._detected

    def adopt_automorphisms(self, found: Detection) -> None:
        """Keep ``found`` (a :class:`~solvers.classes.automorphisms.Detection` of this class, made elsewhere: by
        :func:`~solvers.classes.automorphisms.detect_async`) as what :meth:`automorphisms` gives."""
        if self._detected is None:
            self._detected = found

    @property
    def facts(self) -> MappingProxyType:
        """What the concepts are (read-only): the family's, or those declared (``--fact``); a matrix class's
        own, shown by its points, are :meth:`derived_facts`."""
        return MappingProxyType(self._facts)

    def derived_facts(self) -> dict:
        """:attr:`facts` with, for a class not made by a family, what its points show
        (:func:`solvers.classes.facts.derived_facts`: an OR or AND of at most r coordinates), found once."""
        if self.made:
            return dict(self._facts)
        if self._derived is None:
            from .facts import derived_facts

            self._derived = derived_facts(self)
        return {**self._derived, **self._facts}

    def __eq__(self, other) -> bool:
        if not isinstance(other, ConceptClass):
            return NotImplemented
        return self._points == other._points and np.array_equal(self._matrix, other._matrix)

    def __hash__(self) -> int:
        return hash((self._points, self._matrix.tobytes()))

    def fingerprint(self) -> str:
        """The class's fingerprint (the class protocol's): 32 hex digits of a hash of its points and of its
        concepts as a set, the sorted rows of its matrix (duplicates are merged on construction), so that
        two listings of one class in another order agree; computed once (the class is immutable). Result
        stores, certificates and witnesses name the class by it. It does not tell the order of the rows:
        what depends on it (a Solver's bitsets) is keyed by :meth:`listing_key`."""
        if self._fingerprint is not None:
            return self._fingerprint
        import hashlib

        h = hashlib.sha256()
        h.update(np.asarray(self._matrix.shape, dtype=np.int64).tobytes())
        if self.n_points:
            h.update(_sorted_packed_rows(self._matrix) if self._sorted_rows is None else
                     _packed_bytes(self._sorted_rows, self.n_points))
        h.update(_points_text(self._points))
        self._fingerprint = h.hexdigest()[:32]
        self._sorted_rows = None
        return self._fingerprint

    def listing_key(self) -> str:
        """A hash of the matrix as listed, rows in their order, and the points: the key of what depends on
        the order of the concepts (version spaces are bitsets over the rows), unlike :meth:`fingerprint`."""
        import hashlib

        h = hashlib.sha256(np.asarray(self._matrix.shape, dtype=np.int64).tobytes())
        h.update(np.packbits(self._matrix, axis=1).tobytes())
        h.update(_points_text(self._points))
        return h.hexdigest()[:32]

    # ------------------------------------------------------------------ points
    def index_of(self, x: PointLike) -> int:
        """The column index of point ``x`` (an int tuple, an int, or a 1-d array)."""
        if self._point_index is None:
            self._point_index = {p: j for j, p in enumerate(self._points)}
        if type(x) is tuple:  # hot path of the learners: a point of the class itself
            j = self._point_index.get(x)
            if j is not None and all(type(v) is int for v in x):
                return j
        key = _as_point(np.asarray(x).ravel().tolist() if isinstance(x, np.ndarray) else x)
        try:
            return self._point_index[key]
        except KeyError:
            raise ValueError(f"point {key} is not in the domain of this class") from None

    def point(self, x: PointLike) -> tuple[int, ...]:
        """The class's own point for ``x`` (an int tuple: ``3`` is ``(3,)``); ValueError (one line) when
        ``x`` is not in the domain."""
        try:
            return self._points[self.index_of(x)]
        except ValueError:
            raise ValueError(f"point {point_text(x)} is not in the domain of {self}") from None

    def label(self, c: int, x: PointLike) -> int:
        """The label concept ``c`` gives point ``x``."""
        return int(self._matrix[c, self.index_of(x)])

    def concept_text(self, c: int) -> str | None:
        """Concept ``c`` in words: its name, else its family's wording (``x1 v x3``), else None."""
        if self._names is not None:
            return self._names[c]
        return self._words(int(c)) if self._words is not None else None

    # ------------------------------------------------------------------ version spaces
    @property
    def full(self) -> int:
        """The bitset of all concepts: the first version space."""
        return (1 << self.n_concepts) - 1

    @property
    def columns(self) -> tuple[int, ...]:
        """``columns[j]``: the bitset of concepts that label point ``j`` with 1."""
        if self._columns is None:
            words = self.column_words
            if words.shape[1] == 1:  # (at most 64 concepts: a word a column, read at once, ~10x the loop below)
                self._columns = tuple(words.ravel().tolist())
            else:
                raw = words.tobytes()
                w = words.shape[1] * 8
                frm = int.from_bytes
                self._columns = tuple(frm(raw[i:i + w], "little") for i in range(0, len(raw), w))
        return self._columns

    def distinct_splits(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``(masks, points)``: :func:`splits_of` the whole class (computed once). The exact search's root splits,
        and the count of distinct points its plan reads (:func:`solvers.opt.plan.distinct_points`)."""
        if self._splits is None:
            masks, points = splits_of(self.full, self.columns)
            self._splits = (tuple(masks), tuple(points))
        return self._splits

    @property
    def column_words(self) -> np.ndarray:
        """The columns as a read-only (points x ceil(concepts / 64)) uint64 array: bit c of word c // 64 of row
        j is ``matrix[c, j]`` (the bitsets of :attr:`columns`, as machine words)."""
        if self._packed is None:
            self._packed = _column_words(self._matrix)
            self._packed.setflags(write=False)
        return self._packed

    def split(self, V: int, x: PointLike) -> tuple[int, int]:
        """(V_x^0, V_x^1): the concepts of V that label point ``x`` 0, and 1 ([Rivest94]'s xi_0 and xi_1)."""
        V1 = V & self.columns[self.index_of(x)]
        return V ^ V1, V1

    def split_index(self, V: int, j: int) -> tuple[int, int]:
        """:meth:`split` for the point of column index ``j`` (the solvers' hot loops index columns)."""
        V1 = V & self.columns[j]
        return V ^ V1, V1

    def consistent(self, examples: Iterable[Example], V: int | None = None) -> int:
        """The bitset of concepts (of V, default all) consistent with the labelled ``examples``."""
        V = self.full if V is None else V
        for x, y in examples:
            if isinstance(y, bool) or y not in (0, 1):
                raise ValueError(f"label {y!r} of point {x} is not 0 or 1")
            V0, V1 = self.split_index(V, self.index_of(x))
            V = V1 if y else V0
        return V

    #: [Rivest94]'s name for the concepts consistent with the examples so far.
    version_space = consistent

    def levels(self, examples: Iterable[Example], errors: int = 0) -> tuple[int, ...]:
        """The state of the game with ``errors`` label errors after the examples (:mod:`solvers.game_rules`):
        the tuple (A_0, ..., A_k) of bitsets, A_j the concepts that disagree with at most k - j of the
        labels; A_0 is empty when no concept is within k errors. ``levels(ex, 0) == (consistent(ex),)``.

        >>> C = ConceptClass.from_matrix([[0, 0], [0, 1], [1, 1]])
        >>> C.levels([((0,), 1), ((1,), 0)], errors=1)     # concepts 0 and 2 disagree once, concept 1 twice
        (5, 0)
        """
        from ..game_rules import start, step

        s = start(self.full, errors)
        for x, y in examples:
            if isinstance(y, bool) or y not in (0, 1):
                raise ValueError(f"label {y!r} of point {x} is not 0 or 1")
            s = step(s, self.columns[self.index_of(x)], y) or (0,) * (errors + 1)
        return s

    def check_target(self, examples: Iterable[Example], target: int | None = None, *, exact: bool = False,
                     errors: int = 0) -> int:
        """Check that the labels are realizable, by concept ``target`` when given; return the target (the
        given index, or the lowest concept consistent with every example). With ``errors=k`` the labels may
        disagree with the target k times ([FHMM23]'s k-realizable sequences, :mod:`solvers.game_rules`); without
        a target the concept returned is the lowest of those with the fewest disagreements. ``exact`` is
        ignored (finite classes are checked exactly). ValueError (one line) saying what is wrong.

        Examples
        --------
        >>> C = ConceptClass.from_matrix([[0, 0], [0, 1], [1, 1]])
        >>> C.check_target([((1,), 1)])
        1
        >>> C.check_target([((0,), 1), ((1,), 0)])
        Traceback (most recent call last):
        ...
        ValueError: no concept of the class labels examples 1..2
        >>> C.check_target([((0,), 1), ((1,), 0)], errors=1)
        0
        >>> C.check_target([((0,), 1), ((1,), 0)], 1, errors=1)
        Traceback (most recent call last):
        ...
        ValueError: target concept 1 labels example 2 (x = (1,)) 1, not 0: its 2nd disagreement, more than the 1 label error allowed
        """
        if isinstance(errors, bool) or not isinstance(errors, (int, np.integer)) or errors < 0:
            raise ValueError(f"errors={errors!r}: give a whole number >= 0 (the labels that may disagree with the target)")
        errors = int(errors)
        if errors:
            return self._check_target_errors(examples, target, errors)
        if target is None:
            V = self.full
            for t, (x, y) in enumerate(examples, 1):
                V0, V1 = self.split_index(V, self.index_of(x))
                V = V1 if y else V0
                if not V:
                    span = "example 1" if t == 1 else f"examples 1..{t}"
                    raise ValueError(f"no concept of the class labels {span}")
            return (V & -V).bit_length() - 1  # the lowest consistent concept
        c = concept_index(target, self.n_concepts)
        row = self._matrix[c]
        for t, (x, y) in enumerate(examples, 1):
            label = int(row[self.index_of(x)])
            if label != y:
                raise ValueError(f"target concept {c} labels example {t} (x = {point_text(x)}) {label}, not {y}")
        return c

    def _check_target_errors(self, examples, target, errors: int) -> int:
        from ..game_rules import start, step

        if target is None:
            s = start(self.full, errors)
            for t, (x, y) in enumerate(examples, 1):
                s = step(s, self.columns[self.index_of(x)], y)
                if s is None:
                    span = "example 1" if t == 1 else f"examples 1..{t}"
                    raise ValueError(f"no concept of the class is within {errors} label error"
                                     f"{'s' if errors != 1 else ''} of {span}")
            best = next(A for A in reversed(s) if A)  # the concepts with the fewest disagreements
            return (best & -best).bit_length() - 1
        c = concept_index(target, self.n_concepts)
        row = self._matrix[c]
        wrong = 0
        for t, (x, y) in enumerate(examples, 1):
            label = int(row[self.index_of(x)])
            if label != y:
                wrong += 1
                if wrong > errors:
                    raise ValueError(f"target concept {c} labels example {t} (x = {point_text(x)}) {label}, not {y}: "
                                     f"its {_ordinal(wrong)} disagreement, more than the {errors} label error"
                                     f"{'s' if errors != 1 else ''} allowed")
        return c

    def to_spec(self) -> dict:
        """The JSON class spec of a witness: ``{"family", "params"}`` for a class made by a family,
        else ``{"matrix", "points"}`` (and ``"names"``)."""
        if self.family is not None and self.made:
            return {"family": self.family, "params": dict(self.params)}
        out = self.to_json()
        spec = {key: out[key] for key in ("matrix", "points", "names") if key in out}
        if self._declared:  # (checked again where the spec is read)
            spec["facts"] = dict(self._declared)
        return spec

    @classmethod
    def from_spec(cls, spec: dict) -> "ConceptClass":
        """The class of a matrix spec ``{"matrix", "points", "names"}``. A family spec names a family of
        the registry, which builds on this module: :func:`solvers.classes.spec.load_class` reads both.

        Examples
        --------
        >>> ConceptClass.from_spec({"matrix": [[0, 1], [1, 1]], "names": ["x1", "true"]}).concept_text(1)
        'true'
        """
        if not isinstance(spec, dict) or "matrix" not in spec:
            raise ValueError('a matrix class spec is {"matrix": [[...]], "points": [[...]]}; '
                             "load a family spec with solvers.classes.spec.load_class")
        extra = sorted(set(spec) - {"matrix", "points", "names", "facts"})
        if extra:
            raise ValueError(f'malformed witness: a matrix class has the keys "matrix", "points" (and "names", '
                             f'"facts"); unexpected {", ".join(map(repr, extra))}')
        C = cls(spec["matrix"], spec.get("points"), names=spec.get("names"))
        if spec.get("facts"):
            from .facts import declare

            if not isinstance(spec["facts"], dict):
                raise ValueError('malformed witness: a matrix class\'s "facts" must be {"r": R, "margin": G}')
            C = declare(C, {k: str(v) for k, v in spec["facts"].items()})
        return C

    def concepts_of(self, V: int) -> list[int]:
        """The concept indices in bitset ``V``, in increasing order."""
        return bit_positions(V)

    def restrict(self, concepts: Sequence[int]) -> "ConceptClass":
        """The subclass made of the given concept indices (same points)."""
        idx = np.asarray(sorted(set(int(c) for c in concepts)), dtype=np.int64)
        if idx.size == 0:
            raise ValueError("a subclass needs at least one concept")
        if idx[0] < 0 or idx[-1] >= self.n_concepts:
            bad = int(idx[0]) if idx[0] < 0 else int(idx[-1])
            raise ValueError(f"concept index {bad} is out of range; give indices 0..{self.n_concepts - 1}")
        names = [self._names[i] for i in idx] if self._names is not None else None
        return ConceptClass(self._matrix[idx], self._points, names=names)

    def log2_size(self) -> int:
        """floor(log2 |C|): the Halving bound ([OnlineAlgs])."""
        return self.n_concepts.bit_length() - 1


def concept_index(target, n_concepts: int) -> int:
    """``target`` as a concept index 0..n_concepts-1, or ValueError (one line)."""
    if isinstance(target, bool) or not isinstance(target, (int, np.integer)):
        raise ValueError(f"malformed witness: the target of a finite class is a concept index, got {point_text(target)}")
    c = int(target)
    if not 0 <= c < n_concepts:
        raise ValueError(f"target concept {c} is out of range; the class has {n_concepts} concepts "
                         f"(indices 0..{n_concepts - 1})")
    return c


def splits_of(V: int, columns) -> tuple[list[int], list[int]]:
    """``(masks, points)``: the distinct ways a point splits the version space ``V`` (a bitset of concepts), given
    the class's ``columns`` (bitsets): one point of each class of points whose columns agree or disagree everywhere on
    V, in the order of the points (each class's first), with ``column & V``; points all of V labels alike left out."""
    masks: list[int] = []
    idxs: list[int] = []
    seen = set()
    low = V & -V
    for j, col in enumerate(columns):
        s = col & V
        if s == 0 or s == V:
            continue
        key = s if s & low else V ^ s
        if key in seen:
            continue
        seen.add(key)
        masks.append(s)
        idxs.append(j)
    return masks, idxs


def _column_words(matrix: np.ndarray) -> np.ndarray:
    """Pack each column of a bool matrix into machine words: a (points x ceil(concepts / 64)) uint64 array whose
    row j holds bit c (of word c // 64) = matrix[c, j]. Eight rows at a time are OR-ed into bytes (the rows of a
    C-ordered matrix are contiguous, so each pass is a plain vector operation), then the bytes are transposed:
    four to five times faster than ``np.packbits`` along the concepts (16 ms against 60-70 ms for 4,096 x
    4,096 here)."""
    m, n = matrix.shape
    nwords = (m + 63) // 64
    if m * n <= 1 << 16:  # (small: one numpy call costs less than the passes below)
        packed = np.zeros((n, nwords * 8), dtype=np.uint8)
        packed[:, :(m + 7) // 8] = np.packbits(matrix.T, axis=1, bitorder="little")
        return packed.view("<u8")
    U = np.ascontiguousarray(matrix).view(np.uint8)
    out = np.zeros((nwords * 8, n), dtype=np.uint8)  # out[r, j]: the byte of concepts 8r..8r+7 at point j
    full = m // 8
    if full:
        body = out[:full]
        body |= U[0:full * 8:8]
        for b in range(1, 8):
            body |= U[b:full * 8:8] << np.uint8(b)
    for b in range(m - full * 8):  # the last, partial byte
        out[full] |= U[full * 8 + b] << np.uint8(b)
    return np.ascontiguousarray(out.T).view("<u8")


def _no_progress(done: int, total: int) -> None:
    pass


def _short(value, width: int = 40) -> str:
    """``repr(value)`` cut to ``width`` characters, for a message."""
    text = repr(value)
    return text if len(text) <= width else text[:width - 3] + "..."


_ZERO_ONE = frozenset(("0", "1"))
_BLOCK = 1 << 20  # entries converted per numpy call (and per progress report) in _plain_01_rows


def _validate_matrix(matrix, progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """The matrix as a bool array, or ValueError saying what is wrong; ``progress(rows checked, rows)``."""
    if isinstance(matrix, np.ndarray):
        arr = matrix
    else:
        if not isinstance(matrix, (list, tuple)):
            raise ValueError("the matrix must be a list of rows of 0/1 (one row per concept)")
        if len(matrix) == 0:
            raise ValueError("the matrix is empty; a class needs at least one concept (one row)")
        lengths = set()
        for i, row in enumerate(matrix):
            if not isinstance(row, (list, tuple, np.ndarray)):
                raise ValueError(f"row {i + 1} is not a list; the matrix must be a list of rows of 0/1")
            lengths.add(len(row))
        if len(lengths) > 1:
            raise ValueError(f"the matrix is ragged (row lengths {sorted(lengths)}); every row needs one entry per point")
        fast = _plain_01_rows(matrix, progress)
        if fast is not None:
            return fast
        try:
            arr = np.array(matrix, dtype=object)
        except ValueError:
            raise ValueError("the matrix is ragged; every row needs one entry per point") from None
    if arr.ndim != 2:
        raise ValueError(f"the matrix must be 2-d (concepts x points), got {arr.ndim} dimension(s)")
    if arr.dtype.kind == "V":  # a structured array: records, not numbers
        raise ValueError(f"the matrix holds records ({arr.dtype}), not numbers; every entry must be 0 or 1")
    if arr.shape[0] == 0:
        raise ValueError("the matrix is empty; a class needs at least one concept (one row)")
    if arr.dtype == bool:
        return arr.astype(bool, copy=True)
    flat = arr.ravel()
    ok = np.fromiter(
        (
            (not isinstance(v, str)) and (v is not None) and _is01(v)
            for v in flat
        ),
        dtype=bool,
        count=flat.size,
    ) if arr.dtype == object else np.isin(arr, (0, 1))
    if not ok.all():
        bad = flat[int(np.argmin(ok))]
        bad = bad.item() if isinstance(bad, np.generic) else bad
        where = np.unravel_index(int(np.argmin(ok)), arr.shape)
        raise ValueError(
            f"entry {bad!r} at row {where[0] + 1}, column {where[1] + 1} is not 0 or 1; every entry must be 0 or 1"
        )
    return arr.astype(bool)


def _plain_01_rows(rows, progress) -> np.ndarray | None:
    """Rows of equal length holding only the integers (or booleans) 0 and 1, as a bool array, converted
    by numpy a block at a time; None when some block holds anything else (floats, strings, None, nested
    lists, huge integers...), which the element-by-element check then names."""
    n, k = len(rows), len(rows[0])
    if k == 0:
        return None
    out = np.empty((n, k), dtype=bool)
    step = max(1, _BLOCK // k)
    for i in range(0, n, step):
        try:
            block = np.array(rows[i:i + step])
        except (ValueError, TypeError, OverflowError):
            return None
        if block.dtype.kind not in "biu" or block.shape != (min(step, n - i), k) or not ((block == 0) | (block == 1)).all():
            return None
        out[i:i + step] = block
        if progress is not None:
            progress(i + block.shape[0], n)
    return out


def _is01(v) -> bool:
    try:
        return v == 0 or v == 1
    except Exception:  # noqa: BLE001 - anything that cannot be compared is invalid
        return False


def _points_text(points: tuple) -> bytes:
    """``repr(points)`` as bytes (what :meth:`ConceptClass.fingerprint` hashes of the points), remembered for
    the last classes' points: a class's points are tuples of Python ints (:func:`_as_point`), so equal
    tuples have one text, and a family makes the same points again and again (the text of 64 points of
    {0,1}^6 costs 20 microseconds, most of a small class's fingerprint)."""
    if len(points) > 4096:
        return repr(points).encode()
    return _points_text_cached(points)


@functools.lru_cache(maxsize=128)
def _points_text_cached(points: tuple) -> bytes:
    return repr(points).encode()


def row_keys(M: np.ndarray) -> np.ndarray:
    """One sortable item per row of the 0/1 matrix ``M`` (at least one column), ordered as the rows packed
    (``np.packbits`` along rows: the first point is the high bit of the first byte) compare as byte
    strings. Up to 64 points a row is one integer whose big-endian bytes are its packed row (an integer
    sort is three to six times faster than one of opaque rows); past 64, the packed row as one opaque item."""
    n = M.shape[1]
    packed = np.ascontiguousarray(np.packbits(M, axis=1))
    if n <= 64:  # the packed row's bytes, padded to 8, read as one big-endian integer (no 64-bit copy of M)
        padded = np.zeros((M.shape[0], 8), dtype=np.uint8)
        padded[:, :packed.shape[1]] = packed
        return padded.view(">u8").ravel().astype(np.uint64)
    return packed.view(np.dtype((np.void, packed.shape[1]))).ravel()


def _unique_rows(M: np.ndarray) -> tuple:
    """The distinct rows of ``M`` as sorted :func:`row_keys`, and the index of each one's first row."""
    return np.unique(row_keys(M), return_index=True)


def _packed_bytes(keys: np.ndarray, n: int) -> bytes:
    """Sorted :func:`row_keys` of a matrix over ``n`` points as its packed rows' bytes, concatenated."""
    if n <= 64:
        return np.ascontiguousarray(keys.astype(">u8").view(np.uint8).reshape(-1, 8)[:, :(n + 7) // 8]).tobytes()
    return keys.tobytes()


def _sorted_packed_rows(M: np.ndarray) -> bytes:
    """The rows of the 0/1 matrix ``M`` packed and sorted as byte strings, concatenated: what
    :meth:`ConceptClass.fingerprint` hashes."""
    return _packed_bytes(np.sort(row_keys(M)), M.shape[1])
