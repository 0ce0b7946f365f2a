"""Gap attribution: the Lemma's class-pair decomposition of the gap, generalised
to any beta and to the support-weighted average, summing to the direct gap."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from sklearn_macrof1 import (
    GapAttribution,
    MacroF1Counts,
    fbeta_summary,
)

# The O(k) class terms, the pair terms and the blockwise top pairs are units
# checked against each other here, below the GapAttribution that shows them.
from sklearn_macrof1._formulas._attribution import (
    MAX_PAIR_CLASSES,
    gap_class_terms,
    gap_pair_terms,
    top_gap_pairs,
)

TABLE_1 = [[100, 10000], [0, 100]]  # rows are predictions (the paper's orientation)


def test_table_1_one_pair_holds_the_whole_gap():
    att = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(
            TABLE_1, rows="predicted", labels=["a", "b"]
        )
    ).gap_attribution()
    assert att.gap == pytest.approx(0.485342651912250, abs=1e-12)
    assert att.direct_gap == pytest.approx(0.485342651912250, abs=1e-12)
    half = 0.485342651912250 / 2
    np.testing.assert_allclose(att.pair_contributions, [[0, half], [half, 0]])
    np.testing.assert_allclose(att.class_contributions, [half, half])
    assert att.top_pairs() == [("a", "b", pytest.approx(2 * half))]
    assert att.headline() == "largest gap contributors: a & b 0.4853 (100%)"
    # the same matrix read the other way round is a different classifier
    other = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(TABLE_1, rows="true")
    ).gap_attribution()
    assert other.gap == pytest.approx(0.485342651912250, abs=1e-12)
    np.testing.assert_allclose(other.class_precision, [1.0, 100 / 10100])


def test_table_2_balanced_errors_give_no_gap():
    att = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(
            [[100, 5000], [5000, 100]], rows="predicted"
        )
    ).gap_attribution()
    assert att.gap == 0.0
    assert att.top_pairs() == []
    assert att.headline() == "gap contributors: none (the gap is 0)"


def lemma_terms(p, r):
    """The Lemma's (x, y) summands, each over n * sum(P + R), written out."""
    n = len(p)
    total = sum(p[i] + r[i] for i in range(n) if p[i] + r[i] > 0)
    out = np.zeros((n, n))
    for x in range(n):
        for y in range(n):
            if p[x] + r[x] > 0 and p[y] + r[y] > 0:
                out[x, y] = (p[x] * r[y] - p[y] * r[x]) ** 2 / (
                    (p[x] + r[x]) * (p[y] + r[y])
                )
    return out / (n * total)


