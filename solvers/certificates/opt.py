"""Mistake trees: the certificates of Opt(C) >= d, and their independent checker.

A mistake tree of depth d for a class C is a complete binary tree of depth d whose internal nodes are
points and whose edges are the labels 0 and 1, such that every root-to-leaf path is realised by some
concept of C. Played against any learner (label each point with the opposite of the prediction) it
forces d mistakes, so it proves Opt(C) >= d ([Rivest94]: Opt is a max over
targets and example sequences).

JSON form: ``{"format": "littlestone-proof/2", "rule": "mistake-tree", "depth": d, "root": node}``, where a
node is ``null`` (a leaf) or ``{"point": j, "0": node, "1": node}`` with ``j`` a column index of the class (a
tree written before the format was versioned has no ``"format"`` and ``"rule"``, and is read as it was).

:func:`verify_tree` is deliberately independent of the solver: it walks the tree over the boolean
matrix with numpy masks, never touching the solver's bitsets or memo. For a class too large to store
as a matrix (an :class:`~solvers.classes.evaluated.EvaluatedClass`: thresholds, intervals, rectangles) both
checkers read the labels that the family's definition computes instead of the matrix, by the same
steps.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np

from ._proven import ProvenFraction, ProvenInt
from .._errors import ClassMismatch, TreeError
from ..jsontext import loads
from ._reading import (_POINT_KEYS, _POINT_NODE, _fmt, _show, depth_at_most, entry_list, generators, inner,
                       path_entries, point_step, read_tree, whole)
from .binding import bind, check_made_for, made_for  # the class a certificate is for

if TYPE_CHECKING:
    import networkx as nx

    from ..classes.protocol import ConceptClassProtocol
    from ..game_rules import Game

__all__ = ["MistakeTree", "RandomizedTree", "verify_tree", "verify_upper", "TreeCheck", "UpperCheck", "ProvenInt",
           "ProvenFraction", "load_tree",
           "TreeError", "ProofTooLarge",
           "ClassMismatch", "made_for", "bind", "check_made_for", "tex_text", "TIKZ_MAX_NODES", "tree_height"]

#: The most nodes :meth:`MistakeTree.to_tikz` draws, leaves included (``littlestone plot tree``'s default
#: too): a complete tree of depth 5, 32 leaves across a page. A larger tree is cut below the deepest whole
#: level that keeps within them; each cut subtree is marked +k (its nodes left out).
TIKZ_MAX_NODES = 63


class MistakeTree:
    """A mistake tree of a given depth over the points of a class.

    Examples
    --------
    >>> from solvers.classes import ConceptClass
    >>> C = ConceptClass.from_matrix([[0, 0], [0, 1], [1, 1]])
    >>> t = MistakeTree(1, {"point": 0, "0": None, "1": None}, C)
    >>> t.to_json()  # doctest: +ELLIPSIS
    {'made_for': {...}, 'format': 'littlestone-proof/2', 'rule': 'mistake-tree', 'depth': 1, 'root': {'point': 0, '0': None, '1': None}}
    >>> verify_tree(t.to_json(), C)
    TreeCheck(depth=1, claim='Opt(C) >= 1', ok=True)
    """

    def __init__(self, depth: int, root, C=None, game=None, *, label: str | None = None, levels=None):
        self.depth = int(depth)
        self._root = root
        self.C = C
        self.game = game  # a solvers.game_rules.Game, or None for Opt(C)'s own game
        self.label = label  # the class in words for "made_for" (default str(C))
        # A complete tree whose every node at level i asks the point levels[i] (a shattered set, in order):
        # written as {"depth": d, "levels": [...]}, 2^d - 1 nodes in d numbers.
        self.levels = None if levels is None else [int(j) for j in levels]
        if self.levels is not None and len(self.levels) != self.depth:
            raise ValueError(f"a tree of depth {self.depth} by levels names {len(self.levels)} points")

    @classmethod
    def shattered(cls, points: Sequence[int], C: ConceptClassProtocol | None = None, *,
                  label: str | None = None) -> "MistakeTree":
        """The complete mistake tree over a set of points ``C`` shatters: every node at depth i asks the
        point ``points[i]``; each of the 2^d paths is realised, so it proves Opt(C) >= d ([Rivest94])."""
        return cls(len(points), None, C, label=label, levels=points)

    @property
    def root(self):
        """The tree as nested dicts ``{"point": j, "0": node, "1": node}`` (a leaf is None). For a tree by
        levels, one node per level, shared by both children of the level above (a graph of d nodes that
        reads as the complete tree)."""
        if self._root is None and self.levels:
            node = None
            for j in reversed(self.levels):
                node = {"point": j, "0": node, "1": node}
            self._root = node
        return self._root

    @root.setter
    def root(self, value):
        self._root = value

    @classmethod
    def from_json(cls, data: dict, C: ConceptClassProtocol | None = None, game: Game | None = None) -> "MistakeTree":
        """The tree of :meth:`to_json`'s text (by nodes, or by levels)."""
        if data.get("levels") is not None and data.get("root") is None:
            return cls(data["depth"], None, C, game, levels=data["levels"])
        return cls(data["depth"], data["root"], C, game)

    def _made_for(self) -> dict:
        """``{"made_for": ...}`` when the class is known (:func:`made_for`), else ``{}``."""
        return {} if self.C is None else {"made_for": made_for(self.C, self.label)}

    def to_json(self) -> dict:
        """The tree in the proof format (:mod:`solvers.certificates.rules`): ``"format"`` and its rule,
        ``mistake-tree``, or ``error-tree`` for a game with label errors or a horizon."""
        from .rules import stamp

        if self.levels is not None and (self.game is None or self.game.standard):
            return stamp({**self._made_for(), "depth": self.depth, "levels": list(self.levels)}, "mistake-tree")
        out = {**self._made_for(), "depth": self.depth, "root": self.root}
        if self.game is not None and not self.game.standard:
            out["game"] = self.game.to_json()  # paths are labelled within game.errors errors of a concept
            return stamp(out, "error-tree")
        return stamp(out, "mistake-tree")

    def dumps(self) -> str:
        """The tree as compact JSON text (``json.dumps`` with ``separators=(",", ":")``)."""
        data = self.to_json()
        try:
            return json.dumps(data, separators=(",", ":"))
        except RecursionError:  # a hand-built tree deeper than the recursion limit: the same text, iteratively
            head = {k: v for k, v in data.items() if k != "root"}
            return json.dumps(head, separators=(",", ":"))[:-1] + ',"root":' + _dumps_node(self.root) + "}"

    def save(self, path: str | os.PathLike) -> None:
        Path(path).write_text(self.dumps() + "\n")

    def to_networkx(self) -> nx.DiGraph:
        """The tree as a ``networkx.DiGraph``: nodes carry ``point`` (index) and ``label`` (the point's
        coordinates when the class is known); edges carry ``label`` 0 or 1."""
        import networkx as nx

        G = nx.DiGraph(depth=self.depth)
        # Iterative preorder (node 0 is the root, then its 0-subtree, then its 1-subtree), so that
        # any depth works; entries are (node, parent number or None, edge label).
        stack = [(self.root, None, None)]
        k = 0
        while stack:
            node, parent, b = stack.pop()
            if node is None:
                G.add_node(k, point=-1, label="leaf")
            else:
                j = node["point"]
                if isinstance(j, (list, tuple)):  # the point itself (a class whose points are not listed)
                    text, j = str(tuple(j)), 0
                else:
                    text = str(self.C.points[j]) if self.C is not None else str(j)
                if "repeat" in node:  # a repeat node of a randomized tree: x shown while the answer is y0
                    y0 = node["repeat"]
                    G.add_node(k, point=j, label=f"{text} (repeat {y0})")
                    stack.append((node["exit"], k, 1 - y0))
                else:
                    G.add_node(k, point=j, label=text)
                    stack.append((node["1"], k, 1))
                    stack.append((node["0"], k, 0))
            if parent is not None:
                G.add_edge(parent, k, label=b)
            k += 1
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

    def __repr__(self) -> str:
        made = self.label if self.label is not None else (str(self.C) if self.C is not None else None)
        return f"<MistakeTree: {self._what()}{', for ' + made if made else ''}>"

    def _svg_text(self, node) -> str:
        """A node's point as the SVG shows it: :meth:`_point_text` without TeX."""
        j = node["point"]
        if isinstance(j, (list, tuple)):
            p = tuple(j)
        elif self.C is not None:
            p = self.C.points[j]
        else:
            return f"x{j}"
        if isinstance(p, (tuple, list)):
            bits = len(p) > 1 and all(v in (0, 1) and not isinstance(v, float) for v in p)
            text = "".join(str(v) for v in p) if bits else ", ".join(str(v) for v in p)
        else:
            text = str(p)
        text = text if len(text) <= 12 else text[:11] + "\u2026"
        return text + f" (repeat {node['repeat']})" if "repeat" in node else text

    def _repr_svg_(self, max_depth: int = 4) -> str:
        """The tree down to depth ``max_depth`` (the root at depth 0) as an SVG picture (notebooks show it):
        each node the point asked, the edge to its left child labelled 0 and to its right child 1, a leaf a
        dot; a node whose subtree is cut is drawn dashed, and the title says how many levels are drawn. Drawn by hand (no plotting library); only the levels drawn are
        walked."""
        from html import escape

        # Each drawn node owns a span of the width; its children split it equally (0 left, 1 right).
        levels, level = [], [(self.root, None, 0.0, 1.0, None)]  # (node, edge label, span, parent's x)
        for _ in range(max(1, max_depth)):
            levels.append(level)
            below = []
            for node, _b, a, z, _px in level:
                if isinstance(node, dict):
                    kids = _children(node)
                    step = (z - a) / len(kids)
                    below += [(child, b, a + k * step, a + (k + 1) * step, (a + z) / 2)
                              for k, (b, child) in enumerate(kids)]
            if not below:
                break
            level = below
        else:
            levels.append(level)
        drawn = len(levels)
        h = 56
        width = max(240, min(1200, 90 * max(len(lv) for lv in levels)))
        height = h * drawn + 28
        cut = drawn - 1 < self.depth
        head = self._what() + (f" (top {drawn} levels; dashed: cut)" if cut else "")
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
               f'font-family="sans-serif" font-size="11">', f'<text x="4" y="14">{escape(head)}</text>']
        for i, lv in enumerate(levels):
            y = 28 + i * h + 14
            for node, b, a, z, px in lv:
                x = (a + z) / 2 * width
                if px is not None:
                    out.append(f'<line x1="{px * width:.1f}" y1="{y - h + 10}" x2="{x:.1f}" y2="{y - 10}" '
                               'stroke="#888"/>')
                    out.append(f'<text x="{(px * width + x) / 2 + (-8 if b == 0 else 4):.1f}" y="{y - h / 2:.1f}" '
                               f'fill="#555">{b}</text>')
                if node is None:
                    out.append(f'<circle cx="{x:.1f}" cy="{y}" r="3" fill="black"/>')
                    continue
                text = escape(self._svg_text(node))
                wbox = 7 * len(text) + 10
                dash = ' stroke-dasharray="3,2"' if i == drawn - 1 else ""
                out.append(f'<rect x="{x - wbox / 2:.1f}" y="{y - 10}" width="{wbox}" height="20" rx="4" '
                           f'fill="white" stroke="black"{dash}/>')
                out.append(f'<text x="{x:.1f}" y="{y + 4}" text-anchor="middle">{text}</text>')
        out.append("</svg>")
        return "".join(out)

    def _what(self) -> str:
        """What the tree proves, in words: ``mistake tree of depth 3: Opt(C) >= 3``."""
        standard = self.game is None or self.game.standard
        return f"mistake tree of depth {self.depth}: {'Opt' if standard else self.game.symbol}(C) >= {self.depth}"

    def _point_text(self, node) -> str:
        """The point a node shows, as ``littlestone plot tree`` names it: ``4`` for the point (4,) of
        {1..N}, ``0110`` for a bit vector, ``1, 2`` for another tuple, ``$x_{j}$`` without the class."""
        j = node["point"]
        if isinstance(j, (list, tuple)):  # the point itself (a class whose points are not listed)
            p = tuple(j)
        elif self.C is not None:
            p = self.C.points[j]
        else:
            return f"$x_{{{j}}}$"
        if isinstance(p, (tuple, list)):
            bits = len(p) > 1 and all(v in (0, 1) and not isinstance(v, float) for v in p)
            text = "".join(str(v) for v in p) if bits else ", ".join(str(v) for v in p)
        else:
            text = str(p)
        text = tex_text(text)
        return text + f" (repeat {node['repeat']})" if "repeat" in node else text

    def to_tikz(self, max_nodes: int = TIKZ_MAX_NODES) -> str:
        """The tree as a TikZ picture drawn by the ``forest`` package, for a paper: each node the point shown
        there, each edge the label given (0 to the left, 1 to the right), each leaf a dot.

        The text compiles inside any LaTeX document that loads ``forest`` (its first comment lines say so).
        A tree of more than ``max_nodes`` nodes (leaves included) is drawn down to the deepest whole level
        that keeps within them, as ``littlestone plot tree`` draws it: under each cut node a dashed stub
        ``+k`` counts the nodes below it, and a note above the root says how many nodes were left out. Only
        the levels drawn are walked (a tree by levels is never expanded).

        Examples
        --------
        >>> from solvers.classes import ConceptClass
        >>> C = ConceptClass.from_matrix([[0, 0], [0, 1], [1, 1]])
        >>> print(MistakeTree(1, {"point": 0, "0": None, "1": None}, C).to_tikz())  # doctest: +ELLIPSIS
        % littlestone: mistake tree of depth 1: Opt(C) >= 1, for the matrix class (3 concepts x 2 points); 3 nodes
        % needs \\usepackage{forest} (it loads TikZ); to fit a page: \\resizebox{\\linewidth}{!}{...} (graphicx)
        \\begin{forest}
          for tree={draw, rounded corners, font=\\footnotesize, inner sep=2pt, s sep=2mm, l sep=6mm}
          [{0}
            [{}, circle, fill, inner sep=0pt, minimum size=3pt, edge label={node[midway, left, font=\\scriptsize]{0}}]
            [{}, circle, fill, inner sep=0pt, minimum size=3pt, edge label={node[midway, right, font=\\scriptsize]{1}}]]
        \\end{forest}
        <BLANKLINE>
        """
        root = self.root
        sizes: dict = {}  # id(node) -> the nodes of its subtree (a shared subtree counted once per place)
        total = _subtree_nodes(root, sizes)
        kept, level, keep = 1, [root], 0  # the nodes drawn, the deepest level drawn and its nodes
        while True:
            below = [child for node in level if isinstance(node, dict) for _, child in _children(node)]
            if not below or kept + len(below) > max(max_nodes, 1):
                break
            kept, level, keep = kept + len(below), below, keep + 1
        made = self.label if self.label is not None else (str(self.C) if self.C is not None else None)
        head = self._what() + (f", for {made}" if made else "")
        head += f"; {total} nodes" if kept == total else (
            f"; the top {keep + 1} levels drawn, {kept} of {total} nodes ({total - kept} left out; "
            "each cut subtree is a dashed +k)")
        lines = [f"% littlestone: {' '.join(head.split())}",
                 "% needs \\usepackage{forest} (it loads TikZ); to fit a page: \\resizebox{\\linewidth}{!}{...} (graphicx)",
                 "\\begin{forest}",
                 "  for tree={draw, rounded corners, font=\\footnotesize, inner sep=2pt, s sep=2mm, l sep=6mm}"]
        leaf = "circle, fill, inner sep=0pt, minimum size=3pt"
        # Preorder, iteratively (any depth); entries are (node, its depth, the edge label above it), or "]" to
        # close the node last opened that has children.
        stack: list = [(root, 0, None)]
        while stack:
            item = stack.pop()
            if item == "]":
                lines[-1] += "]"
                continue
            node, depth, b = item
            opts = []
            if node is None:
                text, opts = "", [leaf]
            else:
                text = self._point_text(node)
            if depth == 0 and kept < total:
                # (no [options] inside: forest hands the label to TikZ within the node's own [...])
                opts.append(f"label={{above:{{\\scriptsize\\dots{{}} {total - kept} nodes left out (the top "
                            f"{keep + 1} levels drawn)}}}}")
            if b is not None:
                side = "left" if b == 0 else "right"
                opts.append(f"edge label={{node[midway, {side}, font=\\scriptsize]{{{b}}}}}")
            lines.append("  " * (depth + 1) + "[{" + text + "}" + "".join(", " + o for o in opts))
            if node is None:
                lines[-1] += "]"
            elif depth == keep:  # cut here: the subtree below is counted, not drawn
                hidden = _subtree_nodes(node, sizes) - 1
                lines.append("  " * (depth + 2) + f"[{{+{hidden}}}, draw=none, font=\\scriptsize, edge={{densely dashed}}]]")
            else:
                stack.append("]")
                stack.extend((child, depth + 1, label) for label, child in reversed(_children(node)))
        lines.append("\\end{forest}")
        return "\n".join(lines) + "\n"

    def write(self, path: str | os.PathLike) -> None:
        """Write by extension: ``.json``, ``.dot`` / ``.gv``, ``.graphml``, or ``.tex`` (:meth:`to_tikz`)."""
        p = Path(path)
        ext = p.suffix.lower()
        if ext == ".json":
            self.save(p)
        elif ext in (".dot", ".gv"):
            p.write_text(self.to_dot())
        elif ext == ".graphml":
            import networkx as nx

            nx.write_graphml(self.to_networkx(), p)
        elif ext == ".tex":
            p.write_text(self.to_tikz(), encoding="utf-8")
        else:
            raise ValueError(f"unknown tree format {ext!r}; use .json, .dot, .graphml or .tex")


_TEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "|": r"\textbar{}",
                "<": r"\textless{}", ">": r"\textgreater{}"}


def cut_tree(root, depth: int):
    """A tree of nested ``{"point", "0", "1"}`` dicts cut at ``depth`` (iteratively: a deep tree does not
    reach the recursion limit). A mistake tree of depth D cut at d <= D is one of depth d."""
    box: list = [None]
    stack = [(root, depth, box, 0)]
    while stack:
        node, d, parent, slot = stack.pop()
        if node is None or d <= 0:
            parent[slot] = None
            continue
        new = {"point": node["point"], "0": None, "1": None}
        parent[slot] = new
        stack.append((node["1"], d - 1, new, "1"))
        stack.append((node["0"], d - 1, new, "0"))
    return box[0]


def tex_text(text) -> str:
    """``text`` for LaTeX's text mode: its special characters escaped.

    >>> print(tex_text("best_order 50% {a}"))
    best\\_order 50\\% \\{a\\}
    """
    return "".join(_TEX_SPECIAL.get(c, c) for c in str(text))


def _children(node) -> list:
    """``[(edge label, child)]`` of a tree node: ``"0"`` and ``"1"``, or a repeat node's ``exit`` (reached by
    the label other than the one repeated)."""
    if "repeat" in node:
        return [(1 - int(node["repeat"]), node.get("exit"))]
    return [(0, node.get("0")), (1, node.get("1"))]


