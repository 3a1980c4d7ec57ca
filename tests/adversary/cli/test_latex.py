"""Results to cite: ``table --format latex`` (a booktabs tabular) and ``opt --tree OUT.tex`` (a forest picture),
and both compiled by pdflatex where a TeX installation exists."""

import re
import shutil
import signal
import subprocess

import pytest

from tests.solvers.test_tikz import forest_nodes

from .checks import assert_usage_error, one_error_line, posix, run, start, stop, wait_for_text


def latex_table(capsys, *argv, code=0):
    got, out, err = run(capsys, "table", *argv, "--format", "latex", "--quiet")
    assert got == code, err
    return out, err


def rows_of(out: str) -> tuple[str, list[list[str]]]:
    """The header and the body rows (cells) of a tabular, after checking its booktabs frame."""
    lines = out.strip().splitlines()
    assert lines[0].startswith("% littlestone table ") and "\\usepackage{booktabs}" in lines[0]
    assert re.fullmatch(r"\\begin\{tabular\}\{r+\}", lines[1]), lines[1]
    assert lines[2] == "\\toprule" and lines[4] == "\\midrule"
    assert lines[-2:] == ["\\bottomrule", "\\end{tabular}"]
    body = lines[5:-2]
    assert all(line.endswith(" \\\\") for line in [lines[3], *body])
    width = len(lines[1]) - len("\\begin{tabular}{}")
    rows = [line[:-3].split(" & ") for line in body]
    assert all(len(r) == width for r in rows) and len(lines[3][:-3].split(" & ")) == width
    return lines[3], rows


# ------------------------------------------------------------------------------------------ table --format latex
def test_latex_table_has_booktabs_rules_and_a_row_per_cell(capsys):
    out, _ = latex_table(capsys, "thresholds", "--grid", "N=2..5")
    header, rows = rows_of(out)
    assert header == ("N & $|C|$ & $|X|$ & $\\mathrm{Opt}$ & $\\lfloor \\log_2 |C| \\rfloor$ & VC & seconds \\\\")
    assert [r[:6] for r in rows] == [["2", "3", "2", "1", "1", "1"], ["3", "4", "3", "2", "2", "1"],
                                     ["4", "5", "4", "2", "2", "1"], ["5", "6", "5", "2", "2", "1"]]


def test_latex_table_writes_exact_fractions(capsys):
    out, _ = latex_table(capsys, "thresholds", "--grid", "N=4..9", "--randomized")
    header, rows = rows_of(out)
    assert header.split(" & ")[4] == "$\\mathrm{RL}$"
    assert [r[4] for r in rows] == ["$\\frac{9}{8}$", "$\\frac{5}{4}$", "$\\frac{11}{8}$", "$\\frac{3}{2}$",
                                    "$\\frac{25}{16}$", "$\\frac{13}{8}$"]  # RL(thresholds N=9) = 13/8


def test_latex_table_game_symbol_and_escaped_column_names(capsys):
    out, _ = latex_table(capsys, "all-functions", "--grid", "n=1..2", "--errors", "1", "--columns", "best_order")
    header, rows = rows_of(out)
    heads = header[:-3].split(" & ")
    assert heads[4] == "$D_{1}$" and "best\\_order" in heads
    assert [r[4] for r in rows] == ["3", "4"]


def test_latex_table_shows_an_unfinished_cell_as_its_bounds(capsys):
    out, err = latex_table(capsys, "intervals", "--grid", "N=200", "--time-limit", "1", code=3)
    _, rows = rows_of(out)
    m = re.fullmatch(r"\$\[(\d+), (\d+)\]\$", rows[0][4])  # Opt: proven bounds, not solved in the second
    assert m and int(m.group(1)) <= 14 <= int(m.group(2)), rows[0]
    assert "(shown as [lo, hi])" in err


