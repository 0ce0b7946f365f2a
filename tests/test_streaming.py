"""The streaming accumulator gives exactly the one-call results.

Data split at random points into batches (some empty, some sparse) must give the
numbers, warnings and errors of one call on the concatenated data, for every
``average`` and ``zero_division``; merges are associative and order-independent;
accumulators pickle; a bad batch leaves the accumulated state unchanged; one
accumulator updated from several threads loses no sample.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import math
import pickle
import subprocess
import sys
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from sklearn_macrof1 import (
    MacroF1Accumulator,
    MacroF1Counts,
    averaged_f1_score,
    averaged_fbeta_score,
    classification_report,
    f1_of_averages_score,
    fbeta_of_averages_score,
    fbeta_summary,
)

# the accumulator's stack of records has no public face: its own measure of a
# record's merge cost orders the merges it checks
from sklearn_macrof1._results._accumulator import _size

AVERAGES_1D = (None, "micro", "macro", "weighted", "binary")
AVERAGES_ML = (None, "micro", "macro", "weighted", "samples")
ZERO_DIVISIONS = ("warn", 0.0, 1.0, np.nan)
SUMMARY_FIELDS = (
    "averaged_fbeta",
    "fbeta_of_averages",
    "gap",
    "precision",
    "recall",
    "class_precision",
    "class_recall",
    "class_fbeta",
    "support",
    "true_positives",
    "predicted",
)


def record(func: Any, *args: Any, **kwargs: Any) -> tuple:
    """("ok", value, warnings) or ("raise", type, message) of one call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = func(*args, **kwargs)
        except ValueError as exc:
            return ("raise", type(exc), str(exc))
    messages = sorted({(w.category.__name__, str(w.message)) for w in caught})
    return ("ok", value, messages)


def assert_close(a: Any, b: Any) -> None:
    np.testing.assert_allclose(
        np.asarray(a, dtype=float),
        np.asarray(b, dtype=float),
        rtol=1e-12,
        atol=1e-12,
        equal_nan=True,
    )


def assert_same_summary(streamed: Any, direct: Any, *, cells: bool = False) -> None:
    """Every figure of the summaries equal; the confusion matrix too when the
    stream kept it (``cells``; else, by default, the streamed summary has
    none)."""
    for name in SUMMARY_FIELDS:
        assert_close(getattr(streamed, name), getattr(direct, name))
    assert streamed.labels.tolist() == direct.labels.tolist()
    assert streamed.classes.tolist() == direct.classes.tolist()
    assert streamed.target_type == direct.target_type
    if direct.confusion_matrix is None or not cells:
        assert streamed.confusion_matrix is None
    else:
        assert_close(streamed.confusion_matrix, direct.confusion_matrix)


def assert_same_outcome(streamed: tuple, direct: tuple, *, cells: bool = False) -> None:
    assert streamed[0] == direct[0], (streamed, direct)
    if direct[0] == "raise":
        assert streamed[1] is direct[1]
        return
    assert streamed[2] == direct[2]  # the same warnings, word for word
    value, expected = streamed[1], direct[1]
    if hasattr(expected, "averaged_fbeta"):
        assert_same_summary(value, expected, cells=cells)
    elif isinstance(expected, dict):
        assert value.keys() == expected.keys()
        for key in expected:
            if isinstance(expected[key], dict):
                for column in expected[key]:
                    assert_close(value[key][column], expected[key][column])
            else:
                assert_close(value[key], expected[key])
    else:
        assert_close(value, expected)


def of_counts(verb: Any, acc: MacroF1Accumulator) -> Any:
    """``verb`` of the accumulator's record, read when called (reading an
    accumulator of zero weights raises, as the one-shot call does)."""
    return lambda *args, **kwargs: verb(acc.counts, *args, **kwargs)


def split(n: int, cuts: list[int]) -> list[slice]:
    points = [0, *sorted(min(c, n) for c in cuts), n]
    return [slice(a, b) for a, b in zip(points[:-1], points[1:], strict=True)]


def take(y: Any, part: slice) -> Any:
    return y[part]


def accumulate(
    y_true: Any,
    y_pred: Any,
    weights: Any,
    parts: list[slice],
    *,
    labels: Any = None,
    sparse_batches: tuple[bool, ...] = (),
    keep: str = "counts",
) -> MacroF1Accumulator:
    acc = MacroF1Accumulator(labels=labels, keep=keep)
    for i, part in enumerate(parts):
        t, p = take(y_true, part), take(y_pred, part)
        if i < len(sparse_batches) and sparse_batches[i] and t.ndim == 2:
            t, p = sp.csr_matrix(t), sp.csr_matrix(p)
        w = None if weights is None else weights[part]
        acc.update(t, p, sample_weight=w)
    return acc


