"""The five sets of lecture notes the project implements, and how code and output cite them.

The notes are the specification of every algorithm and bound here, but they are not part of the
repository; so code cites them by author and title (with the section where it knows it), never by the
name of a local file. A module's docstring cites a set of notes by its key in brackets
(``[Rivest94, section 2.3.3]``) and lists the keys it uses under "References"; a proven bound
(:class:`solvers.learners.Bound`) carries the full citation as its ``source``, built by :func:`cite`.

=============  ======================================================================================
key            the notes (titles as their first lines print them)
=============  ======================================================================================
Rivest94       R. Rivest (scribe D. Yuret), 6.858 Machine Learning, Lecture 2 (1994): the model,
               Opt(C), the Halving, optimal and randomized halving algorithms, Winnow1
Mehta          N. Mehta, Machine Learning Theory (CSC 431/531), Lecture 2: elimination for monotone
               conjunctions, Halving, the Perceptron and its R^2/gamma^2 bound
15-859B        15-859(B) Machine Learning Theory, 01/20/10: Winnow, Winnow for k-of-r functions and
               general LTFs, the infinite-attribute model
Roth           Machine Learning (notes from Prof. Dan Roth's lectures at UIUC), Part 1 (2015): CON,
               Halving, the Perceptron with and without a margin, balanced Winnow, Winnow-R
OnlineAlgs     Online Algorithms (lecture slides): CON, HAL, ELIM, conservative algorithms, the
               Perceptron (realizable and hinge loss), Winnow with beta and theta
=============  ======================================================================================

Examples
--------
>>> cite("Rivest94", "section 2.3.2 Halving algorithm")
'Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994), section 2.3.2 Halving algorithm'
>>> is_citation(cite("OnlineAlgs")), is_citation("lecture.txt")
(True, False)
>>> seed_of(cite("Mehta", "Theorem 2")).key
'Mehta'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Seed", "REFERENCES", "SEEDS", "Citation", "cite", "is_citation", "seed_of", "check_citation",
           "check_source"]


@dataclass(frozen=True)
class Seed:
    """One set of lecture notes.

    Attributes
    ----------
    key : str
        The short key docstrings cite it by (``[Rivest94]``).
    citation : str
        Author (where the notes name one), title as the notes print it, and year (where they give one).
    short : str
        How output prose names it ("Rivest's notes").
    covers : str
        What the project takes from it, in a few words.
    """

    key: str
    citation: str
    short: str
    covers: str

    def cite(self, where: str | None = None) -> str:
        """The citation, followed by ``where`` (a section, theorem or slide) when given."""
        return self.citation if not where else f"{self.citation}, {where}"

    @property
    def reference(self) -> str:
        """The line of a numpydoc "References" section: ``.. [KEY] citation``."""
        return f".. [{self.key}] {self.citation}"


_SEEDS = (
    Seed("Rivest94",
         'Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)',
         "Rivest's notes",
         "the model, Opt(C), Halving, the optimal algorithm, randomized halving, Winnow1"),
    Seed("Mehta",
         'Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound Model"',
         "Mehta's notes",
         "the mistake-bound model, elimination for monotone conjunctions, Halving, the Perceptron"),
    Seed("15-859B",
         '"15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"',
         "the 15-859(B) notes",
         "Winnow, Winnow for k-of-r functions and general LTFs, the infinite-attribute model"),
    Seed("Roth",
         '"Machine Learning (Notes from Prof. Dan Roth\'s Lectures at UIUC): Part 1" (2015)',
         "Roth's notes",
         "CON, Halving, the Perceptron with a margin, balanced Winnow, Winnow-R"),
    Seed("OnlineAlgs",
         '"Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)',
         "the Online Algorithms slides",
         "CON, HAL, ELIM, conservative algorithms, the Perceptron with hinge loss, Winnow with beta"),
)

#: The notes by key.
REFERENCES: dict[str, Seed] = {s.key: s for s in _SEEDS}

#: The five citations, in the order the project has always numbered the notes (000 to 004).
SEEDS: tuple[str, ...] = tuple(s.citation for s in _SEEDS)


def cite(key: str, where: str | None = None) -> str:
    """The citation of the notes ``key``, with ``where`` (e.g. ``"section 2.4 Winnow algorithm"``) appended.

    Raises ``ValueError`` for an unknown key.
    """
    seed = REFERENCES.get(key)
    if seed is None:
        raise ValueError(f"unknown lecture notes {key!r}; the keys are {', '.join(REFERENCES)}")
    return seed.cite(where)


def seed_of(text: str) -> Seed | None:
    """The notes a citation (as :func:`cite` builds it) refers to, or None."""
    if not isinstance(text, str):
        return None
    for seed in _SEEDS:
        if text == seed.citation or text.startswith(seed.citation + ", "):
            return seed
    return None


def is_citation(text) -> bool:
    """Whether ``text`` cites one of the notes (its citation, optionally followed by ", where")."""
    return seed_of(text) is not None


def check_citation(text, what: str = "a source") -> str:
    """``text`` when it is a citation, else ``ValueError`` saying how to build one."""
    if not is_citation(text):
        raise ValueError(f"{what} must cite one of the lecture notes, built by solvers.seeds.cite(KEY, WHERE) "
                         f"with KEY one of {', '.join(REFERENCES)}; got {text!r}")
    return text


@dataclass(frozen=True)
class Citation:
    """A citation of your own work, for a learner you bring (its ``bound_source``) and the bounds it states.

    Parameters
    ----------
    text : str
        The work and the place in it, in words: ``"A. Author, my own paper (2026), Lemma 1"``.
    url : str, optional
        Where a reader finds it (a DOI or an arXiv address).

    ``str(citation)`` is what reports and witnesses print. A plain string is accepted wherever a
    ``Citation`` is (:func:`check_source`); the learners shipped here cite the lecture notes (:func:`cite`).

    Examples
    --------
    >>> str(Citation("my own paper (2026), Lemma 1", url="arXiv:2601.00001"))
    'my own paper (2026), Lemma 1 <arXiv:2601.00001>'
    """

    text: str
    url: str | None = None

    def __post_init__(self):
        if not isinstance(self.text, str) or not self.text.strip():
            raise ValueError("a Citation needs its text: the work and the place in it, e.g. "
                             "Citation(\"my own paper (2026), Lemma 1\")")
        if self.url is not None and (not isinstance(self.url, str) or not self.url.strip()):
            raise ValueError(f"a Citation's url must be a non-empty string or None, not {self.url!r}")

    def __str__(self) -> str:
        return self.text if self.url is None else f"{self.text} <{self.url}>"


_SEED_FILE = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")


def check_source(text, what: str = "a source") -> str:
    """The citation ``text`` as a string: any citation a reader can follow, in words.

    ``text`` is a :class:`Citation`, the citation of lecture notes (:func:`cite`), or free text naming
    the work (``"my own paper (2026), Lemma 1"``). A blank text and the name of a local notes file are
    refused (``ValueError`` saying what to write instead). :func:`is_citation` tells the notes' citations
    apart from the others; every learner shipped here cites the notes.

    Examples
    --------
    >>> check_source("my own paper (2026), Lemma 1")
    'my own paper (2026), Lemma 1'
    >>> check_source(cite("Mehta", "Theorem 2")) == cite("Mehta", "Theorem 2")
    True
    >>> check_source("  ", "learner x's bound_source")
    Traceback (most recent call last):
    ...
    ValueError: learner x's bound_source is blank; cite the work that proves the bound in words (e.g. "my own paper (2026), Lemma 1"), a solvers.seeds.Citation, or the lecture notes with solvers.seeds.cite(KEY, WHERE)
    """
    if isinstance(text, Citation):
        return str(text)
    if not isinstance(text, str) or not text.strip():
        shown = "blank" if isinstance(text, str) or text is None else f"a {type(text).__name__}, not a citation"
        raise ValueError(f"{what} is {shown}; cite the work that proves the bound in words (e.g. \"my own paper "
                         "(2026), Lemma 1\"), a solvers.seeds.Citation, or the lecture notes with "
                         "solvers.seeds.cite(KEY, WHERE)")
    if _SEED_FILE.search(text):
        raise ValueError(f"{what} names a file ({text!r}); cite the notes by author and title with "
                         f"solvers.seeds.cite(KEY, WHERE), KEY one of {', '.join(REFERENCES)}")
    return text
