"""A notebook session, as a script: what a researcher types in Jupyter, with what each cell displays
asserted (nothing printed). ``help(opt)``, the rich displays of a class, a result, its mistake tree and an
attack, and a learner of one's own with one's own citation, checked by the shipped conformance suite and
attacked unregistered.

References
----------
.. [OnlineAlgs] "Online Algorithms" (lecture slides: mistake bound, CON, HAL, ELIM, Perceptron, Winnow)
"""

from __future__ import annotations

import inspect
import pydoc
import xml.dom.minidom


def test_a_notebook_session():
    # In [1]: from solvers import *; from adversary import attack
    from adversary import attack
    import solvers
    from solvers import OnlineLearner, TreeCheck, check_learner, make, opt, verify_tree, verify_upper
    from solvers.learners.base import Bound

    # In [2]: help(opt) -- the signature and the docstring, not a package's
    text = pydoc.render_doc(opt, renderer=pydoc.plaintext)
    first = inspect.getdoc(solvers.opt.opt).splitlines()[0]
    assert "opt(C, *, time_limit" in text and first in text
    assert str(inspect.signature(opt)).startswith("(C, *, time_limit")

    # In [3]: C = make("thresholds", N=12); C  -- the class's size and its matrix, truncated
    C = make("thresholds", N=12)
    html = C._repr_html_()
    assert "thresholds N=12" in html and "13 concepts x 12 points" in html
    assert "more concepts" in html and html.count("<tr>") == 1 + 8 + 1  # header, 8 rows, "5 more concepts"
    assert len(repr(C)) < 100
    narrow = C._repr_html_(rows=2, cols=3)
    assert narrow.count("<td>&hellip;</td>") == 2 and "11 more concepts" in narrow

    # In [4]: r = opt(C); r  -- value, how proven, seconds, and the tree drawn
    r = opt(C)
    assert r.value == 3  # floor(log2 13): thresholds on 12 points, binary search ([OnlineAlgs] HAL's bound is met)
    assert repr(r).startswith("OptResult(value=3, lower=3, upper=3, engine=") and len(repr(r)) < 120
    html = r._repr_html_()
    assert "Opt(C) = <b>3</b>" in html and f"engine {r.stats['engine']}" in html and " s;" in html
    assert "<svg" in html

    # In [5]: r.tree  -- the mistake tree as SVG: its top levels, each node a point, leaves as dots
    svg = r.tree._repr_svg_()
    dom = xml.dom.minidom.parseString(svg)
    assert dom.documentElement.tagName == "svg"
    assert len(dom.getElementsByTagName("rect")) == 2 ** 3 - 1 and len(dom.getElementsByTagName("circle")) == 8
    assert "Opt(C) &gt;= 3" in svg
    assert "(top 2 levels; dashed: cut)" in r.tree._repr_svg_(max_depth=1)

    # In [6]: verify_tree(r.tree.to_json(), C)  -- what was proven, not a bare int
    t = verify_tree(r.tree.to_json(), C)
    assert isinstance(t, TreeCheck) and t.claim == "Opt(C) >= 3" and t.depth == 3 and t == r.value
    assert repr(t) == "TreeCheck(depth=3, claim='Opt(C) >= 3', ok=True)"
    u = verify_upper(r.upper_certificate(), C)
    assert u.claim == "Opt(C) <= 3" and u == 3

    # In [7]: a learner of my own, citing my own paper
    class MajorityTiesToZero(OnlineLearner):
        """The majority vote of the version space, ties to 0: each mistake halves it."""

        name = "majority-ties-to-zero-nb"
        needs_class = True
        max_errors = 0
        bound_formula = "floor(log2 |C|)"
        bound_source = "my own paper (2026), Lemma 1"

        def __init__(self, C):
            self.C, self.V = C, C.full

        def predict_one(self, x) -> int:
            ones = (self.V & self.C.columns[self.C.index_of(x)]).bit_count()
            return int(2 * ones > self.V.bit_count())

        def learn_one(self, x, y) -> None:
            from solvers.learners.base import check_label

            y = check_label(y)
            V0, V1 = self.C.split_index(self.V, self.C.index_of(x))
            if not (V1 if y else V0):
                raise ValueError("no concept of the class labels these examples")
            self.V = V1 if y else V0

        def state_key(self):
            return self.V

        def get_params(self) -> dict:
            return {}

        def mistake_bound(self) -> Bound:
            return Bound(self.C.log2_size(), self.bound_formula, self.bound_source)

        def bound_on(self, cls, errors: int = 0) -> Bound:
            return self.mistake_bound() if not errors and cls is self.C else super().bound_on(cls, errors)

    # In [8]: check_learner(MajorityTiesToZero, C)  -- the shipped conformance suite
    report = check_learner(MajorityTiesToZero, C)
    assert report.source == "my own paper (2026), Lemma 1" and not report.cites_notes
    assert "protocol" in report.checks and "max_errors" in report.checks
    assert "my own paper (2026), Lemma 1" in report._repr_html_()

    # In [9]: a = attack(MajorityTiesToZero, C); a  -- unregistered, with its own citation in the report
    a = attack(MajorityTiesToZero, C, strategy="exact")
    assert a.mistakes == 3 == r.value and a.verdict == "tight" and a.exact
    assert "my own paper (2026), Lemma 1" in repr(a) and "verdict='tight'" in repr(a)
    html = a._repr_html_()
    assert "verdict <b>tight</b>" in html and "my own paper (2026), Lemma 1" in html
    assert html.count("<tr>") == 1 + len(a.sequence)  # the witness table: a header and one row per example
    assert a.witness["bound"]["source"] == "my own paper (2026), Lemma 1"
    assert "majority-ties-to-zero-nb" not in solvers.learners.LEARNERS
