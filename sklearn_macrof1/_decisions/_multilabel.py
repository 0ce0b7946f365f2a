"""Multilabel decision rules: predict label ``l`` where its score exceeds ``theta_l``.

Koyejo, Natarajan, Ravikumar and Dhillon ("Consistent multilabel classification",
NIPS 2015) show that for the F-measure and other linear-fractional metrics the
optimal multilabel classifier thresholds the calibrated marginals ``P(y_l = 1 | x)``:
one threshold per label for macro averages, one threshold shared by every label
for micro- and instance-averaged ("samples") metrics. That is the rule learned
here.

- Macro and weighted averages: one threshold per label, by coordinate ascent over
  the labels; each label's threshold is the exact best over every distinct score
  of that label (one sort of the label's scores, then O(1) per candidate from
  cumulative counts). Averaged F-beta is a sum over labels, so one sweep reaches
  its optimum; F-beta of averages couples the labels through the averaged
  precision and recall, and sweeps repeat until no label improves it (the block
  coordinate ascent of xCOLUMNs, Schultheis et al.).
- Micro and samples: one shared threshold, the exact best over every distinct
  score in the selected columns (one sort of the pooled scores; for samples, the
  per-sample counts are updated entry by entry: dense scores sort each sample's
  row, sparse ones group the sorted entries by sample).

Without sample weights (every weight 1) the sums are counts, integers that are
exact in any order of summation, so those paths skip what only the order of
summation needs: the pooled scores of a shared micro threshold are sorted
without an argsort, and a dense label's equal scores are left in any order. The rule
found is the same, bit for bit.

Sparse score matrices are read column by column without densifying: a label's
unstored entries are one block of equal (zero) scores, and for a shared
threshold a row's unstored entries are one entry of score 0, so that thresholds
below 0 (decision values) are found and scored as on the dense matrix.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from ._multiclass import separated
from ._objective import Objective

#: Labels counted at once by the faster paths (bounds their temporaries).
_BLOCK = 64
#: Entries (samples times labels) of the samples curve sorted at once.
_CHUNK = 1 << 18


@dataclass
class MultilabelProblem:
    scores: Any  # (n, L): a dense array or a CSC matrix
    y: Any  # (n, L) 0/1: a dense array or a CSC matrix
    weight: np.ndarray  # (n,)
    objective: Objective
    columns: np.ndarray  # the selected label columns
    positive: np.ndarray = field(init=False)
    # every weight is 1: the weighted counts are integers, exact in any order of
    # summation, which the faster paths rely on
    unit: bool = field(init=False)
    # each label's entries in decreasing score, kept across the sweeps of the
    # coordinate ascent (int32: half the size of the scores)
    orders: dict[int, np.ndarray] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.positive = self.weight > 0
        self.unit = bool((self.weight == 1).all())
        # dense columns read contiguously (one copy, the size of the input)
        if not sp.issparse(self.scores):
            self.scores = np.asfortranarray(self.scores, dtype=np.float64)
        if not sp.issparse(self.y):
            self.y = np.asfortranarray(np.asarray(self.y) != 0)

    @property
    def n_labels(self) -> int:
        return int(self.scores.shape[1])

    def column(self, l: int) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
        """``(rows, scores, is_true)``: the rows and scores of label ``l``'s
        explicit entries (rows None: every row, for dense scores), and whether
        the label is true, for every row."""
        if sp.issparse(self.y):
            truth = np.zeros(self.y.shape[0], dtype=bool)
            y = self.y
            rows = y.indices[y.indptr[l] : y.indptr[l + 1]]
            truth[rows[y.data[y.indptr[l] : y.indptr[l + 1]] != 0]] = True
        else:
            truth = self.y[:, l]
        if sp.issparse(self.scores):
            s = self.scores
            rows = s.indices[s.indptr[l] : s.indptr[l + 1]]
            return rows, s.data[s.indptr[l] : s.indptr[l + 1]], truth
        return None, self.scores[:, l], truth

    def label_curve(
        self, l: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Groups of equal scores of label ``l`` (decreasing: their largest and
        smallest score), the cumulative ``(tp, pred, n_pred)`` of predicting the
        first ``r`` groups (shape ``(3, G+1)``), and the label's
        ``(true, n_true)``."""
        rows, values, truth = self.column(l)
        order = self.orders.get(l)
        if self.unit and rows is None:
            # unit weights: counts, the running count of hits at the end of
            # each group of equal scores, whatever the order of the ties
            if order is None:
                order = self.orders[l] = _decreasing(values, stable=False)
            keys = values[order]
            start, ends = _groups(keys)
            cum = np.zeros((3, start.shape[0] + 1))
            cum[0, 1:] = np.cumsum(truth[order])[ends - 1]
            cum[1, 1:] = cum[2, 1:] = ends
            n_true = float(np.count_nonzero(truth))
            return keys[start], keys[ends - 1], cum, np.array([n_true, n_true])
        w = self.weight
        take = slice(None) if rows is None else rows
        parts = [
            values,
            w[take] * truth[take],
            w[take],
            self.positive[take].astype(np.float64),
        ]
        true_w = float(w[truth].sum())
        n_true = float(self.positive[truth].sum())
        if rows is not None and rows.shape[0] < w.shape[0]:  # unstored: one block
            rest = np.ones(w.shape[0], dtype=bool)
            rest[rows] = False
            parts = [
                np.r_[parts[0], 0.0],
                np.r_[parts[1], w[rest & truth].sum()],
                np.r_[parts[2], w[rest].sum()],
                np.r_[parts[3], self.positive[rest].sum()],
            ]
        if order is None:
            order = self.orders[l] = _decreasing(parts[0])
        upper, lower, cum = _curve(parts[0], np.stack(parts[1:]), order)
        return upper, lower, cum, np.array([true_w, n_true])

    def avg_weight(self, true: np.ndarray) -> np.ndarray | float:
        return true if self.objective.average == "weighted" else 1.0

    def never_positive(self) -> np.ndarray:
        """The selected labels with no true sample of positive weight."""
        labels = []
        for l in self.columns:
            truth = self.column(int(l))[2]
            if not np.any(truth & self.positive):
                labels.append(int(l))
        return np.asarray(labels, dtype=np.intp)

    def silenced(self, thresholds: np.ndarray, labels: np.ndarray) -> np.ndarray:
        """``thresholds`` with ``labels`` above their highest score: never
        predicted (a label without a positive sample can only add false
        positives, whatever ``zero_division``; with smoothing, predicting it
        everywhere would look a little better than not at all)."""
        thresholds = thresholds.copy()
        for l in labels:
            rows, values, _ = self.column(int(l))
            top = float(values.max()) if values.shape[0] else 0.0
            if rows is not None and rows.shape[0] < self.weight.shape[0]:
                top = max(top, 0.0)  # unstored entries score 0
            thresholds[l] = top + max(abs(top), 1.0) * 1e-3
        return thresholds


