"""``FBetaSummary``: everything one counting pass tells about the two scores."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import scipy.sparse as sp

from .._averages import HAS_BOUND, has_closed_form
from .._counting._record import MacroF1Counts
from .._equality import ValueEquality
from .._formulas._aggregation import ALL_METRICS, Averages, Ratios, ratios
from .._formulas._evaluation import Options, Selection, evaluate
from .._formulas._paper import gap_bound, gap_closed_form
from .._present._summary import summary_frame, summary_view
from .._present._table import Table, short
from .._present._views import TableViews
from .._stats._intervals import summary_confidence_interval
from ._gap_attribution import GapAttribution, attribution_from_summary


def _plain(value: Any) -> Any:
    if sp.issparse(value):  # the occupied cells of a large confusion matrix
        cells = value.tocoo()
        return {
            "shape": list(cells.shape),
            "row": cells.row.tolist(),
            "col": cells.col.tolist(),
            "data": cells.data.tolist(),
        }
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


@dataclass(frozen=True, eq=False)
class FBetaSummary(ValueEquality, TableViews):
    """Both F-beta scores, their gap and the per-class figures behind them.

    Returned by :func:`fbeta_summary` (of predictions or of a count record,
    :class:`MacroF1Counts`); every value comes from one counting pass.

    Attributes
    ----------
    average : str or None
        The averaging mode (scikit-learn's meaning).
    beta : float
        The weight of recall against precision (1 for F1).
    averaged_fbeta : float or ndarray
        Arithmetic mean of the per-class F-beta (``sklearn.metrics.fbeta_score``).
    fbeta_of_averages : float or ndarray
        F-beta (harmonic mean) of ``precision`` and ``recall``.
    gap : float or ndarray
        ``fbeta_of_averages - averaged_fbeta``; >= 0 for macro, weighted and samples
        averaging (with ``zero_division`` 0, 1 or "warn").
    precision, recall : float or ndarray
        The averaged precision and recall (``precision_score``, ``recall_score``).
    labels : ndarray
        The classes averaged over, in order (column indices for multilabel).
    class_precision, class_recall, class_fbeta : ndarray
        Per-class precision, recall and F-beta of ``labels``.
    support : ndarray
        Per-class (weighted) number of true samples of ``labels``.
    true_positives, predicted : ndarray
        Per-class (weighted) true positives and predicted counts of ``labels``.
    confusion_matrix : ndarray, scipy.sparse.csr_array or None
        Rows are true labels, columns predictions, over ``classes``. Dense up
        to 2,048 classes; above, its occupied cells as a sparse array (at most
        one per sample: a dense one of 100,000 classes would take 75 GiB),
        counted when the summary is made from the samples, and kept by the
        count records of streams, Dask, Spark and device arrays. None for
        multilabel targets, and for a summary of a count record that kept no
        matrix (``MacroF1Counts.from_totals``).
        ``to_dict`` gives the sparse one as ``{"shape", "row", "col",
        "data"}``.
    classes : ndarray
        Every label present in the data (sorted), the axes of ``confusion_matrix``.
    target_type : str
        "binary", "multiclass" or "multilabel-indicator".
    zero_division : "warn", 0.0, 1.0 or nan
        How ill-defined ratios were filled.

    Notes
    -----
    Two summaries are equal when every attribute is (arrays by value, nan equal
    to nan); equal summaries hash equally. In a notebook a summary shows as
    tables (both scores side by side, then the classes); :meth:`to_frame` gives
    the same rows as a ``pandas.DataFrame``.

    Examples
    --------
    >>> from sklearn_macrof1 import fbeta_summary
    >>> s = fbeta_summary(["a", "a", "b", "c"], ["a", "b", "b", "c"])
    >>> s
    FBetaSummary(average='macro', beta=1, n_classes=3, averaged_fbeta=0.7778, \
fbeta_of_averages=0.8333, gap=0.05556)
    >>> s.labels
    array(['a', 'b', 'c'], dtype='<U1')
    >>> s.class_precision, s.class_recall
    (array([1. , 0.5, 1. ]), array([0.5, 1. , 1. ]))
    >>> round(s.gap, 4), s.gap_bound
    (0.0556, 0.4444444444444444)
    >>> round(s.to_dict()["averaged_fbeta"], 4)
    0.7778
    """

    average: str | None
    beta: float
    averaged_fbeta: Any
    fbeta_of_averages: Any
    gap: Any
    precision: Any
    recall: Any
    labels: np.ndarray
    class_precision: np.ndarray
    class_recall: np.ndarray
    class_fbeta: np.ndarray
    support: np.ndarray
    true_positives: np.ndarray
    predicted: np.ndarray
    confusion_matrix: np.ndarray | sp.csr_array | None
    classes: np.ndarray
    target_type: str
    zero_division: Any = field(default="warn")
    # the count record and the options the summary was made from: what its
    # intervals read (the same as fbeta_confidence_interval's of the data)
    _counts: MacroF1Counts | None = field(default=None, repr=False, compare=False)
    _options: Options | None = field(default=None, repr=False, compare=False)

    @property
    def n_classes(self) -> int:
        """Number of classes averaged over."""
        return int(self.labels.shape[0])

    @property
    def gap_bound(self) -> float:
        """Theorem 3's supremum of the macro F1 gap for ``n_classes`` classes."""
        return gap_bound(max(self.n_classes, 1))

    @property
    def gap_closed_form(self) -> float | None:
        """The Lemma's closed form of the gap (macro, beta = 1), else None.

        Equal to ``gap`` up to rounding; None where the Lemma does not apply
        (another average or beta, or ``zero_division=nan`` leaving classes out).
        """
        if not has_closed_form(self.average, self.beta):
            return None
        p, r = self.class_precision, self.class_recall
        if p.size == 0 or np.isnan(p).any() or np.isnan(r).any():
            return None
        return gap_closed_form(p, r)

    def gap_attribution(self) -> GapAttribution:
        """The gap split over class pairs and classes (the paper's Lemma).

        For ``average="macro"`` or ``"weighted"`` and any beta: a k x k table
        of non-negative class-pair terms that sums to ``gap``, per-class shares
        (half of each pair's term to each class) and the largest contributors.
        See :class:`GapAttribution` for the formula.

        Raises
        ------
        ValueError
            For another ``average``, or when ``zero_division=np.nan`` left
            undefined per-class values (the gap is then no sum over pairs).

        Examples
        --------
        The reference paper's Table 1 (rows are predictions): one pair, the
        whole gap.

        >>> from sklearn_macrof1 import MacroF1Counts, fbeta_summary
        >>> counts = MacroF1Counts.from_confusion_matrix(
        ...     [[100, 10000], [0, 100]], rows="predicted", labels=["a", "b"])
        >>> print(fbeta_summary(counts).gap_attribution())
        gap attribution (average='macro', beta=1): gap 0.485343
        class   precision  recall  weight  contribution  share
        <BLANKLINE>
            a      0.0099  1.0000  0.5000        0.2427    50%
            b      1.0000  0.0099  0.5000        0.2427    50%
        <BLANKLINE>
        contribution: half of each of the class's pair terms (they sum to the gap).
        <BLANKLINE>
        largest class pairs
         pair   contribution  share
        <BLANKLINE>
        a & b         0.4853   100%
        """
        return attribution_from_summary(self)

    def confidence_interval(
        self,
        *,
        confidence: float = 0.95,
        method: str = "auto",
        n_resamples: int = 1000,
        random_state: Any = None,
        verbose: int = 0,
    ) -> Any:
        """Confidence intervals of both scores from this summary's count record.

        The same interval as :func:`fbeta_confidence_interval` on the data the
        summary was made of (same ``confidence``, ``method``, ``n_resamples``,
        ``random_state`` and ``verbose``), computed from the record the
        summary keeps, whenever that record holds what the interval needs: the
        confusion matrix of unweighted 1-D targets (every method), and for the
        delta method with ``sample_weight`` or multilabel targets the second
        moments, counted when asked, ``fbeta_summary(..., moments=True)``.
        Otherwise ``ValueError`` names how to get it: the bootstrap with
        ``sample_weight`` or of multilabel targets (except for
        ``average="samples"``) redraws every sample, which only
        :func:`fbeta_confidence_interval` with the samples does.

        Examples
        --------
        >>> from sklearn_macrof1 import fbeta_summary
        >>> s = fbeta_summary([0, 0, 1, 1, 2, 2] * 50, [0, 1, 1, 1, 2, 0] * 50)
        >>> ci = s.confidence_interval(confidence=0.9)
        >>> ci.averaged_fbeta.low < s.averaged_fbeta < ci.averaged_fbeta.high
        True

        With sample weights, the delta method needs the second moments:

        >>> w = [1, 2, 1, 3, 1, 2] * 50
        >>> s = fbeta_summary([0, 0, 1, 1, 2, 2] * 50, [0, 1, 1, 1, 2, 0] * 50,
        ...                   sample_weight=w, moments=True)
        >>> round(s.confidence_interval().averaged_fbeta.width, 3)
        0.106
        """
        return summary_confidence_interval(
            self,
            self._counts,
            self._options,
            confidence=confidence,
            method=method,
            n_resamples=n_resamples,
            random_state=random_state,
            verbose=verbose,
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain-Python dictionary (JSON-serialisable) of every value."""
        out = {
            name: _plain(getattr(self, name))
            for name in self.__dataclass_fields__
            if not name.startswith("_")
        }
        out["n_classes"] = self.n_classes
        # None where the paper's bound does not apply, as the views leave it out
        out["gap_bound"] = self.gap_bound if self.average in HAS_BOUND else None
        out["gap_closed_form"] = self.gap_closed_form
        return out

    def to_frame(
        self,
        *,
        confidence: float | None = None,
        method: str = "auto",
        n_resamples: int = 1000,
        random_state: Any = None,
    ) -> Any:
        """The summary as a ``pandas.DataFrame``: one row per class, then the average.

        Columns ``precision``, ``recall``, ``f1-score`` and ``support`` (as in
        :func:`classification_report`; ``f2-score`` ... for another beta); the
        average's row (``"macro avg"`` ...) adds ``f1-of-averages``, ``gap`` and,
        for macro, ``gap-bound``. With ``average=None`` every class row has its
        ``f1-of-averages``. Needs pandas.

        Parameters
        ----------
        confidence : float in (0, 1), default=None
            When given, the average's row gets the interval columns
            ``f1-score-ci-low``, ``f1-score-ci-high``, ``f1-of-averages-ci-low``
            and ``f1-of-averages-ci-high`` of :meth:`confidence_interval`.
        method, n_resamples, random_state
            As in :meth:`confidence_interval`.

        Returns
        -------
        frame : pandas.DataFrame

        Examples
        --------
        >>> from sklearn_macrof1 import fbeta_summary
        >>> s = fbeta_summary(["a", "a", "b", "c"], ["a", "b", "b", "c"])
        >>> df = s.to_frame()
        >>> df["f1-score"].round(4)
        a            0.6667
        b            0.6667
        c            1.0000
        macro avg    0.7778
        Name: f1-score, dtype: float64
        >>> df.loc["macro avg", ["f1-of-averages", "gap", "gap-bound"]].round(4)
        f1-of-averages    0.8333
        gap               0.0556
        gap-bound         0.4444
        Name: macro avg, dtype: float64
        """
        interval = None
        if confidence is not None:
            interval = self.confidence_interval(
                confidence=confidence,
                method=method,
                n_resamples=n_resamples,
                random_state=random_state,
            )
        return summary_frame(self, interval, caller="FBetaSummary.to_frame")

    def __repr__(self) -> str:
        return (
            f"FBetaSummary(average={self.average!r}, beta={self.beta:g}, "
            f"n_classes={self.n_classes}, averaged_fbeta={short(self.averaged_fbeta)}, "
            f"fbeta_of_averages={short(self.fbeta_of_averages)}, "
            f"gap={short(self.gap)})"
        )

    def _view(self) -> tuple[list[Table], list[str]]:
        return summary_view(self), []


def build_summary(
    counts: MacroF1Counts,
    options: Options,
    *,
    caller: str,
    warn_for: tuple[str, ...] = ALL_METRICS,
) -> FBetaSummary:
    """Assemble a summary from counts (the aggregation does the arithmetic)."""
    selection: Selection
    averages: Averages
    selection, averages = evaluate(counts, options, warn_for=warn_for, caller=caller)
    if options.average in (None, "binary", "macro", "weighted"):
        per_class = averages.per_class
    else:  # micro pools and samples goes per sample: per-class figures apart
        per_class = ratios(
            selection.tp,
            selection.true,
            selection.pred,
            beta=options.beta,
            zero_division=options.zero_division,
        )
    return _assemble(counts, options, options.average, selection, averages, per_class)


def build_summaries(
    counts: MacroF1Counts,
    options: Options,
    selection: Selection,
    per_class: Ratios,
    results: dict[str | None, Averages],
) -> dict[str | None, FBetaSummary]:
    """One summary per average of ``results`` over the same labels (a report's
    rows), from one evaluation of them all
    (:func:`~sklearn_macrof1._formulas._evaluation.evaluate_averages`)."""
    return {
        average: _assemble(counts, options, average, selection, averaged, per_class)
        for average, averaged in results.items()
    }


def _assemble(
    counts: MacroF1Counts,
    options: Options,
    average: str | None,
    selection: Selection,
    averages: Averages,
    per_class: Ratios,
) -> FBetaSummary:
    gap = np.subtract(averages.fbeta_of_averages, averages.averaged_fbeta)
    return FBetaSummary(
        average=average,
        beta=options.beta,
        averaged_fbeta=averages.averaged_fbeta,
        fbeta_of_averages=averages.fbeta_of_averages,
        gap=float(gap) if np.ndim(gap) == 0 else gap,
        precision=averages.precision,
        recall=averages.recall,
        labels=selection.labels,
        class_precision=per_class.precision,
        class_recall=per_class.recall,
        class_fbeta=per_class.fbeta,
        support=selection.true,
        true_positives=selection.tp,
        predicted=selection.pred,
        confusion_matrix=counts.confusion,
        classes=counts.classes,
        target_type=counts.kind,
        zero_division=options.zero_division,
        _counts=counts,
        _options=replace(options, average=average),
    )
