"""Device arrays: every public function that takes arrays, on array-api-strict
devices that refuse NumPy as a GPU does, equals its value on NumPy copies.

``Device("device1")`` refuses conversion to NumPy exactly as a CUDA tensor does;
``Device("no_float64")`` has no float64, as Apple's MPS (results within float32
tolerance, per-class results float32). A namespace wrapper proves that no
n-length array crosses to the host. PyTorch CPU tensors go through NumPy without a
copy, and PyTorch's own kernels are checked by counting CPU tensors as if they
were on another device. scikit-learn 1.9 itself fails on ``no_float64`` and in
``classification_report`` on ``device1``, so the reference is this package's
result on NumPy copies (itself checked against scikit-learn elsewhere).
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn

from sklearn_macrof1 import (
    MacroF1Accumulator,
    MacroF1Counts,
    averaged_f1_score,
    averaged_fbeta_score,
    classification_report,
    compare_classifiers,
    f1_of_averages_score,
    fbeta_confidence_interval,
    fbeta_of_averages_score,
    fbeta_summary,
)

xs = pytest.importorskip("array_api_strict")
Array = type(xs.asarray([0]))
pytest.importorskip("array_api_compat")

N = 600
RNG = np.random.default_rng(7)
Y_TRUE = RNG.integers(0, 5, N)
Y_PRED = np.where(RNG.random(N) < 0.6, Y_TRUE, RNG.integers(0, 5, N))
Y_OTHER = np.where(RNG.random(N) < 0.5, Y_TRUE, RNG.integers(0, 5, N))
WEIGHTS = RNG.random(N) + 0.1
M_TRUE = RNG.integers(0, 2, (N, 4))
M_PRED = np.where(RNG.random((N, 4)) < 0.7, M_TRUE, 1 - M_TRUE)
DEVICES = ["device1", "no_float64"]


@pytest.fixture(autouse=True)
def _dispatch() -> Iterator[None]:
    with sklearn.config_context(array_api_dispatch=True):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ill-defined classes: both paths warn
            yield


def per_class(counts: MacroF1Counts) -> MacroF1Counts:
    """A record as a stream keeps it by default: without its confusion matrix."""
    return dataclasses.replace(counts, confusion=None)


def on(device: str, value: np.ndarray) -> Any:
    if device == "no_float64" and value.dtype == np.float64:
        value = value.astype(np.float32)
    return xs.asarray(value, device=xs.Device(device))


def tolerance(device: str) -> float:
    return 1e-5 if device == "no_float64" else 1e-12


def host(value: Any) -> np.ndarray:
    return np.asarray(value.to_device(xs.Device("CPU_DEVICE")))


def weights_for(device: str) -> np.ndarray:
    # the weights the device holds, as NumPy copies (float32 on no_float64)
    return WEIGHTS.astype(np.float32) if device == "no_float64" else WEIGHTS


SCORES = [averaged_f1_score, f1_of_averages_score]
FBETA = [averaged_fbeta_score, fbeta_of_averages_score]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("score", SCORES)
@pytest.mark.parametrize("average", ["macro", "weighted", "micro"])
@pytest.mark.parametrize("weighted", [False, True])
def test_averaged_scores_are_floats_equal_to_numpy(
    device: str, score: Any, average: str, weighted: bool
) -> None:
    w = weights_for(device) if weighted else None
    got = score(
        on(device, Y_TRUE),
        on(device, Y_PRED),
        average=average,
        sample_weight=None if w is None else on(device, w),
    )
    assert type(got) is float
    expected = score(Y_TRUE, Y_PRED, average=average, sample_weight=w)
    assert got == pytest.approx(expected, rel=tolerance(device), abs=1e-12)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("score", SCORES + FBETA)
def test_per_class_scores_are_arrays_of_the_device(device: str, score: Any) -> None:
    options = {"beta": 2.0} if score in FBETA else {}
    got = score(on(device, Y_TRUE), on(device, Y_PRED), average=None, **options)
    assert isinstance(got, Array)
    assert got.device == xs.Device(device)
    assert got.dtype == (xs.float32 if device == "no_float64" else xs.float64)
    expected = score(Y_TRUE, Y_PRED, average=None, **options)
    np.testing.assert_allclose(host(got), expected, rtol=tolerance(device))


@pytest.mark.parametrize("device", DEVICES)
def test_labels_of_other_dtypes(device: str) -> None:
    # bools (binary), floats holding integers, a wide integer range (sorted
    # encoding), fixed labels with an absent class
    cases = [
        (Y_TRUE > 2, Y_PRED > 2, {"average": "binary"}),
        (Y_TRUE.astype(np.float32) - 2, Y_PRED.astype(np.float32) - 2, {}),
        (Y_TRUE * 10**12, Y_PRED * 10**12, {}),
        (Y_TRUE, Y_PRED, {"labels": [4, 1, 9]}),
    ]
    for t, p, options in cases:
        got = averaged_f1_score(on(device, t), on(device, p), **options)
        expected = averaged_f1_score(t, p, **options)
        assert got == pytest.approx(expected, rel=tolerance(device))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.uint8])
def test_narrow_integer_labels_spanning_their_dtype(device: str, dtype: Any) -> None:
    # the offset from the smallest label must not wrap in the labels' own dtype
    info = np.iinfo(dtype)
    classes = np.array([info.min, 1, info.max], dtype=dtype)
    t, p = classes[Y_TRUE % 3], classes[Y_PRED % 3]
    got = averaged_f1_score(on(device, t), on(device, p), average=None)
    expected = averaged_f1_score(t, p, average=None)
    assert expected.shape == (3,)
    np.testing.assert_allclose(host(got), expected, rtol=tolerance(device))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize(
    ("true_dtype", "pred_dtype", "adds"),
    [
        (np.int64, np.float64, False),  # y_pred adds no label: y_true's dtype
        (np.int8, np.float32, False),
        (np.int64, np.float64, True),  # y_pred adds one: the common dtype
        (np.bool_, np.float32, True),
    ],
)
def test_labels_have_the_dtype_numpy_gives_them(
    device: str, true_dtype: Any, pred_dtype: Any, adds: bool
) -> None:
    # the encoding of device labels shows them as the in-memory encoding does
    t = (Y_TRUE > 2) if true_dtype is np.bool_ else Y_TRUE.astype(true_dtype)
    p = np.where(Y_PRED == 4, 1 if true_dtype is np.bool_ else 0, Y_PRED)
    if adds:
        p = np.where(np.arange(N) == 0, 7, p)
    p = p.astype(pred_dtype)
    expected = fbeta_summary(t, p).labels
    got = fbeta_summary(on(device, t), on(device, p)).labels
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
    report = classification_report(on(device, t), on(device, p), output_dict=True)
    assert list(report) == list(classification_report(t, p, output_dict=True))


@pytest.mark.parametrize("device", DEVICES)
def test_labels_given_as_a_device_array(device: str) -> None:
    # labels=, like the targets, may live on the device (k values cross)
    labels = np.array([4, 1, 9])
    for score in SCORES:
        got = score(on(device, Y_TRUE), on(device, Y_PRED), labels=on(device, labels))
        expected = score(Y_TRUE, Y_PRED, labels=labels)
        assert got == pytest.approx(expected, rel=tolerance(device))
    report = classification_report(
        on(device, Y_TRUE), on(device, Y_PRED), labels=on(device, labels)
    )
    assert report == classification_report(Y_TRUE, Y_PRED, labels=labels)
    record = MacroF1Counts.from_predictions(
        on(device, Y_TRUE), on(device, Y_PRED), labels=on(device, labels)
    )
    assert record == MacroF1Counts.from_predictions(Y_TRUE, Y_PRED, labels=labels)
    acc = MacroF1Accumulator(labels=on(device, np.arange(5)))
    acc.update(on(device, Y_TRUE), on(device, Y_PRED))
    assert acc.labels.tolist() == list(range(5))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("average", ["macro", "samples", "micro"])
def test_multilabel(device: str, average: str) -> None:
    for score in SCORES:
        got = score(on(device, M_TRUE), on(device, M_PRED), average=average)
        expected = score(M_TRUE, M_PRED, average=average)
        assert got == pytest.approx(expected, rel=tolerance(device))
    w = weights_for(device)
    got = f1_of_averages_score(
        on(device, M_TRUE),
        on(device, M_PRED),
        average=average,
        sample_weight=on(device, w),
    )
    expected = f1_of_averages_score(M_TRUE, M_PRED, average=average, sample_weight=w)
    assert got == pytest.approx(expected, rel=tolerance(device))


def assert_same_summary(got: Any, expected: Any, rtol: float) -> None:
    for name in ("averaged_fbeta", "fbeta_of_averages", "precision", "recall"):
        assert getattr(got, name) == pytest.approx(getattr(expected, name), rel=rtol)
    # the gap is a difference of two scores: float32 counts (no_float64) leave
    # it an absolute error of the scores' size, whatever its own size
    assert got.gap == pytest.approx(expected.gap, rel=rtol, abs=rtol)
    for name in ("class_fbeta", "class_precision", "support", "labels"):
        np.testing.assert_allclose(
            getattr(got, name), getattr(expected, name), rtol=rtol
        )
    if expected.confusion_matrix is not None:
        np.testing.assert_allclose(
            got.confusion_matrix, expected.confusion_matrix, rtol=rtol
        )


@pytest.mark.parametrize("device", DEVICES)
def test_summary_report_and_record(device: str) -> None:
    t, p, w = on(device, Y_TRUE), on(device, Y_PRED), weights_for(device)
    assert_same_summary(fbeta_summary(t, p), fbeta_summary(Y_TRUE, Y_PRED), 1e-12)
    assert_same_summary(
        fbeta_summary(t, p, sample_weight=on(device, w), beta=0.5),
        fbeta_summary(Y_TRUE, Y_PRED, sample_weight=w, beta=0.5),
        tolerance(device),
    )
    assert_same_summary(
        fbeta_summary(on(device, M_TRUE), on(device, M_PRED), average="samples"),
        fbeta_summary(M_TRUE, M_PRED, average="samples"),
        1e-12,
    )
    assert classification_report(t, p) == classification_report(Y_TRUE, Y_PRED)
    got = classification_report(t, p, output_dict=True, sample_weight=on(device, w))
    expected = classification_report(Y_TRUE, Y_PRED, output_dict=True, sample_weight=w)
    for row, values in expected.items():
        if isinstance(values, dict):
            for key, value in values.items():
                assert got[row][key] == pytest.approx(value, rel=tolerance(device))
    assert MacroF1Counts.from_predictions(t, p) == MacroF1Counts.from_predictions(
        Y_TRUE, Y_PRED
    )
    assert MacroF1Counts.from_predictions(
        on(device, M_TRUE), on(device, M_PRED), labels=[0, 2]
    ) == MacroF1Counts.from_predictions(M_TRUE, M_PRED, labels=[0, 2])


@pytest.mark.parametrize("device", DEVICES)
def test_intervals_and_comparisons(device: str) -> None:
    t, p, q = (on(device, y) for y in (Y_TRUE, Y_PRED, Y_OTHER))
    w = weights_for(device)
    pairs = [
        (
            fbeta_confidence_interval(t, p, method="bootstrap", random_state=0),
            fbeta_confidence_interval(
                Y_TRUE, Y_PRED, method="bootstrap", random_state=0
            ),
        ),
        (
            fbeta_confidence_interval(t, p, sample_weight=on(device, w)),
            fbeta_confidence_interval(Y_TRUE, Y_PRED, sample_weight=w),
        ),
        (
            fbeta_confidence_interval(on(device, M_TRUE), on(device, M_PRED)),
            fbeta_confidence_interval(M_TRUE, M_PRED),
        ),
    ]
    for got, expected in pairs:
        for name in ("averaged_fbeta", "fbeta_of_averages"):
            a, b = getattr(got, name), getattr(expected, name)
            for field in ("estimate", "low", "high"):
                assert getattr(a, field) == pytest.approx(
                    getattr(b, field), rel=tolerance(device)
                )
    got = compare_classifiers(t, p, q)
    expected = compare_classifiers(Y_TRUE, Y_PRED, Y_OTHER)
    for name in ("averaged_fbeta", "fbeta_of_averages"):
        a, b = getattr(got, name), getattr(expected, name)
        for field in ("difference", "low", "high", "p_value"):
            assert getattr(a, field) == pytest.approx(getattr(b, field), rel=1e-9)


M_OTHER = np.where(RNG.random((N, 4)) < 0.6, M_TRUE, 1 - M_TRUE)


def assert_same_comparison(got: Any, expected: Any, rtol: float) -> None:
    for name in ("averaged_fbeta", "fbeta_of_averages"):
        a, b = getattr(got, name), getattr(expected, name)
        for field in ("difference", "low", "high", "p_value"):
            assert getattr(a, field) == pytest.approx(getattr(b, field), rel=rtol)


@pytest.mark.parametrize("device", DEVICES)
def test_multilabel_comparisons_on_the_device(device: str) -> None:
    t, p, q = (on(device, y) for y in (M_TRUE, M_PRED, M_OTHER))
    w = weights_for(device)
    rtol = 1e-9 if device == "device1" else 1e-4
    for options in (
        {"average": "macro"},
        {"average": "micro", "sample_weight": w},
        {"average": "weighted", "labels": [0, 2]},
    ):
        weights = options.pop("sample_weight", None)
        got = compare_classifiers(
            t,
            p,
            q,
            sample_weight=None if weights is None else on(device, weights),
            method="delta",
            **options,
        )
        expected = compare_classifiers(
            M_TRUE, M_PRED, M_OTHER, sample_weight=weights, method="delta", **options
        )
        assert_same_comparison(got, expected, rtol)
    many = compare_classifiers(t, p, q, p, method="delta")  # every pair
    expected = compare_classifiers(M_TRUE, M_PRED, M_OTHER, M_PRED, method="delta")
    for a, b in zip(many.comparisons, expected.comparisons, strict=True):
        assert_same_comparison(a, b, rtol)
    for options, message in (
        ({"method": "bootstrap"}, "bootstrap redraws every sample"),
        ({}, "jackknife leaves out each sample"),  # the default method
        ({"method": "delta", "average": "samples"}, "pairs each sample's own score"),
    ):
        with pytest.raises(ValueError, match=message):
            compare_classifiers(t, p, q, **options)


@pytest.mark.slow
@pytest.mark.parametrize("device", DEVICES)
def test_accumulator_and_display(device: str) -> None:
    acc = MacroF1Accumulator()
    for start in range(0, N, 128):
        stop = start + 128
        acc.update(on(device, Y_TRUE[start:stop]), on(device, Y_PRED[start:stop]))
    # by default a stream keeps the per-class counts, no confusion matrix
    assert acc.counts == per_class(MacroF1Counts.from_predictions(Y_TRUE, Y_PRED))
    pytest.importorskip("matplotlib")
    from sklearn_macrof1 import MacroF1Display

    got = MacroF1Display.from_predictions(on(device, Y_TRUE), on(device, Y_PRED))
    expected = MacroF1Display.from_predictions(Y_TRUE, Y_PRED)
    assert got.summary == expected.summary
    import matplotlib.pyplot as plt

    plt.close("all")


def test_mixed_inputs_follow_y_pred() -> None:
    device = xs.Device("device1")
    got = averaged_f1_score(Y_TRUE, xs.asarray(Y_PRED, device=device), average=None)
    assert isinstance(got, Array) and got.device == device
    np.testing.assert_allclose(
        host(got), averaged_f1_score(Y_TRUE, Y_PRED, average=None)
    )
    # y_pred a NumPy array: NumPy results (y_true is brought to the host)
    got = averaged_f1_score(
        xs.asarray(Y_TRUE, device=xs.Device("CPU_DEVICE")), Y_PRED, average=None
    )
    assert isinstance(got, np.ndarray)
    weights = xs.asarray(WEIGHTS, device=device)
    assert f1_of_averages_score(
        Y_TRUE, xs.asarray(Y_PRED, device=device), sample_weight=weights
    ) == pytest.approx(f1_of_averages_score(Y_TRUE, Y_PRED, sample_weight=WEIGHTS))


def test_without_dispatch_a_device_array_names_the_setting() -> None:
    device = xs.Device("device1")
    with sklearn.config_context(array_api_dispatch=False):
        with pytest.raises(ValueError, match=r"set_config\(array_api_dispatch=True\)"):
            fbeta_summary(xs.asarray(Y_TRUE, device=device), Y_PRED)
        # the accumulator returns no arrays: it counts on the device regardless
        acc = MacroF1Accumulator().update(
            xs.asarray(Y_TRUE, device=device), xs.asarray(Y_PRED, device=device)
        )
        assert acc.counts == per_class(MacroF1Counts.from_predictions(Y_TRUE, Y_PRED))


def test_bad_device_input_is_refused_with_the_argument_named() -> None:
    device = xs.Device("device1")
    t = xs.asarray(Y_TRUE, device=device)
    cases = [
        (xs.asarray(Y_PRED[:-1], device=device), "inconsistent numbers of samples"),
        (xs.asarray(Y_PRED + 0.5, device=device), "y_pred contains continuous"),
        (xs.asarray(M_PRED, device=device), "mix of 1-D label"),
        (xs.asarray(np.where(Y_PRED > 3, np.nan, 1.0), device=device), "NaN"),
    ]
    for y_pred, message in cases:
        with pytest.raises(ValueError, match=message):
            averaged_f1_score(t, y_pred)
    # class scores passed as predictions: the hint names argmax, not only a threshold
    scores = xs.asarray(np.random.default_rng(0).random((N, 3)), device=device)
    with pytest.raises(ValueError, match=r"argmax\(axis=1\)"):
        averaged_f1_score(t, scores)
    with pytest.raises(ValueError, match="sample_weight has 3 entries"):
        averaged_f1_score(
            t, t, sample_weight=xs.asarray([1.0, 2.0, 3.0], device=device)
        )
    with pytest.raises(ValueError, match="all 600 weights are zero"):
        averaged_f1_score(t, t, sample_weight=xs.zeros(N, device=device))


def test_device_targets_get_the_host_target_messages() -> None:
    # the reading's target checks, made on the device: each refusal is the
    # one NumPy targets get (continuous labels with an example, scores passed
    # as labels with the argmax hint, 3-D arrays, columns that differ)
    device = xs.Device("device1")
    scores = np.random.default_rng(0).random((N, 3))
    bad = {
        "continuous": (Y_TRUE, Y_PRED + 0.5),
        "beyond int64": (Y_TRUE.astype(float), np.where(Y_PRED > 3, 1e19, 1.0)),
        "NaN": (Y_TRUE, np.where(Y_PRED > 3, np.nan, 1.0)),
        "scores": (Y_TRUE, scores),
        "both scores": (scores, scores),
        "3-D": (Y_TRUE.reshape(-1, 2, 3), Y_PRED.reshape(-1, 2, 3)),
        "columns": (M_TRUE, M_PRED[:, :3]),
        "lengths": (Y_TRUE, Y_PRED[:-1] + 0.5),
        "multioutput": (np.stack([Y_TRUE, Y_PRED], 1), np.stack([Y_PRED, Y_TRUE], 1)),
    }
    for name, (y_true, y_pred) in bad.items():
        with pytest.raises(ValueError) as on_host:
            averaged_f1_score(y_true, y_pred)
        with pytest.raises(ValueError) as on_device:
            averaged_f1_score(
                xs.asarray(y_true, device=device), xs.asarray(y_pred, device=device)
            )
        assert str(on_device.value) == str(on_host.value), name


def test_device_weights_get_the_host_weight_messages() -> None:
    # one sample-weight check, made on the device: each refusal is the one
    # NumPy weights get, type and message
    device = xs.Device("device1")
    t = xs.asarray(Y_TRUE, device=device)
    bad = {
        "complex": WEIGHTS + 1j,
        "nan": np.where(Y_TRUE == 0, np.nan, 1.0),
        "inf": np.where(Y_TRUE == 0, np.inf, 1.0),
        "2-D": WEIGHTS.reshape(-1, 1),
        "short": WEIGHTS[:-1],
    }
    for name, weights in bad.items():
        with pytest.raises((TypeError, ValueError)) as on_host:
            averaged_f1_score(Y_TRUE, Y_TRUE, sample_weight=weights)
        with pytest.raises(on_host.type) as on_device:
            averaged_f1_score(t, t, sample_weight=xs.asarray(weights, device=device))
        assert str(on_device.value) == str(on_host.value), name


# ------------------------------------------------------- no host transfer


@contextmanager
def no_transfer_of(n: int) -> Iterator[list[int]]:
    """Fail on any array of ``n`` or more elements leaving a non-CPU device of
    array-api-strict (NumPy conversion, DLPack, ``to_device``); yields the
    sizes that did leave."""
    cpu = xs.Device("CPU_DEVICE")
    originals = {
        name: getattr(Array, name) for name in ("__array__", "__dlpack__", "to_device")
    }
    moved: list[int] = []

    def guarded(name: str) -> Any:
        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            leaving = self.device != cpu and (name != "to_device" or args[0] == cpu)
            if leaving:
                size = int(np.prod(self.shape))
                assert size < n, f"{size} elements crossed to the host ({name})"
                moved.append(size)
            return originals[name](self, *args, **kwargs)

        return method

    try:
        for name in originals:
            setattr(Array, name, guarded(name))
        yield moved
    finally:
        for name, method in originals.items():
            setattr(Array, name, method)


def test_only_the_counts_cross_to_the_host() -> None:
    n = 5000
    rng = np.random.default_rng(3)
    t, p, q = (rng.integers(0, 4, n) for _ in range(3))
    w = rng.random(n)
    mt, mp = rng.integers(0, 2, (n, 3)), rng.integers(0, 2, (n, 3))
    device = xs.Device("device1")
    T, P, Q, W = (xs.asarray(y, device=device) for y in (t, p, q, w))
    MT, MP = xs.asarray(mt, device=device), xs.asarray(mp, device=device)
    with no_transfer_of(n) as moved:
        averaged_f1_score(T, P, average=None, sample_weight=W)
        fbeta_summary(T, P)
        classification_report(T, P, sample_weight=W)
        fbeta_confidence_interval(T, P, method="bootstrap", n_resamples=20)
        compare_classifiers(T, P, Q, sample_weight=W)
        compare_classifiers(MT, MP, MP, sample_weight=W, method="delta")
        f1_of_averages_score(MT, MP, average="samples", sample_weight=W)
        fbeta_confidence_interval(MT, MP, method="delta")
        MacroF1Accumulator().update(T, P).update(T, Q)
        # a wide range of labels is encoded by a sort: still only the labels
        averaged_f1_score(T * 10**12, P * 10**12)
    # the cells (at most 4**3 of a pair) and the multilabel moments (9 x 9)
    assert moved and max(moved) <= 81


@contextmanager
def no_reads() -> Iterator[list[str]]:
    """Record every value read back from a non-CPU device of array-api-strict:
    arrays (as :func:`no_transfer_of`) and scalars (``bool``, ``int``,
    ``float``: a GPU waits for each)."""
    cpu = xs.Device("CPU_DEVICE")
    names = ("__array__", "__dlpack__", "to_device", "__bool__", "__int__")
    names += ("__float__", "__index__")
    originals = {name: getattr(Array, name) for name in names}
    reads: list[str] = []

    def guarded(name: str) -> Any:
        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            if self.device != cpu and (name != "to_device" or args[0] == cpu):
                reads.append(f"{name} of {int(np.prod(self.shape))}")
            return originals[name](self, *args, **kwargs)

        return method

    try:
        for name in originals:
            setattr(Array, name, guarded(name))
        yield reads
    finally:
        for name, method in originals.items():
            setattr(Array, name, method)


def test_accumulator_with_fixed_labels_reads_nothing_back_per_batch() -> None:
    rng = np.random.default_rng(5)
    k, batches, size, tokens = 7, 6, 64, 9
    t = rng.integers(0, k, (batches, size, tokens))
    t[rng.random(t.shape) < 0.2] = -100  # padding
    logits = rng.normal(size=(batches, size, tokens, k))
    w = rng.random((batches, size))
    acc = MacroF1Accumulator(labels=np.arange(k), ignore_index=-100)
    weighted = MacroF1Accumulator(labels=np.arange(k))
    with no_reads() as reads:
        for b in range(batches):
            acc.update(on("device1", t[b]), on("device1", logits[b]))
            weighted.update(
                on("device1", t[b, :, 0] % k),
                on("device1", logits[b, :, 0]),
                sample_weight=on("device1", w[b]),
            )
        assert reads == []  # no sync, no transfer of any size during updates
        got = acc.counts
        read_at_end = list(reads)
    # the three vectors of k counts cross, no k x k table
    assert read_at_end and max(int(r.split()[-1]) for r in read_at_end) <= 3 * k
    kept = t != -100
    expected = MacroF1Counts.from_predictions(
        t[kept], logits.argmax(-1)[kept], labels=np.arange(k)
    )
    assert got == per_class(expected)
    assert acc.n_samples == int(kept.sum())
    expected = MacroF1Counts.from_predictions(
        t[:, :, 0].ravel() % k,
        logits[:, :, 0].argmax(-1).ravel(),
        sample_weight=w.ravel(),
        labels=np.arange(k),
    )
    got = weighted.counts
    assert got.classes.tolist() == expected.classes.tolist()
    for name in ("tp", "true", "pred"):
        np.testing.assert_allclose(
            getattr(got, name), getattr(expected, name), rtol=1e-12
        )
    assert got.n_samples == expected.n_samples and got.weighted
    # merges, copies and pickles are host records, equal to the one-pass one
    import pickle

    again = pickle.loads(pickle.dumps(acc))
    assert again.counts == acc.counts
    assert (acc + again).counts == acc.counts + acc.counts
    assert repr(acc).startswith("MacroF1Accumulator(labels=[0, 1, 2")


@pytest.mark.parametrize("device", DEVICES)
def test_device_tally_equals_batches_counted_on_the_host(device: str) -> None:
    # labels given in any order, some never seen; many labels drop the table
    for labels in (np.array([9, 4, 3, 2, 1, 0]), np.arange(3000)):
        acc = MacroF1Accumulator(labels=labels)
        host = MacroF1Accumulator(labels=labels)
        for start in range(0, N, 200):
            part = slice(start, start + 200)
            acc.update(on(device, Y_TRUE[part]), on(device, Y_PRED[part]))
            host.update(Y_TRUE[part], Y_PRED[part])
        assert acc._tally is not None
        expected = host.counts  # above 2048 labels: the occupied cells
        assert acc.counts == expected
    # an empty accumulator and one of all-zero weights read as on the host
    acc = MacroF1Accumulator(labels=np.arange(5))
    zero = np.zeros(N, dtype=weights_for(device).dtype)
    acc.update(on(device, Y_TRUE), on(device, Y_PRED), sample_weight=on(device, zero))
    assert acc.n_samples == N
    with pytest.raises(ValueError, match="weights are zero"):
        _ = acc.counts  # as a one-shot call with these weights
    acc.update(on(device, Y_TRUE), on(device, Y_PRED))
    assert acc.counts.n_samples == 2 * N


def test_device_tally_problems_raise_when_read_until_reset() -> None:
    device = xs.Device("device1")
    logits = RNG.normal(size=(N, 5))
    logits[3, 2] = np.nan
    cases = [
        ((xs.asarray(Y_TRUE + 1, device=device), xs.asarray(Y_PRED, device=device))),
        ((xs.asarray(Y_TRUE, device=device), xs.asarray(logits, device=device))),
    ]
    weights = np.where(Y_TRUE == 0, np.inf, 1.0)
    for (y_true, y_pred), message in zip(
        cases, ["1 samples|outside|not among", "^1 class scores .* NaN"], strict=True
    ):
        acc = MacroF1Accumulator(labels=np.arange(5))
        acc.update(y_true, y_pred)  # not checked here: a check would wait
        with pytest.raises(ValueError, match=message.split("|")[-1]):
            _ = acc.counts
        with pytest.raises(ValueError, match=message.split("|")[-1]):
            _ = acc + acc
        with pytest.raises(ValueError, match="reset"):  # no count without them
            _ = acc.n_samples
        assert "invalid batches" in repr(acc)
        assert "invalid batches" in acc._repr_html_()
        acc.reset().update(Y_TRUE, xs.asarray(Y_PRED, device=device))
        assert acc.counts == per_class(
            MacroF1Counts.from_predictions(Y_TRUE, Y_PRED, labels=np.arange(5))
        )
    acc = MacroF1Accumulator(labels=np.arange(5))
    acc.update(
        xs.asarray(Y_TRUE, device=device),
        xs.asarray(Y_PRED, device=device),
        sample_weight=xs.asarray(weights, device=device),
    )
    with pytest.raises(ValueError, match="NaN or infinite"):
        _ = acc.counts


def test_device_batch_of_another_kind_is_refused_at_its_update() -> None:
    # the kind of targets and the number of columns are known without a read:
    # such a batch raises at its update and the counts so far stay readable
    y_true, y_pred = Y_TRUE % 4, Y_PRED % 4  # labels of the four columns
    one_d = (on("device1", y_true), on("device1", y_pred))
    wide = (on("device1", M_TRUE), on("device1", M_PRED))
    narrow = (on("device1", M_TRUE[:, :3]), on("device1", M_PRED[:, :3]))
    kinds, widths = "same kind of targets", "different numbers of labels"
    cases = [
        (np.arange(4), one_d, wide, kinds),
        (np.arange(4), (y_true, y_pred), wide, kinds),
        (np.arange(4), wide, one_d, kinds),
        (np.arange(4), wide, (y_true, y_pred), kinds),
        (None, wide, narrow, widths),
        (None, (M_TRUE, M_PRED), narrow, widths),
    ]
    for labels, first, second, message in cases:
        acc = MacroF1Accumulator(labels=labels)
        acc.update(*first)
        expected = acc.counts
        with pytest.raises(ValueError, match=message):
            acc.update(*second)
        assert acc.counts == expected and acc.n_samples == N


@pytest.mark.parametrize("device", DEVICES)
def test_multilabel_logits_are_counted_on_the_device(device: str) -> None:
    logits = RNG.normal(size=(N, 4)) + 2.0 * (M_TRUE - 0.5)
    w = weights_for(device)
    for labels, weighted in ((None, False), ([0, 3], True)):
        acc = MacroF1Accumulator(threshold=0.0, labels=labels)
        host = MacroF1Accumulator(threshold=0.0, labels=labels)
        with no_reads() as reads:
            for start in range(0, N, 128):
                part = slice(start, start + 128)
                weights = w[part] if weighted else None
                acc.update(
                    on(device, M_TRUE[part].astype(np.float32)),  # as transformers
                    on(device, logits[part]),
                    sample_weight=None if weights is None else on(device, weights),
                )
                host.update(M_TRUE[part], logits[part], sample_weight=weights)
            assert reads == []  # nothing read back while updating
        assert acc.n_samples == N and acc._tally is not None
        for average in ("macro", "samples", "micro"):
            assert_same_summary(
                fbeta_summary(acc.counts, average=average),
                fbeta_summary(host.counts, average=average),
                tolerance(device),
            )
    bad = M_TRUE.astype(np.float64)
    bad[0, 0] = 0.5
    acc = MacroF1Accumulator(threshold=0.0).update(
        xs.asarray(bad, device=xs.Device("device1")),
        xs.asarray(logits, device=xs.Device("device1")),
    )
    with pytest.raises(ValueError, match="neither 0 nor 1"):
        _ = acc.counts


@pytest.mark.parametrize("on_cpu", [True, False])
def test_device_tally_on_torch_tensors(
    on_cpu: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """CPU tensors are read as the NumPy arrays that view them (their counts
    added to the class tally); tensors on a GPU (CPU tensors counted as if
    they were there) keep their counts on the device."""
    torch = pytest.importorskip("torch")
    if not on_cpu:  # the device test has no public face: forced
        from sklearn_macrof1._sources import _array_api

        monkeypatch.setattr(_array_api, "_is_cpu", lambda device: False)
    acc = MacroF1Accumulator(labels=np.arange(5), ignore_index=-100)
    t = np.where(RNG.random(N) < 0.1, -100, Y_TRUE)
    logits = RNG.normal(size=(N, 5))
    for start in range(0, N, 128):
        part = slice(start, start + 128)
        acc.update(torch.as_tensor(t[part]), torch.as_tensor(logits[part]))
    if on_cpu:
        assert acc._tally is None and acc._classes is not None
    else:
        assert acc._tally is not None and acc._tally.dev.xp.__name__.endswith("torch")
    kept = t != -100
    assert acc.counts == per_class(
        MacroF1Counts.from_predictions(
            t[kept], logits.argmax(1)[kept], labels=np.arange(5)
        )
    )


def test_wide_multilabel_cpu_arrays_are_merged_batch_by_batch() -> None:
    # on the CPU nothing waits for a read: a histogram of more than 39 columns
    # is not added per batch (slower than each batch's record), narrower ones are
    rng = np.random.default_rng(11)
    cpu = xs.Device("CPU_DEVICE")
    for width, tallied in ((39, True), (40, False), (100, False)):
        y_true = rng.integers(0, 2, (64, width))
        y_pred = rng.integers(0, 2, (64, width))
        acc = MacroF1Accumulator()
        for part in (slice(0, 30), slice(30, 64)):
            acc.update(
                xs.asarray(y_true[part], device=cpu),
                xs.asarray(y_pred[part], device=cpu),
            )
        assert (acc._tally is not None) == tallied
        expected = MacroF1Accumulator().update(y_true, y_pred).counts
        for average in ("macro", "samples"):
            assert fbeta_summary(acc.counts, average=average) == fbeta_summary(
                expected, average=average
            )


def test_fallback_bincount_equals_numpy() -> None:
    # the counting kernel for namespaces without bincount has no public face
    from sklearn_macrof1._sources._array_api import bincount

    codes = RNG.integers(0, 7, 300)
    device = xs.Device("device1")
    xc = xs.asarray(codes, device=device)
    assert not hasattr(xs, "bincount")  # the documented fallback is what runs
    np.testing.assert_array_equal(
        host(bincount(xs, xc, None, 9)), np.bincount(codes, minlength=9)
    )
    got = bincount(xs, xc, xs.asarray(WEIGHTS[:300], device=device), 9)
    np.testing.assert_allclose(
        host(got), np.bincount(codes, WEIGHTS[:300], minlength=9), rtol=1e-12
    )


# ------------------------------------------------------- many classes

MANY = 3000  # above the 2048 classes of a dense confusion matrix


def many_classes(n: int = 20_000, seed: int = 11) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    t = rng.integers(0, MANY, n)
    p = np.where(rng.random(n) < 0.8, t, rng.integers(0, MANY, n))
    return t, p, rng.random(n) + 0.1


def assert_same_cells(got: Any, expected: Any, rtol: float = 0.0) -> None:
    assert sp.issparse(got) and sp.issparse(expected)
    assert got.shape == expected.shape
    gap = abs(sp.csr_array(got) - sp.csr_array(expected)).max()
    assert gap <= rtol * abs(expected).max()


def assert_same_interval(got: Any, expected: Any, rtol: float) -> None:
    for score in ("averaged_fbeta", "fbeta_of_averages"):
        a, b = getattr(got, score), getattr(expected, score)
        assert (a.low, a.high) == pytest.approx((b.low, b.high), rel=rtol, abs=1e-12)


@pytest.mark.parametrize("device", DEVICES)
def test_many_classes_keep_their_occupied_cells(device: str) -> None:
    """Above 2048 classes device arrays give what in-memory arrays give: the
    summary's sparse confusion matrix, records with their cells (and squared
    weights), intervals of both methods; only the cells cross to the host."""
    t, p, w = many_classes()
    w = w.astype(np.float32) if device == "no_float64" else w
    T, P, W = on(device, t), on(device, p), on(device, w)
    rtol = tolerance(device)
    cells = MacroF1Counts.from_predictions(t, p).confusion
    assert sp.issparse(cells) and cells.nnz < t.shape[0]
    with no_transfer_of(t.shape[0]) as moved:
        summary = fbeta_summary(T, P)
        record = MacroF1Counts.from_predictions(T, P)
        weighted = MacroF1Counts.from_predictions(T, P, sample_weight=W, moments=True)
        intervals = {
            method: fbeta_confidence_interval(
                T, P, method=method, n_resamples=30, random_state=0
            )
            for method in ("delta", "bootstrap")
        }
        weighted_delta = fbeta_confidence_interval(T, P, sample_weight=W)
        report = classification_report(
            T,
            P,
            confidence=0.9,
            interval_method="bootstrap",
            n_resamples=20,
            random_state=0,
            output_dict=True,
        )
    assert max(moved) <= cells.nnz  # the cells, never the samples
    assert_same_cells(summary.confusion_matrix, cells)
    assert record == MacroF1Counts.from_predictions(t, p)
    expected = MacroF1Counts.from_predictions(t, p, sample_weight=w, moments=True)
    assert_same_cells(weighted.confusion, expected.confusion, rtol)
    assert_same_cells(weighted.moments, expected.moments, rtol)
    for method, got in intervals.items():
        expected_interval = fbeta_confidence_interval(
            t, p, method=method, n_resamples=30, random_state=0
        )
        assert_same_interval(got, expected_interval, rtol)
        from_record = fbeta_confidence_interval(
            record, method=method, n_resamples=30, random_state=0
        )
        assert_same_interval(from_record, expected_interval, 1e-12)
    expected_interval = fbeta_confidence_interval(t, p, sample_weight=w)
    assert_same_interval(weighted_delta, expected_interval, rtol)
    assert_same_interval(fbeta_confidence_interval(weighted), expected_interval, rtol)
    assert report == classification_report(
        t,
        p,
        confidence=0.9,
        interval_method="bootstrap",
        n_resamples=20,
        random_state=0,
        output_dict=True,
    )


@pytest.mark.slow
@pytest.mark.parametrize("device", DEVICES)
def test_device_tally_of_many_labels_keeps_folded_cells(
    device: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tally keeps its samples' joint codes on the device and folds them
    into one entry per cell as they grow (every 500 entries here): the record
    equals the host batches' merged, padding and all, and so do intervals."""
    # when the device tally folds its cells has no public face: made frequent
    from sklearn_macrof1._sources import _array_api

    monkeypatch.setattr(_array_api, "_FOLD_AT", 500)
    t, p, w = many_classes(n=6000)
    t[::7] = -100  # padding, left out
    w = w.astype(np.float32) if device == "no_float64" else w
    labels = np.arange(MANY)
    for weights in (None, w):
        acc = MacroF1Accumulator(labels=labels, ignore_index=-100, keep="cells")
        on_host = MacroF1Accumulator(labels=labels, ignore_index=-100, keep="cells")
        with no_reads() as reads:
            for start in range(0, t.shape[0], 400):
                part = slice(start, start + 400)
                kept = None if weights is None else on(device, weights[part])
                acc.update(on(device, t[part]), on(device, p[part]), sample_weight=kept)
                on_host.update(
                    t[part],
                    p[part],
                    sample_weight=None if weights is None else weights[part],
                )
            assert reads == []  # folds read the number of cells from shapes only
        assert acc._tally is not None and acc._tally.cells is not None
        assert len(acc._tally.cells.parts) < 15 / 2  # folded along the way
        got, expected = acc.counts, on_host.counts
        if weights is None:
            assert got == expected
            for method in ("delta", "bootstrap"):
                assert_same_interval(
                    fbeta_confidence_interval(got, method=method, random_state=0),
                    fbeta_confidence_interval(
                        t[t != -100],
                        p[t != -100],
                        labels=labels,
                        method=method,
                        random_state=0,
                    ),
                    1e-12,
                )
        else:
            assert got.classes.tolist() == expected.classes.tolist()
            assert_same_cells(got.confusion, expected.confusion, tolerance(device))
    # few of the labels occur: a dense matrix, as on the host
    acc = MacroF1Accumulator(labels=labels, keep="cells")
    acc.update(on(device, Y_TRUE), on(device, Y_PRED))
    assert isinstance(acc.counts.confusion, np.ndarray)
    on_host = MacroF1Accumulator(labels=labels, keep="cells")
    assert acc.counts == on_host.update(Y_TRUE, Y_PRED).counts
    # by default the tally keeps the three vectors of k counts, no cells
    acc = MacroF1Accumulator(labels=labels, ignore_index=-100)
    acc.update(on(device, t[:400]), on(device, p[:400]))
    assert acc._tally is not None and acc._tally.cells is None
    on_host = MacroF1Accumulator(labels=labels, ignore_index=-100)
    assert acc.counts == on_host.update(t[:400], p[:400]).counts


