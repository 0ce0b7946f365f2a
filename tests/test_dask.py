"""Dask arrays and Series: counted per chunk on a real 2-worker cluster.

One ``LocalCluster`` (2 worker processes, 1 thread each) serves the module.
Every result must equal the in-memory call on the same data; the task stream
must show the chunks counted on the workers.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytestmark = pytest.mark.dask

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")

from test_streaming import assert_close, assert_same_summary  # noqa: E402

from sklearn_macrof1 import (  # noqa: E402
    MacroF1Accumulator,
    averaged_f1_score,
    classification_report,
    compare_classifiers,
    f1_of_averages_score,
    fbeta_confidence_interval,
    fbeta_summary,
)


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=40,
    )
    with distributed.Client(cluster) as dask_client:
        yield dask_client
    cluster.close()


def _labels(seed: int, n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, k, size=n)
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, k, size=n))
    return y_true, y_pred


@pytest.mark.slow
def test_dask_arrays_equal_numpy_for_every_average(client) -> None:
    y_true, y_pred = _labels(0, 5000, 5)
    weights = np.random.default_rng(1).random(5000)
    t, p = da.from_array(y_true, chunks=700), da.from_array(y_pred, chunks=1100)
    w = da.from_array(weights, chunks=900)
    for average in (None, "micro", "macro", "weighted"):
        assert_same_summary(
            fbeta_summary(t, p, average=average, sample_weight=w, beta=0.5),
            fbeta_summary(
                y_true, y_pred, average=average, sample_weight=weights, beta=0.5
            ),
            cells=True,  # a one-shot Dask count keeps the confusion matrix
        )
    assert_close(averaged_f1_score(t, p), averaged_f1_score(y_true, y_pred))
    assert_close(f1_of_averages_score(t, p), f1_of_averages_score(y_true, y_pred))
    binary_t, binary_p = t % 2, p % 2
    assert_close(
        f1_of_averages_score(binary_t, binary_p, average="binary"),
        f1_of_averages_score(y_true % 2, y_pred % 2, average="binary"),
    )


def test_chunks_are_counted_on_the_workers(client) -> None:
    y_true, y_pred = _labels(2, 4000, 3)
    t, p = da.from_array(y_true, chunks=500), da.from_array(y_pred, chunks=500)
    with distributed.get_task_stream(client) as stream:
        averaged_f1_score(t, p)
    counted = [
        task
        for task in stream.data
        if str(task["key"]).startswith("('count_batch")
        or "count_batch" in str(task["key"])
    ]
    assert len(counted) == t.numblocks[0] == 8
    workers = set(client.scheduler_info()["workers"])
    assert {task["worker"] for task in counted} <= workers


@pytest.mark.slow
def test_dask_series_of_strings(client) -> None:
    rng = np.random.default_rng(3)
    names = np.array(["ant", "bee", "cat", "dog"])
    y_true = pd.Series(names[rng.integers(0, 4, 3000)])
    y_pred = pd.Series(names[rng.integers(0, 4, 3000)])
    t = dd.from_pandas(y_true, npartitions=4)
    p = dd.from_pandas(y_pred, npartitions=3)
    for average in ("macro", "weighted", None):
        assert_same_summary(
            fbeta_summary(t, p, average=average),
            fbeta_summary(y_true, y_pred, average=average),
            cells=True,
        )
    assert classification_report(t, p, output_dict=True) == classification_report(
        y_true, y_pred, output_dict=True
    )


def test_each_dask_collection_is_converted_once(client, monkeypatch) -> None:
    """A Series' conversion to a Dask array computes its partition lengths (a
    pass over the data): the first collection, which sets the row chunks, is
    not converted again."""
    # the conversion of a Dask collection has no public face: counted
    from sklearn_macrof1._sources import _dask

    converted = []
    as_dask_array = _dask._as_dask_array

    def spy(value, name):
        converted.append(name)
        return as_dask_array(value, name)

    monkeypatch.setattr(_dask, "_as_dask_array", spy)
    y_true, y_pred = _labels(4, 300, 3)
    series = dd.from_pandas(pd.Series(y_pred), npartitions=3)
    expected = averaged_f1_score(y_true, y_pred)
    assert averaged_f1_score(y_true, series) == pytest.approx(expected)
    assert converted == ["y_pred"]
    converted.clear()
    compare_classifiers(y_true, series, y_pred)
    assert len(converted) == 1


def test_multilabel_samples_average(client) -> None:
    rng = np.random.default_rng(4)
    y_true = rng.integers(0, 2, size=(3000, 5))
    y_pred = rng.integers(0, 2, size=(3000, 5))
    weights = rng.random(3000)
    t = da.from_array(y_true, chunks=(400, 2))  # chunks across columns too
    p = da.from_array(y_pred, chunks=(1000, 5))
    w = da.from_array(weights, chunks=300)
    for average in ("samples", "macro", "micro"):
        for labels in (None, [4, 1]):
            assert_same_summary(
                fbeta_summary(
                    t,
                    p,
                    average=average,
                    labels=labels,
                    sample_weight=w,
                    zero_division=0.0,
                ),
                fbeta_summary(
                    y_true,
                    y_pred,
                    average=average,
                    labels=labels,
                    sample_weight=weights,
                    zero_division=0.0,
                ),
            )


def test_accumulator_takes_dask_and_numpy_batches(client) -> None:
    y_true, y_pred = _labels(5, 6000, 4)
    acc = MacroF1Accumulator(labels=[0, 1, 2, 3])
    acc.update(da.from_array(y_true[:4000], chunks=1000), y_pred[:4000])
    acc.update(y_true[4000:], y_pred[4000:])
    assert acc.n_samples == 6000
    assert_same_summary(
        fbeta_summary(acc.counts, average="weighted"),
        fbeta_summary(y_true, y_pred, average="weighted", labels=[0, 1, 2, 3]),
    )


def test_errors_from_dask_inputs(client) -> None:
    y_true, y_pred = _labels(6, 100, 3)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        averaged_f1_score(da.from_array(y_true, chunks=30), da.from_array(y_pred[:90]))
    with pytest.raises(ValueError, match="y_true has 90 and y_pred has 100"):
        averaged_f1_score(y_true[:90], da.from_array(y_pred, chunks=30))
    delayed_array = dask.delayed(np.array)
    mixed = da.concatenate(  # each chunk is valid alone; together they are not
        [
            da.from_delayed(delayed_array([1, 2, 1]), shape=(3,), dtype=object),
            da.from_delayed(delayed_array(["a", "b", "a"]), shape=(3,), dtype=object),
        ]
    )
    with pytest.raises(ValueError, match="Mix of label input types"):
        averaged_f1_score(mixed, mixed)
    acc = MacroF1Accumulator().update([0, 1], [0, 1])
    with pytest.raises(ValueError, match="same kind"):
        acc.update(da.ones((4, 3), chunks=2), da.ones((4, 3), chunks=2))
    assert acc.n_samples == 2
    with pytest.raises(ValueError, match="empty"):
        averaged_f1_score(da.zeros(0, chunks=1), da.zeros(0, chunks=1))


@pytest.fixture
def never_gathered(monkeypatch):
    """Fail on any attempt to pull a Dask array into this process whole."""

    def refuse(self, *args, **kwargs):
        raise AssertionError("a Dask collection was gathered into the client")

    for name in ("__array__", "compute", "persist", "__iter__", "tolist"):
        monkeypatch.setattr(da.Array, name, refuse, raising=False)
    with pytest.raises(AssertionError, match="gathered"):
        np.asarray(da.ones(3, chunks=2))  # the guard is in place
    return refuse


@pytest.mark.slow
def test_intervals_from_worker_counts(client, never_gathered) -> None:
    """Unweighted 1-D labels: intervals, the report's interval columns and the
    summary's interval come from the confusion matrix counted on the workers,
    equal to the in-memory results, with nothing gathered."""
    y_true, y_pred = _labels(7, 3000, 4)
    t, p = da.from_array(y_true, chunks=700), da.from_array(y_pred, chunks=500)
    for method in ("delta", "bootstrap"):
        for average in ("macro", "weighted", "micro"):
            options = {"average": average, "method": method, "n_resamples": 200}
            assert fbeta_confidence_interval(
                t, p, random_state=1, **options
            ) == fbeta_confidence_interval(y_true, y_pred, random_state=1, **options)
        assert classification_report(
            t, p, confidence=0.9, interval_method=method, random_state=2,
            output_dict=True,
        ) == classification_report(
            y_true, y_pred, confidence=0.9, interval_method=method, random_state=2,
            output_dict=True,
        )  # fmt: skip
    assert (
        fbeta_summary(t, p).confidence_interval()
        == fbeta_summary(y_true, y_pred).confidence_interval()
    )
    # the default ("auto": the posterior, seeded by the counts without a
    # random_state) gives the in-memory interval and report
    ours = fbeta_confidence_interval(t, p)
    assert ours.method == "posterior"
    assert ours == fbeta_confidence_interval(y_true, y_pred)
    assert classification_report(
        t, p, confidence=0.9, output_dict=True
    ) == classification_report(y_true, y_pred, confidence=0.9, output_dict=True)
    # counted once: one counting task per chunk, whatever the options
    with distributed.get_task_stream(client) as stream:
        classification_report(
            t, p, confidence=0.9, interval_method="bootstrap", random_state=0
        )
    counted = [task for task in stream.data if "count_batch" in str(task["key"])]
    assert len(counted) == t.numblocks[0] == 5


def test_intervals_that_need_every_sample_are_refused(client, never_gathered) -> None:
    """What the worker-side counts cannot give is refused by name, never
    computed by gathering the collections: resampling weighted or multilabel
    samples (the bootstrap; the delta method is offered instead) and paired
    comparisons."""
    y_true, y_pred = _labels(8, 600, 3)
    t, p = da.from_array(y_true, chunks=200), da.from_array(y_pred, chunks=200)
    w = da.from_array(np.linspace(0.5, 2.0, 600), chunks=200)
    delta = "method='delta' gives this interval"
    with pytest.raises(ValueError, match=f"bootstrap with sample_weight.*{delta}"):
        fbeta_confidence_interval(t, p, sample_weight=w, method="bootstrap")
    with pytest.raises(ValueError, match="bootstrap with sample_weight"):
        classification_report(
            t, p, sample_weight=w, confidence=0.95, interval_method="bootstrap"
        )
    with pytest.raises(ValueError, match="compare_classifiers compares multilabel"):
        indicators = da.from_array(np.eye(600, 3, dtype=int), chunks=(200, 3))
        compare_classifiers(indicators, indicators, indicators[::-1])
    rng = np.random.default_rng(9)
    yt = da.from_array(rng.integers(0, 2, (500, 4)), chunks=(100, 4))
    yp = da.from_array(rng.integers(0, 2, (500, 4)), chunks=(100, 4))
    with pytest.raises(ValueError, match=f"bootstrap with multilabel.*{delta}"):
        fbeta_confidence_interval(yt, yp, average="macro", method="bootstrap")
    # the report refuses before it evaluates a row: no warning about the rows
    # of a report it does not give
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=f"bootstrap with multilabel.*{delta}"):
            classification_report(yt, yp, confidence=0.9, interval_method="bootstrap")
    with pytest.raises(ValueError, match="bootstrap of average='samples' with"):
        fbeta_confidence_interval(
            yt, yp, average="samples", zero_division=0.0, sample_weight=w[:500],
            method="bootstrap",
        )  # fmt: skip
    # the scores themselves still work on the same collections
    assert averaged_f1_score(t, p, sample_weight=w) == pytest.approx(
        averaged_f1_score(y_true, y_pred, sample_weight=np.linspace(0.5, 2.0, 600))
    )


@pytest.mark.slow
def test_intervals_of_many_classes_and_labels_from_the_workers(
    client, never_gathered
) -> None:
    """Above 2048 classes (256 labels) the chunks' records keep the occupied
    cells of the confusion matrix (of the second moments), merged on the
    workers: the intervals of one in-memory call, never gathering the
    collections."""
    rng = np.random.default_rng(21)
    k, n = 3_000, 6_000
    y_true = rng.integers(0, k, n)
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, k, n))
    weights = rng.uniform(0.2, 3.0, n)
    t, p, w = (da.from_array(v, chunks=1_500) for v in (y_true, y_pred, weights))
    for sample_weight, local in ((None, None), (w, weights)):
        _same_interval(
            fbeta_confidence_interval(t, p, sample_weight=sample_weight),
            fbeta_confidence_interval(y_true, y_pred, sample_weight=local),
        )
    boot = {"method": "bootstrap", "n_resamples": 30, "random_state": 0}
    _same_interval(
        fbeta_confidence_interval(t, p, zero_division=0.0, **boot),
        fbeta_confidence_interval(y_true, y_pred, zero_division=0.0, **boot),
    )
    wide_true = (rng.random((400, 300)) < 0.05).astype(int)
    wide_pred = np.where(rng.random((400, 300)) < 0.9, wide_true, 1 - wide_true)
    yt, yp = (da.from_array(v, chunks=(100, 300)) for v in (wide_true, wide_pred))
    for average in ("micro", "macro"):
        _same_interval(
            fbeta_confidence_interval(yt, yp, average=average, zero_division=0.0),
            fbeta_confidence_interval(
                wide_true, wide_pred, average=average, zero_division=0.0
            ),
        )


def _same_interval(a, b) -> None:
    """Intervals equal to rounding (the sums run in another order)."""
    assert (a.average, a.method, a.n_samples) == (b.average, b.method, b.n_samples)
    for name in ("averaged_fbeta", "fbeta_of_averages"):
        x, y = getattr(a, name), getattr(b, name)
        got = [x.estimate, x.low, x.high, x.std_error]
        np.testing.assert_allclose(
            got, [y.estimate, y.low, y.high, y.std_error], rtol=1e-12, atol=0
        )


def _same_report(a: dict, b: dict) -> None:
    """Reports equal to rounding (atol: a gap is a difference of two scores)."""
    assert a.keys() == b.keys()
    for key in a:
        if isinstance(a[key], dict):
            _same_report(a[key], b[key])
        else:
            np.testing.assert_allclose(a[key], b[key], rtol=1e-12, atol=1e-15)


@pytest.mark.slow
def test_delta_intervals_from_the_worker_moments(client, never_gathered) -> None:
    """Weighted 1-D, multilabel micro/macro/weighted and weighted multilabel
    ``samples``: the delta method reads the second moments counted on the
    workers (with the counts, in the one counting pass), equal to the in-memory
    intervals; nothing is gathered."""
    y_true, y_pred = _labels(11, 3000, 4)
    weights = np.random.default_rng(12).random(3000) * 3
    weights[::7] = 0.0  # zero weights are samples too
    t, p = da.from_array(y_true, chunks=700), da.from_array(y_pred, chunks=500)
    w = da.from_array(weights, chunks=900)
    for average, labels in [("macro", None), ("weighted", [3, 0]), ("micro", None)]:
        options = {"average": average, "labels": labels, "beta": 2.0}
        _same_interval(
            fbeta_confidence_interval(t, p, sample_weight=w, **options),
            fbeta_confidence_interval(y_true, y_pred, sample_weight=weights, **options),
        )
    _same_interval(
        fbeta_confidence_interval(t % 2, p % 2, sample_weight=w, average="binary"),
        fbeta_confidence_interval(
            y_true % 2, y_pred % 2, sample_weight=weights, average="binary"
        ),
    )
    _same_report(
        classification_report(t, p, sample_weight=w, confidence=0.9, output_dict=True),
        classification_report(
            y_true, y_pred, sample_weight=weights, confidence=0.9, output_dict=True
        ),
    )
    rng = np.random.default_rng(13)
    ml_true = rng.integers(0, 2, (2000, 5))
    ml_pred = np.where(rng.random((2000, 5)) < 0.7, ml_true, 1 - ml_true)
    mt = da.from_array(ml_true, chunks=(400, 5))
    mp = da.from_array(ml_pred, chunks=(300, 2))
    mw = da.from_array(weights[:2000], chunks=600)
    for average in ("micro", "macro", "weighted", "samples"):
        for labels in (None, [4, 0, 2]):
            for sw in (None, mw):
                local = None if sw is None else weights[:2000]
                options = {"average": average, "labels": labels, "zero_division": 0.0}
                _same_interval(
                    fbeta_confidence_interval(mt, mp, sample_weight=sw, **options),
                    fbeta_confidence_interval(
                        ml_true, ml_pred, sample_weight=local, **options
                    ),
                )
    _same_report(
        classification_report(
            mt, mp, sample_weight=mw, confidence=0.95, output_dict=True,
            zero_division=0.0,
        ),
        classification_report(
            ml_true, ml_pred, sample_weight=weights[:2000], confidence=0.95,
            output_dict=True, zero_division=0.0,
        ),
    )  # fmt: skip
    # counted once: one counting task per chunk, moments included
    with distributed.get_task_stream(client) as stream:
        classification_report(mt, mp, sample_weight=mw, confidence=0.95)
    counted = [task for task in stream.data if "count_batch" in str(task["key"])]
    assert len(counted) == mt.numblocks[0] == 5


def test_samples_intervals_from_the_worker_histogram(client, never_gathered) -> None:
    """Unweighted multilabel ``samples``: the histogram of per-sample triples
    counted on the workers gives the delta method exactly (each distinct triple
    stands for its samples) and a bootstrap over the same samples."""
    rng = np.random.default_rng(10)
    y_true = rng.integers(0, 2, (3000, 5))
    y_pred = np.where(rng.random((3000, 5)) < 0.7, y_true, 1 - y_true)
    t = da.from_array(y_true, chunks=(400, 5))
    p = da.from_array(y_pred, chunks=(700, 2))
    options = {"average": "samples", "zero_division": 0.0, "labels": [4, 0, 2]}
    on_workers = fbeta_confidence_interval(t, p, **options)
    in_memory = fbeta_confidence_interval(y_true, y_pred, **options)
    for name in ("averaged_fbeta", "fbeta_of_averages"):
        a, b = getattr(on_workers, name), getattr(in_memory, name)
        assert a.estimate == pytest.approx(b.estimate, rel=1e-12)
        assert a.std_error == pytest.approx(b.std_error, rel=1e-9)
        assert (a.low, a.high) == pytest.approx((b.low, b.high), rel=1e-9)
    boot = fbeta_confidence_interval(
        t, p, method="bootstrap", n_resamples=400, random_state=0, **options
    )
    for name in ("averaged_fbeta", "fbeta_of_averages"):
        a, b = getattr(boot, name), getattr(in_memory, name)
        assert a.low <= a.estimate <= a.high
        assert a.std_error == pytest.approx(b.std_error, rel=0.2)


def _compared(y, predictions, **options):
    comparison = compare_classifiers(y, *predictions, **options)
    pairs = getattr(comparison, "comparisons", (comparison,))
    return [(c.averaged_fbeta, c.fbeta_of_averages) for c in pairs], comparison


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.parametrize("n_classifiers", [2, 3])
@pytest.mark.parametrize("weighted", [False, True])
def test_comparison_from_the_workers_joint_cells(
    client, never_gathered, n_classifiers, weighted
) -> None:
    """compare_classifiers (delta method) on Dask collections: each pair's joint
    (true, pred_a, pred_b) cells are counted on the workers and give the
    in-memory comparison, with nothing gathered."""
    y_true, _ = _labels(11, 4000, 4)
    rng = np.random.default_rng(12)
    predictions = [
        np.where(rng.random(4000) < acc, y_true, rng.integers(0, 5, 4000))
        for acc in (0.8, 0.7, 0.75)[:n_classifiers]
    ]
    weights = rng.uniform(0.5, 2.0, 4000) if weighted else None
    t = da.from_array(y_true, chunks=900)
    ps = [
        da.from_array(p, chunks=c)
        for p, c in zip(predictions, (700, 1300, 4000)[:n_classifiers], strict=True)
    ]
    # a local prediction set is cut into the same chunks
    ps[-1] = predictions[-1]
    w = None if weights is None else da.from_array(weights, chunks=1000)
    for options in ({}, {"average": "weighted"}, {"labels": [0, 2, 4]}):
        on_workers, result = _compared(t, ps, sample_weight=w, **options)
        in_memory, expected = _compared(
            y_true, predictions, sample_weight=weights, **options
        )
        if not weighted:
            assert result == expected
        for pair, expected_pair in zip(on_workers, in_memory, strict=True):
            for d, e in zip(pair, expected_pair, strict=True):
                assert d.difference == pytest.approx(e.difference, rel=1e-12)
                assert d.std_error == pytest.approx(e.std_error, rel=1e-12)
                assert d.p_value == pytest.approx(e.p_value, rel=1e-9, abs=1e-300)
    with distributed.get_task_stream(client) as stream:
        compare_classifiers(t, *ps, sample_weight=w)
    counted = [task for task in stream.data if "count_joint_batch" in str(task["key"])]
    assert len(counted) == t.numblocks[0] == 5


def test_paired_bootstrap_from_the_workers_joint_cells(client, never_gathered) -> None:
    """Two unweighted classifiers: the paired bootstrap redraws the joint cells
    counted on the workers, as it does in memory (same seed, same result);
    with weights or a third classifier it needs every sample and is refused."""
    y_true, a = _labels(13, 3000, 3)
    _, b = _labels(14, 3000, 3)
    t, pa, pb = (da.from_array(v, chunks=800) for v in (y_true, a, b))
    options = {"method": "bootstrap", "n_resamples": 300, "random_state": 5}
    assert compare_classifiers(t, pa, pb, **options) == compare_classifiers(
        y_true, a, b, **options
    )
    w = da.from_array(np.linspace(0.5, 2, 3000), chunks=800)
    with pytest.raises(ValueError, match="sample_weight.*method='delta'"):
        compare_classifiers(t, pa, pb, sample_weight=w, **options)
    with pytest.raises(ValueError, match="3 classifiers.*method='delta'"):
        compare_classifiers(t, pa, pb, pa, **options)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
def test_comparison_of_string_series_with_classes_missing_from_chunks(
    client, never_gathered
) -> None:
    """Chunks that see different classes: the joint cells merge by label."""
    rng = np.random.default_rng(15)
    y = rng.choice(["ant", "bee", "cat"], 1800)
    y[-50:] = "dog"  # a class only in the last partition
    a = np.where(rng.random(1800) < 0.8, y, "cat")
    b = np.where(rng.random(1800) < 0.7, y, "ant")
    b[:10] = "eel"  # a label only B predicts, only in the first partition
    series = [dd.from_pandas(pd.Series(v), npartitions=3) for v in (y, a, b)]
    for method in ("delta", "bootstrap"):
        options = {"method": method, "random_state": 0, "zero_division": 0.0}
        assert compare_classifiers(*series, **options) == compare_classifiers(
            y, a, b, **options
        )


def test_comparison_of_local_y_true_or_only_dask_weights(
    client, never_gathered
) -> None:
    """Any of y_true, the predictions and the weights may be the Dask collection:
    a local y_true with Dask predictions, or local targets with Dask weights,
    give the in-memory comparison; a local y_true of the wrong length is
    reported by name."""
    y_true, a = _labels(16, 2000, 3)
    _, b = _labels(17, 2000, 3)
    weights = np.random.default_rng(18).uniform(0.5, 2.0, 2000)
    pa, pb = da.from_array(a, chunks=600), da.from_array(b, chunks=900)
    w = da.from_array(weights, chunks=700)
    expected = compare_classifiers(y_true, a, b, sample_weight=weights)
    for args, weight in (
        ((y_true, pa, pb), weights),
        ((y_true, pa, b), None),
        ((y_true, a, b), w),
        ((list(y_true), pa, pb), w),
    ):
        result = compare_classifiers(*args, sample_weight=weight)
        reference = (
            expected if weight is not None else compare_classifiers(y_true, a, b)
        )
        for d, e in (
            (result.averaged_fbeta, reference.averaged_fbeta),
            (result.fbeta_of_averages, reference.fbeta_of_averages),
        ):
            assert d.difference == pytest.approx(e.difference, rel=1e-12)
            assert d.std_error == pytest.approx(e.std_error, rel=1e-12)
    with pytest.raises(ValueError, match="y_true has 1999 and y_pred_a has 2000"):
        compare_classifiers(y_true[:-1], pa, pb)


def test_comparison_of_many_classes_stays_in_cells(client, never_gathered) -> None:
    """Above 2048 classes the records keep no confusion matrix (no k x k table),
    and the joint cells still give the comparison: its variances are read at
    the cells, so the client holds no k x k table of gradients either (about
    3500 classes here: 200 MB per classifier)."""
    import tracemalloc

    k, n = 4000, 6000
    rng = np.random.default_rng(19)
    y_true = rng.integers(0, k, n)
    a = np.where(rng.random(n) < 0.7, y_true, rng.integers(0, k, n))
    b = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, k, n))
    t, pa, pb = (da.from_array(v, chunks=1000) for v in (y_true, a, b))
    tracemalloc.start()
    try:
        result = compare_classifiers(t, pa, pb)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 40e6, peak  # a 3500 x 3500 float table is 98 MB
    expected = compare_classifiers(y_true, a, b)
    for d, e in (
        (result.averaged_fbeta, expected.averaged_fbeta),
        (result.fbeta_of_averages, expected.fbeta_of_averages),
    ):
        assert d.difference == pytest.approx(e.difference, rel=1e-12)
        assert d.std_error == pytest.approx(e.std_error, rel=1e-9)


def test_comparison_of_1d_and_multilabel_dask_targets_names_the_mix(client) -> None:
    """A 2-D prediction set with 1-D y_true is a mix of target kinds, as in
    memory; only 2-D targets throughout are the (refused) multilabel case."""
    y_true, a = _labels(22, 300, 3)
    t, pa = da.from_array(y_true, chunks=100), da.from_array(a, chunks=100)
    indicator = da.from_array(np.eye(3, dtype=int)[a], chunks=(100, 3))
    with pytest.raises(ValueError, match=r"a mix of .*\(y_true\) and .*\(y_pred_b\)"):
        compare_classifiers(t, pa, indicator)
    with pytest.raises(ValueError, match=r"a mix of .*\(y_true\) and .*\(y_pred_a\)"):
        compare_classifiers(indicator, pa, indicator)
    with pytest.raises(ValueError, match="multilabel targets"):
        compare_classifiers(indicator, indicator, indicator)


@pytest.mark.parametrize(
    "weights",
    [np.ones(11), np.ones((12, 1)), np.array(1.0)],
    ids=["short", "2-D", "0-d"],
)
def test_dask_weights_of_the_wrong_shape_are_refused_as_in_memory_ones(weights):
    y_true = np.array([0, 1, 2] * 4)
    y_pred = np.roll(y_true, 1)
    with pytest.raises(ValueError) as local:
        averaged_f1_score(y_true, y_pred, sample_weight=weights)
    chunks = {0: (), 1: 5, 2: (5, 1)}[weights.ndim]
    with pytest.raises(ValueError) as distributed:
        averaged_f1_score(
            da.from_array(y_true, chunks=5),
            da.from_array(y_pred, chunks=5),
            sample_weight=da.from_array(weights, chunks=chunks),
        )
    assert str(distributed.value) == str(local.value)


def test_a_0_d_dask_array_of_labels_is_refused_as_a_0_d_numpy_one():
    y = np.array([0, 1, 2] * 4)
    with pytest.raises(TypeError) as local:
        averaged_f1_score(np.array(1), y)
    with pytest.raises(TypeError) as distributed:
        averaged_f1_score(da.from_array(np.array(1)), da.from_array(y, chunks=5))
    assert str(distributed.value) == str(local.value).replace("ndarray", "Array")
