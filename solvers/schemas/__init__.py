"""JSON Schemas (draft 2020-12) of the files littlestone writes: mistake trees, upper-bound certificates, witnesses
and the rows of ``store export --format json``. They are package data, read with :mod:`importlib.resources`:

===================  =========================================================================================
name                 what writes it
===================  =========================================================================================
``tree``             ``opt --tree OUT.json``: a mistake tree, a randomized game's tree, an experts game's tree
``certificate``      ``opt --proof OUT.json``: an upper-bound certificate, either version of the proof format
                     (:mod:`solvers.certificates.rules`)
``witness``          ``attack --witness OUT.json``
``store-row``        one row of ``store export --format json``; ``store-export`` the whole array
``made-for``         the ``"made_for"`` record the others carry; ``game`` their ``"game"``
===================  =========================================================================================

A schema says the shape; what a file proves is for the checkers (``littlestone verify``). The schemas refer to each
other by their ``$id`` (``urn:littlestone:schema:NAME``): a validator is given all of them (:func:`schemas`).

Examples
--------
>>> schema("certificate")["$id"]
'urn:littlestone:schema:certificate'
>>> sorted(schemas())  # doctest: +NORMALIZE_WHITESPACE
['certificate', 'game', 'made-for', 'store-export', 'store-row', 'tree', 'witness']
"""

from __future__ import annotations

import json
from importlib import resources

__all__ = ["schema", "schemas", "NAMES"]

#: The schemas in the package, by name (the file is ``NAME.schema.json``).
NAMES = ("tree", "certificate", "witness", "store-row", "store-export", "made-for", "game")


def schema(name: str) -> dict:
    """The JSON Schema ``name`` (one of :data:`NAMES`) as a dict; ValueError for another name."""
    if name not in NAMES:
        raise ValueError(f"no schema {name!r}; littlestone has {', '.join(NAMES)}")
    return json.loads(resources.files(__name__).joinpath(f"{name}.schema.json").read_text(encoding="utf-8"))


def schemas() -> dict:
    """Every schema, by name: what a validator resolves their ``$ref`` by ``$id`` against."""
    return {name: schema(name) for name in NAMES}
