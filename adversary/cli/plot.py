"""``littlestone plot table|tightness|tree``: pictures (PNG or SVG, by the output's extension) of a table
column against a parameter, of the mistakes found against the learners' proven bounds, and of a mistake
tree. The pictures are drawn by :mod:`adversary.plot` from rows read from files: a table written by
``littlestone table --format json|csv``, a tightness CSV (``scripts/tightness.py --format csv``) or
``littlestone attack --json`` outputs, a tree written by ``littlestone opt --tree``.

matplotlib is an optional extra (``pip install 'littlestone[plot]'``); without it the command says so in
one line.
"""

from __future__ import annotations

import sys

from ._args import positive
from ._output import EXIT_OK, EXIT_USAGE, CLIError, check_outputs, error, note, write_atomic

__all__ = ["HELP", "add", "run"]

HELP = "draw a table column, the tightness of the bounds, or a mistake tree (PNG or SVG; needs matplotlib)"
KINDS = ("table", "tightness", "tree")


def add(p) -> None:
    from adversary.plot import MAX_NODES, MAX_NODES_LIMIT, TABLE_COLUMNS

    sub = p.add_subparsers(dest="kind", metavar="KIND", required=True)
    t = sub.add_parser("table", help="a column of a table against a parameter, one line per value of the others",
                       description="A column of a 'littlestone table' file against a parameter: one line per value "
                                   "of the other parameters, unsolved cells as their proven interval, and for Opt "
                                   "the band VC dimension .. floor(log2 |C|).")
    t.add_argument("file", nargs="?", metavar="TABLE",
                   help="a table file: littlestone table ... --format json (or csv) -o TABLE (or --from-store FAMILY)")
    t.add_argument("--from-store", metavar="FAMILY",
                   help="read the rows of FAMILY from the results store instead of a file (--store PATH, "
                        "$LITTLESTONE_STORE or littlestone.db); with --randomized / --errors / --horizon, that game's "
                        "values as the column 'value'")
    t.add_argument("--store", metavar="PATH", help="the results store for --from-store")
    _no_store_option(t)
    _verify_option(t)
    from ._args import add_game_options

    add_game_options(t)
    t.add_argument("--x", metavar="PARAM",
                   help="the parameter on the x axis (default: the table's first grid parameter)")
    t.add_argument("--column", choices=tuple(TABLE_COLUMNS), default="opt",
                   help="what to draw: opt, value (the game's column, with --randomized / --errors / --horizon) or "
                        "vc (default opt)")
    t.add_argument("--group-by", nargs="+", metavar="PARAM",
                   help="the parameters telling the lines apart (default: every other parameter that varies)")
    t.add_argument("--title", help="the figure's title")
    _output(t)

    g = sub.add_parser("tightness", help="the mistakes found against each learner's proven bound, over a parameter",
                       description="The mistakes found (filled: the proven worst case; hollow: the best found) against "
                                   "each learner's proven bound (dashed) and Opt(C) (dotted), over a class parameter.")
    g.add_argument("--from-store", action="store_true",
                   help="read the attacks from the results store (--store PATH, $LITTLESTONE_STORE or littlestone.db)")
    g.add_argument("--store", metavar="PATH", help="the results store for --from-store")
    _no_store_option(g)
    _verify_option(g)
    g.add_argument("files", nargs="*", metavar="FILE",
                   help="tightness CSVs (scripts/tightness.py --format csv) and files of 'littlestone attack --json' "
                        "outputs (.jsonl, one per line, or .json)")
    g.add_argument("--x", default="n", metavar="PARAM", help="the class parameter on the x axis (default n)")
    g.add_argument("--title", help="the figure's title")
    _output(g)

    r = sub.add_parser("tree", help="a mistake tree: each node its point, each edge its label",
                       description="A mistake tree (littlestone opt ... --tree TREE.json): each node the point shown, "
                                   "each edge the label (0 left, 1 right). Give the class to label the nodes with its "
                                   "points instead of their column indices.")
    r.add_argument("file", metavar="TREE", help="a tree file written by littlestone opt ... --tree TREE.json")
    r.add_argument("target", nargs="*", default=[], metavar="FAMILY k=v",
                   help="the tree's class, to show its points (optional)")
    r.add_argument("--matrix", metavar="FILE",
                   help="read the tree's class from a .json, .csv or .npy 0/1 matrix instead")
    r.add_argument("--max-nodes", type=positive("a number of nodes"), default=MAX_NODES, metavar="N",
                   help=f"the most nodes drawn, leaves included (default {MAX_NODES}, a complete tree of depth 5; at "
                        f"most {MAX_NODES_LIMIT}): a larger tree is drawn down to the deepest level that fits, each cut "
                        "subtree marked +k, the nodes left out")
    r.add_argument("--title", help="a line above the tree's own title (default: the class, when given)")
    r.add_argument("--quiet", action="store_true", help="no progress while a large class file loads")
    from ._store import add_no_store

    add_no_store(r, "plot tree")
    _output(r)


