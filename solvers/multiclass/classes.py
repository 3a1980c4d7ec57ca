"""Multiclass concept classes: finite sets of functions from a finite domain to the labels 0..k-1.

A multiclass class is stored as an integer matrix of shape (concepts, points): ``matrix[c, j]`` is the
label concept ``c`` gives point ``j``, one of ``0 .. k-1``. As for the 0/1 classes of
:mod:`solvers.classes.finite`, a class is a *set* of functions (duplicate rows are merged, the first
occurrence kept) and a version space is an integer bitset over concept indices: bit ``c`` is set when
concept ``c`` is still consistent. ``cells(V, j)`` splits a version space by the label at point ``j``.

The families (:data:`FAMILIES`, made by :func:`make`):

``multiclass-singletons N k``
    the all-0 concept and, for each point j and each label l in 1..k-1, the concept that is l at j and
    0 elsewhere: 1 + N (k - 1) concepts. For k = 2 these are the singletons with the empty concept.
``k-label-thresholds N k``
    every nondecreasing map from the points 0..N-1 to the labels 0..k-1: binomial(N + k - 1, k - 1)
    concepts. For k = 2 these are the N + 1 thresholds.
``random-multiclass m N k seed``
    m rows of N labels drawn uniformly from 0..k-1 by ``numpy.random.default_rng(seed)``, duplicates
    merged (so at most m concepts).

References
----------
.. [DSBS] Daniely, Sabato, Ben-David and Shalev-Shwartz, "Multiclass learnability and the ERM principle",
   COLT 2011; JMLR 16 (2015).

Examples
--------
>>> C = make("multiclass-singletons", N=2, k=3)
>>> C.matrix.tolist()
[[0, 0], [1, 0], [2, 0], [0, 1], [0, 2]]
>>> C.k, len(C), C.n_points
(3, 5, 2)
>>> [bin(V) for V in C.cells(C.full, 0)]
['0b11001', '0b10', '0b100']
>>> len(make("k-label-thresholds", N=3, k=3))        # binomial(5, 2)
10
"""

from __future__ import annotations

import csv
import hashlib
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from math import comb
from pathlib import Path

import numpy as np

from ..jsontext import loads

__all__ = ["FAMILIES", "MAX_CONCEPTS", "MAX_LABELS", "MulticlassClass", "MulticlassFamily", "make", "parse_params"]

#: The most labels a class may have (the bandit trees list one entry per label at every node).
MAX_LABELS = 64
#: The most concepts a family may list (the exact games are exponential long before this).
MAX_CONCEPTS = 100_000

_FILE_HINT = 'a multiclass file is a list of rows of labels, or {"k": K, "matrix": [[0,2,1,...],...]}'


