"""The views of intervals and paired comparisons.

:class:`~sklearn_macrof1.FBetaInterval`, :class:`~sklearn_macrof1.ClassifierComparison`
and :class:`~sklearn_macrof1.MultipleComparison` describe themselves here: an
interval and a comparison of two classifiers are one table of the two formulas
(:func:`_formula_table`: a row per formula, the method and sample count in a
note), several classifiers one row per pair and formula, the columns of a
:class:`~sklearn_macrof1.ScoreDifference` written once
(:func:`_difference_columns`); the statements say a comparison in words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._table import (
    Column,
    Table,
    attribute_column,
    format_p_value,
    formula_labels,
    percent,
)

if TYPE_CHECKING:
    from .._stats._comparison import (
        ClassifierComparison,
        MultipleComparison,
        ScoreDifference,
    )
    from .._stats._intervals import FBetaInterval

#: The keys of the two formulas' rows, in a frame's index.
FORMULA_KEYS = ("averaged_fbeta", "fbeta_of_averages")

#: Rows a view of several classifiers shows: every pair of up to 10
#: classifiers under both formulas (the notebook shows 20 rows of other tables).
MAX_PAIR_ROWS = 90


def method_text(method: str, n_resamples: int | None, *, paired: bool = False) -> str:
    """The method of an interval or comparison in words, e.g. "delta method"."""
    if method == "delta":
        return "delta method"
    if method == "jackknife":
        return "jackknife, t reference"
    if method == "posterior":
        return f"Dirichlet posterior, {n_resamples} draws"
    kind = "paired" if paired else "percentile"
    return f"{kind} bootstrap, {n_resamples} resamples"


def _formula_table(
    title: str, columns: list[Column], *, beta: float, how: str, n_samples: int
) -> Table:
    """One row per formula (the averaged F-beta, then the F-beta of averages),
    the method and the number of samples in a note."""
    return Table(
        title,
        columns,
        keys=list(FORMULA_KEYS),
        labels=formula_labels(beta),
        notes=[f"{how}, n={n_samples} samples."],
        index="score",
        index_name="score",
    )


# --------------------------------------------------------------------- intervals


def interval_table(interval: FBetaInterval) -> Table:
    """The description behind the notebook view and the frame."""
    both = (interval.averaged_fbeta, interval.fbeta_of_averages)

    def setting(key: str) -> Column:
        return Column(key, [getattr(interval, key)] * 2, shown=False)

    return _formula_table(
        f"{percent(interval.confidence)} confidence intervals ({interval.average} "
        f"average, beta={interval.beta:g})",
        [
            attribute_column(both, "estimate"),
            attribute_column(both, "low"),
            attribute_column(both, "high"),
            attribute_column(both, "std_error", heading="std error"),
            setting("average"),
            setting("confidence"),
            setting("method"),
        ],
        beta=interval.beta,
        how=interval.method_description,
        n_samples=interval.n_samples,
    )


# ------------------------------------------------------------------- comparisons


def difference_text(d: ScoreDifference, name_a: str, name_b: str) -> str:
    """One line: both scores, the difference, its interval and p-value."""
    return (
        f"{name_a} {d.score_a:.4f}  {name_b} {d.score_b:.4f}  "
        f"{name_a}-{name_b} {d.difference:+.4f} "
        f"[{d.low:+.4f}, {d.high:+.4f}]  {_p_text(d)}"
    )


def _p_text(d: ScoreDifference) -> str:
    """``p=0.012``, or ``p < 0.001`` at a bootstrap's resolution."""
    p = d.p_value_text
    return f"p {p}" if p.startswith("<") else f"p={p}"


def _formulas(c: ClassifierComparison) -> tuple[tuple[str, ScoreDifference], ...]:
    label_avg, label_foa = formula_labels(c.beta)
    return (label_avg, c.averaged_fbeta), (label_foa, c.fbeta_of_averages)


def _how(c: ClassifierComparison) -> str:
    return method_text(c.method, c.n_resamples, paired=True)


def comparison_statement(c: ClassifierComparison) -> str:
    """A plain-language answer: which classifier each formula prefers."""
    alpha = 1 - c.confidence
    name_a, name_b = c.names
    parts = []
    for label, d in _formulas(c):
        if d.difference == 0:
            verdict = f"does not separate {name_a} and {name_b}"
        else:
            better = name_a if d.difference > 0 else name_b
            sig = "significant" if d.p_value < alpha else "not significant"
            verdict = (
                f"prefers {better} by {abs(d.difference):.4f} "
                f"({_p_text(d)}, {sig} at {percent(alpha)})"
            )
        parts.append(f"{label} {verdict}")
    text = "; ".join(parts) + ". "
    if c.rankings_differ:
        p = c.reversal_p_value
        assert p is not None
        sig = (
            "significant: both differences are"
            if p < alpha
            else "not significant: at least one difference is not"
        )
        text += (
            "The two formulas rank the classifiers differently; the reversal "
            f"is {sig} (intersection-union p={p:.3g})."
        )
    else:
        text += "The two formulas do not rank the classifiers differently."
    return text


