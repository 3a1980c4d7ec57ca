"""Messages that say what to change: a library error is one line, however many lines the input it
quotes had (the command line prints it as it is).

>>> one_line("bad matrix:\\n  row 3\\thas 2 entries")
'bad matrix: row 3 has 2 entries'
"""

__all__ = ["one_line"]


def one_line(text) -> str:
    """``text`` (any object, as ``str``) with every run of white space, line breaks included, made one space."""
    return " ".join(str(text).split())
