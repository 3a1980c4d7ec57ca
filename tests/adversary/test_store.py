"""The results store (adversary.store): rows round-trip, writes merge (the better bound with its
certificate), certificates are re-checked against the class and a tampered row is caught, and a file
that cannot be a store is refused in one message that says what to do."""

import sqlite3
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adversary.store import (Record, Store, StoreError, exact, number, opt_task, record_of_opt, result_key,
                             verified_bounds)
from solvers.certificates import TreeError
from solvers.classes.families import make
from solvers.game_rules import Game
from solvers.opt import opt


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "s.db") as S:
        yield S


def test_exact_text_round_trips():
    for v in (0, 3, Fraction(7, 8), Fraction(30943, 8192)):
        assert number(exact(v)) == v
    assert exact(None) is None and number(None) is None


def test_opt_row_round_trips_and_checks(store):
    C = make("intervals", N=8)
    r = opt(C)
    put = store.put(record_of_opt(C, r))
    got = store.get("opt", C.fingerprint(), opt_task())
    assert got == put and got.value == str(r.value) and got.lower_cert["depth"] == r.value
    assert verified_bounds(got, C) == (r.value, r.value)
    assert store.count() == 1


@pytest.mark.parametrize("game", [Game.of("randomized"), Game.of("deterministic", 1), Game.of("randomized", 1),
                                  Game.of("deterministic", 0, 2)])
def test_game_rows_check(store, game):
    C = make("thresholds", N=5)
    r = opt(C, game=game.kind, errors=game.errors, horizon=game.horizon)
    store.put(record_of_opt(C, r))
    got = store.get("opt", C.fingerprint(), opt_task(game))
    assert verified_bounds(got, C) == (r.value, r.value)


def test_a_row_on_another_class_is_refused(store):
    C, D = make("thresholds", N=6), make("thresholds", N=7)
    rec = store.put(record_of_opt(C, opt(C)))
    with pytest.raises(StoreError, match="another class"):
        verified_bounds(rec, D)


def test_tampered_rows_are_caught(store):
    C = make("intervals", N=8)
    rec = record_of_opt(C, opt(C))
    deeper = dict(rec.lower_cert, depth=rec.lower_cert["depth"] + 1)
    with pytest.raises(TreeError):
        verified_bounds(Record(**{**rec.__dict__, "lower_cert": deeper}), C)
    lower_bound = dict(rec.upper_cert, bound=rec.upper_cert["bound"] - 1)
    with pytest.raises(TreeError):
        verified_bounds(Record(**{**rec.__dict__, "upper_cert": lower_bound}), C)
    # a value larger than its tree proves
    with pytest.raises(TreeError, match="less than|above"):
        verified_bounds(Record(**{**rec.__dict__, "lower": "9"}), C)
    # a randomized row whose tree is the deterministic game's
    G = Game.of("randomized")
    with pytest.raises(TreeError, match="another game"):
        verified_bounds(Record(**{**rec.__dict__, "task": opt_task(G)}), C)


def test_writes_merge_to_the_better_bounds(store):
    C = make("intervals", N=150)
    a = record_of_opt(C, opt(C, time_limit=0.3))  # stopped: lower < upper, each proven
    assert a.value is None
    store.put(a)
    lo, hi = number(a.lower), number(a.upper)
    worse = Record(**{**a.__dict__, "lower": str(lo - 1), "upper": str(hi + 1), "lower_cert": None, "upper_cert": None})
    merged = store.put(worse)
    assert (merged.lower, merged.upper) == (a.lower, a.upper)
    assert merged.lower_cert == a.lower_cert and merged.upper_cert == a.upper_cert
    assert store.count() == 1


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), min_size=1, max_size=6))
def test_merge_keeps_the_largest_lower_and_smallest_upper(tmp_path_factory, writes):
    """Against the obvious fold: max of the lowers, min of the uppers, one row."""
    with Store(tmp_path_factory.mktemp("m") / "s.db") as S:
        for a, b in writes:
            lo, hi = min(a, b), max(a, b)
            S.put(Record(kind="opt", class_key="k", task={}, lower=str(lo), upper=str(hi),
                         value=str(lo) if lo == hi else None, lower_cert={"lo": lo}, upper_cert={"hi": hi}))
        (row,) = list(S.rows())
        lo, hi = max(min(w) for w in writes), min(max(w) for w in writes)
        assert (number(row.lower), number(row.upper)) == (lo, hi)
        assert row.lower_cert == {"lo": lo} and row.upper_cert == {"hi": hi}


