"""Result objects in notebooks and pandas: reprs, HTML tables, frames, equality."""

from __future__ import annotations

import math
import pickle
import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from sklearn_macrof1 import (
    ClassifierComparison,
    FBetaInterval,
    ScoreDifference,
    ScoreInterval,
    compare_classifiers,
    fbeta_confidence_interval,
    fbeta_summary,
)

# How a p-value is written (its floor, its precision) is a unit of the renderer.
from sklearn_macrof1._present._table import format_p_value

Y_TRUE = [0, 0, 1, 1, 2, 2, 2, 2] * 25
Y_A = [0, 1, 1, 1, 2, 0, 2, 2] * 25
Y_B = [0, 0, 1, 2, 2, 0, 1, 2] * 25


class _Tables(HTMLParser):
    """Every <table> of an HTML string: caption, header cells, body rows."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict] = []
        self.paragraphs: list[str] = []
        self._cell: list[str] | None = None
        self._row: list[str] | None = None
        self._section = ""
        self._p: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append({"caption": "", "header": [], "rows": []})
        elif tag in ("thead", "tbody"):
            self._section = tag
        elif tag == "tr":
            self._row = []
        elif tag in ("th", "td", "caption"):
            self._cell = []
        elif tag == "p":
            self._p = []

    def handle_endtag(self, tag):
        if tag in ("th", "td"):
            self._row.append("".join(self._cell))
            self._cell = None
        elif tag == "caption":
            self.tables[-1]["caption"] = "".join(self._cell)
            self._cell = None
        elif tag == "tr":
            key = "header" if self._section == "thead" else "rows"
            if key == "header":
                self.tables[-1]["header"] = self._row
            else:
                self.tables[-1]["rows"].append(self._row)
        elif tag == "p":
            self.paragraphs.append("".join(self._p))
            self._p = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        elif self._p is not None:
            self._p.append(data)


def parse(html: str) -> _Tables:
    parser = _Tables()
    parser.feed(html)
    parser.close()
    return parser


def text_rows(text: str) -> list[list[str]]:
    """The cells of each line of a text view (columns are two spaces apart)."""
    return [re.split(r"\s{2,}", line.strip()) for line in text.splitlines()]


def assert_text_shows_the_notebook_view(result) -> str:
    """``str(result)`` shows what ``_repr_html_()`` shows, from the same tables:
    each caption on a line, each heading line and row as cells, each note
    (wrapped); returns the text."""
    text = str(result)
    lines, rows = text.splitlines(), text_rows(text)
    parsed = parse(result._repr_html_())
    assert parsed.tables
    for table in parsed.tables:
        assert table["caption"] in lines
        assert [h for h in table["header"] if h] in rows
        for row in table["rows"]:
            assert [c for c in row if c] in rows
        assert len(rows) >= len(table["rows"]) + 2
    flat = " ".join(text.split())
    for paragraph in parsed.paragraphs:
        assert " ".join(paragraph.split()) in flat
    assert not text.endswith("\n")
    return text


def cell(table: dict, row: str, column: str) -> str:
    j = table["header"].index(column)
    for r in table["rows"]:
        if r[0] == row:
            return r[j]
    raise KeyError(row)


# ------------------------------------------------------------------ FBetaSummary


def test_summary_html_puts_both_scores_side_by_side():
    s = fbeta_summary(Y_TRUE, Y_A)
    parsed = parse(s._repr_html_())
    main, classes = parsed.tables
    assert main["header"] == [
        "average",
        "averaged F1",
        "F1 of averages",
        "gap",
        "gap bound",
        "precision",
        "recall",
    ]
    assert cell(main, "macro", "averaged F1") == f"{s.averaged_fbeta:.4f}"
    assert cell(main, "macro", "F1 of averages") == f"{s.fbeta_of_averages:.4f}"
    assert cell(main, "macro", "gap") == f"{s.gap:.4f}"
    assert cell(main, "macro", "gap bound") == f"{s.gap_bound:.4f}"
    assert classes["header"] == ["class", "precision", "recall", "F1", "support"]
    assert [r[0] for r in classes["rows"]] == ["0", "1", "2"]
    for i, label in enumerate(["0", "1", "2"]):
        assert cell(classes, label, "precision") == f"{s.class_precision[i]:.4f}"
        assert cell(classes, label, "recall") == f"{s.class_recall[i]:.4f}"
        assert cell(classes, label, "F1") == f"{s.class_fbeta[i]:.4f}"
        assert cell(classes, label, "support") == str(int(s.support[i]))
    assert any("Theorem 3" in p for p in parsed.paragraphs)


def test_text_of_every_result_is_its_notebook_view():
    """One description, two renderings: str() of each result shows the same
    tables, rows and notes as its notebook view (rendered as text)."""
    from sklearn.datasets import load_iris
    from sklearn.model_selection import GridSearchCV
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_macrof1 import analyze_search, make_macro_f1_scoring

    summary = fbeta_summary(Y_TRUE, Y_A)
    text = assert_text_shows_the_notebook_view(summary)
    assert text.startswith("macro average, beta=1: 3 classes (multiclass)\n")
    assert f"{summary.averaged_fbeta:.4f}" in text_rows(text)[3]
    per_class = fbeta_summary(Y_TRUE, Y_A, beta=0.5, average=None)
    text = assert_text_shows_the_notebook_view(per_class)
    assert text.startswith("per class (average=None, beta=0.5)\n")
    assert text_rows(text)[1] == ["class", "precision", "recall", "F0.5"] + [
        "F0.5 of P and R",
        "support",
    ]
    assert_text_shows_the_notebook_view(fbeta_summary(Y_TRUE, Y_A, average="micro"))
    assert_text_shows_the_notebook_view(summary.gap_attribution())
    assert_text_shows_the_notebook_view(
        compare_classifiers(Y_TRUE, Y_A, Y_B, method="bootstrap", n_resamples=99)
    )
    X, y = load_iris(return_X_y=True)
    search = GridSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 2, 3]},
        scoring=make_macro_f1_scoring(),
        refit=False,
        cv=3,
    ).fit(X, y)
    analysis = analyze_search(search)
    text = assert_text_shows_the_notebook_view(analysis)
    assert " ".join(analysis.statement.split()) in " ".join(text.split())
    assert text.startswith(  # what was compared, as the former text said
        "search analysis: 3 candidates, 3 folds (macro, beta=1; metrics "
        "'averaged_f1', 'f1_of_averages')\n"
    )


def test_text_of_one_class_and_of_a_table_without_rows():
    text = str(fbeta_summary([0, 0], [0, 0]))
    assert text.startswith("macro average, beta=1: 1 class (binary)\n")
    assert "its supremum for 1 class (" in " ".join(text.split())
    lines = str(fbeta_summary([0, 1], [0, 1]).gap_attribution()).splitlines()
    pairs = lines.index("largest class pairs")
    assert lines[pairs + 1 :] == [
        "pair   contribution  share",
        "",
        "none: the gap is 0",
    ]


def test_text_of_several_classifiers_lists_every_pair_of_up_to_ten():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 300)
    p = np.where(rng.random(300) < 0.7, y, rng.integers(0, 3, 300))
    many = compare_classifiers(y, *[np.roll(p, i) for i in range(6)])
    text = assert_text_shows_the_notebook_view(many)
    assert len(parse(many._repr_html_()).tables[0]["rows"]) == 30  # 15 pairs
    assert "more rows" not in text
    eleven = compare_classifiers(y, *[np.roll(p, i) for i in range(11)])  # 55 pairs
    text = assert_text_shows_the_notebook_view(eleven)
    assert "... and 20 more rows (pairs and formulas): comparison.to_frame() has" in (
        text
    )


def test_text_notes_keep_labels_whole():
    """A note is wrapped at spaces only: labels with hyphens, and one longer
    than a line, stay whole in the text as in the notebook's paragraph."""
    y = np.repeat([0, 1, 1, 2, 2], [100, 10000, 100, 50, 30])
    p = np.repeat([0, 0, 1, 2, 0], [100, 10000, 100, 50, 30])
    long = "-".join(["partition"] * 12)  # 119 characters, no space
    for names in (["xx-fiction", "science-fiction", "non-fiction"], [long, "b", "c"]):
        labels = np.array(names)
        summary = fbeta_summary(labels[y], labels[p])
        text = assert_text_shows_the_notebook_view(summary)
        note = [line for line in text.splitlines() if "contributors" in line]
        assert note and note[0].startswith("largest gap contributors: ")
        for name in names:
            assert any(name in line.split() for line in text.splitlines())
    assert any(len(line) > 88 for line in text.splitlines())  # the long label


