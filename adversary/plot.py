"""Pictures of littlestone's results: a table column against a parameter, the tightness of the
learners' proven bounds, and a mistake tree.

Each picture is drawn by one pure function of the data (:func:`plot_table`, :func:`plot_tightness`,
:func:`plot_tree`) that writes a PNG or an SVG file, chosen by the file's extension, and returns its
size. The data are plain rows: the rows come from files here (:func:`read_table` reads what
``littlestone table --format json|csv`` writes, :func:`read_tightness` what ``scripts/tightness.py
--format csv`` and ``littlestone attack --json`` write, and a tree is the JSON of ``littlestone opt
--tree``); a results store that yields rows of the same form feeds the same functions.

matplotlib is an optional dependency (``pip install 'littlestone[plot]'``); it is imported only when a
picture is drawn. Each picture is a :class:`matplotlib.figure.Figure` of its own on the Agg canvas, never
pyplot's current figure, so nothing needs a display (the Agg backend is chosen unless the caller has
already imported pyplot with another).

Every error in the data is a :class:`PlotError` (a ``ValueError``) whose message says what to change.

Examples
--------
A mistake tree of depth 1 as a graph, laid out: the root above its two leaves.

>>> G = tree_graph({"depth": 1, "root": {"point": 0, "0": None, "1": None}})
>>> [(v, G.nodes[v]["label"]) for v in G], [(u, v, b) for u, v, b in G.edges(data="label")]
([(0, 'x0'), (1, None), (2, None)], [(0, 1, 0), (0, 2, 1)])
>>> tree_layout(G)
{1: (0.0, -1.0), 2: (1.0, -1.0), 0: (0.5, 0.0)}

Drawing needs matplotlib:

>>> rows = [{"params": {"n": n}, "opt": 1, "lower": 1, "upper": 1, "log2_size": n, "vc": 1,
...          "vc_lower": 1, "vc_upper": 1} for n in (1, 2, 3)]
>>> plot_table(rows, "n", "opt.svg")  # doctest: +SKIP
Written(path=PosixPath('opt.svg'), width=1050, height=675, dpi=150)
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import sys
from fractions import Fraction
from pathlib import Path
from typing import Iterable, NamedTuple, Sequence

from solvers.jsontext import loads  # json.loads refusing a key given twice

__all__ = ["plot_table", "plot_tightness", "plot_tree", "read_table", "read_tightness", "tightness_panels",
           "optimum_lines", "plot_pac",
           "tree_graph", "tree_layout", "tree_size", "Written", "PlotError", "FORMATS", "TABLE_COLUMNS", "MAX_NODES",
           "MAX_NODES_LIMIT", "INSTALL_HINT"]

#: The file formats a picture is written in (by the output's extension).
FORMATS = (".png", ".svg")
#: What ``plot_table`` draws: column -> (the row keys of its value and bounds, the axis label).
TABLE_COLUMNS = {"opt": ("opt", "lower", "upper"), "value": ("value", "value_lower", "value_upper"),
                 "vc": ("vc", "vc_lower", "vc_upper")}
#: The most nodes :func:`plot_tree` draws by default (a complete tree of depth 5, leaves included: 32 leaves
#: across a page); a larger tree is drawn down to the deepest level that keeps within them.
MAX_NODES = 63
#: The largest ``max_nodes`` it accepts at all (a complete tree of depth 8): past that, no picture is readable.
MAX_NODES_LIMIT = 511
INSTALL_HINT = "pip install 'littlestone[plot]'"

TABLE_SIZE = (7.0, 4.5)  # inches, at DPI: 1050 x 675 pixels
TIGHTNESS_SIZE = (8.0, 5.0)  # 1200 x 750 pixels
DPI = 150
TREE_DPI = 144  # a multiple of 4: a quarter inch is a whole number of pixels
MAX_PIXELS = 30000  # the longest side of a tree picture; matplotlib's Agg stops at 2^16
EDGE_COLORS = {0: "#1f77b4", 1: "#d62728"}  # the labels of a tree's edges


class PlotError(ValueError):
    """Data that cannot be plotted; the message says what to change."""


class Written(NamedTuple):
    """A picture written: its path, its width and height in pixels and the pixels per inch they are
    counted at (an SVG is width * 72 / dpi points wide)."""

    path: Path
    width: int
    height: int
    dpi: int


# ---------------------------------------------------------------------------------------- matplotlib
def _figure(size, dpi, layout=None):
    """A matplotlib Figure of ``size`` inches on the Agg canvas (no display, no pyplot state)."""
    try:
        import matplotlib
    except ImportError:
        raise ImportError(f"plots need matplotlib; {INSTALL_HINT}") from None
    if "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")  # headless; a session that already chose a backend keeps it
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, dpi=dpi, layout=layout)
    FigureCanvasAgg(fig)
    return fig


def _format(out) -> str:
    """The picture's format from its extension (checked before any drawing)."""
    fmt = Path(out).suffix.lower()
    if fmt not in FORMATS:
        raise PlotError(f"cannot write {str(out)!r}: name the picture .png or .svg")
    return fmt[1:]


def _save(fig, out) -> Written:
    out = Path(out)
    fmt = _format(out)
    fig.savefig(out, format=fmt, metadata={"Date": None} if fmt == "svg" else {})  # no date in an SVG
    w, h = fig.get_size_inches()
    return Written(out, int(w * fig.dpi), int(h * fig.dpi), int(fig.dpi))  # as the Agg canvas counts them


def _number(v, what: str):
    """A row's value as an exact number (int or Fraction from ``3``, ``"7/8"``), or None."""
    if v is None:
        return None
    if isinstance(v, bool):
        raise PlotError(f"{what} is {v!r}, not a number")
    if isinstance(v, (int, Fraction)):
        return v
    if isinstance(v, float):
        if not math.isfinite(v):
            return None
        return v
    try:
        f = Fraction(str(v).strip())
    except (ValueError, ZeroDivisionError):
        raise PlotError(f"{what} is {v!r}, not a number; a table holds whole numbers or p/q") from None
    return int(f) if f.denominator == 1 else f


def _is_whole(values) -> bool:
    return all(float(v).is_integer() for v in values)


def _kv(items) -> str:
    return ", ".join(f"{k}={v}" for k, v in items)


# ---------------------------------------------------------------------------------------- (a) tables
def read_table(path) -> tuple[dict, list[dict]]:
    """The rows of a table file written by ``littlestone table``, in its JSON row form.

    Parameters
    ----------
    path : str or Path
        A ``.json`` file (``--format json``; a file whose run was stopped before its end is read up to
        its last whole row) or a ``.csv`` file (``--format csv``).

    Returns
    -------
    head : dict
        ``family`` and ``grid`` (the parameters varied, in order) when the file says them (JSON), else
        ``grid`` the parameter columns (CSV); ``unfinished`` True for a JSON file cut short.
    rows : list of dict
        One per cell: ``params``, ``opt`` (None if unsolved), ``lower``, ``upper``, ``log2_size``,
        ``vc``, ``vc_lower``, ``vc_upper``, ``concepts``, ``points`` and, with a game column,
        ``symbol``, ``value``, ``value_lower``, ``value_upper`` (whole numbers or text ``"p/q"``).

    Raises
    ------
    PlotError
        If the file is missing, not a table, or not .json / .csv.
    """
    p = Path(path)
    if not p.exists():
        raise PlotError(f"table file {str(p)!r} does not exist; write one with 'littlestone table FAMILY --grid "
                        f"n=2..8 --format json -o {p.name}'")
    if p.is_dir():
        raise PlotError(f"{str(p)!r} is a directory; give a table file (.json or .csv)")
    ext = p.suffix.lower()
    if ext not in (".json", ".csv"):
        raise PlotError(f"table file {str(p)!r} is not .json or .csv; write the table with 'littlestone table ... "
                        "--format json' (or csv)")
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise PlotError(f"{str(p)!r} is not a text file; give a table written by 'littlestone table'") from None
    head, rows = _table_json(text, p) if ext == ".json" else _table_csv(text, p)
    if not rows:
        raise PlotError(f"table file {str(p)!r} has no rows; run 'littlestone table' until a cell finishes")
    return head, rows


