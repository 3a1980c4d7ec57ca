"""A Sphinx directive that prints ``littlestone COMMAND --help`` for every command, from the argument parsers.

``.. littlestone-cli::`` (in MyST: a ``{littlestone-cli}`` fence) makes one section per command of
``adversary.cli.COMMANDS`` (and per kind of ``plot``), each holding the help text its parser prints, so the
reference can never drift from the parsers. The help is taken by running ``main([command, "--help"])`` with
the output captured (the parsers add their arguments only when a command runs or shows its help).
"""

import contextlib
import io
import os

from docutils import nodes
from sphinx.util.docutils import SphinxDirective


def _help(argv: list) -> str:
    from adversary.cli import main

    out = io.StringIO()
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            code = main([*argv, "--help"])
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old
    if code != 0:
        raise RuntimeError(f"littlestone {' '.join(argv)} --help exited with {code}")
    return out.getvalue().rstrip()


def _section(doc, title: str, text: str):
    section = nodes.section(ids=[nodes.make_id("cli-" + title)])
    section += nodes.title(text=title)
    section += nodes.literal_block(text, text, language="none")
    doc.note_implicit_target(section)
    return section


class LittlestoneCli(SphinxDirective):
    has_content = False

    def run(self):
        from adversary.cli import COMMANDS

        out = [_section(self.state.document, "littlestone", _help([]))]
        for name in COMMANDS:
            out.append(_section(self.state.document, f"littlestone {name}", _help([name])))
            if name == "plot":
                for kind in ("table", "tightness", "tree"):
                    out.append(_section(self.state.document, f"littlestone plot {kind}", _help(["plot", kind])))
        return out


def setup(app):
    app.add_directive("littlestone-cli", LittlestoneCli)
    return {"version": "1", "parallel_read_safe": True}