def test_summary_html_escapes_labels_and_shortens_many_classes():
    y = np.array([f"<c{i}>" for i in range(30)] * 2)
    s = fbeta_summary(y, np.roll(y, 1))
    html = s._repr_html_()
    assert "<c0>" not in html and "&lt;c0&gt;" in html
    parsed = parse(html)
    assert len(parsed.tables[1]["rows"]) == 20
    assert any("10 more classes" in p for p in parsed.paragraphs)


def test_the_html_note_of_one_row_left_out_is_singular():
    y = np.arange(21).repeat(2)
    html = fbeta_summary(y, np.roll(y, 1))._repr_html_()
    assert "... and 1 more class: summary.to_frame() has every row." in html


def test_views_of_many_classes_write_only_the_rows_they_show():
    """str() and the notebook view of a summary of 200,000 classes write the
    text of the 20 rows they show, not of every label (a print of a summary of
    1,000,000 classes made 1,000,000 strings); to_frame() names every class."""
    import tracemalloc

    k = 200_000
    y = np.arange(k) * 3 - 7  # negative labels too
    p = np.roll(y, 1)
    p[::2] = y[::2]
    s = fbeta_summary(y, p, average=None, zero_division=0)
    tracemalloc.start()
    try:
        text, page = str(s), s._repr_html_()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 24 * k  # a copy or two of k numbers, no k Python strings
    rows = text_rows(assert_text_shows_the_notebook_view(s))
    assert [r[0] for r in rows[3:23]] == [str(c) for c in y[:20]]
    assert "-7" in page and "... and 199980 more classes" in text
    assert s.to_frame().index[:3].tolist() == ["-7", "-4", "-1"]