def _table_json(text: str, p: Path) -> tuple[dict, list[dict]]:
    hint = "give a table written by 'littlestone table ... --format json'"
    unfinished = False
    try:
        data = loads(text, repr(str(p)), error=PlotError)
    except (json.JSONDecodeError, RecursionError):
        # A run killed mid-table leaves its head line and one whole row per line: read those.
        lines = text.splitlines()
        if not lines or not lines[0].rstrip().endswith('"rows": ['):
            raise PlotError(f"{str(p)!r} is not valid JSON; {hint}") from None
        try:
            data = loads(lines[0].rstrip()[:-1] + "[]}", repr(str(p)), error=PlotError)
            data["rows"] = [loads(line.rstrip().rstrip(","), repr(str(p)), error=PlotError) for line in lines[1:]
                            if line.strip() and line.strip() not in ("]", "],") and not line.startswith("],")]
        except json.JSONDecodeError:
            raise PlotError(f"{str(p)!r} is not valid JSON (nor a table cut short); {hint}") from None
        unfinished = True
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise PlotError(f"{str(p)!r} is not a table (no \"rows\"); {hint}")
    rows = data["rows"]
    for i, r in enumerate(rows, 1):
        if not isinstance(r, dict) or not isinstance(r.get("params"), dict):
            raise PlotError(f"row {i} of {str(p)!r} has no \"params\"; {hint}")
    grid = data.get("grid") if isinstance(data.get("grid"), list) else []
    return {"family": data.get("family"), "grid": [str(g) for g in grid], "unfinished": unfinished}, rows


def _range(cell: str, what: str):
    """``"3"`` -> (3, 3), ``"2..4"`` -> (2, 4), ``"7/8 (0.875)"`` -> (7/8, 7/8), ``"?"`` -> (None, None)."""
    cell = cell.strip()
    if cell in ("", "?"):
        return None, None
    lo, sep, hi = cell.partition("..")
    ends = [_number(t.split("(")[0].strip(), what) for t in ((lo, hi) if sep else (lo, lo))]
    return ends[0], ends[1]