def test_key_depends_on_kind_class_and_task():
    keys = {result_key(k, c, t) for k in ("opt", "vc") for c in ("a", "b") for t in ({}, {"x": 1})}
    assert len(keys) == 8
    assert result_key("opt", "a", {"x": 1, "y": 2}) == result_key("opt", "a", {"y": 2, "x": 1})


# ------------------------------------------------------------------------------------------ files that are not stores
def test_not_a_database(tmp_path):
    p = tmp_path / "junk.db"
    p.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a littlestone store"):
        Store(p)
    assert p.read_bytes() == b"this is not sqlite" * 100  # nothing lost


def test_another_sqlite_database(tmp_path):
    p = tmp_path / "other.db"
    db = sqlite3.connect(p)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="not a littlestone store"):
        Store(p)


def test_another_schema_version(tmp_path):
    p = tmp_path / "s.db"
    Store(p).close()
    db = sqlite3.connect(p)
    db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="schema version 99"):
        Store(p)


def test_locked_past_the_timeout(tmp_path):
    p = tmp_path / "s.db"
    Store(p).close()
    holder = sqlite3.connect(p, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with Store(p, timeout=0.2) as S, pytest.raises(StoreError, match="locked"):
            S.put(Record(kind="vc", class_key="k", task={}, value="1", lower="1", upper="1"))
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_read_only_and_missing_folder(tmp_path, monkeypatch):
    with pytest.raises(StoreError, match="does not exist"):
        Store(tmp_path / "no" / "s.db")
    with pytest.raises(StoreError, match="directory"):
        Store(tmp_path)
    p = tmp_path / "s.db"
    Store(p).close()
    import adversary.store.persistence as store_module

    monkeypatch.setattr(store_module.os, "access", lambda path, mode: False)  # root ignores chmod; say read-only
    with pytest.raises(StoreError, match="read-only"):
        Store(p)


def _open_and_write(path, who):
    with Store(path) as S:
        for i in range(30):
            S.put(Record(kind="vc", class_key=f"{who}{i}", task={}, value="1", lower="1", upper="1"))
            S.put(Record(kind="vc", class_key=f"shared{i}", task={}, value="1", lower="1", upper="1"))


@pytest.mark.slow
def test_two_processes_open_a_new_store_at_once(tmp_path):
    """Switching a new file to WAL does not wait for another process's lock: the store retries (it used
    to fail at once with 'database is locked')."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    for round_ in range(4):
        path = tmp_path / f"new{round_}.db"
        procs = [ctx.Process(target=_open_and_write, args=(path, who)) for who in "ab"]
        for p in procs:
            p.start()
        for p in procs:
            p.join(60)
        assert [p.exitcode for p in procs] == [0, 0]
        with Store(path) as S:
            assert S.count() == 90  # 30 each, and 30 written by both


# ------------------------------------------------------------------------------------------ no wrong number
def _vc_record(C):
    from adversary.store import class_key
    from solvers.vc import vc_search

    v = vc_search(C)
    return Record(kind="vc", class_key=class_key(C), task={}, family=C.family, params=dict(C.params),
                  value=exact(v.value), lower=exact(v.lower), upper=exact(v.upper), seconds=v.stats.get("seconds"),
                  lower_cert={"points": [int(j) for j in v.witness]})


def _attack_record(learner, C, params=None, strategy="exact"):
    from adversary.attack import attack
    from adversary.store import class_key

    r = attack(learner, C, learner_params=params or {}, strategy=strategy)
    summary = {k: v for k, v in r.to_json().items() if k != "witness"}
    return Record(kind="attack", class_key=class_key(C), task={"learner": learner, "params": params or {}},
                  family=C.family, params=dict(C.params), value=exact(r.mistakes), lower=exact(r.mistakes),
                  lower_cert=r.witness, extra={"result": summary})


def _tampered(rec, **changes):
    return Record(**{**rec.__dict__, **changes})


@pytest.fixture(scope="module")
def rows_of_every_kind():
    """The rows of :func:`_rows_of_every_kind`, each with a row of the same kind on another class
    (thresholds N=8): built once for the module."""
    rows = _rows_of_every_kind()
    return [(name, rec, C, _foreign_row(rec)) for name, rec, C in rows]


def _foreign_row(rec):
    """A row of ``rec``'s kind and task, computed on another class (thresholds N=8)."""
    D = make("thresholds", N=8)
    if rec.kind == "opt":
        G = Game.of(rec.task.get("game", "deterministic"), rec.task.get("errors", 0), rec.task.get("horizon"))
        return record_of_opt(D, opt(D, game=G.kind, errors=G.errors, horizon=G.horizon))
    if rec.kind == "vc":
        return _vc_record(D)
    return _attack_record(rec.task["learner"], D)


def _rows_of_every_kind():
    """(name, record, class) for every kind the store holds: Opt, RL, D_1, R_1, a horizon, VC, attacks of a
    deterministic and of a randomized learner."""
    C = make("thresholds", N=7)
    out = [("opt", record_of_opt(C, opt(C)), C)]
    for game in (Game.of("randomized"), Game.of("deterministic", 1), Game.of("randomized", 1),
                 Game.of("deterministic", 0, 2)):
        out.append((game.symbol, record_of_opt(C, opt(C, game=game.kind, errors=game.errors, horizon=game.horizon)), C))
    D = make("intervals", N=8)
    out.append(("vc", _vc_record(D), D))
    H = make("thresholds", N=15)
    out.append(("attack", _attack_record("halving", H), H))
    out.append(("attack randomized", _attack_record("randomized-halving", make("thresholds", N=4)), make("thresholds", N=4)))
    return out


@pytest.mark.parametrize("index", range(8))
def test_no_kind_serves_a_tampered_number(index, rows_of_every_kind):
    """Every kind: the honest row checks; a value, a bound, or a certificate changed by hand is caught
    (TreeError), never returned as proven; so is a certificate of the same kind made on another class."""
    from adversary.store import class_key

    name, rec, C, other = rows_of_every_kind[index]
    lo, hi = verified_bounds(rec, C)
    value = number(rec.value)
    assert lo == value and (hi == value or rec.kind == "attack"), name
    wrong = exact(value + 5)
    false_claims = [{"value": wrong}, {"value": wrong, "lower": wrong}, {"lower": exact(value - Fraction(1, 2))}]
    if rec.upper is not None:
        false_claims.append({"value": wrong, "lower": wrong, "upper": wrong})
    for changes in false_claims:
        with pytest.raises(TreeError):
            verified_bounds(_tampered(rec, **changes), C)
    if rec.upper is not None:  # a weaker upper bound is true: caught, or at least never returned as proven
        try:
            got = verified_bounds(_tampered(rec, value=None, upper=wrong), C)
        except TreeError:
            got = None
        assert got in (None, (lo, None)), (name, got)
    # a certificate of another class (same kind and task): refused, with the row's numbers or with its own
    assert other.kind == rec.kind and other.task == rec.task and other.class_key != rec.class_key
    for cert in ("lower_cert", "upper_cert"):
        if getattr(other, cert) is None:
            continue
        for numbers in ({}, {"value": other.value, "lower": other.lower, "upper": other.upper}):
            with pytest.raises((TreeError, StoreError)):
                verified_bounds(_tampered(rec, **{cert: getattr(other, cert)}, **numbers), C)
    assert class_key(C) == rec.class_key


def test_an_attack_witness_must_be_the_rows_learner_and_class():
    rec = _attack_record("halving", make("thresholds", N=15))
    other = _attack_record("con", make("thresholds", N=15))
    with pytest.raises(TreeError, match="learner"):
        verified_bounds(_tampered(rec, lower_cert=other.lower_cert, value=other.value, lower=other.lower), make("thresholds", N=15))
    small = _attack_record("halving", make("thresholds", N=7))
    with pytest.raises(TreeError, match="another class"):
        verified_bounds(_tampered(rec, lower_cert=small.lower_cert, value=small.value, lower=small.lower),
                        make("thresholds", N=15))
    said = dict(rec.extra["result"], mistakes=9)
    with pytest.raises(TreeError, match="replays 4"):
        verified_bounds(_tampered(rec, extra={"result": said}), make("thresholds", N=15))


def test_a_vc_upper_bound_below_the_truth_is_caught():
    """The VC search writes no certificate of its upper bound: a row that says less is caught by the search
    run again."""
    D = make("intervals", N=8)
    rec = _vc_record(D)  # VC = 2
    one = {"points": rec.lower_cert["points"][:1]}
    with pytest.raises(TreeError, match="shatters 2"):
        verified_bounds(_tampered(rec, value="1", lower="1", upper="1", lower_cert=one), D)


def test_canonical_numbers_one_key():
    from adversary.store import canonical_params, canonical_value, class_key
    from adversary.referee import witness_class

    assert canonical_params({"alpha": 2}) == canonical_params({"alpha": "2.0"}) == canonical_params({"alpha": "4/2"})
    assert canonical_value("06") == 6 and canonical_value("0.10") == canonical_value(0.1) == "1/10"
    keys = {class_key(witness_class({"family": "margin-halfspaces", "params": {"d": 2, "gamma": g}}))
            for g in (0.1, "1/10", "0.10")}
    assert len(keys) == 1


def test_a_batch_is_committed_at_exit_and_by_close(tmp_path):
    """A batched store commits what it holds when closed, and at the interpreter's exit when nobody closed it
    (here with a batch window far longer than the run)."""
    import subprocess
    import sys

    path = tmp_path / "b.db"
    code = ("import sys; from adversary.store import Store, Record\n"
            f"S = Store({str(path)!r}, flush_seconds=3600)\n"
            "for i in range(20): S.put(Record(kind='vc', class_key=f'k{i}', task={}, value='1', lower='1', upper='1'))\n"
            "assert S.pending\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
    with Store(path) as S:
        assert S.count() == 20
    with Store(path, flush_seconds=3600) as S:
        S.put(Record(kind="vc", class_key="more", task={}, value="1", lower="1", upper="1"))
        assert S.pending
    with Store(path, readonly=True) as S:
        assert S.count() == 21
        with pytest.raises(StoreError, match="read-only"):
            S.put(Record(kind="vc", class_key="x", task={}, value="1", lower="1", upper="1"))


def _attack_row(learner, C, strategy, time_limit=None):
    """An attack row as ``attack`` stores it (with its verdict, exactness and stop)."""
    from adversary.attack import attack
    from adversary.store import class_key

    r = attack(learner, C, strategy=strategy, time_limit=time_limit)
    summary = {k: v for k, v in r.to_json().items() if k != "witness"}
    return Record(kind="attack", class_key=class_key(C), task={"learner": learner, "params": {}},
                  family=C.family, params=dict(C.params), value=exact(r.mistakes), lower=exact(r.mistakes),
                  lower_cert=r.witness, extra={"result": summary, "bound": r.bound.to_json(), "verdict": r.verdict,
                                               "exact": r.exact})


@pytest.mark.parametrize("order", ["smaller first", "larger first"])
def test_attack_rows_merge_whole(tmp_path, order):
    """Two attack rows of one key with different counts, written in either order: the store keeps the whole
    row with the larger count (its witness, value, verdict), which checks; never a mix."""
    C = make("thresholds", N=15)
    from adversary.referee import make_witness

    big = _attack_row("halving", C, "exact")  # 4 mistakes, tight
    w = make_witness("halving", {}, C, [(e["x"], e["y"]) for e in big.lower_cert["sequence"][:2]], big.lower_cert["target"])
    said = {"mistakes": 2, "verdict": "below", "exact": False}
    small = _tampered(big, value="2", lower="2", lower_cert=w, seconds=9.0,
                      extra={**big.extra, **said, "result": {**big.extra["result"], **said}})
    assert verified_bounds(small, C) == (2, None)
    with Store(tmp_path / "m.db") as S:
        for rec in ((small, big) if order == "smaller first" else (big, small)):
            S.put(rec)
        got = S.get_key(big.key)
    assert got.value == big.value and got.lower_cert == big.lower_cert and got.extra == big.extra
    assert verified_bounds(got, C) == (number(big.value), None)


def test_a_stopped_row_is_replaced_by_an_equal_finished_one(tmp_path):
    from adversary.store import _merge

    C = make("thresholds", N=15)
    done = _attack_row("halving", C, "exact")
    stats = dict(done.extra["result"]["stats"], stopped="time limit")
    stopped = _tampered(done, extra={**done.extra, "result": {**done.extra["result"], "stats": stats}})
    assert _merge(done, stopped) is done and _merge(stopped, done) is done


def test_a_tampered_verdict_or_exactness_is_caught():
    """An attack row's verdict and exactness are held against its replayed count, its bound and its stop."""
    C = make("monotone-disjunctions", n=12, k=3)
    rec = _attack_row("winnow2", C, "exact", time_limit=0.5)  # stopped: at least m, below the bound
    res = rec.extra["result"]
    assert res["stats"]["stopped"] and res["verdict"] == "stopped"
    assert verified_bounds(rec, C)[0] == number(rec.value)
    for changes in ({"verdict": "tight", "exact": True}, {"verdict": "below"}, {"verdict": "below", "exact": True},
                    {"exact": True}):
        with pytest.raises(TreeError, match="verdict|exact"):
            verified_bounds(_tampered(rec, extra={**rec.extra, "result": {**res, **changes}}), C)
    with pytest.raises(TreeError, match="verdict"):
        verified_bounds(_tampered(rec, extra={**rec.extra, "verdict": "tight"}), C)
    finished = _attack_row("halving", make("thresholds", N=15), "beam")  # ran to its end, not exact
    res = finished.extra["result"]
    assert not res["stats"]["stopped"] and not res["exact"]
    with pytest.raises(TreeError, match="exact"):
        verified_bounds(_tampered(finished, extra={**finished.extra, "result": {**res, "exact": True}}),
                        make("thresholds", N=15))


def test_a_batch_whose_start_was_lost_is_committed_at_close(tmp_path):
    """A signal between the batch's bookkeeping and its COMMIT leaves the transaction open with no batch
    recorded: close() commits it all the same (it used to roll the rows back)."""
    path = tmp_path / "c.db"
    S = Store(path, flush_seconds=3600)
    S.put(Record(kind="vc", class_key="k", task={}, value="1", lower="1", upper="1"))
    S._drain()  # the queued row written into the batch's transaction (as a read, or the commit, does)
    S._batch_started = None  # as the old _commit left it when a signal came before its COMMIT
    assert S.db.in_transaction
    S.close()
    with Store(path, readonly=True) as R:
        assert R.count() == 1


def test_show_export_prune_and_plot_recheck_a_vc_row_within_a_budget(monkeypatch):
    """A VC row's upper bound is re-checked by the VC search run again: store show/export/prune and plot give
    it CHECK_BUDGET seconds whatever the row's own time (a store of long rows used to take hours), and a
    search that does not settle in time leaves the row "not re-checked", not FAILED (plot leaves it out)."""
    import solvers.vc
    from adversary.cli.plot import _checked
    from adversary.cli.store import _check_text
    import adversary.store

    CHECK_BUDGET = getattr(adversary.store, "CHECK_BUDGET", 2.0)
    D = make("intervals", N=8)
    rec = _tampered(_vc_record(D), seconds=3600.0)  # an hour's row
    limits = []
    real = solvers.vc.vc_search

    def unsettled(C, time_limit=None, **kw):
        limits.append(time_limit)
        r = real(C, time_limit=time_limit, **kw)
        return type("R", (), {"lower": r.lower, "value": None, "upper": None})()

    monkeypatch.setattr(solvers.vc, "vc_search", unsettled)
    text = _check_text(rec)
    assert text.startswith(f"not re-checked within {CHECK_BUDGET:g} s"), text
    assert _checked([rec]) == []
    assert limits and all(t <= CHECK_BUDGET for t in limits), limits
    monkeypatch.setattr(solvers.vc, "vc_search", real)
    assert _check_text(rec).startswith("OK") and _checked([rec]) == [rec]


def test_a_batched_store_reads_its_queued_rows_merged(tmp_path):
    """A batched store queues its rows and writes them together at the commit; a read before that (get, rows,
    count) writes them first, so this process reads what it wrote, merged as any write is."""
    with Store(tmp_path / "q.db", flush_seconds=3600) as S:
        S.put(Record(kind="vc", class_key="k", task={}, lower="2"))
        S.put(Record(kind="vc", class_key="k", task={}, lower="1", upper="3"))
        assert S._queue and not S.db.in_transaction  # queued, nothing written yet
        got = S.get("vc", "k", {})
        assert (got.lower, got.upper, got.value) == ("2", "3", None) and not S._queue
        S.put(Record(kind="vc", class_key="other", task={}, value="1", lower="1", upper="1"))
        assert S.get("vc", "nothing", {}) is None and S._queue  # a key not queued: nothing to write first
        assert S.count() == 2 and [r.class_key for r in S.rows()] == ["k", "other"]
    with Store(tmp_path / "q.db", readonly=True) as R:
        assert R.count() == 2


@pytest.mark.parametrize("key", ["vc", "threshold", "td", "rtd", "best_order", "worst_order", "proper"])
def test_a_parameter_row_is_served_only_as_far_as_its_witness_goes(key):
    """A parameter's row (``littlestone params``, ``table --columns``): its witness replayed proves its bounds; a
    row whose number is not the witness's, or whose witness is broken, is refused; a number one below the truth
    with a witness that proves only that side is caught by the search run again."""
    from adversary.store import record_of_param
    from solvers.params import compute

    C = make("intervals", N=6)
    p = compute(C, [key])[key]
    rec = record_of_param(C, p)
    assert verified_bounds(rec, C) == (p.value, p.value)
    with pytest.raises(TreeError):
        verified_bounds(_tampered(rec, value=str(p.value + 1), lower=str(p.value + 1), upper=str(p.value + 1)), C)
    broken = dict(rec.lower_cert, witness={"tree": {"replies": []}} if key == "proper" else {})
    with pytest.raises(TreeError):
        verified_bounds(_tampered(rec, lower_cert=broken), C)
    with pytest.raises(StoreError):
        verified_bounds(rec, make("intervals", N=5))


def test_a_parameter_below_the_truth_is_caught():
    """threshold 5 said of intervals N=6 (whose threshold dimension is 6), with a true half graph of 5: the half
    graph proves 5 <= threshold, and the search run again refuses the upper bound 5."""
    from adversary.store import record_of_param
    from solvers.params import compute

    C = make("intervals", N=6)
    p = compute(C, ["threshold"])["threshold"]
    w = {"points": p.witness["points"][1:], "concepts": p.witness["concepts"][1:]}
    rec = record_of_param(C, p)
    low = _tampered(rec, value="5", lower="5", upper="5", lower_cert={"value": 5, "witness": w})
    with pytest.raises(TreeError, match="run again"):
        verified_bounds(low, C)


def test_a_parameter_row_written_twice_is_one_whole_row(tmp_path):
    """A stopped parameter (bounds) and then the solved one: the row is the solved one, its witness stating both
    bounds (a mix of the two rows' bounds would no longer be what either witness states)."""
    from adversary.store import class_key, record_of_param
    from solvers.certificates.params import check_bounds
    from solvers.params import ParamResult, compute

    C = make("intervals", N=6)
    solved = compute(C, ["worst_order"])["worst_order"]
    stopped = ParamResult("worst_order", solved.value, solved.value + 1, solved.witness)  # what a stopped search says
    assert check_bounds(C, "worst_order", stopped.to_json())[0]
    with Store(tmp_path / "s.db") as S:
        S.put(record_of_param(C, solved))
        S.put(record_of_param(C, stopped))  # a later stopped run does not spoil the solved row
        row = S.get("param", class_key(C), {"param": "worst_order"})
    assert verified_bounds(row, C) == (solved.value, solved.value)


def test_a_packed_certificate_is_priced_by_its_own_cost_per_entry():
    """The packed engine's entries each filter the class's truth tables: their check is priced at its own rate, so
    that a store's budgeted re-check says "not re-checked" rather than run for minutes past its budget."""
    from adversary.store import CHECK_SECONDS_PER_ENTRY, Record, check_seconds

    entries = [{"path": [], "bound": 1}] * 100
    plain = Record(kind="opt", class_key="k", task={}, upper_cert={"kind": "upper-bound", "entries": entries})
    packed = Record(kind="opt", class_key="k", task={}, upper_cert={"kind": "upper-bound", "form": "packed",
                                                                     "entries": entries})
    assert check_seconds(plain) == 100 * CHECK_SECONDS_PER_ENTRY["standard"]
    assert check_seconds(packed) == 100 * CHECK_SECONDS_PER_ENTRY["packed"] > 1