def test_attribution_view_shows_the_largest_classes_first_ties_in_order():
    """The class table of an attribution shows the 20 largest contributions,
    largest first, ties in class order (as a stable sort of every class)."""
    from sklearn_macrof1 import MacroF1Counts

    # classes 0..41 in threes of equal (P, R): 14 values, each three times
    m = np.diag(np.repeat(np.arange(14, 0, -1), 3) * 5 + 50)
    m[np.arange(42), (np.arange(42) + 3) % 42] += np.tile([1, 1, 1, 30, 30, 30], 7)
    counts = MacroF1Counts.from_confusion_matrix(m, rows="true")
    attribution = fbeta_summary(counts).gap_attribution()
    values = attribution.class_contributions
    expected = np.argsort(-values, kind="stable")[:21]
    assert values[expected[19]] == values[expected[20]]  # a tie across row 20
    expected = expected[:20]
    shown = [r[0] for r in text_rows(str(attribution))[3:23]]
    assert shown == [str(attribution.labels[i]) for i in expected]
    classes, _ = parse(attribution._repr_html_()).tables
    assert [r[0] for r in classes["rows"]] == shown


def test_html_of_10000_classes_shows_20_rows_and_counts_the_rest():
    """A notebook view of many classes stays readable: every long table shows
    its first MAX_HTML_ROWS rows and says how many it left out (to_frame()
    keeps every row)."""
    from sklearn_macrof1 import MacroF1Accumulator
    from sklearn_macrof1._present._table import (
        MAX_HTML_ROWS,  # the limit the views share
    )

    assert MAX_HTML_ROWS == 20
    rng = np.random.default_rng(0)
    y = np.concatenate([np.arange(10_000), rng.integers(0, 10_000, 50_000)])
    p = np.where(rng.random(60_000) < 0.7, y, rng.integers(0, 10_000, 60_000))
    s = fbeta_summary(y, p, zero_division=0)
    assert s.n_classes == 10_000
    parsed = parse(s._repr_html_())
    main, classes = parsed.tables
    assert len(main["rows"]) == 1 and len(classes["rows"]) == 20
    assert [r[0] for r in classes["rows"]] == [str(c) for c in s.labels[:20]]
    note = "... and 9980 more classes: summary.to_frame() has every row."
    assert note in parsed.paragraphs
    text = assert_text_shows_the_notebook_view(s)  # the text is as short
    assert note in text.splitlines() and len(text.splitlines()) < 40
    assert len(s.to_frame()) == 10_001

    assert any(
        "not computed for a view of more than 1000" in p for p in parsed.paragraphs
    )

    small = fbeta_summary(y % 300, p % 300)
    attribution = small.gap_attribution()
    parsed = parse(attribution._repr_html_())
    classes, pairs = parsed.tables
    assert len(classes["rows"]) == 20 and len(pairs["rows"]) == 5
    top = [str(c) for c, _ in attribution.top_classes(20)]
    assert [r[0] for r in classes["rows"]] == top  # the largest first
    assert "... and 280 more classes: attribution.to_frame() has every row." in (
        parsed.paragraphs
    )
    text = assert_text_shows_the_notebook_view(attribution)
    assert [r[0] for r in text_rows(text)[3:23]] == top  # the largest first
    assert len(attribution.to_frame()) == 300

    acc = MacroF1Accumulator()
    acc.update(y, p)
    head, main, classes = parse(acc._repr_html_()).tables
    assert cell(head, "counted", "classes") == "10000"
    assert len(classes["rows"]) == 20


def test_html_of_many_pairs_is_shortened():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 300)
    preds = [
        np.where(rng.random(300) < 0.8, y, rng.integers(0, 3, 300)) for _ in range(6)
    ]
    preds += [np.roll(preds[0], i) for i in range(1, 6)]  # 11: 55 pairs
    many = compare_classifiers(y, *preds)
    parsed = parse(many._repr_html_())
    (table,) = parsed.tables
    assert len(table["rows"]) == 90  # of 55 pairs x 2 formulas
    assert (
        "... and 20 more rows (pairs and formulas): comparison.to_frame() has "
        "every row." in parsed.paragraphs
    )
    assert len(many.to_frame()) == 110