class MulticlassClass:
    """An immutable finite multiclass concept class: concepts x points, labels 0..k-1.

    Parameters
    ----------
    matrix : array-like of int, shape (concepts, points)
        Row ``c`` lists the label concept ``c`` gives each point; labels are whole numbers 0..k-1.
    k : int, optional
        The number of labels |Y|. Default: the largest label + 1 (at least 1). It may be given larger
        than the labels used (it is the |Y| of the bounds; the game values do not depend on labels no
        concept uses).
    family, params : provenance, optional
        The family and parameters the class was made from (:func:`make`).

    Raises
    ------
    ValueError
        One line saying what to change: an empty class, ragged rows, a label that is not a whole number,
        negative, or not below ``k``.

    Examples
    --------
    >>> C = MulticlassClass([[0, 2], [1, 1], [0, 2]])       # the third row repeats the first: merged
    >>> C.matrix.tolist(), C.k
    ([[0, 2], [1, 1]], 3)
    >>> MulticlassClass([[0, 2]], k=2)
    Traceback (most recent call last):
    ...
    ValueError: row 1 has the label 2, not below k=2; give k >= 3 or relabel the concepts with 0..1
    """

    __slots__ = ("_cells", "_k", "_labels", "_matrix", "family", "params")

    def __init__(self, matrix, k: int | None = None, *, family: str | None = None, params: dict | None = None):
        m = _validate(matrix)
        top = int(m.max()) if m.size else 0
        if k is None:
            k = top + 1
        else:
            if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
                raise ValueError(f"k={k!r} is not a whole number; give the number of labels, an integer >= 1")
            k = int(k)
            if k < 1:
                raise ValueError(f"k={k} labels is not possible; give k >= 1")
            if m.size and top >= k:
                row = int(np.argwhere(m == top)[0][0]) + 1
                raise ValueError(f"row {row} has the label {top}, not below k={k}; give k >= {top + 1} "
                                 f"or relabel the concepts with 0..{k - 1}")
        if k > MAX_LABELS:
            raise ValueError(f"k={k} labels is more than this solver takes (at most {MAX_LABELS}); "
                             "use fewer labels")
        # A class is a set of functions: merge duplicate rows, keeping the first occurrence.
        seen: dict = {}
        for i, row in enumerate(map(bytes, m.astype(np.uint8))):
            seen.setdefault(row, i)
        if len(seen) < m.shape[0]:
            m = m[sorted(seen.values())]
        m = np.ascontiguousarray(m, dtype=np.int64)
        m.setflags(write=False)
        self._matrix = m
        self._k = k
        self.family = family
        self.params = dict(params) if params else {}
        self._cells = None
        self._labels = None

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_matrix(cls, matrix, k: int | None = None, **kw) -> MulticlassClass:
        """Build a class from an integer matrix (concepts x points) and, optionally, the number of labels."""
        return cls(matrix, k, **kw)

    @classmethod
    def from_file(cls, path) -> MulticlassClass:
        """Load a class from ``.json`` (a list of rows, or ``{"k": K, "matrix": [[...], ...]}``), ``.csv``
        (one row of integer labels per concept; blank lines skipped) or ``.npy`` (a 2-d integer array).

        Raises
        ------
        ValueError
            One line naming the file and what to change (missing, unknown type, not JSON, ragged, a label
            that is not a whole number, negative or not below k, no rows).
        """
        p = Path(path)
        if not p.exists():
            raise ValueError(f"file {str(p)!r} does not exist; give the path of a .json, .csv or .npy multiclass file")
        if p.is_dir():
            raise ValueError(f"{str(p)!r} is a directory; give the path of a .json, .csv or .npy multiclass file")
        suffix = p.suffix.lower()
        try:
            if suffix == ".json":
                try:
                    data = loads(p.read_text(), p, hint=_FILE_HINT)
                except (json.JSONDecodeError, UnicodeDecodeError) as e:
                    raise ValueError(f"not valid JSON ({e}); {_FILE_HINT}") from None
                except ValueError as e:  # a number of more than 4300 digits (Python's limit on int conversion)
                    if "set_int_max_str_digits" not in str(e):
                        raise  # (nested too deep, a key given twice: said as it is)
                    raise ValueError(f"a number in it has more than 4300 digits; {_FILE_HINT}") from None
                if isinstance(data, list):
                    return cls(data)
                if not isinstance(data, dict) or "matrix" not in data:
                    raise ValueError(f'expected a list of rows or an object with a "matrix" key; {_FILE_HINT}')
                family, params = data.get("family"), data.get("params")
                if family is not None and not isinstance(family, str):
                    raise ValueError(f'"family" must be a family name (a string), got {family!r:.40}')
                if params is not None and not isinstance(params, dict):
                    raise ValueError(f'"params" must be an object of the family\'s parameters, got {params!r:.40}')
                return cls(data["matrix"], data.get("k"), family=family, params=params)
            if suffix == ".csv":
                return cls(_read_csv(p))
            if suffix == ".npy":
                from ..files import load_npy  # a truncated file is refused before its array is allocated

                return cls(load_npy(p, "save a 2-d integer array with numpy.save"))
        except ValueError as e:
            raise ValueError(str(e) if str(e).startswith(str(p)) else f"{p}: {e}") from None  # the file named once
        raise ValueError(f"{p}: unknown file type {suffix!r}; use .json, .csv or .npy")

    def to_json(self) -> dict:
        """``{"k", "matrix"}`` (and the family and parameters when made by one), which :meth:`from_file` reads."""
        out = {"k": self._k, "matrix": self._matrix.tolist()}
        if self.family is not None:
            out["family"], out["params"] = self.family, dict(self.params)
        return out

    # ------------------------------------------------------------------ data
    @property
    def matrix(self) -> np.ndarray:
        """Read-only int64 array of shape (concepts, points), entries in 0..k-1."""
        return self._matrix

    @property
    def k(self) -> int:
        """The number of labels |Y|."""
        return self._k

    @property
    def n_concepts(self) -> int:
        return self._matrix.shape[0]

    @property
    def n_points(self) -> int:
        return self._matrix.shape[1]

    def __len__(self) -> int:
        return self._matrix.shape[0]

    def __eq__(self, other) -> bool:
        if not isinstance(other, MulticlassClass):
            return NotImplemented
        return self._k == other._k and np.array_equal(self._matrix, other._matrix)

    def __hash__(self) -> int:
        return hash((self._k, self._matrix.shape, self._matrix.tobytes()))

    def __repr__(self) -> str:
        return f"<MulticlassClass {self}: {self.n_concepts} concepts x {self.n_points} points, k={self._k}>"

    def __str__(self) -> str:
        if self.family is not None:
            return f"{self.family} {' '.join(f'{k}={v}' for k, v in self.params.items())}".strip()
        return f"the multiclass matrix ({self.n_concepts} concepts x {self.n_points} points, k={self._k})"

    def fingerprint(self) -> str:
        """32 hex digits of a hash of k and the concepts as a set (the sorted rows): two listings of one
        class in another row order agree."""
        rows = sorted(map(tuple, self._matrix.tolist()))
        h = hashlib.sha256(json.dumps([self._k, self.n_points, rows]).encode())
        return h.hexdigest()[:32]

    # ------------------------------------------------------------------ version spaces
    @property
    def full(self) -> int:
        """The bitset of all concepts: the first version space."""
        return (1 << self.n_concepts) - 1

    @property
    def label_columns(self) -> tuple:
        """``label_columns[j][y]``: the bitset of concepts that give point ``j`` the label ``y`` (0 when none
        does), for y in 0..k-1."""
        if self._cells is None:
            cols = []
            for j in range(self.n_points):
                cells = [0] * self._k
                for c, y in enumerate(self._matrix[:, j].tolist()):
                    cells[y] |= 1 << c
                cols.append(tuple(cells))
            self._cells = tuple(cols)
        return self._cells

    def cells(self, V: int, j: int) -> list:
        """``[V_{j=0}, ..., V_{j=k-1}]``: the concepts of V giving point ``j`` each label (bitsets)."""
        return [V & cell for cell in self.label_columns[j]]

    def version_space(self, examples, V: int | None = None) -> int:
        """The bitset of the concepts (of V, default all) consistent with the labelled ``examples`` [(j, y)]."""
        V = self.full if V is None else V
        for j, y in examples:
            V &= self.label_columns[j][y]
        return V