def test_latex_table_to_a_tex_file(capsys, tmp_path):
    path = tmp_path / "t.tex"
    code, out, err = run(capsys, "table", "thresholds", "--grid", "N=1..3", "--format", "latex", "-o", path, "--quiet")
    assert code == 0, err
    assert out == "" and "wrote 3 rows" in err
    assert len(rows_of(path.read_text())[1]) == 3
    code, out, err = run(capsys, "table", "thresholds", "--grid", "N=1..3", "--format", "latex", "-o", tmp_path / "t.latex")
    one_error_line(code, err, contains=[".tex"])


def test_latex_writer_closes_the_tabular_of_an_interrupted_table():
    import io

    from adversary.cli.table import _TableWriter

    buf = io.StringIO()
    w = _TableWriter("latex", "thresholds", ["N"], buf)
    w.row({"params": {"N": 1}, "concepts": 2, "points": 1, "lower": 1, "upper": 1, "log2_size": 1,
           "vc_lower": 1, "vc_upper": 1, "seconds": 0.0})
    w.close([], complete=False)
    assert buf.getvalue().splitlines()[-3:] == ["\\bottomrule", "\\end{tabular}",
                                                "% interrupted: the cells not computed are not in the table"]
    empty = io.StringIO()
    _TableWriter("latex", "thresholds", ["N"], empty).close([], complete=True)  # no row: nothing begun, nothing to end
    assert empty.getvalue() == ""


@posix
def test_latex_table_streams_and_closes_on_interrupt(tmp_path):
    out_file = tmp_path / "grid.tex"
    p = start("table", "disjunctions", "k=3", "--grid", "n=5,6,7,12,13", "--quiet", "--format", "latex", "-o", out_file)
    wait_for_text(out_file, r"^7 & ")  # the rows are in the file as the cells finish
    code, _, err, _ = stop(p, signal.SIGINT, to_group=True)
    assert code == 130, err
    text = out_file.read_text()
    _, rows = rows_of(text.rsplit("\\end{tabular}", 1)[0] + "\\end{tabular}\n")
    assert [r[0] for r in rows][:3] == ["5", "6", "7"]
    assert text.rstrip().endswith("% interrupted: the cells not computed are not in the table")


# ------------------------------------------------------------------------------------------ opt --tree OUT.tex
def test_opt_tree_tex_has_a_node_per_tree_node_and_the_edge_labels(capsys, tmp_path):
    path = tmp_path / "t.tex"
    code, out, err = run(capsys, "opt", "thresholds", "N=7", "--tree", path, "--quiet")
    assert code == 0, err
    assert f"written to {path}" in out
    text = path.read_text()
    assert text.startswith("% littlestone: mistake tree of depth 3: Opt(C) >= 3, for thresholds N=7; 15 nodes")
    assert "% needs \\usepackage{forest}" in text
    nodes = forest_nodes(text)
    assert len(nodes) == 15  # as many as the .dot file's nodes: 7 points, 8 leaves
    dot = tmp_path / "t.dot"
    run(capsys, "opt", "thresholds", "N=7", "--tree", dot, "--quiet")
    assert len(re.findall(r"^  n\d+ \[", dot.read_text(), re.MULTILINE)) == 15
    assert sorted(c for _, c, _ in nodes if c) == [str(j) for j in range(1, 8)]
    edges = re.findall(r"edge label=\{node\[midway, (left|right), font=\\scriptsize\]\{([01])\}\}", text)
    assert sorted(edges) == [("left", "0")] * 7 + [("right", "1")] * 7


def test_opt_tree_tex_of_a_big_tree_says_how_many_nodes_it_left_out(capsys, tmp_path):
    path = tmp_path / "big.tex"
    code, _, err = run(capsys, "opt", "all-functions", "n=8", "--tree", path, "--quiet")
    assert code == 0, err
    text = path.read_text()
    assert "label={above:{\\scriptsize\\dots{} 448 nodes left out (the top 6 levels drawn)}}" in text  # 511 nodes, 63 drawn
    assert len([n for n in forest_nodes(text) if not n[1].startswith("+")]) == 63