def test_macro_f1_table_is_the_lemma_term_by_term():
    m = np.array([[30, 5, 0, 2], [10, 40, 3, 0], [0, 20, 5, 1], [0, 0, 0, 0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = fbeta_summary(MacroF1Counts.from_confusion_matrix(m, rows="true"))
    att = s.gap_attribution()
    lemma = lemma_terms(s.class_precision, s.class_recall)
    np.testing.assert_allclose(att.pair_contributions, lemma, rtol=1e-12, atol=0)
    assert att.gap == pytest.approx(s.gap_closed_form, abs=1e-15)
    assert att.gap == pytest.approx(s.gap, abs=1e-12)
    # class 3 (no samples, P = R = 0) takes no share
    assert att.class_contributions[3] == 0


matrices = st.integers(2, 6).flatmap(
    lambda k: hnp.arrays(
        np.int64,
        (k, k),
        elements=st.one_of(st.just(0), st.integers(0, 60), st.integers(0, 5000)),
    )
)
float_matrices = st.integers(2, 5).flatmap(
    lambda k: hnp.arrays(
        np.float64,
        (k, k),
        elements=st.one_of(
            st.just(0.0),
            # weighted counts; subnormal ones (< 1e-308) are left out: the
            # scores themselves lose their precision there
            st.floats(1e-6, 1e4, allow_nan=False, allow_infinity=False),
        ),
    )
)
betas = st.one_of(
    st.sampled_from([1.0, 0.5, 2.0, 3.0]),
    st.floats(0.05, 20, allow_nan=False, allow_infinity=False),
)


def check_decomposition(m, beta, average, zero_division):
    if np.asarray(m).sum() == 0:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = fbeta_summary(
            MacroF1Counts.from_confusion_matrix(m, rows="true"),
            beta=beta,
            average=average,
            zero_division=zero_division,
        )
    att = s.gap_attribution()
    t = att.pair_contributions
    assert (t >= 0).all()
    np.testing.assert_array_equal(t, t.T)
    np.testing.assert_array_equal(np.diagonal(t), 0)
    # the decomposition sums to the direct difference of the two scores
    direct = s.fbeta_of_averages - s.averaged_fbeta
    assert abs(t.sum() - direct) <= 1e-12
    assert abs(att.class_contributions.sum() - direct) <= 1e-12
    # the closed form of the class contributions: the table's row sums
    assert att.gap == att.class_contributions.sum()
    assert abs(att.gap - t.sum()) <= 1e-12
    np.testing.assert_allclose(
        att.class_contributions, t.sum(axis=1), rtol=1e-9, atol=1e-15
    )
    if average == "macro" and beta == 1:
        assert abs(att.gap - s.gap_closed_form) <= 1e-12


@given(
    matrices,
    betas,
    st.sampled_from(["macro", "weighted"]),
    st.sampled_from(["warn", 0.0, 1.0]),
)
def test_decomposition_sums_to_the_gap(m, beta, average, zero_division):
    check_decomposition(m, beta, average, zero_division)


@given(float_matrices, betas, st.sampled_from(["macro", "weighted"]))
def test_decomposition_sums_to_the_gap_weighted_counts(m, beta, average):
    check_decomposition(m, beta, average, 0.0)


@given(
    st.integers(2, 5).flatmap(
        lambda k: st.tuples(
            hnp.arrays(np.int64, (60,), elements=st.integers(0, k - 1)),
            hnp.arrays(np.int64, (60,), elements=st.integers(0, k - 1)),
        )
    ),
    betas,
    st.sampled_from(["macro", "weighted"]),
)
def test_decomposition_from_labels_with_sample_weight(pair, beta, average):
    y_true, y_pred = pair
    w = np.linspace(0.2, 3.0, y_true.shape[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = fbeta_summary(y_true, y_pred, beta=beta, average=average, sample_weight=w)
    att = s.gap_attribution()
    assert abs(att.gap - (s.fbeta_of_averages - s.averaged_fbeta)) <= 1e-12


def test_multilabel_and_label_subsets():
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 2, (200, 4))
    y_pred = np.where(rng.random((200, 4)) < 0.3, 1 - y_true, y_true)
    y_pred[:, 0] = 1  # column 0 over-predicted: high recall, low precision
    s = fbeta_summary(y_true, y_pred, average="macro")
    att = s.gap_attribution()
    assert att.gap == pytest.approx(s.gap, abs=1e-12)
    assert att.top_classes(1)[0][0] == 0
    sub = fbeta_summary(y_true, y_pred, labels=[2, 0], average="weighted")
    att = sub.gap_attribution()
    assert att.labels.tolist() == [2, 0]
    assert att.gap == pytest.approx(sub.gap, abs=1e-12)


def test_beta_zero_and_infinity_have_no_gap():
    for beta in (0.0, np.inf):
        att = fbeta_summary(
            MacroF1Counts.from_confusion_matrix(TABLE_1, rows="predicted"), beta=beta
        ).gap_attribution()
        assert att.gap == 0.0
        assert att.direct_gap == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("beta", [1e10, 1e76, 1e78, 1e100, 1e153])
def test_huge_beta_attributes_its_gap_without_nan(beta):
    # (1 + b²) b² overflows a float from b = 1e77: the common factor must not
    rng = np.random.default_rng(4)
    y_true = rng.integers(0, 5, 300)
    y_pred = np.where(rng.random(300) < 0.6, y_true, rng.integers(0, 5, 300))
    summary = fbeta_summary(y_true, y_pred, beta=beta)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        att = summary.gap_attribution()
        pairs = att.top_pairs(3)
        text = str(att)
    assert np.isfinite(att.gap) and np.isfinite(att.class_contributions).all()
    assert np.isfinite(att.pair_contributions).all()
    assert att.gap == pytest.approx(summary.gap, abs=1e-12)
    assert all(np.isfinite(value) for _, _, value in pairs)
    assert "nan" not in text


@pytest.mark.parametrize("average", ["micro", "binary", "samples", None])
def test_other_averages_are_refused(average):
    if average == "samples":
        y = np.array([[1, 0], [0, 1], [1, 1]])
        s = fbeta_summary(y, y[::-1], average="samples")
    else:
        s = fbeta_summary([0, 1, 1, 0], [0, 1, 0, 0], average=average)
    with pytest.raises(ValueError, match="average='macro' and average='weighted'"):
        s.gap_attribution()
    if average in ("micro", None):
        with pytest.raises(ValueError, match="average"):
            fbeta_summary(
                MacroF1Counts.from_confusion_matrix([[1, 2], [3, 4]], rows="true"),
                average=average,
            ).gap_attribution()


def test_nan_zero_division_with_undefined_values_is_refused():
    m = [[5, 0, 0], [2, 3, 0], [0, 0, 0]]
    with pytest.raises(ValueError, match="zero_division"):
        fbeta_summary(
            MacroF1Counts.from_confusion_matrix(m, rows="true"), zero_division=np.nan
        ).gap_attribution()
    # without undefined values, nan changes nothing
    att = fbeta_summary(
        MacroF1Counts.from_confusion_matrix([[5, 1], [2, 3]], rows="true"),
        zero_division=np.nan,
    ).gap_attribution()
    assert att.gap > 0


def test_orientation_is_required():
    with pytest.raises(TypeError):
        fbeta_summary(MacroF1Counts.from_confusion_matrix(TABLE_1)).gap_attribution()  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="rows must say"):
        fbeta_summary(
            MacroF1Counts.from_confusion_matrix(TABLE_1, rows="gold")
        ).gap_attribution()


def test_views():
    m = [[50, 10, 0], [0, 30, 20], [5, 0, 40]]
    att = fbeta_summary(
        MacroF1Counts.from_confusion_matrix(m, rows="true", labels=["x", "y", "z"])
    ).gap_attribution()
    assert isinstance(att, GapAttribution)
    text = str(att)
    assert text.splitlines()[0].endswith(f"gap {att.gap:.6f}")
    lines = text.splitlines()
    assert "largest class pairs" in lines
    top = lines.index("largest class pairs")
    (x, y, v), *_ = att.top_pairs(1)
    assert lines[top + 3].split() == [f"{x}", "&", f"{y}", f"{v:.4f}"] + [
        f"{v / att.gap:.0%}"
    ]
    assert lines[3].split()[0] == str(att.top_classes(1)[0][0])  # largest first
    assert repr(att).startswith("GapAttribution(average='macro'")
    pairs = att.top_pairs(10)
    assert [p[2] for p in pairs] == sorted((p[2] for p in pairs), reverse=True)
    assert sum(p[2] for p in pairs) == pytest.approx(att.gap, abs=1e-15)
    html = att._repr_html_()
    assert html.count("<tr>") == 4 + 4 and html.count("<table>") == 2
    assert "<th>x &amp; y</th>" in html or "<th>y &amp; z</th>" in html
    pd = pytest.importorskip("pandas")
    frame = att.to_frame()
    assert list(frame.columns) == ["precision", "recall", "weight", "contribution"] + [
        "share"
    ]
    assert frame.index.tolist() == ["x", "y", "z"]
    assert frame["share"].sum() == pytest.approx(1.0)
    by_pair = att.to_frame(by="pair")
    assert isinstance(by_pair, pd.DataFrame)
    assert by_pair["contribution"].sum() == pytest.approx(att.gap)
    with pytest.raises(ValueError, match="by must be"):
        att.to_frame(by="classes")
    # result objects compare without raising
    assert (
        att
        != fbeta_summary(
            MacroF1Counts.from_confusion_matrix(m, rows="true")
        ).gap_attribution()
    )
    assert att == att


def test_report_cli_and_notebook_name_the_largest_pairs():
    from _program import macrof1

    from sklearn_macrof1 import (
        classification_report,
    )

    text = classification_report(
        MacroF1Counts.from_confusion_matrix(
            TABLE_1, rows="predicted", labels=["a", "b"]
        ),
        digits=4,
    )
    assert text.rstrip("\n").splitlines()[-1] == "gap by pair:    a & b 0.4853 (100%)"
    # pairs named by target names, largest first, shares of the macro gap
    y_true = ["x", "x", "y", "y", "z", "z", "z"]
    y_pred = ["x", "y", "y", "y", "z", "x", "z"]
    s = fbeta_summary(y_true, y_pred)
    att = s.gap_attribution()
    line = classification_report(
        y_true, y_pred, target_names=["X", "Y", "Z"]
    ).splitlines()[-1]
    (x, y, v), *_ = att.top_pairs(1)
    assert line.startswith(f"gap by pair:    {x.upper()} & {y.upper()} {v:.4f} (")
    # no line when there is no gap, nor in the dict output
    balanced = classification_report(
        MacroF1Counts.from_confusion_matrix(
            [[100, 5000], [5000, 100]], rows="predicted"
        )
    )
    assert "gap by pair" not in balanced
    report = classification_report(y_true, y_pred, output_dict=True)
    assert "gap by pair" not in str(report)
    # the notebook view of the summary
    assert "largest gap contributors" in s._repr_html_()
    # the CLI: the report's line, and the summary's own for another average
    status, out, _ = macrof1(["matrix", "2", "100", "10000", "0", "100"])
    assert status == 0
    assert "gap by pair:    0 & 1 0.4853 (100%)" in out
    args = ["matrix", "3", "30", "5", "0", "10", "40", "3", "0", "20", "5"]
    status, out, _ = macrof1([*args, "--average", "weighted", "--beta", "2"])
    assert status == 0
    assert out.splitlines()[-1].startswith("largest gap contributors: 1 & 2 ")


def test_display_joins_the_largest_gap_pairs():
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    from sklearn_macrof1 import MacroF1Display

    y_true = [0, 0, 0, 1, 1, 2, 2, 2, 2]
    y_pred = [0, 1, 1, 1, 1, 2, 2, 2, 0]
    disp = MacroF1Display.from_predictions(y_true, y_pred)
    att = fbeta_summary(y_true, y_pred).gap_attribution()
    _, ax = plt.subplots()
    disp.plot(ax=ax, gap_pairs=2)
    assert len(disp.gap_pair_lines_) == 2
    (x, y, v), _ = att.top_pairs(2)
    first = disp.gap_pair_lines_[0]
    assert first.get_label().startswith(f"largest gap pairs: {x} & {y} ")
    np.testing.assert_allclose(
        sorted(first.get_xdata()), sorted(att.class_recall[[x, y]])
    )
    assert first.get_label() in [t.get_text() for t in ax.get_legend().get_texts()]
    disp.plot(ax=ax)  # the default draws none
    assert disp.gap_pair_lines_ == []
    with pytest.raises(ValueError, match="gap_pairs must be"):
        disp.plot(ax=ax, gap_pairs=-1)
    plt.close("all")


def _random_ratios(rng, k, near_equal=False):
    p = rng.random(k)
    r = p * (1 + 1e-6 * rng.standard_normal(k)) if near_equal else rng.random(k)
    p[rng.random(k) < 0.1] = 0.0
    w = rng.random(k)
    return p, np.clip(r, 0, 1), w / w.sum()


@pytest.mark.parametrize("near_equal", [False, True])
@pytest.mark.parametrize("beta", [1.0, 0.5, 3.0])
def test_class_terms_closed_form_are_the_tables_row_sums(near_equal, beta):
    rng = np.random.default_rng(7)
    p, r, w = _random_ratios(rng, 400, near_equal)
    table = gap_pair_terms(p, r, w, beta)
    rows = gap_class_terms(p, r, w, beta)
    assert abs(rows.sum() - table.sum()) <= 1e-12
    np.testing.assert_allclose(rows, table.sum(axis=1), rtol=1e-9, atol=0)
    assert (rows[p + r == 0] == 0).all()


def test_top_pairs_block_by_block_equal_the_tables_largest(monkeypatch):
    import sklearn_macrof1._formulas._attribution as attribution

    rng = np.random.default_rng(3)
    p, r, w = _random_ratios(rng, 90)
    p[:10], r[:10] = 0.5, 0.25  # ties: ten classes alike
    table = gap_pair_terms(p, r, w, 1.0)
    x, y = np.triu_indices(90, k=1)
    values = table[x, y] * 2
    order = np.argsort(-values, kind="stable")
    order = order[values[order] > 0]
    monkeypatch.setattr(attribution, "_PAIR_BLOCK", 200)  # a few rows per block
    for n in (1, 7, 50, 10_000):
        tx, ty, tv = top_gap_pairs(p, r, w, 1.0, n)
        np.testing.assert_array_equal(tx, x[order[:n]])
        np.testing.assert_array_equal(ty, y[order[:n]])
        np.testing.assert_array_equal(tv, values[order[:n]])


def test_many_classes_name_classes_and_refuse_the_pair_table():
    rng = np.random.default_rng(0)
    k = MAX_PAIR_CLASSES + 1
    y_true = np.arange(k).repeat(3)
    y_pred = np.where(rng.random(3 * k) < 0.6, y_true, rng.integers(0, k, 3 * k))
    s = fbeta_summary(y_true, y_pred, zero_division=0.0)
    att = s.gap_attribution()
    assert abs(att.gap - s.gap) <= 1e-12
    with pytest.raises(ValueError, match=f"{k:,} x {k:,} = {k * k:,} values"):
        att.pair_contributions  # noqa: B018
    with pytest.raises(ValueError, match="top_pairs"):
        att.to_frame(by="pair")
    (label, value), *_ = att.top_classes(3)
    line = att.headline(3)
    assert line.startswith(f"largest gap contributors (classes): {label} {value:.4f}")
    assert "not listed above 2,048 classes" in str(att)
    (x, y, v), *_ = att.top_pairs(1)  # an explicit call still finds them
    assert v > 0 and x != y


def test_report_names_classes_above_the_pair_limit():
    from sklearn_macrof1 import classification_report

    k = MAX_PAIR_CLASSES + 1
    y_true = np.arange(k).repeat(2)
    y_pred = y_true.copy()
    y_pred[1::2] = 0  # class 0 over-predicted: it holds the largest share
    text = classification_report(y_true, y_pred, zero_division=0.0)
    last = text.rstrip("\n").splitlines()[-1]
    assert last.startswith("gap by class:   0 ")
    assert "&" not in last


@pytest.mark.parametrize("k", [3, 2_049])
def test_no_contributors_when_precision_equals_recall(k):
    """Perfect predictions (and any symmetric confusion matrix) have P = R in
    every class: no gap, every class contribution exactly 0, and no view
    names a class or a share."""
    y = np.arange(k).repeat(2)
    for y_pred in (y, np.roll(np.arange(k), 1).repeat(2)):  # perfect; a cycle
        s = fbeta_summary(y, y_pred)
        np.testing.assert_array_equal(s.class_precision, s.class_recall)
        att = s.gap_attribution()
        assert att.gap == 0.0
        assert not att.class_contributions.any()
        assert att.top_classes(3) == []
        assert att.headline() == "gap contributors: none (the gap is 0)"
        text = str(att)
        assert "%" not in text  # no share: every class shows "-"
        if k <= 2048:
            assert "none: the gap is 0" in text.splitlines()


def test_attributions_are_equal_by_value_and_hash_alike():
    y_true, y_pred = [0, 1, 2, 2, 1], [0, 2, 1, 2, 1]
    a = fbeta_summary(y_true, y_pred).gap_attribution()
    b = fbeta_summary(y_true, y_pred).gap_attribution()
    _ = a.pair_contributions  # read on one side only: not part of the value
    assert a == b and hash(a) == hash(b)
    assert a != fbeta_summary(y_true, y_pred, beta=2.0).gap_attribution()
    assert a != fbeta_summary(y_true, y_pred, average="weighted").gap_attribution()
    assert (a == "attribution") is False