def check_every_average(
    acc: MacroF1Accumulator,
    y_true: Any,
    y_pred: Any,
    weights: Any,
    *,
    labels: Any,
    averages: tuple,
) -> None:
    """Summary and all four scores, every average and zero_division (the
    summary's confusion matrix where the stream kept it)."""
    cells = acc.keep != "counts"
    for average in averages:
        for zero_division in ZERO_DIVISIONS:
            options = {
                "labels": labels,
                "average": average,
                "zero_division": zero_division,
            }
            assert_same_outcome(
                record(of_counts(fbeta_summary, acc), beta=2.0, **options),
                record(
                    fbeta_summary,
                    y_true,
                    y_pred,
                    beta=2.0,
                    sample_weight=weights,
                    **options,
                ),
                cells=cells,
            )
            for method, function in (
                (of_counts(averaged_f1_score, acc), averaged_f1_score),
                (of_counts(f1_of_averages_score, acc), f1_of_averages_score),
            ):
                assert_same_outcome(
                    record(method, **options),
                    record(function, y_true, y_pred, sample_weight=weights, **options),
                )
    for method, function in (
        (of_counts(averaged_fbeta_score, acc), averaged_fbeta_score),
        (of_counts(fbeta_of_averages_score, acc), fbeta_of_averages_score),
    ):
        assert_same_outcome(
            record(method, beta=0.5, labels=labels),
            record(
                function,
                y_true,
                y_pred,
                beta=0.5,
                labels=labels,
                sample_weight=weights,
            ),
        )
    for zero_division in ("warn", 0.0):
        assert_same_outcome(
            record(
                of_counts(classification_report, acc),
                output_dict=True,
                zero_division=zero_division,
            ),
            record(
                classification_report,
                y_true,
                y_pred,
                labels=labels,
                sample_weight=weights,
                output_dict=True,
                zero_division=zero_division,
            ),
        )


# -- strategies ---------------------------------------------------------------

WEIGHTS = st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0])  # exact sums in any order


def _weights(draw: Any, n: int, nonzero: bool) -> np.ndarray | None:
    """None, or n weights; ``nonzero``: at least one of them is not zero (a
    stream of zero weights only is refused by design, as one call refuses it)."""
    if not draw(st.booleans()):
        return None
    weights = np.array(draw(st.lists(WEIGHTS, min_size=n, max_size=n)))
    if nonzero and not weights.any():
        weights[draw(st.integers(0, n - 1))] = draw(st.sampled_from([0.5, 1.0, 2.0]))
    return weights


@st.composite
def one_d_data(draw: Any, nonzero_weights: bool = False) -> tuple:
    n = draw(st.integers(1, 30))
    k = draw(st.integers(1, 4))
    names = draw(
        st.sampled_from([np.arange(k) * 3 - 2, np.array(["ant", "bee", "cat", "dog"])])
    )[:k]
    y_true = names[draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))]
    y_pred = names[draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))]
    weights = _weights(draw, n, nonzero_weights)
    cuts = draw(st.lists(st.integers(0, n), max_size=4))
    labels = None
    if draw(st.booleans()):  # fixed up front: every label, plus maybe an absent one
        extra = ["eel"] if names.dtype.kind == "U" else [99]
        universe = list(np.unique(np.concatenate([y_true, y_pred])).tolist())
        universe += extra if draw(st.booleans()) else []
        labels = draw(st.permutations(universe))
    return y_true, y_pred, weights, split(n, cuts), labels


@st.composite
def multilabel_data(draw: Any, nonzero_weights: bool = False) -> tuple:
    n = draw(st.integers(1, 25))
    m = draw(st.integers(2, 4))
    cells = st.lists(st.booleans(), min_size=n * m, max_size=n * m)
    y_true = np.array(draw(cells)).reshape(n, m)
    y_pred = np.array(draw(cells)).reshape(n, m)
    weights = _weights(draw, n, nonzero_weights)
    cuts = draw(st.lists(st.integers(0, n), max_size=4))
    sparse_batches = tuple(draw(st.lists(st.booleans(), min_size=5, max_size=5)))
    labels = None
    if draw(st.booleans()):
        labels = draw(st.lists(st.integers(0, m - 1), min_size=1, max_size=m))
    return y_true, y_pred, weights, split(n, cuts), labels, sparse_batches


# -- exactness ----------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=40)
@given(one_d_data(), st.sampled_from(["counts", "cells"]))
def test_batches_equal_one_call_1d(data: tuple, keep: str) -> None:
    y_true, y_pred, weights, parts, labels = data
    acc = accumulate(y_true, y_pred, weights, parts, labels=labels, keep=keep)
    assert acc.n_samples == len(y_true)
    check_every_average(
        acc, y_true, y_pred, weights, labels=labels, averages=AVERAGES_1D
    )


@pytest.mark.slow
@settings(max_examples=40)
@given(multilabel_data())
def test_batches_equal_one_call_multilabel(data: tuple) -> None:
    y_true, y_pred, weights, parts, labels, sparse_batches = data
    acc = accumulate(
        y_true, y_pred, weights, parts, labels=labels, sparse_batches=sparse_batches
    )
    check_every_average(
        acc, y_true, y_pred, weights, labels=labels, averages=AVERAGES_ML
    )


