"""Checking and encoding the inputs of a tuning: options, weights, scores, targets.

The encoded data (a :class:`MulticlassData` or :class:`MultilabelData`) give the
problem a tuner works on, for every sample or for a subset of rows (the folds of
the rule selection).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.utils.multiclass import type_of_target

from ._multiclass import MulticlassProblem
from ._multilabel import MultilabelProblem
from ._objective import FORMULAS, Objective
from ._package import (
    AVERAGES,
    InvalidParameterError,
    check_options_of,
    check_sample_weight,
)


# ---------------------------------------------------------------- options
@dataclass(frozen=True)
class Options:
    formula: str
    beta: float
    average: str
    zero_division: Any
    smoothing: float
    max_iter: int
    tol: float
    n_splits: int  # folds of the rule selection, 0 for none

    def objective(self, weight: np.ndarray, formula: str | None = None) -> Objective:
        """The objective searched (smoothed, in units of the mean positive
        weight), for ``formula`` (default: the one asked for)."""
        fill = 0.0 if self.zero_division == "warn" else float(self.zero_division)
        positive = weight[weight > 0]
        unit = float(positive.mean()) if positive.size else 1.0
        return Objective(
            formula or self.formula,
            self.beta,
            self.average,
            fill,
            self.smoothing * unit,
        )


def check_options(
    *,
    caller: str,
    formula: Any,
    beta: Any,
    average: Any,
    zero_division: Any,
    smoothing: Any,
    max_iter: Any,
    tol: Any,
    selection_cv: Any,
) -> Options:
    """Every option checked, with scikit-learn's ``InvalidParameterError`` and a
    message naming the option and ``caller``."""
    if not (isinstance(formula, str) and formula in FORMULAS):
        raise InvalidParameterError(
            f"The 'formula' parameter of {caller} must be a str among "
            f"{{'averaged', 'of_averages'}}. Got {formula!r} instead."
        )
    beta = check_options_of(caller, beta=beta)["beta"]
    if average is None:
        raise InvalidParameterError(
            f"The 'average' parameter of {caller} must be a str among "
            "{'macro', 'weighted', 'micro', 'binary', 'samples'}: a rule is tuned "
            "for one number, so average=None (per-class scores) does not apply. "
            "Got None instead."
        )
    if not (isinstance(average, str) and average in AVERAGES):
        raise InvalidParameterError(
            f"The 'average' parameter of {caller} must be a str among "
            "{'macro', 'weighted', 'micro', 'binary', 'samples'}. "
            f"Got {average!r} instead."
        )
    zero_division = check_options_of(caller, zero_division=zero_division)[
        "zero_division"
    ]
    if (
        isinstance(smoothing, bool)
        or not isinstance(smoothing, numbers.Real)
        or not (0 <= float(smoothing) < math.inf)
    ):
        raise InvalidParameterError(
            f"The 'smoothing' parameter of {caller} must be a float in the range "
            f"[0, inf). Got {smoothing!r} instead."
        )
    if (
        isinstance(max_iter, bool)
        or not isinstance(max_iter, numbers.Integral)
        or int(max_iter) < 1
    ):
        raise InvalidParameterError(
            f"The 'max_iter' parameter of {caller} must be an int in the range "
            f"[1, inf). Got {max_iter!r} instead."
        )
    if (
        isinstance(tol, bool)
        or not isinstance(tol, numbers.Real)
        or not (0 <= float(tol) < math.inf)
    ):
        raise InvalidParameterError(
            f"The 'tol' parameter of {caller} must be a float in the range "
            f"[0, inf). Got {tol!r} instead."
        )
    if selection_cv == "auto":
        n_splits = 3
    elif selection_cv is None:
        n_splits = 0
    elif (
        isinstance(selection_cv, numbers.Integral)
        and not isinstance(selection_cv, bool)
        and int(selection_cv) >= 2
    ):
        n_splits = int(selection_cv)
    else:
        raise InvalidParameterError(
            f"The 'selection_cv' parameter of {caller} must be 'auto', None or an "
            f"int in the range [2, inf). Got {selection_cv!r} instead."
        )
    return Options(
        formula,
        beta,
        average,
        zero_division,
        float(smoothing),
        int(max_iter),
        float(tol),
        n_splits,
    )


# ---------------------------------------------------------------- inputs
def check_weights(
    sample_weight: Any, n: int, *, inputs: str = "y_true and y_score"
) -> np.ndarray:
    """The weights of a tuning (ones when None): the package's sample-weight
    check, refusing negative and all-zero weights; a scalar or a sparse matrix
    is refused here, as the score functions refuse them before that check.
    ``inputs`` names the arguments whose length ``n`` is, for the message."""
    if sample_weight is None:
        return np.ones(n)
    scalar = isinstance(sample_weight, numbers.Number) or (
        getattr(sample_weight, "ndim", None) == 0
    )
    if sp.issparse(sample_weight) or scalar:
        raise ValueError(
            "sample_weight must be a 1-D array of non-negative numbers, one per "
            f"sample; got shape {np.shape(sample_weight)}."
        )
    weight = check_sample_weight(sample_weight, n, inputs=inputs, positive_total=True)
    assert weight is not None
    return weight


def _finite(scores: np.ndarray) -> np.ndarray:
    if scores.dtype.kind not in "biuf":
        raise ValueError(
            f"y_score must hold numbers (scores or probabilities); got dtype "
            f"{scores.dtype}."
        )
    scores = scores.astype(np.float64, copy=False)
    if not np.isfinite(scores).all():
        raise ValueError("y_score contains NaN or infinity.")
    return scores


def multiclass_scores(y_score: Any, n_classes: int, one_column: bool) -> np.ndarray:
    """Scores as an (n, k) float array; 1-D scores of a binary problem become
    the two columns ``(-s, s)`` (a rule on them is a threshold on ``s``)."""
    if sp.issparse(y_score):
        y_score = y_score.toarray()
    scores = np.asarray(y_score)
    scores = _finite(scores)
    if scores.ndim == 1 and n_classes == 2:
        return np.column_stack((-scores, scores))
    if one_column:
        raise ValueError(
            "y_score must be 1-D: this rule was tuned on the scores of the "
            f"positive class; got shape {scores.shape}."
        )
    if scores.ndim != 2 or scores.shape[1] != n_classes:
        raise ValueError(
            f"y_score must have shape (n_samples, {n_classes}): one column per "
            f"class, in the order of the classes; got shape {scores.shape}."
            + (
                " For a binary problem, 1-D scores of the positive class are "
                "also accepted."
                if n_classes == 2
                else ""
            )
        )
    return np.ascontiguousarray(scores)


def multilabel_scores(y_score: Any, n: int | None, n_labels: int) -> Any:
    """(n, L) scores, dense float64 or sparse CSC; a list of (n, 2) arrays (as
    ``MultiOutputClassifier.predict_proba`` returns) gives its second columns."""
    if isinstance(y_score, list | tuple) and all(
        np.ndim(a) == 2 and np.shape(a)[1] == 2 for a in y_score
    ):
        y_score = np.column_stack([np.asarray(a)[:, 1] for a in y_score])
    if sp.issparse(y_score):
        scores = sp.csc_matrix(y_score, dtype=np.float64)
        scores.sum_duplicates()
        _finite(scores.data)
    else:
        scores = _finite(np.asarray(y_score))
    if (
        scores.ndim != 2
        or scores.shape[1] != n_labels
        or (n is not None and scores.shape[0] != n)
    ):
        raise ValueError(
            f"y_score must have shape ({n if n is not None else 'n_samples'}, "
            f"{n_labels}): one column of scores per label of y_true; got shape "
            f"{scores.shape}."
        )
    return scores


def _encode(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Index of each label in ``classes``, -1 where it is not one of them."""
    sorter = np.argsort(classes, kind="stable")
    try:
        position = np.searchsorted(classes, y, sorter=sorter)
    except TypeError as exc:
        raise ValueError(
            "the labels of y_true cannot be compared with the classes "
            f"({classes.dtype} and {y.dtype}): use labels of one type."
        ) from exc
    position = np.minimum(position, len(classes) - 1)
    code = sorter[position]
    found = classes[code] == y
    return np.where(found, code, -1)


