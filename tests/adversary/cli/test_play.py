"""``littlestone play``: a whole game as the adversary and as the learner, scripted (stdin not a terminal: a move
per line) and under a pseudo-terminal as a user plays it (rich's board, typed moves); bad moves answered in one
line without ending the game; Ctrl-C ending it cleanly (exit 130, the summary printed)."""

import subprocess
import sys

import pytest

from adversary.play import AdversaryGame, BadMove, LearnerGame, parse_point
from solvers.classes.families import make
from solvers.learners import make_learner

from .checks import ROOT, posix

MAIN = "from adversary.cli import main; raise SystemExit(main())"


def _plain(*argv, moves: str):
    return subprocess.run([sys.executable, "-c", MAIN, "play", *argv], input=moves, capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_the_rules():
    C = make("thresholds", N=7)
    g = AdversaryGame(C, make_learner("soa", {}, C))
    assert g.opt() == 3 and g.size == 8
    with pytest.raises(BadMove, match="no point #9"):
        parse_point("#9", C)
    m = g.play(parse_point("4", C), 1)
    with pytest.raises(BadMove, match="no concept left"):
        g.play(parse_point("6", C), 0)  # 1 at 4: every threshold left is at most 4, so every concept says 1 at 6
    assert g.size == 4 and len(g.moves) == 1 and m.size == 8 and m.opt == 3
    L = LearnerGame(C)
    while not L.over:  # a learner that always predicts 1 walks down a mistake tree of depth Opt(C)
        L.answer(L.next_point(), 1)
    assert L.mistakes == 3 == L.opt(C.full)
    # SOA's predictions (the label of the larger Opt) make exactly Opt(C); any other learner at least Opt(C)
    for family, params in (("intervals", {"N": 5}), ("singletons", {"N": 3, "empty": 1})):
        D = make(family, **params)
        soa, ones = LearnerGame(D), LearnerGame(D)
        while not soa.over:
            j = soa.next_point()
            soa.answer(j, make_learner("soa", {}, D).predict_one(D.points[j]) if not soa.moves else
                       _soa_on(D, soa.V, j))
        while not ones.over:
            ones.answer(ones.next_point(), 1)
        assert soa.mistakes == soa.opt(D.full) <= ones.mistakes


def _soa_on(D, V, j) -> int:
    """SOA's prediction on V at point j: the label whose version space has the larger Opt (ties to 1)."""
    from solvers.opt.search import Solver

    S = Solver(D)
    V0, V1 = D.split_index(V, j)
    return int(S.value(V1) >= S.value(V0))


def test_missed_chances_are_the_moves_that_lost_ground():
    C = make("thresholds", N=7)
    g = AdversaryGame(C, make_learner("soa", {}, C))
    g.play(parse_point("1", C), 0)  # a point at the end: Opt falls from 3 to 2 and SOA is right
    assert g.missed() == [(1, 3, 2)]


def test_scripted_game_as_the_adversary():
    r = _plain("monotone-disjunctions", "n=3", "k=2", moves="#99 1\nbad\n100 0\n010 1\nq\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "not a move: there is no point #99" in out and "not a move: give a point and a label" in out
    assert "soa predicted" in out and "game over: soa made" in out and "Opt(C) = 2" in out


def test_scripted_game_as_the_learner_walks_a_tree_of_depth_opt():
    r = _plain("thresholds", "N=7", "--as", "learner", moves="1\nx\n1\n1\n1\n")
    assert r.returncode == 0, r.stderr
    assert "not a move: give 0 or 1" in r.stdout
    assert "game over: you made 3 mistakes; Opt(C) = 3" in r.stdout and "the path you walked down" in r.stdout
    assert r.stdout.count(": 1 -> 0") + r.stdout.count(": 1 -> 1") == 3


@posix
def test_under_a_terminal_both_sides_and_ctrl_c():
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn(sys.executable, ["-c", MAIN, "play", "thresholds", "N=7"], cwd=str(ROOT), encoding="utf-8",
                          timeout=120, dimensions=(40, 120))
    child.expect("point label>")
    child.sendline("#3 0")
    child.expect("point label>")
    child.sendline("#9 1")  # out of range: one line, the game goes on
    child.expect("not a move: there is no point #9")
    child.expect("point label>")
    child.sendcontrol("c")
    child.expect("stopped \\(Ctrl-C\\)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    child = pexpect.spawn(sys.executable, ["-c", MAIN, "play", "thresholds", "N=3", "--as", "learner"], cwd=str(ROOT),
                          encoding="utf-8", timeout=120, dimensions=(40, 120))
    for _ in range(2):  # Opt = 2: two predictions, both made wrong
        child.expect("your prediction")
        child.sendline("0")
    child.expect("you made 2 mistakes; Opt\\(C\\) = 2")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@posix
def test_under_a_terminal_a_class_file(tmp_path):
    """``play --matrix FILE`` (it did not exist): your own class, as opt reads it, under a terminal; Opt of the file's
    class (thresholds on 3 points: 2) is what the learner is held to."""
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "th.csv"
    path.write_text("0,0,0\n1,0,0\n1,1,0\n1,1,1\n")  # c_t(x_j) = 1 iff j < t: the thresholds on 3 points
    child = pexpect.spawn(sys.executable, ["-c", MAIN, "play", "--matrix", str(path), "--as", "learner"],
                          cwd=str(ROOT), encoding="utf-8", timeout=120, dimensions=(40, 120))
    child.expect("You are the learner on matrix")
    child.expect(r"\(4\s+concepts,\s+3\s+points\)")  # (rich may wrap the line anywhere)
    for _ in range(2):  # Opt = 2: two predictions, both made wrong
        child.expect("your prediction")
        child.sendline("0")
    child.expect("you made 2 mistakes; Opt\\(C\\) = 2")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_class_file_as_the_adversary_and_bad_input(tmp_path):
    path = tmp_path / "th.json"
    path.write_text('[[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]]')
    r = subprocess.run([sys.executable, "-c", MAIN, "play", "--matrix", str(path)], input="#1 0\n#0 1\n",
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "game over: soa made" in r.stdout and "Opt(C) = 2" in r.stdout
    r = subprocess.run([sys.executable, "-c", MAIN, "play", "thresholds", "N=3", "--matrix", str(path)],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not both" in r.stderr, r.stderr
