"""The views of a search analysis: the candidates under both formulas, the
corrected t-tests, and the answer in words."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ._table import (
    MAX_HTML_ROWS,
    Column,
    Table,
    attribute_column,
    format_p_value,
    percent,
)

if TYPE_CHECKING:
    from .._results._search_analysis import SearchAnalysis
    from .._stats._search import FoldDifference


def search_statement(analysis: SearchAnalysis) -> str:
    """The answer in words."""
    avg_name, foa_name = analysis.formula_names
    alpha = 1 - analysis.confidence

    def verdict(d: FoldDifference) -> str:
        sig = "significant" if d.significant else "not significant"
        return f"{d.difference:+.4f} (p={d.p_value:.3g}, {sig} at {percent(alpha)})"

    a, b = (
        analysis.candidates[analysis.best_averaged],
        analysis.candidates[analysis.best_of_averages],
    )
    if not analysis.picks_differ:
        text = f"Both formulas pick {a}."
    else:
        assert analysis.picks_averaged is not None
        assert analysis.picks_of_averages is not None
        beyond = analysis.disagreement_beyond_noise
        text = (
            f"The formulas pick different candidates: {avg_name} picks {a}, "
            f"{foa_name} picks {b}. ({a}) - ({b}): {avg_name} "
            f"{verdict(analysis.picks_averaged)}, {foa_name} "
            f"{verdict(analysis.picks_of_averages)}; the disagreement is "
            + (
                "beyond fold noise (both significant)."
                if beyond
                else "within fold noise (not both significant)."
            )
        )
    return text


def candidate_table(analysis: SearchAnalysis) -> Table:
    """One row per candidate: mean, fold s.d. and rank under each formula."""
    avg_name, foa_name = analysis.formula_names
    index = np.arange(analysis.n_candidates)
    picks = []
    for i in index:
        marks = []
        if i == analysis.best_averaged:
            marks.append(f"best by {avg_name}")
        if i == analysis.best_of_averages:
            marks.append(f"best by {foa_name}")
        picks.append("; ".join(marks))
    r = analysis.ranks
    ranks = (
        "rank agreement: undefined (fewer than 3 candidates or constant scores)"
        if math.isnan(r.spearman)
        else f"rank agreement: Spearman {r.spearman:.3f} "
        f"(p={r.spearman_p_value:.3g}), Kendall {r.kendall:.3f} "
        f"(p={r.kendall_p_value:.3g}), {r.n_candidates} candidates"
    )
    columns = [Column("candidate", analysis.candidates, shown=False)]
    for name, (key, mean, std, rank) in zip(
        (avg_name, foa_name), analysis._per_candidate(), strict=True
    ):
        columns += [
            Column(f"mean_{key}", mean, heading=name),
            Column(f"std_{key}", std, "fold s.d."),
            Column(f"rank_{key}", rank, "rank"),
        ]
    columns += [
        Column("pick", picks, data=False),
        Column("best_averaged", index == analysis.best_averaged, shown=False),
        Column("best_of_averages", index == analysis.best_of_averages, shown=False),
    ]
    how = (
        f"{analysis.average}, beta={analysis.beta:g}"
        if analysis.average is not None and analysis.beta is not None
        else "formulas named by the caller"
    )
    return Table(
        f"search analysis: {analysis.n_candidates} candidates, "
        f"{analysis.n_folds} folds "
        f"({how}; metrics {analysis.averaged_metric!r}, "
        f"{analysis.of_averages_metric!r})",
        columns,
        labels=analysis.candidates,
        notes=[ranks],
        index="candidate",
        unit="candidates",
        unit_one="candidate",
        full="analysis.to_frame()",
        shown_order=_shown_candidates(analysis),
    )


def _shown_candidates(analysis: SearchAnalysis) -> list[int] | None:
    """The rows a view shows of more than :data:`MAX_HTML_ROWS` candidates:
    the first ones and the two picks, in the candidates' order (None: all)."""
    if analysis.n_candidates <= MAX_HTML_ROWS:
        return None
    picks = {int(analysis.best_averaged), int(analysis.best_of_averages)}
    first = [i for i in range(MAX_HTML_ROWS) if i not in picks]
    return sorted(picks | set(first[: MAX_HTML_ROWS - len(picks)]))


def test_table(analysis: SearchAnalysis) -> Table:
    """One row per corrected resampled t-test."""
    avg_name, foa_name = analysis.formula_names
    tests = [
        (test, f"{what}, {name}", d)
        for test, what, name, d in (
            ("picks", "picks", avg_name, analysis.picks_averaged),
            ("picks", "picks", foa_name, analysis.picks_of_averages),
            ("runner-up", "best - runner-up", avg_name, analysis.runner_up_averaged),
            ("runner-up", "best - runner-up", foa_name, analysis.runner_up_of_averages),
        )
        if d is not None
    ]

    differences = [d for _, _, d in tests]

    def column(key: str, **how: Any) -> Column:
        return attribute_column(differences, key, **how)

    return Table(
        f"Nadeau-Bengio corrected resampled t-tests (J = {analysis.n_folds}, "
        f"n_test/n_train = {analysis.test_train_ratio:.3g}, "
        f"{percent(analysis.confidence)} intervals)",
        [
            Column("test", [test for test, _, _ in tests], shown=False),
            column("formula", shown=False),
            column("candidate_a", shown=False),
            column("candidate_b", shown=False),
            Column(
                "A - B",
                [f"{d.candidate_a} - {d.candidate_b}" for _, _, d in tests],
                data=False,
            ),
            column("difference", fmt=lambda v: f"{v:+.4f}"),
            Column(
                "interval",
                [f"[{d.low:+.4f}, {d.high:+.4f}]" for _, _, d in tests],
                data=False,
            ),
            column("low", shown=False),
            column("high", shown=False),
            column("std_error", shown=False),
            column("t", fmt=lambda v: f"{v:.2f}"),
            column("df", shown=False),
            column("p_value", heading="p", fmt=format_p_value),
            column("uncorrected_p_value", heading="uncorrected p", fmt=format_p_value),
        ],
        labels=[what for _, what, _ in tests],
        notes=[f"n_test/n_train: {analysis.size_note}"],
        index="test",
    )


def search_view(analysis: SearchAnalysis) -> tuple[list[Table], list[str]]:
    """What a notebook and the text show: the candidates, the t-tests (if
    any), then the statement and notes."""
    candidates, tests = candidate_table(analysis), test_table(analysis)
    notes = [analysis.statement]
    if analysis.excluded:
        notes.append(f"left out (nan fold scores): {', '.join(analysis.excluded)}")
    if analysis.note:
        notes.append(f"note: {analysis.note}")
    return ([candidates, tests] if tests.n_rows else [candidates]), notes
