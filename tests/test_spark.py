"""Spark DataFrames: counted in Spark into the count record, scored by the verbs.

One local SparkSession (``local[2]``) serves the whole test session. It is
started with ``spark.driver.maxResultSize=2m``: any query that brought rows (not
the aggregated table) back to the driver fails, which is the driver-memory probe
of the large-DataFrame test. Every result must equal the in-memory call on the
same data, exactly; Spark's own weighted F-measure must equal ours.
"""

from __future__ import annotations

import re
import shutil
import warnings
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

pytestmark = pytest.mark.spark

pyspark = pytest.importorskip("pyspark")
if shutil.which("java") is None:  # pragma: no cover - depends on the machine
    pytest.skip("Spark needs Java (17 or later)", allow_module_level=True)

from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402

from sklearn_macrof1 import (  # noqa: E402
    MacroF1Counts,
    averaged_f1_score,
    averaged_fbeta_score,
    classification_report,
    f1_of_averages_score,
    fbeta_confidence_interval,
    fbeta_of_averages_score,
    fbeta_summary,
)

# the Spark queries and their limits (MAX_PAIRS, MAX_MOMENT_LABELS) have no
# public face: the plan of a query is read, the limits made small
from sklearn_macrof1._sources import _spark_frames as _spark  # noqa: E402
from sklearn_macrof1.spark import MacroF1Evaluator, counts_from_dataframe  # noqa: E402

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

# What the interval functions say when a record counted in Spark cannot give
# an interval (the rows never reached this process).
BOOTSTRAP_OF_WEIGHTS = "bootstrap with sample weights redraws every sample"
BOOTSTRAP_OF_LABEL_SETS = "for average='%s' redraws every sample's labels"
BOOTSTRAP_OF_WEIGHTED_HISTOGRAM = "with its weight, which the histogram"
COUNT_WITH_MOMENTS = r"needs the second moments .* moments=True\)"


@pytest.fixture(scope="session")
def spark():
    session = (
        SparkSession.builder.master("local[2]")
        .appName("sklearn-macrof1-tests")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.default.parallelism", "4")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.maxResultSize", "2m")
        .config("spark.sql.execution.arrow.pyspark.enabled", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _labels(seed: int, n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, k, size=n)
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, k, size=n))
    return y_true, y_pred


def _frame(spark, y_true, y_pred, weights=None):
    columns = [y_true.tolist(), y_pred.tolist()]
    names = ["label", "prediction"]
    if weights is not None:
        columns.append(weights.tolist())
        names.append("weight")
    df = spark.createDataFrame(list(zip(*columns, strict=True)), names).cache()
    df.count()  # materialised once in the JVM: later queries start no Python worker
    return df


def assert_exact(a: Any, b: Any) -> None:
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def assert_same_summary(ours: Any, direct: Any) -> None:
    for name in SUMMARY_FIELDS:
        assert_exact(getattr(ours, name), getattr(direct, name))
    assert ours.labels.tolist() == direct.labels.tolist()
    assert ours.classes.tolist() == direct.classes.tolist()
    assert ours.classes.dtype.kind == direct.classes.dtype.kind
    assert ours.target_type == direct.target_type
    assert_exact(ours.confusion_matrix, direct.confusion_matrix)
    assert ours.confusion_matrix.dtype == direct.confusion_matrix.dtype


def assert_same_interval(ours: Any, direct: Any, *, rel: float) -> None:
    """Equal settings, and both intervals equal to ``rel``."""
    a, b = ours.to_dict(), direct.to_dict()
    for name in ("averaged_fbeta", "fbeta_of_averages"):
        assert a.pop(name) == pytest.approx(b.pop(name), rel=rel, abs=0.0), name
    assert a == b