def _param(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _exact_text(v):
    return v if v is None or isinstance(v, int) or not isinstance(v, Fraction) else f"{v.numerator}/{v.denominator}"


def _table_csv(text: str, p: Path) -> tuple[dict, list[dict]]:
    hint = "give a table written by 'littlestone table ... --format csv'"
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise PlotError(f"{str(p)!r} is empty; {hint}") from None
    need = ("|C|", "|X|", "Opt", "floor(log2 |C|)", "VC")
    missing = [c for c in need if c not in header]
    if missing:
        raise PlotError(f"{str(p)!r} has no column {missing[0]!r}; {hint}")
    at = {c: header.index(c) for c in header}
    params = header[:at["|C|"]]
    games = header[at["Opt"] + 1:at["floor(log2 |C|)"]]
    rows = []
    for i, cells in enumerate(reader, 2):
        if not cells:
            continue
        if len(cells) != len(header):
            raise PlotError(f"line {i} of {str(p)!r} has {len(cells)} cells, the header {len(header)}; {hint}")
        where = f"line {i} of {str(p)!r}"
        lo, hi = _range(cells[at["Opt"]], f"Opt on {where}")
        vlo, vhi = _range(cells[at["VC"]], f"VC on {where}")
        row = {"params": {k: _param(cells[at[k]]) for k in params},
               "concepts": _number(cells[at["|C|"]], f"|C| on {where}"),
               "points": _number(cells[at["|X|"]], f"|X| on {where}"),
               "opt": lo if lo == hi else None, "lower": lo, "upper": hi,
               "log2_size": _number(cells[at["floor(log2 |C|)"]], f"floor(log2 |C|) on {where}"),
               "vc": vlo if vlo == vhi else None, "vc_lower": vlo, "vc_upper": vhi}
        if games:
            symbol = games[0]
            glo, ghi = _range(cells[at[symbol]], f"{symbol} on {where}")
            row.update(symbol=symbol, value=_exact_text(glo) if glo == ghi else None,
                       value_lower=_exact_text(glo), value_upper=_exact_text(ghi))
        rows.append(row)
    return {"family": None, "grid": params, "unfinished": False}, rows


def _groups(rows, x: str, group_by, what: str = "row"):
    """Rows split by the parameters of ``group_by`` (default: every parameter besides ``x`` whose value
    varies): ``(keys, [(label items, [(x value, row), ...] sorted by x)])``."""
    names = list(dict.fromkeys(k for r in rows for k in r["params"]))
    without = [i for i, r in enumerate(rows, 1) if x not in r["params"]]
    if without:
        raise PlotError(f"{what} {without[0]} has no parameter {x!r}; choose the x axis from: {', '.join(names)}")
    for r in rows:
        v = r["params"][x]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise PlotError(f"parameter {x!r} is {v!r} in a {what}, not a number; choose a numeric x axis from: "
                            f"{', '.join(names)}")
    if group_by is None:
        keys = [k for k in names if k != x and len({json.dumps(r["params"].get(k)) for r in rows}) > 1]
    else:
        keys = [group_by] if isinstance(group_by, str) else list(group_by)
        for k in keys:
            if k == x:
                others = ", ".join(n for n in names if n != x)
                raise PlotError(f"{k!r} is the x axis; group by another parameter ({others})")
            if k not in names:
                raise PlotError(f"no {what} has parameter {k!r} to group by; choose from: {', '.join(names)}")
    groups: dict = {}
    for r in rows:
        label = tuple((k, r["params"].get(k)) for k in keys)
        groups.setdefault(label, []).append((r["params"][x], r))
    out = []
    for label, members in groups.items():
        members.sort(key=lambda m: m[0])
        xs = [m[0] for m in members]
        for a, b in zip(xs, xs[1:]):
            if a == b:
                other = [k for k in names if k != x and k not in keys
                         and len({json.dumps(r["params"].get(k)) for _, r in members}) > 1]
                more = f" (they differ in {', '.join(other)}; group by {' '.join(keys + other)})" if other else ""
                where = f" with {_kv(label)}" if label else ""
                raise PlotError(f"two {what}s have {x}={a}{where}{more}; give each line one {what} per {x}")
        out.append((label, members))
    out.sort(key=lambda g: [json.dumps(v) if not isinstance(v, (int, float)) else f"{v:020.6f}" for _, v in g[0]])
    return keys, out


def _bounds(row: dict, column: str, i: int):
    value, lower, upper = TABLE_COLUMNS[column]
    lo = _number(row.get(lower, row.get(value)), f"{lower} of row {i}")
    hi = _number(row.get(upper, row.get(value)), f"{upper} of row {i}")
    return lo, hi


def plot_table(rows: Iterable[dict], x: str, out: str | os.PathLike, *, column: str = "opt",
               group_by: str | Sequence[str] | None = None, title: str | None = None) -> Written:
    """Draw a column of a table against the parameter ``x``: one line per value of the other parameters.

    Solved cells are filled markers on the line; a cell that ran out of time is drawn as the interval of
    its proven bounds (lower..upper), and the line breaks there. For Opt(C) the proven bounds of every
    cell, the VC dimension (below) and floor(log2 |C|) (above), are a shaded band in the line's colour
    ([Rivest94]: VC(C) <= Opt(C) <= floor(log2 |C|)). For a game's value (``column="value"``: RL, D_k,
    R_k, ...) Opt(C) is drawn dotted beside it.

    Parameters
    ----------
    rows : list of dict
        Rows in the form ``littlestone table --format json`` writes (:func:`read_table`): ``params``,
        ``opt``, ``lower``, ``upper``, ``log2_size``, ``vc``, ``vc_lower``, ``vc_upper`` and, with a game,
        ``symbol``, ``value``, ``value_lower``, ``value_upper`` (whole numbers or ``"p/q"``).
    x : str
        The parameter on the x axis (e.g. ``"n"``); numeric in every row.
    out : str or Path
        The picture: ``.png`` or ``.svg``.
    column : {"opt", "value", "vc"}
        What is drawn: Opt(C), the game's value, or the VC dimension.
    group_by : str or list of str, optional
        The parameters that tell the lines apart (default: every other parameter that varies).
    title : str, optional
        The figure's title (default: what is drawn against ``x``).

    Returns
    -------
    Written
        The path and the size in pixels (1050 x 675).

    Raises
    ------
    PlotError
        If ``column`` or ``x`` is not in the rows, or two rows of a line share an ``x``.
    ImportError
        If matplotlib is not installed.

    References
    ----------
    .. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
    """
    rows = list(rows)
    _format(out)
    if column not in TABLE_COLUMNS:
        raise PlotError(f"unknown column {column!r}; choose one of: {', '.join(TABLE_COLUMNS)}")
    if not rows:
        raise PlotError("no rows to plot; run 'littlestone table' until a cell finishes")
    symbol = "Opt"
    if column == "value":
        symbols = {r.get("symbol") for r in rows}
        if None in symbols:
            raise PlotError("the table has no game column to plot; write it with --randomized, --errors K or "
                            "--horizon T, or plot the column opt")
        if len(symbols) > 1:
            raise PlotError(f"the rows hold the values of different games ({', '.join(sorted(symbols))}); plot one "
                            "table at a time")
        symbol = symbols.pop()
    keys, groups = _groups(rows, x, group_by)
    ylabel = {"opt": "Opt(C)", "value": f"{symbol}(C)", "vc": "VC dimension"}[column]
    index = {id(r): i for i, r in enumerate(rows, 1)}
    groups = _merged(groups, column, index)  # identical lines drawn once, their labels joined ("k=1, k=2")

    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import MaxNLocator

    fig = _figure(TABLE_SIZE, DPI, "constrained")
    ax = fig.add_subplot()
    colors = _colors(len(groups))
    handles = []
    any_open = False
    whole = all(_is_whole(v for _, r in ms for v in _bounds(r, column, index[id(r)]) if v is not None)
                for _, ms in groups)
    xs_all = sorted({m[0] for _, ms in groups for m in ms})
    whole_x = _is_whole(xs_all)
    steps = whole and whole_x and column != "value"  # whole values at whole x: a staircase, not slopes
    step = min((b - a for a, b in zip(xs_all, xs_all[1:])), default=1)
    vc_open = False
    filled = len(groups) <= 2  # past two lines the bands are outlines (filled ones would mix their colours)
    for i, ((labels, members), color) in enumerate(zip(groups, colors)):
        xs = [m[0] for m in members]
        shift = (i - (len(groups) - 1) / 2) * min(0.06, 0.3 / len(groups)) * step  # intervals side by side
        bounds = [_bounds(r, column, index[id(r)]) for _, r in members]
        ys = [float(lo) if lo is not None and lo == hi else math.nan for lo, hi in bounds]
        name = ", ".join(_kv(label) for label in labels) or ylabel
        line, = ax.plot(xs, ys, color=color, lw=1.8, ls=LINE_STYLES[i % len(LINE_STYLES)],
                        marker=MARKERS[i % len(MARKERS)], ms=5.5, label=name, zorder=3,
                        drawstyle="steps-mid" if steps else "default")  # (markers at the x values themselves)
        handles.append(line)
        for xv, (lo, hi) in zip(xs, bounds):
            if lo is not None and hi is not None and lo != hi:
                any_open = True
                ax.errorbar([xv + shift], [(float(lo) + float(hi)) / 2], yerr=[[(float(hi) - float(lo)) / 2]],
                            fmt="none", ecolor=color, elinewidth=1.8, capsize=4, zorder=3)
        if column == "opt":
            # The band breaks where the VC dimension is not known (its search ran out of time).
            vcs = [_bounds(r, "vc", index[id(r)]) for _, r in members]
            lows = [float(lo) if lo is not None and lo == hi else math.nan for lo, hi in vcs]
            highs = [float(v) if (v := _number(r.get("log2_size"), f"log2_size of row {index[id(r)]}")) is not None
                     else math.nan for _, r in members]
            vc_open = vc_open or any(math.isnan(v) for v in lows)
            where = "mid" if steps else None
            if filled:
                ax.fill_between(xs, lows, highs, color=color, alpha=0.15, lw=0, zorder=1, step=where)
                handles.append(Patch(facecolor=color, alpha=0.3, edgecolor=color, lw=0.6,
                                     label="VC .. floor(log2 |C|)" + (f" ({name})" if len(groups) > 1 else "")))
            for edge in (lows, highs):
                ax.plot(xs, edge, color=color, lw=0.9 if not filled else 0.6, alpha=0.8 if not filled else 0.5,
                        ls=(0, (3, 2)) if not filled else "-", zorder=2, drawstyle="steps-mid" if steps else "default")
        elif column == "value":
            opts = [_bounds(r, "opt", index[id(r)]) for _, r in members]
            ax.plot(xs, [float(lo) if lo is not None and lo == hi else math.nan for lo, hi in opts], ":", color=color,
                    lw=1.4, zorder=2)
    if column == "opt":
        where_vc = ", where VC is known" if vc_open else ""
        if not filled:
            handles.append(Line2D([], [], color="0.3", lw=0.9, ls=(0, (3, 2)),
                                  label=f"VC .. floor(log2 |C|): the proven\nbounds, dashed in each line's colour{where_vc}"))
        else:
            handles[-1].set_label(handles[-1].get_label() + f"\n(the proven bounds{where_vc})")
    elif column == "value":
        handles.append(Line2D([], [], ls=":", color="0.3", lw=1.4, label="Opt(C), in each line's colour"))
    if any_open:
        handles.append(ax.errorbar([math.nan], [math.nan], yerr=[[1.0]], fmt="none", ecolor="0.3", elinewidth=1.8,
                                   capsize=4, label="unsolved: lower..upper"))
    ax.set_xlabel(x)
    ax.set_ylabel(ylabel)
    if whole_x:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if len(xs_all) == 1:
            ax.set_xlim(xs_all[0] - 1, xs_all[0] + 1)
        if whole and column != "value":
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(True, color="0.9", lw=0.8, zorder=0)
    ax.set_axisbelow(True)
    ax.set_title(title or f"{ylabel} against {x}")
    ax.legend(handles=handles, loc="best", fontsize=8, frameon=True, framealpha=0.9)
    return _save(fig, out)


#: The markers and line styles of a table's lines, in turn: no two lines look alike, even where they overlap.
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINE_STYLES = ("-", "--", "-.", (0, (1, 1)), (0, (5, 1, 1, 1)))


def _merged(groups, column: str, index: dict) -> list:
    """``[(labels, members)]``: the groups of :func:`_groups` with identical lines (the same x values and the same
    numbers drawn) merged into one, their labels listed together."""
    out, seen = [], {}
    for label, members in groups:
        key = tuple((xv, _bounds(r, column, index[id(r)]), _bounds(r, "vc", index[id(r)]) if column == "opt" else None,
                     r.get("log2_size") if column == "opt" else None) for xv, r in members)
        if key in seen:
            out[seen[key]][0].append(label)
        else:
            seen[key] = len(out)
            out.append(([label], members))
    return out


def _colors(n: int):
    from matplotlib import colormaps

    cmap = colormaps["tab10"] if n <= 10 else colormaps["viridis"]
    return [cmap(i) if n <= 10 else cmap(i / max(1, n - 1)) for i in range(n)]


# ---------------------------------------------------------------------------------------- (b) tightness
def read_tightness(paths) -> list[dict]:
    """Attack results from files, as rows for :func:`plot_tightness`.

    Parameters
    ----------
    paths : list of str or Path
        ``.csv`` files written by ``python scripts/tightness.py --format csv`` (rows that were skipped or
        failed are left out), and ``.json`` / ``.jsonl`` files of ``littlestone attack --json`` outputs
        (one object, a list of them, or one object per line).

    Returns
    -------
    list of dict
        ``learner``, ``learner_params``, ``family``, ``params`` (the class's), ``mistakes`` (expected
        mistakes for a randomized learner), ``bound`` (None when none is proven), ``exact`` (the proven
        worst case, not only the best found) and ``opt`` (Opt(C) or the game's value, None if unknown).

    Raises
    ------
    PlotError
        If a file is missing or is not one of these.
    """
    rows = []
    for path in paths:
        p = Path(path)
        if not p.exists():
            raise PlotError(f"file {str(p)!r} does not exist; give a tightness CSV (scripts/tightness.py --format csv) "
                            "or a file of 'littlestone attack --json' outputs")
        if p.is_dir():
            raise PlotError(f"{str(p)!r} is a directory; give a .csv, .json or .jsonl file")
        ext = p.suffix.lower()
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise PlotError(f"{str(p)!r} is not a text file; give a .csv, .json or .jsonl file") from None
        if ext == ".csv":
            rows += _tightness_csv(text, p)
        elif ext in (".json", ".jsonl"):
            rows += _attack_json(text, p)
        else:
            raise PlotError(f"{str(p)!r} is not .csv, .json or .jsonl; give a tightness CSV or 'littlestone attack "
                            "--json' outputs")
    return rows


def _tightness_csv(text: str, p: Path) -> list[dict]:
    hint = "give a CSV written by 'python scripts/tightness.py --format csv'"
    reader = csv.DictReader(io.StringIO(text))
    need = ("learner", "class", "status", "mistakes", "bound")
    if reader.fieldnames is None or any(c not in reader.fieldnames for c in need):
        raise PlotError(f"{str(p)!r} is not a tightness table (columns {', '.join(need)}); {hint}")
    rows = []
    for i, r in enumerate(reader, 2):
        if r["status"] not in ("exact", "best found") or not r["mistakes"]:
            continue  # skipped or failed: no mistakes to draw
        family, *items = r["class"].split()
        params = {}
        for item in items:
            k, eq, v = item.partition("=")
            if not eq:
                raise PlotError(f"line {i} of {str(p)!r}: class {r['class']!r} is not 'family k=v ...'; {hint}")
            params[k] = _param(v)
        where = f"line {i} of {str(p)!r}"
        bound = r["bound"].strip()
        rows.append({"learner": r["learner"], "learner_params": {}, "family": family, "params": params,
                     "mistakes": _number(r["mistakes"], f"mistakes on {where}"),
                     "bound": None if bound in ("", "inf") else _number(bound, f"bound on {where}"),
                     "exact": r["status"] == "exact",
                     "opt": _number(r.get("opt") or None, f"opt on {where}")})
    return rows


def _attack_json(text: str, p: Path) -> list[dict]:
    hint = ("give 'littlestone attack ... --json' outputs (one object per line, or a JSON list of them) or the rows of "
            "'littlestone attack ... --grid ... --format json'")
    try:
        data = loads(text, repr(str(p)), error=PlotError)
        objects = data if isinstance(data, list) else [data]
    except json.JSONDecodeError:
        try:
            objects = [loads(line, repr(str(p)), error=PlotError) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError:
            raise PlotError(f"{str(p)!r} is not JSON, nor one JSON object per line; {hint}") from None
    rows = []
    for i, o in enumerate(objects, 1):
        where = f"object {i} of {str(p)!r}"
        if isinstance(o, dict) and isinstance(o.get("skipped"), str) and "mistakes" not in o:
            continue  # a grid's cell that could not be attacked
        if not isinstance(o, dict) or "mistakes" not in o or not isinstance(o.get("learner"), dict):
            raise PlotError(f"{where} is not an attack result (no \"mistakes\" and \"learner\"); {hint}")
        cls = o.get("class") if isinstance(o.get("class"), dict) else {}
        bound = o.get("bound")
        if isinstance(bound, dict):  # an attack's --json: {"value", "fraction", ...}
            bound = bound.get("fraction", bound.get("value"))
        elif o.get("bound_fraction") is not None:  # a grid's row: the number, its exact fraction beside it
            bound = o["bound_fraction"]
        opt = o.get("opt_fraction", o.get("opt"))
        game = o.get("game") if isinstance(o.get("game"), dict) else {}
        rows.append({"learner": str(o["learner"].get("name")), "learner_params": dict(o["learner"].get("params") or {}),
                     "family": cls.get("family"), "params": dict(cls.get("params") or {}),
                     "mistakes": _number(o.get("expected_mistakes", o["mistakes"]), f"mistakes of {where}"),
                     "bound": _number(bound, f"bound of {where}"),
                     "exact": bool(o.get("exact")), "opt": _number(opt, f"opt of {where}"),
                     "opt_symbol": str(o.get("opt_symbol") or game.get("symbol") or "Opt")})
    return rows


def table_rows_from_store(records, game=None) -> list[dict]:
    """Table rows (as :func:`read_table` gives them) from the store's rows (:class:`adversary.store.Record`)
    of one family: Opt(C) (or, with ``game``, a :class:`solvers.game_rules.Game`, that game's value beside it)
    and the VC dimension of each class, matched by the class's fingerprint."""
    from adversary.store import number, opt_task

    want = opt_task(None)
    game_task = None if game is None else opt_task(game)
    cells: dict = {}
    for rec in records:
        cell = cells.setdefault(rec.class_key, {"params": dict(rec.params), "concepts": rec.concepts,
                                                "points": rec.points})
        lo, hi = number(rec.lower), number(rec.upper)
        if rec.kind == "opt" and rec.task == want:
            cell.update(opt=number(rec.value), lower=lo, upper=hi)
        elif rec.kind == "opt" and game_task is not None and rec.task == game_task:
            cell.update(symbol=game.symbol, value=_exact_text(rec.value), value_lower=_exact_text(rec.lower),
                        value_upper=_exact_text(rec.upper))
        elif rec.kind == "vc":
            cell.update(vc=number(rec.value), vc_lower=lo, vc_upper=hi)
    rows = []
    for cell in cells.values():
        if "lower" not in cell or (game_task is not None and "value_lower" not in cell):
            continue
        cell.setdefault("vc", None)
        cell.setdefault("vc_lower", 0)
        cell.setdefault("vc_upper", cell["upper"])
        cell["log2_size"] = int(cell["concepts"]).bit_length() - 1 if cell.get("concepts") else cell["upper"]
        rows.append(cell)
    return rows


def tightness_rows_from_store(records) -> list[dict]:
    """Tightness rows (as :func:`read_tightness` gives them) from the store's attack rows."""
    objects = [rec.extra["result"] for rec in records if rec.kind == "attack" and "result" in rec.extra]
    return _attack_json(json.dumps(objects), Path("the store")) if objects else []


def _class_text(family, params) -> str:
    return " ".join([family or "matrix", *(f"{k}={v}" for k, v in params)])


def tightness_panels(rows, x: str = "n"):
    """The attacks grouped for :func:`plot_tightness`: one panel per class (its family and parameters
    other than ``x``), one series per learner in it, sorted by ``x``.

    Returns
    -------
    panels : list of (str, dict)
        ``(class text, {learner text: [row, ...]})``, in the order of the class texts.
    left_out : list of str
        Always empty: a class attacked at one value of ``x`` is drawn as a lone point (rows without the
        parameter ``x`` are not counted anywhere).

    Raises
    ------
    PlotError
        If no row has the parameter ``x``, it is not a number, or one learner has two results at one
        ``x`` on one class.
    """
    rows = [r for r in rows if x in (r.get("params") or {})]
    if not rows:
        raise PlotError(f"no attack has a class with parameter {x!r}; choose --x from the classes' parameters")
    for r in rows:
        v = r["params"][x]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise PlotError(f"parameter {x!r} is {v!r} for {r['learner']}, not a number; choose a numeric --x")
    panels: dict = {}
    for r in rows:
        cls = _class_text(r.get("family"), [(k, v) for k, v in r["params"].items() if k != x])
        lparams = [(k, v) for k, v in (r.get("learner_params") or {}).items()
                   if k not in (x, "seed") and r["params"].get(k, object()) != v]
        learner = f"{r['learner']} ({_kv(lparams)})" if lparams else str(r["learner"])
        panels.setdefault(cls, {}).setdefault(learner, []).append(r)
    for cls, series in panels.items():
        for learner, members in series.items():
            members.sort(key=lambda r: r["params"][x])
            xs = [r["params"][x] for r in members]
            dup = next((a for a, b in zip(xs, xs[1:]) if a == b), None)
            if dup is not None:
                raise PlotError(f"{learner} has two results on {cls} at {x}={dup}; keep one result per learner and "
                                "class")
    # A class attacked at one value of x is a panel of its own with a lone point (a marker on an integer axis),
    # whatever x is: nothing is left out (left_out stays for the callers' notes).
    return sorted(panels.items()), []


MAX_PANELS = 12  # classes in one tightness picture


def optimum_lines(series: dict, x: str) -> dict:
    """The games' optima of one panel of :func:`plot_tightness`: ``{symbol: [(x, value), ...]}``, one line per
    game (Opt, RL, D_k, R_k: what a row's ``opt_symbol`` names), never two games in one line, sorted by x.

    >>> rows = [{"params": {"N": 7}, "opt": 3, "opt_symbol": "Opt"}, {"params": {"N": 7}, "opt": 1.5, "opt_symbol": "RL"},
    ...         {"params": {"N": 15}, "opt": 4}]
    >>> optimum_lines({"halving": rows}, "N")
    {'Opt': [(7, 3.0), (15, 4.0)], 'RL': [(7, 1.5)]}
    """
    lines: dict = {}
    for members in series.values():
        for r in members:
            if r.get("opt") is not None:
                lines.setdefault(r.get("opt_symbol") or "Opt", {})[r["params"][x]] = float(r["opt"])
    return {s: sorted(lines[s].items()) for s in sorted(lines, key=_game_order)}


def _game_order(symbol: str) -> tuple:
    return (symbol != "Opt", symbol.startswith("R"), symbol)


def _game_style(symbol: str) -> tuple:
    """(line style, marker, colour) of a game's optimum in the tightness picture: Opt(C) dotted black, RL(C)
    dash-dot grey, D_k(C) and R_k(C) in their own dashes."""
    if symbol == "Opt":
        return ":", "_", "black"
    if symbol == "RL":
        return "-.", "x", "0.4"
    if symbol.startswith("D_"):
        return (0, (1, 1.5)), "^", "0.25"
    return (0, (4, 1.5, 1, 1.5, 1, 1.5)), "v", "0.5"


def _game_label(symbol: str) -> str:
    """What a game's optimum means, for the legend: one line per game, never two games in one line."""
    if symbol == "Opt":
        return "Opt(C): forced on every\ndeterministic learner"
    if symbol == "RL":
        return "RL(C): forced in expectation\non every learner"
    k = symbol.split("_", 1)[1] if "_" in symbol else "k"
    errors = f"{k} label error{'s' if k != '1' else ''}"
    if symbol.startswith("D_"):
        return f"{symbol}(C): forced with\n{errors}"
    return f"{symbol}(C): forced in\nexpectation, {errors}"


def _darker(color, by: float = 0.55):
    """``color`` darkened (each channel times ``by``): a bound's dashes stay visible on its learner's line."""
    from matplotlib.colors import to_rgb

    return tuple(by * v for v in to_rgb(color))


def plot_tightness(rows, out, *, x: str = "n", title: str | None = None) -> Written:
    """Draw the mistakes found against each learner's proven bound, over ``x``: one panel per class,
    one colour per learner.

    In a panel each learner's mistakes found are a solid line, with a filled marker where they are the
    proven worst case (an exact search finished) and a hollow one where they are only the best found
    (a lower bound on the worst case), and its proven bound is dashed in the same colour. Opt(C) (or
    the game's value), which an adversary forces on every learner, is the dotted black line. Learners
    are drawn a little apart along x so that equal counts stay visible.

    Parameters
    ----------
    rows : list of dict
        Attack results (:func:`read_tightness`): ``learner``, ``params`` (of the class, holding ``x``),
        ``mistakes``, ``bound`` (None when none is proven), ``exact`` and optionally ``family``,
        ``learner_params`` and ``opt``. Rows without the parameter ``x``, and classes attacked at one
        ``x`` only, are left out (:func:`tightness_panels`).
    out : str or Path
        The picture: ``.png`` or ``.svg``.
    x : str
        The class parameter on the x axis (``"n"``; ``"N"`` for thresholds, ``"d"`` for halfspaces).
    title : str, optional
        The figure's title.

    Returns
    -------
    Written
        The path and the size in pixels: 1200 x 750 for one class; for more, two panels of 5 x 3.5 inches
        a row and 2.5 inches for the legend (1875 x 600 for two classes).

    Raises
    ------
    PlotError
        If no row has the parameter ``x``, a learner has two results at one ``x``, or there are more
        than 12 classes to draw.
    ImportError
        If matplotlib is not installed.
    """
    _format(out)
    panels, _ = tightness_panels(rows, x)
    if len(panels) > MAX_PANELS:
        raise PlotError(f"the attacks are on {len(panels)} classes, more than {MAX_PANELS} panels; plot fewer "
                        "(e.g. the rows of one family)")
    learners = sorted({name for _, series in panels for name in series})
    color = dict(zip(learners, _colors(len(learners))))
    cols = 1 if len(panels) == 1 else 2
    nrows = math.ceil(len(panels) / cols)
    size = TIGHTNESS_SIZE if len(panels) == 1 else (cols * 5.0 + 2.5, nrows * 3.5 + 0.5)  # whole pixels at DPI
    fig = _figure(size, DPI, "constrained")
    axes = fig.subplots(nrows, cols, squeeze=False)
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator

    no_bound = set()
    games: set = set()  # the games whose optimum is drawn (Opt, RL, D_k, R_k): one line each, never mixed
    for ax, (cls, series) in zip(axes.flat, panels):
        xs_all = sorted({r["params"][x] for members in series.values() for r in members})
        step = min([b - a for a, b in zip(xs_all, xs_all[1:])] + [0.15 * (xs_all[-1] - xs_all[0])], default=1) or 1
        names = sorted(series)
        for i, name in enumerate(names):
            members = series[name]
            c = color[name]
            shift = (i - (len(names) - 1) / 2) * min(0.06, 0.3 / len(names)) * step
            xs = [r["params"][x] + shift for r in members]
            ys = [float(r["mistakes"]) for r in members]
            ax.plot(xs, ys, "-", color=c, lw=1.8, zorder=3)
            exact = [(a, b) for a, b, r in zip(xs, ys, members) if r.get("exact")]
            found = [(a, b) for a, b, r in zip(xs, ys, members) if not r.get("exact")]
            if exact:
                ax.plot(*zip(*exact), "o", color=c, ms=6, zorder=4)
            if found:
                ax.plot(*zip(*found), "o", color=c, mfc="white", mew=1.6, ms=6, zorder=4)
            bounds = [(a, float(r["bound"])) for a, r in zip(xs, members) if r.get("bound") is not None]
            if bounds:  # dashed in a darker shade, over the mistakes' line: a tight bound shows as dashes on it
                ax.plot(*zip(*bounds), "--", color=_darker(c), lw=1.3, marker="_", ms=10, mew=1.5, zorder=5)
            else:
                no_bound.add(name)
        optimum = optimum_lines(series, x)
        for symbol, pts in optimum.items():
            games.add(symbol)
            ls, marker, shade = _game_style(symbol)
            ax.plot(*zip(*pts), ls=ls, color=shade, lw=1.3, marker=marker, ms=8, mew=1.5, zorder=6)
        ax.set_title(cls, fontsize=10)
        ax.set_xlabel(x)
        ax.set_ylabel("mistakes")
        if _is_whole(xs_all):
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            if len(xs_all) == 1:  # a lone point: a marker on an integer axis, one tick each side
                ax.set_xlim(xs_all[0] - 1, xs_all[0] + 1)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylim(bottom=0)
        ax.grid(True, color="0.9", lw=0.8)
        ax.set_axisbelow(True)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    handles = [Line2D([], [], color=color[n], lw=1.8, label=n + (" (no proven bound)" if n in no_bound else ""))
               for n in learners]
    handles += [Line2D([], [], color="0.3", marker="o", ls="", ms=6, label="proven worst case"),
                Line2D([], [], color="0.3", marker="o", mfc="white", mew=1.6, ls="", ms=6, label="best found"),
                Line2D([], [], color="0.3", ls="--", lw=1.3, marker="_", ms=10, mew=1.5,
                       label="proven bound (dashed, in\nthe learner's darker shade)")]
    for symbol in sorted(games, key=_game_order):
        ls, marker, shade = _game_style(symbol)
        handles.append(Line2D([], [], color=shade, ls=ls, lw=1.3, marker=marker, ms=8, mew=1.5,
                              label=_game_label(symbol)))
    fig.legend(handles=handles, loc="outside right center", fontsize=8, frameon=False)
    fig.suptitle(title or f"Mistakes found against the proven bounds, over {x}")
    return _save(fig, out)


# ---------------------------------------------------------------------------------------- (d) online-to-PAC
PAC_SIZE = (10.0, 4.6)  # inches: 1500 x 690 pixels


def plot_pac(run: dict, out) -> Written:
    """Draw a ``littlestone pac --json`` run: the examples each trial used against the sample bounds (the sum
    sum ceil(m_i) that holds, solid; the notes' closed form, dashed), and each trial's error against eps, with
    the fraction of eps-bad trials against delta.

    Parameters
    ----------
    run : dict
        ``trials`` (each ``samples``, ``error``, ``eps_bad``), ``samples_bound``, ``notes_samples_bound``,
        ``epsilon``, ``delta``, ``eps_bad_fraction``, ``mistake_bound`` and optionally ``learner``, ``class``.
    out : str or Path
        ``.png`` or ``.svg``.
    """
    _format(out)
    trials = run["trials"]
    if not trials:
        raise PlotError("no trials to plot")
    fig = _figure(PAC_SIZE, DPI, "constrained")
    left, right = fig.subplots(1, 2)
    xs = [t["trial"] for t in trials]
    samples = [t["samples"] for t in trials]
    left.plot(xs, samples, "o", ms=3.5, color="#1f77b4", label="examples used")
    left.axhline(run["samples_bound"], color="black", lw=1.4, label=f"sum of ceil(m_i) = {run['samples_bound']} (holds)")
    left.axhline(run["notes_samples_bound"], color="#d62728", lw=1.4, ls="--",
                 label=f"the notes' closed form = {run['notes_samples_bound']:.1f}")
    left.set_xlabel("trial")
    left.set_ylabel("examples")
    left.set_ylim(bottom=0, top=max(max(samples), run["samples_bound"]) * 1.12)
    left.set_title(f"examples used (M = {run['mistake_bound']})", fontsize=10)
    left.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=8, frameon=False)
    errors = [t["error"] for t in trials]
    bad = [t.get("eps_bad") for t in trials]
    right.plot([x for x, b in zip(xs, bad) if not b], [e for e, b in zip(errors, bad) if not b], "o", ms=3.5,
               color="#2ca02c", label="error <= eps")
    if any(bad):
        right.plot([x for x, b in zip(xs, bad) if b], [e for e, b in zip(errors, bad) if b], "o", ms=4.5,
                   color="#d62728", label="error > eps (eps-bad)")
    right.axhline(run["epsilon"], color="black", lw=1.4, ls="--", label=f"eps = {run['epsilon']:g}")
    right.set_xlabel("trial")
    right.set_ylabel("error of the output (exact)")
    right.set_ylim(bottom=0, top=max(max(errors), run["epsilon"]) * 1.25)
    right.set_title(f"eps-bad: {run['eps_bad_fraction']:.3f} of the trials (delta = {run['delta']:g})", fontsize=10)
    right.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, fontsize=8, frameon=False)
    for ax in (left, right):
        ax.grid(True, color="0.9", lw=0.8)
        ax.set_axisbelow(True)
    who = " on ".join(str(v) for v in (run.get("learner", {}).get("name"), run.get("class")) if v)
    fig.suptitle(f"A_PAC{(': ' + who) if who else ''}, {len(trials)} trials", fontsize=11)
    return _save(fig, out)


