"""``littlestone plot table|tightness|tree``: each kind writes PNG and SVG from files the CLI wrote, and
every bad input is one line, exit 2, with no picture left behind."""

import json
import struct
import sys

import pytest

pytest.importorskip("matplotlib")

from .checks import assert_usage_error, run  # noqa: E402


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()[:24]
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    from adversary.cli import main

    d = tmp_path_factory.mktemp("plot-inputs")
    grid = ["--grid", "n=2..6", "k=1..2"]
    for argv in (["table", "monotone-disjunctions", *grid, "--format", "json", "-o", d / "t.json"],
                 ["table", "monotone-disjunctions", "--grid", "n=2..5", "--format", "csv", "-o", d / "t.csv"],
                 ["table", "monotone-disjunctions", "--grid", "n=2..4", "--format", "md", "-o", d / "t.md"],
                 ["opt", "thresholds", "N=7", "--tree", d / "tree.json"],
                 ["opt", "thresholds", "N=255", "--tree", d / "big.json"],
                 ["attack", "halving", "--class", "thresholds", "N=7", "--witness", d / "witness.json"]):
        assert main([str(a) for a in argv] + ["--quiet", "--no-store"]) == 0, argv
    results = []
    for learner in ("halving", "soa"):
        for N in (3, 7, 15):
            results.append({"mistakes": N.bit_length(), "exact": True, "opt": N.bit_length(),
                            "bound": {"value": N.bit_length()}, "learner": {"name": learner, "params": {}},
                            "class": {"family": "thresholds", "params": {"N": N}}})
    (d / "attacks.json").write_text(json.dumps(results))
    (d / "attacks.jsonl").write_text("\n".join(json.dumps(r) for r in results) + "\n")
    return d


CASES = {
    "table": ["plot", "table", "{d}/t.json", "--x", "n"],
    "table-csv": ["plot", "table", "{d}/t.csv"],
    "tightness": ["plot", "tightness", "{d}/attacks.jsonl", "--x", "N"],
    "tree": ["plot", "tree", "{d}/tree.json", "thresholds", "N=7"],
}


@pytest.mark.parametrize("ext", [".png", ".svg"])
@pytest.mark.parametrize("case", list(CASES))
def test_each_plot_is_written(capsys, inputs, tmp_path, case, ext):
    out = tmp_path / f"picture{ext}"
    code, stdout, err = run(capsys, *[a.format(d=inputs) for a in CASES[case]], "-o", out)
    assert code == 0, err
    assert stdout == "" and f"to {out} (" in err and "error" not in err
    assert out.stat().st_size > (5000 if ext == ".png" else 10000)
    size, unit = err.rsplit("(", 1)[1].split(")")[0].rsplit(" ", 1)
    w, h = map(float, size.split(" x "))
    if ext == ".png":
        assert unit == "px" and png_size(out) == (w, h)
        if case.startswith("table"):
            assert (w, h) == (1050, 675)
    else:
        text = out.read_text()
        assert unit == "in" and text.lstrip().startswith("<?xml") and "<svg" in text[:1000]
        assert f'width="{w * 72:g}pt" height="{h * 72:g}pt"' in text[:1000]


@pytest.mark.parametrize("case", list(CASES))
def test_no_store_is_a_no_op_on_files(capsys, inputs, tmp_path, monkeypatch, case):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "picture.png"
    code, _, err = run(capsys, *[a.format(d=inputs) for a in CASES[case]], "-o", out, "--no-store")
    assert code == 0, err
    assert out.stat().st_size > 5000 and not (tmp_path / "littlestone.db").exists()


@pytest.mark.parametrize("argv, words", [
    (["plot", "table", "--from-store", "thresholds"], "give the table file instead of --from-store"),
    (["plot", "tightness", "--from-store"], "give the tightness files instead of --from-store"),
])
def test_no_store_is_refused_beside_from_store(capsys, tmp_path, argv, words):
    code, out, err = run(capsys, *argv, "-o", tmp_path / "p.png", "--no-store")
    line = assert_usage_error(code, out, err, contains="--from-store reads the results store")
    assert words in line and not (tmp_path / "p.png").exists()


