"""The online learners of the seeds, one module per algorithm, and the registry the CLI builds them from.

Every learner follows the protocol of :mod:`solvers.learners.base` (``predict_one``, ``learn_one``,
``state_key``, deep copies, ``mistake_bound(**target_params) -> Bound``, ``bound_on(cls)``,
``get_params``, ``name``) and declares on its class what the adversary needs (``randomized``,
``conservative``, ``symmetric_variables``, ``remaining_bound``) and its row of the listings
(``bound_formula``, ``bound_source``, ``bound_params``, ``summary``). ``littlestone learners`` (and
``python scripts/learners_table.py``, the table of docs/guide/learners.md) list them from :data:`LEARNERS`.

Adding a learner is one module (a class with those attributes) and one line here: ``register(MyLearner,
params=(...))`` with the CLI's parameter docs, or the same call from any module, before the CLI runs.
The last two learners are adapters (:mod:`.adapters`) for scikit-learn's Perceptron and any river
classifier: optional extras, imported only when built (``pip install 'littlestone[sklearn]'``,
``[river]``); ``LearnerSpec.extra`` names the extra.

A learner you bring (registered or not) is checked by :func:`check_learner` (the conformance suite every
learner here passes) and cites its own work in ``bound_source`` (free text or a :class:`Citation`).

``make_learner(name, params, C)`` builds one by CLI name; ``describe()`` gives the rows of the
``littlestone learners`` listing.

References
----------
.. [Rivest94] Rivest, "6.858 Machine Learning, Lecture 2: On-line learning with mistake bounds" (1994)
.. [Mehta] Mehta, "Machine Learning Theory (CSC 431/531), Lecture 2: Realizable case and the Mistake Bound
   Model"
.. [15-859B] "15-859(B) Machine Learning Theory, 01/20/10: Online learning contd"
.. [Roth] "Machine Learning (Notes from Prof. Dan Roth's Lectures at UIUC): Part 1" (2015)
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)

Examples
--------
>>> L = make_learner("winnow2", {"n": 4})
>>> L.predict_one((1, 1, 1, 1)), L.mistake_bound(r=1).value
(1, 11)
>>> make_learner("winnow2", {"n": 4, "alpha": 3})
Traceback (most recent call last):
...
ValueError: winnow2: unknown parameter 'alpha'; its parameters are: n
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..seeds import Citation, check_source, is_citation
from .adapters import RiverClassifier, SklearnPerceptron
from .base import SEEDS, Bound, Learner, OnlineLearner
from .con import CON
from .conformance import ConformanceError, LearnerCheck, check_learner
from .elimination import ELIM, ConjunctionElimination
from .halving import Halving
from .conservative import Conservative, conservative
from .perceptron import Perceptron
from .rand_soa import RandSOA
from .randomized_halving import RandomizedHalving
from .soa import SOA
from .weighted_majority import RandomizedWeightedMajority, WeightedMajority
from .winnow import BalancedWinnow, Winnow, Winnow1, Winnow2, WinnowKofR, WinnowR

if TYPE_CHECKING:
    from ..classes.finite import ConceptClass

__all__ = [
    "SEEDS",
    "Citation",
    "Bound",
    "Learner",
    "OnlineLearner",
    "Halving",
    "CON",
    "RandomizedHalving",
    "SOA",
    "RandSOA",
    "ConjunctionElimination",
    "ELIM",
    "Winnow",
    "Winnow1",
    "Winnow2",
    "BalancedWinnow",
    "WinnowR",
    "WinnowKofR",
    "Perceptron",
    "Conservative",
    "conservative",
    "WeightedMajority",
    "RandomizedWeightedMajority",
    "SklearnPerceptron",
    "RiverClassifier",
    "REQUIRED",
    "LearnerSpec",
    "LEARNERS",
    "register",
    "registered",
    "unregister",
    "aliases",
    "make_learner",
    "describe",
    "check_learner",
    "LearnerCheck",
    "ConformanceError",
]

#: The default of a required parameter in ``LearnerSpec.params``.
REQUIRED = None


@dataclass(frozen=True)
class LearnerSpec:
    """A learner the CLI can build by name: its class and the CLI's parameter docs; everything else is
    read from the class (its declarations, :mod:`solvers.learners.base`).

    Attributes
    ----------
    cls : type
        The learner class; ``name``, ``needs_class``, ``bound_params``, ``bound_formula``, ``source``
        (the class's ``bound_source``), ``dim_param``, ``summary`` and ``extra`` are its attributes.
    params : tuple of (name, default, doc)
        The constructor's keyword parameters besides the class; default ``REQUIRED`` (None) marks a
        required one. A default shown as a parameter name ("n") copies that parameter.
    aliases : tuple of str
        Other names the CLI accepts.
    """

    cls: type
    params: tuple = ()
    aliases: tuple = ()

    name = property(lambda self: self.cls.name, doc="The CLI name (the class's ``name``).")
    needs_class = property(lambda self: bool(self.cls.needs_class),
                           doc="Built from a ConceptClass (the class's rows are the concepts, or the experts).")
    bound_params = property(lambda self: tuple(self.cls.bound_params),
                            doc="The keyword arguments ``mistake_bound`` takes (the target's parameters).")
    bound_formula = property(lambda self: self.cls.bound_formula, doc="The proven bound, as the listings show it.")
    source = property(lambda self: check_source(self.cls.bound_source),
                      doc="The citation of the work the bound comes from, as text: the lecture notes "
                          "(:func:`solvers.seeds.cite`) for the learners shipped here, your own for yours.")
    cites_notes = property(lambda self: is_citation(self.source),
                           doc="Whether the bound cites the lecture notes (every learner shipped here does).")
    dim_param = property(lambda self: self.cls.dim_param,
                         doc='The dimension parameter of a vector learner ("n" or "d"), or None.')
    summary = property(lambda self: self.cls.summary, doc="One line for listings.")
    extra = property(lambda self: self.cls.extra, doc="The optional extra the learner needs, or None.")

    @property
    def signature(self) -> str:
        """``"n alpha=2 theta=n ..."``: the parameters with their defaults, as the CLI takes them."""
        out = []
        for pname, default, _ in self.params:
            if default is REQUIRED:
                out.append(pname)
            else:
                shown = str(default).lower() if isinstance(default, bool) else default
                out.append(f"{pname}={shown}")
        return " ".join(out)


#: Every learner by CLI name; aliases map to the same spec (``spec.name`` is the canonical name).
LEARNERS: dict[str, LearnerSpec] = {}


def register(cls: type, *, params: tuple = (), aliases: tuple = ()) -> LearnerSpec:
    """Add the learner class ``cls`` to :data:`LEARNERS` under ``cls.name`` and ``aliases``.

    ``params`` are the CLI's ``(name, default, doc)`` for the constructor's parameters. The class must
    state its bound: ``bound_formula``, and ``bound_source``, the work that proves it (the lecture notes
    through :func:`solvers.seeds.cite`, or your own: free text such as ``"my own paper (2026), Lemma 1"``
    or a :class:`~solvers.seeds.Citation`), which every report and witness of the learner prints;
    ``ValueError`` if not, or if a name is taken by another class. Run
    :func:`solvers.learners.check_learner` on it first: the adversary trusts its declarations.
    """
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        raise ValueError(f"a learner class needs a CLI name: set {getattr(cls, '__name__', cls)}.name")
    if not getattr(cls, "bound_formula", ""):
        raise ValueError(f"learner {name}: state its bound in the class attribute bound_formula")
    check_source(getattr(cls, "bound_source", ""), f"learner {name}'s bound_source")
    spec = LearnerSpec(cls, tuple(params), tuple(aliases))
    for key in (name, *aliases):
        old = LEARNERS.get(key)
        if old is not None and old.cls is not cls:
            raise ValueError(f"learner name {key!r} is taken by {old.cls.__name__}")
    for key in (name, *aliases):
        LEARNERS[key] = spec
    return spec


def unregister(name: str) -> None:
    """Remove the learner ``name`` and its aliases from :data:`LEARNERS` (tests that register their own)."""
    spec = LEARNERS.get(name)
    for key in [k for k, s in LEARNERS.items() if s is spec]:
        del LEARNERS[key]


class registered:
    """``with registered(MyLearner): ...`` -- the learner class (or an instance's class) in :data:`LEARNERS`
    for the block, when it is not already: its constructor's parameters are read from its signature (the
    class left out for a class-based learner), and it is unregistered after. A name already taken by another
    class is refused (ValueError). ``adversary.attack.attack`` and ``adversary.referee.verify_witness`` use it
    for a learner you bring without registering it.

    Examples
    --------
    >>> class Mine(Halving):
    ...     name, bound_source = "mine", "my own paper (2026), Lemma 1"
    >>> with registered(Mine) as spec:
    ...     spec.source, "mine" in LEARNERS
    ('my own paper (2026), Lemma 1', True)
    >>> "mine" in LEARNERS
    False
    """

    def __init__(self, learner):
        self.cls = learner if isinstance(learner, type) else type(learner)
        self.added = None

    def __enter__(self) -> LearnerSpec:
        import inspect

        cls = self.cls
        name = getattr(cls, "name", None)
        if not isinstance(name, str) or not name:
            raise ValueError(f"a learner is a name, a learner class or a learner object with a name: set "
                             f"{getattr(cls, '__name__', cls)}.name")
        spec = LEARNERS.get(name)
        if spec is not None:
            if spec.cls is not cls:
                raise ValueError(f"learner name {name!r} is taken by {spec.cls.__name__}; give {cls.__name__} "
                                 "another name")
            return spec
        ps = list(inspect.signature(cls.__init__).parameters.values())[1:]
        if getattr(cls, "needs_class", False) and ps:
            ps = ps[1:]
        params = tuple((p.name, REQUIRED if p.default is p.empty else p.default, "") for p in ps
                       if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))
        spec = register(cls, params=params)
        self.added = name
        return spec

    def __exit__(self, *exc) -> bool:
        if self.added is not None:
            unregister(self.added)
        return False


def _specs() -> list[LearnerSpec]:
    """Each learner once, in registry order."""
    return list(dict.fromkeys(LEARNERS.values()))


_N = ("n", REQUIRED, "the number of variables (points are 0/1 tuples of length n)")
_D = ("d", REQUIRED, "the dimension")
_SEED = ("seed", 0, "seed of the learner's own numpy Generator")
_BETA = ("beta", "1/2", "the factor a wrong expert's weight is multiplied by, in (0, 1)")

# The registry: one line per learner (its module states everything else).
register(Halving, aliases=("hal",))
register(CON)
register(RandomizedHalving, params=(_SEED,))
_ERRORS = ("errors", 0, "k: the labels may disagree with the best concept k times (optimal for that game)")
register(SOA, params=(_ERRORS,))
register(RandSOA, params=(_ERRORS, _SEED))
register(ConjunctionElimination, params=(_N,))
register(ELIM, params=(_N,))
register(Winnow, params=(_N, ("alpha", 2, "promotion factor (beta in the Online Algorithms slides), > 1"),
                         ("theta", "n", "threshold, > 0"),
                         ("demotion", "divide", "divide (by alpha) or zero the weights on a false positive"),
                         ("strict", False, "predict 1 iff w.x > theta instead of >= theta")))
register(Winnow1, params=(_N,))
register(Winnow2, params=(_N,))
register(BalancedWinnow, params=(_N, ("alpha", 2, "update factor, > 1"), ("theta", "n", "threshold")))
register(WinnowR, params=(_N,))
register(WinnowKofR, params=(_N, ("k", REQUIRED, "at least k of the r relevant variables, 1 <= k <= n")))
register(Perceptron, params=(_D, ("margin", 0, "also update when y <w, x> <= margin (Roth's notes), >= 0"),
                              ("bias", "false", "true: learn a bias term, the constant coordinate x_0 = 1 (Online "
                                                "Algorithms slides)")))
register(WeightedMajority, params=(_BETA,), aliases=("wm",))
register(RandomizedWeightedMajority, params=(_BETA, _SEED), aliases=("rwm",))
register(Conservative, params=(("learner", "halving", "the learner A to make conservative (a CLI name; Halving, "
                                                     "which is not conservative, by default)"),
                                ("params", "{}", "A's parameters: a JSON object or k=v,k=v")))
register(SklearnPerceptron, params=(_D,))
register(RiverClassifier, params=(("d", REQUIRED, "the dimension (features {i: x_i})"),
                                  ("model", "linear_model.Perceptron", "the river classifier, module.Class under river"),
                                  ("kwargs", "{}", "the model's keyword arguments, a JSON object")))


def aliases() -> dict[str, str]:
    """Other names the CLI accepts: alias -> CLI name."""
    return {a: s.name for s in _specs() for a in s.aliases}


def _spec(name) -> LearnerSpec:
    spec = LEARNERS.get(name) if isinstance(name, str) else None
    if spec is None:
        raise ValueError(f"unknown learner {name!r}; known learners: {', '.join(s.name for s in _specs())}")
    return spec


def make_learner(name: str, params: dict | None = None, C: ConceptClass | None = None) -> Learner:
    """Build the learner ``name`` (a CLI name or alias) with ``params``.

    Parameters
    ----------
    name : str
        A key of :data:`LEARNERS`.
    params : dict, optional
        The constructor's parameters (not the class); values may be numbers or the CLI's strings
        ("3/2", "true"). Omitted ones take their defaults.
    C : ConceptClass, optional
        Required by the class-based learners (and the expert learners, whose experts are its rows).
        For a vector learner it is optional: when given, its points' length is the default ``n`` (``d``)
        and must match a given one.

    Raises
    ------
    ValueError
        One line saying what to change: an unknown name, an unknown or missing parameter, an impossible
        value, a class-based learner without a class, or a dimension that does not fit the class.

    Examples
    --------
    >>> from solvers.classes.families import make
    >>> C = make("monotone-disjunctions", n=3, k=1)
    >>> make_learner("winnow1", {}, C).get_params()          # n taken from the class's points
    {'n': 3}
    >>> make_learner("halving", {}, C).mistake_bound().value
    2
    >>> make_learner("halving", {})
    Traceback (most recent call last):
    ...
    ValueError: halving is built from a concept class; give one (the CLI's --class FAMILY k=v ... or --matrix FILE)
    """
    from ..classes.finite import ConceptClass

    spec = _spec(name)
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise ValueError(f"{spec.name}: parameters must be a dict of name -> value, not {type(params).__name__}")
    params = dict(params)
    known = [p[0] for p in spec.params]
    for key in params:
        if key not in known:
            if known:
                raise ValueError(f"{spec.name}: unknown parameter {key!r}; its parameters are: {', '.join(known)}")
            raise ValueError(f"{spec.name}: unknown parameter {key!r}; it takes no parameters")
    if C is not None and not isinstance(C, ConceptClass):
        raise ValueError(f"{spec.name}: the class must be a ConceptClass, not {type(C).__name__}")
    if spec.needs_class:
        if C is None:
            raise ValueError(f"{spec.name} is built from a concept class; give one (the CLI's --class FAMILY k=v ... or --matrix FILE)")
        return spec.cls(C, **params)
    dim = spec.dim_param
    if C is not None and dim is not None:
        lengths = {len(p) for p in C.points}
        if len(lengths) == 1:
            (length,) = lengths
            if dim not in params:
                params[dim] = length
            elif params[dim] != length and str(params[dim]).strip() != str(length):
                raise ValueError(f"{spec.name}: {dim}={params[dim]} but the class's points have {length} coordinates; give {dim}={length}")
    for pname, default, _ in spec.params:
        if default is REQUIRED and pname not in params:
            raise ValueError(f"{spec.name}: missing parameter {pname}; give {pname}=VALUE ({_doc(spec, pname)})")
    return spec.cls(**params)


def _doc(spec: LearnerSpec, pname: str) -> str:
    for p, _, doc in spec.params:
        if p == pname:
            return doc
    return ""  # pragma: no cover


def describe() -> list[dict]:
    """Rows for the ``littlestone learners`` listing, one per learner (aliases in ``aliases``).

    Each row has ``name``, ``aliases``, ``params`` (with defaults), ``needs_class``, ``bound``,
    ``bound_params``, ``source`` and ``summary``.

    Examples
    --------
    >>> row = describe()[0]
    >>> row["name"], row["aliases"], row["bound"]
    ('halving', ['hal'], 'floor(log2 |C|)')
    >>> row["source"]
    '"Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow), slide "HAL - halving algorithm"'
    """
    return [
        {
            "name": s.name,
            "aliases": list(s.aliases),
            "params": s.signature,
            "needs_class": s.needs_class,
            "bound": s.bound_formula,
            "bound_params": list(s.bound_params),
            "source": s.source,
            "summary": s.summary,
        }
        for s in _specs()
    ]