def _no_store_option(p) -> None:
    p.add_argument("--no-store", action="store_true",
                   help="accepted as every command takes it: a plot of files reads no results store "
                        "(refused with --from-store, which reads the store)")


def _check_no_store(args) -> None:
    """``--no-store`` is a no-op on a plot of files and refused beside ``--from-store`` (one line)."""
    if getattr(args, "no_store", False) and getattr(args, "from_store", None):
        raise CLIError(f"--from-store reads the results store and --no-store skips it; drop --no-store, or give "
                       f"the {'table file' if args.kind == 'table' else 'tightness files'} instead of --from-store")
    if getattr(args, "no_store", False) and getattr(args, "store", None) is not None:
        raise CLIError("give --store PATH or --no-store, not both")


def _verify_option(p) -> None:
    p.add_argument("--verify-store", action="store_true",
                   help="--from-store: re-check the certificates of every row drawn (within 2 s a row); by default a "
                        "sealed row is drawn as its seal proves it (its digest compared, as the commands serve it) and "
                        "only a row with no seal is re-checked")


def _output(p) -> None:
    p.add_argument("-o", "--output", required=True, metavar="OUT.png|OUT.svg",
                   help="the picture: .png or .svg")


def _require_matplotlib() -> None:
    try:
        import matplotlib
    except ImportError:
        raise CLIError("plot needs matplotlib, which is not installed; pip install 'littlestone[plot]'") from None
    matplotlib.use("Agg")  # this process draws to files only


def run(args) -> int:
    from adversary.plot import FORMATS

    _check_no_store(args)
    inputs = [(f, "the input") for f in (args.files if args.kind == "tightness" else [args.file]) if f is not None]
    if args.kind == "tree":
        inputs.append((args.matrix, "--matrix"))
    out, = check_outputs([(args.output, FORMATS, "the picture", "-o")], inputs, args=args)
    _require_matplotlib()
    draw, what = {"table": _table, "tightness": _tightness, "tree": _tree}[args.kind](args)
    # Bad data (a PlotError, one line, exit 2) stops the drawing before the picture is renamed into place.
    try:
        written = []
        write_atomic(out, lambda tmp: written.append(draw(tmp)))
    except OSError as e:
        return error(f"could not write the picture to {str(out)!r}: {e.strerror or e}", EXIT_USAGE)
    w = written[0]
    size = (f"{w.width} x {w.height} px" if out.suffix.lower() == ".png"
            else f"{w.width / w.dpi:g} x {w.height / w.dpi:g} in")
    print(f"wrote {what} to {out} ({size})", file=sys.stderr, flush=True)
    return EXIT_OK


def _store_records(args, family=None, kinds=("opt", "vc", "attack")):
    """The rows of the store (of ``family``, of ``kinds``) a plot may draw (:func:`_checked`)."""
    from .store import _open

    with _open(args) as S:  # read-only: reading needs no write access
        return _checked([rec for rec in S.rows(family=family) if rec.kind in kinds],
                        verify=getattr(args, "verify_store", False))


def _checked(records, verify: bool = False) -> list:
    """The rows whose every number is proven: by the row's seal (:func:`adversary.store.sealed_bounds`: its
    certificates checked when it was written, its digest compared now, as the commands serve it), or for a row with
    no seal (every row with ``verify``) by its certificates re-checked (:func:`adversary.store.verified_bounds`, on
    the class made again, as ``store show`` does): a plot never draws a number the store cannot prove. A row changed
    by hand after it was written, a row that fails, or states a bound nothing proves (an upper bound whose
    certificate was too large to keep), or whose class came from a matrix file and has no seal, is left out with
    one note."""
    from adversary.store import CHECK_BUDGET, StoreError, number, sealed_bounds, verified_bounds
    from solvers.certificates import TreeError

    from .store import _class_of, class_text

    kept, left = [], []
    for rec in records:
        try:
            notes: list = []
            sealed = sealed_bounds(rec)  # (Tampered: a row changed by hand)
            if sealed is not None and not verify:
                lo, hi, _ = sealed
            else:
                C = _class_of(rec)
                if C is None:
                    raise TreeError("its class came from a matrix file, which the store does not keep")
                lo, hi = verified_bounds(rec, C, upper_budget=CHECK_BUDGET, notes=notes, recompute=True)  # minutes
            if rec.kind == "attack":
                hi = None
            claimed = (number(rec.lower), number(rec.upper) if rec.kind != "attack" else None)
            if (lo, hi) != claimed:
                raise TreeError(f"it states {rec.lower}..{rec.upper} and its certificates prove "
                                f"{'?' if lo is None else lo}..{'?' if hi is None else hi}"
                                + "".join(f" ({n})" for n in notes))
        except (TreeError, StoreError, ValueError) as e:
            left.append(f"{rec.key[:12]} ({rec.kind} {class_text(rec)}): {e}")
            continue
        kept.append(rec)
    if left:
        note(f"{len(left)} stored row{'s' if len(left) != 1 else ''} left out of the plot, as not re-checked: "
             + "; ".join(left[:3]) + ("; ..." if len(left) > 3 else "") + " ('littlestone store show KEY' tells more)")
    return kept