def outcome(func, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = func(*args, **kwargs)
    return value, sorted({(w.category.__name__, str(w.message)) for w in caught})


# ------------------------------------------------------------------ parity


@pytest.mark.parametrize("kind", ["int", "double", "string"])
def test_summary_equals_numpy_for_every_average(spark, kind) -> None:
    y_true, y_pred = _labels(0, 3000, 5)
    if kind == "double":
        y_true, y_pred = y_true.astype(float), y_pred.astype(float)
    elif kind == "string":
        names = np.array(["ant", "bee", "cat", "dog", "eel"])
        y_true, y_pred = names[y_true], names[y_pred]
    df = _frame(spark, y_true, y_pred)
    for average, beta in (
        (None, 1.0),
        ("micro", 1.0),
        ("macro", 0.5),
        ("weighted", 2.0),
    ):
        assert_same_summary(
            fbeta_summary(counts_from_dataframe(df), average=average, beta=beta),
            fbeta_summary(y_true, y_pred, average=average, beta=beta),
        )


def test_binary_and_pos_label(spark) -> None:
    y_true, y_pred = _labels(1, 500, 2)
    df = _frame(spark, y_true, y_pred)
    for pos_label in (0, 1):
        assert_same_summary(
            fbeta_summary(
                counts_from_dataframe(df), average="binary", pos_label=pos_label
            ),
            fbeta_summary(y_true, y_pred, average="binary", pos_label=pos_label),
        )
    with pytest.raises(ValueError, match="pos_label=7 is not a valid label"):
        fbeta_summary(counts_from_dataframe(df), average="binary", pos_label=7)


def test_scores_equal_numpy_with_weights_and_absent_labels(spark) -> None:
    y_true, y_pred = _labels(2, 2000, 4)
    # quarter weights: every partial sum is exact, so summation order is moot
    weights = np.random.default_rng(3).integers(0, 8, size=2000) / 4
    df = _frame(spark, y_true, y_pred, weights)
    for labels in (None, [3, 0, 9], [1, 2]):
        counts = counts_from_dataframe(df, weight_col="weight", labels=labels)
        for average in (None, "micro", "macro", "weighted"):
            kw = {"average": average, "zero_division": 0.0}
            assert_same_summary(
                fbeta_summary(counts, beta=2.0, **kw),
                fbeta_summary(
                    y_true, y_pred, sample_weight=weights, beta=2.0, labels=labels, **kw
                ),
            )
    counts = counts_from_dataframe(df, weight_col="weight", labels=[3, 0, 9])
    kw = {"labels": [3, 0, 9], "zero_division": 0.0}
    pairs = [
        (
            averaged_fbeta_score(counts, beta=2.0, zero_division=0.0),
            averaged_fbeta_score(y_true, y_pred, beta=2.0, sample_weight=weights, **kw),
        ),
        (
            fbeta_of_averages_score(counts, beta=2.0, zero_division=0.0),
            fbeta_of_averages_score(
                y_true, y_pred, beta=2.0, sample_weight=weights, **kw
            ),
        ),
        (
            averaged_f1_score(counts, zero_division=0.0),
            averaged_f1_score(y_true, y_pred, sample_weight=weights, **kw),
        ),
        (
            f1_of_averages_score(counts, zero_division=0.0),
            f1_of_averages_score(y_true, y_pred, sample_weight=weights, **kw),
        ),
    ]
    for ours, direct in pairs:
        assert ours == direct


def test_zero_weights_keep_their_classes(spark) -> None:
    y_true = np.array([0, 1, 2, 2, 1])
    y_pred = np.array([0, 2, 2, 1, 1])
    weights = np.array([1.0, 0.0, 2.0, 0.0, 1.0])
    df = _frame(spark, y_true, y_pred, weights)
    assert_same_summary(
        fbeta_summary(
            counts_from_dataframe(df, weight_col="weight"), zero_division=0.0
        ),
        fbeta_summary(y_true, y_pred, sample_weight=weights, zero_division=0.0),
    )


@pytest.mark.parametrize("zero_division", ["warn", 0.0, 1.0, np.nan])
def test_zero_division_values_and_warnings(spark, zero_division) -> None:
    y_true = np.array([0, 0, 1, 1, 2])
    y_pred = np.array([0, 0, 1, 0, 0])  # class 2 never predicted
    df = _frame(spark, y_true, y_pred)
    kw = {"zero_division": zero_division, "labels": [0, 1, 2, 3]}
    counts = counts_from_dataframe(df, labels=[0, 1, 2, 3])
    for score in (averaged_f1_score, f1_of_averages_score):
        ours, ours_warnings = outcome(score, counts, zero_division=zero_division)
        direct, direct_warnings = outcome(score, y_true, y_pred, **kw)
        assert_exact(ours, direct)
        assert ours_warnings == direct_warnings


def test_report_equals_numpy(spark) -> None:
    y_true, y_pred = _labels(4, 1500, 4)
    names = np.array(["a", "b", "c", "d"])
    y_true, y_pred = names[y_true], names[y_pred]
    df = _frame(spark, y_true, y_pred)
    counts = counts_from_dataframe(df)
    for kw in ({}, {"labels": ["d", "a", "z"]}, {"digits": 4}):
        assert classification_report(counts, zero_division=0.0, **kw) == (
            classification_report(y_true, y_pred, zero_division=0.0, **kw)
        )
    assert classification_report(
        counts_from_dataframe(df, labels=["d", "a", "z"]), zero_division=0.0
    ) == classification_report(
        y_true, y_pred, labels=["d", "a", "z"], zero_division=0.0
    )
    # fixed string labels given as an object array are the same fixed labels
    boxed = counts_from_dataframe(df, labels=np.array(["d", "a", "z"], dtype=object))
    plain = MacroF1Counts.from_predictions(y_true, y_pred, labels=["d", "a", "z"])
    assert boxed + plain == plain + plain
    ours = classification_report(
        counts, output_dict=True, confidence=0.9, interval_method="bootstrap",
        n_resamples=200, random_state=0,
    )  # fmt: skip
    direct = classification_report(
        y_true, y_pred, output_dict=True, confidence=0.9, interval_method="bootstrap",
        n_resamples=200, random_state=0,
    )  # fmt: skip
    assert ours == direct
    assert classification_report(counts, confidence=0.95) == (
        classification_report(y_true, y_pred, confidence=0.95)
    )


@pytest.mark.parametrize("average", ["macro", "micro", "weighted"])
def test_intervals_equal_numpy(spark, average) -> None:
    y_true, y_pred = _labels(5, 2500, 3)
    df = _frame(spark, y_true, y_pred)
    for method in ("delta", "bootstrap"):
        ours = fbeta_confidence_interval(
            counts_from_dataframe(df), average=average, method=method,
            n_resamples=300, random_state=1,
        )  # fmt: skip
        direct = fbeta_confidence_interval(
            y_true, y_pred, average=average, method=method, n_resamples=300,
            random_state=1,
        )  # fmt: skip
        assert ours.to_dict() == direct.to_dict()
    # the default ("auto": the posterior, seeded by the counts)
    ours = fbeta_confidence_interval(counts_from_dataframe(df), average=average)
    direct = fbeta_confidence_interval(y_true, y_pred, average=average)
    assert ours.method == "posterior"
    assert ours.to_dict() == direct.to_dict()


def test_weighted_intervals_equal_numpy(spark) -> None:
    """With weight_col the delta method reads each cell's sum of squared
    weights, aggregated in Spark beside the sum of the weights: the numpy
    intervals to 1e-12 (Spark adds the non-integer weights in its own order).
    The bootstrap would redraw every row with its weight: refused."""
    y_true, y_pred = _labels(6, 1500, 4)
    weights = np.random.default_rng(7).random(1500) * 3
    df = _frame(spark, y_true, y_pred, weights)
    counted = {"weight_col": "weight", "moments": True}
    for average, labels in (
        ("macro", None),
        ("micro", [3, 0, 9]),
        ("weighted", [1, 2]),
        ("macro", [3, 0, 9]),
    ):
        kw = {"average": average, "beta": 2.0, "confidence": 0.9}
        assert_same_interval(
            fbeta_confidence_interval(
                counts_from_dataframe(df, labels=labels, **counted),
                zero_division=0.0,
                **kw,
            ),
            fbeta_confidence_interval(
                y_true,
                y_pred,
                sample_weight=weights,
                zero_division=0.0,
                labels=labels,
                **kw,
            ),  # fmt: skip
            rel=1e-12,
        )
    binary = _frame(spark, y_true % 2, y_pred % 2, weights)
    assert_same_interval(
        fbeta_confidence_interval(
            counts_from_dataframe(binary, **counted),
            average="binary",
            zero_division=0.0,
        ),
        fbeta_confidence_interval(
            y_true % 2,
            y_pred % 2,
            average="binary",
            sample_weight=weights,
            zero_division=0.0,
        ),  # fmt: skip
        rel=1e-12,
    )
    with_moments = counts_from_dataframe(df, **counted)
    _close_reports(
        classification_report(
            with_moments, confidence=0.95, output_dict=True, zero_division=0.0
        ),
        classification_report(
            y_true,
            y_pred,
            sample_weight=weights,
            confidence=0.95,
            output_dict=True,
            zero_division=0.0,
        ),  # fmt: skip
        rtol=1e-12,
    )
    # the squared weights are counted only when asked for
    without = counts_from_dataframe(df, weight_col="weight")
    assert without.moments is None
    assert with_moments.moments is not None
    with pytest.raises(ValueError, match=BOOTSTRAP_OF_WEIGHTS):
        fbeta_confidence_interval(with_moments, method="bootstrap", zero_division=0.0)
    with pytest.raises(ValueError, match="use interval_method='delta'"):
        classification_report(
            with_moments, confidence=0.9, interval_method="bootstrap", zero_division=0.0
        )
    with pytest.raises(ValueError, match=COUNT_WITH_MOMENTS):
        fbeta_confidence_interval(without, zero_division=0.0)


def test_spark_weighted_f_measure_is_our_weighted_averaged_f1(spark) -> None:
    """Cross-check against Spark itself: its "f1" is the weighted F-measure."""
    from pyspark.ml.evaluation import MulticlassClassificationEvaluator

    y_true, y_pred = _labels(7, 3000, 6)
    weights = np.random.default_rng(8).integers(1, 5, size=3000).astype(float)
    df = _frame(spark, y_true.astype(float), y_pred.astype(float), weights)
    for weight_col in (None, "weight"):
        evaluator = MulticlassClassificationEvaluator(metricName="f1")
        sample_weight = None
        if weight_col is not None:
            evaluator.setWeightCol(weight_col)
            sample_weight = weights
        theirs = evaluator.evaluate(df)
        counts = counts_from_dataframe(df, weight_col=weight_col)
        ours = averaged_f1_score(counts, average="weighted")
        assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-15)
        assert ours == averaged_f1_score(
            y_true, y_pred, sample_weight=sample_weight, average="weighted"
        )
        precision = evaluator.setMetricName("weightedPrecision").evaluate(df)
        recall = evaluator.setMetricName("weightedRecall").evaluate(df)
        summary = fbeta_summary(counts, average="weighted")
        assert summary.precision == pytest.approx(precision, rel=1e-12)
        assert summary.recall == pytest.approx(recall, rel=1e-12)