# ---------------------------------------------------------------------------------------- reading
def _validate(matrix) -> np.ndarray:
    """The matrix as an int64 array, or ValueError (one line) saying what to change."""
    if isinstance(matrix, np.ndarray):
        arr = matrix
        if arr.ndim != 2:
            raise ValueError(f"the matrix must be 2-d (concepts x points), got {arr.ndim} dimension(s); "
                             "give one row of labels per concept")
        if arr.shape[0] == 0:
            raise ValueError("the class is empty; give at least one row (one concept)")
        if arr.dtype == bool:
            return arr.astype(np.int64)
        if arr.dtype.kind in "iu":
            out = arr.astype(np.int64)
        elif arr.dtype.kind == "f" and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
            out = arr.astype(np.int64)  # whole numbers saved as floats
        else:
            flat = arr.ravel()
            bad = next((i for i, v in enumerate(flat.tolist()) if _label(v) is None), 0)
            r, c = np.unravel_index(bad, arr.shape)
            raise ValueError(f"row {r + 1}, point {c + 1} is {flat[bad].item()!r}, not a whole number; "
                             "labels are the integers 0..k-1")
    else:
        if not isinstance(matrix, (list, tuple)):
            raise ValueError("the matrix must be a list of rows of integer labels (one row per concept)")
        if len(matrix) == 0:
            raise ValueError("the class is empty; give at least one row (one concept)")
        width = None
        rows = []
        for i, row in enumerate(matrix):
            if not isinstance(row, (list, tuple)):
                raise ValueError(f"row {i + 1} is {row!r}, not a list; the matrix must be a list of rows of labels")
            if width is None:
                width = len(row)
            elif len(row) != width:
                raise ValueError(f"row {i + 1} has {len(row)} label{'' if len(row) == 1 else 's'} but row 1 has {width}; "
                                 "every row needs one label per point")
            labels = []
            for j, v in enumerate(row):
                y = _label(v)
                if y is None:
                    raise ValueError(f"row {i + 1}, point {j + 1} is {v!r}, not a whole number; "
                                     "labels are the integers 0..k-1")
                labels.append(y)
            rows.append(labels)
        try:
            out = np.array(rows, dtype=np.int64).reshape(len(rows), width)
        except OverflowError:  # a label past 2^63: no class has that many labels
            raise ValueError(f"a label is too large; labels are the integers 0..k-1, k <= {MAX_LABELS}") from None
    if out.size and out.min() < 0:
        r, c = (int(v) for v in np.argwhere(out < 0)[0])
        raise ValueError(f"row {r + 1}, point {c + 1} has the label {int(out[r, c])}; labels are 0..k-1, "
                         "so shift them to start at 0")
    if out.size and out.max() >= MAX_LABELS:
        r, c = (int(v) for v in np.argwhere(out >= MAX_LABELS)[0])
        raise ValueError(f"row {r + 1}, point {c + 1} has the label {int(out[r, c])}; this solver takes labels "
                         f"0..{MAX_LABELS - 1}, so relabel them")
    return out


