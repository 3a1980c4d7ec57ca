"""The store from the command line: opt, attack and table serve stored results (re-checked) and store
new ones; a grid killed with SIGKILL resumes losing only the cells in flight; two runs share a store;
a store that cannot be used is one line and exit 2; ``littlestone store`` lists, shows, exports, prunes."""

import csv
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from adversary.store import Store

from .checks import RUN_MAIN, field, one_error_line, posix, run, tamper_store


def _db():
    return os.environ["LITTLESTONE_STORE"]


def test_opt_is_served_from_the_store_the_second_time(capsys, tmp_path):
    code, out, err = run(capsys, "opt", "intervals", "N=20")
    assert code == 0 and field(out, "time").endswith("search nodes)")
    code, out2, err = run(capsys, "opt", "intervals", "N=20", "--tree", tmp_path / "t.json", "--proof", tmp_path / "p.json")
    assert code == 0 and field(out2, "Opt(C)") == field(out, "Opt(C)")
    assert "served from the store" in field(out2, "time") and "certificates checked when stored, digest matches" in field(out2, "time")
    for f in ("t.json", "p.json"):  # the stored certificates, written out, verify independently
        code, vout, _ = run(capsys, "verify", tmp_path / f, "intervals", "N=20")
        assert code == 0 and vout.startswith("OK"), vout
    code, out3, _ = run(capsys, "opt", "intervals", "N=20", "--json", "--trust-store")
    assert json.loads(out3)["served"] is True


def test_no_store_neither_reads_nor_writes(capsys, tmp_path):
    code, out, _ = run(capsys, "opt", "thresholds", "N=9", "--no-store")
    assert code == 0 and not os.path.exists(_db())
    code, _, err = run(capsys, "opt", "thresholds", "N=9", "--no-store", "--store", tmp_path / "x.db")
    one_error_line(code, err, contains=["--no-store"])


def test_a_tampered_row_is_computed_again(capsys):
    """A row changed by hand: its seal no longer matches (computed again, one note); the same change in a row
    without a seal (as an older littlestone wrote it) is caught by its certificates, checked when first served."""
    run(capsys, "opt", "thresholds", "N=9")
    tamper_store("UPDATE results SET value = '5', lower = '5', upper = '5'")  # the certificates prove 3
    code, out, err = run(capsys, "opt", "thresholds", "N=9")
    assert code == 0 and field(out, "Opt(C)") == "3" and err.count("changed after it was written") == 1, err
    code, out, err = run(capsys, "opt", "thresholds", "N=9")  # the row was put right
    assert "served from the store" in field(out, "time") and "changed" not in err, err
    tamper_store("UPDATE results SET value = '5', lower = '5', upper = '5', seal = NULL")
    code, out, err = run(capsys, "opt", "thresholds", "N=9")
    assert code == 0 and field(out, "Opt(C)") == "3" and "does not check" in err
    code, out, err = run(capsys, "opt", "thresholds", "N=9")  # the row was put right
    assert "served from the store" in field(out, "time") and "does not check" not in err


def test_an_unsolved_row_warm_starts_the_next_run(capsys):
    code, out, _ = run(capsys, "opt", "intervals", "N=150", "--time-limit", "0.5", "--quiet", "--json")
    first = json.loads(out)
    assert code == 3 and first["lower"] < first["upper"]
    with Store(_db()) as S:
        (row,) = list(S.rows("opt"))
    assert row.value is None and int(row.lower) == first["lower"] and row.lower_cert is not None
    code, out, _ = run(capsys, "opt", "intervals", "N=150", "--time-limit", "0.5", "--quiet", "--json")
    second = json.loads(out)
    assert second["lower"] >= first["lower"] and second["upper"] <= first["upper"]


def test_attack_is_served_from_the_store(capsys):
    argv = ("attack", "winnow2", "--class", "monotone-disjunctions", "n=4", "k=2", "--strategy", "exact", "--json")
    code, out, _ = run(capsys, *argv)
    code2, out2, _ = run(capsys, *argv)
    a, b = json.loads(out), json.loads(out2)
    assert code == code2 == 0 and a["mistakes"] == b["mistakes"] and a["witness"] == b["witness"]
    assert "stored" not in a["stats"] and "stored" in b["stats"]


