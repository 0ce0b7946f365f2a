"""Joint counts of (true label, prediction A, prediction B): paired comparisons.

Two classifiers scored on the same 1-D targets are compared sample by sample:
the influence of sample ``i`` on the difference of their scores is
``w_i (c_A(t_i, a_i) - c_B(t_i, b_i))``, with ``c`` each classifier's gradient
with respect to its confusion-matrix cells. It depends on the sample only
through its joint cell ``(t, a, b)`` and its weight, so the delta method needs,
per joint cell, the sum of the weights and of their squares, and a bootstrap
of unweighted samples the number of samples: a :class:`PairCells` record, of
at most ``k**3`` cells whatever the number of samples. Records of disjoint
samples merge by label, as :class:`~._record.MacroF1Counts` do, so they can be counted
where the data live (Dask) and only the cells moved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._read._encoding import Targets
from ._record import SAMPLE_ROWS, Reading, union_labels

#: What a joint reading holds beyond each prediction set's reading
#: (:attr:`JointReading._provides`): the joint (true, pred_i, pred_j) cells
#: of each pair of 1-D predictions, counted where the data live or countable
#: from the targets kept ...
PAIR_CELLS = "joint cells of each pair"
#: ... and, multilabel targets on a device, the sums of each pair's
#: per-sample influence differences, computed there.
INFLUENCE_SUMS = "influence sums of each pair"

#: Largest joint table ``k**3`` counted densely (k = 128 classes, about 50 MB
#: for its three columns); beyond it the occupied cells are found with
#: ``np.unique`` (Dask chunks), and in-memory comparisons use the per-sample
#: design instead.
MAX_PAIR_CELLS = 1 << 21


@dataclass
class PairCells:
    """The nonzero cells of the joint (true, pred_a, pred_b) table.

    Attributes
    ----------
    classes : ndarray of shape (k,)
        The labels the cells index (sorted): those of y_true and both
        predictions.
    cells : ndarray of shape (n_cells, 3)
        Positions in ``classes`` of each cell's true label, prediction A and
        prediction B.
    count : ndarray of shape (n_cells,)
        Samples in each cell (int64).
    weight, weight_sq : ndarray of shape (n_cells,) or None
        Sums of the samples' weights and squared weights in each cell; None
        when the samples are unweighted (both are then ``count``).
    """

    classes: np.ndarray
    cells: np.ndarray
    count: np.ndarray
    weight: np.ndarray | None = None
    weight_sq: np.ndarray | None = None

    @property
    def first(self) -> np.ndarray:
        """Sum of the weights per cell (the counts when unweighted)."""
        return self.count if self.weight is None else self.weight

    @property
    def second(self) -> np.ndarray:
        """Sum of the squared weights per cell (the counts when unweighted)."""
        return self.count if self.weight_sq is None else self.weight_sq

    def merge(self, other: PairCells) -> PairCells:
        """The cells of both sets of samples, aligned by label."""
        classes = union_labels(self.classes, other.classes)
        k = classes.shape[0]
        cells = np.concatenate(
            [
                np.searchsorted(classes, record.classes)[record.cells]
                for record in (self, other)
            ]
        )
        flat = np.ravel_multi_index(tuple(cells.T), (k, k, k))
        unique, inverse = np.unique(flat, return_inverse=True)
        inverse = inverse.reshape(-1)

        def summed(values: list[np.ndarray]) -> np.ndarray:
            return np.bincount(
                inverse, weights=np.concatenate(values), minlength=unique.shape[0]
            )

        count = summed([self.count, other.count]).astype(np.int64)
        weight = weight_sq = None
        if self.weight is not None or other.weight is not None:
            weight = summed([self.first, other.first])
            weight_sq = summed([self.second, other.second])
        joint = np.stack(np.unravel_index(unique, (k, k, k)), axis=1)
        return PairCells(classes, joint, count, weight, weight_sq)


def pair_cells(a: Targets, b: Targets, weights: np.ndarray | None) -> PairCells:
    """The joint cells of two 1-D readings of the same ``y_true``.

    ``a`` and ``b`` come from one :func:`~._targets.read_joint_targets` call:
    they share the true codes and the code labels.
    """
    if a.true is not b.true or a.code_labels is not b.code_labels:
        raise RuntimeError(  # pragma: no cover - a bug of the caller
            "pair_cells needs two readings of one joint encoding"
        )
    present = np.zeros(a.code_labels.shape[0], dtype=bool)
    for codes in (a.true, a.pred, b.pred):
        present[codes] = True  # bounds-checked numpy indexing
    position = np.cumsum(present) - 1
    k = int(present.sum())
    if k**3 >= 1 << 62:  # pragma: no cover - millions of classes
        raise ValueError(f"{k} classes are too many for a joint table of a pair")
    flat = (position[a.true] * k + position[a.pred]) * k + position[b.pred]
    if k**3 <= MAX_PAIR_CELLS:
        count = np.bincount(flat, minlength=k**3)
        nonzero = np.flatnonzero(count)
        count = count[nonzero].astype(np.int64)
        lookup = np.zeros(k**3, dtype=np.intp)
        lookup[nonzero] = np.arange(nonzero.shape[0])
        inverse = lookup[flat]
    else:
        nonzero, inverse = np.unique(flat, return_inverse=True)
        inverse = inverse.reshape(-1)
        count = np.bincount(inverse, minlength=nonzero.shape[0]).astype(np.int64)
    weight = weight_sq = None
    if weights is not None:
        size = nonzero.shape[0]
        weight = np.bincount(inverse, weights=weights, minlength=size)
        weight_sq = np.bincount(inverse, weights=weights * weights, minlength=size)
    cells = np.stack(np.unravel_index(nonzero, (k, k, k)), axis=1)
    return PairCells(a.code_labels[present], cells, count, weight, weight_sq)


@dataclass
class JointReading:
    """One reading of ``y_true`` with several prediction sets: what a
    comparison computes from, as a source's ``count_jointly`` and
    :func:`~._evaluation.read_jointly` build it (mergeable, for Dask).

    ``readings[j]`` is prediction set ``j``'s reading: its own count record,
    exactly as :func:`~._record.read` counts the pair. In memory their
    ``targets`` share one encoding of ``y_true``
    (:func:`~._targets.read_joint_targets`) and the joint cells of a pair are
    counted from them when asked for (:meth:`pair_cells`); data counted where
    they live have no ``targets`` and bring the cells of every pair
    (``pairs``, ``i < j``) or, multilabel targets on a device,
    ``influence_sums``: given each prediction set's ``(2, 3 L)`` gradients
    (two scores; tp | true | pred of L columns) and the pairs, the sums over
    the samples of each pair's influence differences and of their squares,
    ``{pair: (s1, s2)}``.
    """

    readings: list[Reading]
    pairs: dict[tuple[int, int], PairCells] | None = None
    influence_sums: Any = None

    @property
    def _provides(self) -> frozenset[str]:
        """What every prediction set's reading holds (``Reading._provides``),
        with :data:`PAIR_CELLS` (1-D targets, counted or countable from the
        targets) and :data:`INFLUENCE_SUMS`."""
        held = frozenset.intersection(*(r._provides for r in self.readings))
        extra = set()
        one_d = self.readings[0].counts.kind != "multilabel-indicator"
        if one_d and (self.pairs is not None or SAMPLE_ROWS in held):
            extra.add(PAIR_CELLS)
        if self.influence_sums is not None:
            extra.add(INFLUENCE_SUMS)
        return held | extra

    @property
    def n_samples(self) -> int:
        counts = self.readings[0].counts
        assert counts.n_samples is not None
        return counts.n_samples

    def pair_cells(self, i: int, j: int) -> PairCells:
        """The joint (true, pred_i, pred_j) cells of 1-D targets, ``i < j``."""
        if self.pairs is not None:
            return self.pairs[i, j]
        a, b = self.readings[i], self.readings[j]
        assert a.targets is not None and b.targets is not None
        return pair_cells(a.targets, b.targets, a.weights)

    def counted_elsewhere(self) -> JointReading:
        """The same counts without the samples (what a chunk counted on a
        worker sends back): the records and the cells of every pair."""
        m = len(self.readings)
        pairs = {
            (i, j): self.pair_cells(i, j) for i in range(m) for j in range(i + 1, m)
        }
        return JointReading([Reading(r.counts) for r in self.readings], pairs)

    def merge(self, other: JointReading) -> JointReading:
        """The joint reading of both sets of samples (counted elsewhere)."""
        readings = [
            Reading(a.counts.merge(b.counts))
            for a, b in zip(self.readings, other.readings, strict=True)
        ]
        pairs = {
            pair: cells.merge(other.pair_cells(*pair))
            for pair, cells in (self.pairs or {}).items()
        }
        return JointReading(readings, pairs)


def merge_joint_readings(a: JointReading | None, b: JointReading | None) -> Any:
    """``a.merge(b)``, where None stands for an empty batch."""
    if a is None:
        return b
    if b is None:
        return a
    return a.merge(b)


__all__ = [
    "INFLUENCE_SUMS",
    "MAX_PAIR_CELLS",
    "PAIR_CELLS",
    "JointReading",
    "PairCells",
    "merge_joint_readings",
    "pair_cells",
]