def _subtree_nodes(root, sizes: dict) -> int:
    """The nodes of the subtree at ``root``, leaves included; ``sizes`` (id(node) -> count) is filled in, so
    that a subtree shared by both children (a tree by levels) is counted once: linear in its distinct nodes."""
    stack = [(root, False)]
    while stack:
        node, ready = stack.pop()
        if not isinstance(node, dict) or id(node) in sizes:
            continue
        kids = [child for _, child in _children(node)]
        if ready:
            sizes[id(node)] = 1 + sum(sizes[id(c)] if isinstance(c, dict) else 1 for c in kids)
        else:
            stack.append((node, True))
            stack.extend((c, False) for c in kids)
    return sizes[id(root)] if isinstance(root, dict) else 1


def _dumps_node(root) -> str:
    """``json.dumps(root, separators=(",", ":"))`` for a tree node (nested dicts of ints, strings and
    nodes), without recursion."""
    parts: list[str] = []
    stack: list = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, _Text):  # text queued between the children
            parts.append(item)
        elif isinstance(item, dict):
            keys = list(item)
            pieces: list = [_Text("{")]
            for i, key in enumerate(keys):
                pieces += [_Text(("," if i else "") + json.dumps(str(key)) + ":"), item[key]]
            pieces.append(_Text("}"))
            stack.extend(reversed(pieces))
        else:
            parts.append(json.dumps(item))
    return "".join(parts)


