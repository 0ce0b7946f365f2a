"""``MacroF1Display``: the two macro F-betas drawn in the recall-precision plane.

Every score shown comes from :class:`FBetaSummary` (one counting pass, the
aggregation module). The only arithmetic here is the geometry of the curves
drawn: the recall-precision points of constant F-beta, which
:func:`~sklearn_macrof1._formulas._aggregation.harmonic_fbeta` maps back to their level.

matplotlib is an optional dependency (``pip install matplotlib``, or the ``[plot]``
extra from the repository root: ``pip install ".[plot]"``); it is
imported inside the methods that draw, never when the package is imported.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from .._averages import CLASS_MEANS
from .._counting._record import MacroF1Counts
from .._extras import import_optional
from .._formulas._attribution import class_weights, gap_class_terms, top_gap_pairs
from .._present._table import fbeta_name
from .._results._scores import summary_of
from .._results._summary import FBetaSummary


def check_matplotlib(caller: str) -> None:
    """Raise an ImportError saying how to install matplotlib when it is missing."""
    import_optional("matplotlib", f"{caller} draws with matplotlib")


#: Gaps below this (in score units) are written with two significant digits
#: and marked too short to see: the segment between the curves would be
#: hidden under the mean point's star.
SMALLEST_DRAWN_GAP = 0.002

#: Most class points a display draws by default (``max_classes`` of ``plot``).
MAX_DRAWN_CLASSES = 1000


def _check_average(average: Any, caller: str) -> str:
    if average not in CLASS_MEANS:
        raise ValueError(
            f"{caller} draws one point per class and their (weighted) mean, so "
            f"average must be one of {list(CLASS_MEANS)}; got {average!r}. "
            "For 'micro' the two scores coincide; for 'samples' use fbeta_summary."
        )
    return average


def precision_on_iso_curve(level: float, recall: Any, beta: float) -> np.ndarray:
    """Precision at which F-beta equals ``level`` for the given recall (drawing).

    The inverse of the harmonic mean in its first argument; nan where no
    precision in [0, 1] reaches ``level`` (recall too low). ``beta`` = 0 gives
    the horizontal line P = level, ``beta`` = inf has no solution (F = R).
    """
    r = np.asarray(recall, dtype=np.float64)
    if level <= 0:  # F = 0 wherever precision is 0
        return np.zeros_like(r)
    if beta == 0:
        return np.full_like(r, level)
    if math.isinf(beta):
        return np.full_like(r, np.nan)
    b2 = beta * beta
    denominator = (1.0 + b2) * r - b2 * level
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(denominator > 0, level * r / denominator, np.nan)
    return np.where((p >= 0) & (p <= 1 + 1e-12), np.minimum(p, 1.0), np.nan)


def iso_fbeta_curve(
    level: float, beta: float, n_points: int = 300
) -> tuple[np.ndarray, np.ndarray]:
    """(recall, precision) points of constant F-beta ``level`` inside [0, 1]².

    Denser where the curve turns steeply (near precision 1), so it draws smooth.
    """
    if level <= 0:  # F = 0 on the two axes
        return np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.0, 1.0])
    if beta == 0:
        return np.array([0.0, 1.0]), np.array([level, level])
    if math.isinf(beta):
        return np.array([level, level]), np.array([0.0, 1.0])
    b2 = beta * beta
    lowest = b2 * level / (1.0 + b2 - level)  # recall where precision reaches 1
    t = np.linspace(0.0, 1.0, n_points)
    recall = lowest + (1.0 - lowest) * t**2
    precision = precision_on_iso_curve(level, recall, beta)
    precision[0] = 1.0  # exact end point, free of rounding
    keep = ~np.isnan(precision)
    return recall[keep], precision[keep]


class MacroF1Display:
    """The two macro F-betas, and why they differ, in the recall-precision plane.

    Each class is a point (recall R_i, precision P_i); its F-beta is the level of
    the iso-F-beta curve through it. The **averaged F-beta** (scikit-learn's
    ``f1_score``) is the (weighted) mean of those per-class levels. The **F-beta
    of averages** first averages the points into one (mean recall, mean
    precision) and takes the level of the curve through it. Iso-curves bend
    towards the corner (1, 1), so when some classes have P > R and others P < R,
    the mean point lies on a higher curve than the mean of the levels: the gap.

    It is recommended to create the display with :meth:`from_predictions`,
    :meth:`from_estimator` or :meth:`from_summary`, which draw it and return it
    drawn; :meth:`plot` draws it again (on other axes, with other options). All
    parameters are stored as attributes. Needs matplotlib
    (``pip install matplotlib``, or from the repository root
    ``pip install ".[plot]"``).

    Parameters
    ----------
    class_precision, class_recall, class_fbeta : ndarray of shape (n_classes,)
        Per-class precision, recall and F-beta.
    precision, recall : float
        The (macro or support-weighted) averaged precision and recall.
    averaged_fbeta : float
        The (weighted) mean of ``class_fbeta``.
    fbeta_of_averages : float
        F-beta of ``precision`` and ``recall``.
    gap : float
        ``fbeta_of_averages - averaged_fbeta``.
    beta : float, default=1.0
        Weight of recall against precision.
    average : {"macro", "weighted"}, default="macro"
        How the classes were averaged (sizes the points by support for
        "weighted").
    support : ndarray of shape (n_classes,), default=None
        Per-class (weighted) number of true samples.
    display_labels : array-like of shape (n_classes,), default=None
        Names of the classes; ``0 .. n_classes - 1`` when None.
    summary : FBetaSummary, default=None
        The summary the values come from, when known.

    Attributes
    ----------
    ax_ : matplotlib Axes
        Axes with the plot.
    figure_ : matplotlib Figure
        Figure containing the plot.
    points_ : matplotlib PathCollection
        The per-class points (x = recall, y = precision).
    mean_point_ : matplotlib Line2D
        The point (``recall``, ``precision``).
    curve_of_averages_ : matplotlib Line2D
        Iso-F-beta curve through the mean point, at level ``fbeta_of_averages``.
    curve_averaged_ : matplotlib Line2D
        Iso-F-beta curve at level ``averaged_fbeta``.
    gap_line_ : matplotlib Line2D or None
        Vertical segment at the mean recall between the two curves.
    iso_lines_ : list of matplotlib Line2D
        Background iso-F-beta curves (``iso_levels`` of :meth:`plot`).
    diagonal_ : matplotlib Line2D
        The line P = R, where a class has no error-type skew.
    n_left_out_ : int
        Classes not drawn (``max_classes`` of :meth:`plot`; 0 when every
        class is drawn).
    annotations_ : list of matplotlib Text
        Per-class labels with their F-beta (empty when not annotated).
    text_ : matplotlib Text or None
        The explanation of the gap (None when ``explain=False``).

    See Also
    --------
    fbeta_summary : The numbers behind the display.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_macrof1 import MacroF1Display
    >>> y_true = [0, 0, 0, 0, 1, 1, 2, 2, 2, 2]
    >>> y_pred = [0, 0, 0, 0, 0, 0, 2, 1, 1, 1]
    >>> disp = MacroF1Display.from_predictions(y_true, y_pred)
    >>> round(disp.fbeta_of_averages, 4), round(disp.averaged_fbeta, 4)
    (0.4762, 0.4)
    >>> disp.curve_of_averages_.get_label()
    'F1 of averages = 0.476 (iso-F1 through ★)'
    """

    def __init__(
        self,
        *,
        class_precision: Any,
        class_recall: Any,
        class_fbeta: Any,
        precision: float,
        recall: float,
        averaged_fbeta: float,
        fbeta_of_averages: float,
        gap: float,
        beta: float = 1.0,
        average: str = "macro",
        support: Any = None,
        display_labels: Any = None,
        summary: FBetaSummary | None = None,
    ) -> None:
        self.class_precision = np.asarray(class_precision, dtype=np.float64)
        self.class_recall = np.asarray(class_recall, dtype=np.float64)
        self.class_fbeta = np.asarray(class_fbeta, dtype=np.float64)
        self.precision = precision
        self.recall = recall
        self.averaged_fbeta = averaged_fbeta
        self.fbeta_of_averages = fbeta_of_averages
        self.gap = gap
        self.beta = beta
        self.average = average
        self.support = None if support is None else np.asarray(support)
        self.display_labels = display_labels
        self.summary = summary

    # ------------------------------------------------------------------ builders
    @classmethod
    def from_summary(
        cls,
        summary: FBetaSummary,
        *,
        display_labels: Any = None,
        ax: Any = None,
        iso_levels: Any = (0.2, 0.4, 0.6, 0.8),
        annotate: bool | None = None,
        explain: bool | None = None,
        compact: bool | None = None,
        scatter_kwargs: dict | None = None,
        mean_kwargs: dict | None = None,
        gap_pairs: int = 0,
        max_classes: int | None = MAX_DRAWN_CLASSES,
    ) -> MacroF1Display:
        """Plot the display of an :class:`FBetaSummary` (macro or weighted).

        Parameters
        ----------
        summary : FBetaSummary
            From :func:`fbeta_summary`, with ``average`` "macro" or
            "weighted".
        display_labels : array-like of shape (n_classes,), default=None
            Names of the classes; ``summary.labels`` when None.
        ax, iso_levels, annotate, explain, scatter_kwargs, mean_kwargs, compact, \