# --------------------------------------------------- only counts reach the driver


def test_large_dataframe_is_aggregated_in_spark(spark) -> None:
    """2e7 rows: far more than the 2 MB of results the session lets the driver
    take (spark.driver.maxResultSize), so collecting rows would fail. Label
    ``id % 7``; the prediction is one class off on every 11th row, so the
    counts follow from ``id % 77``."""
    n = 20_000_000
    label = F.col("id") % 7
    df = spark.range(n).select(
        label.alias("label"),
        F.when(F.col("id") % 11 == 0, (label + 1) % 7)
        .otherwise(label)
        .alias("prediction"),
    )
    summary = fbeta_summary(counts_from_dataframe(df))
    m = np.arange(77)
    times = n // 77 + (m < n % 77)
    expected = np.zeros((7, 7), dtype=np.int64)
    np.add.at(expected, (m % 7, (m % 7 + (m % 11 == 0)) % 7), times)
    assert_exact(summary.confusion_matrix, expected)
    direct = fbeta_summary(MacroF1Counts.from_confusion_matrix(expected, rows="true"))
    assert summary.averaged_fbeta == direct.averaged_fbeta
    assert summary.fbeta_of_averages == direct.fbeta_of_averages


def test_the_query_ends_in_an_aggregate(spark) -> None:
    """What the driver collects is the final aggregate, capped at MAX_PAIRS + 1
    rows; the one shuffle moves partial aggregates, not rows."""
    df = spark.range(10**9).select(
        (F.col("id") % 3).alias("label"),
        (F.col("id") % 4).alias("prediction"),
        (F.col("id") % 2).alias("weight"),
    )
    for weight_col in (None, "weight"):
        query = _spark.pair_query(df, "label", "prediction", weight_col, "t")[1]
        plan = query._jdf.queryExecution().executedPlan().toString()
        operators = [
            re.sub(r"^[\s+:-]*(\*\(\d+\)\s*)?", "", line)
            for line in plan.splitlines()[1:]
        ]
        assert operators[0] == f"CollectLimit {_spark.MAX_PAIRS + 1}", plan
        assert operators[1].startswith("HashAggregate(keys=[t#"), plan
        assert "partial_" not in operators[1], plan
        assert operators[2].startswith("Exchange hashpartitioning(t#"), plan
        assert operators[3].startswith("HashAggregate(keys=[t#"), plan
        assert "partial_count" in operators[3], plan
        assert sum("Exchange" in op for op in operators) == 1, plan
        assert not any(op.startswith(("Collect", "Take")) for op in operators[1:])


