"""Spark support: count (true, pred[, weight]) inside Spark, bring back the table.

A Spark DataFrame is counted by one aggregation query: ``groupBy(label,
prediction)`` with the number of rows and the sum of the weights of each group
(plus the few global figures the weight checks need). Spark evaluates it where
the rows live (partial aggregates per partition, then a shuffle of at most one
row per distinct pair and partition); only the aggregated table, one row per
distinct (label, prediction) pair, reaches the driver: at most ``k**2`` rows for
``k`` classes, whatever the number of rows of the DataFrame.

That table is a weighted list of (true, pred) samples: its two label columns are
read by the same target reader as in-memory labels (so labels of each type,
mixes and bad values are accepted or refused as for numpy arrays), and it is
turned into the same count record (:class:`~sklearn_macrof1._core._counting.Counts`)
that the counting core gives for the full arrays: the confusion matrix is the
table itself. Everything above the record (selection, aggregation, summary,
report, intervals) is the code every other entry point runs.

pyspark is an optional dependency (the ``[spark]`` extra): it is imported only
when a Spark DataFrame is handed over, which :func:`is_spark_dataframe`
recognises without importing pyspark.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._record import MAX_CONFUSION_CLASSES, Counts
from .._core._targets import read_targets

#: Largest number of distinct (label, prediction) pairs brought to the driver.
#: A classification with k classes has at most k**2; more means the columns do
#: not hold class labels (e.g. scores or ids), which is refused before any row
#: beyond this many is collected.
MAX_PAIRS = 1 << 20

_ACCEPTED_TYPES = (
    "integer, floating-point (whole numbers), decimal, boolean or string columns"
)


def is_spark_dataframe(value: Any) -> bool:
    """True for a pyspark DataFrame (classic or Spark Connect), without importing
    pyspark."""
    module = type(value).__module__
    if not module.startswith("pyspark."):
        return False
    return any(cls.__name__ == "DataFrame" for cls in type(value).__mro__)


def _check_dataframe(df: Any, caller: str) -> None:
    if not is_spark_dataframe(df):
        raise TypeError(
            f"{caller} scores a Spark DataFrame (pyspark.sql.DataFrame); got "
            f"{type(df).__name__}. For arrays, lists, pandas or Dask objects use "
            "the functions without the _spark suffix."
        )


def _check_column(df: Any, value: Any, name: str, caller: str) -> Any:
    """The schema field of column ``value`` (argument ``name``)."""
    if not isinstance(value, str):
        raise TypeError(
            f"{name} must be the name of a column of the DataFrame (a str); got "
            f"{value!r} of type {type(value).__name__}."
        )
    fields = {field.name: field for field in df.schema.fields}
    if value not in fields:
        raise ValueError(
            f"{name}={value!r} is not a column of the DataFrame; its columns are "
            f"{sorted(fields)!r}."
        )
    return fields[value]


def _label_kind(field: Any, name: str) -> str:
    """The kind of a label column ("int", "float", "bool" or "string"); raises
    for other types."""
    from pyspark.sql import types as T

    dtype = field.dataType
    if isinstance(dtype, T.BooleanType):
        return "bool"
    if isinstance(dtype, T.StringType):
        return "string"
    if isinstance(dtype, T.IntegralType):
        return "int"
    if isinstance(dtype, T.FractionalType):  # float, double, decimal
        return "float"
    raise TypeError(
        f"{name}={field.name!r} is a column of type {dtype.simpleString()}; class "
        f"labels must be {_ACCEPTED_TYPES}. Multilabel targets (array columns "
        "of label sets) are not supported by the Spark functions."
    )


def _check_weight_column(field: Any, name: str) -> None:
    from pyspark.sql import types as T

    if not isinstance(field.dataType, T.NumericType | T.BooleanType):
        raise TypeError(
            f"{name}={field.name!r} is a column of type "
            f"{field.dataType.simpleString()}; sample weights must be numbers "
            "(an integer or floating-point column)."
        )


@dataclass
class PairTable:
    """The aggregated table: one entry per distinct (label, prediction) pair.

    ``rows`` is the number of DataFrame rows of each pair, ``weight`` the sum of
    their weights (None when unweighted), ``nonzero`` the number of rows with a
    nonzero weight overall.
    """

    true: np.ndarray
    pred: np.ndarray
    rows: np.ndarray
    weight: np.ndarray | None
    n_samples: int
    nonzero: int


def _values(column: list[Any], kind: str) -> np.ndarray:
    """Collected label values as the array numpy users would hold."""
    if kind == "int":
        return np.asarray(column, dtype=np.int64)
    if kind == "float":
        return np.asarray([float(v) for v in column], dtype=np.float64)
    if kind == "bool":
        return np.asarray(column, dtype=bool)
    return np.asarray(column, dtype=str)


def _kinds_and_aggregates(
    df: Any,
    label_col: Any,
    prediction_col: Any,
    weight_col: Any,
    caller: str,
) -> tuple[tuple[str, str], Any]:
    """Check the DataFrame and its columns; build the aggregation query."""
    from pyspark.sql import functions as F

    _check_dataframe(df, caller)
    true_field = _check_column(df, label_col, "label_col", caller)
    pred_field = _check_column(df, prediction_col, "prediction_col", caller)
    kinds = (
        _label_kind(true_field, "label_col"),
        _label_kind(pred_field, "prediction_col"),
    )
    columns = [F.col(label_col).alias("t"), F.col(prediction_col).alias("p")]
    aggregates = [F.count(F.lit(1)).alias("rows")]
    if weight_col is not None:
        weight_field = _check_column(df, weight_col, "weight_col", caller)
        _check_weight_column(weight_field, "weight_col")
        columns.append(F.col(weight_col).cast("double").alias("w"))
        w = F.col("w")
        aggregates += [
            F.sum(w).alias("weight"),
            F.count(w).alias("present"),  # non-null weights
            F.count(F.when(w != 0, 1)).alias("nonzero"),
            F.count(F.when(F.isnan(w) | (F.abs(w) == float("inf")), 1)).alias("bad"),
        ]
    query = df.select(*columns).groupBy("t", "p").agg(*aggregates)
    # at most MAX_PAIRS + 1 aggregated rows are ever collected
    return kinds, query.limit(MAX_PAIRS + 1)


def pair_query(
    df: Any,
    label_col: Any,
    prediction_col: Any,
    weight_col: Any,
    *,
    caller: str,
) -> Any:
    """The query whose result :func:`pair_table` collects (for inspection)."""
    return _kinds_and_aggregates(df, label_col, prediction_col, weight_col, caller)[1]


def pair_table(
    df: Any,
    label_col: Any,
    prediction_col: Any,
    weight_col: Any,
    *,
    caller: str,
) -> PairTable:
    """Run the aggregation query and bring back its (small) result."""
    kinds, query = _kinds_and_aggregates(
        df, label_col, prediction_col, weight_col, caller
    )
    collected = query.collect()
    if len(collected) > MAX_PAIRS:
        raise ValueError(
            f"label_col={label_col!r} and prediction_col={prediction_col!r} hold "
            f"more than {MAX_PAIRS} distinct (label, prediction) pairs: they do not "
            "look like class labels (scores, probabilities or row ids?). Threshold "
            "scores into labels first."
        )
    return _read_table(collected, kinds, label_col, prediction_col, weight_col)


def _read_table(
    collected: list[Any],
    kinds: tuple[str, str],
    label_col: str,
    prediction_col: str,
    weight_col: str | None,
) -> PairTable:
    if not collected:
        raise ValueError(
            "Found empty input DataFrame (0 rows) while a minimum of 1 sample is "
            "required."
        )
    true = [row["t"] for row in collected]
    pred = [row["p"] for row in collected]
    for values, name, column in (
        (true, "label_col", label_col),
        (pred, "prediction_col", prediction_col),
    ):
        missing = sum(
            row["rows"] for row, v in zip(collected, values, strict=True) if v is None
        )
        if missing:
            raise ValueError(
                f"{name}={column!r} holds {missing} null values; every row needs a "
                "class label (drop or fill the nulls first)."
            )
    rows = np.asarray([row["rows"] for row in collected], dtype=np.int64)
    n_samples = int(rows.sum())
    weight = None
    nonzero = n_samples
    if weight_col is not None:
        absent = n_samples - sum(int(row["present"]) for row in collected)
        if absent:
            raise ValueError(
                f"weight_col={weight_col!r} holds {absent} null values; give every "
                "row a finite weight."
            )
        if any(row["bad"] for row in collected):
            raise ValueError(
                f"weight_col={weight_col!r} holds non-finite values (NaN or "
                "infinity); sample weights must be finite numbers."
            )
        nonzero = sum(int(row["nonzero"]) for row in collected)
        if nonzero == 0:
            raise ValueError(
                f"weight_col={weight_col!r} holds only zeros; at least one sample "
                "must have a nonzero weight."
            )
        weight = np.asarray([row["weight"] for row in collected], dtype=np.float64)
    return PairTable(
        _values(true, kinds[0]),
        _values(pred, kinds[1]),
        rows,
        weight,
        n_samples,
        nonzero,
    )


def _named(exc: Exception, label_col: str, prediction_col: str) -> Exception:
    message = (
        str(exc)
        .replace("y_true", f"label_col={label_col!r}")
        .replace("y_pred", f"prediction_col={prediction_col!r}")
    )
    return type(exc)(message)


def counts_from_pairs(
    table: PairTable, *, label_col: str, prediction_col: str
) -> Counts:
    """The count record of the samples the table lists (as the counting core
    would count them from the full label arrays)."""
    try:
        targets = read_targets(table.true, table.pred)
    except (TypeError, ValueError) as exc:
        raise _named(exc, label_col, prediction_col) from exc
    true, pred = targets.true, targets.pred
    present = np.zeros(targets.code_labels.shape[0], dtype=bool)
    present[true] = True
    present[pred] = True
    position = np.cumsum(present) - 1
    t, p = position[true], position[pred]
    classes = targets.code_labels[present]
    k = classes.shape[0]
    values = table.rows if table.weight is None else table.weight
    if k <= MAX_CONFUSION_CLASSES:  # the table is the confusion matrix
        confusion = np.zeros((k, k), dtype=values.dtype)
        np.add.at(confusion, (t, p), values)
        tp = confusion.diagonal().copy()
        true_sum, pred_sum = confusion.sum(axis=1), confusion.sum(axis=0)
    else:  # many classes: per-class sums, no dense matrix
        confusion = None
        hit = t == p
        tp, true_sum, pred_sum = (
            np.bincount(codes, weights=w, minlength=k).astype(values.dtype)
            for codes, w in ((t[hit], values[hit]), (t, values), (p, values))
        )
    kind = "binary" if k <= 2 else "multiclass"
    return Counts(
        kind, classes, tp, true_sum, pred_sum, confusion, n_samples=table.n_samples
    )


def count_spark(
    df: Any,
    *,
    label_col: str,
    prediction_col: str,
    weight_col: str | None = None,
    caller: str,
) -> Counts:
    """Count a Spark DataFrame's label and prediction columns in Spark: the
    count record of its rows (``n_samples`` is the number of rows)."""
    table = pair_table(df, label_col, prediction_col, weight_col, caller=caller)
    return counts_from_pairs(table, label_col=label_col, prediction_col=prediction_col)


__all__ = ["count_spark", "counts_from_pairs", "is_spark_dataframe", "pair_table"]
