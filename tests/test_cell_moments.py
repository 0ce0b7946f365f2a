"""Intervals of records of many classes (labels): above the dense limits the
record keeps the occupied cells of its confusion matrix and second moments,
and its intervals equal those of one in-memory call."""

from __future__ import annotations

import pickle
import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

from sklearn_macrof1 import (
    MacroF1Accumulator,
    MacroF1Counts,
    classification_report,
    fbeta_confidence_interval,
)

#: The dense limits MacroF1Counts documents: its confusion matrix is dense up to
#: 2048 classes (above, the occupied cells), its multilabel second moments up to
#: 256 columns (above, the occupied entries).
DENSE_CLASSES = 2048
DENSE_MOMENT_LABELS = 256
K = 3_000  # above the 2048 classes of a dense confusion matrix
L = 300  # above the 256 labels of dense multilabel moments


def _labels(n=6_000, k=K, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    p = np.where(rng.random(n) < 0.6, y, rng.integers(0, k, n))
    return y, p, rng.uniform(0.2, 3.0, n)


def _multilabel(n=400, width=L, seed=1):
    rng = np.random.default_rng(seed)
    y = (rng.random((n, width)) < 0.05).astype(int)
    p = np.where(rng.random((n, width)) < 0.9, y, 1 - y)
    return y, p, rng.uniform(0.2, 3.0, n)


def same_interval(a, b, rtol=1e-12) -> None:
    assert (a.average, a.method, a.n_samples) == (b.average, b.method, b.n_samples)
    for name in ("averaged_fbeta", "fbeta_of_averages"):
        x, y = getattr(a, name), getattr(b, name)
        np.testing.assert_allclose(
            [x.estimate, x.low, x.high, x.std_error],
            [y.estimate, y.low, y.high, y.std_error],
            rtol=rtol,
            atol=0,
        )


@pytest.mark.parametrize("average", ["macro", "weighted", "micro"])
def test_accumulator_of_many_classes_gives_the_in_memory_interval(average):
    y, p, _ = _labels()
    acc = MacroF1Accumulator(keep="cells")
    for start in range(0, y.shape[0], 1_500):
        acc.update(y[start : start + 1_500], p[start : start + 1_500])
    counts = acc.counts
    assert counts.n_classes > DENSE_CLASSES
    assert isinstance(counts.confusion, sp.csr_array)
    options = {"average": average, "zero_division": 0.0}
    same_interval(
        fbeta_confidence_interval(counts, **options),
        fbeta_confidence_interval(y, p, **options),
    )


def test_report_of_an_accumulator_of_many_classes_has_the_in_memory_intervals():
    y, p, _ = _labels(seed=2)
    acc = MacroF1Accumulator(keep="cells")
    acc.update(y[:3_000], p[:3_000]).update(y[3_000:], p[3_000:])
    options = {"confidence": 0.9, "output_dict": True, "zero_division": 0.0}
    streamed = classification_report(acc.counts, **options)
    direct = classification_report(y, p, **options)
    for row in ("macro avg", "weighted avg"):
        for key in ("f1-score-ci", "f1-of-averages-ci"):
            np.testing.assert_allclose(streamed[row][key], direct[row][key], rtol=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("average", ["macro", "weighted", "micro"])
def test_weighted_record_of_many_classes_gives_the_in_memory_interval(average):
    y, p, w = _labels(seed=3)
    whole = MacroF1Counts.from_predictions(y, p, sample_weight=w, moments=True)
    assert isinstance(whole.moments, sp.csr_array)
    # halves that see different classes, merged in either order
    first = y < K // 2
    a, b = (
        MacroF1Counts.from_predictions(y[m], p[m], sample_weight=w[m], moments=True)
        for m in (first, ~first)
    )
    expected = fbeta_confidence_interval(
        y, p, sample_weight=w, average=average, zero_division=0.0
    )
    for counts in (whole, a + b, b + a, sum([b, a])):
        same_interval(
            fbeta_confidence_interval(counts, average=average, zero_division=0.0),
            expected,
        )
    merged = a + b
    np.testing.assert_allclose(
        merged.confusion.toarray(), whole.confusion.toarray(), rtol=1e-12
    )
    np.testing.assert_allclose(
        merged.moments.toarray(), whole.moments.toarray(), rtol=1e-12
    )


def test_dense_records_merge_into_occupied_cells_above_the_limit():
    """Two records of 1,500 classes each (dense) whose union has 3,000: the
    merged record keeps the cells (no 3,000 x 3,000 array) and its interval."""
    y, p, w = _labels(seed=4)
    first = (y < K // 2) & (p < K // 2)
    second = (y >= K // 2) & (p >= K // 2)
    keep = first | second
    y, p, w = y[keep], p[keep], w[keep]
    first, second = first[keep], second[keep]
    a, b = (
        MacroF1Counts.from_predictions(y[m], p[m], sample_weight=w[m], moments=True)
        for m in (first, second)
    )
    assert isinstance(a.confusion, np.ndarray) and isinstance(b.moments, np.ndarray)
    merged = a + b
    assert merged.n_classes > DENSE_CLASSES
    assert isinstance(merged.confusion, sp.csr_array)
    assert isinstance(merged.moments, sp.csr_array)
    whole = MacroF1Counts.from_predictions(y, p, sample_weight=w, moments=True)
    np.testing.assert_allclose(
        merged.confusion.toarray(), whole.confusion.toarray(), rtol=1e-12
    )
    same_interval(
        fbeta_confidence_interval(merged, zero_division=0.0),
        fbeta_confidence_interval(y, p, sample_weight=w, zero_division=0.0),
    )


def test_records_of_occupied_cells_pickle_and_compare():
    y, p, w = _labels(seed=5)
    counts = MacroF1Counts.from_predictions(y, p, sample_weight=w, moments=True)
    again = pickle.loads(pickle.dumps(counts))
    assert again == counts
    assert isinstance(again.confusion, sp.csr_array)
    other = MacroF1Counts.from_predictions(y, p[::-1], sample_weight=w, moments=True)
    assert other != counts
    # a sparse table never equals a dense one, even of the same values
    dense = MacroF1Counts(
        counts.kind,
        counts.classes,
        counts.tp,
        counts.true,
        counts.pred,
        counts.confusion.toarray(),
        n_samples=counts.n_samples,
        moments=counts.moments,
        weighted=True,
    )
    assert dense != counts


@pytest.mark.parametrize("n", [6_000, 60_000])  # each sample drawn; binomials
def test_bootstrap_of_many_classes_redraws_the_occupied_cells(n):
    """In memory and from a record the bootstrap redraws the same cells: the
    same replicates for the same random_state, distributed as a resample of
    the samples (few samples per cell: each sample drawn; many: binomials
    over the cells)."""
    y, p, _ = _labels(n=n, seed=6)
    if n > 6_000:  # most predictions right: many samples per occupied cell
        p = np.where(np.random.default_rng(8).random(n) < 0.95, y, p)
    # the bootstrap's switch from drawing each sample to drawing binomials per
    # cell has no public face: this checks that both sizes reach their path
    from sklearn_macrof1._stats._intervals import _PER_CELL

    cells = MacroF1Counts.from_predictions(y, p).confusion.nnz
    assert (n > _PER_CELL * cells) == (n > 6_000)
    options = {"method": "bootstrap", "n_resamples": 40, "random_state": 0}
    direct = fbeta_confidence_interval(y, p, zero_division=0.0, **options)
    acc = MacroF1Accumulator(keep="cells")
    acc.update(y[:2_000], p[:2_000]).update(y[2_000:], p[2_000:])
    streamed = fbeta_confidence_interval(acc.counts, zero_division=0.0, **options)
    assert isinstance(acc.counts.confusion, sp.csr_array)
    same_interval(streamed, direct, rtol=0)
    assert direct.averaged_fbeta.low < direct.averaged_fbeta.estimate
    # the same distribution as a resample of the samples (unit weights redraw
    # every sample)
    samples = fbeta_confidence_interval(
        y, p, sample_weight=np.ones(y.shape[0]), zero_division=0.0, **options
    )
    for name in ("averaged_fbeta", "fbeta_of_averages"):
        cells, each = getattr(direct, name), getattr(samples, name)
        assert cells.std_error == pytest.approx(each.std_error, rel=0.3)


def test_bootstrap_of_many_classes_draws_in_bounded_memory(monkeypatch):
    """Blocks of replicates whose drawn cells stay within _DRAWN entries."""
    # the bootstrap's block size (_DRAWN) has no public face: made small here
    from sklearn_macrof1._stats import _intervals

    monkeypatch.setattr(_intervals, "_DRAWN", 1 << 14)
    y, p, _ = _labels(n=20_000, seed=7)
    counts = MacroF1Counts.from_predictions(y, p)
    cells = counts.confusion.nnz
    options = {"method": "bootstrap", "n_resamples": 64, "random_state": 0}
    tracemalloc.start()
    try:
        fbeta_confidence_interval(counts, zero_division=0.0, **options)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # 64 replicates of ~cells float64 at once would take 64 * cells * 8 bytes
    assert peak < 64 * cells * 8 / 2, (peak, cells)


@pytest.mark.slow
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("average", ["macro", "micro", "weighted"])
def test_multilabel_record_of_many_labels_gives_the_in_memory_interval(
    weighted, average
):
    y, p, w = _multilabel()
    w = w if weighted else None
    whole = MacroF1Counts.from_predictions(y, p, sample_weight=w, moments=True)
    assert whole.n_classes > DENSE_MOMENT_LABELS
    assert isinstance(whole.moments, sp.csr_array)
    halves = [
        MacroF1Counts.from_predictions(
            y[s], p[s], sample_weight=None if w is None else w[s], moments=True
        )
        for s in (slice(0, 150), slice(150, None))
    ]
    expected = fbeta_confidence_interval(
        y, p, sample_weight=w, average=average, zero_division=0.0
    )
    for counts in (whole, halves[0] + halves[1], halves[1] + halves[0]):
        same_interval(
            fbeta_confidence_interval(counts, average=average, zero_division=0.0),
            expected,
        )
    merged = halves[0] + halves[1]
    assert isinstance(merged.moments, sp.csr_array)
    np.testing.assert_allclose(
        merged.moments.toarray(), whole.moments.toarray(), rtol=1e-12
    )
    again = pickle.loads(pickle.dumps(whole))
    assert again == whole


@pytest.mark.parametrize(
    ("data", "k"),
    [("weighted", 5), ("weighted", K), ("multilabel", 7), ("multilabel", L)],
)
def test_accumulator_with_moments_gives_the_in_memory_weighted_and_multilabel_interval(
    data, k
):
    """``MacroF1Accumulator(keep="moments")``: the delta interval of weighted
    and multilabel streams, below and above the dense limits, is that of one
    call; without moments it is refused with a message naming the option."""
    if data == "weighted":
        y, p, w = _labels(k=k)
    else:
        y, p, w = _multilabel(width=k)
        w = None
    acc = MacroF1Accumulator(keep="moments")
    plain = MacroF1Accumulator(keep="cells")
    for start in range(0, y.shape[0], 1_000):
        part = slice(start, start + 1_000)
        for each in (acc, plain):
            each.update(y[part], p[part], None if w is None else w[part])
    same_interval(
        fbeta_confidence_interval(acc.counts, zero_division=0.0),
        fbeta_confidence_interval(y, p, sample_weight=w, zero_division=0.0),
    )
    copy = pickle.loads(pickle.dumps(acc))
    assert copy.keep == "moments" and copy.counts.moments is not None
    with pytest.raises(ValueError, match=r"MacroF1Accumulator\(keep='moments'\)"):
        fbeta_confidence_interval(plain.counts, zero_division=0.0)


def test_accumulator_keep_is_one_of_its_levels():
    for bad in ("yes", True, ("cells",)):
        with pytest.raises(ValueError, match="'keep' parameter of MacroF1Accumulator"):
            MacroF1Accumulator(keep=bad)
    assert "keep='moments'" in repr(MacroF1Accumulator(keep="moments"))
    assert "keep" not in repr(MacroF1Accumulator())


def test_accumulator_with_moments_counts_weighted_tensor_batches():
    torch = pytest.importorskip("torch")
    y, p, w = _labels(n=600, k=6)
    acc = MacroF1Accumulator(labels=range(6), keep="moments")
    for start in range(0, 600, 200):
        part = slice(start, start + 200)
        acc.update(*(torch.from_numpy(a[part]) for a in (y, p, w)))
    same_interval(
        fbeta_confidence_interval(acc.counts, zero_division=0.0),
        fbeta_confidence_interval(y, p, sample_weight=w, zero_division=0.0),
    )


@pytest.mark.parametrize("radix", [True, False])
def test_occupied_cells_sum_each_cell_in_sample_order(monkeypatch, radix):
    """The occupied cells (by radix sorts of the class positions, or by a sort
    of the joint codes above 65,536 classes) are the cells and sums of
    sklearn's confusion matrix, each weight summed in sample order."""
    from sklearn.metrics import confusion_matrix

    # the occupied-cells counting kernel has no public face (a record of 53
    # classes keeps a dense matrix): fed the targets directly; radix=False
    # forces its sort of the joint codes by a smaller limit
    from sklearn_macrof1._counting import _kernels
    from sklearn_macrof1._read._targets import read_targets

    if not radix:
        monkeypatch.setattr(_kernels, "_RADIX_CLASSES", 16)
    y, p, w = _labels(n=5_000, k=40, seed=9)
    y, p = y * 7 % 53, p * 11 % 53  # positions and codes in another order
    targets = read_targets(y, p)
    cells, squares = _kernels.occupied_cells(targets, w, squares=True)
    classes = np.unique(np.concatenate([y, p]))
    joint = np.searchsorted(classes, y) * classes.size + np.searchsorted(classes, p)
    found, inverse = np.unique(joint, return_inverse=True)
    for table, weights in ((cells, w), (squares, w * w)):
        assert isinstance(table, sp.csr_array)
        dense = np.zeros(classes.size**2)
        dense[found] = np.bincount(inverse, weights=weights)
        np.testing.assert_array_equal(table.toarray().reshape(-1), dense)
        assert table.nnz == found.size
    expected = confusion_matrix(y, p, labels=classes)
    np.testing.assert_array_equal(
        _kernels.confusion_cells(targets, None).toarray(), expected
    )
