"""Sphinx configuration of littlestone's documentation.

Build it with ``pip install '.[docs]' && sphinx-build -W docs docs/_build`` (offline, warnings as errors).
The tutorials (``docs/tutorials_src/*.py``) are run by sphinx-gallery during the build, so a tutorial whose
code stops working fails the build. The CLI reference is generated from the argument parsers
(``docs/_ext/cli_reference.py``) and the API reference from the docstrings over ``solvers.__all__`` and
``adversary.__all__`` (``docs/api.md``).
"""

import os
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent))  # the checkout's own packages, when the build runs from a clone
os.environ.setdefault("LITTLESTONE_STORE", str(HERE / "_build" / "tutorials.db"))  # tutorials never write ./littlestone.db

from solvers._version import __version__  # noqa: E402


def _write_api_page() -> None:
    """Write ``api.rst``: one autosummary per package over its ``__all__``, as it stands at build time (the
    declared public surface, and nothing else, is what the reference documents)."""
    import importlib

    lines = [".. This file is written by docs/conf.py at every build: edit _write_api_page there.", "",
             "API reference", "=============", "",
             "The public surface is what ``solvers.__all__`` and ``adversary.__all__`` declare; each entry below is",
             "generated from its docstring. Everything else is internal and may change.", ""]
    for package in ("solvers", "adversary"):
        module = importlib.import_module(package)
        title = f"``{package}``"
        lines += [title, "-" * len(title), "", f".. automodule:: {package}", "   :no-members:", "",
                  f".. currentmodule:: {package}", "", ".. autosummary::", "   :toctree: generated", ""]
        lines += [f"   {name}" for name in module.__all__] + [""]
    text = "\n".join(lines)
    path = HERE / "api.rst"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


_write_api_page()

project = "littlestone"
author = "littlestone's authors"
copyright = "littlestone's authors (MIT licence)"
release = version = __version__

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx_gallery.gen_gallery",
    "cli_reference",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "tutorials_src/README.rst", "tutorials/*.ipynb", "tutorials/*.py",
                    "tutorials/*.zip", "tutorials/*.json", "tutorials/*.md5"]
templates_path = ["_templates"]
html_theme = "alabaster"
html_static_path: list = []
html_title = f"littlestone {release}"

# The docstrings write set sizes as |C|, |X|, |V| (the notes' notation), which reStructuredText reads as
# substitutions: each is defined as itself.
rst_prolog = "\n".join(f".. |{s}| replace:: \\|{s}\\|" for s in ("C", "X", "V", "Y", "S", "x", "w", "R", "c", "E", "H"))
# Each numpydoc References section lists the notes it draws on, cited in its text or not.
suppress_warnings = ["ref.citation"]

myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3

autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set = set()

sphinx_gallery_conf = {
    "examples_dirs": "tutorials_src",
    "gallery_dirs": "tutorials",
    "filename_pattern": r"/tutorial_",       # every tutorial is run
    "within_subsection_order": "FileNameSortKey",
    "download_all_examples": False,
    "remove_config_comments": True,
    "image_scrapers": ("matplotlib",),
    "abort_on_example_error": True,           # a tutorial that raises fails the build at once
    "plot_gallery": "True",
    "show_memory": False,
    "show_signature": False,
}


def _numpydoc_skips_modules(app) -> None:
    """numpydoc reads a module docstring's reStructuredText tables (rules of ``=``) as section underlines; module
    docstrings here are plain reStructuredText, so numpydoc formats only functions and classes."""
    listeners = app.events.listeners["autodoc-process-docstring"]
    for listener in list(listeners):
        if getattr(listener.handler, "__module__", "").startswith("numpydoc"):
            handler = listener.handler
            listeners.remove(listener)

            def skip_modules(app, what, name, obj, options, lines, _handler=handler):
                if isinstance(obj, types.ModuleType) and callable(obj) and lines and lines[0].startswith(name.split(".")[-1] + "("):
                    del lines[:1]  # a callable package's docstring opens with its function's signature (pydoc's form)
                if callable(obj):  # functions and classes (a callable package is its function)
                    _handler(app, "function" if isinstance(obj, types.ModuleType) else what, name, obj, options, lines)

            app.connect("autodoc-process-docstring", skip_modules, priority=listener.priority)


def setup(app):
    app.connect("builder-inited", _numpydoc_skips_modules)
