"""``--no-store`` on every command (issue 36: ``multiclass --no-store`` was refused): the commands that use the
results store take ``--store PATH`` too, with the same help; those that keep nothing there accept ``--no-store``
and refuse ``--store PATH`` in one line saying so."""

from __future__ import annotations

import pytest

from .checks import assert_usage_error, run

USING = ["opt", "table", "attack", "params"]
KEEPING_NONE = {  # a quick run of each
    "multiclass": ["multiclass", "multiclass-singletons", "N=3", "k=3"],
    "experts": ["experts", "n=2", "k=0"],
    "separate": ["separate", "opt", "vc", "--points", "3", "--time-limit", "1"],
    "verify": None,
    "pac": ["pac", "halving", "--class", "thresholds", "N=7", "--epsilon", "0.3", "--delta", "0.3", "--trials", "2"],
    "play": None,
    "export": ["export", "thresholds", "N=3"],
}


PLOTS = ["plot table", "plot tightness", "plot tree"]  # --no-store a no-op, refused beside --from-store


def help_of(capsys, command: str) -> str:
    code, out, err = run(capsys, *command.split(), "--help")
    assert code == 0, err
    return " ".join(out.split())


@pytest.mark.parametrize("command", USING + list(KEEPING_NONE) + PLOTS)
def test_every_command_takes_no_store(capsys, command):
    assert "--no-store" in help_of(capsys, command)


def test_the_plots_say_when_no_store_is_refused(capsys):
    for command in PLOTS[:2]:
        assert "refused with --from-store, which reads the store" in help_of(capsys, command), command
    assert "plot tree reads and writes no results store" in help_of(capsys, "plot tree")


def test_the_commands_using_the_store_say_the_same(capsys):
    helps = {c: help_of(capsys, c) for c in USING}
    for c, text in helps.items():
        assert "--no-store neither read nor write the results store" in text, c
        assert "--store PATH the results store" in text, c


@pytest.mark.parametrize("command", [c for c, argv in KEEPING_NONE.items() if argv is not None])
def test_no_store_is_accepted_and_store_refused_where_nothing_is_kept(capsys, command):
    argv = KEEPING_NONE[command]
    code, out, err = run(capsys, *argv, "--no-store")
    assert code in (0, 3), err  # (separate may stop at its limit)
    assert out
    code, out, err = run(capsys, *argv, "--store", "r.db")
    assert_usage_error(code, out, err, contains=f"{command} reads and writes no results store")