def comparison_table(c: ClassifierComparison) -> Table:
    """The description behind the notebook view and the frame."""
    name_a, name_b = c.names
    formulas = _formulas(c)
    table = _formula_table(
        f"{name_a} vs {name_b} ({c.average} average, beta={c.beta:g})",
        [
            Column("model_a", [name_a] * 2, shown=False),
            Column("model_b", [name_b] * 2, shown=False),
            *_difference_columns(
                [d for _, d in formulas],
                (name_a, name_b, f"{name_a} - {name_b}", percent(c.confidence)),
            ).values(),
        ],
        beta=c.beta,
        how=_how(c),
        n_samples=c.n_samples,
    )
    resolution = c.averaged_fbeta.p_resolution
    if resolution is not None:
        table.notes.append(
            f"A bootstrap p-value cannot resolve values below {resolution:.2g} "
            "(2 / (resamples + 1)): '<' marks that floor."
        )
    return table


def _rows(
    mc: MultipleComparison,
) -> list[tuple[ClassifierComparison, str, str, ScoreDifference, float]]:
    """(pair, field name, formula label, difference, Holm p) of each row."""
    rows = []
    for c, p_avg, p_foa in zip(
        mc.comparisons,
        mc.averaged_fbeta_p_holm,
        mc.fbeta_of_averages_p_holm,
        strict=True,
    ):
        (l_avg, d_avg), (l_foa, d_foa) = _formulas(c)
        rows += [
            (c, "averaged_fbeta", l_avg, d_avg, p_avg),
            (c, "fbeta_of_averages", l_foa, d_foa, p_foa),
        ]
    return rows


def _note(mc: MultipleComparison) -> str:
    m = len(mc.comparisons)
    first = mc.comparisons[0]
    return (
        f"{len(mc.names)} classifiers, {m} pairs: p (Holm) adjusts each "
        f"formula's {m} p-values for multiple comparisons (Holm's step-down, "
        f"family-wise error rate {percent(1 - first.confidence)}); intervals "
        f"are not adjusted. {_how(first)}, n={first.n_samples} samples."
    )


def multiple_table(mc: MultipleComparison) -> Table:
    """The description behind the notebook view and the frame."""
    first = mc.comparisons[0]
    rows = _rows(mc)
    labels = dict(zip(FORMULA_KEYS, formula_labels(first.beta), strict=True))
    resolution = first.averaged_fbeta.p_resolution
    differences = _difference_columns(
        [d for _, _, _, d, _ in rows],
        ("score A", "score B", "A - B", percent(first.confidence)),
    )
    return Table(
        f"{len(mc.names)} classifiers, every pair ({first.average} average, "
        f"beta={first.beta:g})",
        [
            Column("model_a", [c.names[0] for c, *_ in rows], shown=False),
            Column("model_b", [c.names[1] for c, *_ in rows], shown=False),
            Column("score", [score for _, score, *_ in rows], fmt=labels.__getitem__),
            *(differences[key] for key in _PAIR_KEYS),
            Column(
                "p_holm",
                [p_holm for *_, p_holm in rows],
                heading="p (Holm)",
                fmt=lambda p: format_p_value(p, resolution),
            ),
            differences["p_resolution"],
            differences["df"],
        ],
        labels=[f"{c.names[0]} vs {c.names[1]}" for c, *_ in rows],
        notes=[_note(mc)],
        index="A vs B",
        unit="rows (pairs and formulas)",
        unit_one="row (pairs and formulas)",
        full="comparison.to_frame()",
        max_rows=MAX_PAIR_ROWS,
    )


#: The columns of each pair in :meth:`MultipleComparison.to_frame`, before p_holm.
_PAIR_KEYS = ("score_a", "score_b", "difference", "low", "high", "std_error", "p_value")


def _difference_columns(
    differences: list[ScoreDifference], headings: tuple[str, str, str, str]
) -> dict[str, Column]:
    """The columns of :class:`ScoreDifference` values, one row per difference:
    ``headings`` are those of score A, score B, their difference and the
    confidence level."""
    score_a, score_b, difference, level = headings
    resolution = differences[0].p_resolution
    columns = [
        attribute_column(differences, "score_a", heading=score_a),
        attribute_column(differences, "score_b", heading=score_b),
        attribute_column(differences, "difference", heading=difference),
        attribute_column(differences, "low", heading=f"{level} CI low"),
        attribute_column(differences, "high", heading=f"{level} CI high"),
        attribute_column(differences, "std_error", shown=False),
        attribute_column(
            differences,
            "p_value",
            heading="p-value",
            fmt=lambda p: format_p_value(p, resolution),
        ),
        attribute_column(differences, "p_greater", shown=False),
        attribute_column(differences, "p_less", shown=False),
        attribute_column(differences, "p_resolution", shown=False),
        attribute_column(differences, "df", shown=False),
    ]
    return {c.key: c for c in columns}