def test_summary_html_for_weighted_has_no_gap_bound_and_none_is_per_class():
    s = fbeta_summary(Y_TRUE, Y_A, average="weighted")
    main = parse(s._repr_html_()).tables[0]
    assert "gap bound" not in main["header"]
    assert cell(main, "weighted", "F1 of averages") == f"{s.fbeta_of_averages:.4f}"
    s = fbeta_summary(Y_TRUE, Y_A, average=None, zero_division=np.nan)
    (classes,) = parse(s._repr_html_()).tables
    assert "F1 of P and R" in classes["header"]


def test_summary_repr_is_one_line_without_array_dumps():
    s = fbeta_summary(Y_TRUE, Y_A)
    text = repr(s)
    assert "\n" not in text and "array(" not in text
    assert text.startswith("FBetaSummary(average='macro', beta=1, n_classes=3")
    assert f"gap={s.gap:.4g}" in text
    many = fbeta_summary(np.arange(40), np.arange(40), average=None)
    assert "<40 values>" in repr(many)


def test_summary_to_frame_rows_and_columns_equal_the_attributes():
    s = fbeta_summary(Y_TRUE, Y_A)
    df = s.to_frame()
    assert list(df.index) == ["0", "1", "2", "macro avg"]
    assert list(df.columns) == [
        "precision",
        "recall",
        "f1-score",
        "support",
        "f1-of-averages",
        "gap",
        "gap-bound",
    ]
    np.testing.assert_array_equal(df["precision"].iloc[:3], s.class_precision)
    np.testing.assert_array_equal(df["f1-score"].iloc[:3], s.class_fbeta)
    row = df.loc["macro avg"]
    assert row["f1-score"] == s.averaged_fbeta
    assert row["f1-of-averages"] == s.fbeta_of_averages
    assert row["gap"] == s.gap
    assert row["gap-bound"] == s.gap_bound
    assert row["support"] == 200
    # a class row has no value of the average's columns
    assert df.loc["0", ["f1-of-averages", "gap", "gap-bound"]].isna().all()
    assert all(df[c].dtype == np.float64 for c in df.columns)


def test_summary_to_frame_with_intervals_and_beta():
    s = fbeta_summary(Y_TRUE, Y_A, beta=2.0, average="weighted")
    df = s.to_frame(confidence=0.9)
    ci = s.confidence_interval(confidence=0.9)
    row = df.loc["weighted avg"]
    assert row["f2-score"] == s.averaged_fbeta
    assert row["f2-of-averages"] == s.fbeta_of_averages
    assert row["f2-score-ci-low"] == ci.averaged_fbeta.low
    assert row["f2-of-averages-ci-high"] == ci.fbeta_of_averages.high
    assert "gap-bound" not in df.columns
    assert df.loc["0", "f2-score-ci-low"] != df.loc["0", "f2-score-ci-low"]  # nan


def test_summary_equality_and_hash_do_not_raise():
    s1 = fbeta_summary(Y_TRUE, Y_A)
    s2 = fbeta_summary(list(Y_TRUE), list(Y_A))
    other = fbeta_summary(Y_TRUE, Y_B)
    assert s1 == s2 and not (s1 != s2)
    assert hash(s1) == hash(s2)
    assert s1 != other
    assert s1 != "not a summary"
    assert len({s1, s2, other}) == 2
    # nan is equal to nan, field by field
    n1 = fbeta_summary([0, 1], [0, 0], zero_division=np.nan, average=None)
    n2 = fbeta_summary([0, 1], [0, 0], zero_division=np.nan, average=None)
    assert np.isnan(n1.class_precision).any()
    assert n1 == n2 and hash(n1) == hash(n2)
    assert pickle.loads(pickle.dumps(s1)) == s1


# ---------------------------------------------------------------- FBetaInterval


@pytest.mark.parametrize(("confidence", "shown"), [(0.975, "97.5%"), (0.999, "99.9%")])
def test_interval_views_name_the_level_as_given(confidence, shown):
    ci = fbeta_confidence_interval(Y_TRUE, Y_A, confidence=confidence)
    title = f"{shown} confidence intervals (macro average, beta=1)"
    assert str(ci).startswith(title + "\n")
    (table,) = parse(ci._repr_html_()).tables
    assert table["caption"] == title


@pytest.mark.parametrize(("confidence", "shown"), [(0.975, "97.5%"), (0.999, "99.9%")])
def test_comparison_views_name_the_level_and_error_rate_as_given(confidence, shown):
    """Not rounded to a whole percent: 97.5% intervals, significance at 2.5%."""
    c = compare_classifiers(Y_TRUE, Y_A, Y_B, confidence=confidence)
    (table,) = parse(c._repr_html_()).tables
    assert f"{shown} CI low" in table["header"]
    alpha = f"{(1 - confidence) * 100:g}%"
    assert alpha in ("2.5%", "0.1%")
    assert f"significant at {alpha})" in c.statement
    many = compare_classifiers(Y_TRUE, Y_A, Y_B, Y_B[::-1], confidence=confidence)
    assert f"family-wise error rate {alpha});" in " ".join(str(many).split())
    assert f"{shown} CI low" in parse(many._repr_html_()).tables[0]["header"]


