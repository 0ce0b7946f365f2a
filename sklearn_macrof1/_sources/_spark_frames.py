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
turned into the same count record (:class:`~sklearn_macrof1.MacroF1Counts`)
that the counting core gives for the full arrays: the confusion matrix is the
table itself. Everything above the record (selection, aggregation, summary,
report, intervals) is the code every other entry point runs.

pyspark is an optional dependency (the ``[spark]`` extra): it is imported only
when a Spark DataFrame is handed over, which :func:`is_spark_dataframe`
recognises without importing pyspark.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from .._counting._kernels import MAX_CONFUSION_CLASSES, MAX_MOMENT_LABELS, _histogram
from .._counting._record import MacroF1Counts, Reading, zero_weight_rule
from .._counting._registry import Columns, CountRequest, register_source
from .._read._targets import read_targets

#: Largest number of distinct (label, prediction) pairs brought to the driver.
#: A classification with k classes has at most k**2; more means the columns do
#: not hold class labels (e.g. scores or ids), which is refused before any row
#: beyond this many is collected.
MAX_PAIRS = 1 << 20

_ACCEPTED_TYPES = (
    "integer, floating-point (whole numbers), decimal, boolean or string columns"
)

_EMPTY = "Found empty input DataFrame (0 rows) while a minimum of 1 sample is required."

#: The array dtype of collected label values of each column kind.
_DTYPES = {"int": np.int64, "float": np.float64, "bool": bool, "string": str}


def is_spark_dataframe(value: Any) -> bool:
    """True for a pyspark.sql DataFrame (classic or Spark Connect), without
    importing pyspark."""
    return _SPARK.claims(type(value))