class _Text(str):
    """JSON text already written (as opposed to a string value still to be quoted)."""


class RandomizedTree(MistakeTree):
    """The lower-bound certificate of the randomized game: a shattered tree of value ``value``
    (:func:`solvers.certificates.games.verify_randomized_tree` checks it). ``depth`` is its height."""

    def __init__(self, value, root, C=None, game=None, *, label: str | None = None):
        super().__init__(tree_height(root), root, C, game, label=label)
        self.value = value

    def _what(self) -> str:
        v = self.value
        text = str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
        return f"shattered tree worth {text}: {self.game.symbol if self.game is not None else 'RL'}(C) >= {text}"

    def to_json(self) -> dict:
        v = self.value
        text = str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
        from .rules import stamp

        return stamp({"kind": "randomized-tree", **self._made_for(), "game": self.game.to_json(), "value": text,
                      "root": self.root}, "randomized-tree")


def tree_height(root) -> int:
    best = 0
    stack = [(root, 0)]
    while stack:
        node, d = stack.pop()
        if node is None:
            best = max(best, d)
        elif "repeat" in node:
            stack.append((node["exit"], d + 1))
        else:
            stack.append((node["0"], d + 1))
            stack.append((node["1"], d + 1))
    return best


def load_tree(path: str | os.PathLike) -> dict:
    """Read a certificate JSON file (a mistake tree, an upper-bound certificate or a witness), with
    one-line errors for what is wrong.

    Raises
    ------
    TreeError
        If the file is missing, not JSON, or nested deeper than littlestone reads
        (:data:`solvers.jsontext.MAX_NESTING` levels; a mistake tree of depth d is nested d + 2 levels).
    """
    p = Path(path)
    if not p.exists():
        raise TreeError(f"file {str(p)!r} does not exist; give the path of a tree JSON file")
    if p.is_dir():
        raise TreeError(f"{str(p)!r} is a directory; give the path of a tree JSON file")
    try:
        data = loads(p.read_text(), p, error=TreeError,
                     hint="certificates are shallow: a mistake tree of depth d is nested d + 2 levels "
                          "(and needs 2^d concepts), a witness or an upper-bound certificate 4")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise TreeError(f"{p}: not valid JSON ({e})") from None
    return data