def test_collecting_rows_would_trip_the_probe(spark) -> None:
    """The probe works: collecting the rows of a large frame fails."""
    df = spark.range(1_000_000).select(F.rand(0).alias("label"))  # 8 MB
    with pytest.raises(Exception, match="maxResultSize"):
        df.collect()


# ------------------------------------------------------------------- bad input


def test_bad_input(spark, monkeypatch) -> None:
    df = spark.createDataFrame(
        [(0, 1, "x", 1.0), (1, 1, "y", 2.0)], ["l", "p", "s", "w"]
    )
    with pytest.raises(TypeError, match="Spark DataFrame"):
        counts_from_dataframe([0, 1])
    with pytest.raises(ValueError, match="label_col='label' is not a column"):
        counts_from_dataframe(df)
    with pytest.raises(TypeError, match="label_col must be the name"):
        counts_from_dataframe(df, label_col=F.col("l"), prediction_col="p")
    with pytest.raises(TypeError, match="weight_col='s' is a column of type string"):
        counts_from_dataframe(df, label_col="l", prediction_col="p", weight_col="s")
    with pytest.raises(ValueError, match="Mix of label input types|mix"):
        counts_from_dataframe(df, label_col="l", prediction_col="s")
    dates = df.select(F.current_date().alias("d"), "p")
    with pytest.raises(TypeError, match="label_col='d' is a column of type date"):
        counts_from_dataframe(dates, label_col="d", prediction_col="p")
    sets = spark.createDataFrame([([0, 1], [1], 1)], ["l", "p", "one"])
    with pytest.raises(TypeError, match="prediction_col='l' is an array column"):
        counts_from_dataframe(sets, label_col="one", prediction_col="l")
    with pytest.raises(TypeError, match="label_col='l' is an array column"):
        counts_from_dataframe(sets, label_col="l", prediction_col="one")
    with pytest.raises(TypeError, match="label sets in both label_col and pred"):
        counts_from_dataframe(sets, label_col="l", prediction_col="one", moments=True)
    nulls = spark.createDataFrame([(0, None), (1, 1)], "l int, p int")
    with pytest.raises(ValueError, match="prediction_col='p' holds 1 null values"):
        counts_from_dataframe(nulls, label_col="l", prediction_col="p")
    continuous = spark.createDataFrame([(0.5, 1.0), (1.0, 1.0)], ["l", "p"])
    with pytest.raises(ValueError, match="continuous"):
        counts_from_dataframe(continuous, label_col="l", prediction_col="p")
    nan = spark.createDataFrame([(float("nan"), 1.0), (1.0, 1.0)], ["l", "p"])
    with pytest.raises(ValueError, match="NaN"):
        counts_from_dataframe(nan, label_col="l", prediction_col="p")
    empty = df.limit(0)
    with pytest.raises(ValueError, match="empty"):
        counts_from_dataframe(empty, label_col="l", prediction_col="p")
    weights = spark.createDataFrame(
        [(0, 1, float("nan")), (1, 1, 0.0)], ["l", "p", "w"]
    )
    with pytest.raises(ValueError, match="non-finite"):
        counts_from_dataframe(
            weights, label_col="l", prediction_col="p", weight_col="w"
        )
    zeros = spark.createDataFrame([(0, 1, 0.0), (1, 1, 0.0)], ["l", "p", "w"])
    with pytest.raises(ValueError, match="only zeros"):
        counts_from_dataframe(zeros, label_col="l", prediction_col="p", weight_col="w")
    with pytest.raises(ValueError, match="average"):
        averaged_f1_score(
            counts_from_dataframe(df, label_col="l", prediction_col="p"), average="mean"
        )
    monkeypatch.setattr(_spark, "MAX_PAIRS", 3)
    many = spark.range(10).select(F.col("id").alias("l"), F.col("id").alias("p"))
    with pytest.raises(ValueError, match="more than 3 distinct"):
        counts_from_dataframe(many, label_col="l", prediction_col="p")


# ------------------------------------------------------------------- evaluator


