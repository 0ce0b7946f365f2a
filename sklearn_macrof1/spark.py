"""Spark: the count record of a DataFrame, and either macro F1 as an Evaluator.

:func:`counts_from_dataframe` counts a Spark DataFrame's label and prediction
columns in Spark (aggregation queries: only the aggregated tables reach the
driver) into the count record that every function of the package takes in
place of ``(y_true, y_pred)``::

    counts = counts_from_dataframe(df, label_col="label", prediction_col="prediction")
    fbeta_summary(counts)
    classification_report(counts)

:class:`MacroF1Evaluator` is a ``pyspark.ml.evaluation.Evaluator`` of either
macro F-beta, for ``CrossValidator`` and ``TrainValidationSplit``.

This module needs pyspark (the ``[spark]`` extra, and Java 17 or later);
``import sklearn_macrof1`` never imports it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ._extras import missing

try:
    from pyspark import keyword_only
    from pyspark.ml.evaluation import Evaluator
    from pyspark.ml.param import Param, Params, TypeConverters
    from pyspark.ml.param.shared import HasLabelCol, HasPredictionCol, HasWeightCol
    from pyspark.ml.util import DefaultParamsReadable, DefaultParamsWritable
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise missing("pyspark", "sklearn_macrof1.spark needs pyspark") from exc

from ._averages import AVERAGES, ordered, spelled
from ._counting._record import MacroF1Counts, check_counting_options, fixed_labels
from ._counting._registry import Columns, CountRequest, source_of
from ._results._scores import averaged_fbeta_score, fbeta_of_averages_score
from ._sources._spark_frames import check_dataframe


def counts_from_dataframe(
    df: Any,
    *,
    label_col: str = "label",
    prediction_col: str = "prediction",
    weight_col: str | None = None,
    labels: Any = None,
    moments: bool = False,
) -> MacroF1Counts:
    """The count record of a Spark DataFrame's label and prediction columns.

    The DataFrame is not collected: Spark aggregates it into one row per
    distinct (label, prediction) pair (label sets: per-label counts and the
    histogram of per-row counts), which is all that reaches the driver, and
    that is turned into the record the in-memory arrays would give. Every
    function of the package takes the record in place of ``(y_true, y_pred)``.

    Parameters
    ----------
    df : pyspark.sql.DataFrame
        The rows to count.
    label_col : str, default="label"
        Column of true labels: integer, floating-point (whole numbers), decimal,
        boolean or string (the ``y_true`` of the in-memory functions). Array
        columns (label sets) in both columns make a multilabel target whose
        classes are the labels' sorted union.
    prediction_col : str, default="prediction"
        Column of predicted labels, of a type comparable with ``label_col``
        (Spark ML classifiers predict doubles 0.0, 1.0, ...).
    weight_col : str, default=None
        Optional numeric column of sample weights (the ``sample_weight`` of the
        in-memory functions): finite, not all zero, no nulls.
    labels : array-like, default=None
        The labels the record is counted with; the functions given the record
        use them as their ``labels`` (absent labels count as empty classes). For
        label sets they are the record's classes, in this order, and the
        per-row counts of ``average="samples"`` are over them.
    moments : bool, default=False
        Also count the second moments a delta-method interval needs beyond the
        counts (with ``weight_col``: each cell's sum of squared weights; label
        sets: the ``3L x 3L`` matrix of each row's indicators, up to 256
        labels). Unweighted 1-D labels need none: their confusion matrix serves.

    Returns
    -------
    counts : MacroF1Counts

    Examples
    --------
    >>> from pyspark.sql import SparkSession
    >>> from sklearn_macrof1 import fbeta_summary
    >>> from sklearn_macrof1.spark import counts_from_dataframe
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()
    >>> df = spark.createDataFrame(
    ...     [(0, 0), (0, 1), (1, 1), (1, 1), (2, 2), (2, 0)], ["label", "prediction"]
    ... )
    >>> s = fbeta_summary(counts_from_dataframe(df))
    >>> round(s.averaged_fbeta, 4), round(s.fbeta_of_averages, 4), round(s.gap, 4)
    (0.6556, 0.6933, 0.0378)
    """
    caller = "counts_from_dataframe"
    check_dataframe(df, caller)
    check_counting_options(labels, moments, caller=caller)
    data = Columns(df, label_col, prediction_col, weight_col)
    source = source_of(data)  # the Spark source
    assert source is not None
    request = CountRequest(
        labels=labels, samplewise=True, moments=bool(moments), caller=caller
    )
    counts = source.count(data, request).counts
    if labels is not None:
        counts.labels = fixed_labels(np.asarray(labels))
    return counts


FORMULAS = ("averaged", "of_averages")
#: The averages, as this module's messages list them.
CHOICES = ordered(AVERAGES, "macro", "micro", "weighted")


def _to_zero_division(value: Any) -> Any:
    if isinstance(value, str) and value in ("warn", "nan"):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        if value in (0, 1) or math.isnan(value):
            return float(value)
    raise TypeError(
        "zeroDivision must be 'warn', 0.0, 1.0 or nan (also the string 'nan'); "
        f"got {value!r}."
    )


def _to_labels(value: Any) -> Any:
    return None if value is None else TypeConverters.toList(value)


class MacroF1Evaluator(
    Evaluator,
    HasLabelCol,
    HasPredictionCol,
    HasWeightCol,
    DefaultParamsReadable,
    DefaultParamsWritable,
):
    """Evaluator of either macro F-beta for Spark ML model selection.

    A ``pyspark.ml.evaluation.Evaluator`` for ``CrossValidator`` and
    ``TrainValidationSplit`` that scores predictions with one of the two macro
    F-beta scores (Opitz & Burst, "Macro F1 and Macro F1"), computed in Spark
    from the record of :func:`counts_from_dataframe`: the scored DataFrame is
    aggregated into one row per distinct (label, prediction) pair, never
    collected. Larger is better. Spark's own
    ``MulticlassClassificationEvaluator`` has no macro F1 of either kind (its
    ``"f1"`` is the weighted F-measure).

    Parameters
    ----------
    formula : {"averaged", "of_averages"}, default="averaged"
        "averaged": the mean of per-class F-beta (:func:`averaged_fbeta_score`,
        ``sklearn.metrics.fbeta_score``); "of_averages": the F-beta of the
        averaged precision and recall (:func:`fbeta_of_averages_score`).
    average : {"macro", "micro", "weighted", "binary", "samples"}, default="macro"
        scikit-learn's averaging mode ("samples": label sets only).
    beta : float, default=1.0
        Weight of recall against precision.
    labelCol, predictionCol : str, default="label", "prediction"
        Columns of true and predicted labels; two array columns (label sets)
        make a multilabel target, as in :func:`counts_from_dataframe`.
    weightCol : str, default=None
        Optional column of sample weights.
    labels : list, default=None
        The labels to average over (absent ones count as empty classes).
    posLabel : float or str, default=1.0
        The positive class of ``average="binary"``.
    zeroDivision : {"warn", 0.0, 1.0, nan}, default=0.0
        Value of ill-defined ratios; 0.0 by default (silent: model selection
        scores many folds), which is what "warn" returns too.

    Examples
    --------
    >>> from pyspark.sql import SparkSession
    >>> from sklearn_macrof1.spark import MacroF1Evaluator
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()
    >>> df = spark.createDataFrame(
    ...     [(0.0, 0.0), (0.0, 1.0), (1.0, 1.0), (1.0, 1.0), (2.0, 2.0), (2.0, 0.0)],
    ...     ["label", "prediction"],
    ... )
    >>> round(MacroF1Evaluator().evaluate(df), 4)
    0.6556
    >>> round(MacroF1Evaluator(formula="of_averages").evaluate(df), 4)
    0.6933
    """

    #: The keyword arguments of the running ``__init__`` / ``setParams`` call,
    #: stored by ``pyspark.keyword_only`` (declared, as pyspark's own classes
    #: declare it, so that type checkers know the attribute).
    _input_kwargs: dict[str, Any]

    formula: Param[str] = Param(
        Params._dummy(),
        "formula",
        "'averaged' (mean of per-class F-beta) or 'of_averages' (F-beta of the "
        "averaged precision and recall)",
        typeConverter=TypeConverters.toString,
    )
    average: Param[str] = Param(
        Params._dummy(),
        "average",
        f"averaging mode: {spelled(CHOICES)}",
        typeConverter=TypeConverters.toString,
    )
    beta: Param[float] = Param(
        Params._dummy(),
        "beta",
        "weight of recall against precision (1: F1)",
        typeConverter=TypeConverters.toFloat,
    )
    labels: Param[Any] = Param(
        Params._dummy(),
        "labels",
        "the labels to average over, or None for the labels present",
        typeConverter=_to_labels,
    )
    posLabel: Param[Any] = Param(
        Params._dummy(), "posLabel", "positive class of average='binary'"
    )
    zeroDivision: Param[Any] = Param(
        Params._dummy(),
        "zeroDivision",
        "value of ill-defined ratios: 'warn', 0.0, 1.0 or nan",
        typeConverter=_to_zero_division,
    )

    @keyword_only
    def __init__(
        self,
        *,
        formula: str = "averaged",
        average: str = "macro",
        beta: float = 1.0,
        labelCol: str = "label",
        predictionCol: str = "prediction",
        weightCol: str | None = None,
        labels: Any = None,
        posLabel: Any = 1.0,
        zeroDivision: Any = 0.0,
    ) -> None:
        super().__init__()
        self._setDefault(  # labelCol and predictionCol: set by their mixins
            formula="averaged",
            average="macro",
            beta=1.0,
            labels=None,
            posLabel=1.0,
            zeroDivision=0.0,
        )
        self._set(**self._input_kwargs)

    @keyword_only
    def setParams(
        self,
        *,
        formula: str = "averaged",
        average: str = "macro",
        beta: float = 1.0,
        labelCol: str = "label",
        predictionCol: str = "prediction",
        weightCol: str | None = None,
        labels: Any = None,
        posLabel: Any = 1.0,
        zeroDivision: Any = 0.0,
    ) -> MacroF1Evaluator:
        """Set the given params (keyword arguments)."""
        return self._set(**self._input_kwargs)

    def setFormula(self, value: str) -> MacroF1Evaluator:
        return self._set(formula=value)

    def getFormula(self) -> str:
        return self.getOrDefault(self.formula)

    def setAverage(self, value: str) -> MacroF1Evaluator:
        return self._set(average=value)

    def getAverage(self) -> str:
        return self.getOrDefault(self.average)

    def setBeta(self, value: float) -> MacroF1Evaluator:
        return self._set(beta=value)

    def getBeta(self) -> float:
        return self.getOrDefault(self.beta)

    def setLabels(self, value: Any) -> MacroF1Evaluator:
        return self._set(labels=value)

    def getLabels(self) -> Any:
        return self.getOrDefault(self.labels)

    def setPosLabel(self, value: Any) -> MacroF1Evaluator:
        return self._set(posLabel=value)

    def getPosLabel(self) -> Any:
        return self.getOrDefault(self.posLabel)

    def setZeroDivision(self, value: Any) -> MacroF1Evaluator:
        return self._set(zeroDivision=value)

    def getZeroDivision(self) -> Any:
        return self.getOrDefault(self.zeroDivision)

    def setLabelCol(self, value: str) -> MacroF1Evaluator:
        return self._set(labelCol=value)

    def setPredictionCol(self, value: str) -> MacroF1Evaluator:
        return self._set(predictionCol=value)

    def setWeightCol(self, value: str) -> MacroF1Evaluator:
        return self._set(weightCol=value)

    def _evaluate(self, dataset: Any) -> float:
        formula = self.getFormula()
        if formula not in FORMULAS:
            raise ValueError(
                f"formula must be one of {list(FORMULAS)!r}; got {formula!r}."
            )
        average = self.getAverage()
        if average not in CHOICES:
            raise ValueError(
                f"average must be one of {list(CHOICES)!r} (a model-selection "
                f"score is one number); got {average!r}."
            )
        zero_division = self.getZeroDivision()
        counts = counts_from_dataframe(
            dataset,
            label_col=self.getLabelCol(),
            prediction_col=self.getPredictionCol(),
            weight_col=(
                self.getWeightCol() if self.isDefined(self.weightCol) else None
            ),
            labels=self.getLabels(),
        )
        score = (
            averaged_fbeta_score if formula == "averaged" else fbeta_of_averages_score
        )
        return float(
            score(
                counts,
                beta=self.getBeta(),
                pos_label=self.getPosLabel(),
                average=average,
                zero_division=(
                    float("nan") if zero_division == "nan" else zero_division
                ),
            )
        )

    def isLargerBetter(self) -> bool:
        return True


__all__ = ["MacroF1Evaluator", "counts_from_dataframe"]
