"""Rows kept without certificates: a solved result that took less than ``CERTIFY_SECONDS`` to compute is
stored with its numbers only and re-proven by computing it again (``store show``, ``export``, ``plot``), a
command that finds one computes the result again and replaces a row that says otherwise, and writes merge
so that such a row never lends its numbers to a row that has certificates.

The suite keeps every certificate (``LITTLESTONE_CERTIFY_SECONDS=0``, set in ``conftest.py``); these tests
set the variable so that every solved result is stored without them, whatever the machine's speed."""

import csv
import io
import json
from types import SimpleNamespace

import pytest

from adversary.cli.plot import _checked
from adversary.store import (Record, Store, StoreError, _merge, certify_seconds, opt_task, record_of_opt, recomputed,
                             verified_bounds)
from solvers.certificates import TreeError
from solvers.classes.families import make
from solvers.game_rules import Game
from solvers.opt import opt

from .cli.checks import field, run, tamper_store


@pytest.fixture
def no_certificates(monkeypatch):
    monkeypatch.setenv("LITTLESTONE_CERTIFY_SECONDS", "3600")


def test_the_threshold_reads_the_environment(monkeypatch):
    monkeypatch.delenv("LITTLESTONE_CERTIFY_SECONDS")
    assert certify_seconds() == 0  # (the default: every row keeps its certificates)
    monkeypatch.setenv("LITTLESTONE_CERTIFY_SECONDS", "0")
    assert certify_seconds() == 0
    monkeypatch.setenv("LITTLESTONE_CERTIFY_SECONDS", "soon")
    with pytest.raises(StoreError, match="set it to 0"):
        certify_seconds()


def test_a_fast_result_is_stored_without_certificates(no_certificates):
    C = make("intervals", N=8)
    rec = record_of_opt(C, opt(C))
    assert recomputed(rec) and rec.lower_cert is None and rec.upper_cert is None and rec.value == "4"
    proved = record_of_opt(C, opt(C), certify=True)  # asked for: always built
    assert not recomputed(proved) and proved.lower_cert["depth"] == 4 and proved.upper_cert["bound"] == 4


def test_an_unsolved_result_keeps_its_certificates(no_certificates):
    C = make("intervals", N=8)
    stopped = SimpleNamespace(value=None, lower=1, upper=4, tree=opt(C).tree, game=Game.of("deterministic"),
                              stats={"seconds": 0.001, "stopped": "time limit"}, solver=None,
                              upper_certificate=lambda limit: None)
    stopped.tree.depth = 1
    rec = record_of_opt(C, stopped)
    assert not recomputed(rec) and rec.lower_cert is not None and rec.extra == {"stopped": "time limit"}


@pytest.mark.parametrize("game", [Game.of("deterministic"), Game.of("randomized"), Game.of("deterministic", 1),
                                  Game.of("randomized", 1), Game.of("deterministic", 0, 2)])
def test_a_row_without_certificates_is_proven_by_computing_it_again(game, no_certificates):
    C = make("thresholds", N=5)
    r = opt(C, game=game.kind, errors=game.errors, horizon=game.horizon)
    rec = record_of_opt(C, r)
    assert recomputed(rec)
    notes = []
    assert verified_bounds(rec, C, notes=notes) == (None, None) and "computing it again" in notes[0]
    assert verified_bounds(rec, C, recompute=True) == (r.value, r.value)
    wrong = str(r.value + 1)
    with pytest.raises(TreeError, match="computed again"):
        verified_bounds(Record(**{**rec.__dict__, "value": wrong, "lower": wrong, "upper": wrong}), C, recompute=True)


def test_writes_never_mix_a_row_without_certificates_with_one_that_has_them(tmp_path, no_certificates):
    C = make("intervals", N=8)
    fast = record_of_opt(C, opt(C))
    proved = record_of_opt(C, opt(C), certify=True)
    assert _merge(proved, fast) == proved  # the same value with its certificates: kept
    assert _merge(fast, proved) == proved
    wrong = Record(**{**fast.__dict__, "value": "9", "lower": "9", "upper": "9"})
    assert _merge(wrong, proved) == proved  # its 9 is not kept as a "better" lower bound
    assert _merge(wrong, fast) == fast
    partial = Record(**{**proved.__dict__, "value": None, "upper": None, "upper_cert": None})
    assert _merge(wrong, partial) == partial
    assert _merge(partial, fast) == fast  # just computed: it replaces a row that proves less
    with Store(tmp_path / "s.db") as S:
        S.put(wrong)
        S.put(fast)
        got = S.get("opt", C.fingerprint(), opt_task())
    assert got.value == "4" and verified_bounds(got, C, recompute=True) == (4, 4)


def _db():
    import os

    return os.environ["LITTLESTONE_STORE"]


