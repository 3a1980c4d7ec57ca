"""The pictures of :mod:`adversary.plot`: each kind written as PNG and SVG at the size it says, the
readers of table, tightness and attack files, the tree's layout, and what bad data says."""

import contextlib
import importlib.util
import io
import json
import re
import struct
import sys
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from adversary.cli import main  # noqa: E402
from adversary.plot import (MAX_NODES, PlotError, plot_table, plot_tightness, plot_tree, read_table,  # noqa: E402
                            read_tightness, tightness_panels, tree_graph, tree_layout, tree_size)

ROOT = Path(__file__).resolve().parents[2]


def png_size(path) -> tuple[int, int]:
    """(width, height) from the PNG header (the IHDR chunk follows the 8-byte signature)."""
    data = Path(path).read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def svg_size(path) -> tuple[float, float]:
    """(width, height) in points from the SVG's root element."""
    head = Path(path).read_text()[:2000]
    w, h = (float(re.search(rf'{k}="([\d.]+)pt"', head).group(1)) for k in ("width", "height"))
    return w, h


def check_written(written, path, dpi):
    """The file is there, not trivial, and as large as the function says."""
    path = Path(path)
    assert written.path == path and path.exists()
    if path.suffix == ".png":
        assert path.stat().st_size > 5000
        assert png_size(path) == (written.width, written.height)
    else:
        assert path.stat().st_size > 10000 and "<svg" in path.read_text()[:1000]
        w, h = svg_size(path)
        assert (round(w * dpi / 72), round(h * dpi / 72)) == (written.width, written.height)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Real inputs, written by the CLI (without a store: a module fixture runs outside the test's own)."""
    d = tmp_path_factory.mktemp("inputs")
    run = [
        ["table", "monotone-disjunctions", "--grid", "n=2..6", "k=1..2", "--format", "json", "-o", d / "md.json"],
        ["table", "monotone-disjunctions", "--grid", "n=2..6", "k=1..2", "--format", "csv", "-o", d / "md.csv"],
        ["table", "intervals", "--grid", "N=2..6", "--randomized", "--format", "csv", "-o", d / "rl.csv"],
        ["opt", "thresholds", "N=7", "--tree", d / "tree.json"],
        ["opt", "intervals", "N=4", "--randomized", "--tree", d / "rtree.json"],
        ["opt", "thresholds", "N=7", "--errors", "1", "--tree", d / "etree.json"],
    ]
    for argv in run:
        assert main([str(a) for a in argv] + ["--quiet", "--no-store"]) == 0, argv
    lines = []
    for learner in ("winnow1", "soa"):
        for n in (2, 3, 4):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                assert main(["attack", learner, "--class", "monotone-disjunctions", f"n={n}", "k=1", "--strategy",
                             "exact", "--json", "--quiet", "--no-store"]) == 0
            lines.append(out.getvalue().strip())
    (d / "attacks.jsonl").write_text("\n".join(lines) + "\n")
    return d


def tightness_script():
    """scripts/tightness.py as a module (registered first: its dataclasses look their module up)."""
    name = "littlestone_scripts_tightness"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "tightness.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


# ---------------------------------------------------------------------------------------- (a) tables
@pytest.mark.parametrize("ext", [".png", ".svg"])
def test_table_plot_is_written_at_its_size(files, tmp_path, ext):
    _, rows = read_table(files / "md.json")
    out = tmp_path / f"opt{ext}"
    written = plot_table(rows, "n", out, title="monotone disjunctions")
    assert (written.width, written.height) == (1050, 675)
    check_written(written, out, 150)


def test_table_csv_reads_back_as_the_json_rows(files):
    head, js = read_table(files / "md.json")
    head_csv, cs = read_table(files / "md.csv")
    assert head == {"family": "monotone-disjunctions", "grid": ["n", "k"], "unfinished": False}
    assert head_csv["grid"] == ["n", "k"]
    keys = ("params", "concepts", "points", "opt", "lower", "upper", "log2_size", "vc", "vc_lower", "vc_upper")
    assert [{k: r[k] for k in keys} for r in cs] == [{k: r[k] for k in keys} for r in js]


def test_table_of_a_game_plots_its_value(files, tmp_path):
    _, rows = read_table(files / "rl.csv")
    assert rows[2]["symbol"] == "RL" and rows[2]["value"] == "27/16"  # intervals N=4
    check_written(plot_table(rows, "N", tmp_path / "rl.png", column="value"), tmp_path / "rl.png", 150)
    with pytest.raises(PlotError, match="no game column"):
        plot_table(read_table(files / "md.json")[1], "n", tmp_path / "x.png", column="value")


def test_unsolved_cells_and_a_table_cut_short(files, tmp_path):
    """A run killed mid-table leaves the head and whole rows: they are read; open cells draw as intervals."""
    text = (files / "md.json").read_text()
    cut = tmp_path / "cut.json"
    cut.write_text("\n".join(text.splitlines()[:5]) + "\n")
    head, rows = read_table(cut)
    assert head["unfinished"] and len(rows) == 4
    _, rows = read_table(files / "md.json")
    rows[-1] = {**rows[-1], "opt": None, "lower": 3, "upper": 5, "vc": None, "vc_lower": 2, "vc_upper": 5}
    check_written(plot_table(rows, "n", tmp_path / "open.png"), tmp_path / "open.png", 150)


def test_table_bad_data_says_what_to_change(files, tmp_path):
    _, rows = read_table(files / "md.json")
    out = tmp_path / "x.png"
    with pytest.raises(PlotError, match="choose the x axis from: n, k"):
        plot_table(rows, "m", out)
    with pytest.raises(PlotError, match="unknown column"):
        plot_table(rows, "n", out, column="seconds")
    with pytest.raises(PlotError, match="two rows have n=2"):
        plot_table(rows, "n", out, group_by=[])
    with pytest.raises(PlotError, match="to group by"):
        plot_table(rows, "n", out, group_by="q")
    with pytest.raises(PlotError, match=".png or .svg"):
        plot_table(rows, "n", tmp_path / "x.pdf")
    assert not out.exists()
    for name, text in {"a.md": "| n |\n", "b.json": '{"rows": 3}', "c.csv": "n,k\n1,2\n", "d.json": "{"}.items():
        (tmp_path / name).write_text(text)
        with pytest.raises(PlotError):
            read_table(tmp_path / name)
    with pytest.raises(PlotError, match="does not exist"):
        read_table(tmp_path / "none.json")


def test_a_table_or_attack_file_giving_a_key_twice_is_refused(tmp_path):
    """json.loads keeps the last of two equal keys; littlestone refuses the file in one line instead."""
    (tmp_path / "t.json").write_text('{"family": "thresholds", "rows": [{"N": 1, "opt": 1, "opt": 5}]}')
    with pytest.raises(PlotError, match='the key "opt" appears twice'):
        read_table(tmp_path / "t.json")
    (tmp_path / "a.jsonl").write_text('{"mistakes": 3, "mistakes": 9}\n')
    with pytest.raises(PlotError, match='the key "mistakes" appears twice'):
        read_tightness([tmp_path / "a.jsonl"])


# ---------------------------------------------------------------------------------------- (b) tightness
def test_tightness_from_attacks_and_the_script(files, tmp_path):
    rows = read_tightness([files / "attacks.jsonl"])
    assert {(r["learner"], r["params"]["n"], r["exact"]) for r in rows} >= {("soa", 4, True), ("winnow1", 2, True)}
    assert all(r["opt"] is not None and r["bound"] is not None for r in rows)
    for ext in (".png", ".svg"):
        written = plot_tightness(rows, tmp_path / f"t{ext}")
        assert (written.width, written.height) == (1200, 750)
        check_written(written, tmp_path / f"t{ext}", 150)
    # the script's CSV, rows built as the script builds them (attacks on two classes: two panels)
    script = tightness_script()
    records = [script.run_row(script.Row("winnow", "winnow1", "monotone-disjunctions", {"n": n, "k": k}, ("exact",)),
                              5.0, 0) for n in (2, 3) for k in (1, 2)]
    records.append({c: "" for c in script.COLUMNS} | {"learner": "winnow2", "class": "monotone-disjunctions n=3 k=1",
                                                     "status": "skipped"})
    (tmp_path / "t.csv").write_text(script.to_csv(records))
    rows = read_tightness([tmp_path / "t.csv"])
    assert len(rows) == 4 and {r["learner"] for r in rows} == {"winnow1"}
    panels, left_out = tightness_panels(rows, "n")
    assert [c for c, _ in panels] == ["monotone-disjunctions k=1", "monotone-disjunctions k=2"] and not left_out
    written = plot_tightness(rows, tmp_path / "panels.png")
    assert (written.width, written.height) == (1875, 600)
    check_written(written, tmp_path / "panels.png", 150)


def test_tightness_bad_data(files, tmp_path):
    rows = read_tightness([files / "attacks.jsonl"])
    with pytest.raises(PlotError, match="parameter 'd'"):
        plot_tightness(rows, tmp_path / "x.png", x="d")
    with pytest.raises(PlotError, match="two results"):
        plot_tightness(rows + rows[:1], tmp_path / "x.png")
    (tmp_path / "t.txt").write_text("")
    (tmp_path / "bad.csv").write_text("a,b\n1,2\n")
    for name in ("t.txt", "bad.csv", "none.jsonl"):
        with pytest.raises(PlotError):
            read_tightness([tmp_path / name])
    with pytest.raises(PlotError, match="not an attack result"):
        read_tightness([files / "tree.json"])


# ---------------------------------------------------------------------------------------- (c) trees
def test_tree_graph_and_layout(files):
    tree = json.loads((files / "tree.json").read_text())
    G = tree_graph(tree, [(v,) for v in range(1, 8)])
    assert G.number_of_nodes() == tree_size(tree["root"]) == 15
    assert G.nodes[0]["label"] == str(tree["root"]["point"] + 1)  # thresholds' points are 1..N
    assert sorted(lab for _, _, lab in G.edges(data="label")) == [0] * 7 + [1] * 7
    pos = tree_layout(G)
    for v in G:
        kids = sorted(G.successors(v), key=lambda c: G.edges[v, c]["label"])
        if kids:  # centred above its children, the 0-child on the left, one level down
            assert pos[v][0] == (pos[kids[0]][0] + pos[kids[1]][0]) / 2 and pos[kids[0]][0] < pos[kids[1]][0]
            assert pos[kids[0]][1] == pos[v][1] - 1
    leaves = sorted(pos[v][0] for v in G if G.out_degree(v) == 0)
    assert leaves == list(range(8))


@pytest.mark.parametrize("name", ["tree.json", "rtree.json", "etree.json"])
@pytest.mark.parametrize("ext", [".png", ".svg"])
def test_trees_are_written_at_their_size(files, tmp_path, name, ext):
    tree = json.loads((files / name).read_text())
    out = tmp_path / f"tree{ext}"
    check_written(plot_tree(tree, out, title="a class"), out, 144)


def test_tree_refusals(files, tmp_path):
    tree = json.loads((files / "tree.json").read_text())
    big = {"depth": 9, "root": None}
    for _ in range(9):
        big["root"] = {"point": 0, "0": big["root"], "1": big["root"]}
    assert tree_size(big["root"]) == 1023 > MAX_NODES
    G = tree_graph(big)  # past max_nodes: the top levels that fit, each cut subtree counted
    assert G.number_of_nodes() == 63 and G.graph == {"total": 1023, "left_out": 960, "levels": 5}
    assert sorted({G.nodes[v]["hidden"] for v in G if "hidden" in G.nodes[v]}) == [30]  # 32 cut subtrees of 31
    w = plot_tree(big, tmp_path / "big.png")
    assert w.width < 2000  # readable on a page
    assert tree_graph(tree, max_nodes=14).graph["left_out"] > 0
    with pytest.raises(PlotError, match="class has 3 points"):
        plot_tree(tree, tmp_path / "x.png", points=[(1,), (2,), (3,)])
    for bad in ({"depth": 1, "root": {"point": "a", "0": None, "1": None}}, {"depth": 1, "root": 3},
                {"depth": 1, "root": {"point": 0, "0": [], "1": None}}, {"kind": "upper-bound"}, [1, 2]):
        with pytest.raises(PlotError):
            plot_tree(bad, tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


def test_trees_of_the_other_games(tmp_path):
    """A repeat node (randomized game with errors) has one child, by the label it does not repeat; an
    experts tree's nodes are move vectors."""
    rep = {"kind": "randomized-tree", "game": {"game": "randomized", "errors": 1}, "value": "3/2",
           "root": {"point": 1, "0": {"point": 0, "repeat": 0, "exit": None}, "1": None}}
    G = tree_graph(rep)
    assert G.nodes[1]["label"] == "x0\nrepeat 0" and list(G.edges(1, data="label")) == [(1, 2, 1)]
    check_written(plot_tree(rep, tmp_path / "rep.png"), tmp_path / "rep.png", 144)
    experts = {"kind": "experts-tree", "game": {"game": "deterministic", "errors": 0}, "experts": 2, "value": 1,
               "root": {"move": [1, 1], "0": None, "1": None}}
    assert tree_graph(experts).nodes[0]["label"] == "[1,1]"


# ------------------------------------------------------------------------------------------ issue 20's pictures
def test_one_line_per_game_never_mixed():
    """Halving (Opt) and randomized halving (RL) on thresholds N = 7, 15, 31: the dotted Opt line is 3, 4, 5
    (floor(log2 (N + 1))) and RL's is its own line, not the other way round."""
    from adversary.plot import optimum_lines

    rows = []
    for N, opt, rl in ((7, 3, 1.5), (15, 4, 2), (31, 5, 2.5)):
        rows.append({"learner": "halving", "params": {"N": N}, "mistakes": opt, "bound": opt, "exact": True,
                     "opt": opt, "opt_symbol": "Opt"})
        rows.append({"learner": "randomized-halving", "params": {"N": N}, "mistakes": rl + 0.2, "bound": 3,
                     "exact": True, "opt": rl, "opt_symbol": "RL"})
    panels, _ = tightness_panels(rows, "N")
    (_, series), = panels
    assert optimum_lines(series, "N") == {"Opt": [(7, 3.0), (15, 4.0), (31, 5.0)], "RL": [(7, 1.5), (15, 2.0), (31, 2.5)]}


def test_a_class_attacked_at_one_value_is_a_lone_point(tmp_path):
    rows = [{"learner": "halving", "family": "monotone-disjunctions", "params": {"n": n, "k": k}, "mistakes": 2,
             "bound": 3, "exact": True, "opt": 2} for n, k in ((3, 2), (4, 2), (5, 1))]
    panels, left_out = tightness_panels(rows, "n")
    assert [c for c, _ in panels] == ["monotone-disjunctions k=1", "monotone-disjunctions k=2"] and left_out == []
    plot_tightness(rows, tmp_path / "x.png", x="n")
    assert (tmp_path / "x.png").exists()


def test_identical_table_lines_are_merged_in_the_legend():
    from adversary.plot import _groups, _merged

    row = {"opt": 2, "lower": 2, "upper": 2, "log2_size": 3, "vc": 1, "vc_lower": 1, "vc_upper": 1}
    rows = [{**row, "params": {"n": n, "k": k}} for n in (3, 4) for k in (1, 2)] + [
        {**row, "opt": 3, "lower": 3, "upper": 3, "params": {"n": n, "k": 3}} for n in (3, 4)]
    keys, groups = _groups(rows, "n", None)
    index = {id(r): i for i, r in enumerate(rows, 1)}
    merged = _merged(groups, "opt", index)
    assert [[dict(label)["k"] for label in labels] for labels, _ in merged] == [[1, 2], [3]]
