"""The gap between the two F-beta formulas as a sum over class pairs.

The reference paper's Lemma (Opitz & Burst, "Macro F1 and Macro F1") writes the
macro F1 gap as a sum of non-negative class-pair terms. The same algebra holds
for any weighted mean over classes and any beta. With class weights ``w_i``
(summing to 1: ``1/n`` for macro, ``support_i / sum(support)`` for weighted),
``a_i = b² P_i + R_i``, ``A = sum_i w_i a_i`` and ``F_i = (1+b²) P_i R_i / a_i``,

    F-beta of averages - averaged F-beta
        = (1+b²) P̄ R̄ / A - sum_x w_x F_x
        = (1+b²) / A * sum_{x,y} w_x w_y P_x (a_x R_y - a_y R_x) / a_x
        = (1+b²) b² / (2A) * sum_{x,y} w_x w_y (P_x R_y - P_y R_x)² / (a_x a_y)

(the last step symmetrises the (x, y) and (y, x) terms and uses
``a_x R_y - a_y R_x = b² (P_x R_y - P_y R_x)`` and
``P_x a_y - P_y a_x = P_x R_y - P_y R_x``). With ``w_i = 1/n`` and ``b = 1`` this
is the Lemma. Both sums run over classes with ``a_i > 0``; a class with
``P_i = R_i = 0`` adds nothing to either score's numerator and drops out.

The exact identity needs ``F_i = H_beta(P_i, R_i)`` for every class (true for
``zero_division`` 0, 1 or "warn") and one set of weights for P, R and F (false
where ``zero_division=nan`` leaves different classes out of each mean).
"""

from __future__ import annotations

import math

import numpy as np


def class_weights(support: np.ndarray, average: str) -> np.ndarray:
    """The weights of the per-class mean of ``average`` ("macro" or "weighted"),
    summing to 1 (the plain mean when every support is 0, as scikit-learn)."""
    k = support.shape[0]
    if average == "weighted":
        support = np.asarray(support, dtype=np.float64)
        total = float(support.sum())
        if total > 0:
            return support / total
    return np.full(k, 1.0 / k)


#: Largest number of classes whose k x k pair table is built, and whose largest
#: pairs the report and the views name (``k (k - 1) / 2`` terms: 2.1 million
#: at 2,048 classes, about 0.1 s). Above it the views name the classes that
#: contribute most; :func:`top_gap_pairs` still finds the largest pairs on an
#: explicit call (O(k²) time, bounded memory), and the whole table is refused.
MAX_PAIR_CLASSES = 2048

#: Terms computed per block by :func:`top_gap_pairs` (8 MiB of float64).
_PAIR_BLOCK = 1 << 20


def refuse_square(k: int, what: str, *, limit: int, instead: str) -> None:
    """Raise ``ValueError`` naming the size of a ``k x k`` float64 ``what``
    when ``k > limit``, before anything of that size is allocated."""
    if k > limit:
        cells = k * k
        raise ValueError(
            f"{what} of {k:,} classes would hold {k:,} x {k:,} = {cells:,} "
            f"values ({cells * 8 / 2**30:,.1f} GiB as float64); it is built only "
            f"up to {limit:,} classes. {instead}"
        )


def gap_pair_terms(
    precision: np.ndarray,
    recall: np.ndarray,
    weights: np.ndarray,
    beta: float,
) -> np.ndarray:
    """The k x k table of class-pair terms whose sum is the gap.

    Entry ``(x, y)`` is ``(1+b²) b² / (2A) * w_x w_y (P_x R_y - P_y R_x)² /
    (a_x a_y)``: symmetric, zero on the diagonal and wherever ``a = b² P + R``
    is 0; each unordered pair's share of the gap is split equally between
    ``(x, y)`` and ``(y, x)``, so row sums give per-class shares that add up to
    the gap too. ``precision``, ``recall`` and ``weights`` are 1-D float64
    arrays, finite, in [0, 1]; ``weights`` sum to 1. beta 0 or inf: the two
    formulas coincide (F-beta is P, resp. R), every term is 0. Refused
    (``ValueError``) above :data:`MAX_PAIR_CLASSES` classes.
    """
    p, r, w = precision, recall, weights
    k = p.shape[0]
    refuse_square(
        k,
        "The table of class-pair gap terms",
        limit=MAX_PAIR_CLASSES,
        instead="The per-class contributions and the largest pairs "
        "(GapAttribution.top_pairs) need no table.",
    )
    table = np.zeros((k, k))
    prepared = _prepared(p, r, w, beta)
    if prepared is None:
        return table
    keep, p, r, w, a, c = prepared
    cross = np.outer(p, r)
    cross -= cross.T  # P_x R_y - P_y R_x
    # w_x (P_x R_y - P_y R_x) / a_x, dividing first: |D_xy| / a_x is bounded
    # (by R_y / b² + P_y) even where a_x is tiny, so nothing overflows
    scaled = w[:, None] * (cross / a[:, None])
    # (w_x D / a_x) * (w_y D / a_y): no underflow of D² before the division
    terms = scaled * scaled.T  # = -w_x w_y D² / (a_x a_y): D_yx = -D_xy
    terms *= -c
    terms += 0.0  # no negative zeros in the table
    np.fill_diagonal(terms, 0.0)
    table[np.ix_(keep, keep)] = terms
    return table