def test_table_skips_stored_cells_and_writes_new_ones(capsys):
    code, out, err = run(capsys, "table", "intervals", "--grid", "N=3..6", "--format", "csv", "--quiet")
    assert code == 0 and "0 of 4 cells served" in err and "8 results written" in err
    code, out2, err = run(capsys, "table", "intervals", "--grid", "N=3..8", "--format", "csv", "--quiet")
    assert code == 0 and "4 of 6 cells served" in err and "4 results written" in err
    rows = list(csv.DictReader(io.StringIO(out2)))
    fresh = list(csv.DictReader(io.StringIO(run(capsys, "table", "intervals", "--grid", "N=3..8", "--format", "csv",
                                                    "--quiet", "--no-store")[1])))
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in rows] == \
           [{k: v for k, v in r.items() if k != "seconds"} for r in fresh]


def test_table_with_a_game_and_jobs_uses_the_store(capsys):
    argv = ("table", "thresholds", "--grid", "N=2..7", "--randomized", "--format", "json", "--quiet", "--jobs", "2")
    code, out, _ = run(capsys, *argv)
    code2, out2, err = run(capsys, *argv)
    assert code == code2 == 0 and "6 of 6 cells served" in err
    key = lambda r: r["params"]["N"]  # noqa: E731
    strip = lambda rows: sorted(({k: v for k, v in r.items() if k not in ("seconds", "stored", "served")} for r in rows), key=key)  # noqa: E731
    assert strip(json.loads(out)["rows"]) == strip(json.loads(out2)["rows"])


# ------------------------------------------------------------------------------------------ killed, and shared
# Five cells solved in milliseconds (on any machine), then one that no machine solves in a minute: the kill
# comes while it runs, after the five are in the store (the event the test waits for, not a time).
GRID = ["table", "intervals", "--grid", "N=3,4,5,6,7,300", "--format", "csv", "--quiet"]


def _rows_in_store(path, solved: bool = False) -> int:
    if not os.path.exists(path):
        return 0
    try:
        db = sqlite3.connect(path, timeout=5)
        try:
            where = " WHERE value IS NOT NULL" if solved else ""
            return db.execute("SELECT COUNT(*) FROM results" + where).fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:
        return 0


