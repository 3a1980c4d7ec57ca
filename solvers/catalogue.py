"""littlestone and the catalogue of combinatorial parameters (O. Bousquet's "Combinatorial Parameters" database,
github.com/obousquet/Combinatorial-Parameters): which of its classes littlestone builds, which of its parameters
it computes, and the two conversions ``littlestone catalogue import`` and ``export`` run.

* The catalogue's class records define each class in prose, with no list of concepts. :data:`CLASSES` maps the
  short names of those littlestone builds to a family of :mod:`solvers.classes.families` and its parameters at
  the catalogue's n (the size parameter its values are stated in), or to a builder of a fixed class.
  :func:`class_of_record` builds one from a record; a record of a fixed class that names its concepts as 0/1
  strings in its definition ("the four strings 001, 010, 011, and 100") is read from those.
* :data:`PARAMETERS` maps the catalogue's parameter short names to littlestone's keys (``opt`` for its Littlestone
  dimension, ``threshold_chain`` for its threshold dimension: see :mod:`solvers.params`).
* :func:`value_record` writes a store row as a record in the catalogue's value format: the value (or bounds) in
  TeX, a status (``established`` for an exact value its certificates prove on both sides, ``needs_verification``
  when one side is the search's, ``open`` for bounds), and in
  ``details``, ``proof`` and ``proof_source`` the size, the command that reproduces it and what its certificates
  prove. The catalogue states values as formulas in n; a record here is one value at one n, and says so.

Examples
--------
>>> C, family, params = class_of_record({"short_name": "halfintervals", "name": "Half-intervals"}, 4)
>>> family, params, C.n_concepts
('halfintervals', {'n': 4}, 4)
>>> C, family, params = class_of_record({"short_name": "gap", "definition": "the strings 001, 010, 011, and 100."})
>>> family, C.matrix.astype(int).tolist()
(None, [[0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0]])
"""

from __future__ import annotations

import re
from typing import Optional

import numpy as np

__all__ = ["CLASSES", "PARAMETERS", "class_of_record", "catalogue_class", "value_record", "CatalogueError"]


class CatalogueError(ValueError):
    """A catalogue record littlestone cannot read or convert (the message says what to change)."""


def _warmuth_c5():
    """Warmuth's C5 (the catalogue's class 10): on Z/5, the functions that read 1,0,0,1 on four consecutive cyclic
    positions, the fifth free: ten concepts on five points."""
    rows = set()
    for s in range(5):
        for free in (0, 1):
            w = [0] * 5
            for i, v in enumerate((1, 0, 0, 1)):
                w[(s + i) % 5] = v
            w[(s + 4) % 5] = free
            rows.add(tuple(w))
    return np.array(sorted(rows), dtype=np.uint8)


#: The catalogue's class short names littlestone builds: a family and its parameters at the catalogue's n, or a
#: builder of a fixed class (no n).
CLASSES = {
    "singletons": ("singletons", lambda n: {"N": n, "empty": 0}),
    "singletons_plus_empty_set": ("singletons", lambda n: {"N": n, "empty": 1}),
    "full_cube": ("all-functions", lambda n: {"n": n}),
    "halfintervals": ("halfintervals", lambda n: {"n": n}),
    "trivial_concepts": ("constants", lambda n: {"n": n}),
    "majority": ("majority-vote", lambda n: {"n": n}),
    "addressing": ("addressing", lambda n: {"n": n}),
    "blockwiseaddressing": ("blockwise-addressing", lambda n: {"d": n}),
    "quadratic_residue_tournament_classes": ("qr-tournament", lambda n: {"p": n}),
    "warmuth_c5": (None, _warmuth_c5),
}

