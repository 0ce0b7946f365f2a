"""A toy data source, all in one module: labels held in a ``ToyColumn``.

Importing this module registers the source; nothing in the package names it.
It hands its values to the in-memory reading, as a source may, and counts how
often it was asked.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sklearn_macrof1._counting._record import Reading, read_in_memory
from sklearn_macrof1._counting._registry import (
    CountRequest,
    Predictions,
    register_source,
)


class ToyColumn:
    """Labels held in a Python list (no array protocol of its own)."""

    def __init__(self, values: Any) -> None:
        self.values = list(values)


def _plain(value: Any) -> Any:
    return np.asarray(value.values) if isinstance(value, ToyColumn) else value


class ToySource:
    name = "toy"
    count_jointly = None  # no paired comparisons of toy columns
    calls = 0

    def claims(self, cls: type) -> bool:
        return cls is ToyColumn

    def count(self, data: Predictions, request: CountRequest) -> Reading:
        ToySource.calls += 1
        plain = Predictions(
            _plain(data.y_true), _plain(data.y_pred), _plain(data.sample_weight)
        )
        return read_in_memory(
            plain,
            request.labels,
            request.samplewise,
            request.class_counts,
            request.moments,
            request.targets_kept,
            request.part,
            count_cells=request.cells,
        )


register_source(ToySource())
