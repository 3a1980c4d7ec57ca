"""The error of a certificate that is malformed or does not certify what it claims, shared by the checkers
of :mod:`solvers.certificates` and those it hands certificates to (:mod:`solvers.certificates.disjunctions`)."""

__all__ = ["TreeError", "ClassMismatch"]


class TreeError(ValueError):
    """A tree that is malformed or does not certify what it claims."""


class ClassMismatch(TreeError):
    """A certificate or a witness checked on another class than the one it was made for (their
    fingerprints differ)."""