def _label(v):
    """``v`` as an int label, or None when it is not a whole number (booleans and strings are not)."""
    if isinstance(v, (bool, np.bool_)):
        return None
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)) and np.isfinite(v) and float(v).is_integer():
        return int(v)
    return None


def _read_csv(p: Path) -> list:
    rows = []
    try:
        with open(p, newline="") as f:
            for line, r in enumerate(csv.reader(f), 1):
                cells = [c.strip() for c in r]
                if not any(cells):
                    continue
                row = []
                for j, cell in enumerate(cells):
                    try:
                        row.append(int(cell))
                    except ValueError:
                        raise ValueError(f"line {line}, point {j + 1} is {cell!r}, not a whole number; "
                                         "labels are the integers 0..k-1") from None
                rows.append(row)
    except UnicodeDecodeError:
        raise ValueError("not a text file; a .csv multiclass class has one row of integer labels per concept") from None
    return rows


# ---------------------------------------------------------------------------------------- families
@dataclass(frozen=True)
class MulticlassFamily:
    """A multiclass family: how to make it, its parameters (name -> (default or None, least value)) and
    one line on what it is."""

    make: Callable
    params: dict
    text: str
    size: Callable  # params -> the number of concepts before it is listed


def multiclass_singletons(N: int, k: int) -> MulticlassClass:
    """The all-0 concept and, for each point j and label l in 1..k-1, the concept l at j, 0 elsewhere."""
    rows = [[0] * N] + [[l if i == j else 0 for i in range(N)] for j in range(N) for l in range(1, k)]
    return MulticlassClass(rows, k, family="multiclass-singletons", params={"N": N, "k": k})


def k_label_thresholds(N: int, k: int) -> MulticlassClass:
    """Every nondecreasing map from the points 0..N-1 to the labels 0..k-1 (for k = 2: the thresholds)."""
    rows = [list(r) for r in itertools.combinations_with_replacement(range(k), N)]
    return MulticlassClass(np.array(rows, dtype=np.int64).reshape(len(rows), N), k, family="k-label-thresholds",
                           params={"N": N, "k": k})


