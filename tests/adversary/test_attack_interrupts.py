"""A Ctrl-C that a library swallowed (numpy drops a KeyboardInterrupt raised in the Python code it calls from C)
still stops every attack strategy at its next look at the clock: the attack ends "interrupted" with what it has
(verified), not at its time limit (solvers.interrupts, adversary.strategies.base.time_left)."""

import dataclasses
import json
import os
import signal

import pytest

from adversary.attack import attack
from adversary.referee import verify_witness
from adversary.strategies import available, get_strategy
from solvers import interrupts
from solvers.classes.families import make

posix = pytest.mark.skipif(os.name != "posix", reason="sends signals")

LIMIT = 20  # what the attack would run for without the Ctrl-C


def swallowed_ctrl_c():
    """A Ctrl-C whose KeyboardInterrupt a library took (as numpy's npy_ctypes_check does)."""
    try:
        signal.raise_signal(signal.SIGINT)
    except KeyboardInterrupt:
        pass


CASES = [  # (learner, class, strategy): each searches on until its limit
    ("halving", make("monotone-disjunctions", n=12, k=4), "exact"),    # the search over (state, version space)
    ("winnow2", make("monotone-disjunctions", n=12, k=3), "exact"),    # the count search (_counts)
    ("weighted-majority", make("intervals", N=150), "tree"),           # the mistake tree, then the greedy part
    ("winnow2", make("monotone-disjunctions", n=12, k=3), "beam"),
    ("winnow2", make("monotone-disjunctions", n=12, k=3), "mcts"),
    ("winnow2", make("monotone-disjunctions", n=12, k=3), "local"),
    ("perceptron", {"family": "margin-halfspaces", "params": {"d": 2, "gamma": "0.001"}}, "geometric"),
    ("perceptron", {"family": "margin-halfspaces", "params": {"d": 5, "gamma": "0.001"}}, "geometric"),
]


@posix
@pytest.mark.parametrize("learner, cls, strategy", CASES,
                         ids=[f"{s}-{l}-{i}" for i, (l, _, s) in enumerate(CASES)])
def test_a_swallowed_ctrl_c_stops_every_strategy(monkeypatch, learner, cls, strategy):
    if not available(strategy):
        pytest.skip(f"strategy {strategy} not installed")
    strat = get_strategy(strategy)
    run = strat.run

    def run_after_a_swallowed_ctrl_c(problem, **kw):
        swallowed_ctrl_c()  # during the strategy's own run: Opt's and the bound's searches are already done
        return run(problem, **kw)

    monkeypatch.setattr(strat, "run", run_after_a_swallowed_ctrl_c)
    monkeypatch.setattr(interrupts, "GRACE", 0.0)  # raised again at the strategy's first look at its clock
    with interrupts.catching():
        r = attack(learner, cls, strategy=strategy, time_limit=LIMIT)
    # it did not run to its limit (without the check at the strategy's clock it would: "time limit")
    assert r.stats["stopped"] == "interrupted"
    v = verify_witness(json.loads(json.dumps(r.witness)))
    assert v.ok and v.mistakes == r.mistakes >= 1  # what it had: at least the sure first mistake, verified
    assert r.verdict == "stopped"


MARGIN_PLANE = {"family": "margin-halfspaces", "params": {"d": 2, "gamma": "0.01"}}  # the interval DP: 5,000 moves


@pytest.mark.parametrize("when", ["at the 50th move", "after the interval DP's game"])
def test_a_ctrl_c_in_the_geometric_strategy_keeps_its_longest_game(monkeypatch, when):
    """A Ctrl-C while the Perceptron's game is built returns the moves played so far (each a mistake),
    verified, not the empty sequence nor only the sure first move: the longest game, or the prefix of it that
    the referee replays within the grace of a Ctrl-C (``stats["cut"]``).

    The Ctrl-C comes at an event of the search (a move played, the DP's game reported), never after a time, and
    the attack has no time limit: what it returns does not depend on the machine's speed, only how much of
    it is replayed does, and that is read from the run's stats."""
    if not available("geometric"):
        pytest.skip("strategy geometric not installed")
    from adversary.strategies import geometric

    played = []  # the length of the game the Ctrl-C interrupted
    if when == "at the 50th move":
        move = geometric._Play.move

        def move_then_ctrl_c(self, z):
            ok = move(self, z)
            if ok and len(self.sequence) == 50:
                played.append(50)
                raise KeyboardInterrupt
            return ok

        monkeypatch.setattr(geometric._Play, "move", move_then_ctrl_c)
        progress = None
    else:
        def progress(info):
            if info.get("strategy") == "geometric" and info.get("mistakes", 0) >= 1 and not info.get("done"):
                played.append(info["mistakes"])
                raise KeyboardInterrupt

    r = attack("perceptron", MARGIN_PLANE, strategy="geometric", progress=progress)
    assert len(played) == 1 and played[0] >= 2, played
    run_stats = r.stats["runs"][-1]["stats"]
    cut = run_stats.get("cut")
    assert r.stats["stopped"] == run_stats["stopped"] == "interrupted"
    if cut is not None:  # the referee replays the moves about as fast as they were made: a prefix within the grace
        assert cut["played"] == played[0] > cut["kept"] >= 1
    assert r.mistakes == (played[0] if cut is None else cut["kept"]) >= 1
    v = verify_witness(json.loads(json.dumps(r.witness)))
    assert v.ok and v.mistakes == r.mistakes


def _no_escape(**kw):
    try:
        return attack(**kw)
    except KeyboardInterrupt:  # (pytest would take it as the user's own Ctrl-C)
        pytest.fail("the Ctrl-C escaped the attack: nothing was printed")


def test_a_ctrl_c_in_opts_search_still_plays_the_sure_mistakes(monkeypatch):
    """Ctrl-C while Opt(C) is searched (before any strategy ran): the attack still holds the sure mistakes
    (every deterministic learner errs on a point whose other label the class allows), never 0."""
    import solvers.opt

    real = solvers.opt.opt

    def interrupted_opt(*a, **kw):
        r = real(*a, **kw)
        r.stats["stopped"] = "interrupted"
        return dataclasses.replace(r, tree=None)  # (a tree after a Ctrl-C that needs a search is left out)

    monkeypatch.setattr(solvers.opt, "opt", interrupted_opt)
    r = _no_escape(learner="halving", C=make("monotone-disjunctions", n=10, k=3), strategy="exact", time_limit=LIMIT)
    v = verify_witness(json.loads(json.dumps(r.witness)))
    assert r.stats["stopped"] == "interrupted" and r.verdict == "stopped"
    assert v.ok and v.mistakes == r.mistakes >= 1


def test_a_ctrl_c_in_the_learners_bound_still_returns_the_sure_mistakes(monkeypatch):
    """A learner's bound may be a search (SOA's): a Ctrl-C there returns what the attack has, not a bare
    'interrupted' with nothing printed. (Halving here: the sure mistakes are then played after the Ctrl-C
    without a search of the learner's own, whatever the machine's load.)"""
    import adversary.attack as attack_module

    def interrupted(*a, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(attack_module, "bound_for", interrupted)
    r = _no_escape(learner="halving", C=make("monotone-disjunctions", n=10, k=3), strategy="exact", time_limit=LIMIT)
    v = verify_witness(json.loads(json.dumps(r.witness)))
    assert r.stats["stopped"] == "interrupted" and r.verdict == "stopped"
    assert v.ok and v.mistakes == r.mistakes >= 1