def _verify_levels(tree: dict, C) -> int:
    """A complete tree by levels, ``{"depth": d, "levels": [j_1, ..., j_d]}`` (every node at depth i asks
    point j_i): each of its 2^d paths is realised exactly when C shatters the d points, which is checked by
    counting the distinct label patterns of the concepts on them (2^d of them)."""
    depth, levels = tree.get("depth"), tree.get("levels")
    m, n_points = _Labels(C).shape
    whole(depth, "depth")
    if not isinstance(levels, list) or len(levels) != depth or any(
            isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < n_points for j in levels):
        raise TreeError(f'"levels" must list {_show(depth)} point indices (0..{n_points - 1}), one per level')
    if len(set(levels)) != len(levels):
        raise TreeError("a point repeats in \"levels\": a path asking it twice is not realised both ways")
    depth_at_most(depth, m)
    if depth == 0:
        return 0
    if getattr(C, "matrix", None) is None:
        raise TreeError("a tree by levels is checked on the class's matrix, and this class has none")
    M = np.asarray(C.matrix, dtype=bool)[:, levels].astype(np.int64)
    codes = M @ (np.int64(1) << np.arange(depth, dtype=np.int64))
    realised = np.unique(codes, return_counts=True)[0].size  # (counts: numpy 2.4 imports numpy.ma otherwise, 12 ms)
    if realised != 1 << depth:
        raise TreeError(f"{(1 << depth) - realised} of the tree's {1 << depth} paths are realised by no concept "
                        "(the points of \"levels\" are not shattered)")
    return depth


class TreeCheck(ProvenInt):
    """What :func:`verify_tree` proved: a mistake tree of ``depth`` d realised by the class, so Opt(C) >= d.

    It is the int d itself (``verify_tree(t, C) == 3``, ``max(...)``, JSON and arithmetic read the depth as
    before), and says what that number is: ``claim`` (``"Opt(C) >= 3"``) and ``ok`` (always True; a tree that
    fails raises :class:`TreeError`). A failed check never returns.

    Examples
    --------
    >>> t = TreeCheck(3)
    >>> t, t.depth, t.claim, t == 3, t + 1
    (TreeCheck(depth=3, claim='Opt(C) >= 3', ok=True), 3, 'Opt(C) >= 3', True, 4)
    """

    _relation = ">="
    depth = property(int, doc="The tree's depth d: the adversary forces d mistakes on any learner.")

    def __repr__(self) -> str:
        return f"TreeCheck(depth={int(self)}, claim={self.claim!r}, ok=True)"


class UpperCheck(ProvenInt):
    """What :func:`verify_upper` proved: Opt(C) <= u, by a refutation checked entry by entry.

    It is the int u itself (as :func:`verify_upper` returned before) with ``claim`` (``"Opt(C) <= 3"``) and
    ``ok`` (always True; a certificate that fails raises :class:`TreeError`).

    Examples
    --------
    >>> UpperCheck(3)
    UpperCheck(bound=3, claim='Opt(C) <= 3', ok=True)
    """

    _relation = "<="
    bound = property(int, doc="The bound u proven on Opt(C).")

    def __repr__(self) -> str:
        return f"UpperCheck(bound={int(self)}, claim={self.claim!r}, ok=True)"


