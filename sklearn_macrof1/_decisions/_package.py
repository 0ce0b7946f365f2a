"""The one place where the decisions package imports the rest of sklearn-macrof1.

Only the option table, the sample-weight check and the valid averages are
shared, so that a bad ``beta``, ``zero_division`` or ``sample_weight`` is
refused with the same exception and message as by the score functions. The
count-based scoring of candidate rules is the package's own (see
``_objective.py``); the tests check it against the public score functions.
"""

from __future__ import annotations

from .._averages import AVERAGES
from .._options import check_options_of, check_sample_weight
from .._sklearn_private import InvalidParameterError

__all__ = [
    "AVERAGES",
    "InvalidParameterError",
    "check_options_of",
    "check_sample_weight",
]
