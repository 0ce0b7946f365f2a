"""Second moments in the count record: counted on request, merged, and the one
variance formula of the delta method that reads them."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

import sklearn_macrof1 as mf

# Units without a public face: the counting core's encoding of labels (its own
# codes) and its spy point, the per-sample histogram (SampleCounts), the one
# variance formula of the delta method (moment_variance), and the evaluation's
# choice between the moments and a per-sample design.
from sklearn_macrof1._counting import _record
from sklearn_macrof1._counting._kernels import MAX_CONFUSION_CLASSES, SampleCounts
from sklearn_macrof1._counting._record import Reading, count_targets
from sklearn_macrof1._formulas._evaluation import check_options, read_for
from sklearn_macrof1._read._targets import read_targets
from sklearn_macrof1._stats._intervals import (
    evaluation_from,
    moment_variance,
)

#: MacroF1Counts documents its multilabel second moments as dense up to 256
#: columns, and their occupied entries (a csr_array) above.
DENSE_MOMENT_LABELS = 256


def _labels(n=2000, k=4, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    return y, np.where(rng.random(n) < 0.6, y, rng.integers(0, k, n))


def _multilabel(n=600, width=5, seed=1):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, (n, width))
    return y, np.where(rng.random((n, width)) < 0.7, y, 1 - y)


def _count(y, p, w=None, **options):
    return mf.MacroF1Counts.from_predictions(y, p, sample_weight=w, **options)


def _rows(y, p):
    """Each sample's (tp | true | pred) indicator row."""
    y, p = np.asarray(y, dtype=bool), np.asarray(p, dtype=bool)
    return np.hstack([y & p, y, p]).astype(np.float64)


def test_1d_moments_are_the_squared_weights_per_cell():
    y, p = _labels()
    w = np.random.default_rng(2).random(y.shape[0]) - 0.2  # negative ones too
    counts = _count(y, p, w, moments=True)
    expected = np.zeros((4, 4))
    np.add.at(expected, (y, p), w * w)
    np.testing.assert_allclose(counts.moments, expected, rtol=1e-12)
    # asked for only: plain counting, and unweighted counts (the confusion
    # matrix is its own second moment), carry none
    assert _count(y, p, w).moments is None
    assert _count(y, p, moments=True).moments is None


def test_1d_moments_follow_the_classes_present():
    y = np.array([0, 2, 2, 5, 5, 5])
    p = np.array([2, 2, 0, 5, 5, 0])
    w = np.array([1.0, 2.0, 3.0, 0.0, 4.0, 5.0])
    counts = _count(y, p, w, moments=True)
    assert counts.classes.tolist() == [0, 2, 5]
    np.testing.assert_allclose(
        counts.moments, [[0, 1, 0], [9, 4, 0], [25, 0, 16]], rtol=0
    )