def verify_tree(tree: dict, C: ConceptClassProtocol) -> TreeCheck:
    """Check a mistake tree against class ``C`` from scratch; return what it proves, Opt(C) >= its depth.

    Every internal node must name a column of ``C``; every leaf must sit at depth ``tree["depth"]``;
    every root-to-leaf path must be realised by at least one concept of ``C``. A complete tree may be
    given by its levels, ``{"depth": d, "levels": [j_1, ..., j_d]}`` (every node at depth i asks j_i): its
    paths are all realised when ``C`` shatters those points. For a class whose
    points are not listed (``C.finite`` False) the nodes hold the points themselves, checked by
    :func:`solvers.certificates.disjunctions.verify_point_tree`.

    Returns
    -------
    TreeCheck
        The depth d as an int (compare it, add it, write it to JSON as before) that says what it proves:
        ``claim`` ``"Opt(C) >= d"``, ``depth``, ``ok``.

    Raises
    ------
    TreeError
        Saying what is wrong (malformed node, wrong depth, unrealised path); :class:`ClassMismatch` when
        the tree records (``"made_for"``) another class than ``C``.
    """
    if not isinstance(tree, dict):
        raise TreeError('a tree is a JSON object {"depth": d, "root": node} (or {"depth": d, "levels": [points]})')
    from .rules import verify

    done = verify(tree, C, within=frozenset({"mistake-tree"}))
    return TreeCheck(done, done.claim, done.rule)


def check_tree(tree: dict, C) -> int:
    """The checker of the rule ``mistake-tree`` (:mod:`solvers.certificates.rules`): :func:`verify_tree` once its
    class is matched."""
    if isinstance(tree, dict) and "levels" in tree and "root" not in tree and getattr(C, "finite", True):
        return _verify_levels(tree, C)
    if not getattr(C, "finite", True):  # points not listed: the tree holds them (solvers.opt.disjunctions)
        from .disjunctions import verify_point_tree

        return verify_point_tree(tree, C)
    depth = read_tree(tree, '{"depth": d, "root": node} (or {"depth": d, "levels": [points]})')
    table = _Labels(C)
    m, n_points = table.shape
    depth_at_most(depth, m)
    # Level by level: ``nodes`` are the tree's nodes at this level, left to right (node i's children are
    # 2i and 2i + 1 below), and ``at[c]`` is the node whose path concept c agrees with. A node whose path
    # no concept agrees with is an unrealised path; one pass over the matrix per level (not per node).
    levels: list[list] = []
    nodes = [tree["root"]]
    at = np.zeros(m, dtype=np.int64)
    for level in range(depth + 1):
        levels.append(nodes)
        counts = np.bincount(at, minlength=len(nodes))
        empty = np.flatnonzero(counts == 0)
        if empty.size:
            raise TreeError(f"the path {_fmt(_path(levels, level, int(empty[0])))} is realised by no concept of the class")
        points = np.empty(len(nodes), dtype=np.int64)
        below = []
        for i, node in enumerate(nodes):
            if node is None and level == depth:
                continue  # a leaf where it belongs
            if not (type(node) is dict and level < depth and node.keys() == _POINT_KEYS):  # (the message's path
                # is built only here: on millions of nodes it would cost more than the check)
                if not inner(node, level, depth, _POINT_KEYS, _POINT_NODE, f"after {_fmt(_path(levels, level, i))}"):
                    continue
            j = node["point"]
            if isinstance(j, bool) or not isinstance(j, int) or not 0 <= j < n_points:
                raise TreeError(f"node after {_fmt(_path(levels, level, i))} names point {_show(j)}, not a column index "
                                f"0..{n_points - 1}")
            points[i] = j
            below += (node["0"], node["1"])
        if level == depth:
            break
        at = 2 * at + table.labels(np.arange(m), points[at])
        nodes = below
    return depth


class _Labels:
    """The labels a checker reads: the class's matrix, or for a class that stores none
    (:class:`~solvers.classes.evaluated.EvaluatedClass`) the labels its family's definition computes."""

    def __init__(self, C):
        self._C = C
        self._M = None if not hasattr(C, "matrix") and hasattr(C, "labels") else np.asarray(C.matrix, dtype=bool)
        self.shape = (C.n_concepts, C.n_points) if self._M is None else self._M.shape

    def labels(self, concepts, columns) -> np.ndarray:
        """Concept ``concepts[k]``'s label of column ``columns[k]`` (the arrays broadcast)."""
        return self._M[concepts, columns] if self._M is not None else self._C.labels(concepts, columns)

    def ones(self, concepts) -> np.ndarray:
        """For every column, how many of ``concepts`` label it 1."""
        return self._M[concepts].sum(axis=0) if self._M is not None else self._C.ones(concepts)


def _path(levels: list, level: int, i: int) -> tuple:
    """The labelled points on the way to node ``i`` of ``levels[level]`` (see :func:`verify_tree`)."""
    steps = []
    for up in range(level):
        parent = i >> (level - up)
        steps.append((levels[up][parent]["point"], (i >> (level - up - 1)) & 1))
    return tuple(steps)


# ---------------------------------------------------------------------------------------- upper bounds
class ProofTooLarge(ValueError):
    """The upper-bound certificate would exceed the size limit."""


def _set_name(idx: np.ndarray) -> bytes:
    return idx.tobytes()