gap_pairs, max_classes
            See :meth:`plot`.

        Returns
        -------
        display : MacroF1Display
            Drawn (on ``ax``, or in a new figure): there is no need to call
            :meth:`plot`, which draws it again.
        """
        caller = f"{cls.__name__}.from_summary"
        check_matplotlib(caller)
        if not isinstance(summary, FBetaSummary):
            raise TypeError(
                f"{caller} needs an FBetaSummary (from fbeta_summary); got "
                f"{type(summary).__name__}."
            )
        average = _check_average(summary.average, caller)
        labels = summary.labels if display_labels is None else display_labels
        if len(labels) != summary.n_classes:
            raise ValueError(
                f"display_labels must name the {summary.n_classes} classes; got "
                f"{len(labels)} names."
            )
        display = cls(
            class_precision=summary.class_precision,
            class_recall=summary.class_recall,
            class_fbeta=summary.class_fbeta,
            precision=summary.precision,
            recall=summary.recall,
            averaged_fbeta=summary.averaged_fbeta,
            fbeta_of_averages=summary.fbeta_of_averages,
            gap=summary.gap,
            beta=summary.beta,
            average=average,
            support=summary.support,
            display_labels=labels,
            summary=summary,
        )
        return display.plot(
            ax=ax,
            iso_levels=iso_levels,
            annotate=annotate,
            explain=explain,
            compact=compact,
            scatter_kwargs=scatter_kwargs,
            mean_kwargs=mean_kwargs,
            gap_pairs=gap_pairs,
            max_classes=max_classes,
        )

    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_pred: Any,
        *,
        beta: float = 1.0,
        labels: Any = None,
        average: str = "macro",
        sample_weight: Any = None,
        zero_division: Any = "warn",
        display_labels: Any = None,
        ax: Any = None,
        iso_levels: Any = (0.2, 0.4, 0.6, 0.8),
        annotate: bool | None = None,
        explain: bool | None = None,
        compact: bool | None = None,
        scatter_kwargs: dict | None = None,
        mean_kwargs: dict | None = None,
        gap_pairs: int = 0,
        max_classes: int | None = MAX_DRAWN_CLASSES,
    ) -> MacroF1Display:
        """Plot both macro F-betas of predictions.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
            True labels, or a 0/1 indicator matrix for multilabel targets.
        y_pred : same kind as ``y_true``
            Predicted labels.
        beta : float, default=1.0
            Weight of recall against precision.
        labels : array-like, default=None
            The classes to show and average over (column indices for multilabel
            targets); every class present when None.
        average : {"macro", "weighted"}, default="macro"
            Unweighted mean over classes, or weighted by support (points are then
            sized by support).
        sample_weight : array-like of shape (n_samples,), default=None
            Sample weights.
        zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
            Value of ill-defined ratios, as in :func:`fbeta_summary`. Classes
            whose precision or recall is nan are not drawn.
        display_labels : array-like of shape (n_classes,), default=None
            Names of the classes; the labels themselves when None.
        ax : matplotlib Axes, default=None
            Axes to draw on; a new figure when None.
        iso_levels : sequence of float, default=(0.2, 0.4, 0.6, 0.8)
            Levels of the grey background iso-F-beta curves.
        annotate : bool, default=None
            Write each class's label beside its point; see :meth:`plot`.
        explain : bool, default=None
            Add a short text explaining why the two scores differ (full layout;
            the default there); see :meth:`plot`.
        scatter_kwargs : dict, default=None
            Passed to ``ax.scatter`` for the class points.
        mean_kwargs : dict, default=None
            Passed to ``ax.plot`` for the mean point.
        compact : bool, default=None
            The layout for a panel of a figure grid (everything inside the
            axes); by default when ``ax`` is given. See :meth:`plot`.
        gap_pairs : int, default=0
            Join the points of the ``gap_pairs`` class pairs with the largest
            share of the gap; see :meth:`plot`.
        max_classes : int or None, default=1000
            Draw at most this many class points (those with the largest share
            of the gap); the legend says how many were left out. See
            :meth:`plot`.

        Returns
        -------
        display : MacroF1Display
            Drawn (on ``ax``, or in a new figure): there is no need to call
            :meth:`plot`, which draws it again (in a notebook, a second
            figure); call it to draw the display elsewhere or with other
            options.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_macrof1 import MacroF1Display
        >>> disp = MacroF1Display.from_predictions(
        ...     ["a", "a", "b", "b", "b"], ["a", "b", "b", "b", "b"])
        >>> round(disp.gap, 4)
        0.0458
        """
        caller = f"{cls.__name__}.from_predictions"
        check_matplotlib(caller)
        _check_average(average, caller)
        summary = summary_of(
            y_true,
            y_pred,
            caller=caller,
            beta=beta,
            labels=labels,
            pos_label=1,
            average=average,
            sample_weight=sample_weight,
            zero_division=zero_division,
        )
        return cls.from_summary(
            summary,
            display_labels=display_labels,
            ax=ax,
            iso_levels=iso_levels,
            annotate=annotate,
            explain=explain,
            compact=compact,
            scatter_kwargs=scatter_kwargs,
            mean_kwargs=mean_kwargs,
            gap_pairs=gap_pairs,
            max_classes=max_classes,
        )

    @classmethod
    def from_counts(
        cls,
        counts: MacroF1Counts,
        *,
        beta: float = 1.0,
        labels: Any = None,
        average: str = "macro",
        zero_division: Any = "warn",
        display_labels: Any = None,
        ax: Any = None,
        iso_levels: Any = (0.2, 0.4, 0.6, 0.8),
        annotate: bool | None = None,
        explain: bool | None = None,
        compact: bool | None = None,
        scatter_kwargs: dict | None = None,
        mean_kwargs: dict | None = None,
        gap_pairs: int = 0,
        max_classes: int | None = MAX_DRAWN_CLASSES,
    ) -> MacroF1Display:
        """Plot both macro F-betas of a count record.

        The display :meth:`from_predictions` draws for the predictions the
        record counted (a confusion matrix's record, an accumulator's
        ``counts``, Dask or Spark counts).

        Parameters
        ----------
        counts : MacroF1Counts
            From :meth:`MacroF1Counts.from_predictions`,
            :meth:`MacroF1Counts.from_confusion_matrix` or
            ``MacroF1Accumulator.counts``.
        beta, labels, average, zero_division, display_labels, ax, iso_levels, \