def test_tightness_reads_lists_and_several_files(capsys, inputs, tmp_path):
    out = tmp_path / "t.png"
    code, _, err = run(capsys, "plot", "tightness", inputs / "attacks.json", inputs / "attacks.jsonl", "--x", "N",
                       "-o", out)
    assert code == 2 and "two results" in err  # the same attacks twice: one result per learner, class and N
    code, _, err = run(capsys, "plot", "tightness", inputs / "attacks.json", "--x", "N", "-o", out)
    assert code == 0 and "6 of 6 attacks (2 learners, 1 class) over N" in err


BAD = {
    "unknown extension": (["plot", "table", "{d}/t.json", "-o", "{o}/x.pdf"], ".png, .svg"),
    "no output": (["plot", "table", "{d}/t.json"], "-o"),
    "no kind": (["plot", "-o", "{o}/x.png"], "KIND"),
    "missing table": (["plot", "table", "{o}/none.json", "-o", "{o}/x.png"], "does not exist"),
    "markdown table": (["plot", "table", "{d}/t.md", "-o", "{o}/x.png"], "--format json"),
    "tree as table": (["plot", "table", "{d}/tree.json", "-o", "{o}/x.png"], "not a table"),
    "unknown x": (["plot", "table", "{d}/t.json", "--x", "q", "-o", "{o}/x.png"], "choose the x axis from: n, k"),
    "unknown column": (["plot", "table", "{d}/t.json", "--column", "seconds", "-o", "{o}/x.png"], "--column"),
    "no game column": (["plot", "table", "{d}/t.json", "--column", "value", "-o", "{o}/x.png"], "--randomized"),
    "group by x": (["plot", "table", "{d}/t.json", "--group-by", "n", "-o", "{o}/x.png"], "x axis"),
    "output is input": (["plot", "table", "{d}/t.json", "-o", "{d}/t.json"], "unknown extension"),
    "missing attacks": (["plot", "tightness", "{o}/none.jsonl", "-o", "{o}/x.png"], "does not exist"),
    "not attacks": (["plot", "tightness", "{d}/t.json", "-o", "{o}/x.png"], "not an attack result"),
    "tightness x": (["plot", "tightness", "{d}/attacks.jsonl", "--x", "d", "-o", "{o}/x.png"], "parameter 'd'"),
    "missing tree": (["plot", "tree", "{o}/none.json", "-o", "{o}/x.png"], "does not exist"),
    "max nodes past the limit": (["plot", "tree", "{d}/tree.json", "--max-nodes", "100000", "-o", "{o}/x.png"], "511"),
    "witness as tree": (["plot", "tree", "{d}/witness.json", "-o", "{o}/x.png"], "witness"),
    "tree of another class": (["plot", "tree", "{d}/tree.json", "thresholds", "N=3", "-o", "{o}/x.png"],
                              "class the tree was made for"),
    "tree and unknown family": (["plot", "tree", "{d}/tree.json", "thresholdz", "N=7", "-o", "{o}/x.png"],
                                "unknown family"),
}


@pytest.mark.parametrize("case", list(BAD), ids=list(BAD))
def test_bad_input_is_one_line(capsys, inputs, tmp_path, case):
    argv, words = BAD[case]
    line = assert_usage_error(*run(capsys, *[a.format(d=inputs, o=tmp_path) for a in argv]))
    assert words.lower() in line.lower(), line
    assert list(tmp_path.iterdir()) == []  # no picture, not even half of one