def _label_sets(seed: int, n: int) -> list[tuple[list[str], list[str], float]]:
    rng = np.random.default_rng(seed)
    names = np.array(["ant", "bee", "cat", "dog", "eel"])

    def draw() -> list[str]:  # duplicates inside a set on purpose
        return names[rng.integers(0, 5, rng.integers(0, 5))].tolist()

    return [(draw(), draw(), float(rng.integers(0, 3))) for _ in range(n)]


@pytest.mark.parametrize("average", ["micro", "macro", "weighted", "samples", None])
def test_label_sets_equal_numpy_through_multilabel_binarizer(spark, average) -> None:
    from sklearn.preprocessing import MultiLabelBinarizer

    rows = _label_sets(5, 80)
    df = _set_frame(spark, rows)
    wanted = ["cat", "zebra", "ant"]  # zebra: in no set, an empty class
    universe = sorted({x for t, p, _ in rows for x in t + p})
    binarizer = MultiLabelBinarizer(classes=[*universe, "zebra"])
    T = binarizer.fit_transform([set(t) for t, _, _ in rows])
    P = binarizer.transform([set(p) for _, p, _ in rows])
    W = np.asarray([w for *_, w in rows])
    every = list(range(len(universe)))
    index = [[*universe, "zebra"].index(x) for x in wanted]
    compare = np.testing.assert_allclose if average == "samples" else assert_exact
    tolerance = {"rtol": 1e-13} if average == "samples" else {}
    for weight_col, weights in ((None, None), ("w", W)):
        for labels, columns in ((None, every), (wanted, index)):
            common = {"average": average, "zero_division": 0.0}
            columns_arg = None if labels is None and average == "samples" else columns
            counts = counts_from_dataframe(
                df, label_col="t", prediction_col="p", weight_col=weight_col,
                labels=labels,
            )  # fmt: skip
            for score in (averaged_fbeta_score, fbeta_of_averages_score):
                got = score(counts, beta=0.5, **common)
                want = score(
                    T, P, beta=0.5, sample_weight=weights, labels=columns_arg, **common
                )
                compare(got, want, **tolerance)
    summary = fbeta_summary(
        counts_from_dataframe(df, label_col="t", prediction_col="p"),
        average=average,
        zero_division=0.0,
    )
    assert_exact(summary.labels, np.asarray(universe))  # named by label value


def test_label_sets_duplicates_empty_and_null(spark) -> None:
    df = spark.createDataFrame(
        [([1, 1, 2], [2, 2]), ([], [1]), ([3], [])], "t array<int>, p array<int>"
    )
    # duplicates count once (sets), empty arrays are rows without labels
    T = np.array([[1, 1, 0], [0, 0, 0], [0, 0, 1]])
    P = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]])
    for average in ("micro", "macro", "samples"):
        options = {"average": average, "zero_division": 0.0}
        assert averaged_f1_score(
            counts_from_dataframe(df, label_col="t", prediction_col="p"), **options
        ) == averaged_f1_score(T, P, **options)
    doubles = spark.createDataFrame([([1, 2], [2.0])], "t array<int>, p array<double>")
    assert averaged_f1_score(
        counts_from_dataframe(doubles, label_col="t", prediction_col="p"),
        average="micro",
    ) == averaged_f1_score(np.array([[1, 1]]), np.array([[0, 1]]), average="micro")
    nulls = spark.createDataFrame(
        [([1], None), ([2], [2])], "t array<int>, p array<int>"
    )
    with pytest.raises(ValueError, match="prediction_col='p' holds 1 null values"):
        counts_from_dataframe(nulls, label_col="t", prediction_col="p")
    inner = spark.createDataFrame([([1, None], [1])], "t array<int>, p array<int>")
    with pytest.raises(ValueError, match="label_col='t' holds 1 label sets with null"):
        counts_from_dataframe(inner, label_col="t", prediction_col="p")
    mixed = spark.createDataFrame([(["a"], [1])], "t array<string>, p array<int>")
    with pytest.raises(ValueError, match="Mix of label input types"):
        counts_from_dataframe(mixed, label_col="t", prediction_col="p")


def _set_frame(spark, rows):
    df = spark.createDataFrame(rows, "t array<string>, p array<string>, w double")
    df = df.cache()
    df.count()  # materialised once in the JVM, as _frame does
    return df


def _binarized(rows, classes):
    from sklearn.preprocessing import MultiLabelBinarizer

    binarizer = MultiLabelBinarizer(classes=classes)
    T = binarizer.fit_transform([set(t) for t, _, _ in rows])
    P = binarizer.transform([set(p) for _, p, _ in rows])
    return T, P, np.asarray([w for *_, w in rows])


def _close_reports(ours: dict, theirs: dict, rtol: float = 1e-13) -> None:
    """Equal keys, equal values to ``rtol`` (the samples avg row sums over the
    histogram of per-row counts, Spark sums weights in its own order)."""
    assert list(ours) == list(theirs)
    for key, row in theirs.items():
        if isinstance(row, dict):
            assert list(ours[key]) == list(row), key
            for name, value in row.items():
                np.testing.assert_allclose(ours[key][name], value, rtol=rtol)
        else:
            np.testing.assert_allclose(ours[key], row, rtol=rtol)