def test_interval_views():
    ci = fbeta_confidence_interval(Y_TRUE, Y_A, method="delta")
    text = repr(ci)
    assert "\n" not in text and text.startswith("FBetaInterval(average='macro'")
    assert str(ci.averaged_fbeta) in text
    (table,) = parse(ci._repr_html_()).tables
    assert table["header"] == ["score", "estimate", "low", "high", "std error"]
    text = assert_text_shows_the_notebook_view(ci)
    assert text.startswith("95% confidence intervals (macro average, beta=1)\n")
    assert "delta method, n=200 samples." in text
    assert table["caption"].startswith("95% confidence intervals")
    for row, s in (
        ("averaged F1", ci.averaged_fbeta),
        ("F1 of averages", ci.fbeta_of_averages),
    ):
        assert cell(table, row, "estimate") == f"{s.estimate:.4f}"
        assert cell(table, row, "low") == f"{s.low:.4f}"
        assert cell(table, row, "high") == f"{s.high:.4f}"
    df = ci.to_frame()
    assert list(df.index) == ["averaged_fbeta", "fbeta_of_averages"]
    assert df.loc["averaged_fbeta", "low"] == ci.averaged_fbeta.low
    assert df.loc["fbeta_of_averages", "std_error"] == ci.fbeta_of_averages.std_error
    assert (df["method"] == "delta").all() and (df["confidence"] == 0.95).all()


def test_interval_equality_and_hash_treat_nan_as_equal():
    a = ScoreInterval(math.nan, math.nan, math.nan, math.nan)
    b = ScoreInterval(float("nan"), float("nan"), float("nan"), float("nan"))
    assert a == b and hash(a) == hash(b)
    assert ScoreInterval(0.5, 0.4, 0.6, 0.05) != a
    assert ScoreInterval(0.0, 0.0, 0.0, 0.0) == ScoreInterval(-0.0, 0, 0, 0)
    assert hash(ScoreInterval(0.0, 0.0, 0.0, 0.0)) == hash(ScoreInterval(-0.0, 0, 0, 0))
    c1 = fbeta_confidence_interval(Y_TRUE, Y_A, method="bootstrap", random_state=0)
    c2 = fbeta_confidence_interval(Y_TRUE, Y_A, method="bootstrap", random_state=0)
    assert isinstance(c1, FBetaInterval)
    assert c1 == c2 and hash(c1) == hash(c2)
    assert repr(a) == "ScoreInterval(estimate=nan, low=nan, high=nan, std_error=nan)"


# ----------------------------------------------------------- ClassifierComparison


def test_comparison_names_appear_everywhere():
    c = compare_classifiers(Y_TRUE, Y_A, Y_B, names=("lr", "gnb"))
    assert c.names == ("lr", "gnb")
    text = assert_text_shows_the_notebook_view(c)
    assert text.startswith("lr vs gnb (macro average, beta=1)\n")
    assert "lr - gnb" in text and "A vs B" not in text
    assert "prefers lr" in c.statement
    assert repr(c).startswith("ClassifierComparison('lr' vs 'gnb'")
    parsed = parse(c._repr_html_())
    (table,) = parsed.tables
    assert table["header"][1:4] == ["lr", "gnb", "lr - gnb"]
    d = c.averaged_fbeta
    assert cell(table, "averaged F1", "lr") == f"{d.score_a:.4f}"
    assert cell(table, "averaged F1", "gnb") == f"{d.score_b:.4f}"
    assert cell(table, "averaged F1", "lr - gnb") == f"{d.difference:.4f}"
    assert cell(table, "averaged F1", "95% CI low") == f"{d.low:.4f}"
    assert c.statement in parsed.paragraphs
    df = c.to_frame()
    assert (df["model_a"] == "lr").all() and (df["model_b"] == "gnb").all()
    assert df.loc["fbeta_of_averages", "difference"] == c.fbeta_of_averages.difference
    assert df.loc["averaged_fbeta", "p_value"] == d.p_value
    assert np.isnan(df["p_resolution"]).all()  # jackknife: no floor
    # the t reference's degrees of freedom: what the interval was drawn from
    assert df.loc["averaged_fbeta", "df"] == d.df and d.df > 1
    delta = compare_classifiers(Y_TRUE, Y_A, Y_B, names=("lr", "gnb"), method="delta")
    assert np.isnan(delta.to_frame()["df"]).all()
    many = compare_classifiers(Y_TRUE, Y_A, Y_B, Y_A, names=("lr", "gnb", "svc"))
    frame = many.to_frame()
    assert frame["df"].tolist() == [
        getattr(c, key).df
        for c in many.comparisons
        for key in ("averaged_fbeta", "fbeta_of_averages")
    ]


def test_comparison_default_names_are_a_and_b():
    c = compare_classifiers(Y_TRUE, Y_A, Y_B)
    assert c.names == ("A", "B")
    assert str(c).startswith("A vs B")


