"""Spark DataFrames: counted in Spark, scored by the shared code.

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

pytestmark = pytest.mark.spark

pyspark = pytest.importorskip("pyspark")
if shutil.which("java") is None:  # pragma: no cover - depends on the machine
    pytest.skip("Spark needs Java (17 or later)", allow_module_level=True)

from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql import functions as F  # noqa: E402

import sklearn_macrof1  # noqa: E402
from sklearn_macrof1 import (  # noqa: E402
    averaged_f1_score,
    averaged_f1_score_spark,
    averaged_fbeta_score,
    averaged_fbeta_score_spark,
    classification_report,
    classification_report_spark,
    f1_of_averages_score,
    f1_of_averages_score_spark,
    fbeta_confidence_interval,
    fbeta_confidence_interval_spark,
    fbeta_of_averages_score,
    fbeta_of_averages_score_spark,
    fbeta_summary,
    fbeta_summary_from_confusion_matrix,
    fbeta_summary_spark,
)
from sklearn_macrof1._integrations import _spark  # noqa: E402

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
            fbeta_summary_spark(df, average=average, beta=beta),
            fbeta_summary(y_true, y_pred, average=average, beta=beta),
        )


def test_binary_and_pos_label(spark) -> None:
    y_true, y_pred = _labels(1, 500, 2)
    df = _frame(spark, y_true, y_pred)
    for pos_label in (0, 1):
        assert_same_summary(
            fbeta_summary_spark(df, average="binary", pos_label=pos_label),
            fbeta_summary(y_true, y_pred, average="binary", pos_label=pos_label),
        )
    with pytest.raises(ValueError, match="pos_label=7 is not a valid label"):
        fbeta_summary_spark(df, average="binary", pos_label=7)


def test_scores_equal_numpy_with_weights_and_absent_labels(spark) -> None:
    y_true, y_pred = _labels(2, 2000, 4)
    # quarter weights: every partial sum is exact, so summation order is moot
    weights = np.random.default_rng(3).integers(0, 8, size=2000) / 4
    df = _frame(spark, y_true, y_pred, weights)
    for labels in (None, [3, 0, 9], [1, 2]):
        for average in (None, "micro", "macro", "weighted"):
            kw = {"labels": labels, "average": average, "zero_division": 0.0}
            assert_same_summary(
                fbeta_summary_spark(df, weight_col="weight", beta=2.0, **kw),
                fbeta_summary(y_true, y_pred, sample_weight=weights, beta=2.0, **kw),
            )
    kw = {"labels": [3, 0, 9], "zero_division": 0.0}
    pairs = [
        (
            averaged_fbeta_score_spark(df, beta=2.0, weight_col="weight", **kw),
            averaged_fbeta_score(y_true, y_pred, beta=2.0, sample_weight=weights, **kw),
        ),
        (
            fbeta_of_averages_score_spark(df, beta=2.0, weight_col="weight", **kw),
            fbeta_of_averages_score(
                y_true, y_pred, beta=2.0, sample_weight=weights, **kw
            ),
        ),
        (
            averaged_f1_score_spark(df, weight_col="weight", **kw),
            averaged_f1_score(y_true, y_pred, sample_weight=weights, **kw),
        ),
        (
            f1_of_averages_score_spark(df, weight_col="weight", **kw),
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
        fbeta_summary_spark(df, weight_col="weight", zero_division=0.0),
        fbeta_summary(y_true, y_pred, sample_weight=weights, zero_division=0.0),
    )


@pytest.mark.parametrize("zero_division", ["warn", 0.0, 1.0, np.nan])
def test_zero_division_values_and_warnings(spark, zero_division) -> None:
    y_true = np.array([0, 0, 1, 1, 2])
    y_pred = np.array([0, 0, 1, 0, 0])  # class 2 never predicted
    df = _frame(spark, y_true, y_pred)
    kw = {"zero_division": zero_division, "labels": [0, 1, 2, 3]}
    for ours_fn, numpy_fn in (
        (averaged_f1_score_spark, averaged_f1_score),
        (f1_of_averages_score_spark, f1_of_averages_score),
    ):
        ours, ours_warnings = outcome(ours_fn, df, **kw)
        direct, direct_warnings = outcome(numpy_fn, y_true, y_pred, **kw)
        assert_exact(ours, direct)
        assert ours_warnings == direct_warnings


def test_report_equals_numpy(spark) -> None:
    y_true, y_pred = _labels(4, 1500, 4)
    names = np.array(["a", "b", "c", "d"])
    y_true, y_pred = names[y_true], names[y_pred]
    df = _frame(spark, y_true, y_pred)
    for kw in ({}, {"labels": ["d", "a", "z"]}, {"digits": 4}):
        assert classification_report_spark(df, zero_division=0.0, **kw) == (
            classification_report(y_true, y_pred, zero_division=0.0, **kw)
        )
    ours = classification_report_spark(
        df, output_dict=True, confidence=0.9, interval_method="bootstrap",
        n_resamples=200, random_state=0,
    )  # fmt: skip
    direct = classification_report(
        y_true, y_pred, output_dict=True, confidence=0.9, interval_method="bootstrap",
        n_resamples=200, random_state=0,
    )  # fmt: skip
    assert ours == direct
    assert classification_report_spark(df, confidence=0.95) == (
        classification_report(y_true, y_pred, confidence=0.95)
    )


@pytest.mark.parametrize("average", ["macro", "micro", "weighted"])
def test_intervals_equal_numpy(spark, average) -> None:
    y_true, y_pred = _labels(5, 2500, 3)
    df = _frame(spark, y_true, y_pred)
    for method in ("delta", "bootstrap"):
        ours = fbeta_confidence_interval_spark(
            df, average=average, method=method, n_resamples=300, random_state=1
        )
        direct = fbeta_confidence_interval(
            y_true, y_pred, average=average, method=method, n_resamples=300,
            random_state=1,
        )  # fmt: skip
        assert ours.to_dict() == direct.to_dict()


def test_intervals_refuse_weights(spark) -> None:
    y_true, y_pred = _labels(6, 100, 3)
    df = _frame(spark, y_true, y_pred, np.ones(100))
    with pytest.raises(ValueError, match="weight_col"):
        fbeta_confidence_interval_spark(df, weight_col="weight")
    with pytest.raises(ValueError, match="weight_col"):
        classification_report_spark(df, weight_col="weight", confidence=0.9)


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
        ours = averaged_f1_score_spark(df, weight_col=weight_col, average="weighted")
        assert ours == pytest.approx(theirs, rel=1e-12, abs=1e-15)
        assert ours == averaged_f1_score(
            y_true, y_pred, sample_weight=sample_weight, average="weighted"
        )
        precision = evaluator.setMetricName("weightedPrecision").evaluate(df)
        recall = evaluator.setMetricName("weightedRecall").evaluate(df)
        summary = fbeta_summary_spark(df, weight_col=weight_col, average="weighted")
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
    summary = fbeta_summary_spark(df)
    m = np.arange(77)
    times = n // 77 + (m < n % 77)
    expected = np.zeros((7, 7), dtype=np.int64)
    np.add.at(expected, (m % 7, (m % 7 + (m % 11 == 0)) % 7), times)
    assert_exact(summary.confusion_matrix, expected)
    direct = fbeta_summary_from_confusion_matrix(expected, rows="true")
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
        query = _spark.pair_query(df, "label", "prediction", weight_col, caller="t")
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
        averaged_f1_score_spark([0, 1])
    with pytest.raises(ValueError, match="label_col='label' is not a column"):
        averaged_f1_score_spark(df)
    with pytest.raises(TypeError, match="label_col must be the name"):
        averaged_f1_score_spark(df, label_col=F.col("l"), prediction_col="p")
    with pytest.raises(TypeError, match="weight_col='s' is a column of type string"):
        averaged_f1_score_spark(df, label_col="l", prediction_col="p", weight_col="s")
    with pytest.raises(ValueError, match="Mix of label input types|mix"):
        averaged_f1_score_spark(df, label_col="l", prediction_col="s")
    dates = df.select(F.current_date().alias("d"), "p")
    with pytest.raises(TypeError, match="label_col='d' is a column of type date"):
        averaged_f1_score_spark(dates, label_col="d", prediction_col="p")
    sets = spark.createDataFrame([([0, 1], [1], 1)], ["l", "p", "one"])
    with pytest.raises(TypeError, match="label_col='l' is an array column"):
        classification_report_spark(sets, label_col="l", prediction_col="p")
    with pytest.raises(TypeError, match="prediction_col='l' is an array column"):
        averaged_f1_score_spark(sets, label_col="one", prediction_col="l")
    nulls = spark.createDataFrame([(0, None), (1, 1)], "l int, p int")
    with pytest.raises(ValueError, match="prediction_col='p' holds 1 null values"):
        averaged_f1_score_spark(nulls, label_col="l", prediction_col="p")
    continuous = spark.createDataFrame([(0.5, 1.0), (1.0, 1.0)], ["l", "p"])
    with pytest.raises(ValueError, match="continuous"):
        averaged_f1_score_spark(continuous, label_col="l", prediction_col="p")
    nan = spark.createDataFrame([(float("nan"), 1.0), (1.0, 1.0)], ["l", "p"])
    with pytest.raises(ValueError, match="NaN"):
        averaged_f1_score_spark(nan, label_col="l", prediction_col="p")
    empty = df.limit(0)
    with pytest.raises(ValueError, match="empty"):
        averaged_f1_score_spark(empty, label_col="l", prediction_col="p")
    weights = spark.createDataFrame(
        [(0, 1, float("nan")), (1, 1, 0.0)], ["l", "p", "w"]
    )
    with pytest.raises(ValueError, match="non-finite"):
        averaged_f1_score_spark(
            weights, label_col="l", prediction_col="p", weight_col="w"
        )
    zeros = spark.createDataFrame([(0, 1, 0.0), (1, 1, 0.0)], ["l", "p", "w"])
    with pytest.raises(ValueError, match="only zeros"):
        averaged_f1_score_spark(
            zeros, label_col="l", prediction_col="p", weight_col="w"
        )
    with pytest.raises(ValueError, match="average"):
        averaged_f1_score_spark(df, label_col="l", prediction_col="p", average="mean")
    monkeypatch.setattr(_spark, "MAX_PAIRS", 3)
    many = spark.range(10).select(F.col("id").alias("l"), F.col("id").alias("p"))
    with pytest.raises(ValueError, match="more than 3 distinct"):
        averaged_f1_score_spark(many, label_col="l", prediction_col="p")


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
    df = spark.createDataFrame(rows, "t array<string>, p array<string>, w double")
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
            for ours, theirs in (
                (averaged_fbeta_score_spark, averaged_fbeta_score),
                (fbeta_of_averages_score_spark, fbeta_of_averages_score),
            ):
                got = ours(
                    df,
                    beta=0.5,
                    label_col="t",
                    prediction_col="p",
                    weight_col=weight_col,
                    labels=labels,
                    **common,
                )
                want = theirs(
                    T, P, beta=0.5, sample_weight=weights, labels=columns_arg, **common
                )
                compare(got, want, **tolerance)
    summary = fbeta_summary_spark(
        df, label_col="t", prediction_col="p", average=average, zero_division=0.0
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
        assert averaged_f1_score_spark(
            df, label_col="t", prediction_col="p", **options
        ) == averaged_f1_score(T, P, **options)
    doubles = spark.createDataFrame([([1, 2], [2.0])], "t array<int>, p array<double>")
    assert averaged_f1_score_spark(
        doubles, label_col="t", prediction_col="p", average="micro"
    ) == averaged_f1_score(np.array([[1, 1]]), np.array([[0, 1]]), average="micro")
    nulls = spark.createDataFrame(
        [([1], None), ([2], [2])], "t array<int>, p array<int>"
    )
    with pytest.raises(ValueError, match="prediction_col='p' holds 1 null values"):
        averaged_f1_score_spark(nulls, label_col="t", prediction_col="p")
    inner = spark.createDataFrame([([1, None], [1])], "t array<int>, p array<int>")
    with pytest.raises(ValueError, match="label_col='t' holds 1 label sets with null"):
        averaged_f1_score_spark(inner, label_col="t", prediction_col="p")
    mixed = spark.createDataFrame([(["a"], [1])], "t array<string>, p array<int>")
    with pytest.raises(ValueError, match="Mix of label input types"):
        averaged_f1_score_spark(mixed, label_col="t", prediction_col="p")


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
    from sklearn_macrof1 import MacroF1Evaluator

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
        MacroF1Evaluator(average="samples").evaluate(df)
    with pytest.raises(TypeError, match="zeroDivision"):
        MacroF1Evaluator(zeroDivision=0.5)


def test_evaluator_in_cross_validator_and_train_validation_split(spark, tmp_path):
    from pyspark.ml.classification import LogisticRegression
    from pyspark.ml.tuning import (
        CrossValidator,
        CrossValidatorModel,
        ParamGridBuilder,
        TrainValidationSplit,
    )

    from sklearn_macrof1 import MacroF1Evaluator

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


def test_evaluator_is_lazy_and_public() -> None:
    assert "MacroF1Evaluator" not in sklearn_macrof1.__all__
    assert sklearn_macrof1.MacroF1Evaluator.__name__ == "MacroF1Evaluator"