annotate, explain, compact, scatter_kwargs, mean_kwargs, gap_pairs, max_classes
            See :meth:`from_predictions` (``labels`` defaults to the record's
            fixed labels).

        Returns
        -------
        display : MacroF1Display

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_macrof1 import MacroF1Counts, MacroF1Display
        >>> counts = MacroF1Counts.from_confusion_matrix(
        ...     [[1, 0], [1, 3]], rows="true", labels=["a", "b"])
        >>> round(MacroF1Display.from_counts(counts).gap, 4)
        0.0458
        """
        caller = f"{cls.__name__}.from_counts"
        check_matplotlib(caller)
        if not isinstance(counts, MacroF1Counts):
            raise TypeError(
                f"{caller} needs a MacroF1Counts (from "
                "MacroF1Counts.from_predictions or from_confusion_matrix); got "
                f"{type(counts).__name__}. For predictions use "
                f"{cls.__name__}.from_predictions."
            )
        _check_average(average, caller)
        summary = summary_of(
            counts,
            None,
            caller=caller,
            beta=beta,
            labels=labels,
            pos_label=1,
            average=average,
            sample_weight=None,
            zero_division=zero_division,
        )
        return cls.from_summary(
            summary,
            display_labels=display_labels,
            ax=ax,
            iso_levels=iso_levels,
            annotate=annotate,
            explain=explain,
            compact=compact,
            scatter_kwargs=scatter_kwargs,
            mean_kwargs=mean_kwargs,
            gap_pairs=gap_pairs,
            max_classes=max_classes,
        )

    @classmethod
    def from_estimator(
        cls,
        estimator: Any,
        X: Any,
        y: Any,
        *,
        beta: float = 1.0,
        labels: Any = None,
        average: str = "macro",
        sample_weight: Any = None,
        zero_division: Any = "warn",
        display_labels: Any = None,
        ax: Any = None,
        iso_levels: Any = (0.2, 0.4, 0.6, 0.8),
        annotate: bool | None = None,
        explain: bool | None = None,
        compact: bool | None = None,
        scatter_kwargs: dict | None = None,
        mean_kwargs: dict | None = None,
        gap_pairs: int = 0,
        max_classes: int | None = MAX_DRAWN_CLASSES,
    ) -> MacroF1Display:
        """Plot both macro F-betas of a fitted classifier on ``X``, ``y``.

        Parameters
        ----------
        estimator : fitted classifier (or a Pipeline ending in one)
            Its ``predict(X)`` gives the predictions.
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Input values.
        y : array-like of shape (n_samples,) or (n_samples, n_labels)
            True labels.
        beta, labels, average, sample_weight, zero_division, display_labels, ax, \
