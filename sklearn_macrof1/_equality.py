"""The equality every result object shares (:class:`ValueEquality`): field by
field, arrays by value, nan equal to nan, and a hash consistent with it."""

from __future__ import annotations

import math
import numbers
from dataclasses import fields
from typing import Any

import numpy as np
import scipy.sparse as sp


def values_equal(a: Any, b: Any) -> bool:
    """Equality of two field values: arrays by shape and value, nan equal nan."""
    if sp.issparse(a) or sp.issparse(b):  # a large confusion matrix's cells
        if not (sp.issparse(a) and sp.issparse(b)) or a.shape != b.shape:
            return False
        return (a != b).nnz == 0
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        both = isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
        if not both or a.shape != b.shape:
            return False
        try:
            return bool(np.array_equal(a, b, equal_nan=True))
        except TypeError:  # strings, objects: no nan to compare
            return bool(np.array_equal(a, b))
    if isinstance(a, numbers.Real) and isinstance(b, numbers.Real):
        a, b = float(a), float(b)
        return a == b or (math.isnan(a) and math.isnan(b))
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # pragma: no cover - exotic values
        return a is b


def _hash_key(value: Any) -> Any:
    """A hashable stand-in, equal for values that :func:`values_equal` calls equal."""
    if isinstance(value, np.ndarray):
        return ("ndarray", value.shape)  # coarse, but never inconsistent
    if isinstance(value, numbers.Real):
        value = float(value)
        return "nan" if math.isnan(value) else value
    try:
        return hash(value)
    except TypeError:  # pragma: no cover - exotic values
        return type(value).__name__


class ValueEquality:
    """Field-by-field equality and a matching hash for frozen result dataclasses.

    Declare the dataclass with ``eq=False`` so that these methods are kept.
    Two results are equal when they are of the same class and every field is
    equal (arrays by value, nan equal to nan); equal results hash equally.
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(
            values_equal(getattr(self, f.name), getattr(other, f.name))
            for f in fields(self)  # type: ignore[arg-type]
            if f.compare
        )

    def __hash__(self) -> int:
        return hash(
            (type(self).__qualname__,)
            + tuple(
                _hash_key(getattr(self, f.name))
                for f in fields(self)  # type: ignore[arg-type]
                if f.compare
            )
        )
