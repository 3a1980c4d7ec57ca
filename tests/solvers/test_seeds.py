"""The lecture notes are cited by author and title (solvers.seeds), never by a local file name."""

import math
import re
import subprocess
from pathlib import Path

import pytest

from solvers.learners import LEARNERS, Bound, describe
from solvers.seeds import REFERENCES, SEEDS, cite, is_citation, seed_of

ROOT = Path(__file__).resolve().parents[2]
# A seed's file name: three digits, an underscore, 16 hex digits, ".txt" (not spelled out here).
FILE_NAME = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")
KEY = re.compile(r"\[(" + "|".join(re.escape(k) for k in REFERENCES) + r")\]")


def _tracked_files():
    """The repository's files as git lists them: the tests that read them skip outside a git checkout (an
    unpacked sdist or archive), where the files of the package are all there is."""
    try:
        run = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    except FileNotFoundError:
        pytest.skip("git is not installed: the repository's tracked files cannot be listed")
    if run.returncode != 0 or not run.stdout.strip():
        pytest.skip(f"{ROOT} is not a git checkout: the repository's tracked files cannot be listed")
    out = run.stdout
    return [ROOT / line for line in out.splitlines() if line.endswith((".py", ".md", ".toml", ".txt", ".cfg"))]


def test_no_file_name_citations_in_the_repository():
    hits = [f"{p.relative_to(ROOT)}:{i}" for p in _tracked_files() if p.exists()
            for i, line in enumerate(p.read_text(errors="replace").splitlines(), 1) if FILE_NAME.search(line)]
    assert hits == []


def test_module_references_list_the_keys_they_use():
    """A module docstring that cites [KEY] lists it under References, and every key is known."""
    for p in _tracked_files():
        if p.suffix != ".py" or not p.exists() or p == ROOT / "solvers" / "seeds.py":  # the registry itself
            continue
        text = p.read_text()
        missing = sorted(k for k in set(KEY.findall(text)) if f".. [{k}] {REFERENCES[k].citation[:20]}" not in text)
        assert not missing, f"{p.relative_to(ROOT)} cites {missing} without a References entry"


def test_bound_sources_are_citations():
    assert Bound(1, "x", cite("Rivest94", "section 2.3.2 Halving algorithm")).source.startswith('Rivest, "6.858')
    with pytest.raises(ValueError, match="names a file"):
        Bound(1, "x", "004_" + "f" * 16 + ".txt")
    for row in describe():
        seed = seed_of(row["source"])
        assert seed is not None and row["source"].startswith(seed.citation)
        assert not FILE_NAME.search(row["source"])
    for spec in dict.fromkeys(LEARNERS.values()):
        assert is_citation(spec.source)
    assert len(SEEDS) == 5 and all(is_citation(s) for s in SEEDS)
    assert Bound(math.inf, "none", SEEDS[3]).to_json()["source"] == SEEDS[3]