#: (the catalogue's parameter short name, littlestone's key, the catalogue's name of it), for every parameter both
#: have (``opt``: Opt(C); the others :data:`solvers.params.KEYS`).
_TABLE = (
    ("littlestone_dimension", "opt", "Littlestone Dimension"), ("vc_dimension", "vc", "VC Dimension"),
    ("dual_vc_dimension", "dual_vc", "Dual VC Dimension"), ("threshold_dimension", "threshold_chain",
                                                             "Threshold Dimension"),
    ("star_number", "star", "Star Number"), ("teaching_dimension", "td", "Teaching Dimension"),
    ("recursive_teaching_dimension", "rtd", "Recursive Teaching Dimension"),
    ("best_mistakes", "best_order", "Best Mistakes"), ("worst_mistakes", "worst_order", "Worst Mistakes"),
    ("dual_littlestone_dimension", "dual_opt", "Dual Littlestone Dimension"),
    ("path_dimension", "path", "Path Dimension"),
    ("combinatorial_eluder_dimension", "eluder", "Combinatorial Eluder Dimension"),
    ("covc_dimension", "covc", "co-VC dimension"), ("minimum_star_number", "min_star", "Minimum Star Number"),
    ("minimum_teaching_set_size", "min_td", "Minimum Teaching Set Size"),
    ("extended_teaching_dimension", "xtd", "Extended Teaching Dimension"),
    ("noclashing_teaching_dimension", "nctd", "No-Clashing Teaching Dimension"),
    ("monotone_recursive_teaching_dimension", "rtd_p", "Projected Recursive Teaching Dimension"),
    ("selfdirected_queries_complexity", "self_directed", "Self-Directed Queries Complexity"),
    ("membership_query_complexity", "mq", "Membership Query Complexity"),
    ("proper_equivalence_queries_complexity", "peq", "Proper Equivalence Queries Complexity"),
    ("membership_and_proper_equivalence_queries_complexity", "mpeq",
     "Membership and Proper Equivalence Queries Complexity"),
    ("membership_and_equivalence_queries_complexity", "meq", "Membership and Equivalence Queries Complexity"),
    ("partial_equivalence_queries_complexity", "partial_eq", "Partial Equivalence Queries Complexity"),
    ("majority_complexity", "majority", "Majority Complexity"),
    ("2block_littlestone_dimension", "block_2", "2-Block Littlestone Dimension"),
)
#: The catalogue's parameter short names littlestone computes -> its key.
PARAMETERS = {short: key for short, key, _ in _TABLE}
_NAMES = {key: name for _, key, name in _TABLE}

_WORD = re.compile(r"(?<![0-9A-Za-z])[01]{2,}(?![0-9A-Za-z])")


def _strings(text: str) -> Optional[np.ndarray]:
    """The 0/1 strings a definition lists, when it speaks of strings, there are at least two and all have one
    length."""
    words = _WORD.findall(text or "")
    if len(words) < 2 or len({len(w) for w in words}) != 1:
        return None
    return np.array([[int(ch) for ch in w] for w in dict.fromkeys(words)], dtype=np.uint8)


def catalogue_class(short_name: str, n: Optional[int] = None):
    """(C, family, params) of the catalogue class ``short_name`` of :data:`CLASSES` at size ``n`` (None for a
    fixed class)."""
    from .classes.families import make
    from .classes.finite import ConceptClass

    family, build = CLASSES[short_name]
    if family is None:
        if n is not None:
            raise CatalogueError(f"the catalogue's {short_name} is one fixed class: give no --n")
        return ConceptClass.from_matrix(build()), None, None
    if n is None:
        raise CatalogueError(f"the catalogue's {short_name} is stated for every n: give the size with --n N")
    params = build(n)
    try:
        return make(family, **params), family, params
    except ValueError as e:
        raise CatalogueError(f"{short_name} at n = {n}: {e}") from None