def test_opt_stores_a_fast_result_without_certificates_and_computes_it_again(capsys, tmp_path, no_certificates):
    code, out, _ = run(capsys, "opt", "intervals", "N=12", "--json")
    first = json.loads(out)
    assert code == 0 and first["opt"] == 5 and first["served"] is False
    with Store(_db(), readonly=True) as S:
        (row,) = S.rows()
    assert recomputed(row) and row.lower_cert is None
    code, out, err = run(capsys, "opt", "intervals", "N=12", "--json")
    assert code == 0 and json.loads(out)["opt"] == 5 and json.loads(out)["served"] is False and err == ""
    tamper_store("UPDATE results SET value = '7', lower = '7', upper = '7'")  # its seal no longer matches
    code, out, err = run(capsys, "opt", "intervals", "N=12")
    assert code == 0 and field(out, "Opt(C)") == "5" and "changed after it was written" in err
    tamper_store("UPDATE results SET value = '7', lower = '7', upper = '7', seal = NULL")  # as an older one wrote it
    code, out, err = run(capsys, "opt", "intervals", "N=12")
    assert code == 0 and field(out, "Opt(C)") == "5" and "said 7" in err and "replaced" in err
    with Store(_db(), readonly=True) as S:
        (row,) = S.rows()
    assert row.value == "5"
    # --proof always builds (and stores) the certificates; the next run serves them
    code, _, _ = run(capsys, "opt", "intervals", "N=12", "--proof", tmp_path / "p.json")
    assert code == 0 and json.loads((tmp_path / "p.json").read_text())["bound"] == 5
    with Store(_db(), readonly=True) as S:
        (row,) = S.rows()
    assert not recomputed(row) and row.upper_cert is not None and row.lower_cert is not None
    code, out, _ = run(capsys, "opt", "intervals", "N=12", "--json")
    assert json.loads(out)["served"] is True


def test_store_show_export_and_plot_compute_such_rows_again(capsys, tmp_path, no_certificates):
    """Such a row is sealed with the value its computation found ("computed"): show, export and plot read it by its
    seal; --recheck (and a row with no seal) computes it again; a row changed by hand is FAILED and never drawn."""
    code, _, _ = run(capsys, "table", "thresholds", "--grid", "N=2..4", "--quiet")
    assert code == 0
    code, out, _ = run(capsys, "store", "export", "--format", "csv", "--kind", "opt")
    checks = {r["params"]: r["check"] for r in csv.DictReader(io.StringIO(out))}
    assert set(checks) == {"N=2", "N=3", "N=4"}
    assert all(c.startswith("OK: the value") and "as computed when stored" in c for c in checks.values()), checks
    code, out, _ = run(capsys, "store", "export", "--format", "csv", "--kind", "opt", "--recheck")
    checks = {r["params"]: r["check"] for r in csv.DictReader(io.StringIO(out))}
    assert all(c.startswith("OK: computed again") for c in checks.values()), checks
    code, out, _ = run(capsys, "store", "list", "--kind", "opt")
    key = out.split()[0]
    code, out, err = run(capsys, "store", "show", key, "--certificates", tmp_path / "c.json", "--recheck")
    assert code == 0 and json.loads(out)["check"].startswith("OK: computed again") and "--proof" in err
    assert json.loads((tmp_path / "c.json").read_text()) == {"lower": None, "upper": None}
    tamper_store("UPDATE results SET seal = NULL WHERE kind = 'opt' AND params LIKE '%3%'")  # as an older one wrote it
    code, out, _ = run(capsys, "store", "export", "--format", "csv", "--kind", "opt")
    checks = {r["params"]: r["check"] for r in csv.DictReader(io.StringIO(out))}
    assert checks["N=3"].startswith("OK: computed again") and "as computed when stored" in checks["N=2"], checks
    tamper_store("UPDATE results SET lower = '9', value = '9', upper = '9' WHERE kind = 'opt' AND params LIKE '%4%'")
    for recheck in ((), ("--recheck",)):
        code, out, _ = run(capsys, "store", "export", "--format", "csv", "--kind", "opt", *recheck)
        checks = {r["params"]: r["check"] for r in csv.DictReader(io.StringIO(out))}
        assert checks["N=4"].startswith("FAILED") and "digest does not match" in checks["N=4"], checks
    with Store(_db(), readonly=True) as S:
        for verify in (False, True):
            kept = _checked(list(S.rows(kind="opt")), verify=verify)
            assert sorted(r.params["N"] for r in kept) == [2, 3]  # a plot never draws the 9
    tamper_store("UPDATE results SET seal = NULL WHERE kind = 'opt' AND params LIKE '%4%'")  # the 9, unsealed
    code, out, _ = run(capsys, "store", "export", "--format", "csv", "--kind", "opt")
    checks = {r["params"]: r["check"] for r in csv.DictReader(io.StringIO(out))}
    assert checks["N=4"].startswith("FAILED") and "computed again" in checks["N=4"], checks
    with Store(_db(), readonly=True) as S:
        assert sorted(r.params["N"] for r in _checked(list(S.rows(kind="opt")))) == [2, 3]
    code, _, err = run(capsys, "store", "prune")
    assert code == 0 and "1 row removed" in err


def test_a_bad_threshold_is_one_line_before_any_work(capsys, monkeypatch):
    from .cli.checks import one_error_line

    monkeypatch.setenv("LITTLESTONE_CERTIFY_SECONDS", "soon")
    code, out, err = run(capsys, "opt", "thresholds", "N=5")
    assert out == ""  # (refused before the result was computed, not after)
    one_error_line(code, err, contains=["LITTLESTONE_CERTIFY_SECONDS", "set it to 0"])