def _prepared(
    precision: np.ndarray, recall: np.ndarray, weights: np.ndarray, beta: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, float] | None:
    """``(keep, p, r, w, a, c)`` over the classes with ``a > 0``, with the
    common factor ``c = (1+b²) b² / (2A)``; None when every term is 0."""
    if beta == 0 or math.isinf(beta):
        return None
    beta2 = beta * beta
    a = beta2 * precision + recall
    total = _sum_of_products(weights, a)
    keep = np.flatnonzero(a > 0)
    if total == 0 or keep.shape[0] < 2:
        return None
    c = (1 + beta2) * beta2 / (2 * total)
    if math.isinf(c):  # (1 + b²) b² overflows from b = 1.2e77: divide first
        c = (1 + beta2) / (2 * total) * beta2
    if keep.shape[0] == a.shape[0]:  # every class: no copies
        return keep, precision, recall, weights, a, c
    return keep, precision[keep], recall[keep], weights[keep], a[keep], c


#: Below this largest rate the class terms are computed on rates scaled by a
#: power of two (their products would underflow, 1 / A overflow).
_TINY_RATES = 2.0**-500
_RATE_SCALE = 2.0**600


def _sum_of_products(a: np.ndarray, b: np.ndarray) -> float:
    """``sum(a * b)`` by numpy's pairwise sum, the same on every machine
    (``np.dot`` goes to the BLAS kernel of the CPU at hand, whose order of
    additions, and so the last bits, differ between CPUs)."""
    return float(np.add.reduce(a * b))


def gap_class_terms(
    precision: np.ndarray,
    recall: np.ndarray,
    weights: np.ndarray,
    beta: float,
) -> np.ndarray:
    """The row sums of :func:`gap_pair_terms` in O(k) time and memory.

    Row ``x`` of the pair table is, with ``v_i = (P_i, R_i)``, ``m_i = w_i / a_i``
    and ``v_x × v_y = P_x R_y - P_y R_x``,

        c_x = C m_x sum_y m_y (v_x × v_y)²,      C = (1+b²) b² / (2A).

    The cross product keeps its value in any orthonormal frame ``(e, f)`` of the
    plane: with ``s_i = e · v_i`` and ``t_i = f · v_i`` it is
    ``s_x t_y - t_x s_y``, and expanding the square,

        sum_y m_y (v_x × v_y)² = s_x² T - 2 s_x t_x U + t_x² S,
        S = sum_y m_y s_y²,  T = sum_y m_y t_y²,  U = sum_y m_y s_y t_y:

    three weighted sums over the classes, so every row costs O(1). In the
    frame of the eigenvectors of ``H = sum_y m_y v_y v_y'`` (angle
    ``phi = atan2(2 H_PR, H_PP - H_RR) / 2``, the principal axis of the
    classes' (P, R) points) ``U`` is 0 up to rounding, so the sum is one of
    non-negative terms: no cancellation when every class has nearly the same
    ratio ``P / R`` (where ``P_x² sum m R² - 2 P_x R_x sum m P R + R_x² sum
    m P²`` would lose every digit). ``U`` is kept: it makes the identity exact
    whatever the rounding of ``phi``.

    Classes with ``a = 0`` have row 0, as in the table; so do all classes when
    beta is 0 or inf.
    """
    k = precision.shape[0]
    largest = max(
        float(np.max(precision, initial=0.0)), float(np.max(recall, initial=0.0))
    )
    if 0.0 < largest < _TINY_RATES:
        # rates this small make C = (1+b²) b² / (2A) overflow (inf x 0 = nan);
        # the terms are of degree 1 in (P, R): scale by an exact power of two
        scaled = gap_class_terms(
            precision * _RATE_SCALE, recall * _RATE_SCALE, weights, beta
        )
        return scaled / _RATE_SCALE
    prepared = _prepared(precision, recall, weights, beta)
    if prepared is None:
        return np.zeros(k)
    keep, p, r, w, a, c = prepared
    # m_i v_i v_i' summed, each product formed as w (v / a) v: no overflow
    pa, ra = p / a, r / a
    h_pp = _sum_of_products(w * pa, p)
    h_rr = _sum_of_products(w * ra, r)
    h_pr = _sum_of_products(w * pa, r)
    if h_pp == h_rr:  # the diagonal P = R (h_pr >= 0): one cosine and sine,
        # so that t is exactly 0 where P = R (math.cos and math.sin of pi / 4
        # differ in the last bit: perfect predictions would get rounding
        # noise as contributions, shares of a gap of 0)
        cos = sin = math.sqrt(0.5)
    else:
        phi = 0.5 * math.atan2(2 * h_pr, h_pp - h_rr)
        cos, sin = math.cos(phi), math.sin(phi)
    s = cos * p + sin * r  # along the principal axis
    t = cos * r - sin * p  # across it
    s_a, t_a = s / a, t / a
    big_s = _sum_of_products(w * s_a, s)
    big_t = _sum_of_products(w * t_a, t)
    big_u = _sum_of_products(w * s_a, t)
    row = s * s_a * big_t - 2 * s * t_a * big_u + t * t_a * big_s
    row *= c * w
    np.maximum(row, 0.0, out=row)  # a sum of squares: no rounding below 0
    if keep.shape[0] == k:
        return row
    out = np.zeros(k)
    out[keep] = row
    return out


