"""How long a result's upper-bound certificate may take when it is stored (adversary.workspace.storage.proof_seconds):
a pure function, tested as a table. A solved randomized game's certificate can search again for minutes (monotone
disjunctions n=9 k=3: RL in 2.7 s, its certificate over 100 s), so a solved result's gets a budget too and never
more than the run's time limit leaves."""

from types import SimpleNamespace

import pytest

from adversary.workspace.storage import PROOF_FACTOR, PROOF_FLOOR, proof_seconds


def result(value, seconds):
    return SimpleNamespace(value=value, stats={"seconds": seconds})


@pytest.mark.parametrize("value, seconds, limit, expected", [
    (None, 3.0, None, 0.5),                        # unsolved, no limit: half a second
    (None, 3.0, 100.0, 10.0),                      # unsolved: a tenth of the limit
    (5, 1.0, None, PROOF_FLOOR),                   # solved fast: the floor
    (5, 100.0, None, PROOF_FACTOR * 100.0),        # solved slowly: ten times the search
    (5, 2.7, 10.0, 10.0 - 2.7),                    # within a limit: what it leaves
    (5, 9.9, 10.0, 0.5),                           # the limit nearly spent: half a second
    (5, 1.0, 1000.0, PROOF_FLOOR),                 # a generous limit: the budget
])
def test_proof_seconds(value, seconds, limit, expected):
    assert proof_seconds(result(value, seconds), limit) == pytest.approx(expected)


def test_a_game_row_stored_without_its_upper_certificate_is_verified_by_computing_it_again(monkeypatch, tmp_path,
                                                                                          capsys):
    """A solved row whose upper-bound certificate ran out of its budget is stored with that side as computed; store
    verify computes the value again (it used to call the row FAILED: its seal's side proven, the check nothing)."""
    from adversary.store import Store
    from solvers.certificates import ProofTooLarge

    from ..cli.checks import run

    def no_certificate(self, *a, **k):
        raise ProofTooLarge("no room")  # (what a certificate out of its budget leaves: none)

    monkeypatch.setattr("solvers.opt.result.OptResult.upper_certificate", no_certificate)
    store = tmp_path / "s.db"
    code, out, err = run(capsys, "opt", "thresholds", "N=9", "--randomized", "--store", store, "--quiet")
    assert code == 0, out + err
    monkeypatch.undo()
    with Store(store, readonly=True) as S:
        (rec,) = [r for r in S.rows("opt", None) if (r.task or {}).get("game") == "randomized"]
        assert rec.upper_cert is None and rec.proven["how"]["upper"] == "computed"
    code, out, err = run(capsys, "store", "verify", "--store", store)
    assert code == 0, out + err
    assert "FAILED" not in out and "RL: 13/8 <= value <= 13/8" in out