# ---------------------------------------------------------------------------------------- (c) trees
def _children(node) -> list:
    """``[(edge label, child)]`` of a tree node: ``"0"`` and ``"1"``, or a repeat node's ``exit`` (reached by
    the label other than the one repeated)."""
    if "repeat" in node:
        return [(1 - int(node["repeat"]), node.get("exit"))]
    return [(0, node.get("0")), (1, node.get("1"))]


def tree_size(root) -> int:
    """The nodes of a tree, its leaves (``null``) included: a complete tree of depth d has 2^(d+1) - 1."""
    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        count += 1
        if isinstance(node, dict):
            stack.extend(child for _, child in _children(node))
    return count


def _node_text(node, points, where: str) -> str:
    if "move" in node:  # a count-space tree of the experts game: a node is a move vector
        return str(node["move"]).replace(" ", "")
    j = node.get("point")
    if isinstance(j, bool) or not isinstance(j, int) or j < 0:
        raise PlotError(f"the tree's node at {where} has point {j!r}; a node is null or "
                        '{"point": j, "0": node, "1": node} with j a column index')
    if points is None:
        text = f"x{j}"
    else:
        if j >= len(points):
            raise PlotError(f"the tree's node at {where} has point {j}, but the class has {len(points)} points; "
                            "give the class the tree was made for")
        p = points[j]
        if isinstance(p, (tuple, list)):
            bits = len(p) > 1 and all(v in (0, 1) and not isinstance(v, float) for v in p)
            text = "".join(str(v) for v in p) if bits else ", ".join(str(v) for v in p)
        else:
            text = str(p)
    if "repeat" in node:
        text += f"\nrepeat {node['repeat']}"
    return text


