"""The online learners of the seeds, one module per algorithm, and the registry the CLI builds them from.

Every learner follows the protocol of :mod:`solvers.learners.base` (``predict_one``, ``learn_one``,
``state_key``, deep copies, ``mistake_bound(**target_params) -> Bound``, ``get_params``, ``name``).

==============================  ========================  ================================================  ============
CLI name                        class                     proven bound (``mistake_bound`` arguments)        notes
==============================  ========================  ================================================  ============
halving (hal)                   Halving                   floor(log2 |C|)                                   [OnlineAlgs]
con                             CON                       |C| - 1                                           [OnlineAlgs]
randomized-halving              RandomizedHalving         E <= H_|C| - 1 <= ln |C|                          [Rivest94]
soa                             SOA                       Opt(C)                                            [Rivest94]
conjunction-elimination         ConjunctionElimination    n                                                 [Mehta]
elim                            ELIM                      n + 1                                             [OnlineAlgs]
winnow                          Winnow                    derived for an OR of r variables (r)              [OnlineAlgs]
winnow1                         Winnow1                   2 + 2k lg n (k)                                   [Rivest94]
winnow2                         Winnow2                   2 + 3r(1 + lg n) (r)                              [15-859B]
balanced-winnow                 BalancedWinnow            none stated (inf)                                 [Roth]
winnow-r                        WinnowR                   5u + 4, u = r(1 + lg n) (r)                       [Roth]
winnow-k-of-r                   WinnowKofR                derived from two inequalities of [15-859B] (r)    [15-859B]
perceptron                      Perceptron                R^2/gamma^2 (R, gamma); + (2/gamma) TD (TD)       [Mehta]
weighted-majority (wm)          WeightedMajority          (ln N + m ln(1/beta)) / ln(2/(1+beta)) (m)        [OnlineAlgs]
randomized-weighted-majority    RandomizedWeightedMaj.    E <= (ln N + m ln(1/beta)) / (1 - beta) (m)       [OnlineAlgs]
(rwm)
sklearn-perceptron              SklearnPerceptron         R^2/gamma^2 (R, gamma); extra [sklearn]           [Mehta]
river                           RiverClassifier           none stated (inf); extra [river]                  [Mehta]
==============================  ========================  ================================================  ============

The last two are adapters (:mod:`.adapters`) for scikit-learn's Perceptron and any river classifier:
optional extras, imported only when built (``pip install 'littlestone[sklearn]'``, ``[river]``);
``LearnerSpec.extra`` names the extra.

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

from ..seeds import cite
from .adapters import RiverClassifier, SklearnPerceptron
from .base import SEEDS, Bound, Learner, OnlineLearner
from .con import CON
from .elimination import ELIM, ConjunctionElimination
from .halving import Halving
from .perceptron import Perceptron
from .randomized_halving import RandomizedHalving
from .soa import SOA
from .weighted_majority import RandomizedWeightedMajority, WeightedMajority
from .winnow import BalancedWinnow, Winnow, Winnow1, Winnow2, WinnowKofR, WinnowR

__all__ = [
    "SEEDS",
    "Bound",
    "Learner",
    "OnlineLearner",
    "Halving",
    "CON",
    "RandomizedHalving",
    "SOA",
    "ConjunctionElimination",
    "ELIM",
    "Winnow",
    "Winnow1",
    "Winnow2",
    "BalancedWinnow",
    "WinnowR",
    "WinnowKofR",
    "Perceptron",
    "WeightedMajority",
    "RandomizedWeightedMajority",
    "SklearnPerceptron",
    "RiverClassifier",
    "REQUIRED",
    "LearnerSpec",
    "LEARNERS",
    "ALIASES",
    "make_learner",
    "describe",
]

#: The default of a required parameter in ``LearnerSpec.params``.
REQUIRED = None


@dataclass(frozen=True)
class LearnerSpec:
    """A learner the CLI can build by name.

    Attributes
    ----------
    name : str
        The CLI name (also the class's ``name``).
    cls : type
    params : tuple of (name, default, doc)
        The constructor's keyword parameters besides the class; default ``REQUIRED`` (None) marks a
        required one. A default shown as a parameter name ("n") copies that parameter.
    needs_class : bool
        Built from a ConceptClass (the class's rows are the concepts, or the experts).
    bound_params : tuple of str
        The keyword arguments ``mistake_bound`` takes (the target's parameters).
    bound_formula, source : str
        The proven bound, and the citation of the notes it comes from (:func:`solvers.seeds.cite`).
    dim_param : str or None
        The dimension parameter of a vector learner ("n" or "d"); ``make_learner`` takes it from the
        class's points when it is not given.
    summary : str
        One line for listings.
    extra : str or None
        The optional extra (``pip install 'littlestone[EXTRA]'``) whose library of the same name the
        learner needs, for the adapters of :mod:`.adapters`; None for this package's own learners.
    """

    name: str
    cls: type
    params: tuple
    needs_class: bool
    bound_params: tuple
    bound_formula: str
    source: str
    dim_param: str | None = None
    summary: str = ""
    extra: str | None = None

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


_N = ("n", REQUIRED, "the number of variables (points are 0/1 tuples of length n)")
_SEED = ("seed", 0, "seed of the learner's own numpy Generator")
_BETA = ("beta", "1/2", "the factor a wrong expert's weight is multiplied by, in (0, 1)")

_HAL = cite("OnlineAlgs", 'slide "HAL - halving algorithm"')
_PERCEPTRON = cite("Mehta", "section 3, Theorem 2")

_SPECS = (
    LearnerSpec("halving", Halving, (), True, (), "floor(log2 |C|)", _HAL,
                summary="majority vote of the version space, ties to 1 (HAL)"),
    LearnerSpec("con", CON, (), True, (), "|C| - 1", cite("OnlineAlgs", 'slide "CON Algorithm"'),
                summary="predict with the first consistent concept"),
    LearnerSpec("randomized-halving", RandomizedHalving, (_SEED,), True, (),
                "E[mistakes] <= H_|C| - 1 <= ln |C| (sequence fixed in advance)",
                cite("Rivest94", "section 2.3.4 Randomized halving algorithm"),
                summary="predict with a uniformly random consistent concept, drawn each round"),
    LearnerSpec("soa", SOA, (), True, (), "Opt(C)", cite("Rivest94", "section 2.3.3 Optimal algorithm"),
                summary="the optimal algorithm: predict 1 iff Opt(V_x^1) >= Opt(V_x^0)"),
    LearnerSpec("conjunction-elimination", ConjunctionElimination, (_N,), False, (), "n",
                cite("Mehta", "section 1.1 Learning monotone conjunctions"), "n",
                summary="monotone conjunctions: drop the 0 variables of a false negative"),
    LearnerSpec("elim", ELIM, (_N,), False, (), "n + 1", cite("OnlineAlgs", 'slide "Analysis of ELIM"'), "n",
                summary="ORs of literals: a negative example deletes the literals it satisfies"),
    LearnerSpec("winnow", Winnow,
                (_N, ("alpha", 2, "promotion factor (beta in the Online Algorithms slides), > 1"),
                 ("theta", "n", "threshold, > 0"),
                 ("demotion", "divide", "divide (by alpha) or zero the weights on a false positive"),
                 ("strict", False, "predict 1 iff w.x > theta instead of >= theta")),
                False, ("r",),
                "(1 + alpha) r t + alpha n / ((alpha - 1) theta) [divide] or alpha r t + n/theta [zero], "
                "t = #{j >= 0 : alpha^j < theta}, for an OR of r variables (derived from the slides' Lemma 1)",
                cite("OnlineAlgs", 'slides "Winnow - Theorem" and "Winnow - Analysis"'), "n",
                summary="Winnow with general alpha, theta and demotion"),
    LearnerSpec("winnow1", Winnow1, (_N,), False, ("k",), "2 + 2k lg n (an OR of k variables)",
                cite("Rivest94", "section 2.4 Winnow algorithm"), "n",
                summary="Theta = n/2, w.x > Theta, double / zero"),
    LearnerSpec("winnow2", Winnow2, (_N,), False, ("r",), "2 + 3r(1 + lg n) (an OR of r variables)",
                cite("15-859B", 'section "Winnow algorithm"'), "n",
                summary="threshold n, w.x >= n, double / halve"),
    LearnerSpec("balanced-winnow", BalancedWinnow,
                (_N, ("alpha", 2, "update factor, > 1"), ("theta", "n", "threshold")),
                False, (), "none stated (inf)", cite("Roth", 'section "Limitation of Winnow"'), "n",
                summary="weights w+ and w-, predict 1 iff (w+ - w-).x > theta"),
    LearnerSpec("winnow-r", WinnowR, (_N,), False, ("r",), "5u + 4, u = r(1 + lg n) (an OR of r variables)",
                cite("Roth", 'section "Winnow - R"'), "n", summary="Winnow2 whose weights never go below 1/2"),
    LearnerSpec("winnow-k-of-r", WinnowKofR, (_N, ("k", REQUIRED, "at least k of the r relevant variables, 1 <= k <= n")),
                False, ("r",),
                "(4k + 1)/(k + 1) (r c + (k - 1)(2k + 1)) + 2k + 1, c = ceil(log_(1 + 1/(2k)) n) "
                "(derived from the notes' two inequalities)",
                cite("15-859B", 'section "Winnow for Majority Vote functions"'), "n",
                summary="multiply / divide by 1 + 1/(2k), threshold n"),
    LearnerSpec("perceptron", Perceptron,
                (("d", REQUIRED, "the dimension"),
                 ("margin", 0, "also update when y <w, x> <= margin (Roth's notes), >= 0")),
                False, ("R", "gamma", "TD", "D2"),
                "R^2 / gamma^2 (R = max |x|, gamma = the margin of a unit w*); given TD, the total hinge "
                "deviation: R^2 / gamma^2 + (2 / gamma) TD (the Online Algorithms slides); given D2: "
                "(R + D2)^2 / gamma^2 (Roth's notes); with margin > 0, R^2 becomes R^2 + 2 margin",
                _PERCEPTRON, "d", summary="w <- w + y x on a mistake, sgn(0) = +1"),
    LearnerSpec("weighted-majority", WeightedMajority, (_BETA,), True, ("m",),
                "(ln N + m ln(1/beta)) / ln(2/(1 + beta)), N = the experts, m = the best expert's mistakes "
                "(Littlestone-Warmuth; the slides have only the regret setting)",
                cite("OnlineAlgs", 'slide "Regret Minimization"'),
                summary="the class's rows are experts; wrong experts' weights times beta"),
    LearnerSpec("randomized-weighted-majority", RandomizedWeightedMajority, (_BETA, _SEED), True, ("m",),
                "E[mistakes] <= (ln N + m ln(1/beta)) / (1 - beta) (Littlestone-Warmuth; the slides have only "
                "the regret setting)",
                cite("OnlineAlgs", 'slide "Regret Minimization"'),
                summary="predict with an expert drawn in proportion to its weight"),
    LearnerSpec("sklearn-perceptron", SklearnPerceptron, (("d", REQUIRED, "the dimension"),), False, ("R", "gamma"),
                "R^2 / gamma^2 (R = max |x|, gamma = the margin of a unit w*; derived here: the Perceptron's "
                "proof bounds scikit-learn's updates, made iff y <w, x> <= 0)",
                _PERCEPTRON, "d", extra="sklearn",
                summary="scikit-learn's Perceptron(fit_intercept=False), partial_fit each round; w = 0 and "
                        "<w, x> = 0 predict 0 (needs pip install 'littlestone[sklearn]')"),
    LearnerSpec("river", RiverClassifier,
                (("d", REQUIRED, "the dimension (features {i: x_i})"),
                 ("model", "linear_model.Perceptron", "the river classifier, module.Class under river"),
                 ("kwargs", "{}", "the model's keyword arguments, a JSON object")),
                False, (), "none stated for an arbitrary river model (inf)", cite("Mehta", "section 3"), "d",
                extra="river",
                summary="any river classifier by name, predict_one / learn_one on {i: x_i} "
                        "(needs pip install 'littlestone[river]')"),
)

#: Other names the CLI accepts.
ALIASES = {"hal": "halving", "wm": "weighted-majority", "rwm": "randomized-weighted-majority"}

#: Every learner by CLI name; aliases map to the same spec (``spec.name`` is the canonical name).
LEARNERS: dict[str, LearnerSpec] = {s.name: s for s in _SPECS}
LEARNERS.update({alias: LEARNERS[target] for alias, target in ALIASES.items()})

for _s in _SPECS:
    assert _s.cls.name == _s.name, _s.name


def _spec(name) -> LearnerSpec:
    spec = LEARNERS.get(name) if isinstance(name, str) else None
    if spec is None:
        raise ValueError(f"unknown learner {name!r}; known learners: {', '.join(s.name for s in _SPECS)}")
    return spec


def make_learner(name: str, params: dict | None = None, C=None):
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
            "aliases": [a for a, t in ALIASES.items() if t == s.name],
            "params": s.signature,
            "needs_class": s.needs_class,
            "bound": s.bound_formula,
            "bound_params": list(s.bound_params),
            "source": s.source,
            "summary": s.summary,
        }
        for s in _SPECS
    ]