def test_a_big_tree_is_drawn_to_its_top_levels_or_whole_when_allowed(capsys, inputs, tmp_path):
    out = tmp_path / "big.png"
    code, _, err = run(capsys, "plot", "tree", inputs / "big.json", "-o", out)
    assert code == 0 and "the top 6 levels of a tree of 511 nodes (63 drawn, 448 left out" in err, err
    w, h = png_size(out)
    assert w < 3000 and h < w
    code, _, err = run(capsys, "plot", "tree", inputs / "big.json", "--max-nodes", "511", "-o", out)
    assert code == 0 and "a tree of 511 nodes" in err, err
    w, h = png_size(out)
    assert w > 3000 and h < w


def test_without_matplotlib_one_line_says_how_to_install(capsys, inputs, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    line = assert_usage_error(*run(capsys, "plot", "tree", inputs / "tree.json", "-o", tmp_path / "x.png"))
    assert "pip install 'littlestone[plot]'" in line
    assert list(tmp_path.iterdir()) == []


def test_plots_read_from_the_store(capsys, tmp_path):
    """plot table --from-store FAMILY and plot tightness --from-store draw what table and attack stored."""
    pytest.importorskip("matplotlib")
    from adversary.cli import main

    assert main(["table", "thresholds", "--grid", "N=2..9", "--randomized", "--quiet"]) == 0
    for n in (3, 4, 5):
        assert main(["attack", "halving", "--class", "monotone-disjunctions", f"n={n}", "k=2", "--quiet"]) == 0
    capsys.readouterr()
    for argv in (["table", "--from-store", "thresholds", "--x", "N"],
                 ["table", "--from-store", "thresholds", "--x", "N", "--randomized", "--column", "value"],
                 ["tightness", "--from-store"]):
        out = tmp_path / f"{argv[0]}{len(argv)}.png"
        assert main(["plot", *argv, "-o", str(out)]) == 0, capsys.readouterr().err
        capsys.readouterr()
        assert out.stat().st_size > 5000 and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code = main(["plot", "table", "--from-store", "intervals", "--x", "N", "-o", str(tmp_path / "x.png")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "no table rows of 'intervals'" in err


def test_plots_from_the_store_draw_only_rechecked_rows(capsys, tmp_path, monkeypatch):
    """A stored row whose numbers do not re-check (changed by hand) is left out of the plot with one note:
    the plot never draws a number the store cannot prove (issue 18, a store that never serves a wrong number)."""
    pytest.importorskip("matplotlib")
    import sqlite3

    from adversary.cli import main
    from adversary.plot import table_rows_from_store, tightness_rows_from_store
    from adversary.cli import plot as cli_plot

    store = tmp_path / "s.db"
    monkeypatch.setenv("LITTLESTONE_STORE", str(store))
    assert main(["table", "thresholds", "--grid", "N=2..6", "--quiet"]) == 0
    for n in (3, 4):
        assert main(["attack", "halving", "--class", "monotone-disjunctions", f"n={n}", "k=2", "--quiet"]) == 0
    capsys.readouterr()
    db = sqlite3.connect(store)
    db.execute("UPDATE results SET value = '9', lower = '9', upper = '9' WHERE kind = 'opt' AND params LIKE '%\"N\":5%'")
    db.execute("UPDATE results SET value = '7', lower = '7' WHERE kind = 'attack' AND params LIKE '%\"n\":4%'")
    db.commit()
    db.close()

    from types import SimpleNamespace

    Args = SimpleNamespace(store=str(store), no_store=False)
    rows = table_rows_from_store(cli_plot._store_records(Args, "thresholds"))
    err = capsys.readouterr().err
    assert sorted(r["params"]["N"] for r in rows) == [2, 3, 4, 6]
    assert all(r["opt"] == (r["params"]["N"] + 1).bit_length() - 1 for r in rows)  # Opt(thresholds N) = floor(log2(N+1))
    assert "left out of the plot" in err and len(err.strip().splitlines()) == 1
    attacks = tightness_rows_from_store(cli_plot._store_records(Args))
    assert [a["mistakes"] for a in attacks] == [2] and "left out of the plot" in capsys.readouterr().err
    out = tmp_path / "t.png"
    assert main(["plot", "table", "--from-store", "thresholds", "--x", "N", "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