def top_gap_pairs(
    precision: np.ndarray,
    recall: np.ndarray,
    weights: np.ndarray,
    beta: float,
    n: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ``n`` largest whole pair terms (both halves of the table), as
    ``(x, y, value)`` arrays with ``x < y``, largest first (ties in the
    table's row-major order), zero terms left out.

    Equal, value for value, to twice the entries of :func:`gap_pair_terms`;
    computed in blocks of rows with a running top ``n``: O(k²) time, memory
    bounded by ``_PAIR_BLOCK`` terms and ``n``.
    """
    empty = np.zeros(0, dtype=np.intp)
    prepared = _prepared(precision, recall, weights, beta)
    if prepared is None or n <= 0:
        return empty, empty, np.zeros(0)
    keep, p, r, w, a, c = prepared
    k = keep.shape[0]
    best_flat = empty
    best_value = np.zeros(0)
    rows = max(1, _PAIR_BLOCK // k)
    for start in range(0, k - 1, rows):
        stop = min(start + rows, k - 1)
        # rows start..stop-1 against columns start+1..k-1: the upper triangle,
        # by the same operations, in the same order, as gap_pair_terms
        pr, rr, wr, ar = (
            p[start:stop, None],
            r[start:stop, None],
            w[start:stop, None],
            a[start:stop, None],
        )
        pc, rc, wc, ac = p[start + 1 :], r[start + 1 :], w[start + 1 :], a[start + 1 :]
        cross = pr * rc - pc * rr
        terms = wr * (cross / ar)
        terms *= wc * (-cross / ac)
        terms *= -c
        terms += 0.0
        terms *= 2
        width = k - start - 1
        below = np.arange(width)[None, :] < np.arange(stop - start)[:, None]
        terms[below] = 0.0  # the diagonal and below
        flat = np.flatnonzero(terms > 0)
        values = terms.reshape(-1)[flat]
        if flat.shape[0] > n:  # those tied with the n-th largest, or above
            cut = np.partition(values, flat.shape[0] - n)[flat.shape[0] - n]
            chosen = values >= cut
            flat, values = flat[chosen], values[chosen]
        row, col = np.divmod(flat, width)
        flat = (row + start) * k + col + start + 1  # index into the k x k table
        flat = np.concatenate([best_flat, flat])
        values = np.concatenate([best_value, values])
        order = np.lexsort((flat, -values))[:n]
        best_flat, best_value = flat[order], values[order]
    x, y = np.divmod(best_flat, k)
    return keep[x], keep[y], best_value
