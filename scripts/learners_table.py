"""Print the table of learners of docs/guide/learners.md (Markdown), generated from the registry ``solvers.learners.LEARNERS``.

Each row is read from the learner's class (``summary``, ``bound_formula``, ``bound_source``), where the
bound is written once; ``tests/test_scripts.py`` checks that docs/guide/learners.md holds exactly this table.

Usage::

    python scripts/learners_table.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from solvers.learners import LEARNERS  # noqa: E402
from solvers.seeds import seed_of  # noqa: E402


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def table() -> str:
    """The Markdown table: CLI name (aliases), learner, proven bound, source (the notes' key)."""
    lines = ["| CLI name | learner | proven bound | source |", "| --- | --- | --- | --- |"]
    for spec in dict.fromkeys(LEARNERS.values()):
        name = f"`{spec.name}`" + "".join(f" (`{a}`)" for a in spec.aliases)
        seed = seed_of(spec.source)
        lines.append(f"| {name} | {_cell(spec.summary)} | {_cell(spec.bound_formula)} | {seed.key if seed else ''} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(table())
