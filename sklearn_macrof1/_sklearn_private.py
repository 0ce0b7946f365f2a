"""The one place where sklearn-macrof1 touches a private scikit-learn name.

scikit-learn raises ``InvalidParameterError`` (a subclass of both ``ValueError`` and
``TypeError``) for a bad ``average``, ``beta`` or ``zero_division``. We raise the very
same class so that code written against ``sklearn.metrics.f1_score`` that catches it
keeps working when it switches to this package. The class lives in the private module
``sklearn.utils._param_validation``; should it move, we fall back to a class of our own
with the same two bases, which every ``except ValueError`` / ``except TypeError`` still
catches.
"""

from __future__ import annotations

try:  # private import, isolated here on purpose (see module docstring)
    from sklearn.utils._param_validation import InvalidParameterError
except ImportError:  # pragma: no cover - depends on scikit-learn's internals

    class InvalidParameterError(ValueError, TypeError):  # type: ignore[no-redef]
        """A parameter of a public function has an invalid type or value."""


__all__ = ["InvalidParameterError"]