def target_kind(y_true: Any) -> str:
    """scikit-learn's type of ``y_true``, refused unless it is a classification
    target."""
    if y_true is None or np.isscalar(y_true):
        raise ValueError(f"y_true must be an array-like of labels; got {y_true!r}.")
    kind = type_of_target(y_true, input_name="y_true")
    if kind not in ("binary", "multiclass", "multilabel-indicator"):
        raise ValueError(
            "y_true must hold class labels (binary or multiclass) or a 0/1 "
            f"multilabel indicator matrix; got a target of type {kind!r}."
        )
    return kind


@dataclass
class MulticlassData:
    """Encoded multiclass validation data."""

    scores: np.ndarray  # (n, k) float64
    y: np.ndarray  # the labels, as given
    code: np.ndarray  # index of each label in classes, -1 outside them
    weight: np.ndarray
    classes: np.ndarray
    select: np.ndarray | None
    extra: list[Any]  # averaged labels outside the classes
    one_column: bool  # 1-D binary scores

    @property
    def n_samples(self) -> int:
        return int(self.y.shape[0])

    @property
    def strata(self) -> np.ndarray:
        return self.code

    def problem(
        self, objective: Objective, rows: np.ndarray | None = None
    ) -> MulticlassProblem:
        take = slice(None) if rows is None else rows
        y, weight = self.y[take], self.weight[take]
        positive = weight > 0
        extra = np.zeros((3, len(self.extra)))
        for i, label in enumerate(self.extra):
            is_label = y == label
            extra[:, i] = (
                weight[is_label].sum(),
                (positive & is_label).sum(),
                is_label.sum(),
            )
        return MulticlassProblem(
            np.ascontiguousarray(self.scores[take]),
            self.code[take],
            weight,
            objective,
            self.select,
            extra,
        )