def test_opt_tree_extension_names_tex(capsys, tmp_path):
    code, _, err = run(capsys, "opt", "thresholds", "N=3", "--tree", tmp_path / "t.txt")
    one_error_line(code, err, contains=[".tex"])


# ------------------------------------------------------------------------------------------ pdflatex
def test_latex_outputs_compile_with_pdflatex(capsys, tmp_path):
    if shutil.which("pdflatex") is None:
        pytest.skip("no pdflatex on this machine")
    kpsewhich = shutil.which("kpsewhich")
    if kpsewhich is not None:
        missing = [sty for sty in ("booktabs.sty", "forest.sty")
                   if not subprocess.run([kpsewhich, sty], capture_output=True, text=True, check=False).stdout.strip()]
        if missing:
            pytest.skip(f"this TeX installation has no {', '.join(missing)}")
    outputs = {"grid.tex": ["table", "thresholds", "--grid", "N=2..9", "--randomized", "--columns", "best_order",
                            "--format", "latex", "-o"],
               "bounds.tex": ["table", "intervals", "--grid", "N=200", "--time-limit", "1", "--format", "latex", "-o"],
               "tree.tex": ["opt", "thresholds", "N=7", "--tree"],
               "bits.tex": ["opt", "monotone-conjunctions", "n=3", "--tree"],
               "random.tex": ["opt", "intervals", "N=5", "--randomized", "--tree"],
               "big.tex": ["opt", "all-functions", "n=8", "--tree"],
               "experts.tex": ["experts", "n=1..3", "k=0..1", "--format", "latex", "-o"],
               "attacks.tex": ["attack", "randomized-halving", "--class", "thresholds", "--grid", "N=3,7", "--no-store",
                               "--format", "latex", "-o"]}
    for name, argv in outputs.items():
        code, _, err = run(capsys, *argv, tmp_path / name, "--quiet")
        assert code in (0, 3), err
    from fractions import Fraction

    from solvers.certificates import RandomizedTree
    from solvers.classes import ConceptClass
    from solvers.game_rules import Game

    repeat = {"point": 0, "repeat": 0, "exit": {"point": 0, "0": None, "1": None}}  # a node the .json trees rarely have
    RandomizedTree(Fraction(3, 4), repeat, ConceptClass.from_matrix([[0], [1]]), Game(randomized=True)).write(
        tmp_path / "repeat.tex")
    body = "\n\n".join(f"\\input{{{name}}}" for name in [*outputs, "repeat.tex"])
    (tmp_path / "doc.tex").write_text("\\documentclass{article}\n\\usepackage{booktabs,forest,graphicx}\n"
                                      "\\begin{document}\n" + body + "\n\\end{document}\n")
    p = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300, check=False)
    assert p.returncode == 0, p.stdout[-3000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 0


def test_experts_and_attack_grids_as_latex(capsys):
    """experts and attack --grid write booktabs tables too: fractions as \\frac, a row per cell, the rules closed."""
    code, out, err = run(capsys, "experts", "n=2..3", "k=1", "--format", "latex", "--quiet")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1].startswith("\\begin{tabular}") and lines[-2:] == ["\\bottomrule", "\\end{tabular}"]
    assert "$D_k$" in lines[3] and "$\\frac{7}{4}$" in out and "$\\frac{67}{32}$" in out
    code, out, err = run(capsys, "attack", "randomized-halving", "--class", "thresholds", "--grid", "N=3,7",
                         "--format", "latex", "--no-store", "--quiet")
    assert code == 0, err
    rows = [line for line in out.splitlines() if line.startswith(("3 &", "7 &"))]
    assert len(rows) == 2 and "$\\frac{481}{280}$ (1.717857)" in rows[1] and "\\textbar{}C\\textbar{}" in rows[1]
    assert out.rstrip().endswith("\\end{tabular}")
    code, out, err = run(capsys, "experts", "n=2", "k=1", "--format", "latex", "-o", "x.md")
    assert_usage_error(code, out, err)
