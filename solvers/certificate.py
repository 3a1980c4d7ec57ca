"""Mistake trees: the certificates of Opt(C) >= d, and their independent checker.

A mistake tree of depth d for a class C is a complete binary tree of depth d whose internal nodes are
points and whose edges are the labels 0 and 1, such that every root-to-leaf path is realised by some
concept of C. Played against any learner (label each point with the opposite of the prediction) it
forces d mistakes, so it proves Opt(C) >= d (seed 000, 000_a63ee94629bf251e.txt: Opt is a max over
targets and example sequences).

JSON form: ``{"depth": d, "root": node}``, where a node is ``null`` (a leaf) or
``{"point": j, "0": node, "1": node}`` with ``j`` a column index of the class.

:func:`verify_tree` is deliberately independent of the solver: it walks the tree over the boolean
matrix with numpy masks, never touching the solver's bitsets or memo.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

__all__ = ["MistakeTree", "verify_tree", "load_tree", "TreeError"]


class TreeError(ValueError):
    """A tree that is malformed or does not certify what it claims."""


class MistakeTree:
    """A mistake tree of a given depth over the points of a class.

    Examples
    --------
    >>> from solvers.concept_class import ConceptClass
    >>> C = ConceptClass.from_matrix([[0, 0], [0, 1], [1, 1]])
    >>> t = MistakeTree(1, {"point": 0, "0": None, "1": None}, C)
    >>> t.to_json()
    {'depth': 1, 'root': {'point': 0, '0': None, '1': None}}
    >>> verify_tree(t.to_json(), C)
    1
    """

    def __init__(self, depth: int, root, C=None):
        self.depth = int(depth)
        self.root = root
        self.C = C

    def to_json(self) -> dict:
        return {"depth": self.depth, "root": self.root}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    def save(self, path) -> None:
        Path(path).write_text(self.dumps() + "\n")

    def to_networkx(self):
        """The tree as a ``networkx.DiGraph``: nodes carry ``point`` (index) and ``label`` (the point's
        coordinates when the class is known); edges carry ``label`` 0 or 1."""
        import networkx as nx

        G = nx.DiGraph(depth=self.depth)
        counter = [0]

        def add(node) -> int:
            k = counter[0]
            counter[0] += 1
            if node is None:
                G.add_node(k, point=-1, label="leaf")
                return k
            j = node["point"]
            text = str(self.C.points[j]) if self.C is not None else str(j)
            G.add_node(k, point=j, label=text)
            for b in ("0", "1"):
                c = add(node[b])
                G.add_edge(k, c, label=int(b))
            return k

        add(self.root)
        return G

    def to_dot(self) -> str:
        """Graphviz DOT text of the tree (no pydot needed)."""
        G = self.to_networkx()
        lines = ["digraph mistake_tree {", "  node [shape=box];"]
        for k, a in G.nodes(data=True):
            shape = ", shape=point" if a["point"] < 0 else ""
            lines.append(f'  n{k} [label="{a["label"]}"{shape}];')
        for u, v, a in G.edges(data=True):
            lines.append(f'  n{u} -> n{v} [label="{a["label"]}"];')
        lines.append("}")
        return "\n".join(lines) + "\n"

    def write(self, path) -> None:
        """Write by extension: ``.json``, ``.dot`` / ``.gv``, or ``.graphml``."""
        p = Path(path)
        ext = p.suffix.lower()
        if ext == ".json":
            self.save(p)
        elif ext in (".dot", ".gv"):
            p.write_text(self.to_dot())
        elif ext == ".graphml":
            import networkx as nx

            nx.write_graphml(self.to_networkx(), p)
        else:
            raise ValueError(f"unknown tree format {ext!r}; use .json, .dot or .graphml")


def load_tree(path) -> dict:
    """Read a tree JSON file, with one-line errors for what is wrong."""
    p = Path(path)
    if not p.exists():
        raise TreeError(f"file {str(p)!r} does not exist; give the path of a tree JSON file")
    try:
        data = json.loads(p.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise TreeError(f"{p}: not valid JSON ({e})") from None
    return data


def verify_tree(tree: dict, C) -> int:
    """Check a mistake tree against class ``C`` from scratch; return its depth.

    Every internal node must name a column of ``C``; every leaf must sit at depth ``tree["depth"]``;
    every root-to-leaf path must be realised by at least one concept of ``C``.

    Raises
    ------
    TreeError
        Saying what is wrong (malformed node, wrong depth, unrealised path).
    """
    if not isinstance(tree, dict) or "depth" not in tree or "root" not in tree:
        raise TreeError('a tree is a JSON object {"depth": d, "root": node}')
    depth = tree["depth"]
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise TreeError(f"depth {depth!r} is not a whole number >= 0")
    M = np.asarray(C.matrix, dtype=bool)
    n_points = M.shape[1]
    # Iterative walk: (node, mask of consistent concepts, depth so far, path for messages).
    stack = [(tree["root"], np.ones(M.shape[0], dtype=bool), 0, ())]
    while stack:
        node, mask, level, path = stack.pop()
        if not mask.any():
            raise TreeError(f"the path {_fmt(path)} is realised by no concept of the class")
        if node is None:
            if level != depth:
                raise TreeError(f"the leaf after {_fmt(path)} is at depth {level}, not {depth}")
            continue
        if not isinstance(node, dict) or set(node) != {"point", "0", "1"}:
            raise TreeError(f'node after {_fmt(path)} is not null or {{"point": j, "0": ..., "1": ...}}')
        j = node["point"]
        if isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < n_points:
            raise TreeError(f"node after {_fmt(path)} names point {j!r}, not a column index 0..{n_points - 1}")
        if level >= depth:
            raise TreeError(f"the tree is deeper than its stated depth {depth} (after {_fmt(path)})")
        col = M[:, j]
        stack.append((node["1"], mask & col, level + 1, path + ((j, 1),)))
        stack.append((node["0"], mask & ~col, level + 1, path + ((j, 0),)))
    return depth


def _fmt(path) -> str:
    if not path:
        return "the root"
    return " ".join(f"x{j}={b}" for j, b in path)