iso_levels, annotate, explain, scatter_kwargs, mean_kwargs, compact, gap_pairs, \
max_classes
            See :meth:`from_predictions`.

        Returns
        -------
        display : MacroF1Display
            Drawn (on ``ax``, or in a new figure); see :meth:`from_predictions`.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.tree import DecisionTreeClassifier
        >>> from sklearn_macrof1 import MacroF1Display
        >>> X, y = load_iris(return_X_y=True)
        >>> clf = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y)
        >>> disp = MacroF1Display.from_estimator(clf, X, y, zero_division=0.0)
        >>> round(disp.averaged_fbeta, 4), round(disp.fbeta_of_averages, 4)
        (0.5556, 0.5714)
        """
        from sklearn.base import is_classifier

        caller = f"{cls.__name__}.from_estimator"
        check_matplotlib(caller)
        if not is_classifier(estimator):
            raise ValueError(
                f"{caller} needs a fitted classifier; got {type(estimator).__name__}."
            )
        _check_average(average, caller)
        summary = summary_of(
            y,
            estimator.predict(X),
            caller=caller,
            beta=beta,
            labels=labels,
            pos_label=1,
            average=average,
            sample_weight=sample_weight,
            zero_division=zero_division,
        )
        return cls.from_summary(
            summary,
            display_labels=display_labels,
            ax=ax,
            iso_levels=iso_levels,
            annotate=annotate,
            explain=explain,
            compact=compact,
            scatter_kwargs=scatter_kwargs,
            mean_kwargs=mean_kwargs,
            gap_pairs=gap_pairs,
            max_classes=max_classes,
        )

    # ---------------------------------------------------------------- drawing
    def _explanation(self, name: str) -> str:
        mean = "weighted mean" if self.average == "weighted" else "mean"
        lines = [
            "Why two numbers?",
            f"averaged {name} = {mean} of the class {name}s",
            "  (levels of the curves through the dots)",
            f"{name} of averages = {name} of the {mean} ★",
            "  (level of the curve through the star)",
        ]
        if self.average == "weighted":
            lines.append("  (weights: class support)")
        p, r = self.class_precision, self.class_recall
        above = int(np.sum(p > r))  # classes with a nan score count in neither
        below = int(np.sum(p < r))
        if abs(self.gap) < 5e-4:
            lines.append("Classes have P ≈ R: the two agree.")
        elif above and below:
            lines += [
                f"{above} class(es) have P > R, {below} P < R:",
                "the mean pairs one class's precision",
                "with other classes' recall, so the star",
                f"sits on a higher curve: gap {_gap_text(self.gap)}.",
            ]
        else:
            lines.append(f"Gap {_gap_text(self.gap)}.")
        return "\n".join(lines)

    def plot(
        self,
        *,
        ax: Any = None,
        iso_levels: Any = (0.2, 0.4, 0.6, 0.8),
        annotate: bool | None = None,
        explain: bool | None = None,
        scatter_kwargs: dict | None = None,
        mean_kwargs: dict | None = None,
        compact: bool | None = None,
        gap_pairs: int = 0,
        max_classes: int | None = MAX_DRAWN_CLASSES,
    ) -> MacroF1Display:
        """Draw the display.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; a new figure (with room for the legend) when None.
        iso_levels : sequence of float, default=(0.2, 0.4, 0.6, 0.8)
            Levels of the grey background iso-F-beta curves.
        annotate : bool, default=None
            Write each class's label beside its point (with its F-beta in the
            full layout); by default when there are at most 20 classes (12 in
            the compact layout). Classes at the same point share one label;
            labels that would overlap are moved apart.
        explain : bool, default=None
            Add a short text explaining why the two scores differ, beside the
            legend (full layout only; the default there). The compact layout
            has no room for it and says the gist in its legend.
        scatter_kwargs : dict, default=None
            Passed to ``ax.scatter`` for the class points.
        mean_kwargs : dict, default=None
            Passed to ``ax.plot`` for the mean point.
        compact : bool, default=None
            The layout for a panel of a figure grid or a figure one column of
            a paper wide: everything stays inside the axes (a small legend of
            the two curves, placed where it covers no text and no marker
            wherever such a place exists, a two-line title, class names
            without their scores, smaller type), so nothing reaches into a
            neighbouring panel or past the figure's edge of a figure with a
            layout engine (``layout="constrained"``); a display that makes its
            own compact figure makes it 4 x 4 inches. The full layout puts the
            legend and explanation to the right of the axes. None (the
            default) chooses the compact layout when ``ax`` is given and the
            full one when the display makes its own figure. In both layouts a
            gap under 0.002, whose segment would hide under the mean point, is
            written with two significant digits and marked too short to see.
        gap_pairs : int, default=0
            Join the points of the ``gap_pairs`` class pairs with the largest
            share of the gap by dotted lines (the legend gives each pair's
            share): the reference paper's Lemma term by term (see
            :meth:`FBetaSummary.gap_attribution`). 0 draws none.
        max_classes : int or None, default=1000
            Draw at most this many class points: with more classes, those with
            the largest share of the gap (:meth:`FBetaSummary.gap_attribution`;
            the largest support where ``zero_division=np.nan`` leaves the gap
            no sum over classes), and the legend says how many were left out
            (``n_left_out_``). The mean point and both curves are those of
            every class. None draws every class.

        Returns
        -------
        display : MacroF1Display
            With ``ax_``, ``figure_`` and the artist attributes set.
        """
        check_matplotlib(f"{type(self).__name__}.plot")
        import matplotlib.pyplot as plt

        beta = float(self.beta)
        name = fbeta_name(beta)
        n_classes = self.class_precision.shape[0]
        labels = (
            np.arange(n_classes)
            if self.display_labels is None
            else np.asarray(self.display_labels)
        )
        if labels.shape != (n_classes,):
            raise ValueError(
                f"display_labels must name the {n_classes} classes; got "
                f"{labels.shape[0] if labels.ndim == 1 else labels.shape} names."
            )
        if compact is None:
            compact = ax is not None
        if explain is None:
            explain = not compact
        elif explain and compact:
            raise ValueError(
                "explain=True needs the full layout (compact=False): the compact "
                "layout keeps everything inside the axes and has no room for the "
                "explanation."
            )
        if annotate is None:
            annotate = n_classes <= (12 if compact else 20)
        self._check_gap_pairs(gap_pairs)
        shown = self._shown_classes(max_classes)
        if ax is None:  # compact: a single-column figure for a paper
            figsize = (4.0, 4.0) if compact else (10.0, 6.0)
            _, ax = plt.subplots(figsize=figsize, layout="constrained")
        fig = ax.figure
        self.ax_ = ax
        self.figure_ = fig

        self._draw_curves(ax, iso_levels, beta, name, compact)
        self._draw_points(ax, scatter_kwargs, mean_kwargs, name, compact, shown)
        self._draw_gap_pairs(ax, labels, gap_pairs)
        ax.set(
            xlim=(-0.02, 1.06),
            ylim=(-0.02, 1.04),
            aspect="equal",
        )
        # a compact panel's type sizes (ticks 8, labels and title 9, legend and
        # labels of points 7) fit a single column at 3.5 inches
        axis_label: dict[str, Any] = {"fontsize": 9, "labelpad": 2.0} if compact else {}
        ax.set_xlabel("recall", **axis_label)
        ax.set_ylabel("precision", **axis_label)
        if compact:
            ax.tick_params(labelsize=8)
        scores = (
            f"{name} of averages {self.fbeta_of_averages:.3f} vs averaged "
            f"{name} {self.averaged_fbeta:.3f}"
        )
        gap = _gap_text(self.gap)
        if compact:
            ax.set_title(f"{scores}\n{self.average}: gap {gap}", fontsize=9)
        else:
            ax.set_title(f"{scores} ({self.average}): gap {gap}", fontsize=10)
            ax.legend(
                loc="upper left",
                bbox_to_anchor=(1.02, 1.0),
                fontsize=8,
                frameon=False,
                borderaxespad=0.0,
            )
        self.text_ = None
        if explain:
            self.text_ = ax.text(
                1.03,
                0.0,
                self._explanation(name),
                transform=ax.transAxes,
                fontsize=8,
                va="bottom",
                ha="left",
                linespacing=1.35,
            )
        self.annotations_: list[Any] = []
        if annotate:
            self._annotate(ax, labels, name, compact, shown)
        if compact:  # placed last: it must not cover the labels drawn above
            _place_compact_legend(
                ax,
                [
                    h
                    for h in (
                        self.curve_averaged_,
                        self.curve_of_averages_,
                        self.gap_line_,
                        *self.gap_pair_lines_[:1],
                    )
                    if h is not None
                ],
                self.points_,
                self.mean_point_,
            )
        return self

    def _shown_classes(self, max_classes: Any) -> np.ndarray:
        """Mask of the classes to draw: all, or the ``max_classes`` with the
        largest share of the gap (ties: the first); sets ``n_left_out_``."""
        if max_classes is not None and (
            isinstance(max_classes, bool)
            or not isinstance(max_classes, numbers.Integral)
            or max_classes < 1
        ):
            raise ValueError(
                f"max_classes must be an integer >= 1 or None; got {max_classes!r}."
            )
        p, r = self.class_precision, self.class_recall
        k = p.shape[0]
        shown = np.ones(k, dtype=bool)
        self.n_left_out_ = 0
        if max_classes is None or k <= max_classes:
            return shown
        support = (
            np.ones(k) if self.support is None else np.asarray(self.support, float)
        )
        if np.isnan(p).any() or np.isnan(r).any():
            key = np.nan_to_num(support)
        else:
            weights = class_weights(support, self.average)
            key = gap_class_terms(p, r, weights, float(self.beta))
        top = np.lexsort((np.arange(k), -key))[: int(max_classes)]
        shown[:] = False
        shown[top] = True
        self.n_left_out_ = k - int(max_classes)
        return shown

    def _check_gap_pairs(self, n: Any) -> None:
        """ValueError for a ``gap_pairs`` that cannot be drawn (before drawing
        anything: no half-drawn figure is left behind)."""
        if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 0:
            raise ValueError(f"gap_pairs must be an integer >= 0; got {n!r}.")
        p, r = self.class_precision, self.class_recall
        if n and self.gap > 0 and (np.isnan(p).any() or np.isnan(r).any()):
            raise ValueError(
                "gap_pairs needs every per-class precision and recall: with "
                "zero_division=np.nan the gap is no sum over class pairs."
            )

    def _draw_gap_pairs(self, ax: Any, labels: np.ndarray, n: Any) -> None:
        """Dotted lines between the classes of the largest gap pairs (found
        block by block: no k x k table)."""
        self.gap_pair_lines_: list[Any] = []
        p, r = self.class_precision, self.class_recall
        if n == 0 or not self.gap > 0:
            return
        support = (
            np.ones(p.shape[0]) if self.support is None else np.asarray(self.support)
        )
        weights = class_weights(support, self.average)
        beta = float(self.beta)
        total = float(gap_class_terms(p, r, weights, beta).sum())
        x, y, terms = top_gap_pairs(p, r, weights, beta, int(n))
        top = range(terms.shape[0])
        label = "largest gap pairs: " + ", ".join(
            f"{labels[x[i]]} & {labels[y[i]]} {terms[i] / total:.0%}" for i in top
        )
        for k, i in enumerate(top):
            a, b = x[i], y[i]
            (line,) = ax.plot(
                [r[a], r[b]],
                [p[a], p[b]],
                color="tab:purple",
                linestyle=(0, (1, 1.5)),
                linewidth=1.4,
                zorder=2.5,
                label=label if k == 0 else "_nolegend_",
            )
            self.gap_pair_lines_.append(line)

    def _draw_curves(
        self, ax: Any, iso_levels: Any, beta: float, name: str, compact: bool
    ) -> None:
        """The grey iso-curves, the diagonal and the curves of both scores."""
        self.iso_lines_ = []
        for i, level in enumerate(iso_levels):
            r, p = iso_fbeta_curve(float(level), beta)
            (line,) = ax.plot(
                r,
                p,
                color="0.8",
                linewidth=0.8,
                zorder=1,
                label=f"iso-{name} curves ({', '.join(f'{v:g}' for v in iso_levels)})"
                if i == 0
                else "_nolegend_",
            )
            self.iso_lines_.append(line)
            if r.size:
                ax.annotate(
                    f"{float(level):g}",
                    (r[-1], p[-1]),
                    xytext=(2, 0),
                    textcoords="offset points",
                    fontsize=7,
                    color="0.55",
                    va="center",
                    annotation_clip=False,
                )
        (self.diagonal_,) = ax.plot(
            [0, 1],
            [0, 1],
            linestyle=":",
            color="0.6",
            linewidth=0.8,
            zorder=1,
            label="P = R (no error-type skew)",
        )
        r_avg, p_avg = iso_fbeta_curve(float(self.averaged_fbeta), beta)
        (self.curve_averaged_,) = ax.plot(
            r_avg,
            p_avg,
            color="tab:blue",
            linestyle="--",
            linewidth=1.6,
            zorder=2,
            label=f"averaged {name} {self.averaged_fbeta:.3f}"
            if compact
            else f"averaged {name} = {self.averaged_fbeta:.3f} (its iso-{name})",
        )
        r_fa, p_fa = iso_fbeta_curve(float(self.fbeta_of_averages), beta)
        (self.curve_of_averages_,) = ax.plot(
            r_fa,
            p_fa,
            color="tab:red",
            linewidth=1.8,
            zorder=2,
            label=f"{name} of averages {self.fbeta_of_averages:.3f} (★)"
            if compact
            else f"{name} of averages = {self.fbeta_of_averages:.3f} "
            f"(iso-{name} through ★)",
        )

    def _draw_points(
        self,
        ax: Any,
        scatter_kwargs: dict | None,
        mean_kwargs: dict | None,
        name: str,
        compact: bool,
        shown: np.ndarray,
    ) -> None:
        """The class points, the mean point and the gap between the curves."""
        defined = ~(np.isnan(self.class_precision) | np.isnan(self.class_recall))
        defined &= shown
        sizes: Any = 40.0 if compact else 60.0
        if self.average == "weighted" and self.support is not None:
            support = np.asarray(self.support, dtype=np.float64)
            top = support.max() if support.size and support.max() > 0 else 1.0
            smallest, span = (15.0, 150.0) if compact else (25.0, 275.0)
            sizes = (smallest + span * support / top)[defined]
        kwargs = {
            "s": sizes,
            "color": "tab:gray",
            "edgecolor": "black",
            "linewidth": 0.6,
            "zorder": 3,
            "label": "classes (recall, precision)"
            + (", size = support" if self.average == "weighted" else "")
            + (
                f"\n  the {int(shown.sum()):,} with the largest gap share; "
                f"{self.n_left_out_:,} more not drawn"
                if self.n_left_out_
                else ""
            ),
        }
        kwargs.update(scatter_kwargs or {})
        self.points_ = ax.scatter(
            self.class_recall[defined], self.class_precision[defined], **kwargs
        )
        mean = "support-weighted mean" if self.average == "weighted" else "mean"
        kwargs = {
            "marker": "*",
            "markersize": 13 if compact else 16,
            "color": "tab:red",
            "markeredgecolor": "black",
            "linestyle": "none",
            "zorder": 4,
            "label": f"{mean} (R, P) = ({self.recall:.3f}, {self.precision:.3f})",
        }
        kwargs.update(mean_kwargs or {})
        (self.mean_point_,) = ax.plot([self.recall], [self.precision], **kwargs)
        self.gap_line_ = None
        low = float(
            precision_on_iso_curve(
                float(self.averaged_fbeta), self.recall, float(self.beta)
            )
        )
        if not math.isnan(low) and self.precision - low > 1e-9:
            (self.gap_line_,) = ax.plot(
                [self.recall, self.recall],
                [low, self.precision],
                color="black",
                linewidth=2.2,
                marker="_",
                markersize=10,
                zorder=3,
                label=f"gap = {_gap_text(self.gap)}"
                + (
                    " (too short to see)"
                    if abs(self.gap) < SMALLEST_DRAWN_GAP
                    else ""
                    if compact
                    else " (between the two curves)"
                ),
            )

    def _annotate(
        self, ax: Any, labels: np.ndarray, name: str, compact: bool, shown: np.ndarray
    ) -> None:
        """One label per point (classes at the same point share it), moved
        apart where labels would overlap."""
        p, r, f = self.class_precision, self.class_recall, self.class_fbeta
        defined = np.flatnonzero(~(np.isnan(p) | np.isnan(r)) & shown)
        groups: dict[tuple[float, float], list[int]] = {}
        for i in defined:
            groups.setdefault((float(r[i]), float(p[i])), []).append(int(i))
        for (ri, pi), members in groups.items():
            names = ", ".join(str(labels[i]) for i in members)
            text = names if compact else f"{names}: {name} {f[members[0]]:.2f}"
            right = ri > 0.7
            self.annotations_.append(
                ax.annotate(
                    text,
                    (ri, pi),
                    xytext=(-5 if right else 5, -10 if pi > 0.97 else 3),
                    textcoords="offset points",
                    ha="right" if right else "left",
                    fontsize=7 if compact else 8,
                    zorder=5,
                    # a leader line, seen only when a crowd moved the label away
                    arrowprops={
                        "arrowstyle": "-",
                        "color": "0.45",
                        "linewidth": 0.5,
                        "shrinkA": 1,
                        "shrinkB": 4,
                    },
                )
            )
        _spread_labels(ax, self.annotations_, self.points_, self.mean_point_)


def _gap_text(gap: float) -> str:
    """The gap as the title and legend write it: three decimals, or two
    significant digits when three decimals would hide it (``0.0012``,
    ``9e-07``)."""
    if gap == 0 or abs(gap) >= SMALLEST_DRAWN_GAP or math.isnan(gap):
        return f"{gap:.3f}"
    return f"{gap:.2g}"


def _place_compact_legend(ax: Any, handles: list[Any], points: Any, star: Any) -> None:
    """The compact legend at the corner or edge where it covers no text.

    matplotlib's ``loc="best"`` counts an overlapped text or marker as much as
    one covered vertex of a line, so it readily covers an iso-curve's level, a
    class's name or the mean point. Here each of its nine anchored positions
    is tried after a layout pass: the legend goes where it overlaps the least
    area of texts and markers (none, wherever one such position exists), and
    among those, where it covers the fewest vertices of the lines, as
    ``"best"`` does.
    """
    kwargs = {
        "handles": handles,
        "fontsize": 7,
        "framealpha": 0.85,
        "handlelength": 1.5,
        "borderaxespad": 0.3,
    }
    fig = ax.figure
    get_renderer = getattr(fig.canvas, "get_renderer", None)
    if get_renderer is None:  # pragma: no cover - non-Agg canvases
        ax.legend(loc="best", **kwargs)
        return
    if hasattr(fig, "draw_without_rendering"):
        fig.draw_without_rendering()
    renderer = get_renderer()
    from matplotlib.text import Text

    obstacles = [
        Text.get_window_extent(t, renderer)
        for t in ax.texts
        if t.get_visible() and t.get_text()
    ] + _marker_boxes(points, star, renderer)
    vertices = np.concatenate(
        [np.empty((0, 2))]
        + [
            line.get_transform().transform_path(line.get_path()).vertices
            for line in ax.get_lines()
            if line.get_visible()
        ]
    )
    best: int | str = "best"
    best_cost = (math.inf, math.inf)
    # upper right, upper left, lower left, lower right, then the edges' middles
    for loc in (1, 2, 3, 4, 6, 7, 8, 9, 10):
        box = ax.legend(loc=loc, **kwargs).get_window_extent(renderer)
        # a margin, for a layout engine that resizes the axes once more
        margin = box.padded(4.0 * fig.dpi / 72.0)
        covered = sum(_overlap_area(margin, b) for b in obstacles)
        inside = (
            (vertices[:, 0] >= box.x0)
            & (vertices[:, 0] <= box.x1)
            & (vertices[:, 1] >= box.y0)
            & (vertices[:, 1] <= box.y1)
        )
        cost = (covered, float(np.count_nonzero(inside)))
        if cost < best_cost:
            best, best_cost = loc, cost
    ax.legend(loc=best, **kwargs)


def _spread_labels(ax: Any, annotations: list[Any], points: Any, star: Any) -> None:
    """Move overlapping labels up or down, by whole label heights, to free spots.

    Greedy, in display space after a layout pass (so that constrained layout has
    already sized the axes): each label keeps the first of its candidate
    offsets (0, -1, +1, -2, +2 ... heights) that overlaps no label placed
    before it and stays inside the axes, or the least bad one.
    """
    if len(annotations) < 2:
        return
    fig = ax.figure
    get_renderer = getattr(fig.canvas, "get_renderer", None)
    if get_renderer is None:  # pragma: no cover - non-Agg canvases
        return
    if hasattr(fig, "draw_without_rendering"):
        fig.draw_without_rendering()
    renderer = get_renderer()
    from matplotlib.text import Text

    def extent(ann: Any) -> Any:  # the text alone, not its leader line
        return Text.get_window_extent(ann, renderer)

    frame = ax.get_window_extent(renderer)
    points_per_pixel = 72.0 / fig.dpi
    placed = _marker_boxes(points, star, renderer)  # obstacles too
    # top to bottom, so that a crowd spreads downwards first
    order = sorted(annotations, key=lambda a: -a.xy[1])
    flip = {"left": "right", "right": "left"}
    for ann in order:
        x0, y0 = ann.xyann
        ha = ann.get_horizontalalignment()
        step = (extent(ann).height + 1.0) * points_per_pixel
        best, best_cost = (x0, y0, ha), math.inf
        for k in (0, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6):
            for x, side in ((x0, ha), (-x0, flip.get(ha, ha))):
                ann.xyann = (x, y0 + k * step)
                ann.set_horizontalalignment(side)
                trial = extent(ann).padded(1.5)
                outside = trial.width * trial.height - _overlap_area(trial, frame)
                overlap = outside + sum(_overlap_area(trial, b) for b in placed)
                if overlap < best_cost:
                    best, best_cost = (x, y0 + k * step, side), overlap
                if overlap == 0:
                    break
            if best_cost == 0:
                break
        ann.xyann = best[:2]
        ann.set_horizontalalignment(best[2])
        placed.append(extent(ann))


def _marker_boxes(points: Any, star: Any, renderer: Any) -> list[Any]:
    """Display-space boxes of the class markers and of the mean point."""
    from matplotlib.transforms import Bbox

    centres = points.get_offset_transform().transform(points.get_offsets())
    radii = np.sqrt(np.broadcast_to(points.get_sizes(), (len(centres),))) / 2
    radii = radii * points.figure.dpi / 72.0
    boxes = [
        Bbox([[x - r, y - r], [x + r, y + r]])
        for (x, y), r in zip(centres, radii, strict=True)
    ]
    boxes.append(star.get_window_extent(renderer))
    return boxes


def _overlap_area(a: Any, b: Any) -> float:
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return max(w, 0.0) * max(h, 0.0)