def tree_graph(tree, points=None, *, max_nodes: int = MAX_NODES):
    """A tree JSON as a ``networkx.DiGraph``: its top levels, as many whole levels as hold at most
    ``max_nodes`` nodes.

    Parameters
    ----------
    tree : dict
        ``{"depth": d, "root": node}`` (``littlestone opt --tree``), a node being ``null`` (a leaf) or
        ``{"point": j, "0": node, "1": node}``; also the trees of the other games (``"kind":
        "randomized-tree"``, with ``{"point": j, "repeat": y0, "exit": node}`` nodes; the experts'
        count-space trees, whose nodes are ``{"move": a, ...}``).
    points : sequence, optional
        The class's points: node labels show ``points[j]`` (bit vectors as ``0110``) instead of ``xj``.
    max_nodes : int
        The most nodes drawn (leaves included): a larger tree is cut below the deepest level that keeps it
        within them (at least the root).

    Returns
    -------
    networkx.DiGraph
        Nodes numbered in preorder (0 is the root) with ``label`` (None for a leaf), ``depth`` and, on a node
        whose subtree was cut, ``hidden`` (the nodes below it left out); edges with ``label`` 0 or 1.
        ``G.graph``: ``total`` (the tree's nodes), ``left_out`` (those not drawn), ``levels`` (the depth drawn).

    Raises
    ------
    PlotError
        If the tree is malformed.
    """
    import networkx as nx

    if isinstance(tree, dict) and "root" not in tree and isinstance(tree.get("levels"), list):  # a complete tree
        tree = {**tree, "root": _levels_root(tree["levels"])}
    if not isinstance(tree, dict) or "root" not in tree:
        kind = tree.get("kind") if isinstance(tree, dict) else None
        what = f"a {kind} file" if kind else "not a tree"
        raise PlotError(f"this is {what}; plot tree draws the trees written by 'littlestone opt ... --tree OUT.json' "
                        '({"depth": d, "root": node})')
    per_level = _level_sizes(tree["root"])
    total = sum(per_level)
    keep, kept = 0, per_level[0]  # the deepest level drawn, and the nodes down to it
    while keep + 1 < len(per_level) and kept + per_level[keep + 1] <= max_nodes:
        keep += 1
        kept += per_level[keep]
    G = nx.DiGraph(total=total, left_out=total - kept, levels=keep)
    stack = [(tree["root"], None, None, 0, "the root")]
    k = 0
    while stack:
        node, parent, b, depth, where = stack.pop()
        if node is None:
            G.add_node(k, label=None, depth=depth)
        elif isinstance(node, dict):
            G.add_node(k, label=_node_text(node, points, where), depth=depth)
            kids = _children(node)
            if depth == keep:  # cut here: the subtree below is counted, not drawn
                G.nodes[k]["hidden"] = tree_size(node) - 1
            else:
                for label, child in reversed(kids):
                    if child is not None and not isinstance(child, dict):
                        raise PlotError(f"the tree's node at {where} has child {label} = {child!r}; a child is null "
                                        "or a node")
                    path = f"{where}, {label}" if parent is not None else f"path {label}"
                    stack.append((child, k, label, depth + 1, path))
        else:
            raise PlotError(f"the tree's node at {where} is {node!r}; a node is null or "
                            '{"point": j, "0": node, "1": node}')
        if parent is not None:
            G.add_edge(parent, k, label=b)
        k += 1
    return G


