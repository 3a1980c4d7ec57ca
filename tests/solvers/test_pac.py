"""A_PAC (online-to-PAC, the notes' "Building A_PAC"): the stage lengths and both sample bounds against the
notes' numbers (406 against the closed form's 389.7 for M = 6, eps = 0.1, delta = 0.05); runs on random small
classes that end within M + 1 stages and sum ceil(m_i) examples; the exact error against a plain count; and
the command: its JSON, its plot, its one-line errors."""

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


from tests.oracles import cube_classes
from solvers.classes.families import make
from solvers.learners import make_learner
from solvers.pac import (MAX_SAMPLES, a_pac, as_conservative, check_samples, notes_samples_bound, samples_bound,
                         stage_length, true_error)

from ..adversary.cli.checks import assert_usage_error, run, run_bounded


def test_stage_lengths_and_the_two_sample_bounds():
    # m_i = (1/eps) ln(2^i / delta), rounded up
    assert [stage_length(0.1, 0.05, i) for i in (1, 2, 7)] == [math.ceil(10 * math.log(2 ** i / 0.05)) for i in (1, 2, 7)]
    assert samples_bound(6, 0.1, 0.05) == 406
    assert notes_samples_bound(6, 0.1, 0.05) == pytest.approx(389.74, abs=0.01)
    # the closed form is below the sum it claims to bound for small M (up to 6 at delta = 0.05), above it after:
    # closed - sum = (1/eps)((M + 1)(M(1 - ln 2) - 2 ln 2)/2 - ln(1/delta))
    for M in range(1, 12):
        exact = sum((i * math.log(2) + math.log(20)) / 0.1 for i in range(1, M + 2))
        assert exact <= samples_bound(M, 0.1, 0.05)
        gap = 10 * ((M + 1) * (M * (1 - math.log(2)) - 2 * math.log(2)) / 2 - math.log(20))
        assert notes_samples_bound(M, 0.1, 0.05) - exact == pytest.approx(gap)
        assert (notes_samples_bound(M, 0.1, 0.05) < exact) == (M <= 6)
    with pytest.raises(ValueError, match="between 0 and 1"):
        stage_length(1.5, 0.1, 1)


def classes():
    return cube_classes(4, (2, 8))


@settings(max_examples=40, deadline=None)
@given(classes(), st.sampled_from(["halving", "soa", "con"]), st.integers(0, 2**16))
def test_a_pac_ends_within_m_plus_one_stages_and_the_bound(C, name, seed):
    L, wrapped = as_conservative(make_learner(name, {}, C), C)
    assert wrapped and L.conservative
    M = math.floor(make_learner(name, {}, C).bound_on(C).value)
    rng = np.random.default_rng(seed)
    target = int(rng.integers(C.n_concepts))

    def draw():
        j = int(rng.integers(C.n_points))
        return C.points[j], int(C.matrix[target, j])

    r = a_pac(L, draw, 0.2, 0.1, M=M)
    assert r.stopped is None and len(r.stages) <= M + 1 and r.mistakes == len(r.stages) - 1
    assert r.samples == sum(r.stages) <= samples_bound(M, 0.2, 0.1)
    assert r.stages[-1] == stage_length(0.2, 0.1, len(r.stages))  # the last stage passed its m_i
    # the exact error: the points the output gets wrong, each of weight 1/|X|
    wrong = sum(1 for j, x in enumerate(C.points) if r.hypothesis.predict_one(x) != C.matrix[target, j])
    assert true_error(r.hypothesis, C.points, [Fraction(1, C.n_points)] * C.n_points, C.matrix[target]) == \
        Fraction(wrong, C.n_points)


def test_a_pac_needs_a_conservative_learner():
    C = make("thresholds", N=3)
    with pytest.raises(ValueError, match="conservative"):
        a_pac(make_learner("halving", {}, C), lambda: (C.points[0], 0), 0.1, 0.1)


def test_pac_command_json_and_plot(capsys, tmp_path):
    code, out, err = run(capsys, "pac", "halving", "--class", "thresholds", "N=15", "--epsilon", "0.2", "--delta", "0.1",
                         "--trials", "30", "--json", "--quiet")
    assert code == 0, err
    r = json.loads(out)
    assert r["mistake_bound"] == 4 and r["wrapped"] == "conservative(halving)" and len(r["trials"]) == 30
    assert r["samples_bound"] == samples_bound(4, 0.2, 0.1) and all(t["samples"] <= r["samples_bound"] for t in r["trials"])
    assert r["eps_bad_fraction"] == sum(t["error"] > 0.2 for t in r["trials"]) / 30
    assert {"trials", "eps_bad_fraction", "delta", "mistake_bound", "samples_bound"} <= set(r)
    pytest.importorskip("matplotlib")
    code, out, err = run(capsys, "pac", "winnow2", "--class", "monotone-disjunctions", "n=3", "k=1", "--epsilon", "0.2",
                         "--delta", "0.1", "--trials", "10", "--plot", tmp_path / "p.png", "--quiet")
    assert code == 0 and (tmp_path / "p.png").exists() and "run as" not in out  # Winnow2 is conservative


def test_pac_adversarial_and_file_distributions(capsys, tmp_path):
    w = tmp_path / "w.json"
    w.write_text(json.dumps({"weights": [1, 0, 0, 3]}))
    code, out, err = run(capsys, "pac", "halving", "--class", "thresholds", "N=4", "--epsilon", "0.2", "--delta", "0.1",
                         "--trials", "5", "--distribution", str(w), "--json", "--quiet")
    assert code == 0, err
    code, out, err = run(capsys, "pac", "halving", "--class", "thresholds", "N=4", "--epsilon", "0.2", "--delta", "0.1",
                         "--trials", "5", "--distribution", "adversarial", "--time-limit", "0.5", "--json", "--quiet")
    r = json.loads(out)
    assert code == 0 and r["search"]["candidates"] >= 1 and r["distribution"] == "adversarial"