def test_binary_with_string_pos_label() -> None:
    y_true = np.array(["spam", "ham", "spam", "ham", "ham"])
    y_pred = np.array(["spam", "spam", "ham", "ham", "ham"])
    acc = (
        MacroF1Accumulator()
        .update(y_true[:2], y_pred[:2])
        .update(y_true[2:], y_pred[2:])
    )
    for pos_label in ("spam", "ham"):
        assert_same_outcome(
            record(
                of_counts(fbeta_summary, acc),
                average="binary",
                pos_label=pos_label,
            ),
            record(
                fbeta_summary, y_true, y_pred, average="binary", pos_label=pos_label
            ),
        )
    # A pos_label absent from the data: the one-call error.
    assert_same_outcome(
        record(of_counts(fbeta_summary, acc), average="binary", pos_label="eggs"),
        record(fbeta_summary, y_true, y_pred, average="binary", pos_label="eggs"),
    )


def test_negative_weights_match_one_call() -> None:
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 2, size=(40, 3)).astype(bool)
    y_pred = rng.integers(0, 2, size=(40, 3)).astype(bool)
    weights = rng.choice([-1.0, 0.0, 0.5, 2.0], size=40)
    weights[0] = 7.0  # keeps the total away from zero
    acc = MacroF1Accumulator()
    for part in split(40, [5, 17, 30]):
        acc.update(y_true[part], y_pred[part], sample_weight=weights[part])
    check_every_average(acc, y_true, y_pred, weights, labels=None, averages=AVERAGES_ML)
    labels_true, labels_pred = y_true.argmax(axis=1), y_pred.argmax(axis=1)
    acc = MacroF1Accumulator()
    for part in split(40, [3, 21]):
        acc.update(labels_true[part], labels_pred[part], sample_weight=weights[part])
    check_every_average(
        acc, labels_true, labels_pred, weights, labels=None, averages=AVERAGES_1D
    )


def test_samples_histogram_stays_small() -> None:
    """'samples' needs memory for distinct per-sample counts, not for samples."""
    rng = np.random.default_rng(1)
    acc = MacroF1Accumulator()
    y_true = rng.integers(0, 2, size=(20_000, 3)).astype(bool)
    y_pred = rng.integers(0, 2, size=(20_000, 3)).astype(bool)
    for part in split(20_000, list(range(1000, 20_000, 1000))):
        acc.update(y_true[part], y_pred[part])
    samples = acc.counts._samples
    assert samples is not None
    assert samples.tp.shape[0] <= 4**3  # (tp, true, pred) each in 0..3
    direct = fbeta_summary(y_true, y_pred, average="samples")
    assert_same_summary(fbeta_summary(acc.counts, average="samples"), direct)


def test_zero_weight_batches() -> None:
    """A batch may have only zero weights; the whole stream may not (one call)."""
    y_true, y_pred = np.array([0, 1, 2, 2]), np.array([0, 2, 2, 1])
    weights = np.array([0.0, 0.0, 1.0, 2.0])
    acc = MacroF1Accumulator().update(y_true[:2], y_pred[:2], sample_weight=[0, 0])
    acc.update(y_true[2:], y_pred[2:], sample_weight=weights[2:])
    direct = fbeta_summary(y_true, y_pred, sample_weight=weights, zero_division=0.0)
    assert_same_summary(fbeta_summary(acc.counts, zero_division=0.0), direct)
    assert acc.counts.classes.tolist() == [0, 1, 2]
    only_zero = MacroF1Accumulator().update([0, 1], [0, 0], sample_weight=[0, 0])
    with pytest.raises(ValueError, match="non-zero"):
        fbeta_summary(only_zero.counts)
    with pytest.raises(ValueError, match="non-zero"):
        fbeta_summary([0, 1], [0, 0], sample_weight=[0, 0])


def test_many_classes_keep_the_occupied_cells_like_one_call() -> None:
    y = np.arange(2500)
    y_pred = np.roll(y, 1)
    acc = MacroF1Accumulator(keep="cells").update(y[:1250], y_pred[:1250])
    assert isinstance(acc.counts.confusion, np.ndarray)  # 1251 classes so far
    acc.update(y[1250:], y_pred[1250:])
    assert isinstance(acc.counts.confusion, sp.csr_array)
    streamed, direct = fbeta_summary(acc.counts), fbeta_summary(y, y_pred)
    # one call and a stream both keep the occupied cells, not a dense table
    assert sp.issparse(direct.confusion_matrix) and direct.confusion_matrix.nnz == 2500
    assert sp.issparse(streamed.confusion_matrix)
    np.testing.assert_array_equal(
        streamed.confusion_matrix.toarray(), direct.confusion_matrix.toarray()
    )
    assert_same_summary(  # (the sparse matrices compared above)
        dataclasses.replace(streamed, confusion_matrix=None),
        dataclasses.replace(direct, confusion_matrix=None),
    )