def test_label_sets_report_equals_numpy(spark) -> None:
    """The report of label sets: per-label rows named by label value, the
    micro, macro, weighted and samples avg rows of the in-memory report of the
    binarized sets (``target_names``: the label values)."""
    rows = _label_sets(11, 120)
    df = _set_frame(spark, rows)
    universe = sorted({x for t, p, _ in rows for x in t + p})
    every = [*universe, "zebra"]
    T, P, W = _binarized(rows, every)
    wanted = ["dog", "zebra", "ant"]
    columns = [every.index(x) for x in wanted]
    cols = {"label_col": "t", "prediction_col": "p"}
    kw = {"zero_division": 0.0}
    for weight_col, weights, labels, direct_labels, names in (
        (None, None, None, list(range(len(universe))), universe),
        ("w", W, wanted, columns, wanted),
    ):
        counts = counts_from_dataframe(df, weight_col=weight_col, labels=labels, **cols)
        ours = classification_report(counts, **kw)
        theirs = classification_report(
            T, P, sample_weight=weights, labels=direct_labels, target_names=names,
            **kw,
        )  # fmt: skip
        assert ours == theirs
        _close_reports(
            classification_report(counts, output_dict=True, **kw),
            classification_report(
                T,
                P,
                sample_weight=weights,
                labels=direct_labels,
                target_names=names,
                output_dict=True,
                **kw,
            ),  # fmt: skip
        )
    # target_names replace the label values, with scikit-learn's length checks
    counts = counts_from_dataframe(df, **cols)
    named = classification_report(
        counts, target_names=[x.upper() for x in universe], output_dict=True, **kw
    )
    assert [key for key in named if key.isupper()] == [x.upper() for x in universe]
    with pytest.warns(UserWarning, match="labels size, 3, does not match"):
        classification_report(
            counts_from_dataframe(df, labels=wanted, **cols),
            target_names=["a"],
            zero_division=0.0,
        )
    with pytest.raises(ValueError, match="Number of classes, 5, does not match"):
        classification_report(counts, target_names=["a"], zero_division=0.0)


def test_label_sets_samples_intervals(spark) -> None:
    """average="samples" of label sets: the delta method equals the in-memory
    one; the bootstrap redraws the rows of the histogram counted in Spark,
    exactly as the in-memory histogram for the same seed."""
    rows = _label_sets(12, 400)
    df = _set_frame(spark, rows)
    universe = sorted({x for t, p, _ in rows for x in t + p})
    every = [*universe, "zebra"]
    T, P, _ = _binarized(rows, every)
    cols = {"label_col": "t", "prediction_col": "p"}
    for labels, columns in ((None, None), (["dog", "zebra", "ant"], [3, 5, 0])):
        if labels is None:
            T_, P_ = T[:, :-1], P[:, :-1]
        else:
            T_, P_ = T, P
        common = {"average": "samples", "zero_division": 0.0}
        counts = counts_from_dataframe(df, labels=labels, **cols)
        ours = fbeta_confidence_interval(counts, **common)
        direct = fbeta_confidence_interval(T_, P_, labels=columns, **common)
        assert_same_interval(ours, direct, rel=1e-12)
        # the in-memory record keeps the same histogram of per-sample counts
        boot = {"confidence": 0.9, "method": "bootstrap", "n_resamples": 300}
        ours = fbeta_confidence_interval(counts, random_state=3, **boot, **common)
        direct = fbeta_confidence_interval(
            MacroF1Counts.from_predictions(T_, P_, labels=columns),
            random_state=3,
            **boot,
            **common,
        )
        assert_same_interval(ours, direct, rel=1e-12)


@pytest.mark.parametrize("average", ["micro", "macro", "weighted", "samples"])
def test_label_sets_delta_intervals_equal_numpy(spark, average) -> None:
    """Label sets, delta method: the per-label counts and the 3L x 3L matrix of
    second moments of each row's (tp | true | pred) indicators (for samples,
    the histogram's sums of squared weights), aggregated in Spark, give the
    in-memory intervals of the binarized sets, with and without weights."""
    rows = _label_sets(14, 300)
    df = _set_frame(spark, rows)
    universe = sorted({x for t, p, _ in rows for x in t + p})
    every = [*universe, "zebra"]
    T, P, W = _binarized(rows, every)
    cols = {"label_col": "t", "prediction_col": "p"}
    wanted = ["dog", "zebra", "ant"]
    for weight_col, weights, labels, columns in (
        (None, None, None, None),
        ("w", W, wanted, [3, 5, 0]),
        ("w", W, None, None),
    ):
        T_, P_ = (T[:, :-1], P[:, :-1]) if labels is None else (T, P)
        common = {"average": average, "zero_division": 0.0, "beta": 0.5}
        counts = counts_from_dataframe(
            df, weight_col=weight_col, labels=labels, moments=True, **cols
        )
        assert_same_interval(
            fbeta_confidence_interval(counts, **common),
            fbeta_confidence_interval(
                T_, P_, sample_weight=weights, labels=columns, **common
            ),
            rel=1e-12,
        )