def multiclass_data(
    y_true: Any,
    y_score: Any,
    *,
    classes: Any,
    labels: Any,
    pos_label: Any,
    weight: np.ndarray,
    average: str,
    target: str,
) -> MulticlassData:
    y = np.asarray(y_true)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y.ravel()
    if average == "samples":
        raise ValueError(
            "average='samples' applies only to multilabel targets; y_true is "
            f"{target}. Use 'macro', 'weighted' or 'micro'."
        )
    if classes is None:
        classes = np.unique(y)
    else:
        classes = np.asarray(classes)
        if classes.ndim != 1 or len(np.unique(classes)) != len(classes):
            raise ValueError("classes must be a 1-D array of distinct labels.")
    if len(classes) < 2:
        raise ValueError(
            "A decision rule needs at least 2 classes; got "
            f"{len(classes)} ({classes.tolist()!r})."
        )
    one_column = np.ndim(y_score) == 1 and not sp.issparse(y_score)
    scores = multiclass_scores(y_score, len(classes), False)
    if scores.shape[0] != y.shape[0]:
        raise ValueError(
            f"y_score has {scores.shape[0]} rows but y_true has {y.shape[0]} samples."
        )
    code = _encode(y, classes)
    extra: list[Any] = []
    select: np.ndarray | None
    if average == "binary":
        if target == "multiclass":
            raise ValueError(
                "Target is multiclass but average='binary'. Please choose another "
                "average setting, one of ['micro', 'macro', 'weighted']."
            )
        if not np.any(classes == pos_label):
            raise ValueError(
                f"pos_label={pos_label!r} is not a valid label: it must be one of "
                f"{classes.tolist()!r}."
            )
        select = classes == pos_label
    elif labels is not None:
        wanted = np.asarray(labels)
        if wanted.ndim != 1 or wanted.size == 0:
            raise ValueError("labels must be a non-empty 1-D array of class labels.")
        wanted_code = _encode(wanted, classes)
        select = np.zeros(len(classes), dtype=bool)
        select[wanted_code[wanted_code >= 0]] = True
        extra = list(np.unique(wanted[wanted_code < 0]))
    else:
        select = None
        extra = list(np.unique(y[code < 0]))
    return MulticlassData(scores, y, code, weight, classes, select, extra, one_column)


@dataclass
class MultilabelData:
    """Encoded multilabel validation data."""

    scores: np.ndarray | sp.csc_matrix
    y: np.ndarray | sp.csc_matrix
    weight: np.ndarray
    columns: np.ndarray
    #: The labels' orders of scores (``MultilabelProblem.orders``) of the two
    #: row selections asked for last: a search for F-beta of averages starts
    #: from the rule tuned for averaged F-beta on the same rows, and the rule
    #: selection scores each on other rows in between.
    _orders: list[tuple[np.ndarray | None, dict[int, np.ndarray]]] = field(
        default_factory=list, init=False, repr=False, compare=False
    )

    @property
    def n_samples(self) -> int:
        return int(self.y.shape[0])

    @property
    def strata(self) -> None:
        return None

    def problem(
        self, objective: Objective, rows: np.ndarray | None = None
    ) -> MultilabelProblem:
        orders = next((o for key, o in self._orders if key is rows), None)
        if orders is None:
            orders = {}
            self._orders = [*self._orders[-1:], (rows, orders)]
        if rows is None:
            return MultilabelProblem(
                self.scores, self.y, self.weight, objective, self.columns, orders
            )
        return MultilabelProblem(
            _rows(self.scores, rows),
            _rows(self.y, rows),
            self.weight[rows],
            objective,
            self.columns,
            orders,
        )


def _rows(matrix: Any, rows: np.ndarray) -> Any:
    if sp.issparse(matrix):
        return sp.csc_matrix(matrix.tocsr()[rows])
    return matrix[rows]


def multilabel_data(
    y_true: Any, y_score: Any, *, labels: Any, weight: np.ndarray, average: str
) -> MultilabelData:
    if average == "binary":
        raise ValueError(
            "Target is multilabel-indicator but average='binary'. Please choose "
            "another average setting, one of ['micro', 'macro', 'weighted', "
            "'samples']."
        )
    y: Any = sp.csc_matrix(y_true) if sp.issparse(y_true) else np.asarray(y_true)
    n, n_labels = y.shape
    scores = multilabel_scores(y_score, n, n_labels)
    if labels is None:
        columns = np.arange(n_labels)
    else:
        columns = np.asarray(labels)
        if (
            columns.ndim != 1
            or columns.size == 0
            or columns.dtype.kind not in "iu"
            or columns.min() < 0
            or columns.max() >= n_labels
        ):
            raise ValueError(
                "labels of multilabel targets are column indices: a non-empty 1-D "
                f"array of ints in [0, {n_labels}); got {labels!r}."
            )
        columns = np.unique(columns)
    return MultilabelData(scores, y, weight, columns)