def test_accepts_lists_and_pandas() -> None:
    pd = pytest.importorskip("pandas")
    acc = MacroF1Accumulator()
    acc.update(["a", "b"], ["a", "a"])
    acc.update(pd.Series(["b", "c"]), pd.Series(["b", "c"]))
    expected = fbeta_summary(["a", "b", "b", "c"], ["a", "a", "b", "c"])
    assert_same_summary(fbeta_summary(acc.counts), expected)


# -- merging and pickling -----------------------------------------------------


def _state(acc: MacroF1Accumulator) -> tuple:
    counts = acc.counts
    samples = counts._samples
    per_sample = None
    if samples is not None:
        order = np.lexsort((samples.pred, samples.true, samples.tp))
        per_sample = [
            a[order].tolist()
            for a in (samples.tp, samples.true, samples.pred, samples.weight)
        ]
    return (
        counts.kind,
        counts.classes.tolist(),
        counts.tp.tolist(),
        counts.true.tolist(),
        counts.pred.tolist(),
        None if counts.confusion is None else counts.confusion.tolist(),
        per_sample,
        acc.n_samples,
    )


@settings(max_examples=30)
@given(one_d_data(nonzero_weights=True), st.permutations([0, 1, 2]))
def test_merge_is_associative_and_order_independent_1d(
    data: tuple, order: list
) -> None:
    y_true, y_pred, weights, parts, labels = data
    thirds = split(len(y_true), [len(y_true) // 3, 2 * len(y_true) // 3])
    accs = [accumulate(y_true, y_pred, weights, [part]) for part in thirds]
    a, b, c = (accs[i] for i in order)
    left, right = (a + b) + c, a.merge(b.merge(c))
    one_pass = accumulate(y_true, y_pred, weights, [slice(0, len(y_true))])
    assert _state(left) == _state(right) == _state(one_pass)
    assert _state(sum(accs)) == _state(one_pass)
    assert_same_outcome(
        record(of_counts(fbeta_summary, left), zero_division=0.0),
        record(fbeta_summary, y_true, y_pred, sample_weight=weights, zero_division=0.0),
    )


@settings(max_examples=30)
@given(multilabel_data(nonzero_weights=True), st.permutations([0, 1, 2]))
def test_merge_is_associative_and_order_independent_multilabel(
    data: tuple, order: list
) -> None:
    y_true, y_pred, weights, _, labels, _ = data
    n = y_true.shape[0]
    thirds = split(n, [n // 3, 2 * n // 3])
    accs = [accumulate(y_true, y_pred, weights, [p], labels=labels) for p in thirds]
    a, b, c = (accs[i] for i in order)
    left, right = (a + b) + c, a + (b + c)
    one_pass = accumulate(y_true, y_pred, weights, [slice(0, n)], labels=labels)
    assert _state(left) == _state(right) == _state(one_pass)
    assert_same_outcome(
        record(of_counts(fbeta_summary, left), average="samples", zero_division=0.0),
        record(
            fbeta_summary,
            y_true,
            y_pred,
            average="samples",
            labels=labels,
            sample_weight=weights,
            zero_division=0.0,
        ),
    )


def test_merge_leaves_both_operands_unchanged() -> None:
    a = MacroF1Accumulator().update([0, 1], [0, 0])
    b = MacroF1Accumulator().update([2, 2], [2, 1])
    before = (_state(a), _state(b))
    merged = a + b
    assert (_state(a), _state(b)) == before
    assert merged.n_samples == 4


def test_pickle_round_trip_then_keep_updating() -> None:
    rng = np.random.default_rng(2)
    y_true = rng.integers(0, 2, size=(30, 4))
    y_pred = rng.integers(0, 2, size=(30, 4))
    weights = rng.random(30)
    acc = MacroF1Accumulator(labels=[3, 0]).update(
        y_true[:10], y_pred[:10], sample_weight=weights[:10]
    )
    restored = pickle.loads(pickle.dumps(acc))
    assert _state(restored) == _state(acc)
    restored.update(y_true[10:], y_pred[10:], sample_weight=weights[10:])
    for average in AVERAGES_ML:
        assert_same_summary(
            fbeta_summary(restored.counts, average=average, zero_division=0.0),
            fbeta_summary(
                y_true,
                y_pred,
                labels=[3, 0],
                average=average,
                sample_weight=weights,
                zero_division=0.0,
            ),
        )
    assert acc.n_samples == 10  # the original is untouched


# -- errors leave the state unchanged -----------------------------------------


def _snapshot(acc: MacroF1Accumulator) -> bytes:
    return pickle.dumps(_state(acc))


@pytest.mark.parametrize(
    ("first", "bad", "match"),
    [
        (([0, 1, 2], [0, 2, 1]), ([[0, 1], [1, 1]], [[0, 1], [1, 0]]), "same kind"),
        (([[0, 1], [1, 1]], [[0, 1], [1, 0]]), ([0, 1], [1, 1]), "same kind"),
        (
            ([[0, 1, 1], [1, 1, 0]], [[0, 1, 0], [1, 0, 0]]),
            ([[0, 1], [1, 1]], [[0, 1], [1, 0]]),
            "different numbers of labels",
        ),
        (([0, 1, 2], [0, 2, 1]), (["a", "b"], ["a", "a"]), "Mix of label input types"),
        ((["a", "b"], ["a", "a"]), ([1, 2], [2, 2]), "Mix of label input types"),
        (([0, 1, 2], [0, 2, 1]), ([0, 1], [1]), "inconsistent numbers of samples"),
        (([0, 1, 2], [0, 2, 1]), ([0.5, 1.0], [1.0, 1.0]), "continuous"),
    ],
)
def test_contradicting_batch_raises_and_changes_nothing(
    first: tuple, bad: tuple, match: str
) -> None:
    acc = MacroF1Accumulator().update(*first)
    before = _snapshot(acc)
    with pytest.raises(ValueError, match=match):
        acc.update(*bad)
    assert _snapshot(acc) == before
    acc.update(*first)  # still usable
    assert acc.n_samples == 2 * len(first[0])


def test_label_outside_fixed_labels_raises_and_changes_nothing() -> None:
    acc = MacroF1Accumulator(labels=["cat", "dog"]).update(["cat"], ["dog"])
    before = _snapshot(acc)
    with pytest.raises(ValueError, match=r"not in the accumulator's labels"):
        acc.update(["cat", "cow"], ["cat", "cat"])
    with pytest.raises(ValueError, match="Mix of label input types"):
        acc.update([1], [1])
    assert _snapshot(acc) == before


@pytest.mark.parametrize("outside", [0, 2, 4, 6, 4.0])
def test_numbers_below_between_and_above_fixed_labels_are_refused(outside) -> None:
    acc = MacroF1Accumulator(labels=[5, 1, 3]).update([1, 3.0], [5, 5])
    with pytest.raises(ValueError, match=rf"holds labels \[{outside}\] that are not"):
        acc.update([outside, 1], [1, 1])
    acc.update([True, 3], [1, 5])  # True is 1, as numpy compares them
    assert acc.n_samples == 4


def test_bad_weights_raise_and_change_nothing() -> None:
    acc = MacroF1Accumulator().update([0, 1], [0, 1], sample_weight=[1.0, 2.0])
    before = _snapshot(acc)
    with pytest.raises(ValueError, match="sample_weight"):
        acc.update([0, 1], [1, 1], sample_weight=[1.0, np.nan])
    with pytest.raises(ValueError, match="sample_weight"):
        acc.update([0, 1], [1, 1], sample_weight=[1.0])
    assert _snapshot(acc) == before


def test_multilabel_label_column_out_of_range() -> None:
    acc = MacroF1Accumulator(labels=[0, 5])
    with pytest.raises(ValueError, match="columns"):
        acc.update([[0, 1], [1, 1]], [[0, 1], [1, 0]])
    assert acc.n_samples == 0


def test_samples_needs_the_columns_fixed_up_front() -> None:
    acc = MacroF1Accumulator().update([[0, 1, 1], [1, 0, 0]], [[0, 1, 0], [1, 1, 0]])
    with pytest.raises(ValueError, match="fixed"):
        fbeta_summary(acc.counts, average="samples", labels=[0, 1])
    # Other averages may select any columns, as a one-call labels= does.
    expected = fbeta_summary(
        [[0, 1, 1], [1, 0, 0]], [[0, 1, 0], [1, 1, 0]], labels=[0, 1]
    )
    assert_same_summary(fbeta_summary(acc.counts, labels=[0, 1]), expected)


def test_empty_accumulator_and_empty_batches() -> None:
    acc = MacroF1Accumulator()
    acc.update([], [])
    assert acc.n_samples == 0
    with pytest.raises(ValueError, match="no samples yet"):
        fbeta_summary(acc.counts)
    with pytest.raises(ValueError, match="no samples yet"):
        averaged_f1_score(acc.counts)
    acc.update(np.array([1, 0]), np.array([1, 1])).update(np.array([]), np.array([]))
    assert acc.n_samples == 2


def test_bad_options_and_arguments() -> None:
    acc = MacroF1Accumulator().update([0, 1], [0, 1])
    with pytest.raises(ValueError, match="average"):
        fbeta_summary(acc.counts, average="mean")
    with pytest.raises(ValueError, match="beta"):
        averaged_fbeta_score(acc.counts, beta=-1)
    with pytest.raises(TypeError):
        fbeta_summary(acc.counts, None, "macro")  # options are keyword-only
    with pytest.raises(TypeError, match="MacroF1Accumulator"):
        acc.merge([0, 1])
    with pytest.raises(ValueError, match="different labels"):
        acc.merge(MacroF1Accumulator(labels=[0, 1]))
    with pytest.raises(ValueError, match="labels must be"):
        MacroF1Accumulator(labels=[])
    with pytest.raises(ValueError, match="labels"):
        MacroF1Accumulator(labels=5)


@pytest.mark.slow
def test_importing_and_streaming_numpy_never_imports_dask() -> None:
    code = (
        "import sys, numpy as np; from sklearn_macrof1 import MacroF1Accumulator, "
        "averaged_f1_score; MacroF1Accumulator().update(np.array([0, 1]), "
        "np.array([1, 1])).counts; averaged_f1_score([0, 1], [1, 1]); "
        "print(any(m == 'dask' or m.startswith('dask.') for m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


def test_repr() -> None:
    acc = MacroF1Accumulator(labels=["b", "a"])
    assert repr(acc) == "MacroF1Accumulator(labels=['b', 'a'], n_samples=0)"
    acc.update(["a", "b", "a"], ["a", "a", "a"])
    assert "n_samples=3" in repr(acc) and "binary" in repr(acc)
    assert math.isclose(averaged_f1_score(acc.counts, zero_division=0.0), 0.4)


@pytest.mark.parametrize(
    "other", [np.array([False, True]), np.array([0.0, 1.0]), np.array([0, 1], np.int8)]
)
def test_merged_labels_do_not_depend_on_the_order(other) -> None:
    # Equal labels of two dtypes: the merged labels take numpy's common dtype
    # (the dtype of the concatenated batches) whichever record comes first.
    ints = MacroF1Accumulator().update(np.array([0, 1]), np.array([1, 1]))
    others = MacroF1Accumulator().update(other, other[::-1].copy())
    expected = np.concatenate([np.array([0, 1]), other])
    for merged in (ints + others, others + ints):
        classes = merged.counts.classes
        assert classes.dtype == expected.dtype
        assert list(classification_report(merged.counts, output_dict=True))[:2] == [
            str(label) for label in np.unique(expected)
        ]


# -- one accumulator shared by threads ---------------------------------------

N_THREADS, N_BATCHES, BATCH_SIZE = 8, 96, 1500


def _thread_batches(kind: str, weighted: bool) -> list[tuple]:
    """96 batches of 1,500 samples; 1-D batches each hold their own label set.

    Weights are whole numbers, so their sums are exact in any merge order and
    the threaded record must equal the one-pass record exactly.
    """
    rng = np.random.default_rng(25)
    batches = []
    for _ in range(N_BATCHES):
        if kind == "multilabel":
            y_true = rng.integers(0, 2, size=(BATCH_SIZE, 12))
            y_pred = rng.integers(0, 2, size=(BATCH_SIZE, 12))
        else:
            labels = rng.choice(300, size=int(rng.integers(2, 40)), replace=False)
            if kind == "strings":
                labels = np.array([f"c{label:03d}" for label in labels])
            y_true = rng.choice(labels, BATCH_SIZE)
            y_pred = np.where(rng.random(BATCH_SIZE) < 0.6, y_true, labels[0])
        weights = rng.integers(1, 6, BATCH_SIZE).astype(float) if weighted else None
        batches.append((y_true, y_pred, weights))
    return batches


def _update_in_threads(acc: MacroF1Accumulator, batches: list[tuple]) -> None:
    """Each of 8 threads updates ``acc`` with every 8th batch, all starting at
    once and switching often (which makes an unguarded merge lose batches)."""
    start = threading.Barrier(N_THREADS)

    def work(first: int) -> None:
        start.wait()
        for y_true, y_pred, weights in batches[first::N_THREADS]:
            acc.update(y_true, y_pred, sample_weight=weights)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        with ThreadPoolExecutor(N_THREADS) as pool:
            for done in [pool.submit(work, i) for i in range(N_THREADS)]:
                done.result()  # a thread's exception fails the test
    finally:
        sys.setswitchinterval(interval)


def _concatenated(batches: list[tuple], labels: Any = None) -> MacroF1Accumulator:
    y_true, y_pred, weights = zip(*batches, strict=True)
    return MacroF1Accumulator(labels=labels).update(
        np.concatenate(y_true),
        np.concatenate(y_pred),
        sample_weight=None if weights[0] is None else np.concatenate(weights),
    )


@pytest.mark.parametrize(
    ("kind", "weighted"),
    [
        ("integers", False),
        ("strings", True),
        ("multilabel", False),
        ("multilabel", True),
        ("device tally", True),
    ],
)
def test_threads_sharing_one_accumulator_lose_no_sample(
    kind: str, weighted: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    batches = _thread_batches(kind, weighted)
    labels = np.arange(12) if kind == "multilabel" else None  # samples: columns
    if kind == "device tally":  # counts kept on the tensors' device
        torch = pytest.importorskip("torch")
        pytest.importorskip("array_api_compat")
        # the device test has no public face: CPU tensors counted as on a GPU
        from sklearn_macrof1._sources import _array_api

        monkeypatch.setattr(_array_api, "_is_cpu", lambda device: False)
        labels = np.arange(300)
        acc = MacroF1Accumulator(labels=labels)
        tensors = [
            (torch.as_tensor(t), torch.as_tensor(p), torch.as_tensor(w))
            for t, p, w in batches
        ]
        _update_in_threads(acc, tensors)
        assert acc._tally is not None
    else:
        acc = MacroF1Accumulator(labels=labels)
        _update_in_threads(acc, batches)
    assert acc.n_samples == N_BATCHES * BATCH_SIZE
    assert _state(acc) == _state(_concatenated(batches, labels))


def test_readers_see_a_consistent_state_while_threads_update() -> None:
    batches = [(t, p, None) for t, p, _ in _thread_batches("integers", False)]
    acc = MacroF1Accumulator()
    stop, seen = threading.Event(), []

    def read() -> None:
        while not stop.is_set():
            for copied in (pickle.loads(pickle.dumps(acc)), copy.deepcopy(acc)):
                if copied.n_samples:  # every sample counted once, in whole batches
                    counts = copied.counts
                    assert counts.true.sum() == counts.pred.sum() == copied.n_samples
                    assert copied.n_samples % BATCH_SIZE == 0
            text = repr(acc)
            assert text.endswith("n_samples=0)") or "kind='multiclass'" in text
            seen.append(acc.n_samples)

    with ThreadPoolExecutor(1) as pool:
        reader = pool.submit(read)
        try:
            _update_in_threads(acc, batches)
        finally:
            stop.set()
        reader.result()
    assert seen and seen == sorted(seen)  # nothing counted is ever lost again
    assert _state(acc) == _state(_concatenated(batches))


def test_merging_accumulators_in_both_directions_from_threads() -> None:
    # a.merge(b) and b.merge(a) at once: each reads the other's state under
    # that one's lock only, so neither waits for the other.
    a = MacroF1Accumulator().update([0, 1, 2], [0, 1, 1])
    b = MacroF1Accumulator().update([2, 3], [3, 3])
    with ThreadPoolExecutor(2) as pool:
        results = [pool.submit(x.merge, y) for x, y in [(a, b), (b, a)] * 50]
        merged = [r.result(timeout=60) for r in results]
    assert {_state(m)[:6] == _state(merged[0])[:6] for m in merged} == {True}


def test_reset_forgets_the_batches_and_keeps_the_labels() -> None:
    acc = MacroF1Accumulator(labels=["b", "a", "c"])
    assert acc.update(["a", "b"], ["a", "a"]).reset() is acc
    assert acc.n_samples == 0 and acc.labels.tolist() == ["b", "a", "c"]
    assert repr(acc) == "MacroF1Accumulator(labels=['b', 'a', 'c'], n_samples=0)"
    with pytest.raises(ValueError, match="no samples yet"):
        fbeta_summary(acc.counts)
    with pytest.raises(ValueError, match="not in the accumulator's labels"):
        acc.update(["z"], ["a"])  # the labels still hold
    acc.update(["c", "b"], ["c", "c"])
    fresh = MacroF1Accumulator(labels=["b", "a", "c"]).update(["c", "b"], ["c", "c"])
    assert _state(acc) == _state(fresh)
    assert_same_summary(
        fbeta_summary(acc.counts, zero_division=0.0),
        fbeta_summary(fresh.counts, zero_division=0.0),
    )


def test_reset_while_threads_update_keeps_whole_batches() -> None:
    batches = [(t, p, None) for t, p, _ in _thread_batches("integers", False)]
    acc = MacroF1Accumulator()
    with ThreadPoolExecutor(1) as pool:
        resets = pool.submit(lambda: [acc.reset() for _ in range(200)])
        _update_in_threads(acc, batches)
        resets.result()
    # Each batch merged before a reset is forgotten, after it kept, never half.
    assert acc.n_samples % BATCH_SIZE == 0
    if acc.n_samples:
        assert acc.counts.true.sum() == acc.n_samples


def test_copies_have_their_own_lock_and_state() -> None:
    acc = MacroF1Accumulator(labels=[0, 1, 2]).update([0, 1], [0, 2])
    for copied in (copy.copy(acc), copy.deepcopy(acc), pickle.loads(pickle.dumps(acc))):
        assert copied._lock is not acc._lock
        assert "_lock" not in copied.__getstate__()
        assert _state(copied) == _state(acc)
        copied.update([2], [2])
        assert (copied.n_samples, acc.n_samples) == (3, 2)
        copied.reset()
        assert acc.n_samples == 2


def test_repr_and_html_of_all_zero_weights_do_not_raise() -> None:
    acc = MacroF1Accumulator().update([0, 1], [0, 1], sample_weight=[0.0, 0.0])
    assert repr(acc) == (
        "MacroF1Accumulator(labels=None, n_samples=2, kind='binary', n_classes=2)"
    )
    assert "non-zero" in acc._repr_html_()
    with pytest.raises(ValueError, match="non-zero"):
        fbeta_summary(acc.counts)


def test_accumulators_with_the_same_string_labels_merge() -> None:
    # The same labels from a list, a wider <U array, pandas (object) or numpy
    # 2's StringDType: one set of labels, whatever array held them.
    pd = pytest.importorskip("pandas")
    names = ["cat", "dog", "eel"]
    sources: list[Any] = [names, np.array(names, dtype="<U8"), pd.Series(names)]
    string_dtype = getattr(getattr(np, "dtypes", None), "StringDType", None)
    if string_dtype is not None:  # numpy >= 2
        sources.append(np.array(names, dtype=string_dtype()))
    batches = [(["cat", "dog"], ["cat", "cat"]), (["eel"], ["dog"])]
    expected = _concatenated([(*map(np.array, b), None) for b in batches], names)
    for first in sources:
        for second in sources:
            a = MacroF1Accumulator(labels=first).update(*batches[0])
            b = MacroF1Accumulator(labels=second).update(*batches[1])
            merged = a.merge(b)
            assert merged.labels.tolist() == names
            assert_same_summary(
                fbeta_summary(merged.counts, zero_division=0.0),
                fbeta_summary(expected.counts, zero_division=0.0),
            )
    with pytest.raises(ValueError, match="different labels"):
        MacroF1Accumulator(labels=[0, 1]).merge(
            MacroF1Accumulator(labels=np.array([0, 1], dtype=object))
        )


def test_many_batches_of_many_classes_merge_as_a_binary_counter() -> None:
    """Above 2,048 classes a batch's record holds its occupied cells: merged
    into one growing record, every update would cost all the cells so far.
    The accumulator keeps a short stack of records instead (a record merges
    with the one below only while that one is at most twice its size), whose
    merge is the record of all the batches; batches that the merge would
    refuse are refused at their update, though the stack only pushes them."""
    rng = np.random.default_rng(3)
    k, size = 3000, 300
    acc = MacroF1Accumulator(keep="cells")  # records of their occupied cells
    seen_true, seen_pred = [], []
    for i in range(64):
        y_true = rng.integers(0, k, size)
        y_pred = np.where(rng.random(size) < 0.7, y_true, rng.integers(0, k, size))
        seen_true.append(y_true)
        seen_pred.append(y_pred)
        acc.update(y_true, y_pred)
        assert len(acc._parts) <= 2 + math.log2(i + 1)
    assert len(acc._parts) > 1
    expected = MacroF1Counts.from_predictions(
        np.concatenate(seen_true), np.concatenate(seen_pred)
    )
    assert expected.n_classes > 2048
    assert acc.counts == expected
    assert len(acc._parts) == 1  # the merge is kept
    n = acc.n_samples
    with pytest.raises(ValueError, match="Mix of label input types"):
        acc.update(["a", "b"], ["b", "b"])
    with pytest.raises(ValueError, match="same kind of targets"):
        acc.update(np.eye(3, dtype=int), np.eye(3, dtype=int))
    assert acc.n_samples == n and acc.counts == expected
    # a pickle holds the merged record
    assert pickle.loads(pickle.dumps(acc)).counts == expected


def test_a_read_merges_the_bottom_record_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The stack is merged from the top down: the bottom record, which holds
    most of the occupied cells, is copied by one merge at a read, not by one
    per record above it."""
    rng = np.random.default_rng(4)
    k = 3000
    acc = MacroF1Accumulator(keep="cells")  # records of their occupied cells
    for size in (4000, 1000, 300, 80, 20):  # each pushed without a merge
        y_true = rng.integers(0, k, size)
        acc.update(y_true, np.where(rng.random(size) < 0.7, y_true, y_true + 1))
    parts = acc._parts
    assert len(parts) == 5
    merges: list[tuple[MacroF1Counts, MacroF1Counts]] = []
    merge = MacroF1Counts.merge

    def counted(self: MacroF1Counts, other: MacroF1Counts) -> MacroF1Counts:
        merges.append((self, other))
        return merge(self, other)

    monkeypatch.setattr(MacroF1Counts, "merge", counted)
    counts = acc.counts
    assert len(merges) == 4
    bottom = _size(parts[0])
    assert merges[-1][0] is parts[0]  # merged once, last, with all the others
    assert all(_size(a) < bottom and _size(b) < bottom for a, b in merges[:-1])
    monkeypatch.undo()
    assert counts == functools.reduce(MacroF1Counts.merge, parts)


def test_labels_of_another_dtype_kind_are_refused_when_pushed() -> None:
    """A batch pushed onto the stack without a merge is checked against the
    bottom record for labels of another kind: strings and numbers, and also
    dates and numbers, refused at the update as the merge would refuse them."""
    rng = np.random.default_rng(5)
    acc = MacroF1Accumulator(keep="cells")  # each batch a record on the stack
    y_true = rng.integers(0, 3000, 6000)
    acc.update(y_true, y_true)
    acc.update([1.0, 2.0], [2.0, 2.0])  # floats and integers merge
    parts, n = acc._parts, acc.n_samples
    assert len(parts) == 2
    dates = np.array(["2020-01-01", "2020-01-02"], dtype="datetime64[D]")
    for bad in (dates, np.array(["a", "b"])):
        with pytest.raises(ValueError, match="Mix of label input types"):
            acc.update(bad, bad)
        assert acc._parts is parts and acc.n_samples == n
    acc.update(np.array([True]), np.array([False]))  # booleans are numbers
    assert acc.n_samples == n + 1