@pytest.mark.parametrize("device", DEVICES)
def test_wide_multilabel_moments_on_devices(
    device: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Above 256 labels the second moments are formed on the device in blocks
    (a few hundred entries each here) and kept as their occupied entries, as
    the host keeps them: the same records and delta intervals."""
    # the block size of the device's moments has no public face: made small
    from sklearn_macrof1._sources import _array_api

    monkeypatch.setattr(_array_api, "_MOMENT_BLOCK", 3 * 300 * 7)
    rng = np.random.default_rng(12)
    n, width = 200, 300
    t = (rng.random((n, width)) < 0.01).astype(np.int64)
    p = np.where(rng.random((n, width)) < 0.995, t, 1 - t)
    w = weights_for(device)[:n]
    rtol = tolerance(device)
    for weights in (None, w):
        W = None if weights is None else on(device, weights)
        got = MacroF1Counts.from_predictions(
            on(device, t), on(device, p), sample_weight=W, moments=True
        )
        expected = MacroF1Counts.from_predictions(
            t, p, sample_weight=weights, moments=True
        )
        assert_same_cells(got.moments, expected.moments, rtol)
        assert got.moments.nnz < (3 * width) ** 2 / 10  # only the occupied entries
        assert_same_interval(
            fbeta_confidence_interval(on(device, t), on(device, p), sample_weight=W),
            fbeta_confidence_interval(t, p, sample_weight=weights),
            rtol,
        )
        assert_same_interval(
            fbeta_confidence_interval(got), fbeta_confidence_interval(expected), rtol
        )


def test_wide_multilabel_moments_cost_the_pairs_of_entries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Above 256 labels the device lists the pairs of entries each sample
    holds (O(sum of its squared entries), as the host's sparse product), never
    a dense ``3L x 3L`` product over the samples: 20,000 labels of a few
    entries per sample give the host's moments and interval, no product made."""
    # the block size of the device's moments has no public face: set to 5 rows
    from sklearn_macrof1._sources import _array_api

    def dense_product(*args: Any) -> Any:
        raise AssertionError("a dense product of the indicator rows")

    monkeypatch.setattr(xs, "matmul", dense_product)
    monkeypatch.setattr(_array_api, "_MOMENT_BLOCK", 20_000 * 3 * 5 + 1)  # 5 rows
    rng = np.random.default_rng(13)
    n, width = 40, 20_000
    t = np.zeros((n, width), dtype=np.int64)
    t[np.arange(n), rng.integers(0, width, n)] = 1
    t[np.arange(0, n, 2), rng.integers(0, width, n // 2)] = 1
    p = t.copy()
    p[np.arange(0, n, 3), rng.integers(0, width, (n + 2) // 3)] = 1
    p[5] = 0  # a sample with no predicted label
    w = weights_for("device1")[:n]
    for weights in (None, w):
        W = None if weights is None else on("device1", weights)
        T, P = on("device1", t), on("device1", p)
        got = MacroF1Counts.from_predictions(T, P, sample_weight=W, moments=True)
        expected = MacroF1Counts.from_predictions(
            t, p, sample_weight=weights, moments=True
        )
        assert_same_cells(got.moments, expected.moments, 1e-12)
        assert got.moments.nnz <= 9 * 4 * n  # the pairs, never (3L)**2
        assert_same_interval(
            fbeta_confidence_interval(T, P, sample_weight=W),
            fbeta_confidence_interval(t, p, sample_weight=weights),
            1e-9,
        )
    empty = MacroF1Counts.from_predictions(
        on("device1", t[:, :300] * 0), on("device1", t[:, :300] * 0), moments=True
    )
    assert sp.issparse(empty.moments) and empty.moments.nnz == 0


# ------------------------------------------------------- PyTorch


def test_torch_cpu_tensors() -> None:
    torch = pytest.importorskip("torch")
    t, p, w = torch.as_tensor(Y_TRUE), torch.as_tensor(Y_PRED), torch.as_tensor(WEIGHTS)
    got = averaged_f1_score(t, p, average=None, sample_weight=w)
    assert isinstance(got, torch.Tensor) and got.device.type == "cpu"
    expected = averaged_f1_score(Y_TRUE, Y_PRED, average=None, sample_weight=WEIGHTS)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
    logits = torch.randn(N, 5, requires_grad=True)
    assert f1_of_averages_score(t, logits.argmax(1)) == f1_of_averages_score(
        Y_TRUE, logits.argmax(1).numpy()
    )
    with sklearn.config_context(array_api_dispatch=False):  # as scikit-learn: NumPy
        got = averaged_f1_score(t, p, average=None)
        assert isinstance(got, np.ndarray)


@pytest.mark.parametrize(
    ("arrays", "options"),
    [
        ((Y_TRUE, Y_PRED, Y_OTHER), {"method": "bootstrap"}),
        ((Y_TRUE, Y_PRED, Y_OTHER), {"method": "delta"}),
        ((M_TRUE, M_PRED, M_OTHER), {"method": "jackknife"}),
        ((M_TRUE, M_PRED, M_OTHER), {"method": "delta", "average": "samples"}),
    ],
)
def test_torch_cpu_comparisons_are_numpys(arrays: tuple, options: dict) -> None:
    # CPU tensors that NumPy views are compared as the NumPy arrays they view
    # (each pair's cells or samples from the in-memory targets)
    torch = pytest.importorskip("torch")
    tensors = [torch.as_tensor(y) for y in arrays]
    options = {"n_resamples": 50, "random_state": 0, **options}
    got = compare_classifiers(*tensors, **options)
    assert_same_comparison(got, compare_classifiers(*arrays, **options), 0.0)


def test_torch_kernels_on_the_device(monkeypatch: pytest.MonkeyPatch) -> None:
    """PyTorch's own kernels (bincount, nonzero), as they run on a GPU: CPU
    tensors counted as if NumPy could not view them."""
    torch = pytest.importorskip("torch")
    # the device test and the tally's fold size have no public face: forced
    from sklearn_macrof1._sources import _array_api

    monkeypatch.setattr(_array_api, "_is_cpu", lambda device: False)
    t, p, q = (torch.as_tensor(y) for y in (Y_TRUE, Y_PRED, Y_OTHER))
    # weights in 1/64ths: every sum exact, whatever the order a device adds in
    # (NumPy adds each class's weights in sample order, as scikit-learn does)
    dyadic = np.round(WEIGHTS * 64) / 64
    w = torch.as_tensor(WEIGHTS)
    assert MacroF1Counts.from_predictions(
        t, p, sample_weight=torch.as_tensor(dyadic), moments=True
    ) == MacroF1Counts.from_predictions(
        Y_TRUE, Y_PRED, sample_weight=dyadic, moments=True
    )
    mt, mp = torch.as_tensor(M_TRUE), torch.as_tensor(M_PRED)
    assert MacroF1Counts.from_predictions(mt, mp) == MacroF1Counts.from_predictions(
        M_TRUE, M_PRED
    )
    many_t = torch.as_tensor(RNG.integers(0, 3000, N))
    many_p = torch.as_tensor(RNG.integers(0, 3000, N))
    assert MacroF1Counts.from_predictions(many_t, many_p) == (
        MacroF1Counts.from_predictions(many_t.numpy(), many_p.numpy())
    )
    # the tally's cells folded by PyTorch's sort, nonzero and cumulative sum
    monkeypatch.setattr(_array_api, "_FOLD_AT", 100)
    acc = MacroF1Accumulator(labels=np.arange(3000), keep="cells")
    for start in range(0, N, 64):
        acc.update(many_t[start : start + 64], many_p[start : start + 64])
    assert acc._tally is not None and acc._tally.dev.xp.__name__.endswith("torch")
    assert acc.counts == MacroF1Counts.from_predictions(
        many_t.numpy(), many_p.numpy(), labels=np.arange(3000)
    )
    got = compare_classifiers(t, p, q, sample_weight=w)
    expected = compare_classifiers(Y_TRUE, Y_PRED, Y_OTHER, sample_weight=WEIGHTS)
    assert got.averaged_fbeta.p_value == pytest.approx(
        expected.averaged_fbeta.p_value, rel=1e-9
    )
    got = compare_classifiers(
        mt,
        mp,
        torch.as_tensor(M_OTHER),
        sample_weight=w,
        average="micro",
        method="delta",
    )
    expected = compare_classifiers(
        M_TRUE, M_PRED, M_OTHER, sample_weight=WEIGHTS, average="micro", method="delta"
    )
    assert_same_comparison(got, expected, 1e-9)


def test_decision_rules_copy_device_scores_to_the_host() -> None:
    """Tuning sorts every sample's scores: device arrays are copied to the host
    (with the dispatch setting), refused without it."""
    from sklearn_macrof1 import tune_decision_rule

    device = xs.Device("device1")
    scores = RNG.normal(size=(N, 5)) + 1.5 * np.eye(5)[Y_TRUE]
    rule = tune_decision_rule(  # one seed: the rule selection's folds are shuffled
        xs.asarray(Y_TRUE, device=device),
        xs.asarray(scores, device=device),
        random_state=0,
    )
    assert rule == tune_decision_rule(Y_TRUE, scores, random_state=0)
    np.testing.assert_array_equal(
        rule.predict(xs.asarray(scores, device=device)), rule.predict(scores)
    )
    with sklearn.config_context(array_api_dispatch=False):
        with pytest.raises(ValueError, match="array_api_dispatch=True"):
            rule.predict(xs.asarray(scores, device=device))


@pytest.mark.parametrize("method", ["auto", "posterior", "bootstrap"])
def test_torch_cpu_intervals_above_2048_classes_are_numpys(method: str) -> None:
    # above 2,048 classes the drawing methods read the occupied cells the count
    # record holds: CPU tensors that NumPy views must be counted with them
    # (they crashed, and the bootstrap redrew samples instead of cells)
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3000, 3000)
    p = np.where(rng.random(3000) < 0.6, y, rng.integers(0, 3000, 3000))
    options = {"method": method, "n_resamples": 50, "random_state": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = fbeta_confidence_interval(
            torch.as_tensor(y), torch.as_tensor(p), **options
        )
        expected = fbeta_confidence_interval(y, p, **options)
    assert got == expected