def _level_sizes(root) -> list:
    """The nodes at each depth of a tree (leaves included)."""
    sizes, level = [], [root]
    while level:
        sizes.append(len(level))
        level = [child for node in level if isinstance(node, dict) for _, child in _children(node)]
    return sizes


def tree_layout(G) -> dict:
    """Positions that read as a tree: the root on top, a level per depth, the leaves side by side in
    order (each 0-subtree left of its 1-subtree) and each node centred above its children. ``G`` is
    numbered in preorder, as :func:`tree_graph` numbers it.

    ``networkx.bfs_layout`` would space each level evenly, which puts parents beside their children
    when the leaves lie at different depths (the trees of the randomized game); this is the same
    layering, with each level's x taken from the leaves below.
    """
    pos = {}
    slot = 0
    for v in sorted(G):  # preorder: the leaves from left to right
        if G.out_degree(v) == 0:
            pos[v] = (float(slot), float(-G.nodes[v]["depth"]))
            slot += 1
    for v in sorted(G, reverse=True):  # children before their parent
        if v not in pos:
            xs = [pos[c][0] for c in G.successors(v)]
            pos[v] = ((min(xs) + max(xs)) / 2, float(-G.nodes[v]["depth"]))
    return pos


def plot_tree(tree: dict, out: str | os.PathLike, *, points: Sequence | None = None, max_nodes: int = MAX_NODES,
              title: str | None = None) -> Written:
    """Draw a mistake tree: each node the point shown there, each edge the label given (0 to the left,
    1 to the right), the leaves as dots.

    Every root-to-leaf path is realised by a concept, so a tree of depth d proves Opt(C) >= d
    ([Rivest94]); the title says what the tree proves (for the other games, D_k(C) or RL(C)).

    Parameters
    ----------
    tree : dict
        A tree JSON (:func:`tree_graph`).
    out : str or Path
        The picture: ``.png`` or ``.svg``.
    points : sequence, optional
        The class's points, to label the nodes with them (else ``xj``, the column index).
    max_nodes : int
        The most nodes drawn (default 63, a complete tree of depth 5): a larger tree is drawn down to the
        deepest level that keeps within them, each cut subtree shown as "+k" under its root, and the title
        says how many nodes were left out.
    title : str, optional
        A line above the default title (e.g. the class).

    Returns
    -------
    Written
        The path and the size in pixels, which grows with the tree (about 0.3 inch per leaf).

    Raises
    ------
    PlotError
        If the tree is malformed.
    ImportError
        If matplotlib is not installed.

    References
    ----------
    .. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
    """
    import networkx as nx

    if not isinstance(max_nodes, int) or not 1 <= max_nodes <= MAX_NODES_LIMIT:
        raise PlotError(f"max_nodes {max_nodes!r} is not between 1 and {MAX_NODES_LIMIT}; a larger tree is "
                        "unreadable as a picture")
    _format(out)
    G = tree_graph(tree, points, max_nodes=max_nodes)
    pos = tree_layout(G)
    leaves = [v for v in G if G.nodes[v]["label"] is None]
    inner = [v for v in G if G.nodes[v]["label"] is not None]
    cut = [v for v in inner if "hidden" in G.nodes[v]]
    span = {v: 1 for v in leaves}  # the leaf slots below each node: its label must fit in them
    for v in sorted(inner, reverse=True):  # preorder numbers: children before their parent
        span[v] = sum(span[c] for c in G.successors(v)) or 1
    slots = max(1, sum(1 for v in G if G.out_degree(v) == 0))  # leaves and cut subtrees, side by side
    height = max(d for _, d in G.nodes(data="depth")) + (0.5 if cut else 0)
    big = slots > 64
    font = 7 if big else 9
    per_char = font / 72 * 0.62  # inches per character, about, in DejaVu Sans
    widths = {v: max(map(len, G.nodes[v]["label"].split("\n"))) * per_char + 0.2 for v in inner}
    need = max((widths[v] / span[v] for v in inner), default=0)
    slot_in = max(0.18 if big else 0.3, need)
    level_in = 0.85
    top_in, bottom_in, side_in = (1.1 if cut else 0.75), 0.5, 0.35
    w = _quarter(max(5.0, slots * slot_in + 2 * side_in))
    h = _quarter(max(3.0, (height + 0.6) * level_in + top_in + bottom_in))
    dpi = TREE_DPI if not big else 100
    while max(w, h) * dpi > MAX_PIXELS:
        dpi -= 4
    fig = _figure((w, h), dpi)
    ax = fig.add_axes([side_in / w, bottom_in / h, 1 - 2 * side_in / w, 1 - (top_in + bottom_in) / h])
    ax.set_axis_off()
    ax.set_xlim(-0.5, slots - 0.5)
    ax.set_ylim(-height - 0.3, 0.3)
    for b, color in EDGE_COLORS.items():
        edges = [(u, v) for u, v, lab in G.edges(data="label") if lab == b]
        if not edges:
            continue
        nx.draw_networkx_edges(G, pos, edgelist=edges, ax=ax, arrows=False, edge_color=color, width=1.3)
        nx.draw_networkx_edge_labels(G, pos, edge_labels={e: str(b) for e in edges}, ax=ax, font_size=font - 1,
                                     font_color=color, font_weight="bold", rotate=False, label_pos=0.5,
                                     bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none"}, clip_on=False)
    if leaves:
        nx.draw_networkx_nodes(G, pos, nodelist=leaves, ax=ax, node_size=10 if big else 16, node_color="0.45")
    for v in cut:  # a stub under the root of each cut subtree, with the count of its nodes left out
        x0, y0 = pos[v]
        ax.plot([x0, x0], [y0, y0 - 0.42], ls=(0, (2, 2)), color="0.55", lw=1.0, zorder=1)
        ax.text(x0, y0 - 0.47, f"+{G.nodes[v]['hidden']}", ha="center", va="top", fontsize=font - 1, color="0.35")
    nx.draw_networkx_labels(G, pos, labels={v: G.nodes[v]["label"] for v in inner}, ax=ax, font_size=font,
                            bbox={"boxstyle": "round,pad=0.3", "fc": "#f4f4f4", "ec": "0.35", "lw": 0.8}, clip_on=False)
    left_out = G.graph.get("left_out", 0)
    cut_text = (f"the top {G.graph['levels'] + 1} levels: {G.graph['total'] - left_out} of {G.graph['total']} nodes "
                f"drawn,\n{left_out} left out (+k: the nodes below; --max-nodes draws more)" if left_out else None)
    fig.suptitle("\n".join(t for t in (title, _tree_title(tree), cut_text) if t), fontsize=10, y=1 - 0.12 / h,
                 va="top")
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], color=EDGE_COLORS[0], lw=1.5, label="label 0"),
               Line2D([], [], color=EDGE_COLORS[1], lw=1.5, label="label 1"),
               Line2D([], [], color="0.45", marker="o", ms=4, ls="", label="leaf (a path's end)")]
    fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=8, frameon=False,
               bbox_to_anchor=(0.5, 0.02 / h))
    return _save(fig, out)