def test_1d_moments_whenever_the_confusion_matrix_is_kept():
    """Small non-negative integers are their own codes: labels 0..4 and 2100
    give 2101 codes, 6 classes present. The record keeps the 6 x 6 confusion
    matrix, so it must keep their moments too (else a Dask chunk of this size
    has none, and a weighted delta interval of it is refused)."""
    n = 1_200_000  # enough samples for the codes-are-labels encoding of 2101
    rng = np.random.default_rng(8)
    y = rng.integers(0, 5, n)
    p = np.where(rng.random(n) < 0.6, y, rng.integers(0, 5, n))
    y[0], p[1] = 2100, 2100
    w = rng.random(n)
    assert read_targets(y, p).code_labels.shape[0] > MAX_CONFUSION_CLASSES
    counts = _count(y, p, w, moments=True)
    assert counts.classes.tolist() == [0, 1, 2, 3, 4, 2100]
    codes = np.searchsorted(counts.classes, [y, p])
    expected = np.zeros((6, 6))
    np.add.at(expected, (codes[0], codes[1]), w * w)
    np.testing.assert_allclose(counts.moments, expected, rtol=1e-12)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_multilabel_moments_are_the_outer_products(sparse, weighted):
    y, p = _multilabel(n=40_000)  # more rows than one block of the count
    w = np.random.default_rng(3).random(y.shape[0]) if weighted else None
    x = _rows(y, p)
    scaled = x if w is None else x * w[:, None]
    if sparse:
        y, p = sp.csr_matrix(y), sp.csr_matrix(p)
    counts = _count(y, p, w, moments=True)
    np.testing.assert_allclose(counts.moments, scaled.T @ scaled, rtol=1e-12)
    np.testing.assert_allclose(
        np.concatenate([counts.tp, counts.true, counts.pred]), scaled.sum(axis=0)
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sparse", "width"),
    [
        (False, DENSE_MOMENT_LABELS + 44),  # a dense product, kept as cells
        (True, DENSE_MOMENT_LABELS + 44),
        (False, 700),  # 2100 x 2100 would be dense: a sparse product
    ],
)
def test_multilabel_moments_above_the_dense_limit_are_the_occupied_entries(
    sparse, width
):
    """Dense up to DENSE_MOMENT_LABELS columns; above, a csr_array of the same
    values (no dense 3L x 3L array kept), for dense and sparse indicators."""
    y, p = _multilabel(n=20, width=DENSE_MOMENT_LABELS)
    shape = _count(y, p, moments=True).moments.shape
    assert shape == (3 * DENSE_MOMENT_LABELS, 3 * DENSE_MOMENT_LABELS)
    y, p = _multilabel(n=40, width=width)
    w = np.random.default_rng(3).random(40)
    x = _rows(y, p) * w[:, None]
    if sparse:
        y, p = sp.csr_matrix(y), sp.csr_matrix(p)
    moments = _count(y, p, w, moments=True).moments
    assert isinstance(moments, sp.csr_array)
    np.testing.assert_allclose(moments.toarray(), x.T @ x, rtol=1e-12)


def test_moments_merge_by_addition():
    y, p = _labels(seed=4)
    w = np.random.default_rng(5).random(y.shape[0])
    whole = _count(y, p, w, moments=True)
    # the halves see different classes: merged over the union of the labels
    first = (y < 2) & (p < 2)
    a = _count(y[first], p[first], w[first], moments=True)
    b = _count(y[~first], p[~first], w[~first], moments=True)
    assert a.n_classes == 2
    for merged in (a + b, b + a):
        np.testing.assert_allclose(merged.moments, whole.moments, rtol=1e-12)
    yl, pl = _multilabel()
    wl = w[: yl.shape[0]]
    whole = _count(yl, pl, wl, moments=True)
    merged = _count(yl[:250], pl[:250], wl[:250], moments=True) + _count(
        yl[250:], pl[250:], wl[250:], moments=True
    )
    np.testing.assert_allclose(merged.moments, whole.moments, rtol=1e-12)


def test_records_with_and_without_moments_merge_without_them():
    """Moments of some of the samples only would give a wrong variance: the
    merged record has none, and the delta method refuses it."""
    y, p = _labels(seed=6)
    w = np.linspace(0.5, 2.0, y.shape[0])
    with_moments = _count(y[:900], p[:900], w[:900], moments=True)
    without = _count(y[900:], p[900:], w[900:])
    for merged in (with_moments + without, without + with_moments):
        assert merged.moments is None
        with pytest.raises(ValueError, match="second moments"):
            mf.fbeta_confidence_interval(merged, method="delta")


def test_histograms_carry_the_squared_weights():
    rng = np.random.default_rng(7)
    tp = rng.integers(0, 3, 500)
    true, pred = tp + rng.integers(0, 2, 500), tp + rng.integers(0, 2, 500)
    w = rng.random(500)
    w[:20] = 0.0
    rows = SampleCounts(tp, true, pred, w)
    histogram = rows.histogram()
    assert histogram.weight2 is not None
    # each distinct triple: the sum of its samples' weights and squared weights
    for t in range(histogram.tp.shape[0]):
        triple = (histogram.tp[t], histogram.true[t], histogram.pred[t])
        mine = (tp == triple[0]) & (true == triple[1]) & (pred == triple[2])
        mine &= w != 0
        if triple == (0, 0, 0):  # the zero-weight samples count as (0, 0, 0)
            mine |= w == 0
        assert histogram.weight[t] == pytest.approx(w[mine].sum(), rel=1e-12)
        assert histogram.weight2[t] == pytest.approx((w[mine] ** 2).sum(), rel=1e-12)
    halves = SampleCounts(tp[:200], true[:200], pred[:200], w[:200]).merge(
        SampleCounts(tp[200:], true[200:], pred[200:], w[200:])
    )
    np.testing.assert_allclose(halves.weight2, histogram.weight2, rtol=1e-12)
    unweighted = SampleCounts(tp, true, pred, None).histogram()
    np.testing.assert_array_equal(unweighted.weight2, unweighted.count)
    # a histogram made without squared weights merges into one without them
    bare = SampleCounts(
        histogram.tp, histogram.true, histogram.pred, histogram.weight,
        histogram.count,
    )  # fmt: skip
    assert bare.merge(histogram).weight2 is None
    assert bare.moments() is None


