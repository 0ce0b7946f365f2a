"""The one place where the decisions package imports the rest of sklearn-macrof1.

Only option checks are shared, so that a bad ``beta`` or ``zero_division`` is
refused with the same exception and message as by the score functions. The
count-based scoring of candidate rules is the package's own (see
``_objective.py``); the tests check it against the public score functions.
"""

from __future__ import annotations

from .._core._sklearn_private import InvalidParameterError
from .._core._validation import check_beta, check_zero_division

__all__ = ["InvalidParameterError", "check_beta", "check_zero_division"]
