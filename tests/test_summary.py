"""FBetaSummary: every field against scikit-learn, serialisation, the paper's
figures (gap_bound, gap_closed_form) and its text form."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.metrics import (
    confusion_matrix,
    f1_score,
    fbeta_score,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
)
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_macrof1 import (
    FBetaInterval,
    FBetaSummary,
    MacroF1Counts,
    fbeta_confidence_interval,
    fbeta_summary,
    gap_bound,
    gap_closed_form,
)

Y_TRUE = ["cat", "dog", "dog", "eel", "cat", "eel", "eel", "dog", "cat", "cat"]
Y_PRED = ["cat", "cat", "dog", "eel", "cat", "dog", "cat", "dog", "eel", "cat"]
WEIGHT = [1.0, 2.0, 0.5, 1.0, 3.0, 1.0, 0.25, 1.0, 2.0, 1.0]


def _fbeta(p, r, beta):
    b2 = beta * beta
    return 0.0 if p == r == 0 else (1 + b2) * p * r / (b2 * p + r)


@pytest.mark.parametrize("average", ["macro", "micro", "weighted"])
@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0])
@pytest.mark.parametrize("weighted", [False, True])
def test_every_field_against_sklearn(average, beta, weighted):
    sw = WEIGHT if weighted else None
    s = fbeta_summary(Y_TRUE, Y_PRED, beta=beta, average=average, sample_weight=sw)
    assert isinstance(s, FBetaSummary)
    kw = {"average": average, "sample_weight": sw}
    p = precision_score(Y_TRUE, Y_PRED, **kw)
    r = recall_score(Y_TRUE, Y_PRED, **kw)
    assert s.precision == pytest.approx(p, abs=1e-12)
    assert s.recall == pytest.approx(r, abs=1e-12)
    assert s.averaged_fbeta == pytest.approx(
        fbeta_score(Y_TRUE, Y_PRED, beta=beta, **kw), abs=1e-12
    )
    assert s.fbeta_of_averages == pytest.approx(_fbeta(p, r, beta), abs=1e-12)
    assert s.gap == pytest.approx(s.fbeta_of_averages - s.averaged_fbeta, abs=1e-15)
    assert s.average == average and s.beta == beta
    assert s.target_type == "multiclass"
    # per-class figures: sklearn's average=None
    cp, cr, cf, support = precision_recall_fscore_support(
        Y_TRUE, Y_PRED, beta=beta, average=None, sample_weight=sw
    )
    np.testing.assert_array_equal(s.labels, ["cat", "dog", "eel"])
    np.testing.assert_array_equal(s.classes, ["cat", "dog", "eel"])
    np.testing.assert_allclose(s.class_precision, cp, rtol=0, atol=1e-12)
    np.testing.assert_allclose(s.class_recall, cr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(s.class_fbeta, cf, rtol=0, atol=1e-12)
    np.testing.assert_allclose(s.support, support, rtol=0, atol=1e-12)
    m = confusion_matrix(Y_TRUE, Y_PRED, sample_weight=sw)
    np.testing.assert_allclose(s.confusion_matrix, m, rtol=0, atol=1e-12)
    np.testing.assert_allclose(s.true_positives, np.diag(m), atol=1e-12)
    np.testing.assert_allclose(s.predicted, m.sum(axis=0), atol=1e-12)
    assert s.n_classes == 3


def test_average_none_fields():
    s = fbeta_summary(
        Y_TRUE, Y_PRED, average=None, labels=["eel", "cat", "fox"], zero_division=0
    )
    p, r, f, support = precision_recall_fscore_support(
        Y_TRUE, Y_PRED, average=None, labels=["eel", "cat", "fox"], zero_division=0
    )
    np.testing.assert_array_equal(s.labels, ["eel", "cat", "fox"])
    np.testing.assert_allclose(s.precision, p)
    np.testing.assert_allclose(s.recall, r)
    np.testing.assert_allclose(s.averaged_fbeta, f)
    np.testing.assert_allclose(s.fbeta_of_averages, f)  # they coincide per class
    np.testing.assert_allclose(s.gap, 0.0, atol=1e-15)
    np.testing.assert_array_equal(s.support, support)


def test_binary_fields():
    y_true, y_pred = [0, 1, 1, 0, 1], [0, 1, 0, 1, 1]
    s = fbeta_summary(y_true, y_pred, average="binary")
    assert s.target_type == "binary"
    np.testing.assert_array_equal(s.labels, [1])
    assert s.averaged_fbeta == pytest.approx(f1_score(y_true, y_pred))
    assert s.fbeta_of_averages == pytest.approx(f1_score(y_true, y_pred))


def test_multilabel_samples_fields():
    y_true = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]])
    y_pred = np.array([[1, 1, 0], [0, 1, 0], [0, 1, 1]])
    s = fbeta_summary(y_true, y_pred, average="samples")
    assert s.target_type == "multilabel-indicator"
    assert s.confusion_matrix is None
    assert s.averaged_fbeta == pytest.approx(
        f1_score(y_true, y_pred, average="samples")
    )
    p = precision_score(y_true, y_pred, average="samples")
    r = recall_score(y_true, y_pred, average="samples")
    assert s.fbeta_of_averages == pytest.approx(2 * p * r / (p + r))
    # per-class figures are still per label (columns)
    cp = precision_score(y_true, y_pred, average=None)
    np.testing.assert_allclose(s.class_precision, cp)
    np.testing.assert_array_equal(s.labels, [0, 1, 2])


@pytest.mark.parametrize("average", ["macro", "micro", "weighted", None, "binary"])
@pytest.mark.parametrize("zero_division", ["warn", 0, 1, np.nan])
def test_to_dict_is_json_serialisable(average, zero_division):
    y_true, y_pred = [0, 1, 1, 0, 1, 1], [0, 1, 0, 0, 0, 0]
    s = fbeta_summary(y_true, y_pred, average=average, zero_division=zero_division)
    d = s.to_dict()
    text = json.dumps(d)  # no numpy scalars or arrays left
    back = json.loads(text.replace("NaN", "null"))
    assert set(d) >= {
        "averaged_fbeta",
        "fbeta_of_averages",
        "gap",
        "precision",
        "recall",
        "labels",
        "class_precision",
        "class_recall",
        "class_fbeta",
        "support",
        "n_classes",
        "gap_bound",
        "gap_closed_form",
        "confusion_matrix",
    }
    assert back["n_classes"] == s.n_classes
    if average is not None:
        assert d["averaged_fbeta"] == pytest.approx(s.averaged_fbeta, nan_ok=True)
    assert d["labels"] == s.labels.tolist()


def test_to_dict_with_string_labels():
    d = fbeta_summary(Y_TRUE, Y_PRED).to_dict()
    json.dumps(d)
    assert d["labels"] == ["cat", "dog", "eel"]
    assert isinstance(d["labels"][0], str)


def test_gap_bound_is_theorem_3():
    assert fbeta_summary(Y_TRUE, Y_PRED).gap_bound == gap_bound(3)
    assert fbeta_summary([0, 1, 1], [0, 1, 0]).gap_bound == 0.5


def test_gap_closed_form_only_where_the_lemma_applies():
    s = fbeta_summary(Y_TRUE, Y_PRED, zero_division=0)
    assert s.gap_closed_form == pytest.approx(s.gap, abs=1e-12)
    assert s.gap_closed_form == pytest.approx(
        gap_closed_form(s.class_precision, s.class_recall)
    )
    assert fbeta_summary(Y_TRUE, Y_PRED, beta=2.0).gap_closed_form is None
    assert fbeta_summary(Y_TRUE, Y_PRED, average="weighted").gap_closed_form is None
    # zero_division=nan leaves classes out of the mean: the Lemma does not apply
    s = fbeta_summary([0, 1, 2], [0, 1, 1], zero_division=np.nan)
    assert s.gap_closed_form is None


def test_str_shows_both_scores_and_gap():
    s = fbeta_summary(Y_TRUE, Y_PRED)
    text = str(s)
    head, values = text.splitlines()[1], text.splitlines()[3]
    assert re.split(r"\s{2,}", head) == [
        "average",
        "averaged F1",
        "F1 of averages",
        "gap",
        "gap bound",
        "precision",
        "recall",
    ]
    assert values.split() == [
        "macro",
        *(f"{v:.4f}" for v in (s.averaged_fbeta, s.fbeta_of_averages, s.gap)),
        *(f"{v:.4f}" for v in (s.gap_bound, s.precision, s.recall)),
    ]
    text2 = str(fbeta_summary(Y_TRUE, Y_PRED, beta=0.5, average=None))
    assert "F0.5" in text2
    text3 = str(fbeta_summary([0, 1], [0, 1], labels=[5], zero_division=np.nan))
    assert "nan" in text3


def test_summary_is_frozen():
    s = fbeta_summary(Y_TRUE, Y_PRED)
    with pytest.raises(AttributeError):
        s.gap = 0.0  # type: ignore[misc]


def test_summary_from_matrix_equals_summary_from_labels_table1():
    s = fbeta_summary(
        MacroF1Counts.from_confusion_matrix([[100, 10000], [0, 100]], rows="predicted")
    )
    assert math.isclose(s.gap, 0.4853426519122496, abs_tol=1e-12)
    assert s.to_dict()["gap"] == s.gap


@pytest.mark.slow
def test_a_summary_of_many_classes_keeps_its_confusion_matrix_as_occupied_cells():
    import scipy.sparse as sp
    from sklearn.metrics import confusion_matrix

    rng = np.random.default_rng(0)
    k = 3_000  # above the 2,048 classes of a dense matrix
    y_true = rng.integers(0, k, 20_000)
    y_pred = np.where(rng.random(20_000) < 0.6, y_true, rng.integers(0, k, 20_000))
    w = rng.random(20_000)
    for weights in (None, w):
        s = fbeta_summary(y_true, y_pred, sample_weight=weights, zero_division=0.0)
        assert sp.issparse(s.confusion_matrix)
        dense = confusion_matrix(
            y_true, y_pred, labels=s.classes, sample_weight=weights
        )
        np.testing.assert_array_equal(s.confusion_matrix.toarray(), dense)
        assert s == fbeta_summary(
            y_true, y_pred, sample_weight=weights, zero_division=0.0
        )
        cells = s.to_dict()["confusion_matrix"]
        assert cells["shape"] == [s.classes.shape[0]] * 2
        assert len(cells["data"]) == s.confusion_matrix.nnz
    # the occupied cells give the interval of the samples; weighted, the
    # delta method reads the second moments, counted when asked
    with pytest.raises(ValueError, match="moments=True"):
        s.confidence_interval()
    plain = fbeta_summary(y_true, y_pred, zero_division=0.0)
    expected = fbeta_confidence_interval(y_true, y_pred, zero_division=0.0)
    got = plain.confidence_interval()
    for name in ("averaged_fbeta", "fbeta_of_averages"):
        a, b = getattr(got, name), getattr(expected, name)
        np.testing.assert_allclose(
            [a.estimate, a.low, a.high, a.std_error],
            [b.estimate, b.low, b.high, b.std_error],
            rtol=1e-12,
        )


def test_gap_closed_form_of_many_classes_in_linear_memory():
    """The Lemma's double sum over 20,000 classes, as ``to_dict`` and the CLI
    ask for it: O(k) memory (a block of pairs would take hundreds of MiB)."""
    import tracemalloc

    rng = np.random.default_rng(0)
    k = 20_000
    p, r = rng.random(k), rng.random(k)
    p[::7] = 0.0  # classes with tp = 0 drop out
    r[::7] = 0.0
    tracemalloc.start()
    try:
        value = gap_closed_form(p, r)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 40 * 8 * k  # a few arrays of k values
    s = p + r
    keep = s > 0
    q, t, s = p[keep], r[keep], s[keep]
    # the double sum by rows, each row exact enough: 1e-12 absolute
    direct = sum(
        float(np.sum((q[i] * t - q * t[i]) ** 2 / (s[i] * s))) for i in range(q.size)
    ) / (k * float(s.sum()))
    assert value == pytest.approx(direct, abs=1e-12)


def test_gap_closed_form_is_zero_when_precision_equals_recall():
    """Theorem, part 2: every class with P = R (perfect predictions, or a
    symmetric confusion matrix) gives a gap of exactly 0."""
    assert gap_closed_form([1.0, 1.0, 1.0], [1.0, 1.0, 1.0]) == 0.0
    s = fbeta_summary([0, 1, 2, 0, 1, 2, 0], [1, 2, 0, 0, 1, 2, 0])
    np.testing.assert_array_equal(s.class_precision, s.class_recall)
    assert s.gap_closed_form == 0.0


# ------------------------------------------- the summary's interval is its record's


def _scored(n: int, k: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    return y, np.where(rng.random(n) < 0.7, y, rng.integers(0, k, n))


def _same_interval(a: FBetaInterval, b: FBetaInterval, rtol: float = 0.0) -> None:
    described = (a.confidence, a.method, a.n_samples)
    assert described == (b.confidence, b.method, b.n_samples)
    for name in ("averaged_fbeta", "fbeta_of_averages"):
        x, y = getattr(a, name), getattr(b, name)
        np.testing.assert_allclose(
            [x.estimate, x.low, x.high, x.std_error],
            [y.estimate, y.low, y.high, y.std_error],
            rtol=rtol,
            atol=1e-15 if rtol else 0,
        )


@pytest.mark.parametrize("weights", ["none", "integer", "float"])
def test_summary_interval_equals_the_function_on_the_same_data(weights: str) -> None:
    y, p = _scored(800, k=4)
    rng = np.random.default_rng(1)
    w = {
        "none": None,
        "integer": rng.integers(1, 4, y.shape[0]),
        "float": rng.random(y.shape[0]) + 0.1,
    }[weights]
    methods = ("delta", "bootstrap", "posterior") if w is None else ("delta",)
    for average in ("macro", "weighted", "micro"):
        summary = fbeta_summary(y, p, sample_weight=w, average=average, moments=True)
        for method in methods:
            options = {"method": method, "n_resamples": 200, "random_state": 0}
            expected = fbeta_confidence_interval(
                y, p, sample_weight=w, average=average, **options
            )
            assert summary.confidence_interval(**options) == expected
    # the interval of integer weights is that of sample weights (not of
    # frequency weights: a sample of weight 2 is not two samples)
    if weights == "integer":
        repeated = fbeta_confidence_interval(np.repeat(y, w), np.repeat(p, w))
        got = fbeta_summary(y, p, sample_weight=w, moments=True).confidence_interval()
        assert got.n_samples == y.shape[0] != repeated.n_samples
        assert got.averaged_fbeta.width > repeated.averaged_fbeta.width


@pytest.mark.filterwarnings("ignore::UserWarning")  # coverage, zero division
@pytest.mark.parametrize("sparse", [False, True])
def test_summary_interval_equals_the_function_for_multilabel_targets(sparse) -> None:
    rng = np.random.default_rng(2)
    y = rng.random((500, 5)) < 0.4
    p = np.where(rng.random((500, 5)) < 0.8, y, ~y)
    if sparse:
        y, p = sp.csr_array(y.astype(int)), sp.csr_array(p.astype(int))
    w = rng.random(500) + 0.1
    for weights in (None, w):
        for average in ("macro", "micro", "weighted", "samples"):
            summary = fbeta_summary(
                y, p, sample_weight=weights, average=average, moments=True
            )
            expected = fbeta_confidence_interval(
                y, p, sample_weight=weights, average=average
            )
            # the record's second moments, or the sum of each sample's terms
            _same_interval(summary.confidence_interval(), expected, rtol=1e-12)
    options = {"method": "bootstrap", "n_resamples": 100, "random_state": 0}
    summary = fbeta_summary(y, p, average="samples")
    assert summary.confidence_interval(**options) == fbeta_confidence_interval(
        y, p, average="samples", **options
    )


@pytest.mark.filterwarnings("ignore::UserWarning")  # coverage, zero division
def test_summary_interval_above_2048_classes_reads_the_counted_cells() -> None:
    y, p = _scored(12_000, k=2500, seed=3)
    summary = fbeta_summary(y, p, zero_division=0.0)
    assert sp.issparse(summary.confusion_matrix)
    for method in ("bootstrap", "posterior"):
        options = {"method": method, "n_resamples": 50, "random_state": 0}
        expected = fbeta_confidence_interval(y, p, zero_division=0.0, **options)
        assert summary.confidence_interval(**options) == expected
    # delta: the cells' moments, or the samples' terms (equal up to rounding)
    _same_interval(
        summary.confidence_interval(),
        fbeta_confidence_interval(y, p, zero_division=0.0),
        rtol=1e-12,
    )


def test_summary_interval_refuses_what_its_record_does_not_hold() -> None:
    y, p = _scored(300, k=3)
    w = np.linspace(0.5, 1.5, 300)
    weighted = fbeta_summary(y, p, sample_weight=w)
    with pytest.raises(
        ValueError,
        match=re.escape(
            "FBetaSummary.confidence_interval: the delta method for weighted "
            "targets needs the second moments of the counts, which this record "
            "does not carry; count it with "
            "fbeta_summary(y_true, y_pred, ..., moments=True)."
        ),
    ):
        weighted.confidence_interval()
    with_moments = fbeta_summary(y, p, sample_weight=w, moments=True)
    with pytest.raises(
        ValueError,
        match=re.escape(
            "compute the interval from the predictions with "
            "fbeta_confidence_interval(y_true, y_pred, ...)."
        ),
    ):
        with_moments.confidence_interval(method="bootstrap")
    with pytest.raises(ValueError, match="not defined with sample_weight"):
        with_moments.confidence_interval(method="posterior")
    with pytest.raises(InvalidParameterError, match="'moments' parameter"):
        fbeta_summary(y, p, moments="yes")
    record = MacroF1Counts.from_predictions(y, p)
    with pytest.raises(TypeError, match="no moments=True with a MacroF1Counts"):
        fbeta_summary(record, moments=True)


def test_summary_posterior_refusal_advises_only_what_the_record_gives() -> None:
    # a weighted record cannot give the bootstrap, nor the delta method
    # without its second moments: the refusal advises what will work
    y, p = _scored(300, k=3)
    w = np.linspace(0.5, 1.5, 300)
    for moments, advice in (
        (True, "use method='delta'."),
        (
            False,
            "compute the interval from the predictions with "
            "fbeta_confidence_interval(y_true, y_pred, ..., method='delta').",
        ),
    ):
        summary = fbeta_summary(y, p, sample_weight=w, moments=moments)
        with pytest.raises(ValueError) as caught:
            summary.confidence_interval(method="posterior")
        message = str(caught.value)
        assert "not defined with sample_weight" in message
        assert message.endswith(advice)
        assert "bootstrap" not in message
        if moments:  # the advice holds
            assert summary.confidence_interval(method="delta").method == "delta"
    # from the samples both alternatives work, and both are named
    with pytest.raises(ValueError, match="method='delta' or method='bootstrap'"):
        fbeta_confidence_interval(y, p, sample_weight=w, method="posterior")


def test_summary_interval_of_per_class_scores_names_how_to_get_one() -> None:
    # the summary fixed its average: the advice is to make it with another
    y, p = _scored(120, k=3)
    summary = fbeta_summary(y, p, average=None)
    with pytest.raises(
        ValueError,
        match=re.escape(
            "make the summary with fbeta_summary(y_true, y_pred, average=...) "
            "set to 'macro', 'micro', 'weighted'"
        ),
    ):
        summary.confidence_interval()
    with pytest.raises(ValueError, match="has no interval here; use 'macro'"):
        fbeta_confidence_interval(y, p, average=None)
