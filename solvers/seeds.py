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

from dataclasses import dataclass

__all__ = ["Seed", "REFERENCES", "SEEDS", "cite", "is_citation", "seed_of", "check_citation"]


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