def class_of_record(record: dict, n: Optional[int] = None):
    """(C, family, params) of a class record of the catalogue (its JSON as a dict) at size ``n``: a class of
    :data:`CLASSES`, or a fixed class whose definition lists its concepts as 0/1 strings (family None)."""
    if not isinstance(record, dict):
        raise CatalogueError("a catalogue class record is a JSON object (its data/classes/NNN_name.json)")
    short = record.get("short_name")
    if not isinstance(short, str):
        raise CatalogueError(f"a catalogue class record names its class by a string short_name, not {short!r}")
    if short in CLASSES:
        return catalogue_class(short, n)
    M = _strings(str(record.get("definition", ""))) if "string" in str(record.get("definition", "")) else None
    if M is not None:
        if n is not None:
            raise CatalogueError(f"the catalogue's {short or 'class'} lists its {len(M)} concepts: give no --n")
        from .classes.finite import ConceptClass

        return ConceptClass.from_matrix(M), None, None
    known = ", ".join(sorted(CLASSES))
    raise CatalogueError(f"littlestone cannot build the catalogue's class {short!r}: its definition is prose and "
                         f"lists no 0/1 strings; classes it builds: {known} (or write the matrix as a class file)")


def _reverse(family: Optional[str], params: Optional[dict]) -> Optional[tuple]:
    """(the catalogue's class short name, n) of a littlestone family instance, or None."""
    if family is None:
        return None
    for short, (fam, build) in CLASSES.items():
        if fam != family:
            continue
        for key in ("n", "N", "d", "p"):
            n = (params or {}).get(key)
            if isinstance(n, int) and build(n) == {k: (params or {}).get(k) for k in build(n)}:
                return short, n
    return None


def _tex(rec, checked: bool) -> tuple:
    """(value, status) of a row in TeX: ``established`` when its certificates prove the value on both sides,
    ``needs_verification`` when a side is the search's (not replayed), ``open`` for bounds."""
    if rec.value is not None:
        return f"${rec.value}$", "established" if checked else "needs_verification"
    lo = "?" if rec.lower is None else rec.lower
    hi = "?" if rec.upper is None else rec.upper
    return f"$\\ge {lo},\\ \\le {hi}$", "open"


def value_record(rec, *, record_id: int, check: str, version: str, fixed: Optional[dict] = None,
                 checked: bool = False) -> Optional[dict]:
    """The catalogue value record of the store row ``rec`` (kind ``param``, or ``opt`` of Opt(C)), or None when its
    class or parameter is not one of the catalogue's. ``check`` says what proves the row (the store's check text);
    ``fixed``: class fingerprints -> catalogue short names, for fixed classes read from files; ``checked``: its
    certificates prove the value on both sides (else a side is the search's: ``needs_verification``)."""
    key = (rec.task or {}).get("param") if rec.kind == "param" else "opt" if rec.kind == "opt" else None
    if rec.kind == "opt" and (rec.task or {}).get("game", "deterministic") not in ("deterministic", None):
        return None
    param = next((p for p, k in PARAMETERS.items() if k == key), None)
    if param is None:
        return None
    where = _reverse(rec.family, rec.params)
    if where is None and fixed and rec.class_key in fixed:
        where = (fixed[rec.class_key], None)
    if where is None:
        return None
    short, n = where
    value, status = _tex(rec, checked)
    at = f" at n = {n}" if n is not None else ""
    if rec.family is not None:
        args = " ".join(f"{k}={v}" for k, v in (rec.params or {}).items())
        command = f"littlestone params {rec.family} {args} --only {key}" if key != "opt" else \
            f"littlestone opt {rec.family} {args}"
    else:
        command = f"littlestone catalogue import {short}.json -o {short}_class.json && littlestone params " \
                  f"--matrix {short}_class.json --only {key}"
    what = {"established": "Exact value", "open": "Bounds"}.get(status, "Exact value (one side is littlestone's search, "
                                                                        "not replayed by a checker)")
    return {
        "id": int(record_id),
        "name": f"{_NAMES[key]} of {short}{at}",
        "short_name": f"{param}_{short}" + (f"_n{n}" if n is not None else ""),
        "class_id": f"#classes/{short}",
        "parameter_id": f"#parameters/{param}",
        "value": value,
        "details": f"{what}{at} only (one size, not a formula in n), computed by littlestone {version} on the class "
                   f"as its family {rec.family or 'file'} builds it. Reproduce: `{command}`.",
        "status": status,
        "proof": f"Computed by littlestone; what its certificates prove, replayed by an independent checker: {check}",
        "references": f"littlestone {version}",
        "proof_source": f"littlestone results store row {rec.key}",
    }