def _table(args):
    from adversary.plot import plot_table, read_table, table_rows_from_store

    from ._args import game_of

    if (args.file is None) == (args.from_store is None):
        raise CLIError("give a table file, or --from-store FAMILY (not both)")
    if args.from_store is not None:
        G = game_of(args)
        rows = table_rows_from_store(_store_records(args, args.from_store, ("opt", "vc")), None if G.standard else G)
        if not rows:
            raise CLIError(f"the store has no table rows of {args.from_store!r}"
                           f"{'' if G.standard else ' with ' + G.symbol}; run 'littlestone table {args.from_store} "
                           "--grid ...' first")
        varying = [k for k in rows[0]["params"] if len({repr(r["params"].get(k)) for r in rows}) > 1]
        head = {"family": args.from_store, "grid": varying}
    else:
        if not game_of(args).standard:
            raise CLIError("--randomized, --errors and --horizon choose the game of --from-store; a table file has "
                           "its own")
        head, rows = read_table(args.file)
    x = args.x
    if x is None:
        if not head["grid"]:
            names = list(dict.fromkeys(k for r in rows for k in r["params"]))
            where = (f"the store's rows of {args.from_store} ({len(rows)} row{'s' if len(rows) != 1 else ''}) vary in no "
                     "parameter" if args.from_store is not None else f"{args.file} does not say its grid")
            raise CLIError(f"{where}; give the x axis with --x PARAM, one of: {', '.join(names) or 'none'}")
        x = head["grid"][0]
    if head.get("unfinished"):
        note(f"{args.file} was cut short (its run stopped before the end); plotting its {len(rows)} whole rows")
    symbol = next((r.get("symbol") for r in rows if r.get("symbol")), None)
    name = {"opt": "Opt(C)", "value": f"{symbol}(C)", "vc": "the VC dimension"}[args.column]
    title = args.title or (f"{head['family']}: {name} against {x}" if head.get("family") else None)
    return (lambda out: plot_table(rows, x, out, column=args.column, group_by=args.group_by, title=title),
            f"{name} against {x} ({len(rows)} rows)")


def _tightness(args):
    from adversary.plot import plot_tightness, read_tightness, tightness_panels, tightness_rows_from_store

    if bool(args.files) == bool(args.from_store):
        raise CLIError("give tightness files, or --from-store (not both)")
    if args.from_store:
        rows = tightness_rows_from_store(_store_records(args, kinds=("attack",)))
        if not rows:
            raise CLIError("the store has no attacks; run 'littlestone attack ...' first")
    else:
        rows = read_tightness(args.files)
    panels, _ = tightness_panels(rows, args.x)  # (every class is drawn: one attacked at one x as a lone point)
    used = sum(len(members) for _, series in panels for members in series.values())
    learners = len({name for _, series in panels for name in series})
    return (lambda out: plot_tightness(rows, out, x=args.x, title=args.title),
            f"{used} of {len(rows)} attacks ({learners} learner{'s' if learners != 1 else ''}, {len(panels)} "
            f"class{'es' if len(panels) != 1 else ''}) over {args.x}")


def _tree(args):
    from adversary.plot import MAX_NODES_LIMIT, plot_tree, tree_graph
    from solvers.certificates import load_tree

    from ._args import class_of_args

    if args.max_nodes > MAX_NODES_LIMIT:
        raise CLIError(f"--max-nodes {args.max_nodes} is more than a picture shows readably; give at most "
                       f"{MAX_NODES_LIMIT}, or write the tree with '--tree OUT.graphml' for a graph viewer")
    tree = load_tree(args.file)
    G = tree_graph(tree, None, max_nodes=args.max_nodes)  # a malformed or too large tree, before reading the class
    points, label = None, None
    if args.target or args.matrix is not None:
        C, label, _, _ = class_of_args(args)
        points = C.points
        tree_graph(tree, points, max_nodes=args.max_nodes)  # every point a column of the class
    title = args.title or label
    drawn = G.number_of_nodes()
    total = G.graph["total"]
    what = f"a tree of {total} nodes" if drawn == total else (
        f"the top {G.graph['levels'] + 1} levels of a tree of {total} nodes ({drawn} drawn, {total - drawn} left out; "
        "--max-nodes draws more)")
    return (lambda out: plot_tree(tree, out, points=points, max_nodes=args.max_nodes, title=title), what)