def check_dataframe(df: Any, caller: str) -> None:
    """TypeError unless ``df`` is a Spark DataFrame."""
    if not is_spark_dataframe(df):
        raise TypeError(
            f"{caller} counts a Spark DataFrame (pyspark.sql.DataFrame); got "
            f"{type(df).__name__}. Arrays, lists, pandas or Dask objects are "
            "counted by MacroF1Counts.from_predictions and taken by every "
            "function of sklearn_macrof1 as they are."
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
    if isinstance(dtype, T.ArrayType):
        raise TypeError(
            f"{name}={field.name!r} is an array column (label sets) and the other "
            "label column is not: a multilabel target needs label sets in both "
            f"label_col and prediction_col, class labels are {_ACCEPTED_TYPES}."
        )
    raise TypeError(
        f"{name}={field.name!r} is a column of type {dtype.simpleString()}; class "
        f"labels must be {_ACCEPTED_TYPES}, or arrays of them (label sets) for "
        "multilabel targets."
    )


def _check_weight_column(df: Any, weight_col: Any, caller: str) -> None:
    from pyspark.sql import types as T

    if weight_col is None:
        return
    field = _check_column(df, weight_col, "weight_col", caller)
    if not isinstance(field.dataType, T.NumericType | T.BooleanType):
        raise TypeError(
            f"weight_col={field.name!r} is a column of type "
            f"{field.dataType.simpleString()}; sample weights must be numbers "
            "(an integer or floating-point column)."
        )


def _weight_aggregates(w: Any) -> list[Any]:
    """The figures of the weight column ``w`` that :func:`_check_weights` reads."""
    from pyspark.sql import functions as F

    return [
        F.count(F.when(w.isNull(), 1)).alias("null_w"),
        F.count(F.when(w != 0, 1)).alias("nonzero"),
        F.count(F.when(F.isnan(w) | (F.abs(w) == float("inf")), 1)).alias("bad"),
    ]


def _check_weights(weight_col: str, figures: Any) -> None:
    """Refuse null, non-finite or only zero weights (``figures``: the totals of
    :func:`_weight_aggregates`)."""
    if figures["null_w"]:
        raise ValueError(
            f"weight_col={weight_col!r} holds {figures['null_w']} null values; "
            "give every row a finite weight."
        )
    if figures["bad"]:
        raise ValueError(
            f"weight_col={weight_col!r} holds non-finite values (NaN or "
            "infinity); sample weights must be finite numbers."
        )
    zero_weight_rule(
        figures["nonzero"] == 0,
        None,
        error=ValueError(
            f"weight_col={weight_col!r} holds only zeros; at least one sample "
            "must have a nonzero weight."
        ),
    )


def _floats(rows: list[Any], key: str) -> np.ndarray:
    return np.asarray([row[key] for row in rows], dtype=np.float64)


def pair_query(
    df: Any,
    label_col: Any,
    prediction_col: Any,
    weight_col: Any,
    caller: str,
    moments: bool = False,
) -> tuple[tuple[str, str], Any]:
    """Check the DataFrame and its columns; the kinds of the label columns and
    the aggregation query (with ``moments`` and weights, each pair's sum of
    squared weights too)."""
    from pyspark.sql import functions as F

    check_dataframe(df, caller)
    true_field = _check_column(df, label_col, "label_col", caller)
    pred_field = _check_column(df, prediction_col, "prediction_col", caller)
    kinds = (
        _label_kind(true_field, "label_col"),
        _label_kind(pred_field, "prediction_col"),
    )
    columns = [F.col(label_col).alias("t"), F.col(prediction_col).alias("p")]
    aggregates = [F.count(F.lit(1)).alias("rows")]
    if weight_col is not None:
        _check_weight_column(df, weight_col, caller)
        columns.append(F.col(weight_col).cast("double").alias("w"))
        w = F.col("w")
        aggregates += [F.sum(w).alias("weight"), *_weight_aggregates(w)]
        if moments:
            aggregates.append(F.sum(w * w).alias("weight2"))
    query = df.select(*columns).groupBy("t", "p").agg(*aggregates)
    # at most MAX_PAIRS + 1 aggregated rows are ever collected
    return kinds, query.limit(MAX_PAIRS + 1)


def count_spark(
    df: Any,
    *,
    label_col: str,
    prediction_col: str,
    weight_col: str | None = None,
    caller: str,
    moments: bool = False,
) -> MacroF1Counts:
    """Count a Spark DataFrame's label and prediction columns in Spark: the
    count record of its rows (``n_samples`` is the number of rows). With
    ``moments`` and ``weight_col``, the record's second moments (each cell's
    sum of squared weights) are counted in the same query."""
    kinds, query = pair_query(
        df, label_col, prediction_col, weight_col, caller, moments
    )
    collected = query.collect()
    if len(collected) > MAX_PAIRS:
        raise ValueError(
            f"label_col={label_col!r} and prediction_col={prediction_col!r} hold "
            f"more than {MAX_PAIRS} distinct (label, prediction) pairs: they do not "
            "look like class labels (scores, probabilities or row ids?). Threshold "
            "scores into labels first."
        )
    if not collected:
        raise ValueError(_EMPTY)
    for key, name, column in (
        ("t", "label_col", label_col),
        ("p", "prediction_col", prediction_col),
    ):
        missing = sum(row["rows"] for row in collected if row[key] is None)
        if missing:
            raise ValueError(
                f"{name}={column!r} holds {missing} null values; every row needs a "
                "class label (drop or fill the nulls first)."
            )
    rows = np.asarray([row["rows"] for row in collected], dtype=np.int64)
    values, weight2 = rows, None
    if weight_col is not None:
        figures = ("null_w", "bad", "nonzero")
        _check_weights(
            weight_col, {key: sum(row[key] for row in collected) for key in figures}
        )
        values = _floats(collected, "weight")
        if moments:
            weight2 = _floats(collected, "weight2")
    try:
        targets = read_targets(
            np.asarray([row["t"] for row in collected], dtype=_DTYPES[kinds[0]]),
            np.asarray([row["p"] for row in collected], dtype=_DTYPES[kinds[1]]),
        )
    except (TypeError, ValueError) as exc:
        message = (
            str(exc)
            .replace("y_true", f"label_col={label_col!r}")
            .replace("y_pred", f"prediction_col={prediction_col!r}")
        )
        raise type(exc)(message) from exc
    return _counts_from_pairs(targets, values, weight2, int(rows.sum()))


def _counts_from_pairs(
    targets: Any, values: np.ndarray, weight2: np.ndarray | None, n_samples: int
) -> MacroF1Counts:
    """The count record of the (true, pred) pairs ``targets`` read, each
    standing for ``values`` samples (rows, or their summed weights), as the
    counting core would count the full label arrays."""
    # the classes are the labels present; t, p: each pair's class positions
    present, position = np.unique(
        np.concatenate([targets.true, targets.pred]), return_inverse=True
    )
    t, p = np.split(position.reshape(-1), 2)
    classes = targets.code_labels[present]
    k = classes.shape[0]
    moments = None
    if k <= MAX_CONFUSION_CLASSES:  # the table is the confusion matrix
        confusion = np.zeros((k, k), dtype=values.dtype)
        np.add.at(confusion, (t, p), values)
        tp = confusion.diagonal().copy()
        true_sum, pred_sum = confusion.sum(axis=1), confusion.sum(axis=0)
        if weight2 is not None:  # per cell, the sum of squared weights
            moments = np.zeros((k, k), dtype=np.float64)
            np.add.at(moments, (t, p), weight2)
    else:  # many classes: the pairs are the occupied cells, no dense matrix
        confusion = sp.csr_array((values, (t, p)), shape=(k, k))
        confusion.sum_duplicates()
        if weight2 is not None:
            moments = sp.csr_array((weight2, (t, p)), shape=(k, k))
            moments.sum_duplicates()
        hit = t == p
        tp, true_sum, pred_sum = (
            np.bincount(codes, weights=w, minlength=k).astype(values.dtype)
            for codes, w in ((t[hit], values[hit]), (t, values), (p, values))
        )
    return MacroF1Counts(
        "binary" if k <= 2 else "multiclass",
        classes,
        tp,
        true_sum,
        pred_sum,
        confusion,
        n_samples=n_samples,
        moments=moments,
    )


def _element_kind(field: Any, name: str) -> str:
    from pyspark.sql import types as T

    element = T.StructField(field.name, field.dataType.elementType)
    try:
        return _label_kind(element, name)
    except TypeError:
        raise TypeError(
            f"{name}={field.name!r} is a column of type "
            f"{field.dataType.simpleString()}; label sets must be arrays of "
            f"{_ACCEPTED_TYPES}."
        ) from None


def _set_columns(
    df: Any, true_field: Any, pred_field: Any, weight_col: str | None
) -> tuple[Any, Any, Any, str]:
    """The two label-set columns (deduplicated, of one element type), the weight
    column and the element kind."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    kinds = (
        _element_kind(true_field, "label_col"),
        _element_kind(pred_field, "prediction_col"),
    )
    t, p = F.col(true_field.name), F.col(pred_field.name)
    kind = kinds[0]
    if kinds[0] != kinds[1]:
        if set(kinds) <= {"int", "float"}:
            double = T.ArrayType(T.DoubleType())
            t, p, kind = t.cast(double), p.cast(double), "float"
        else:
            raise ValueError(
                f"Mix of label input types: label_col={true_field.name!r} holds "
                f"sets of {kinds[0]} labels and prediction_col={pred_field.name!r} "
                f"sets of {kinds[1]} labels; both must hold labels of one type."
            )
    elif true_field.dataType.elementType != pred_field.dataType.elementType:
        common = T.ArrayType(
            T.DoubleType() if kind in ("int", "float") else T.StringType()
        )
        t, p = t.cast(common), p.cast(common)
    w = F.lit(1.0) if weight_col is None else F.col(weight_col).cast("double")
    return F.array_distinct(t), F.array_distinct(p), w, kind


def _check_set_rows(
    df: Any, t: Any, p: Any, w: Any, columns: tuple[str, str, str | None]
) -> int:
    """Refuse nulls (of a set or inside one) and bad weights; the row count."""
    from pyspark.sql import functions as F

    aggregates = [
        F.count(F.lit(1)).alias("rows"),
        F.count(F.when(t.isNull(), 1)).alias("null_t"),
        F.count(F.when(p.isNull(), 1)).alias("null_p"),
        F.count(F.when(F.exists(t, lambda x: x.isNull()), 1)).alias("in_t"),
        F.count(F.when(F.exists(p, lambda x: x.isNull()), 1)).alias("in_p"),
    ]
    if columns[2] is not None:
        aggregates += _weight_aggregates(w)
    row = df.agg(*aggregates).collect()[0]
    if row["rows"] == 0:
        raise ValueError(_EMPTY)
    for key, inner, name, column in (
        ("null_t", "in_t", "label_col", columns[0]),
        ("null_p", "in_p", "prediction_col", columns[1]),
    ):
        if row[key]:
            raise ValueError(
                f"{name}={column!r} holds {row[key]} null values; every row needs "
                "a label set (an empty array for no labels)."
            )
        if row[inner]:
            raise ValueError(
                f"{name}={column!r} holds {row[inner]} label sets with null "
                "elements; labels must not be null."
            )
    if columns[2] is not None:
        _check_weights(columns[2], row)
    return int(row["rows"])


def _wanted(labels: Any, kind: str) -> np.ndarray:
    wanted = np.asarray(labels)
    if wanted.ndim != 1:
        raise ValueError(f"labels must be a 1-D array-like; got shape {wanted.shape}.")
    if wanted.size and (wanted.dtype.kind in "US") != (kind == "string"):
        raise ValueError(
            f"labels={labels!r} are not of the type of the label sets' labels "
            f"({kind}); labels select label values."
        )
    return wanted


def count_spark_sets(
    df: Any,
    *,
    label_col: str,
    prediction_col: str,
    weight_col: str | None,
    labels: Any,
    samplewise: bool,
    caller: str,
    moments: bool = False,
) -> MacroF1Counts:
    """The multilabel count record of two label-set (array) columns.

    The classes are the sorted union of the labels (those of ``labels``, in its
    order, when given: absent ones are empty classes). Per-class counts come
    from one aggregation over the exploded true sets, predicted sets and their
    intersections; with ``samplewise``, the per-row ``(tp, true, pred)`` triples
    (over the selected labels) are aggregated in Spark into the histogram that
    the record keeps for ``average="samples"``. Duplicates inside a set count
    once (a set, as for ``MultiLabelBinarizer``); an empty array is a row with
    no labels. ``moments`` adds the second moments of the delta method: the
    ``3L x 3L`` matrix ``sum_i w_i**2 x_i x_i'`` of each row's
    ``(tp | true | pred)`` indicator over the classes (one ``groupBy`` of the
    pairs of each row's entries, at most ``(3L)**2`` rows), and the histogram's
    sums of squared weights.
    """
    from pyspark.sql import functions as F

    true_field = _check_column(df, label_col, "label_col", caller)
    pred_field = _check_column(df, prediction_col, "prediction_col", caller)
    _check_weight_column(df, weight_col, caller)
    t, p, w, kind = _set_columns(df, true_field, pred_field, weight_col)
    n_samples = _check_set_rows(df, t, p, w, (label_col, prediction_col, weight_col))
    exploded = df.select(F.explode(_entries(t, p)).alias("e"), w.alias("w"))
    per_class = (
        exploded.groupBy(F.col("e.k").alias("k"), F.col("e.c").alias("c"))
        .agg(F.count(F.lit(1)).alias("rows"), F.sum("w").alias("weight"))
        .limit(3 * MAX_PAIRS + 1)
        .collect()
    )
    if len(per_class) > 3 * MAX_PAIRS:
        raise ValueError(
            f"label_col={label_col!r} and prediction_col={prediction_col!r} hold "
            f"more than {MAX_PAIRS} distinct labels: they do not look like class "
            "labels."
        )
    values = np.asarray([row["c"] for row in per_class], dtype=_DTYPES[kind])
    classes = np.unique(values) if labels is None else _wanted(labels, kind)
    k = classes.shape[0]
    weighted = weight_col is not None
    sums = np.zeros((3, k), dtype=np.float64 if weighted else np.int64)
    lookup = {v: i for i, v in enumerate(classes.tolist())}
    for row, value in zip(per_class, values.tolist(), strict=True):
        index = lookup.get(value)
        if index is not None:
            sums[row["k"], index] += row["weight"] if weighted else row["rows"]
    samples = second = None
    if labels is not None:  # the label sets over the selected labels
        keep = F.array(*[F.lit(v) for v in classes.tolist()])
        keep = keep.cast(df.select(t.alias("x")).schema.fields[0].dataType)
        t_s, p_s = F.array_intersect(t, keep), F.array_intersect(p, keep)
    else:
        t_s, p_s = t, p
    if moments:
        second = _second_moments(df, t_s, p_s, w, classes, kind, lookup)
    if samplewise:
        zero = w == 0  # zero-weight samples are (0, 0, 0) in a histogram
        triples = df.select(
            F.when(zero, 0).otherwise(F.size(F.array_intersect(t_s, p_s))).alias("a"),
            F.when(zero, 0).otherwise(F.size(t_s)).alias("b"),
            F.when(zero, 0).otherwise(F.size(p_s)).alias("c"),
            w.alias("w"),
        )
        rows = (
            triples.groupBy("a", "b", "c")
            .agg(
                F.count(F.lit(1)).alias("n"),
                F.sum("w").alias("w"),
                F.sum(F.col("w") * F.col("w")).alias("w2"),
            )
            .collect()
        )
        samples = _histogram(
            np.asarray([[r["a"], r["b"], r["c"]] for r in rows], dtype=np.int64),
            _floats(rows, "w") if weighted else None,
            _floats(rows, "n"),
            _floats(rows, "w2") if weighted and moments else None,
        )
    return MacroF1Counts(
        "multilabel-indicator",
        classes,
        sums[0].copy(),
        sums[1].copy(),
        sums[2].copy(),
        n_samples=n_samples,
        moments=second,
        _samples=samples,
    )


def _entries(t: Any, p: Any) -> Any:
    """Each row's ``(k, c)`` entries, ``k`` in the record's ``(tp | true |
    pred)`` order: ``c`` a label of both sets (``k=0``), of the true set (1)
    and of the predicted set (2)."""
    from pyspark.sql import functions as F

    def tagged(values: Any, tag: int) -> Any:
        return F.transform(
            values, lambda x: F.struct(F.lit(tag).alias("k"), x.alias("c"))
        )

    return F.concat(tagged(t, 1), tagged(p, 2), tagged(F.array_intersect(t, p), 0))


def _second_moments(
    df: Any,
    t: Any,
    p: Any,
    w: Any,
    classes: np.ndarray,
    kind: str,
    lookup: dict[Any, int],
) -> np.ndarray:
    """``sum_i w_i**2 x_i x_i'`` over the rows of ``df``, ``x_i`` the row's
    ``(tp | true | pred)`` indicator over ``classes`` (``t``, ``p``: the
    label sets restricted to them), aggregated in Spark by pairs of entries:
    dense up to ``MAX_MOMENT_LABELS`` classes, else the occupied entries (a
    ``scipy.sparse.csr_array``, one per aggregated pair)."""
    from pyspark.sql import functions as F

    n = classes.shape[0]

    rows = (
        df.select(_entries(t, p).alias("e"), (w * w).alias("w2"))
        .select(F.explode("e").alias("a"), "e", "w2")
        .select("a", F.explode("e").alias("b"), "w2")
        .groupBy(
            F.col("a.k").alias("ka"),
            F.col("a.c").alias("ca"),
            F.col("b.k").alias("kb"),
            F.col("b.c").alias("cb"),
        )
        .agg(F.sum("w2").alias("w2"))
        .collect()
    )
    values_a = np.asarray([row["ca"] for row in rows], dtype=_DTYPES[kind]).tolist()
    values_b = np.asarray([row["cb"] for row in rows], dtype=_DTYPES[kind]).tolist()
    entries: tuple[list[int], list[int], list[float]] = ([], [], [])
    for row, a, b in zip(rows, values_a, values_b, strict=True):
        i, j = lookup.get(a), lookup.get(b)
        if i is not None and j is not None:
            entries[0].append(row["ka"] * n + i)
            entries[1].append(row["kb"] * n + j)
            entries[2].append(row["w2"])
    second = sp.csr_array(
        (np.asarray(entries[2], dtype=np.float64), (entries[0], entries[1])),
        shape=(3 * n, 3 * n),
    )
    second.sum_duplicates()
    return second.toarray() if n <= MAX_MOMENT_LABELS else second


def is_label_sets(df: Any, label_col: Any, prediction_col: Any) -> bool:
    """True when both label columns are arrays (multilabel label sets)."""
    from pyspark.sql import types as T

    if not is_spark_dataframe(df):
        return False
    fields = {field.name: field for field in df.schema.fields}
    return isinstance(label_col, str) and all(
        isinstance(getattr(fields.get(c), "dataType", None), T.ArrayType)
        for c in (label_col, prediction_col)
        if isinstance(c, str)
    )


class _Spark:
    """The columns of a Spark DataFrame: counted by aggregation queries in
    Spark; only the aggregated tables reach this process (no per-row
    targets, no joint counts for comparisons)."""

    name = "Spark"
    count_jointly = None

    def claims(self, cls: type) -> bool:  # pyspark.sql's, not pandas-on-Spark's
        return cls.__module__.startswith("pyspark.sql.") and any(
            base.__name__ == "DataFrame" for base in cls.__mro__
        )

    def count(self, data: Columns, request: CountRequest) -> Reading:
        # (a DataFrame in place of arrays never gets here: it is no array-like)
        df, label_col, prediction_col = data.frame, data.label_col, data.prediction_col
        if is_label_sets(df, label_col, prediction_col):
            counts = count_spark_sets(
                df,
                label_col=label_col,
                prediction_col=prediction_col,
                weight_col=data.weight_col,
                labels=request.labels,
                samplewise=request.samplewise,
                caller=request.caller,
                moments=request.moments,
            )
            # the columns are the label values: the per-row counts cover them
            counts._sample_columns = counts.classes
        else:
            counts = count_spark(
                df,
                label_col=label_col,
                prediction_col=prediction_col,
                weight_col=data.weight_col,
                caller=request.caller,
                moments=request.moments,
            )
        counts.weighted = data.weight_col is not None
        return Reading(counts)


_SPARK = _Spark()
register_source(_SPARK)

__all__ = [
    "check_dataframe",
    "count_spark_sets",
    "is_label_sets",
    "count_spark",
    "is_spark_dataframe",
]