@pytest.mark.parametrize(
    "names", ["ab", ("lr",), ("a", "b", "c"), 3, ("x", "x")], ids=repr
)
def test_comparison_bad_names(names):
    with pytest.raises(ValueError, match="'names' parameter of compare_classifiers"):
        compare_classifiers(Y_TRUE, Y_A, Y_B, names=names)


def test_bootstrap_p_values_state_their_resolution():
    y = np.repeat([0, 1, 2], 300)
    a = y.copy()
    b = np.where(np.arange(y.size) % 3 == 0, (y + 1) % 3, y)
    c = compare_classifiers(y, a, b, method="bootstrap", n_resamples=99, random_state=0)
    d = c.averaged_fbeta
    assert d.p_resolution == pytest.approx(2 / 100)
    assert d.p_value == pytest.approx(d.p_resolution)  # at the floor
    assert d.p_value_text == "< 0.02"
    assert "p < 0.02" in str(c) and "p < 0.02" in c.statement
    assert any("cannot resolve" in p for p in parse(c._repr_html_()).paragraphs)
    assert c.to_frame()["p_resolution"].tolist() == [d.p_resolution] * 2
    delta = compare_classifiers(y, a, b)
    assert delta.averaged_fbeta.p_resolution is None
    assert not delta.averaged_fbeta.p_value_text.startswith("<")


def test_format_p_value():
    assert format_p_value(0.5) == "0.5000"
    assert format_p_value(3e-7) == "3.0e-07"
    assert format_p_value(0.002, 0.002) == "< 0.002"
    assert format_p_value(0.004, 0.002) == "0.0040"
    assert format_p_value(math.nan) == "nan"


def test_comparison_equality_and_hash():
    c1 = compare_classifiers(Y_TRUE, Y_A, Y_B, names=("x", "y"))
    c2 = compare_classifiers(Y_TRUE, Y_A, Y_B, names=("x", "y"))
    c3 = compare_classifiers(Y_TRUE, Y_A, Y_B)
    assert isinstance(c1, ClassifierComparison)
    assert isinstance(c1.averaged_fbeta, ScoreDifference)
    assert c1 == c2 and hash(c1) == hash(c2)
    assert c1 != c3  # the names differ
    assert len({c1, c2, c3}) == 2


# -------------------------------------------------------------------- progress


def test_no_progress_by_default(capsys):
    fbeta_confidence_interval(Y_TRUE, Y_A, method="bootstrap", random_state=0)
    compare_classifiers(Y_TRUE, Y_A, Y_B, method="bootstrap", random_state=0)
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_comparison_progress_on_stderr(capsys):
    compare_classifiers(
        Y_TRUE, Y_A, Y_B, method="bootstrap", n_resamples=200, random_state=0,
        verbose=1,
    )  # fmt: skip
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert lines[0] == "[compare_classifiers] paired bootstrap: 200 resamples"
    assert lines[-1].startswith(
        "[compare_classifiers] paired bootstrap: 200/200 resamples (100%)"
    )
    assert len(lines) >= 3
    # verbose=2: one line per block of resamples
    compare_classifiers(
        Y_TRUE, Y_A, Y_B, method="bootstrap", n_resamples=200, random_state=0,
        verbose=2,
    )  # fmt: skip
    assert len(capsys.readouterr().err.splitlines()) == 1 + 4  # 64, 128, 192, 200


def test_interval_progress_on_stderr(capsys):
    # the samples are resampled (sample_weight): progress per block
    fbeta_confidence_interval(
        Y_TRUE, Y_A, method="bootstrap", n_resamples=130, random_state=0,
        sample_weight=np.ones(len(Y_TRUE)), verbose=2,
    )  # fmt: skip
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "[fbeta_confidence_interval] bootstrap: 130 resamples"
    assert [line.split(": ")[1].split(" ")[0] for line in lines[1:]] == [
        "64/130",
        "128/130",
        "130/130",
    ]
    # the cells are resampled at once: start and end
    s = fbeta_summary(Y_TRUE, Y_A)
    s.confidence_interval(method="bootstrap", random_state=0, verbose=1)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("[FBetaSummary.confidence_interval] bootstrap")
    assert "1000/1000" in lines[-1]
    # the delta method has nothing to report
    fbeta_confidence_interval(Y_TRUE, Y_A, method="delta", verbose=1)
    assert capsys.readouterr().err == ""
    # the default, the posterior here, reports its draws
    fbeta_confidence_interval(Y_TRUE, Y_A, verbose=1)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "[fbeta_confidence_interval] posterior: 1000 resamples"


@pytest.mark.parametrize("verbose", [-1, 1.5, "yes", None])
def test_bad_verbose(verbose):
    with pytest.raises(ValueError, match="'verbose' parameter of compare_classifiers"):
        compare_classifiers(Y_TRUE, Y_A, Y_B, verbose=verbose)
    with pytest.raises(ValueError, match="'verbose' parameter of fbeta_confidence"):
        fbeta_confidence_interval(Y_TRUE, Y_A, verbose=verbose)