def test_moment_variance_is_the_variance_of_the_sample_terms():
    rng = np.random.default_rng(8)
    x = rng.integers(0, 2, (300, 6)).astype(np.float64)
    w = rng.random(300) - 0.3
    c = rng.normal(size=(2, 6))
    u = (x @ c.T) * w[:, None]  # (samples, functionals)
    expected = (u * u).sum(axis=0) - u.sum(axis=0) ** 2 / 300
    z = x * w[:, None]
    got = moment_variance(c, z.sum(axis=0), z.T @ z, 300)
    np.testing.assert_allclose(got, expected, rtol=1e-12)
    # one entry per sample (a cell): the diagonal form
    cell = rng.integers(0, 6, 300)
    one_hot = np.eye(6)[cell] * w[:, None]
    u = one_hot @ c.T
    expected = (u * u).sum(axis=0) - u.sum(axis=0) ** 2 / 300
    first, second = one_hot.sum(axis=0), (one_hot**2).sum(axis=0)
    np.testing.assert_allclose(
        moment_variance(c, first, second, 300), expected, rtol=1e-12
    )


@pytest.mark.parametrize(
    ("multilabel", "average"),
    [
        (False, "macro"),
        (False, "weighted"),
        (False, "micro"),
        (True, "micro"),
        (True, "macro"),
        (True, "weighted"),
    ],
)
def test_weighted_delta_reads_the_moments_not_the_samples(multilabel, average):
    """The delta method builds no per-sample design when the record has its
    moments, and gives the variance the per-sample influences give."""
    y, p = _multilabel() if multilabel else _labels(seed=9)
    w = np.random.default_rng(10).random(y.shape[0]) * 2
    options = check_options(caller="test", average=average, beta=1.0, zero_division=0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reading = read_for(y, p, options, sample_weight=w, caller="t", moments=True)
        if multilabel:  # in memory the design is cheaper: only clusters count them
            assert reading.counts.moments is None
            assert (
                evaluation_from(reading, options, caller="t", method="delta").design
                is not None
            )
            targets = reading.targets
            assert targets is not None
            counts = count_targets(targets, reading.weights, moments=True)
            reading = Reading(counts, targets, reading.weights)
        from_moments = evaluation_from(reading, options, caller="t", method="delta")
        per_sample = evaluation_from(reading, options, caller="t", method="bootstrap")
    assert from_moments.design is None
    assert per_sample.design is not None
    np.testing.assert_allclose(
        from_moments.variances(), per_sample.variances(), rtol=1e-12
    )


def test_moments_are_counted_only_when_a_delta_interval_asks(monkeypatch):
    """Plain scoring (and the bootstrap) count no moments; delta intervals count
    them in their one counting pass."""
    asked: list[bool] = []
    original = _record.count_targets

    def spy(*args, **kwargs):
        asked.append(kwargs.get("moments", False))
        return original(*args, **kwargs)

    monkeypatch.setattr(_record, "count_targets", spy)
    y, p = _labels(seed=11)
    w = np.linspace(0.5, 2.0, y.shape[0])
    mf.averaged_f1_score(y, p, sample_weight=w)
    mf.fbeta_summary(y, p, sample_weight=w)
    mf.classification_report(y, p, sample_weight=w, output_dict=True)
    mf.fbeta_confidence_interval(
        y, p, sample_weight=w, method="bootstrap", n_resamples=20, random_state=0
    )
    assert asked == [False] * 4
    asked.clear()
    mf.fbeta_confidence_interval(y, p, sample_weight=w)
    mf.classification_report(y, p, sample_weight=w, confidence=0.9)
    assert asked == [True, True]