def _decreasing(keys: np.ndarray, *, stable: bool = True) -> np.ndarray:
    """The order of ``keys`` from the largest (int32 where it fits); equal keys
    in their order, or in any order when not ``stable`` (twice as fast)."""
    order = np.argsort(-keys, kind="stable" if stable else None)
    return order.astype(np.int32) if keys.shape[0] < 2**31 else order


def _curve(
    keys: np.ndarray, moves: np.ndarray, order: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Groups of equal keys in decreasing order (keys that differ by rounding
    only are equal): each group's largest and smallest key, and the cumulative
    sums of ``moves`` (rows of quantities) after each group, with a leading 0.
    ``order``: the keys' decreasing order, when known."""
    if order is None:
        order = np.argsort(-keys, kind="stable")
    keys = keys[order]
    if keys.shape[0] == 0:
        return keys, keys, np.zeros((moves.shape[0], 1))
    start, ends = _groups(keys)
    grouped = np.add.reduceat(np.take(moves, order, axis=1), start, axis=1)
    cum = np.zeros((moves.shape[0], start.shape[0] + 1))
    np.cumsum(grouped, axis=1, out=cum[:, 1:])
    return keys[start], keys[ends - 1], cum


def _groups(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each group of equal keys (decreasing keys) starts and ends."""
    m = keys.shape[0]
    if m == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    # a block of keys at a time: the temporaries of millions of keys stay small
    first = np.empty(m, dtype=bool)
    first[0] = True
    for begin in range(0, m - 1, _CHUNK):
        end = min(begin + _CHUNK, m - 1)
        first[begin + 1 : end + 1] = separated(
            keys[begin:end], keys[begin + 1 : end + 1]
        )
    start = np.flatnonzero(first)
    return start, np.append(start[1:], m)


def _unit_curve(
    keys: np.ndarray, hit: np.ndarray, count: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_curve` of the moves ``(hit, count, count)`` of entries of unit
    weight. Their sums are integers, exact in any order, so the keys are sorted
    without their order (several times faster than a stable argsort of millions
    of entries): each group's count is its size, plus the extra ``count - 1``
    of entries that stand for several (unstored entries), and the hits are
    added to the group of their entry, found by a binary search."""
    sorted_keys = np.sort(keys)[::-1]
    start, ends = _groups(sorted_keys)
    upper, lower = sorted_keys[start], sorted_keys[ends - 1]
    g = start.shape[0]

    def per_group(entries: np.ndarray, amounts: np.ndarray) -> np.ndarray:
        group = g - np.searchsorted(lower[::-1], keys[entries], side="right")
        return np.bincount(group, weights=amounts, minlength=g)

    pred = (ends - start).astype(np.float64)
    several = np.flatnonzero(count != 1)  # none for dense scores
    if several.shape[0]:
        pred += per_group(several, count[several] - 1)
    cum = np.zeros((3, g + 1))
    hits = np.flatnonzero(hit)
    np.cumsum(per_group(hits, hit[hits]), out=cum[0, 1:])
    np.cumsum(pred, out=cum[1, 1:])
    cum[2] = cum[1]
    return upper, lower, cum


def cut_threshold(upper: np.ndarray, lower: np.ndarray, r: int) -> float:
    """A threshold predicting exactly the first ``r`` groups of keys (score >
    threshold): the midpoint between neighbouring groups, or a margin beyond the
    ends."""
    g = upper.shape[0]
    if g == 0:
        return 0.0
    if r == 0:
        return float(upper[0] + max(abs(upper[0]), 1.0) * 1e-3)
    if r == g:
        return float(lower[g - 1] - max(abs(lower[g - 1]), 1.0) * 1e-3)
    return float(0.5 * (lower[r - 1] + upper[r]))


def _nearest_best(values: np.ndarray, current: int) -> tuple[int, float]:
    values = np.where(np.isnan(values), -np.inf, values)
    best = float(values.max())
    ties = np.flatnonzero(values == best)
    return int(ties[np.argmin(np.abs(ties - current))]), best


def apply_thresholds(scores: Any, thresholds: np.ndarray) -> Any:
    """The 0/1 predictions ``scores > thresholds`` (sparse in, sparse out when no
    threshold is negative, so that unstored entries stay unpredicted)."""
    if sp.issparse(scores) and (thresholds >= 0).all():
        out = sp.csr_matrix(scores, copy=True)
        out.data = (out.data > thresholds[out.indices]).astype(np.int64)
        out.eliminate_zeros()
        return out
    if sp.issparse(scores):
        scores = scores.toarray()
    return (np.asarray(scores) > thresholds).astype(np.int64)


def _predicted(p: MultilabelProblem, l: int, theta: float) -> np.ndarray:
    rows, values, _ = p.column(l)
    if rows is None:
        return values > theta
    predicted = np.zeros(p.weight.shape[0], dtype=bool)
    if rows.shape[0] < predicted.shape[0]:  # unstored entries score 0
        predicted[:] = 0.0 > theta
    predicted[rows] = values > theta
    return predicted


def label_stats(p: MultilabelProblem, thresholds: np.ndarray) -> np.ndarray:
    """``(tp, pred, true, n_pred, n_true)`` of each selected label, shape
    ``(5, n_selected)``."""
    stats = np.zeros((5, p.columns.shape[0]))
    if p.unit and not (sp.issparse(p.scores) or sp.issparse(p.y)):
        # counts, exact in any order: whole blocks of labels at once
        for begin in range(0, p.columns.shape[0], _BLOCK):
            block = p.columns[begin : begin + _BLOCK]
            predicted = p.scores[:, block] > thresholds[block]
            truth = p.y[:, block]
            hits = np.count_nonzero(predicted & truth, axis=0)
            n_pred = np.count_nonzero(predicted, axis=0)
            n_true = np.count_nonzero(truth, axis=0)
            stats[:, begin : begin + _BLOCK] = (hits, n_pred, n_true, n_pred, n_true)
        return stats
    w = p.weight
    for i, l in enumerate(p.columns):
        predicted = _predicted(p, int(l), float(thresholds[l]))
        truth = p.column(int(l))[2]
        stats[:, i] = (
            w[predicted & truth].sum(),
            w[predicted].sum(),
            w[truth].sum(),
            p.positive[predicted].sum(),
            p.positive[truth].sum(),
        )
    return stats


def _label_terms(
    p: MultilabelProblem, stats: np.ndarray, objective: Objective
) -> np.ndarray:
    tp, pred, true, n_pred, n_true = stats
    return objective.terms(tp, pred, true, n_pred, n_true, p.avg_weight(true))


def _sample_counts(
    p: MultilabelProblem, thresholds: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-sample ``(tp, pred, true)`` over the selected labels."""
    n = p.weight.shape[0]
    tp, pred, true = np.zeros(n), np.zeros(n), np.zeros(n)
    for l in p.columns:
        predicted = _predicted(p, int(l), float(thresholds[l]))
        truth = p.column(int(l))[2]
        tp += predicted & truth
        pred += predicted
        true += truth
    return tp, pred, true


def score_thresholds(
    p: MultilabelProblem,
    thresholds: np.ndarray,
    objective: Objective | None = None,
) -> float:
    """The objective (by default the problem's) of a threshold vector."""
    objective = objective or p.objective
    if objective.average == "samples":
        tp, pred, true = _sample_counts(p, thresholds)
        terms = objective.terms(tp, pred, true, pred, true, p.weight)
    else:
        terms = _label_terms(p, label_stats(p, thresholds), objective)
    return float(objective.value(terms.sum(axis=0)))


def default_thresholds(scores: Any) -> np.ndarray:
    """0.5 for probabilities, 0 for other scores (decision functions)."""
    values = scores.data if sp.issparse(scores) else scores
    probabilities = values.size == 0 or (values.min() >= 0 and values.max() <= 1)
    return np.full(scores.shape[1], 0.5 if probabilities else 0.0)


@dataclass
class MultilabelResult:
    thresholds: np.ndarray
    objective: float
    candidates: list[tuple[str, float, float]]
    n_sweeps: int


def tune_multilabel(
    p: MultilabelProblem,
    *,
    max_iter: int,
    tol: float,
    start: np.ndarray | None = None,
) -> MultilabelResult:
    """Per-label thresholds (macro, weighted) or one shared threshold (micro,
    samples), started from the default thresholds or from ``start`` (the
    better of the two)."""
    exact = p.objective.exact()
    default = default_thresholds(p.scores)
    value = score_thresholds(p, default)
    candidates = [("default", value, score_thresholds(p, default, exact))]
    silent = p.never_positive()
    begin = default
    if start is not None:
        started = score_thresholds(p, start)
        candidates.append(("start", started, score_thresholds(p, start, exact)))
        if started > value:
            begin, value = start, started
    if silent.shape[0]:
        begin = p.silenced(begin, silent)
        value = score_thresholds(p, begin)
    if p.objective.average in ("micro", "samples"):
        thresholds, best = _shared_threshold(p, default)
        if silent.shape[0]:
            thresholds = p.silenced(thresholds, silent)
            best = score_thresholds(p, thresholds)
        candidates.append(
            ("shared threshold", best, score_thresholds(p, thresholds, exact))
        )
        if not best > value:
            thresholds, best = begin, value
        return MultilabelResult(thresholds, best, candidates, 1)
    return _per_label(p, begin, candidates, max_iter=max_iter, tol=tol, skip=silent)


def _per_label(
    p: MultilabelProblem,
    thresholds: np.ndarray,
    candidates: list[tuple[str, float, float]],
    *,
    max_iter: int,
    tol: float,
    skip: np.ndarray,
) -> MultilabelResult:
    """Coordinate ascent over the labels' thresholds (those of ``skip`` are
    left as they are)."""
    thresholds = thresholds.copy()
    obj = p.objective
    exact = obj.exact()
    columns = [int(l) for l in p.columns]
    fixed = set(skip.tolist())
    terms = _label_terms(p, label_stats(p, thresholds), obj)
    total = terms.sum(axis=0)
    # averaged F-beta with a numeric zero_division is a fixed-weight sum over
    # labels: one sweep reaches its optimum
    separable = obj.formula == "averaged" and not np.isnan(obj.fill)
    sweeps = 0
    value = float(obj.value(total))
    for sweep in range(max_iter):
        before = value
        for i, l in enumerate(columns):
            if l in fixed:
                continue
            upper, lower, cum, (true, n_true) = p.label_curve(l)
            g = cum.shape[1]
            # the label's true counts: the same at every cut
            true_l, n_true_l = np.asarray(true), np.asarray(n_true)
            curve = obj.terms(
                cum[0], cum[1], true_l, cum[2], n_true_l, p.avg_weight(true_l)
            )
            rest = total - terms[i]
            values = obj.value(rest + curve)
            r_now = int(np.searchsorted(-upper, -thresholds[l], side="left"))
            r, best = _nearest_best(values, min(r_now, g - 1))
            if best > value:
                thresholds[l] = cut_threshold(upper, lower, r)
                terms[i] = curve[r]
                total = rest + curve[r]
                value = float(obj.value(total))
        sweeps = sweep + 1
        candidates.append(
            (f"sweep {sweeps}", value, score_thresholds(p, thresholds, exact))
        )
        if separable or not value > before + tol:
            break
    return MultilabelResult(thresholds, value, candidates, sweeps)


def _pooled(
    p: MultilabelProblem,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The entries of the selected labels: their rows, scores, and the true and
    predicted label counts each adds to its row when predicted. With sparse scores,
    the unstored entries of a row (score 0) are one entry of score 0 carrying their
    counts, so that thresholds below 0 are scored as on the dense matrix."""
    if not sp.issparse(p.scores):
        n = p.weight.shape[0]
        dtype = np.int32 if n < 2**31 else np.intp
        rows = np.tile(np.arange(n, dtype=dtype), p.columns.shape[0])
        values = p.scores[:, p.columns].ravel(order="F")
        truth = p.y[:, p.columns]
        truth = truth.toarray() if sp.issparse(truth) else truth
        hits = np.asarray(truth != 0).ravel(order="F").astype(np.float64)
        return rows, values, hits, np.ones(values.shape[0])
    parts = [p.column(int(l)) for l in p.columns]
    n = p.weight.shape[0]
    stored = np.zeros(n)
    stored_true = np.zeros(n)
    all_true = np.zeros(n)
    for r, _, truth in parts:
        stored[r] += 1.0  # a column's rows are distinct
        stored_true[r] += truth[r]
        all_true += truth
    missing = p.columns.shape[0] - stored
    unstored = np.flatnonzero(missing > 0)
    rows = np.concatenate([r for r, _, _ in parts if r is not None] + [unstored])
    values = np.concatenate([v for _, v, _ in parts] + [np.zeros(unstored.shape[0])])
    hits = np.concatenate(
        [truth[r].astype(np.float64) for r, _, truth in parts if r is not None]
        + [(all_true - stored_true)[unstored]]
    )
    counts = np.ones(rows.shape[0])
    counts[rows.shape[0] - unstored.shape[0] :] = missing[unstored]
    return rows, values, hits, counts


def _shared_threshold(
    p: MultilabelProblem, start: np.ndarray
) -> tuple[np.ndarray, float]:
    """The best single threshold for every selected label (micro, samples)."""
    obj = p.objective
    if obj.average == "samples" and not sp.issparse(p.scores):
        upper, lower, values_r = _dense_samples_curve(p)
        r, _ = _nearest_best(values_r, 0)
        return _shared(p, start, cut_threshold(upper, lower, r))
    rows, values, hit, count = _pooled(p)
    if obj.average == "micro":
        if p.unit:
            upper, lower, cum = _unit_curve(values, hit, count)
        else:
            w = p.weight[rows]
            moves = np.stack((w * hit, w * count, p.positive[rows] * count))
            upper, lower, cum = _curve(values, moves)
        _, _, true_w, _, n_true = label_stats(p, start).sum(axis=1)
        r, _ = _nearest_best(obj.micro_value(cum[0], cum[1], true_w, cum[2], n_true), 0)
    else:  # samples: each entry changes the counts of its sample
        upper, lower, values_r = _samples_curve(p, rows, values, hit, count)
        r, _ = _nearest_best(values_r, 0)
    return _shared(p, start, cut_threshold(upper, lower, r))


def _shared(
    p: MultilabelProblem, start: np.ndarray, theta: float
) -> tuple[np.ndarray, float]:
    """``theta`` for every selected label, and the objective of the result."""
    thresholds = start.copy()
    thresholds[p.columns] = theta
    return thresholds, score_thresholds(p, thresholds)


def _samples_curve(
    p: MultilabelProblem,
    rows: np.ndarray,
    values: np.ndarray,
    hit: np.ndarray,
    count: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The samples-averaged objective of every shared threshold, entry by entry
    in decreasing score, the per-sample counts updated by grouped cumulative
    sums."""
    obj = p.objective
    n = p.weight.shape[0]
    order = np.argsort(-values, kind="stable")
    keys, srows = values[order], rows[order]
    moves = np.stack((hit[order], count[order]))
    m = keys.shape[0]
    _, _, true_s = _sample_counts(p, np.full(p.n_labels, np.inf))
    zero = np.zeros(n)
    total = obj.terms(zero, zero, true_s, zero, true_s, p.weight).sum(axis=0)
    # running (tp, pred) of each entry's sample, just after the entry joins
    by_sample = np.argsort(srows, kind="stable")
    ss = srows[by_sample]
    running = np.cumsum(np.take(moves, by_sample, axis=1), axis=1)
    first = np.flatnonzero(np.r_[True, ss[1:] != ss[:-1]])
    offset = np.zeros((2, first.shape[0]))
    offset[:, 1:] = running[:, first[1:] - 1]
    group = np.repeat(np.arange(first.shape[0]), np.diff(np.r_[first, m]))
    after = np.empty_like(running)
    after[:, by_sample] = running - offset[:, group]
    before = after - moves
    t, wt = true_s[srows], p.weight[srows]
    delta = obj.terms(after[0], after[1], t, after[1], t, wt) - obj.terms(
        before[0], before[1], t, before[1], t, wt
    )
    sums = np.empty((m + 1, total.shape[0]))
    sums[0] = 0.0
    np.cumsum(delta, axis=0, out=sums[1:])
    sums += total
    # one candidate per group of equal scores: the cut after its last entry
    start, ends = _groups(keys)
    cuts = np.r_[0, ends]
    upper = keys[start]
    lower = keys[ends - 1]
    return upper, lower, obj.value(sums[cuts])


def _dense_samples_curve(
    p: MultilabelProblem,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_samples_curve` of dense scores, without sorting the pooled
    entries by sample: each sample's scores are sorted within its row (short
    sorts), which gives its counts after each of its entries joins, hence each
    entry's change of its sample's terms; the changes are added up per group of
    equal pooled scores. A sample's change within one group is taken from its
    counts before and after the group, which do not depend on the order of its
    entries: neither sort needs to be stable, and the curve is the same bit for
    bit whatever the order of the label columns."""
    obj = p.objective
    n, n_labels = p.weight.shape[0], p.columns.shape[0]
    values = p.scores[:, p.columns].ravel(order="F")  # the labels one by one
    order = np.argsort(-values)
    keys = values[order]
    start, ends = _groups(keys)
    g = start.shape[0]
    group = np.empty(values.shape[0], dtype=np.int32 if g < 2**31 else np.intp)
    group[order] = np.repeat(np.arange(g, dtype=group.dtype), ends - start)
    del order
    group = group.reshape(n_labels, n)  # [label, sample]
    truth = p.y[:, p.columns]
    truth = np.asarray(truth.toarray() if sp.issparse(truth) else truth) != 0
    true_s = np.count_nonzero(truth, axis=1).astype(np.float64)
    zero = np.zeros(n)
    total = obj.terms(zero, zero, true_s, zero, true_s, p.weight).sum(axis=0)
    # each term's changes added up per group of equal pooled scores, chunk by
    # chunk in the order of the entries (``np.add.at`` adds in order, as
    # ``np.bincount`` would over all of them; a chunk of zeros adds nothing),
    # so that the changes of all the entries are never held at once
    per_group: dict[int, np.ndarray] = {}
    pred = np.arange(n_labels + 1, dtype=np.float64)
    step = max(1, _CHUNK // n_labels)
    for begin in range(0, n, step):
        rows = slice(begin, begin + step)
        scores = np.ascontiguousarray(p.scores[rows][:, p.columns])
        by_score = np.argsort(-scores, axis=1)
        b = by_score.shape[0]
        hits = np.take_along_axis(np.ascontiguousarray(truth[rows]), by_score, axis=1)
        tp = np.zeros((b, n_labels + 1))
        np.cumsum(hits, axis=1, out=tp[:, 1:])
        t = true_s[rows, None]
        terms = obj.terms(tp, pred, t, pred, t, p.weight[rows, None])
        terms = terms.transpose(2, 0, 1)  # (n_terms, b, n_labels + 1)
        in_row = group[by_score, np.arange(begin, begin + b)[:, None]]
        # a sample's entries of one group are a run of its sorted row: the run
        # changes the terms once, at its last entry, by the terms after the run
        # minus those before it (counts at a run's ends, whatever the order
        # within the run), so the sums do not depend on the order of ties
        last = np.ones((b, n_labels), dtype=bool)
        np.not_equal(in_row[:, :-1], in_row[:, 1:], out=last[:, :-1])
        first = np.ones((b, n_labels), dtype=bool)
        first[:, 1:] = last[:, :-1]
        before = np.where(first, np.arange(n_labels), 0)
        np.maximum.accumulate(before, axis=1, out=before)
        delta = terms[:, :, 1:] - np.take_along_axis(terms, before[None], axis=2)
        delta *= last
        for c in range(obj.n_terms):
            if delta[c].any():  # (whether a ratio is defined rarely changes)
                if c not in per_group:
                    per_group[c] = np.zeros(g)
                np.add.at(per_group[c], in_row.ravel(), delta[c].ravel())
    del group
    # the objective of every cut (cut 0: nothing predicted), a block of cuts at
    # a time; a term that no entry changes keeps its sum at no prediction
    cumulative = {}
    for c, changes in per_group.items():
        cumulative[c] = np.zeros(g + 1)
        np.cumsum(changes, out=cumulative[c][1:])
    del per_group
    values = np.empty(g + 1)
    for begin in range(0, g + 1, _CHUNK):
        cuts = slice(begin, begin + _CHUNK)
        sums = np.zeros((values[cuts].shape[0], obj.n_terms))
        for c, running in cumulative.items():
            sums[:, c] = running[cuts]
        sums += total
        values[cuts] = obj.value(sums)
    return keys[start], keys[ends - 1], values
