"""The first run that creates the results store in this folder says where (issue 36): one note, only when it
creates it, not when it exists, not with --no-store, and not for a store the user named (--store, $LITTLESTONE_STORE)."""

from __future__ import annotations

import pytest

from .checks import field, run

NOTE = "littlestone: note: results are kept in ./littlestone.db, created now (--no-store keeps none"


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.delenv("LITTLESTONE_STORE", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_run_that_creates_the_store_says_where(capsys, here):
    code, out, err = run(capsys, "opt", "intervals", "N=5", "--quiet")
    assert code == 0 and field(out, "Opt(C)") == "3"
    assert (here / "littlestone.db").is_file()
    assert [line for line in err.splitlines() if "results are kept" in line] == [NOTE + "; --store PATH puts them "
                                                                                  "elsewhere)"]
    code, out, err = run(capsys, "opt", "intervals", "N=6", "--quiet")  # it exists: nothing said
    assert code == 0 and "results are kept" not in err


def test_no_store_and_a_named_store_say_nothing(capsys, here, monkeypatch):
    code, out, err = run(capsys, "opt", "intervals", "N=5", "--quiet", "--no-store")
    assert code == 0 and "results are kept" not in err and not (here / "littlestone.db").exists()
    code, out, err = run(capsys, "opt", "intervals", "N=5", "--quiet", "--store", here / "mine.db")
    assert code == 0 and "results are kept" not in err and (here / "mine.db").is_file()
    monkeypatch.setenv("LITTLESTONE_STORE", str(here / "env.db"))
    code, out, err = run(capsys, "opt", "intervals", "N=5", "--quiet")
    assert code == 0 and "results are kept" not in err and (here / "env.db").is_file()
    assert not (here / "littlestone.db").exists()