def _quarter(inches: float) -> float:
    """Up to a quarter inch, so that width times an integer DPI is a whole number of pixels."""
    return math.ceil(inches * 4) / 4


def _tree_title(tree: dict) -> str:
    game = tree.get("game") if isinstance(tree.get("game"), dict) else {}
    errors = game.get("errors") or 0
    if tree.get("kind") == "randomized-tree":
        sym = f"R_{errors}" if errors else "RL"
        return f"shattered tree worth {tree.get('value')}: {sym}(C) >= {tree.get('value')}"
    if tree.get("kind") == "experts-tree":
        sym = ("R" if game.get("game") == "randomized" else "D") + f"_{errors}"
        return f"experts tree worth {tree.get('value')}: {sym}(n) >= {tree.get('value')} (n = {tree.get('experts')})"
    depth = tree.get("depth")
    if errors:
        return (f"mistake tree of depth {depth} with {errors} label error{'s' if errors != 1 else ''}: "
                f"D_{errors}(C) >= {depth}")
    return f"mistake tree of depth {depth}: Opt(C) >= {depth}"


def _levels_root(levels) -> dict:
    """The root of a complete tree given by its levels (every node at depth i asks ``levels[i]``)."""
    from solvers.certificates import MistakeTree

    return MistakeTree(len(levels), None, levels=levels).root
