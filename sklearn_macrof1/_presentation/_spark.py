"""Both macro F1s of a Spark DataFrame: scores, summary, report and intervals.

Each function names the DataFrame's columns (``label_col``, ``prediction_col``,
optional ``weight_col``, with Spark ML's default names), counts them in Spark
(:mod:`~sklearn_macrof1._integrations._spark`: one aggregation query, only the
``(label, prediction)`` table reaches the driver) and hands the count record to
the same selection, aggregation, report and interval code as the functions for
in-memory labels. The other options mean exactly what they mean there.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .._core._aggregation import ALL_METRICS
from .._core._evaluation import Options, Reading, check_options, evaluate
from .._core._record import MacroF1Counts
from .._inference._intervals import (
    FBetaInterval,
    check_call,
    evaluation_from,
    interval_of,
)
from .._integrations._spark import count_spark, count_spark_sets, is_label_sets
from ._report import check_report_call, report_from_reading
from ._summary import FBetaSummary, build_summary


def _count_options(
    df: Any,
    label_col: Any,
    prediction_col: Any,
    weight_col: Any,
    options: Options,
    caller: str,
    *,
    samplewise: bool | None = None,
    method: str | None = None,
    averages: tuple[str, ...] = (),
    method_name: str = "method",
) -> tuple[MacroF1Counts, Options]:
    """The count record and the options to evaluate it with: label sets (array
    columns) are counted over the selected labels, so ``labels`` is then spent.
    ``samplewise`` (default: for ``average="samples"``) asks label sets for the
    per-row histogram too. ``method`` is the method of intervals to come (for
    the rows of ``averages``): a bootstrap Spark cannot give is refused before
    anything is counted, the delta method's second moments are counted, and
    1-D labels need their confusion matrix."""
    label_sets = is_label_sets(df, label_col, prediction_col)
    if method == "bootstrap":
        _check_resampling(
            label_sets, averages, weight_col is not None, caller, method_name
        )
    if label_sets:
        counts = count_spark_sets(
            df,
            label_col=label_col,
            prediction_col=prediction_col,
            weight_col=weight_col,
            labels=options.labels,
            samplewise=(
                options.average == "samples" if samplewise is None else samplewise
            ),
            caller=caller,
            moments=method == "delta",
        )
        options = replace(options, labels=None)
    else:
        counts = count_spark(
            df,
            label_col=label_col,
            prediction_col=prediction_col,
            weight_col=weight_col,
            caller=caller,
            moments=method == "delta",
        )
    if method is not None and not label_sets and counts.confusion is None:
        raise ValueError(
            f"{caller} computes intervals from the confusion matrix counted in "
            "Spark; above 2048 classes there is none. Compute the interval on a "
            "sample of the rows with fbeta_confidence_interval."
        )
    return counts, options


def _counted(
    df: Any,
    caller: str,
    *,
    label_col: Any,
    prediction_col: Any,
    weight_col: Any,
    **options: Any,
) -> tuple[MacroF1Counts, Options]:
    """Check the options (``check_options``' keywords), then count."""
    checked = check_options(caller=caller, **options)
    return _count_options(df, label_col, prediction_col, weight_col, checked, caller)


def _scores(
    df: Any, caller: str, warn_for: tuple[str, ...], **arguments: Any
) -> tuple[Any, Any]:
    counts, options = _counted(df, caller, **arguments)
    _, averages = evaluate(counts, options, warn_for=warn_for, caller=caller)
    return averages.averaged_fbeta, averages.fbeta_of_averages


def fbeta_summary_spark(
    df: Any,
    *,
    label_col: str = "label",
    prediction_col: str = "prediction",
    weight_col: str | None = None,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "macro",
    zero_division: Any = "warn",
) -> FBetaSummary:
    """Both F-beta scores of a Spark DataFrame, their gap and per-class figures.

    The :class:`FBetaSummary` that :func:`fbeta_summary` returns for the
    DataFrame's label and prediction columns, counted in Spark.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows to score; it is not
        collected: Spark aggregates it into one row per distinct (label,
        prediction) pair, which is all that reaches the driver.
    label_col : str, default="label"
        Column of true labels: integer, floating-point (whole numbers), decimal,
        boolean or string. The ``y_true`` of the in-memory functions. Array
        columns (label sets) in both columns make a multilabel target (classes:
        the labels' sorted union).
    prediction_col : str, default="prediction"
        Column of predicted labels, of a type comparable with ``label_col``
        (Spark ML classifiers predict doubles 0.0, 1.0, ...).
    weight_col : str, default=None
        Optional numeric column of sample weights (the ``sample_weight`` of the
        in-memory functions): finite, not all zero, no nulls.
    beta : float, default=1.0
        Weight of recall against precision: 1 gives F1, 0 precision, inf recall.
    labels : array-like, default=None
        The labels to include (and their order for ``average=None``); labels
        absent from the DataFrame count as empty classes.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``.
    average : {"macro", "micro", "weighted", "binary"} or None, default="macro"
        As in ``sklearn.metrics.fbeta_score``; None returns per-class arrays.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of an ill-defined ratio, as in the in-memory functions.

    Returns
    -------
    summary : FBetaSummary

    Examples
    --------
    >>> from pyspark.sql import SparkSession
    >>> from sklearn_macrof1 import fbeta_summary_spark
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()
    >>> df = spark.createDataFrame(
    ...     [(0, 0), (0, 1), (1, 1), (1, 1), (2, 2), (2, 0)], ["label", "prediction"]
    ... )
    >>> s = fbeta_summary_spark(df)
    >>> round(s.averaged_fbeta, 4), round(s.fbeta_of_averages, 4), round(s.gap, 4)
    (0.6556, 0.6933, 0.0378)
    """
    caller = "fbeta_summary_spark"
    counts, options = _counted(
        df,
        caller,
        label_col=label_col,
        prediction_col=prediction_col,
        weight_col=weight_col,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        zero_division=zero_division,
    )
    return build_summary(counts, options, caller=caller, warn_for=ALL_METRICS)


def averaged_fbeta_score_spark(
    df: Any,
    *,
    beta: float,
    label_col: str = "label",
    prediction_col: str = "prediction",
    weight_col: str | None = None,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "macro",
    zero_division: Any = "warn",
) -> Any:
    """Averaged F-beta (mean of per-class F-beta) of a Spark DataFrame.

    :func:`averaged_fbeta_score` (``sklearn.metrics.fbeta_score``) of the
    DataFrame's label and prediction columns, counted in Spark.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows to score; it is not
        collected: Spark aggregates it into one row per distinct (label,
        prediction) pair, which is all that reaches the driver.
    label_col : str, default="label"
        Column of true labels: integer, floating-point (whole numbers), decimal,
        boolean or string. The ``y_true`` of the in-memory functions. Array
        columns (label sets) in both columns make a multilabel target (classes:
        the labels' sorted union).
    prediction_col : str, default="prediction"
        Column of predicted labels, of a type comparable with ``label_col``
        (Spark ML classifiers predict doubles 0.0, 1.0, ...).
    weight_col : str, default=None
        Optional numeric column of sample weights (the ``sample_weight`` of the
        in-memory functions): finite, not all zero, no nulls.
    beta : float
        Weight of recall against precision: 1 gives F1, 0 precision, inf recall.
    labels : array-like, default=None
        The labels to include (and their order for ``average=None``); labels
        absent from the DataFrame count as empty classes.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``.
    average : {"macro", "micro", "weighted", "binary"} or None, default="macro"
        As in ``sklearn.metrics.fbeta_score``; None returns per-class arrays.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of an ill-defined ratio, as in the in-memory functions.

    Returns
    -------
    score : float, or ndarray of shape (n_labels,) when ``average=None``
    """
    return _scores(
        df,
        "averaged_fbeta_score_spark",
        ("f-score",),
        label_col=label_col,
        prediction_col=prediction_col,
        weight_col=weight_col,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        zero_division=zero_division,
    )[0]


def averaged_f1_score_spark(
    df: Any,
    *,
    label_col: str = "label",
    prediction_col: str = "prediction",
    weight_col: str | None = None,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "macro",
    zero_division: Any = "warn",
) -> Any:
    """Averaged F1 (mean of per-class F1) of a Spark DataFrame.

    :func:`averaged_f1_score` (``sklearn.metrics.f1_score``) of the DataFrame's
    label and prediction columns, counted in Spark. With ``average="weighted"``
    it is the F-measure of Spark's ``MulticlassClassificationEvaluator``
    (``metricName="f1"``).

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows to score; it is not
        collected: Spark aggregates it into one row per distinct (label,
        prediction) pair, which is all that reaches the driver.
    label_col : str, default="label"
        Column of true labels: integer, floating-point (whole numbers), decimal,
        boolean or string. The ``y_true`` of the in-memory functions. Array
        columns (label sets) in both columns make a multilabel target (classes:
        the labels' sorted union).
    prediction_col : str, default="prediction"
        Column of predicted labels, of a type comparable with ``label_col``
        (Spark ML classifiers predict doubles 0.0, 1.0, ...).
    weight_col : str, default=None
        Optional numeric column of sample weights (the ``sample_weight`` of the
        in-memory functions): finite, not all zero, no nulls.
    labels : array-like, default=None
        The labels to include (and their order for ``average=None``); labels
        absent from the DataFrame count as empty classes.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``.
    average : {"macro", "micro", "weighted", "binary"} or None, default="macro"
        As in ``sklearn.metrics.fbeta_score``; None returns per-class arrays.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of an ill-defined ratio, as in the in-memory functions.

    Returns
    -------
    score : float, or ndarray of shape (n_labels,) when ``average=None``

    Examples
    --------
    >>> from pyspark.sql import SparkSession
    >>> from sklearn_macrof1 import averaged_f1_score_spark
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()
    >>> df = spark.createDataFrame(
    ...     [("cat", "cat"), ("cat", "dog"), ("dog", "dog"), ("bird", "dog")],
    ...     ["label", "prediction"],
    ... )
    >>> round(averaged_f1_score_spark(df, zero_division=0.0), 4)
    0.3889
    """
    return _scores(
        df,
        "averaged_f1_score_spark",
        ("f-score",),
        label_col=label_col,
        prediction_col=prediction_col,
        weight_col=weight_col,
        beta=1.0,
        labels=labels,
        pos_label=pos_label,
        average=average,
        zero_division=zero_division,
    )[0]


def fbeta_of_averages_score_spark(
    df: Any,
    *,
    beta: float,
    label_col: str = "label",
    prediction_col: str = "prediction",
    weight_col: str | None = None,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "macro",
    zero_division: Any = "warn",
) -> Any:
    """F-beta of averaged precision and recall of a Spark DataFrame.

    :func:`fbeta_of_averages_score` of the DataFrame's label and prediction
    columns, counted in Spark.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows to score; it is not
        collected: Spark aggregates it into one row per distinct (label,
        prediction) pair, which is all that reaches the driver.
    label_col : str, default="label"
        Column of true labels: integer, floating-point (whole numbers), decimal,
        boolean or string. The ``y_true`` of the in-memory functions. Array
        columns (label sets) in both columns make a multilabel target (classes:
        the labels' sorted union).
    prediction_col : str, default="prediction"
        Column of predicted labels, of a type comparable with ``label_col``
        (Spark ML classifiers predict doubles 0.0, 1.0, ...).
    weight_col : str, default=None
        Optional numeric column of sample weights (the ``sample_weight`` of the
        in-memory functions): finite, not all zero, no nulls.
    beta : float
        Weight of recall against precision: 1 gives F1, 0 precision, inf recall.
    labels : array-like, default=None
        The labels to include (and their order for ``average=None``); labels
        absent from the DataFrame count as empty classes.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``.
    average : {"macro", "micro", "weighted", "binary"} or None, default="macro"
        As in ``sklearn.metrics.fbeta_score``; None returns per-class arrays.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of an ill-defined ratio, as in the in-memory functions.

    Returns
    -------
    score : float, or ndarray of shape (n_labels,) when ``average=None``
    """
    return _scores(
        df,
        "fbeta_of_averages_score_spark",
        ("precision", "recall"),
        label_col=label_col,
        prediction_col=prediction_col,
        weight_col=weight_col,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        zero_division=zero_division,
    )[1]


def f1_of_averages_score_spark(
    df: Any,
    *,
    label_col: str = "label",
    prediction_col: str = "prediction",
    weight_col: str | None = None,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "macro",
    zero_division: Any = "warn",
) -> Any:
    """F1 of averaged precision and recall of a Spark DataFrame.

    :func:`f1_of_averages_score` of the DataFrame's label and prediction
    columns, counted in Spark.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows to score; it is not
        collected: Spark aggregates it into one row per distinct (label,
        prediction) pair, which is all that reaches the driver.
    label_col : str, default="label"
        Column of true labels: integer, floating-point (whole numbers), decimal,
        boolean or string. The ``y_true`` of the in-memory functions. Array
        columns (label sets) in both columns make a multilabel target (classes:
        the labels' sorted union).
    prediction_col : str, default="prediction"
        Column of predicted labels, of a type comparable with ``label_col``
        (Spark ML classifiers predict doubles 0.0, 1.0, ...).
    weight_col : str, default=None
        Optional numeric column of sample weights (the ``sample_weight`` of the
        in-memory functions): finite, not all zero, no nulls.
    labels : array-like, default=None
        The labels to include (and their order for ``average=None``); labels
        absent from the DataFrame count as empty classes.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``.
    average : {"macro", "micro", "weighted", "binary"} or None, default="macro"
        As in ``sklearn.metrics.fbeta_score``; None returns per-class arrays.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of an ill-defined ratio, as in the in-memory functions.

    Returns
    -------
    score : float, or ndarray of shape (n_labels,) when ``average=None``

    Examples
    --------
    >>> from pyspark.sql import SparkSession
    >>> from sklearn_macrof1 import f1_of_averages_score_spark
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()
    >>> df = spark.createDataFrame(
    ...     [("cat", "cat"), ("cat", "dog"), ("dog", "dog"), ("bird", "dog")],
    ...     ["label", "prediction"],
    ... )
    >>> round(f1_of_averages_score_spark(df, zero_division=0.0), 4)
    0.4706
    """
    return _scores(
        df,
        "f1_of_averages_score_spark",
        ("precision", "recall"),
        label_col=label_col,
        prediction_col=prediction_col,
        weight_col=weight_col,
        beta=1.0,
        labels=labels,
        pos_label=pos_label,
        average=average,
        zero_division=zero_division,
    )[1]


def _check_resampling(
    label_sets: bool,
    averages: tuple[str, ...],
    weighted: bool,
    caller: str,
    method_name: str,
) -> None:
    """Refuse the bootstraps Spark cannot give.

    The delta method reads the record: the confusion matrix (1-D labels) or the
    per-label counts (label sets), the histogram of per-row ``(tp, true,
    pred)`` counts (``average="samples"``) and the second moments counted with
    them. The bootstrap redraws the confusion-matrix cells (unweighted 1-D
    labels) or the histogram's rows (unweighted ``average="samples"``);
    anything else would redraw every row, which never reaches the driver.
    """
    advice = (
        f"use {method_name}='delta' (computed from the counts and their second "
        "moments aggregated in Spark), or compute the interval on a sample of "
        "the rows with fbeta_confidence_interval."
    )
    per_label = [a for a in averages if a != "samples"]
    if label_sets and per_label:
        raise ValueError(
            f"{caller}: the bootstrap of label sets (array columns) for "
            f"average={per_label[0]!r} redraws every row's label sets, which "
            "Spark does not bring to the driver (it resamples the histogram of "
            f"per-row counts for average='samples' only); {advice}"
        )
    if weighted:
        kept = (
            "the histogram of per-row (tp, true, pred) counts keeps only summed"
            if label_sets
            else "the aggregated table keeps only summed per (label, prediction) pair"
        )
        raise ValueError(
            f"{caller}: the bootstrap with weight_col redraws every row with its "
            f"weight, which {kept}; {advice}"
        )


def fbeta_confidence_interval_spark(
    df: Any,
    *,
    label_col: str = "label",
    prediction_col: str = "prediction",
    weight_col: str | None = None,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str = "macro",
    zero_division: Any = "warn",
    confidence: float = 0.95,
    method: str = "delta",
    n_resamples: int = 1000,
    random_state: Any = None,
) -> FBetaInterval:
    """Confidence intervals for both F-beta scores of a Spark DataFrame.

    :func:`fbeta_confidence_interval` of the DataFrame's label and prediction
    columns, from counts aggregated in Spark. The delta method reads the
    confusion matrix (label sets: the per-label counts, and for
    ``average="samples"`` the histogram of per-row ``(tp, true, pred)``
    counts) and the second moments counted with it (with ``weight_col``, each
    cell's sum of squared weights; label sets: the ``3L x 3L`` matrix of each
    row's indicators, up to 256 labels): the in-memory interval. The bootstrap
    redraws the confusion-matrix cells of unweighted 1-D labels (the in-memory
    figures for the same seed) or the histogram's rows of unweighted
    ``average="samples"``; with ``weight_col``, or for the other averages of
    label sets, it would redraw every row and is refused (``ValueError``), as
    are 1-D targets above 2048 classes. ``confidence``, ``method``,
    ``n_resamples`` and ``random_state`` mean what they mean there
    (``average=None`` is not accepted).

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows to score; it is not
        collected: Spark aggregates it into one row per distinct (label,
        prediction) pair, which is all that reaches the driver.
    label_col : str, default="label"
        Column of true labels: integer, floating-point (whole numbers), decimal,
        boolean or string. The ``y_true`` of the in-memory functions. Array
        columns (label sets) in both columns make a multilabel target (classes:
        the labels' sorted union).
    prediction_col : str, default="prediction"
        Column of predicted labels, of a type comparable with ``label_col``
        (Spark ML classifiers predict doubles 0.0, 1.0, ...).
    weight_col : str, default=None
        Optional numeric column of sample weights (the ``sample_weight`` of the
        in-memory functions): finite, not all zero, no nulls.
    beta : float, default=1.0
        Weight of recall against precision: 1 gives F1, 0 precision, inf recall.
    labels : array-like, default=None
        The labels to include (and their order for ``average=None``); labels
        absent from the DataFrame count as empty classes.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``.
    average : {"macro", "micro", "weighted", "binary"} or None, default="macro"
        As in ``sklearn.metrics.fbeta_score``; None returns per-class arrays.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of an ill-defined ratio, as in the in-memory functions.

    confidence : float, default=0.95
        Nominal coverage of the intervals, in (0, 1).
    method : {"delta", "bootstrap"}, default="delta"
        Delta method, or percentile bootstrap of the confusion-matrix cells.
    n_resamples : int, default=1000
        Bootstrap replicates (ignored by the delta method).
    random_state : None, int, numpy.random.Generator or RandomState, default=None
        Seed of the bootstrap.

    Returns
    -------
    interval : FBetaInterval
    """
    caller = "fbeta_confidence_interval_spark"
    options, confidence, method, n_resamples, rng = check_call(
        caller, beta, labels, pos_label, average, zero_division,
        confidence, method, n_resamples, random_state,
    )  # fmt: skip
    counts, options = _count_options(
        df,
        label_col,
        prediction_col,
        weight_col,
        options,
        caller,
        method=method,
        averages=(str(options.average),),
    )
    evaluation = evaluation_from(
        Reading(counts, weighted=weight_col is not None),
        options,
        caller=caller,
        method=method,
    )
    return interval_of(
        evaluation,
        confidence=confidence,
        method=method,
        n_resamples=n_resamples,
        rng=rng,
    )


def classification_report_spark(
    df: Any,
    *,
    label_col: str = "label",
    prediction_col: str = "prediction",
    weight_col: str | None = None,
    labels: Any = None,
    target_names: Any = None,
    digits: int = 2,
    output_dict: bool = False,
    zero_division: Any = "warn",
    confidence: float | None = None,
    interval_method: str = "delta",
    n_resamples: int = 1000,
    random_state: Any = None,
) -> str | dict[str, Any]:
    """Classification report with both macro F1s, of a Spark DataFrame.

    :func:`classification_report` of the DataFrame's label and prediction
    columns, counted once in Spark: every row of
    ``sklearn.metrics.classification_report`` plus ``f1-of-averages``, the macro
    ``gap`` and its ``gap-bound``.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows to score; it is not
        collected: Spark aggregates it into one row per distinct (label,
        prediction) pair, which is all that reaches the driver.
    label_col : str, default="label"
        Column of true labels: integer, floating-point (whole numbers), decimal,
        boolean or string. The ``y_true`` of the in-memory functions. Array
        columns (label sets) in both columns make a multilabel target (classes:
        the labels' sorted union).
    prediction_col : str, default="prediction"
        Column of predicted labels, of a type comparable with ``label_col``
        (Spark ML classifiers predict doubles 0.0, 1.0, ...).
    weight_col : str, default=None
        Optional numeric column of sample weights (the ``sample_weight`` of the
        in-memory functions): finite, not all zero, no nulls.
    labels : array-like of shape (n_labels,), default=None
        The labels to report, in order.
    target_names : list of str, default=None
        Display names of the labels.
    digits : int, default=2
        Digits of the text report.
    output_dict : bool, default=False
        Return a dict instead of text.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of an ill-defined ratio.
    confidence : float, default=None
        When given, each averaged row gets confidence intervals of both scores
        (as :func:`fbeta_confidence_interval_spark` computes them: the
        bootstrap is refused with ``weight_col`` and for label sets).
    interval_method : {"delta", "bootstrap"}, default="delta"
        How the intervals are computed.
    n_resamples : int, default=1000
        Bootstrap replicates.
    random_state : None, int, numpy.random.Generator or RandomState, default=None
        Seed of the bootstrap.

    Returns
    -------
    report : str or dict

    Examples
    --------
    >>> from pyspark.sql import SparkSession
    >>> from sklearn_macrof1 import classification_report_spark
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()
    >>> df = spark.createDataFrame(
    ...     [(0, 0), (0, 1), (1, 1), (1, 1), (2, 2), (2, 0)], ["label", "prediction"]
    ... )
    >>> report = classification_report_spark(df, output_dict=True)
    >>> round(report["macro avg"]["f1-score"], 4)
    0.6556
    >>> round(report["macro avg"]["f1-of-averages"], 4)
    0.6933
    """
    caller = "classification_report_spark"
    request = check_report_call(
        digits=digits,
        output_dict=output_dict,
        zero_division=zero_division,
        labels=labels,
        confidence=confidence,
        interval_method=interval_method,
        n_resamples=n_resamples,
        random_state=random_state,
        caller=caller,
    )
    options = Options(None, 1.0, zero_division, labels, None)
    # label sets: counted over the labels (and per row, for the samples avg row)
    counts, options = _count_options(
        df,
        label_col,
        prediction_col,
        weight_col,
        options,
        caller,
        samplewise=True,
        method=None if request is None else request[1],
        averages=("micro", "macro", "weighted", "samples"),
        method_name="interval_method",
    )
    return report_from_reading(
        Reading(counts, weighted=weight_col is not None),
        labels=options.labels,
        target_names=target_names,
        digits=digits,
        output_dict=output_dict,
        zero_division=zero_division,
        caller=caller,
        request=request,
        labels_given=labels is not None,
    )


__all__ = [
    "averaged_f1_score_spark",
    "averaged_fbeta_score_spark",
    "classification_report_spark",
    "f1_of_averages_score_spark",
    "fbeta_confidence_interval_spark",
    "fbeta_of_averages_score_spark",
    "fbeta_summary_spark",
]