def _orbit_namer(sym, M: np.ndarray):
    """``name(idx)`` for an upper-bound certificate with a symmetry group: the least image, over the
    group, of the version space's closure (the labels all its concepts agree on; it names a version
    space reached by examples one to one), so that two version spaces get one name exactly when a
    symmetry maps one onto the other, and they have the same Opt ([Rivest94]: the game with the
    points renamed and possibly every label flipped). Each generator is first checked to map the
    class onto itself; nothing is taken from the solver."""
    m, n_points = M.shape
    gens = generators(sym, M, complement=True)
    group = {(tuple(range(n_points)), False)}
    frontier = list(group)
    while frontier:
        new = []
        for p, f in frontier:
            for q, g in gens:
                e = (tuple(q[v] for v in p), f != g)
                if e not in group:
                    group.add(e)
                    new.append(e)
        if len(group) > 1_000_000:
            raise TreeError("the certificate's symmetry group has more than 1000000 elements")
        frontier = new
    perms = np.array([p for p, _ in group], dtype=np.int64)
    flips = np.array([f for _, f in group], dtype=np.int64)
    order = np.arange(len(perms))[:, None]
    chunks = [np.arange(a, min(a + 39, n_points)) for a in range(0, n_points, 39)]  # 3^39 < 2^63

    def name(idx: np.ndarray):
        rows_ = M[idx]
        ones, zeros = rows_.all(axis=0), ~rows_.any(axis=0)
        digit = np.where(ones, 1, np.where(zeros, 0, 2))  # 2: the concepts disagree on the point
        labelled = digit < 2
        images = np.empty((len(perms), n_points), dtype=np.int64)
        images[order, perms] = np.where(labelled, digit[None, :] ^ flips[:, None], 2)
        best = np.ones(len(perms), dtype=bool)
        out = []
        for ch in chunks:  # lexicographic least image, 39 ternary digits at a time
            codes = images[:, ch] @ (3 ** np.arange(len(ch), dtype=np.int64))
            low = codes[best].min()
            best &= codes == low
            out.append(int(low))
        return tuple(out)

    return name


def _matrix_of(table: "_Labels") -> np.ndarray:
    if table._M is None:
        raise TreeError("a certificate with a symmetry group is checked on a listed class (with its matrix); "
                        "give the class's matrix or a smaller instance")
    return table._M


def verify_upper(proof: dict, C: ConceptClassProtocol) -> UpperCheck:
    """Check an upper-bound certificate ``Opt(C) <= u`` against ``C`` from scratch; return ``u`` as an
    :class:`UpperCheck` (the int u, with ``claim`` ``"Opt(C) <= u"``).

    The certificate is ``{"kind": "upper-bound", "bound": u, "entries": [{"path": [[j, b], ...],
    "bound": h}, ...]}``. Each entry names a version space by the labelled examples that lead to it
    (point ``j`` labelled ``b``) and claims Opt <= h for it. It is *valid* when, for every point x
    that splits that version space V, one side V_x^b has fewer than 2^h concepts (so Opt(V_x^b) <= h-1
    by the Halving bound, [Rivest94] and [OnlineAlgs]) or is itself an entry claiming at most h - 1; or when V
    holds fewer than 2^(h+1) concepts. By the recurrence of [Rivest94] (Opt(V) = max over splitting x of
    1 + min(Opt(V_x^0), Opt(V_x^1))), induction on |V| shows every claim true. The root (empty path)
    must be an entry claiming ``u``, or the whole class must have fewer than 2^(u+1) concepts.

    A certificate may carry ``"symmetry"``: generators of a group of symmetries of C (each a
    permutation of the points and a complement flag). Each is checked to map C onto itself; then a
    version space stands for every version space its symmetries map it to (they have the same Opt),
    so one entry per orbit suffices.

    An entry may instead be *used up to isomorphism* (:mod:`solvers.opt.isomorphism`): ``"isomorphic":
    {"entry": r, "concepts": [[c, c'], ...], "points": [[x, x', f], ...]}`` says that its version space V
    is mapped into that of entry r, V_r, by sigma: c -> c' (one pair per concept of V, onto V_r), with
    every point x splitting V matched by a point x' and a flag f such that ``c(x) XOR f = sigma(c)(x')``
    for every concept c of V. Entry r must be an entry with a refutation of its own (not itself used up to
    isomorphism) claiming no more than this one. Then Opt(V) <= Opt(V_r): by induction on |V|, a split of
    V at x has the children V_x^b, which sigma maps onto V_r's children at x' (labels b XOR f), and sigma
    restricted to a child is again such a map (every point splitting a child splits V), so the recurrence
    of [Rivest94] gives Opt(V) = max_x 1 + min_b Opt(V_x^b) <= max_x' 1 + min_b Opt((V_r)_x'^b) <= Opt(V_r).
    The claims then hold by induction on the size of the version space: a refuted entry rests on claims
    about strictly smaller sets, an entry used up to isomorphism on a refuted entry of the same size. The
    check reads each labelled pair once: linear in V's part of the matrix.

    These are the rules ``paths`` and ``orbit`` of :mod:`solvers.certificates.rules`, whose :func:`verify
    <solvers.certificates.rules.verify>` this calls for the rules that bound Opt(C): a certificate of the rule
    ``packed`` (version 1: ``"form": "packed"``; the search over truth tables, :mod:`solvers.opt.packed_exact`) goes
    to :func:`solvers.certificates.packed.verify_packed_upper`, one of the rule ``renaming`` (version 1:
    ``"symmetry": "renaming"``; entries that rename variables, from :mod:`solvers.opt.disjunctions`) to
    :func:`solvers.certificates.disjunctions.verify_upper`, and one of the rule ``states`` (kind
    ``upper-bound-states``: intervals and rectangles over their compact states, :mod:`solvers.opt.intervals`,
    :mod:`solvers.opt.rectangles`) to :func:`solvers.certificates.states.verify_state_upper`.

    Like :func:`verify_tree`, this uses only the boolean matrix (or the family's labels), never the solver.

    Raises
    ------
    TreeError
        Saying which entry fails and why; :class:`ClassMismatch` when the certificate records
        (``"made_for"``) another class than ``C``.
    """
    if not isinstance(proof, dict) or proof.get("kind") not in ("upper-bound", "upper-bound-states"):
        raise TreeError('an upper-bound certificate is {"kind": "upper-bound", "bound": u, "entries": [...]} (or, '
                        'over the states of intervals or rectangles, of kind "upper-bound-states")')
    from .rules import OPT_UPPER, verify

    done = verify(proof, C, within=OPT_UPPER)
    return UpperCheck(done, getattr(done, "claim", None), getattr(done, "rule", None))


