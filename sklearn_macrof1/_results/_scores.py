"""The public score functions: averaged F-beta and F-beta of averages."""

from __future__ import annotations

from typing import Any, overload

import numpy as np
from numpy.typing import NDArray

from .._counting._record import MacroF1Counts, check_counting_options
from .._formulas._aggregation import ALL_METRICS
from .._formulas._evaluation import check_form, check_options, read_for, score
from ._summary import FBetaSummary, build_summary


@overload
def averaged_fbeta_score(
    y_true: MacroF1Counts,
    y_pred: None = None,
    *,
    beta: float,
    labels: Any = None,
    pos_label: Any = 1,
    average: str = "macro",
    zero_division: Any = "warn",
) -> float: ...


@overload
def averaged_fbeta_score(
    y_true: MacroF1Counts,
    y_pred: None = None,
    *,
    beta: float,
    labels: Any = None,
    pos_label: Any = 1,
    average: None,
    zero_division: Any = "warn",
) -> NDArray[np.float64]: ...


@overload
def averaged_fbeta_score(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float,
    labels: Any = None,
    pos_label: Any = 1,
    average: str = "macro",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> float: ...


@overload
def averaged_fbeta_score(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float,
    labels: Any = None,
    pos_label: Any = 1,
    average: None,
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> NDArray[np.float64]: ...


def averaged_fbeta_score(
    y_true: Any,
    y_pred: Any = None,
    *,
    beta: float,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "macro",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> float | NDArray[np.float64]:
    """Arithmetic mean of the per-class F-beta scores.

    The "averaged F-beta" of the reference paper: F-beta is computed for each
    class, then averaged. This is what ``sklearn.metrics.fbeta_score`` computes,
    with the same result for every input it accepts, and here ``average``
    defaults to "macro".

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), {array-like, sparse matrix} of \
shape (n_samples, n_labels) or MacroF1Counts
        Ground truth: class labels (ints, strings, bools; a list, numpy array or
        pandas Series), or a 0/1 indicator matrix for multilabel targets. A value
        stored as 0 in a sparse indicator means "label not set", as in its dense
        form (scikit-learn counts stored zeros as predictions). Or a count
        record (:class:`MacroF1Counts`), with ``y_pred`` omitted: the result
        for the predictions it counted.
    y_pred : same kind as ``y_true``, default=None
        Predicted labels, as returned by a classifier; omitted with a record.
    beta : float
        Weight of recall against precision: 1 gives F1, 0 precision, inf recall.
    labels : array-like, default=None
        The labels to include (and their order for ``average=None``); labels absent
        from the data count as empty classes. Column indices for multilabel
        targets. Ignored for ``average="binary"``.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``.
    average : {"macro", "micro", "weighted", "samples", "binary"} or None, \
default="macro"
        How per-class (or per-sample) values are averaged, exactly as in
        ``sklearn.metrics.fbeta_score``; None returns per-class arrays.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights (not with a record: its weights were counted into it).
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of an ill-defined ratio (no predicted or no true samples); "warn"
        acts as 0 and raises ``UndefinedMetricWarning``; nan values are left out
        of the averages. numpy scalars mean their value (``np.int64(1)`` is 1;
        scikit-learn treats numpy scalars other than float64 as nan).

    Returns
    -------
    score : float, or ndarray of shape (n_labels,) when ``average=None``
        (with ``array_api_dispatch=True``, an array of ``y_pred``'s namespace
        and device)

    See Also
    --------
    fbeta_of_averages_score : the harmonic mean of averaged precision and recall.
    fbeta_summary : both scores, their gap and the per-class figures at once.

    Examples
    --------
    >>> from sklearn_macrof1 import averaged_fbeta_score
    >>> y_true = [0, 1, 2, 0, 1, 2]
    >>> y_pred = [0, 2, 1, 0, 0, 1]
    >>> round(averaged_fbeta_score(y_true, y_pred, beta=0.5), 4)
    0.2381
    """
    return score(
        y_true,
        y_pred,
        caller="averaged_fbeta_score",  # errors name the function the user called
        result="averaged_fbeta",
        warn_for=("f-score",),
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
    )


@overload
def averaged_f1_score(
    y_true: MacroF1Counts,
    y_pred: None = None,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str = "macro",
    zero_division: Any = "warn",
) -> float: ...


@overload
def averaged_f1_score(
    y_true: MacroF1Counts,
    y_pred: None = None,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: None,
    zero_division: Any = "warn",
) -> NDArray[np.float64]: ...


@overload
def averaged_f1_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str = "macro",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> float: ...


@overload
def averaged_f1_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: None,
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> NDArray[np.float64]: ...


def averaged_f1_score(
    y_true: Any,
    y_pred: Any = None,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "macro",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> float | NDArray[np.float64]:
    """Arithmetic mean of per-class F1 scores ("averaged F1").

    Equal to ``sklearn.metrics.f1_score`` for every input, with ``average``
    defaulting to "macro". The paper recommends this one: it does not reward a
    classifier for a skewed distribution of error types.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), {array-like, sparse matrix} of \
shape (n_samples, n_labels) or MacroF1Counts
        Ground truth: class labels (ints, strings, bools; a list, numpy array or
        pandas Series), or a 0/1 indicator matrix for multilabel targets. A value
        stored as 0 in a sparse indicator means "label not set", as in its dense
        form (scikit-learn counts stored zeros as predictions). Or a count
        record (:class:`MacroF1Counts`), with ``y_pred`` omitted: the result
        for the predictions it counted.
    y_pred : same kind as ``y_true``, default=None
        Predicted labels, as returned by a classifier; omitted with a record.
    labels : array-like, default=None
        The labels to include (and their order for ``average=None``); labels absent
        from the data count as empty classes. Column indices for multilabel
        targets. Ignored for ``average="binary"``.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``.
    average : {"macro", "micro", "weighted", "samples", "binary"} or None, \
default="macro"
        How per-class (or per-sample) values are averaged, exactly as in
        ``sklearn.metrics.fbeta_score``; None returns per-class arrays.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights (not with a record: its weights were counted into it).
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of an ill-defined ratio (no predicted or no true samples); "warn"
        acts as 0 and raises ``UndefinedMetricWarning``; nan values are left out
        of the averages. numpy scalars mean their value (``np.int64(1)`` is 1;
        scikit-learn treats numpy scalars other than float64 as nan).

    Returns
    -------
    score : float, or ndarray of shape (n_labels,) when ``average=None``
        (with ``array_api_dispatch=True``, an array of ``y_pred``'s namespace
        and device)

    Examples
    --------
    The paper's Table 1 (rows are predictions there; here as label arrays):

    >>> import numpy as np
    >>> from sklearn_macrof1 import averaged_f1_score
    >>> y_true = np.repeat([0, 1, 0, 1], [100, 10000, 0, 100])
    >>> y_pred = np.repeat([0, 0, 1, 1], [100, 10000, 0, 100])
    >>> round(averaged_f1_score(y_true, y_pred), 6)
    0.019608
    """
    return score(
        y_true,
        y_pred,
        caller="averaged_f1_score",  # errors name the function the user called
        result="averaged_fbeta",
        warn_for=("f-score",),
        beta=1.0,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
    )


@overload
def fbeta_of_averages_score(
    y_true: MacroF1Counts,
    y_pred: None = None,
    *,
    beta: float,
    labels: Any = None,
    pos_label: Any = 1,
    average: str = "macro",
    zero_division: Any = "warn",
) -> float: ...


@overload
def fbeta_of_averages_score(
    y_true: MacroF1Counts,
    y_pred: None = None,
    *,
    beta: float,
    labels: Any = None,
    pos_label: Any = 1,
    average: None,
    zero_division: Any = "warn",
) -> NDArray[np.float64]: ...


@overload
def fbeta_of_averages_score(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float,
    labels: Any = None,
    pos_label: Any = 1,
    average: str = "macro",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> float: ...


@overload
def fbeta_of_averages_score(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float,
    labels: Any = None,
    pos_label: Any = 1,
    average: None,
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> NDArray[np.float64]: ...


def fbeta_of_averages_score(
    y_true: Any,
    y_pred: Any = None,
    *,
    beta: float,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "macro",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> float | NDArray[np.float64]:
    """F-beta of averaged precision and recall.

    The "F-beta of averages" of the reference paper:
    ``(1 + beta**2) * P * R / (beta**2 * P + R)`` where ``P`` and ``R`` are what
    ``sklearn.metrics.precision_score`` and ``recall_score`` return for the same
    arguments. 0 when ``P = R = 0``; ``P`` for ``beta = 0``; ``R`` for
    ``beta = inf``; nan when ``P`` or ``R`` is nan. For macro, weighted and samples
    averaging it is never below :func:`averaged_fbeta_score`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), {array-like, sparse matrix} of \
shape (n_samples, n_labels) or MacroF1Counts
        Ground truth: class labels (ints, strings, bools; a list, numpy array or
        pandas Series), or a 0/1 indicator matrix for multilabel targets. A value
        stored as 0 in a sparse indicator means "label not set", as in its dense
        form (scikit-learn counts stored zeros as predictions). Or a count
        record (:class:`MacroF1Counts`), with ``y_pred`` omitted: the result
        for the predictions it counted.
    y_pred : same kind as ``y_true``, default=None
        Predicted labels, as returned by a classifier; omitted with a record.
    beta : float
        Weight of recall against precision: 1 gives F1, 0 precision, inf recall.
    labels : array-like, default=None
        The labels to include (and their order for ``average=None``); labels absent
        from the data count as empty classes. Column indices for multilabel
        targets. Ignored for ``average="binary"``.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``.
    average : {"macro", "micro", "weighted", "samples", "binary"} or None, \
default="macro"
        How per-class (or per-sample) values are averaged, exactly as in
        ``sklearn.metrics.fbeta_score``; None returns per-class arrays.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights (not with a record: its weights were counted into it).
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of an ill-defined ratio (no predicted or no true samples); "warn"
        acts as 0 and raises ``UndefinedMetricWarning``; nan values are left out
        of the averages. numpy scalars mean their value (``np.int64(1)`` is 1;
        scikit-learn treats numpy scalars other than float64 as nan).

    Returns
    -------
    score : float, or ndarray of shape (n_labels,) when ``average=None``
        (with ``array_api_dispatch=True``, an array of ``y_pred``'s namespace
        and device)

    Examples
    --------
    >>> from sklearn_macrof1 import averaged_fbeta_score, fbeta_of_averages_score
    >>> y_true = [0, 0, 1, 1, 2, 2]
    >>> y_pred = [0, 1, 1, 1, 2, 0]
    >>> round(fbeta_of_averages_score(y_true, y_pred, beta=0.5), 4)
    0.7104
    >>> round(averaged_fbeta_score(y_true, y_pred, beta=0.5), 4)
    0.6825
    """
    return score(
        y_true,
        y_pred,
        caller="fbeta_of_averages_score",  # errors name the function the user called
        result="fbeta_of_averages",
        warn_for=("precision", "recall"),
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
    )


@overload
def f1_of_averages_score(
    y_true: MacroF1Counts,
    y_pred: None = None,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str = "macro",
    zero_division: Any = "warn",
) -> float: ...


@overload
def f1_of_averages_score(
    y_true: MacroF1Counts,
    y_pred: None = None,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: None,
    zero_division: Any = "warn",
) -> NDArray[np.float64]: ...


@overload
def f1_of_averages_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str = "macro",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> float: ...


@overload
def f1_of_averages_score(
    y_true: Any,
    y_pred: Any,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: None,
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> NDArray[np.float64]: ...


def f1_of_averages_score(
    y_true: Any,
    y_pred: Any = None,
    *,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "macro",
    sample_weight: Any = None,
    zero_division: Any = "warn",
) -> float | NDArray[np.float64]:
    """F1 of averaged precision and recall.

    ``2 * P * R / (P + R)`` with ``P`` and ``R`` the averaged precision and
    recall (``sklearn.metrics.precision_score`` / ``recall_score``). The paper
    shows it can exceed the averaged F1 by up to 0.5 for a classifier with
    skewed error types.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), {array-like, sparse matrix} of \
shape (n_samples, n_labels) or MacroF1Counts
        Ground truth: class labels (ints, strings, bools; a list, numpy array or
        pandas Series), or a 0/1 indicator matrix for multilabel targets. A value
        stored as 0 in a sparse indicator means "label not set", as in its dense
        form (scikit-learn counts stored zeros as predictions). Or a count
        record (:class:`MacroF1Counts`), with ``y_pred`` omitted: the result
        for the predictions it counted.
    y_pred : same kind as ``y_true``, default=None
        Predicted labels, as returned by a classifier; omitted with a record.
    labels : array-like, default=None
        The labels to include (and their order for ``average=None``); labels absent
        from the data count as empty classes. Column indices for multilabel
        targets. Ignored for ``average="binary"``.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``.
    average : {"macro", "micro", "weighted", "samples", "binary"} or None, \
default="macro"
        How per-class (or per-sample) values are averaged, exactly as in
        ``sklearn.metrics.fbeta_score``; None returns per-class arrays.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights (not with a record: its weights were counted into it).
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of an ill-defined ratio (no predicted or no true samples); "warn"
        acts as 0 and raises ``UndefinedMetricWarning``; nan values are left out
        of the averages. numpy scalars mean their value (``np.int64(1)`` is 1;
        scikit-learn treats numpy scalars other than float64 as nan).

    Returns
    -------
    score : float, or ndarray of shape (n_labels,) when ``average=None``
        (with ``array_api_dispatch=True``, an array of ``y_pred``'s namespace
        and device)

    Examples
    --------
    The paper's Table 1:

    >>> import numpy as np
    >>> from sklearn_macrof1 import f1_of_averages_score
    >>> y_true = np.repeat([0, 1, 0, 1], [100, 10000, 0, 100])
    >>> y_pred = np.repeat([0, 0, 1, 1], [100, 10000, 0, 100])
    >>> round(f1_of_averages_score(y_true, y_pred), 6)
    0.50495
    """
    return score(
        y_true,
        y_pred,
        caller="f1_of_averages_score",  # errors name the function the user called
        result="fbeta_of_averages",
        warn_for=("precision", "recall"),
        beta=1.0,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
    )


@overload
def fbeta_summary(
    y_true: MacroF1Counts,
    y_pred: None = None,
    *,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "macro",
    zero_division: Any = "warn",
    moments: bool = False,
) -> FBetaSummary: ...


@overload
def fbeta_summary(
    y_true: Any,
    y_pred: Any,
    *,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "macro",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    moments: bool = False,
) -> FBetaSummary: ...


def fbeta_summary(
    y_true: Any,
    y_pred: Any = None,
    *,
    beta: float = 1.0,
    labels: Any = None,
    pos_label: Any = 1,
    average: str | None = "macro",
    sample_weight: Any = None,
    zero_division: Any = "warn",
    moments: bool = False,
) -> FBetaSummary:
    """Both F-beta scores, their gap and per-class figures.

    One validation and one counting pass give the averaged F-beta, the F-beta of
    averages, their gap, the averaged precision and recall, and per-class
    precision, recall, F-beta and support (with their labels), plus the confusion
    matrix for 1-D targets.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,), {array-like, sparse matrix} of \
shape (n_samples, n_labels) or MacroF1Counts
        Ground truth: class labels (ints, strings, bools; a list, numpy array or
        pandas Series), or a 0/1 indicator matrix for multilabel targets. A value
        stored as 0 in a sparse indicator means "label not set", as in its dense
        form (scikit-learn counts stored zeros as predictions). Or a count
        record (:class:`MacroF1Counts`), with ``y_pred`` omitted: the result
        for the predictions it counted.
    y_pred : same kind as ``y_true``, default=None
        Predicted labels, as returned by a classifier; omitted with a record.
    beta : float, default=1.0
        Weight of recall against precision: 1 gives F1, 0 precision, inf recall.
    labels : array-like, default=None
        The labels to include (and their order for ``average=None``); labels absent
        from the data count as empty classes. Column indices for multilabel
        targets. Ignored for ``average="binary"``.
    pos_label : int, float, bool or str, default=1
        The class to report when ``average="binary"``.
    average : {"macro", "micro", "weighted", "samples", "binary"} or None, \
default="macro"
        How per-class (or per-sample) values are averaged, exactly as in
        ``sklearn.metrics.fbeta_score``; None returns per-class arrays.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights (not with a record: its weights were counted into it).
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of an ill-defined ratio (no predicted or no true samples); "warn"
        acts as 0 and raises ``UndefinedMetricWarning``; nan values are left out
        of the averages. numpy scalars mean their value (``np.int64(1)`` is 1;
        scikit-learn treats numpy scalars other than float64 as nan).
    moments : bool, default=False
        Also count the second moments that the delta-method interval of
        :meth:`FBetaSummary.confidence_interval` needs with ``sample_weight``
        or multilabel targets (unweighted 1-D targets need none: their
        confusion matrix suffices). Counting them about doubles the time of
        the weighted count; not with a record (its moments were counted into it:
        ``MacroF1Counts.from_predictions(..., moments=True)``).

    Returns
    -------
    summary : FBetaSummary

    Examples
    --------
    >>> from sklearn_macrof1 import fbeta_summary
    >>> s = fbeta_summary([0, 0, 1, 1, 2, 2], [0, 1, 1, 1, 2, 0])
    >>> round(s.averaged_fbeta, 4), round(s.fbeta_of_averages, 4), round(s.gap, 4)
    (0.6556, 0.6933, 0.0378)
    >>> s.labels
    array([0, 1, 2])
    """
    return summary_of(caller="fbeta_summary", **locals())


def summary_of(
    y_true: Any,
    y_pred: Any,
    *,
    caller: str,
    beta: float,
    labels: Any,
    pos_label: Any,
    average: str | None,
    sample_weight: Any,
    zero_division: Any,
    moments: bool = False,
) -> FBetaSummary:
    """The body of :func:`fbeta_summary`; ``caller`` names the public function
    the user called in every error and warning."""
    labels = check_form(y_true, y_pred, sample_weight, labels, caller=caller)
    check_moments(y_true, moments, caller=caller)
    options = check_options(
        caller=caller,
        average=average,
        beta=beta,
        zero_division=zero_division,
        labels=labels,
        pos_label=pos_label,
    )
    reading = read_for(
        y_true,
        y_pred,
        options,
        sample_weight=sample_weight,
        caller=caller,
        moments=moments,
        cells=True,  # the summary's confusion matrix
        targets_kept=False,  # the summary keeps the record, not the targets
    )
    return build_summary(reading.counts, options, caller=caller, warn_for=ALL_METRICS)


def check_moments(y_true: Any, moments: Any, *, caller: str) -> None:
    """``moments`` of :func:`fbeta_summary`: a bool, and not with a record."""
    check_counting_options(None, moments, caller=caller)
    if moments and isinstance(y_true, MacroF1Counts):
        raise TypeError(
            f"{caller} takes no moments=True with a MacroF1Counts: its second "
            "moments are counted with it (MacroF1Counts.from_predictions(y_true, "
            "y_pred, moments=True))."
        )