@posix
@pytest.mark.slow
def test_a_grid_killed_with_sigkill_resumes(tmp_path):
    """SIGKILL while the last cell runs: the next run serves the five finished cells from the store and
    computes only the one that was in flight. The kill waits for the five cells' rows (Opt and VC, solved)
    to be in the store, however slow the machine."""
    db = tmp_path / "grid.db"
    env = {**os.environ, "LITTLESTONE_STORE": str(db)}
    p = subprocess.Popen([sys.executable, "-c", RUN_MAIN, *GRID, "--cell-time-limit", "600"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True, env=env)
    try:
        t = time.monotonic()
        while _rows_in_store(db, solved=True) < 10 and p.poll() is None and time.monotonic() - t < 120:
            time.sleep(0.05)
        assert p.poll() is None, "the grid ended before the kill"
    finally:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
    assert p.returncode == -signal.SIGKILL and _rows_in_store(db, solved=True) == 10, err
    again = subprocess.run([sys.executable, "-c", RUN_MAIN, *GRID, "--cell-time-limit", "1"], capture_output=True,
                           text=True, env=env, timeout=120)
    assert again.returncode == 3, again.stderr  # the last cell, computed again, is not solved in a second
    assert "5 of 6 cells served" in again.stderr, again.stderr
    rows = list(csv.DictReader(io.StringIO(again.stdout)))
    assert [r["N"] for r in rows] == ["3", "4", "5", "6", "7", "300"]
    assert "Traceback" not in again.stderr


@posix
@pytest.mark.slow
def test_two_runs_on_one_store_at_once(tmp_path):
    """Both finish with every row; the store holds each result once."""
    db = tmp_path / "shared.db"
    argv = ["table", "intervals", "--grid", "N=2..40", "--format", "csv", "--quiet"]
    env = {**os.environ, "LITTLESTONE_STORE": str(db)}
    procs = [subprocess.Popen([sys.executable, "-c", RUN_MAIN, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        assert [r["N"] for r in csv.DictReader(io.StringIO(out))] == [str(n) for n in range(2, 41)]
    strip = lambda out: [{k: v for k, v in r.items() if k != "seconds"} for r in csv.DictReader(io.StringIO(out))]  # noqa: E731
    assert strip(outs[0][0]) == strip(outs[1][0])
    db_ = sqlite3.connect(db)
    assert db_.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM results").fetchone() == (78, 78)  # Opt, VC per cell
    db_.close()


# ------------------------------------------------------------------------------------------ bad stores
def test_bad_store_files_are_one_line(capsys, tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_text("not a database\n" * 50)
    for argv in (("opt", "thresholds", "N=5"), ("table", "thresholds", "--grid", "N=2..3"),
                 ("attack", "halving", "--class", "thresholds", "N=4")):
        code, out, err = run(capsys, *argv, "--store", junk)
        one_error_line(code, err, contains=["not a littlestone store"])
        assert out == ""
    assert junk.read_text() == "not a database\n" * 50
    code, _, err = run(capsys, "opt", "thresholds", "N=5", "--store", tmp_path / "nowhere" / "s.db")
    one_error_line(code, err, contains=["does not exist"])


def test_a_locked_store_loses_nothing(capsys, monkeypatch):
    run(capsys, "opt", "thresholds", "N=5")
    monkeypatch.setenv("LITTLESTONE_STORE_TIMEOUT", "0.3")
    holder = sqlite3.connect(_db(), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        code, out, err = run(capsys, "opt", "thresholds", "N=6", "--quiet")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert field(out, "Opt(C)") == "2"  # the result is printed
    one_error_line(code, err, contains=["locked", "not stored"])
    monkeypatch.setenv("LITTLESTONE_STORE_TIMEOUT", "soon")
    code, _, err = run(capsys, "opt", "thresholds", "N=5")
    one_error_line(code, err, contains=["LITTLESTONE_STORE_TIMEOUT"])


# ------------------------------------------------------------------------------------------ littlestone store
def test_store_list_show_export_prune(capsys, tmp_path):
    run(capsys, "table", "thresholds", "--grid", "N=2..4", "--quiet")
    code, out, err = run(capsys, "store", "list")
    assert code == 0 and len(out.splitlines()) == 6 and "6 rows" in err
    key = out.split()[0]
    code, out, _ = run(capsys, "store", "show", key, "--certificates", tmp_path / "c.json")
    row = json.loads(out)
    assert code == 0 and row["key"].startswith(key) and row["check"].startswith("OK")
    assert json.loads((tmp_path / "c.json").read_text())["lower"] is not None
    for fmt in ("csv", "json", "md"):
        code, out, _ = run(capsys, "store", "export", "--format", fmt, "--kind", "opt")
        assert code == 0
    code, out, _ = run(capsys, "store", "export", "--format", "json")
    assert len(json.loads(out)) == 6
    code, out, _ = run(capsys, "store", "export", "--format", "csv", "--kind", "opt")
    assert [r["value"] for r in csv.DictReader(io.StringIO(out))] == ["1", "2", "2"]  # floor(log2 (N + 1))
    tamper_store("UPDATE results SET lower = '9', value = '9' WHERE kind = 'opt' AND params LIKE '%4%'")
    code, out, _ = run(capsys, "store", "export", "--format", "csv", "--kind", "opt")
    checks = {r["params"]: r["check"] for r in csv.DictReader(io.StringIO(out))}
    assert checks["N=4"].startswith("FAILED") and all(checks[f"N={n}"].startswith("OK") for n in (2, 3))
    code, _, err = run(capsys, "store", "prune", "--dry-run")
    assert code == 0 and "would remove" in err and "1 row to remove" in err
    code, _, err = run(capsys, "store", "prune")
    assert code == 0 and "1 row removed; 5 left" in err
    code, _, err = run(capsys, "store", "show", "zzzz")
    one_error_line(code, err, contains=["store list"])
    code, _, err = run(capsys, "store", "list", "--store", tmp_path / "none.db")
    one_error_line(code, err, contains=["no store"])


# ------------------------------------------------------------------------------------------ no wrong number served
def test_a_tampered_attack_is_replayed_reported_and_pruned(capsys):
    """The row of 'attack halving --class thresholds N=15' with its value set to 9 by hand (and its seal taken
    off, as an older littlestone wrote it: the witness is what catches it): served as the count of its witness
    replayed (4), reported in one line, called FAILED by store show, removed by prune."""
    argv = ("attack", "halving", "--class", "thresholds", "N=15")
    code, out, _ = run(capsys, *argv)
    assert code == 0 and field(out, "mistakes").split()[0] == "4"
    tamper_store("UPDATE results SET value = '9', lower = '9', seal = NULL WHERE kind = 'attack'")
    code, out, _ = run(capsys, "store", "list")
    key = out.split()[0]
    code, out, _ = run(capsys, "store", "show", key)
    assert code == 0 and json.loads(out)["check"].startswith("FAILED"), out
    code, out, err = run(capsys, *argv)
    assert code == 0 and field(out, "mistakes").split()[0] == "4" and field(out, "verdict").startswith("tight: 4 mistakes")
    assert len([line for line in err.splitlines() if "does not check" in line]) == 1, err
    assert "served from the store" not in out
    tamper_store("UPDATE results SET value = '9', seal = NULL WHERE kind = 'attack'")  # the value alone
    code, out, err = run(capsys, *argv)
    assert field(out, "mistakes").split()[0] == "4" and "does not check" in err
    tamper_store("UPDATE results SET value = '9', seal = NULL WHERE kind = 'attack'")
    code, _, err = run(capsys, "store", "prune")
    assert code == 0 and "1 row removed" in err, err


def test_a_tampered_verdict_or_bound_is_not_served(capsys):
    argv = ("attack", "halving", "--class", "thresholds", "N=15", "--json")
    run(capsys, *argv)
    _tamper_result(verdict="violates")
    code, out, err = run(capsys, *argv)
    assert json.loads(out)["verdict"] == "tight" and "changed after it was written" in err, err
    _tamper_result(seal=False, verdict="violates")
    code, out, err = run(capsys, *argv)
    assert json.loads(out)["verdict"] == "tight" and "does not check" in err


def _tamper_result(seal: bool = True, **changes) -> None:
    """Set fields of the stored attack's result (in its extra data) by hand; ``seal=False``: take its seal off too
    (as an older littlestone wrote it: its witness is then what catches the change)."""
    db = sqlite3.connect(_db())
    (text,) = db.execute("SELECT extra FROM results WHERE kind = 'attack'").fetchone()
    extra = json.loads(text)
    extra["result"].update(changes)
    db.execute("UPDATE results SET extra = ? WHERE kind = 'attack'", (json.dumps(extra),))
    if not seal:
        db.execute("UPDATE results SET seal = NULL WHERE kind = 'attack'")
    db.commit()
    db.close()


STOPPED_ATTACK = ("attack", "winnow2", "--class", "monotone-disjunctions", "n=12", "k=3", "--strategy", "exact",
                  "--time-limit", "1")


def _listed_key(listed: str, kind: str) -> str:
    """The key of the one row of ``kind`` that ``store list`` printed (an attack also stores its class's Opt(C))."""
    (key,) = [line.split()[0] for line in listed.splitlines() if line.split()[1:2] == [kind]]
    return key


@pytest.mark.slow
def test_a_stopped_attack_tampered_to_tight_is_not_served(capsys):
    """A stopped attack's row with its verdict set to "tight" and "exact" to true by hand: store show calls it
    FAILED, and the attack is not served as the exact worst case (it searches again, stopped, exit 3)."""
    code, out, _ = run(capsys, *STOPPED_ATTACK, "--quiet")
    assert code == 3 and field(out, "verdict").startswith("at least"), out
    _tamper_result(verdict="tight", exact=True)
    code, out, _ = run(capsys, "store", "list")
    code, shown, _ = run(capsys, "store", "show", _listed_key(out, "attack"))
    assert json.loads(shown)["check"].startswith("FAILED"), shown
    code, out, err = run(capsys, *STOPPED_ATTACK, "--quiet")
    assert code == 3 and "exact worst case" not in out and field(out, "verdict").startswith("at least"), out
    _tamper_result(seal=False, verdict="tight", exact=True)
    code, out, err = run(capsys, *STOPPED_ATTACK, "--quiet")
    assert code == 3 and "exact worst case" not in out and field(out, "verdict").startswith("at least"), out
    assert "served from the store" not in out
    _tamper_result(verdict="below", exact=True)  # a stopped search may not say exact: caught too
    code, out, _ = run(capsys, "store", "list")
    code, shown, _ = run(capsys, "store", "show", _listed_key(out, "attack"))
    assert json.loads(shown)["check"].startswith("FAILED"), shown


@pytest.mark.slow
def test_a_stopped_attack_is_searched_again_and_the_better_row_kept(capsys):
    """A row whose search was stopped by the time limit is never served: every run searches again, and the
    store keeps the row with the larger count."""
    code, out, _ = run(capsys, *STOPPED_ATTACK, "--json")
    first = json.loads(out)
    assert code == 3 and first["stats"]["stopped"] == "time limit"
    code, out, _ = run(capsys, *STOPPED_ATTACK, "--json")
    second = json.loads(out)
    assert code == 3 and "stored" not in second["stats"], second["stats"]
    with Store(_db()) as S:
        (row,) = list(S.rows("attack"))
    assert int(row.value) == max(first["mistakes"], second["mistakes"])


def test_a_tampered_vc_row_in_a_table_is_computed_again(capsys):
    argv = ("table", "intervals", "--grid", "N=6..7", "--format", "csv", "--quiet")
    code, out, _ = run(capsys, *argv)
    tamper_store("UPDATE results SET value = '1', upper = '1' WHERE kind = 'vc'")  # VC of intervals is 2
    code, out2, err = run(capsys, *argv)
    assert code == 0 and err.count("changed after it was written") == 2, err
    assert [r["VC"] for r in csv.DictReader(io.StringIO(out2))] == ["2", "2"]
    tamper_store("UPDATE results SET value = '1', upper = '1', seal = NULL WHERE kind = 'vc'")  # unsealed
    code, out2, err = run(capsys, *argv)
    assert code == 0 and "does not check" in err
    assert [r["VC"] for r in csv.DictReader(io.StringIO(out2))] == ["2", "2"]
    code, out, err = run(capsys, "store", "prune")
    assert "0 rows removed" in err  # the rows were put right


# ------------------------------------------------------------------------------------------ read-only
@pytest.fixture
def read_only(monkeypatch):
    """Every file and folder reads as read-only (tests run as root, where chmod does not stop writes)."""
    import adversary.store.persistence as store_module

    monkeypatch.setattr(store_module.os, "access", lambda path, mode, **kw: mode != os.W_OK)


def test_a_read_only_store_is_listed_shown_exported(capsys, tmp_path, monkeypatch):
    run(capsys, "opt", "thresholds", "N=9")
    import adversary.store.persistence as store_module

    monkeypatch.setattr(store_module.os, "access", lambda path, mode, **kw: mode != os.W_OK)
    code, out, err = run(capsys, "store", "list")
    assert code == 0 and len(out.splitlines()) == 1, err
    code, out, err = run(capsys, "store", "show", out.split()[0])
    assert code == 0 and json.loads(out)["check"].startswith("OK")
    code, out, err = run(capsys, "store", "export", "--format", "csv")
    assert code == 0 and out.startswith("key,")
    # a computing command serves from it and writes nothing, in one note
    code, out, err = run(capsys, "opt", "thresholds", "N=9")
    assert code == 0 and "served from the store" in field(out, "time") and err.count("read-only") == 1
    code, out, err = run(capsys, "opt", "thresholds", "N=10")
    assert code == 0 and field(out, "Opt(C)") == "3" and "read-only" in err
    with Store(_db(), readonly=True) as S:
        assert S.count() == 1


def test_opt_in_a_read_only_folder_runs_without_the_store(capsys, tmp_path, read_only, monkeypatch):
    db = tmp_path / "nowhere.db"
    monkeypatch.setenv("LITTLESTONE_STORE", str(db))
    code, out, err = run(capsys, "opt", "thresholds", "N=9")
    assert code == 0 and field(out, "Opt(C)") == "3"
    lines = [line for line in err.splitlines() if "note" in line and "store" in line]
    assert len(lines) == 1 and "nowhere.db" in lines[0] and "read-only" in lines[0] and "without a store" in lines[0]
    assert not db.exists()
    code, out, err = run(capsys, "table", "thresholds", "--grid", "N=2..3", "--quiet", "--format", "csv")
    assert code == 0 and len(out.splitlines()) == 3 and not db.exists()
    code, _, err = run(capsys, "store", "list")
    one_error_line(code, err, contains=["no store", "nowhere.db"])


# ------------------------------------------------------------------------------------------ one key per object
def test_equal_tasks_are_one_row(capsys):
    cls = ("--class", "monotone-disjunctions", "n=4", "k=1", "--strategy", "exact")
    for learner in (["winnow1"], ["winnow1", "n=4"], ["winnow1", "n=04"]):
        code, out, err = run(capsys, "attack", *learner, *cls)
        assert code == 0, err
    for alpha in ("2", "2.0", "4/2"):
        code, out, err = run(capsys, "attack", "winnow", f"alpha={alpha}", *cls)
        assert code == 0, err
    with Store(_db()) as S:
        assert len(list(S.rows("attack"))) == 2


def test_a_matrix_class_is_listed_by_its_file(capsys, tmp_path):
    m = tmp_path / "small.json"
    m.write_text(json.dumps({"matrix": [[0, 1, 1], [1, 0, 1], [0, 0, 0]]}))
    run(capsys, "opt", "--matrix", m)
    code, out, _ = run(capsys, "store", "list")
    assert "matrix small.json #" in out and " matrix " not in out.replace("matrix small.json", "")


# ------------------------------------------------------------------------------------------ batched writes
def test_a_batched_store_commits_within_a_second_without_closing(tmp_path):
    """Writes are committed in batches, by a background thread when no further write comes: another
    connection sees a row soon (here: well within the test's generous wait) though the store stays open."""
    from adversary.store import FLUSH_SECONDS, Record

    path = tmp_path / "b.db"
    with Store(path, flush_seconds=FLUSH_SECONDS) as S:
        for i in range(50):
            S.put(Record(kind="vc", class_key=f"k{i}", task={}, value="1", lower="1", upper="1"))
        assert S.count() == 50  # this connection sees its own batch
        t = time.monotonic()
        while _rows_in_store(path) < 50 and time.monotonic() - t < 120:
            time.sleep(0.02)
        assert _rows_in_store(path) == 50 and not S.pending


# ------------------------------------------------------------------------------------------ a row that cannot be read
def _corrupt(key_prefix, sql_set="data = x'78016761726261676500'"):
    """Spoil the row whose key starts with ``key_prefix`` (by default its data: zlib's header, then garbage)."""
    tamper_store(f"UPDATE results SET {sql_set} WHERE key LIKE '{key_prefix}%'")


def _key_of(kind, params_like):
    db = sqlite3.connect(_db())
    try:
        return db.execute("SELECT key FROM results WHERE kind = ? AND params LIKE ?", (kind, params_like)).fetchone()[0]
    finally:
        db.close()


def test_a_row_that_cannot_be_read_costs_no_other_row(capsys):
    """The row of Opt(intervals N=6) spoilt (data not zlib, a JSON list, params not JSON): the grid N=5..7 prints
    all three cells, says so once (with its key) and computes it again, which replaces it; opt does the same."""
    argv = ("table", "intervals", "--grid", "N=5..7", "--format", "csv")
    def cells(out):  # the table without its seconds
        return [line.rsplit(",", 1)[0] for line in out.splitlines()]

    code, out, _ = run(capsys, *argv)
    first = cells(out)
    assert code == 0 and len(first) == 4
    key = _key_of("opt", '%"N":6%')
    for spoil in ("data = x'78016761726261676500'", "data = CAST('[1, 2]' AS BLOB)", "params = 'N=6'",
                  "data = zeroblob(3)", "seconds = 'soon'", "concepts = x'00'", "lower = 'four'"):
        _corrupt(key[:12], spoil)
        code, out, err = run(capsys, *argv)
        assert code == 0 and cells(out) == first, (spoil, err)
        lines = [line for line in err.splitlines() if "cannot be read" in line]
        assert len(lines) == 1 and key[:12] in lines[0] and "internal error" not in err, (spoil, err)
        code, out, err = run(capsys, *argv)  # replaced by the new result: nothing to say
        assert code == 0 and cells(out) == first and "cannot be read" not in err, (spoil, err)
    _corrupt(key[:12])
    code, out, err = run(capsys, "opt", "intervals", "N=6", "--quiet")
    assert code == 0 and field(out, "Opt(C)") == "4" and err.count("cannot be read") == 1, err


def test_store_commands_go_on_past_a_row_that_cannot_be_read(capsys, tmp_path):
    run(capsys, "table", "intervals", "--grid", "N=5..7", "--quiet")
    key = _key_of("opt", '%"N":6%')
    _corrupt(key[:12])
    code, out, err = run(capsys, "store", "list")
    assert code == 0 and len(out.splitlines()) == 5 and key[:12] not in out, err
    assert len([line for line in err.splitlines() if key[:12] in line and "cannot be read" in line]) == 1, err
    code, out, err = run(capsys, "store", "export", "--format", "json")
    assert code == 0 and len(json.loads(out)) == 5 and err.count("cannot be read") == 1, err
    code, out, err = run(capsys, "store", "show", key[:12])
    assert code == 0 and json.loads(out)["check"].startswith("FAILED: the row cannot be read"), (out, err)
    code, out, err = run(capsys, "store", "show", _key_of("opt", '%"N":5%')[:12])
    assert code == 0 and json.loads(out)["check"].startswith("OK")
    code, _, err = run(capsys, "store", "prune", "--dry-run")
    assert code == 0 and f"would remove {key[:12]}" in err and "1 row to remove; 5 left" in err, err
    code, _, err = run(capsys, "store", "prune")
    assert code == 0 and f"removing {key[:12]}" in err and "1 row removed; 5 left" in err, err
    code, out, err = run(capsys, "store", "list")
    assert code == 0 and len(out.splitlines()) == 5 and "cannot be read" not in err


# ------------------------------------------------------------------------------------------ options and paths refused
@pytest.mark.parametrize("action, option, owner", [
    ("list", ["--certificates", "c.json"], "store show"), ("list", ["--unsolved"], "store prune"),
    ("list", ["--dry-run"], "store prune"), ("export", ["--dry-run"], "store prune"),
    ("list", ["--format", "csv"], "store export"), ("list", ["-o", "x.csv"], "store export"),
    ("prune", ["--certificates", "c.json"], "store show"), ("show", ["--unsolved"], "store prune"),
])
def test_an_option_of_another_store_action_is_refused(capsys, action, option, owner):
    run(capsys, "opt", "thresholds", "N=3")
    argv = ["store", action] + (["0"] if action == "show" else []) + option
    code, _, err = run(capsys, *argv)
    line = one_error_line(code, err, contains=[option[0], owner])
    assert f"store {action}" in line


def test_an_empty_store_path_is_refused(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for argv in (("opt", "thresholds", "N=3"), ("store", "list"), ("table", "thresholds", "--grid", "N=2..3")):
        code, _, err = run(capsys, *argv, "--store", "")
        one_error_line(code, err, contains=["--store needs a path"])
    assert list(tmp_path.iterdir()) == []


def test_a_device_is_not_a_store(capsys):
    for argv in (("opt", "thresholds", "N=3"), ("store", "list")):
        code, _, err = run(capsys, *argv, "--store", os.devnull)
        one_error_line(code, err, contains=["not a regular file", "--store"])


def test_an_empty_file_is_an_empty_store_everywhere(capsys, tmp_path):
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    for argv in (("store", "list"), ("store", "export", "--format", "csv"), ("store", "prune", "--dry-run")):
        code, out, err = run(capsys, *argv, "--store", empty)
        assert code == 0 and "Traceback" not in err and "error" not in err, (argv, err)
    code, out, err = run(capsys, "store", "list", "--store", empty)
    assert out == "" and "0 rows" in err
    code, out, err = run(capsys, "table", "thresholds", "--grid", "N=2..3", "--quiet", "--store", empty)
    assert code == 0
    code, out, err = run(capsys, "store", "list", "--store", empty)
    assert code == 0 and len(out.splitlines()) == 4


def test_a_store_that_cannot_be_created_leaves_no_file(capsys, tmp_path, monkeypatch):
    """A full disk when the store is created: the result is printed, the store reported, and no 0-byte file
    is left behind."""
    import adversary.store.persistence as store_module

    def full(self):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store_module.Store, "_prepare", full)
    db = tmp_path / "new.db"
    code, out, err = run(capsys, "opt", "thresholds", "N=3", "--store", db)
    assert "Traceback" not in err and "internal error" not in err
    assert not db.exists() and list(tmp_path.iterdir()) == [], err


def test_a_full_disk_still_serves_the_store(capsys, tmp_path, monkeypatch):
    """A store that holds the result, on a full disk (where even opening it for writing fails): the result is
    served from it, and one note says the store cannot be written."""
    import adversary.store.persistence as store_module

    code, out, _ = run(capsys, "opt", "intervals", "N=20")
    value = field(out, "Opt(C)")
    prepare = store_module.Store._prepare

    def full(self):
        if not self.readonly:
            raise sqlite3.OperationalError("disk I/O error")
        return prepare(self)

    monkeypatch.setattr(store_module.Store, "_prepare", full)
    code, out, err = run(capsys, "opt", "intervals", "N=20")
    assert code == 0 and "served from the store" in field(out, "time"), err
    notes = [line for line in err.splitlines() if "store" in line]
    assert len(notes) == 1 and "cannot be written" in notes[0] and "note" in notes[0], err
    code, out, err = run(capsys, "table", "intervals", "--grid", "N=20", "--quiet", "--format", "csv")
    assert code == 0 and out.splitlines()[1].split(",")[4] == value and "cannot be written" in err, (out, err)


def test_a_write_that_finds_the_disk_full_is_one_note(capsys, monkeypatch):
    """The disk fills after the store is opened: every result is printed, one note says the store could not be
    written, and the exit code is the results' (a full disk loses no row printed, and stops no cell)."""
    import adversary.store.persistence as store_module

    monkeypatch.setenv("LITTLESTONE_CERTIFY_SECONDS", "1000")  # rows kept without certificates: proven by a new run
    code, out, _ = run(capsys, "opt", "intervals", "N=20", "--quiet")
    value = field(out, "Opt(C)")

    def full(self, rec, key=None):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store_module.Store, "_values", full)
    code, out, err = run(capsys, "opt", "intervals", "N=20", "--quiet")
    assert code == 0 and field(out, "Opt(C)") == value, err
    assert err.count("could not be written") == 1 and "error" not in err, err
    code, out, err = run(capsys, "table", "intervals", "--grid", "N=18..21", "--format", "csv")
    assert code == 0 and len(out.splitlines()) == 5, err
    assert err.count("could not be written") == 1 and "error" not in err, err