def check_paths(proof: dict, C) -> int:
    """The checker of the rule ``paths`` (:mod:`solvers.certificates.rules`): :func:`verify_upper` of a
    certificate without a symmetry group, once its class is matched."""
    if isinstance(proof.get("symmetry"), dict):
        raise TreeError('a certificate with a "symmetry" group follows the rule "orbit", not "paths"')
    return _check_paths(proof, C)


def check_orbit(proof: dict, C) -> int:
    """The checker of the rule ``orbit``: :func:`verify_upper` of a certificate whose version spaces stand for
    their orbits under the group of its ``"symmetry"``, once its class is matched."""
    if "symmetry" not in proof:
        raise TreeError('the rule "orbit" names version spaces up to the group of "symmetry", and this certificate '
                        'gives none; give its "symmetry" or follow the rule "paths"')
    return _check_paths(proof, C)


def _check_paths(proof: dict, C) -> int:
    """Every entry of a certificate over labelled paths (the rules ``paths`` and ``orbit``), by its own rule:
    ``isomorphism`` for an entry with ``"isomorphic"``, else ``split`` (:func:`check_split`)."""
    u = whole(proof.get("bound"), "bound")
    entries = entry_list(proof, '{"path": [[j, b], ...], "bound": h}')
    table = _Labels(C)
    m, n_points = table.shape
    if m.bit_length() <= u + 1:  # m < 2^(u+1), without computing 2^(u+1) for a huge claim
        return u  # the Halving bound alone: Opt(C) <= floor(log2 |C|) <= u
    # A version space is the sorted array of its concepts' indices; its bytes name it in ``claims``
    # (with a symmetry group: the least image of its closure, which names its orbit).
    name = _orbit_namer(proof["symmetry"], _matrix_of(table)) if "symmetry" in proof else _set_name
    claims: dict = {}
    everyone = np.arange(m)
    prefix: dict[tuple, np.ndarray] = {(): everyone}
    spaces = []
    for i, _, h, key_path in path_entries(entries, point_step(n_points)):
        idx = everyone
        # The version space of the path, from that of its longest prefix seen (entries extend their parents').
        k = len(key_path)
        while k and key_path[:k] not in prefix:
            k -= 1
        if k:
            idx = prefix[key_path[:k]]
        for j, b in key_path[k:]:
            idx = idx[table.labels(idx, j) == bool(b)]
        if len(prefix) < 1_000_000:
            prefix[key_path] = idx
        key = name(idx)
        if key in claims:
            h = min(h, claims[key])
        claims[key] = h
        spaces.append((i, idx, h))
    if claims.get(name(everyone), u + 1) > u:
        raise TreeError(f"no entry with the empty path claims Opt(C) <= {u}")
    for i, idx, h in spaces:
        if "isomorphic" in entries[i]:
            from .isomorphism import check_isomorphic

            check_isomorphic(i, idx, entries, spaces, table)
            continue
        check_split(i, idx, h, entries, claims, name, table)
    return u


def check_split(i: int, idx: np.ndarray, h: int, entries: list, claims: dict, name, table) -> None:
    """The entry rule ``split``: entry ``i``, whose version space is ``idx``, claims Opt <= ``h``; it holds when the
    version space has fewer than 2^(h+1) concepts (the Halving bound), or when every point x splitting it leaves a
    side with fewer than 2^h concepts or one whose name (``name``) has a claim of at most h - 1 in ``claims``: by
    the recurrence of [Rivest94], Opt(V) = max over splitting x of 1 + min(Opt(V_x^0), Opt(V_x^1))."""
    size = int(idx.size)
    if size.bit_length() <= h + 1:  # size < 2^(h+1)
        return
    if h == 0:
        raise TreeError(f"entry {i} claims Opt <= 0 for {size} concepts")
    ones = table.ones(idx)
    small = 2**h
    for j in np.flatnonzero((ones > 0) & (ones < size)):
        c1 = int(ones[j])
        if c1 < small or size - c1 < small:
            continue
        says = table.labels(idx, j)
        if claims.get(name(idx[says]), h) <= h - 1 or claims.get(name(idx[~says]), h) <= h - 1:
            continue
        raise TreeError(
            f"entry {i} (path {_fmt(tuple(map(tuple, entries[i]['path'])))}, Opt <= {h}): point {int(j)} splits it "
            f"into {size - c1} + {c1} concepts and neither side is shown to have Opt <= {h - 1}"
        )
