"""``MistakeTree.to_tikz``: the mistake tree as a forest (TikZ) picture, cut to its top levels past a size."""

from fractions import Fraction

import pytest

from solvers.certificates import MistakeTree, RandomizedTree
from solvers.certificates.opt import TIKZ_MAX_NODES, tex_text
from solvers.classes import ConceptClass
from solvers.classes.families import make
from solvers.game_rules import Game


def forest_nodes(text: str) -> list:
    """``[(depth, content, options)]`` of a forest picture, in preorder: a small reader of the bracket
    notation (a node opens with ``[`` outside any braces, its content is the first brace group after it)."""
    body = text[text.index("\\begin{forest}") + len("\\begin{forest}"):text.index("\\end{forest}")]
    nodes, depth, braces, i = [], 0, 0, 0
    while i < len(body):
        c = body[i]
        if c == "{":
            braces += 1
        elif c == "}":
            braces -= 1
        elif braces == 0 and c == "[":
            depth += 1
            assert body[i + 1] == "{", body[i:i + 40]
            j, level = i + 1, 0
            while True:  # the content: a balanced brace group
                level += {"{": 1, "}": -1}.get(body[j], 0)
                j += 1
                if level == 0:
                    break
            k, level = j, 0
            while level or body[k] not in "[]":  # the options, up to the first child or the close
                level += {"{": 1, "}": -1}.get(body[k], 0)
                k += 1
            nodes.append((depth, body[i + 2:j - 1], body[j:k].strip().strip(",").strip()))
            i = k
            continue
        elif braces == 0 and c == "]":
            depth -= 1
            assert depth >= 0
        i += 1
    assert depth == 0 and braces == 0
    return nodes


def test_tikz_of_a_small_tree_has_every_node_and_edge_label():
    C = make("thresholds", N=7)
    from solvers.opt import opt

    tree = opt(C).tree
    tree.C = C
    text = tree.to_tikz()
    assert text.splitlines()[1].startswith("% needs \\usepackage{forest}")
    nodes = forest_nodes(text)
    assert len(nodes) == 15  # 7 points and 8 leaves: a complete tree of depth 3
    assert sorted(int(c) for _, c, _ in nodes if c) == list(range(1, 8))  # as the class names them: 4, not (4,)
    assert max(d for d, _, _ in nodes) == 4
    labels = [o for _, _, o in nodes if "edge label" in o]
    assert len(labels) == 14
    assert sum("left, font=\\scriptsize]{0}" in o for o in labels) == 7
    assert sum("right, font=\\scriptsize]{1}" in o for o in labels) == 7
    assert "left out" not in text


def test_tikz_cuts_a_large_tree_and_counts_what_it_left_out():
    C = make("all-functions", n=8)
    tree = MistakeTree.shattered(list(range(8)), C)  # 2^9 - 1 = 511 nodes
    text = tree.to_tikz()
    nodes = forest_nodes(text)
    drawn = [n for n in nodes if not n[1].startswith("+")]
    stubs = [n for n in nodes if n[1].startswith("+")]
    assert len(drawn) == TIKZ_MAX_NODES  # the top 6 levels: 1 + 2 + ... + 32
    assert len(stubs) == 32 and all(c == "+14" for _, c, _ in stubs)  # each cut node has 14 nodes below it
    assert "448 nodes left out" in text  # 511 - 63
    assert "63 of 511 nodes" in text.splitlines()[0]
    assert sum(int(c[1:]) for _, c, _ in stubs) + len(drawn) == 511


def test_tikz_of_a_deep_tree_by_levels_is_not_expanded():
    text = MistakeTree.shattered(list(range(60))).to_tikz()  # 2^61 - 1 nodes: only the top levels are walked
    assert f"{2 ** 61 - 1 - TIKZ_MAX_NODES} nodes left out" in text
    assert len(forest_nodes(text)) == TIKZ_MAX_NODES + 32


@pytest.mark.parametrize("max_nodes", [1, 2, 3, 7, 14, 15])
def test_tikz_keeps_whole_levels_within_max_nodes(max_nodes):
    C = make("all-functions", n=3)
    text = MistakeTree.shattered([0, 1, 2], C).to_tikz(max_nodes)
    nodes = forest_nodes(text)
    drawn = [n for n in nodes if not n[1].startswith("+")]
    assert len(drawn) == {1: 1, 2: 1, 3: 3, 7: 7, 14: 7, 15: 15}[max_nodes]
    assert sum(int(c[1:]) for _, c, _ in nodes if c.startswith("+")) + len(drawn) == 15


def test_tikz_names_bit_vectors_and_points_without_a_class():
    C = make("monotone-conjunctions", n=3)
    from solvers.opt import opt

    tree = opt(C).tree
    tree.C = C
    contents = [c for _, c, _ in forest_nodes(tree.to_tikz()) if c]
    assert contents and all(len(c) == 3 and set(c) <= {"0", "1"} for c in contents)
    bare = MistakeTree(1, {"point": 5, "0": None, "1": None})
    assert forest_nodes(bare.to_tikz())[0][1] == "$x_{5}$"


def test_tikz_of_a_randomized_tree_with_a_repeat_node():
    C = ConceptClass.from_matrix([[0], [1]])
    root = {"point": 0, "repeat": 0, "exit": {"point": 0, "0": None, "1": None}}
    t = RandomizedTree(Fraction(3, 4), root, C, Game(randomized=True))
    text = t.to_tikz()
    assert "shattered tree worth 3/4: RL(C) >= 3/4" in text.splitlines()[0]
    nodes = forest_nodes(text)
    assert [(d, c) for d, c, _ in nodes] == [(1, "0 (repeat 0)"), (2, "0"), (3, ""), (3, "")]
    assert "right, font=\\scriptsize]{1}" in nodes[1][2]  # the exit: the label other than the one repeated


def test_tikz_of_an_empty_tree_is_one_leaf():
    nodes = forest_nodes(MistakeTree(0, None).to_tikz())
    assert len(nodes) == 1 and nodes[0][1] == ""


def test_tex_text_escapes_the_special_characters():
    assert tex_text("a_b & 50% #1 $x$ {y} ~ ^ \\") == (
        "a\\_b \\& 50\\% \\#1 \\$x\\$ \\{y\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{}")


def test_write_by_extension_accepts_tex(tmp_path):
    t = MistakeTree(1, {"point": 0, "0": None, "1": None}, ConceptClass.from_matrix([[0], [1]]))
    t.write(tmp_path / "t.tex")
    assert "\\begin{forest}" in (tmp_path / "t.tex").read_text()
    with pytest.raises(ValueError, match=r"\.tex"):
        t.write(tmp_path / "t.txt")
