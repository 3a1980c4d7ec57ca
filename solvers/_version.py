"""The version of littlestone: one literal, read by setuptools at build time (pyproject.toml) and by the code
at run time (``littlestone --version``, the version each stored row records) without importlib.metadata,
which takes longer to import than the rest of a small command."""

__version__ = "0.1.0"
