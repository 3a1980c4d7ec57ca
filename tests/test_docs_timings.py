"""The guides and the design pages say how long things take in words; the measured seconds live on
``docs/benchmarks.md``, dated, with their commands (issue 36). The tutorials print file names, never the
temporary folder they run in."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGES = sorted([*DOCS.glob("guide/*.md"), *DOCS.glob("how-it-works/*.md"), DOCS / "getting-started.md",
                DOCS / "concepts.md"])
#: A machine named, or a measured time ("in 0.9 s", "in about 3 s", "in 125 s"): a figure for the benchmarks page.
MEASURED = re.compile(r"CPU machine|core machine|\b\d+-(CPU|core)\b|"
                      r"\bin (about )?\d[\d,]*(\.\d+)? ?(s|ms|us|min)\b")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_no_measured_timings_outside_the_benchmarks(page):
    hits = [f"{page.name}:{i}: {line.strip()}" for i, line in enumerate(page.read_text().splitlines(), 1)
            if MEASURED.search(line)]
    assert not hits, "move these figures to docs/benchmarks.md (dated, with the command) or say them in words:\n" + \
        "\n".join(hits)


def test_the_pattern_catches_what_it_should():
    for text in ("After 60 s on a 2-CPU machine", "seconds on a 2-core machine", "Opt = 20 in 0.9 s",
                 "settles it in 142 s", "in about 3 s"):
        assert MEASURED.search(text), text
    for text in ("re-checked within 2 s", "for 10 s unless --time-limit", "(default 10 s)", "after 60 s without one"):
        assert not MEASURED.search(text), text


@pytest.mark.parametrize("tutorial", sorted(DOCS.glob("tutorials_src/*.py")), ids=lambda p: p.name)
def test_tutorials_pass_file_names_not_temporary_paths(tutorial):
    """The commands print the paths they are given: a tutorial runs in its own folder and names files only."""
    text = tutorial.read_text()
    assert not re.search(r"str\([^)]*(folder|tmp|mkdtemp)", text), tutorial.name
    # sphinx-gallery starts every block in the tutorials' own folder: a block that writes a file moves first
    blocks = text.split("# %%")
    for block in blocks[1:]:
        if re.search(r'"-o"|"--tree"|"--witness"|"--proof"|savetxt', block):
            assert "os.chdir(" in block, f"{tutorial.name}: a block writes files without moving to its folder"