def test_label_sets_report_intervals_and_refusals(spark, monkeypatch) -> None:
    rows = _label_sets(15, 200)
    df = _set_frame(spark, rows)
    universe = sorted({x for t, p, _ in rows for x in t + p})
    T, P, W = _binarized(rows, universe)
    cols = {"label_col": "t", "prediction_col": "p"}
    weighted = counts_from_dataframe(df, weight_col="w", moments=True, **cols)
    _close_reports(
        classification_report(
            weighted, confidence=0.9, output_dict=True, zero_division=0.0
        ),
        classification_report(
            T,
            P,
            sample_weight=W,
            confidence=0.9,
            output_dict=True,
            zero_division=0.0,
            target_names=universe,
        ),  # fmt: skip
        rtol=1e-12,
    )
    boot = {"method": "bootstrap", "n_resamples": 50}
    counts = counts_from_dataframe(df, moments=True, **cols)
    with pytest.raises(ValueError, match=BOOTSTRAP_OF_LABEL_SETS % "macro"):
        fbeta_confidence_interval(counts, **boot)
    with pytest.raises(ValueError, match=BOOTSTRAP_OF_WEIGHTED_HISTOGRAM):
        fbeta_confidence_interval(weighted, average="samples", **boot)
    with pytest.raises(ValueError, match=BOOTSTRAP_OF_LABEL_SETS % "micro"):
        classification_report(counts, confidence=0.9, interval_method="bootstrap")
    # above the dense limit the moments are the aggregated pairs, sparse
    dense = counts_from_dataframe(df, weight_col="w", moments=True, **cols)
    monkeypatch.setattr(_spark, "MAX_MOMENT_LABELS", 2)
    cells = counts_from_dataframe(df, weight_col="w", moments=True, **cols)
    assert sp.issparse(cells.moments) and not sp.issparse(dense.moments)
    np.testing.assert_allclose(cells.moments.toarray(), dense.moments, rtol=1e-12)
    for average in ("micro", "macro"):
        assert_same_interval(
            fbeta_confidence_interval(cells, average=average, zero_division=0.0),
            fbeta_confidence_interval(dense, average=average, zero_division=0.0),
            rel=1e-12,
        )


def test_many_classes_keep_the_aggregated_pairs_as_cells(spark) -> None:
    """Above 2048 classes the aggregated (label, prediction) pairs are the
    occupied cells of the record's confusion matrix and second moments: the
    intervals of the numpy arrays, delta and bootstrap."""
    y_true, y_pred = _labels(23, 6_000, 3_000)
    weights = np.random.default_rng(24).uniform(0.2, 3.0, 6_000)
    df = _frame(spark, y_true, y_pred, weights)
    cols = {"label_col": "label", "prediction_col": "prediction"}
    weighted = counts_from_dataframe(df, weight_col="weight", moments=True, **cols)
    assert weighted.n_classes > 2048
    assert sp.issparse(weighted.confusion) and sp.issparse(weighted.moments)
    for average in ("macro", "micro", "weighted"):
        assert_same_interval(
            fbeta_confidence_interval(weighted, average=average, zero_division=0.0),
            fbeta_confidence_interval(
                y_true,
                y_pred,
                sample_weight=weights,
                average=average,
                zero_division=0.0,
            ),  # fmt: skip
            rel=1e-12,
        )
    plain = counts_from_dataframe(df, **cols)
    for options in ({}, {"method": "bootstrap", "n_resamples": 30, "random_state": 0}):
        assert_same_interval(
            fbeta_confidence_interval(plain, zero_division=0.0, **options),
            fbeta_confidence_interval(y_true, y_pred, zero_division=0.0, **options),
            rel=1e-12,
        )


def _training_frame(spark, n: int = 300):
    from pyspark.ml.linalg import Vectors

    rng = np.random.default_rng(9)
    x = rng.normal(size=(n, 3))
    y = np.argmax(x @ rng.normal(size=(3, 3)) + rng.normal(size=(n, 3)), axis=1)
    rows = [
        (Vectors.dense(row.tolist()), float(label))
        for row, label in zip(x, y, strict=True)
    ]
    return spark.createDataFrame(rows, ["features", "label"])


def test_evaluator_scores_like_the_functions(spark) -> None:
    y_true, y_pred = _labels(10, 800, 4)
    df = _frame(spark, y_true.astype(float), y_pred.astype(float))
    assert MacroF1Evaluator().evaluate(df) == averaged_f1_score(y_true, y_pred)
    assert MacroF1Evaluator(formula="of_averages").evaluate(df) == (
        f1_of_averages_score(y_true, y_pred)
    )
    evaluator = MacroF1Evaluator(average="weighted", beta=0.5, labels=[0.0, 5.0])
    assert evaluator.evaluate(df) == averaged_fbeta_score(
        y_true, y_pred, beta=0.5, average="weighted", labels=[0, 5], zero_division=0.0
    )
    assert evaluator.isLargerBetter()
    with pytest.raises(ValueError, match="formula must be one of"):
        MacroF1Evaluator(formula="harmonic").evaluate(df)
    with pytest.raises(ValueError, match="average must be one of"):
        MacroF1Evaluator(average="mean").evaluate(df)
    with pytest.raises(ValueError, match="only available for multilabel targets"):
        MacroF1Evaluator(average="samples").evaluate(df)  # 1-D labels
    with pytest.raises(TypeError, match="zeroDivision"):
        MacroF1Evaluator(zeroDivision=0.5)