def random_multiclass(m: int, N: int, k: int, seed: int = 0) -> MulticlassClass:
    """``m`` rows of ``N`` uniform labels in 0..k-1 from ``numpy.random.default_rng(seed)``, duplicates merged."""
    M = np.random.default_rng(seed).integers(0, k, size=(m, N))
    return MulticlassClass(M, k, family="random-multiclass", params={"m": m, "N": N, "k": k, "seed": seed})


FAMILIES = {
    "multiclass-singletons": MulticlassFamily(
        multiclass_singletons, {"N": (None, 1), "k": (None, 1)},
        "the all-0 concept and each label l >= 1 at a single point: 1 + N(k-1) concepts",
        lambda p: 1 + p["N"] * (p["k"] - 1)),
    "k-label-thresholds": MulticlassFamily(
        k_label_thresholds, {"N": (None, 1), "k": (None, 1)},
        "nondecreasing maps from N ordered points to k labels: binomial(N+k-1, k-1) concepts",
        lambda p: comb(p["N"] + p["k"] - 1, p["k"] - 1)),
    "random-multiclass": MulticlassFamily(
        random_multiclass, {"m": (None, 1), "N": (None, 1), "k": (None, 1), "seed": (0, 0)},
        "m uniform random rows of N labels in 0..k-1 (numpy seed), duplicates merged",
        lambda p: p["m"]),
}


def parse_params(name: str, items) -> dict:
    """``["N=3", "k=4"]`` -> ``{"N": 3, "k": 4}`` for family ``name``, defaults filled in; ValueError (one
    line) for an unknown family or parameter, a missing one, or a value that is not a whole number.

    >>> parse_params("random-multiclass", ["m=5", "N=2", "k=3"])
    {'m': 5, 'N': 2, 'k': 3, 'seed': 0}
    """
    fam = _family(name)
    out: dict = {}
    for item in items:
        key, eq, text = str(item).partition("=")
        if not eq:
            raise ValueError(f"{item!r} is not a parameter k=v; {name} takes {_signature(name)}")
        if key not in fam.params:
            raise ValueError(f"{name} has no parameter {key!r}; it takes {_signature(name)}")
        try:
            out[key] = int(text)
        except ValueError:
            raise ValueError(f"{key}={text!r} is not a whole number; give e.g. {key}=3") from None
    for key, (default, _) in fam.params.items():
        if key not in out:
            if default is None:
                raise ValueError(f"{name} needs {key}=...; it takes {_signature(name)}")
            out[key] = default
    return {key: out[key] for key in fam.params}


def make(name: str, **params) -> MulticlassClass:
    """The class of family ``name`` with ``params``; ValueError (one line) for values out of range or a class
    of more than :data:`MAX_CONCEPTS` concepts."""
    fam = _family(name)
    params = parse_params(name, [f"{k}={v}" for k, v in params.items()])
    for key, (_, least) in fam.params.items():
        if params[key] < least:
            raise ValueError(f"{name}: {key}={params[key]} is too small; give {key} >= {least}")
    if params.get("k", 0) > MAX_LABELS:
        raise ValueError(f"{name}: k={params['k']} labels is more than this solver takes; give k <= {MAX_LABELS}")
    size = fam.size(params)
    if size > MAX_CONCEPTS:
        raise ValueError(f"{name} {' '.join(f'{k}={v}' for k, v in params.items())} has {size} concepts, more than "
                         f"{MAX_CONCEPTS}; lower the parameters")
    return fam.make(**params)


def _family(name: str) -> MulticlassFamily:
    try:
        return FAMILIES[name]
    except KeyError:
        raise ValueError(f"unknown multiclass family {name!r}; choose one of: {', '.join(FAMILIES)}") from None


def _signature(name: str) -> str:
    return " ".join(f"{k}=..." if d is None else f"[{k}={d}]" for k, (d, _) in FAMILIES[name].params.items())