def test_frames_need_pandas(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pandas", None)
    s = fbeta_summary(Y_TRUE, Y_A)
    hint = (
        "FBetaSummary.to_frame returns a pandas.DataFrame and needs pandas, which is "
        "not installed. "
        "Install it with `pip install pandas` or, from the repository root of "
        'sklearn-macrof1, `pip install ".[pandas]"`.'
    )
    with pytest.raises(ImportError, match=re.escape(hint)):
        s.to_frame()
    assert s._repr_html_().startswith("<div")  # HTML needs no pandas
    assert isinstance(pd, object)


# ---------------------------------------------------------------------- report


@pytest.mark.parametrize("confidence", [None, 0.9])
def test_report_dict_loads_into_pandas(confidence):
    from sklearn_macrof1 import classification_report

    report = classification_report(Y_TRUE, Y_A, output_dict=True, confidence=confidence)
    df = pd.DataFrame(report).T
    assert {"0", "1", "2", "accuracy", "macro avg", "weighted avg"} <= set(df.index)
    assert (
        df.loc["macro avg", "f1-of-averages"] == report["macro avg"]["f1-of-averages"]
    )
    if confidence is not None:
        assert (
            df.loc["accuracy-ci", "f1-score-ci"] == report["accuracy-ci"]["f1-score-ci"]
        )
        # the accuracy interval is a row of its own, with nothing else in it
        assert df.loc["accuracy-ci"].drop("f1-score-ci").isna().all()


@pytest.mark.parametrize("confidence", [None, 0.9])
def test_report_as_frame_puts_each_value_in_its_own_row(confidence):
    from sklearn_macrof1 import classification_report

    report = classification_report(Y_TRUE, Y_A, output_dict=True, confidence=confidence)
    df = classification_report(Y_TRUE, Y_A, as_frame=True, confidence=confidence)
    assert list(df.index) == ["0", "1", "2", "accuracy", "macro avg", "weighted avg"]
    for row in ("0", "1", "2", "macro avg", "weighted avg"):
        for key, value in report[row].items():
            if key.endswith("-ci"):
                assert df.loc[row, f"{key}-low"] == value[0]
                assert df.loc[row, f"{key}-high"] == value[1]
            else:
                assert df.loc[row, key] == value
        present = set(report[row]) | {
            f"{k}-{end}" for k in report[row] if k.endswith("-ci")
            for end in ("low", "high")
        }  # fmt: skip
        for column in df.columns:
            if column not in present:
                assert np.isnan(df.loc[row, column]), (row, column)
    accuracy = df.loc["accuracy"]
    assert accuracy["f1-score"] == report["accuracy"]
    assert accuracy["support"] == 200
    expected = {"f1-score", "support"}
    if confidence is not None:
        low, high = report["accuracy-ci"]["f1-score-ci"]
        assert (accuracy["f1-score-ci-low"], accuracy["f1-score-ci-high"]) == (
            low,
            high,
        )
        expected |= {"f1-score-ci-low", "f1-score-ci-high"}
    assert set(accuracy.dropna().index) == expected
    assert all(df[c].dtype == np.float64 for c in df.columns)
    assert list(df.columns[:7]) == [
        "precision", "recall", "f1-score", "support", "f1-of-averages", "gap",
        "gap-bound",
    ]  # fmt: skip


def test_report_from_confusion_matrix_as_frame_and_bad_options():
    from sklearn_macrof1 import MacroF1Counts, classification_report

    df = classification_report(
        MacroF1Counts.from_confusion_matrix([[100, 10000], [0, 100]], rows="predicted"),
        as_frame=True,
    )
    assert df.loc["macro avg", "gap"] == pytest.approx(0.485342651, abs=1e-9)
    with pytest.raises(ValueError, match="output_dict=True.*as_frame=True"):
        classification_report(Y_TRUE, Y_A, output_dict=True, as_frame=True)
    with pytest.raises(ValueError, match="'as_frame' parameter of classification"):
        classification_report(Y_TRUE, Y_A, as_frame="yes")


# ----------------------------------------------------------------- accumulator


def test_accumulator_views():
    from sklearn_macrof1 import MacroF1Accumulator, classification_report

    acc = MacroF1Accumulator()
    (head,) = parse(acc._repr_html_()).tables
    assert cell(head, "counted", "samples") == "0"
    acc.update(Y_TRUE[:100], Y_A[:100])
    acc.update(Y_TRUE[100:], Y_A[100:])
    parsed = parse(acc._repr_html_())
    head, main, classes = parsed.tables
    assert cell(head, "counted", "samples") == "200"
    assert cell(head, "counted", "classes") == "3"
    s = fbeta_summary(Y_TRUE, Y_A)
    assert cell(main, "macro", "averaged F1") == f"{s.averaged_fbeta:.4f}"
    assert cell(main, "macro", "F1 of averages") == f"{s.fbeta_of_averages:.4f}"
    pd.testing.assert_frame_equal(fbeta_summary(acc.counts).to_frame(), s.to_frame())
    pd.testing.assert_frame_equal(
        classification_report(acc.counts, as_frame=True),
        classification_report(Y_TRUE, Y_A, as_frame=True),
    )
    assert "\n" not in repr(acc)


# ------------------------------------------------------- several classifiers


def test_holm_adjustment():
    # Holm's step-down on hand-made p-values (nan included): a unit no
    # comparison reaches with chosen p-values
    from sklearn_macrof1._stats._comparison import holm

    np.testing.assert_allclose(holm([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06])
    np.testing.assert_allclose(holm([0.5, 0.6]), [1.0, 1.0])
    out = holm([0.02, np.nan, 0.01])
    np.testing.assert_allclose(out, [0.02, np.nan, 0.02])
    assert np.isnan(holm([np.nan])).all()


@pytest.mark.parametrize("method", ["delta", "bootstrap"])
def test_more_than_two_classifiers_gives_every_pair(method):
    from sklearn_macrof1 import MultipleComparison
    from sklearn_macrof1._stats._comparison import holm

    y_c = [0, 0, 1, 1, 2, 2, 1, 2] * 25
    kw = dict(method=method, n_resamples=200, random_state=0)
    many = compare_classifiers(Y_TRUE, Y_A, Y_B, y_c, names=("a", "b", "c"), **kw)
    assert isinstance(many, MultipleComparison)
    assert [c.names for c in many.comparisons] == [("a", "b"), ("a", "c"), ("b", "c")]
    # each pair is the two-classifier comparison (same resamples for delta)
    pair = compare_classifiers(Y_TRUE, Y_A, y_c, names=("a", "c"), method="delta")
    if method == "delta":
        assert many["a", "c"] == pair
    else:  # same point estimates; the bootstrap resamples are shared by all pairs
        assert many["a", "c"].averaged_fbeta.score_b == pair.averaged_fbeta.score_b
    np.testing.assert_array_equal(
        many.averaged_fbeta_p_holm,
        holm([c.averaged_fbeta.p_value for c in many.comparisons]),
    )
    assert all(
        h >= c.fbeta_of_averages.p_value
        for h, c in zip(many.fbeta_of_averages_p_holm, many.comparisons, strict=True)
    )
    with pytest.raises(KeyError, match="No comparison"):
        many["c", "a"]
    df = many.to_frame()
    assert len(df) == 6
    assert list(df["score"][:2]) == ["averaged_fbeta", "fbeta_of_averages"]
    assert df["p_holm"].tolist()[::2] == list(many.averaged_fbeta_p_holm)
    parsed = parse(many._repr_html_())
    (table,) = parsed.tables
    assert table["header"][-1] == "p (Holm)"
    assert len(table["rows"]) == 6
    assert any("Holm" in p for p in parsed.paragraphs)
    text = assert_text_shows_the_notebook_view(many)
    assert text.startswith("3 classifiers, every pair (macro average, beta=1)\n")
    assert repr(many).startswith("MultipleComparison(names=('a', 'b', 'c')")
    again = compare_classifiers(Y_TRUE, Y_A, Y_B, y_c, names=("a", "b", "c"), **kw)
    assert many == again and hash(many) == hash(again)


def test_default_names_for_several_classifiers_and_name_count():
    many = compare_classifiers(Y_TRUE, Y_A, Y_B, Y_A)
    assert many.names == ("A", "B", "C")
    with pytest.raises(ValueError, match="must name the 3 classifiers"):
        compare_classifiers(Y_TRUE, Y_A, Y_B, Y_A, names=("x", "y"))


def test_report_bootstrap_progress_covers_every_row(capsys):
    from sklearn_macrof1 import classification_report

    kw = dict(confidence=0.9, interval_method="bootstrap", n_resamples=100)
    weights = np.ones(200)  # the samples are resampled: progress per block
    quiet = classification_report(
        Y_TRUE, Y_A, random_state=0, sample_weight=weights, **kw
    )
    assert capsys.readouterr().err == ""
    loud = classification_report(
        Y_TRUE, Y_A, random_state=0, sample_weight=weights, verbose=2, **kw
    )
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "[classification_report] bootstrap: 300 resamples"
    assert lines[-1].startswith(
        "[classification_report] bootstrap: 300/300 resamples (100%)"
    )
    counts = [int(line.split(": ")[1].split("/")[0]) for line in lines[1:]]
    assert counts == sorted(counts) and len(counts) == 6  # 64, 100 per row
    assert loud == quiet  # progress changes nothing else
    with pytest.raises(ValueError, match="'verbose' parameter of classification_re"):
        classification_report(Y_TRUE, Y_A, verbose=-1)