def test_evaluator_scores_label_sets(spark) -> None:
    """Array columns (label sets): every average of both formulas, weighted,
    equals the in-memory score of the binarized sets."""
    rows = _label_sets(13, 200)
    df = _set_frame(spark, rows)
    universe = sorted({x for t, p, _ in rows for x in t + p})
    T, P, W = _binarized(rows, universe)
    cols = {"labelCol": "t", "predictionCol": "p", "weightCol": "w"}
    for formula, direct in (
        ("averaged", averaged_fbeta_score),
        ("of_averages", fbeta_of_averages_score),
    ):
        for average in ("micro", "macro", "weighted", "samples"):
            evaluator = MacroF1Evaluator(
                formula=formula, average=average, beta=2.0, **cols
            )
            want = direct(
                T, P, beta=2.0, average=average, sample_weight=W, zero_division=0.0
            )
            if average == "samples":  # summed over the histogram of rows
                assert evaluator.evaluate(df) == pytest.approx(want, rel=1e-13)
            else:
                assert evaluator.evaluate(df) == want
    evaluator = MacroF1Evaluator(labels=["dog", "ant"], labelCol="t", predictionCol="p")
    assert evaluator.evaluate(df) == averaged_fbeta_score(
        T, P, beta=1.0, labels=[universe.index("dog"), universe.index("ant")],
        zero_division=0.0,
    )  # fmt: skip


def test_evaluator_with_label_sets_in_model_selection(spark) -> None:
    """A pipeline whose last stage turns the prediction into a label set is
    tuned by CrossValidator on the samples-averaged F1 of label sets
    (TrainValidationSplit calls the evaluator the same way: tested with 1-D
    labels below)."""
    from pyspark.ml import Pipeline
    from pyspark.ml.classification import LogisticRegression
    from pyspark.ml.feature import SQLTransformer
    from pyspark.ml.tuning import CrossValidator, ParamGridBuilder
    from sklearn.preprocessing import MultiLabelBinarizer

    label = F.col("label")
    df = (
        _training_frame(spark)
        .withColumn(
            "labels",
            F.when(label == 2.0, F.array(label, F.lit(0.0))).otherwise(F.array(label)),
        )
        .cache()
    )
    lr = LogisticRegression(maxIter=5)
    as_set = SQLTransformer(
        statement="SELECT *, array(prediction) AS predicted FROM __THIS__"
    )
    pipeline = Pipeline(stages=[lr, as_set])
    grid = ParamGridBuilder().addGrid(lr.regParam, [0.0, 10.0]).build()
    evaluator = MacroF1Evaluator(
        average="samples", labelCol="labels", predictionCol="predicted"
    )
    cv = CrossValidator(
        estimator=pipeline, estimatorParamMaps=grid, evaluator=evaluator,
        numFolds=2, seed=0,
    )  # fmt: skip
    model = cv.fit(df)
    assert model.avgMetrics[0] > model.avgMetrics[1]  # heavy regularisation hurts
    assert model.bestModel.stages[0].getRegParam() == 0.0
    scored = model.transform(df).select("labels", "predicted").collect()  # 300 rows
    binarizer = MultiLabelBinarizer(classes=[0.0, 1.0, 2.0])
    T = binarizer.fit_transform([set(row["labels"]) for row in scored])
    P = binarizer.transform([set(row["predicted"]) for row in scored])
    assert evaluator.evaluate(model.transform(df)) == pytest.approx(
        averaged_f1_score(T, P, average="samples", zero_division=0.0), rel=1e-13
    )


def test_evaluator_in_cross_validator_and_train_validation_split(spark, tmp_path):
    from pyspark.ml.classification import LogisticRegression
    from pyspark.ml.tuning import (
        CrossValidator,
        CrossValidatorModel,
        ParamGridBuilder,
        TrainValidationSplit,
    )

    df = _training_frame(spark).cache()
    lr = LogisticRegression(maxIter=5)
    grid = ParamGridBuilder().addGrid(lr.regParam, [0.0, 10.0]).build()
    evaluator = MacroF1Evaluator(formula="of_averages")
    cv = CrossValidator(
        estimator=lr, estimatorParamMaps=grid, evaluator=evaluator, numFolds=2,
        seed=0,
    )  # fmt: skip
    model = cv.fit(df)
    assert len(model.avgMetrics) == 2
    assert model.avgMetrics[0] > model.avgMetrics[1]  # heavy regularisation hurts
    assert model.bestModel.getRegParam() == 0.0
    tvs = TrainValidationSplit(
        estimator=lr, estimatorParamMaps=grid, evaluator=evaluator, seed=0
    )
    tvs_model = tvs.fit(df)
    assert tvs_model.bestModel.getRegParam() == 0.0
    assert all(0.0 <= m <= 1.0 for m in tvs_model.validationMetrics)
    # persistence of the evaluator alone, and inside the CrossValidator
    path = str(tmp_path / "evaluator")
    evaluator.save(path)
    loaded = MacroF1Evaluator.load(path)
    assert loaded.getFormula() == "of_averages"
    assert loaded.evaluate(model.transform(df)) == evaluator.evaluate(
        model.transform(df)
    )
    model_path = str(tmp_path / "cv-model")
    model.save(model_path)
    reloaded = CrossValidatorModel.load(model_path)
    assert isinstance(reloaded.getEvaluator(), MacroF1Evaluator)
    assert reloaded.getEvaluator().getFormula() == "of_averages"
    assert reloaded.avgMetrics == model.avgMetrics


def test_evaluator_lives_in_the_spark_module() -> None:
    import sklearn_macrof1.spark

    assert "MacroF1Evaluator" not in sklearn_macrof1.__all__
    assert not hasattr(sklearn_macrof1, "MacroF1Evaluator")
    assert sklearn_macrof1.spark.MacroF1Evaluator.__name__ == "MacroF1Evaluator"
    assert sklearn_macrof1.spark.__all__ == [
        "MacroF1Evaluator",
        "counts_from_dataframe",
    ]
