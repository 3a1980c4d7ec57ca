"""Concept classes behind one protocol: finite, implicit ({0,1}^n listed by its concepts) and margin
halfspaces, the named families that build them, and the JSON class spec of witnesses.

=====================  ===========================================================================
module                 what it holds
=====================  ===========================================================================
:mod:`.protocol`       the protocol every class implements, and the keys of ``facts``
:mod:`.finite`         :class:`ConceptClass`: a 0/1 matrix, points and concepts listed
:mod:`.implicit`       :class:`ImplicitFamily`: a {0,1}^n family listed by its concepts only
:mod:`.margin`         :class:`MarginHalfspaces`: halfspaces in R^d with a margin
:mod:`.families`       the registry of named families (``make``) and one module per kind of domain
:mod:`.spec`           ``load_class`` / ``class_spec``: the witness's ``"class"`` to a class and back
=====================  ===========================================================================
"""

from .finite import ConceptClass
from .protocol import FACT_KEYS, ConceptClassProtocol
from . import families
from .implicit import IMPLICIT_ABOVE, ImplicitFamily, has_implicit_form, prefers_implicit
from .margin import MARGIN_FAMILY, MarginHalfspaces
from .spec import class_spec, load_class, trusted

__all__ = ["ConceptClass", "ConceptClassProtocol", "FACT_KEYS", "families", "ImplicitFamily", "IMPLICIT_ABOVE",
           "has_implicit_form", "prefers_implicit", "MarginHalfspaces", "MARGIN_FAMILY", "load_class", "class_spec",
           "trusted"]