def test_pac_a_distribution_file_giving_a_key_twice_is_refused(capsys, tmp_path):
    w = tmp_path / "w.json"
    w.write_text('{"weights": [1, 0, 0, 3], "weights": [0, 0, 0, 1]}')
    code, out, err = run(capsys, "pac", "halving", "--class", "thresholds", "N=4", "--epsilon", "0.2", "--delta", "0.1",
                         "--trials", "5", "--distribution", str(w), "--quiet")
    assert_usage_error(code, out, err)
    assert 'the key "weights" appears twice' in err


def test_pac_adversarial_with_a_conservative_learner(capsys):
    """A learner already conservative (A' of Halving) is attacked as it is, not wrapped again."""
    code, out, err = run(capsys, "pac", "conservative", "learner=halving", "--class", "thresholds", "N=7", "--epsilon",
                         "0.2", "--delta", "0.1", "--trials", "3", "--distribution", "adversarial", "--time-limit", "3",
                         "--json", "--quiet")
    assert code == 0, err
    r = json.loads(out)
    assert r["wrapped"] is None and r["search"]["chosen_examples"]["mistakes"] == 3


@pytest.mark.parametrize("argv, words", [
    (["halving", "--class", "thresholds", "N=4", "--epsilon", "1.5", "--delta", "0.1"], "between 0 and 1"),
    (["perceptron", "--class", "thresholds", "N=4", "--epsilon", "0.1", "--delta", "0.1"], "needs a mistake bound"),
    (["halving", "--class", "thresholds", "N=4", "--epsilon", "0.1", "--delta", "0.1", "--distribution", "nofile.json"],
     "cannot read"),
])
def test_pac_bad_input_is_one_line(capsys, argv, words):
    code, out, err = run(capsys, "pac", *argv, "--quiet")
    assert_usage_error(code, out, err)
    assert words in err


def test_check_samples_bounds_the_sum_and_refuses_what_cannot_run():
    for M, eps, delta in ((0, 0.5, 0.5), (6, 0.1, 0.05), (20, 0.01, 1e-9)):
        assert samples_bound(M, eps, delta) <= check_samples(M, eps, delta) <= samples_bound(M, eps, delta) + M + 1
    assert check_samples(6, 0.1, 0.05, runs=10) == pytest.approx(10 * check_samples(6, 0.1, 0.05))
    with pytest.raises(ValueError, match=r"up to 1.6e\+301 examples a run, more than the 100,000,000 that fit; "
                                         r"give epsilon >= 1.7e-07$"):
        check_samples(3, 1e-300, 0.1)
    with pytest.raises(ValueError, match="more than 1e308 examples a run"):  # 1/eps overflows a float
        check_samples(3, 1e-320, 0.1)
    with pytest.raises(ValueError, match=r"give epsilon >= 0.00017 or runs <= 61$"):
        check_samples(3, 1e-5, 0.1, runs=1000)
    with pytest.raises(ValueError, match="a learner with a smaller mistake bound"):
        check_samples(10**9, 0.5, 0.5)
    assert check_samples(3, 1.7e-7, 0.1) <= MAX_SAMPLES  # the epsilon it names fits


def test_pac_sample_size_is_checked_before_any_example():
    # issue 39: --epsilon 1e-300 needs 10^301 examples a trial, and the command ran for ever; now one line at once
    code, out, err = run_bounded("pac", "halving", "--class", "thresholds", "N=7", "--epsilon", "1e-300", "--delta",
                                 "0.1", "--trials", "1", gb=2)
    assert_usage_error(code, out, err, contains="may use up to 1.6e+301 examples a run, more than the 100,000,000 that "
                                                "fit; give --epsilon >= 1.7e-07")


@pytest.mark.parametrize("argv, words", [
    (["--epsilon", "1e-5", "--trials", "1000"], "give --epsilon >= 0.00017 or --trials <= 61"),
    (["--epsilon", "1e-7", "--trials", "1", "--distribution", "adversarial"], "14 runs in all"),  # the search's too
])
def test_pac_too_many_examples_in_all_is_one_line(capsys, argv, words):
    code, out, err = run(capsys, "pac", "halving", "--class", "thresholds", "N=7", "--delta", "0.1", *argv, "--quiet")
    assert_usage_error(code, out, err, contains=words)


def test_chosen_examples_pass_the_notes_closed_form(capsys):
    """An adversary choosing each example (the attack's 6 mistakes on Halving's A' over thresholds N=63, each
    stage padded with m_i - 1 correct predictions) makes A_PAC use sum ceil(m_i) = 406 examples: past 389.7."""
    code, out, err = run(capsys, "pac", "halving", "--class", "thresholds", "N=63", "--epsilon", "0.1", "--delta", "0.05",
                         "--trials", "3", "--distribution", "adversarial", "--time-limit", "5", "--json", "--quiet")
    assert code == 0, err
    chosen = json.loads(out)["search"]["chosen_examples"]
    assert chosen == {"samples": 406, "stages": chosen["stages"], "mistakes": 6, "unpadded_stages": [],
                      "past_notes_bound": True}
    assert len(chosen["stages"]) == 7
