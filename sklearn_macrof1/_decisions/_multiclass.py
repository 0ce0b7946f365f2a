"""Multiclass decision rules ``argmax_j (w_j * s_ij - b_j)`` tuned for a macro F-beta.

Why this family. Both macro F-betas are functions of the per-class counts
``tp_j`` and ``pred_j`` (``true_j`` is fixed by the data). Linearising either
score at the current confusion matrix (the step of Frank-Wolfe, Narasimhan et
al., ICML 2015) gives an expected gain ``g_j eta_ij - h_j`` for predicting class
``j`` on a sample with class probabilities ``eta_i``, so every linearised step is
a rule of this family. Each per-class F-beta is pseudo-linear (Parambath et al.,
NIPS 2014): its optimal classifier is a cost-sensitive one, again of this form;
their mean, and F-beta of averages, are not, so no single cost vector is known to
be optimal and the weights and offsets are searched for.

How. Coordinate ascent: for one class ``j`` at a time, with the other classes'
parameters fixed, sample ``i`` is predicted ``j`` exactly when ``b_j`` is below
``t_i = w_j s_ij - max_{l != j} (w_l s_il - b_l)``. Sorting ``t`` gives every
distinct rule reachable by moving ``b_j``; moving samples into ``j`` one at a
time in that order changes the counts of two classes per move, so the score of
every cut is obtained from cumulative sums of per-class terms (``_objective``),
and the best cut is exact for that coordinate. Sweeps repeat until no
coordinate improves the objective. The weights come from the start: the best of
argmax and the one-parameter family ``p_j / prior_j ** a`` (offsets
``a log prior_j`` on scores that are not probabilities, the same rule for
logits). Scanning the weights as well (a sample joins ``j`` when ``w_j`` exceeds
a ratio, the same kind of scan) was measured: no held-out gain on the synthetic
benchmark, 2.5 times the time, so it is not done.

Cost: one O(n) pass and a partial sort of the candidates per coordinate (the
candidates are the samples nearest the boundary: a window of a few times the
class's current size, which widens over sweeps), the top two scores of each
sample kept up to date, so a sweep costs O(n k) at most, never O(n k^2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._objective import Objective

#: Scores (rows times classes) computed at once when a whole rule is applied:
#: a block that stays in the processor's cache (measured: 1.6 times faster than
#: blocks of 4096 rows of 1,000 classes).
_CHUNK = 1 << 17
#: Classes whose scores are copied at once, row by row, for their steps: a
#: column read on its own from the rows of scores costs more than a step's
#: arithmetic (measured: a copy of 32 columns, then each column from it, 2.5
#: times faster than each column from the scores, 1,000 classes).
_COLUMNS = 32
#: Keys closer than this (relative to their size, at least 1) are one key.
_KEY_TOLERANCE = 1e-9
#: The one-parameter starting family p / prior ** a.
PRIOR_POWERS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


@dataclass
class MulticlassProblem:
    """Validation scores and targets, encoded, with the fixed per-class counts."""

    scores: np.ndarray  # (n, k) float64
    y: np.ndarray  # (n,) intp: the class index, -1 for a label outside the classes
    weight: np.ndarray  # (n,) float64, non-negative
    objective: Objective
    #: Which classes are averaged: a fixed mask, or None for scikit-learn's
    #: default (the classes present in y_true or in the predictions).
    select: np.ndarray | None
    #: Support of the averaged labels that no rule can predict (labels outside
    #: the classes): weighted, with positive weight, all samples; shape (3, e).
    extra: np.ndarray
    true: np.ndarray = field(init=False)
    n_true: np.ndarray = field(init=False)
    m_true: np.ndarray = field(init=False)
    positive: np.ndarray = field(init=False)
    #: What each sample adds to the counts of the class it is predicted (but
    #: a hit): its weight, whether the weight is positive, 1; shape (3, n).
    added: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        k = self.scores.shape[1]
        known = self.y >= 0
        self.positive = self.weight > 0
        self.added = np.stack(
            (self.weight, self.positive.astype(np.float64), np.ones_like(self.weight))
        )
        yk = self.y[known]
        self.true = np.bincount(yk, weights=self.weight[known], minlength=k)
        self.n_true = np.bincount(yk[self.positive[known]], minlength=k)
        self.m_true = np.bincount(yk, minlength=k)

    @property
    def k(self) -> int:
        return int(self.scores.shape[1])

    def avg_weight(self, index: np.ndarray | slice) -> np.ndarray | float:
        if self.objective.average == "weighted":
            return self.true[index]
        return 1.0

    # ---------------------------------------------------------------- counts
    def counts(self, predicted: np.ndarray) -> np.ndarray:
        """``(4, k)``: tp, pred (weighted), predictions with positive weight, all
        predictions, per class."""
        k = self.k
        hit = predicted == self.y
        return np.stack(
            (
                np.bincount(predicted, weights=self.weight * hit, minlength=k),
                np.bincount(predicted, weights=self.weight, minlength=k),
                np.bincount(predicted[self.positive], minlength=k).astype(np.float64),
                np.bincount(predicted, minlength=k).astype(np.float64),
            )
        )

    def terms(
        self,
        counts: np.ndarray,
        index: np.ndarray | slice = slice(None),
        objective: Objective | None = None,
    ) -> np.ndarray:
        """Terms of the classes ``index`` with ``counts`` (shape ``(4, ...)``)."""
        objective = objective or self.objective
        tp, pred, n_pred, m_pred = counts
        out = objective.terms(
            tp,
            pred,
            self.true[index],
            n_pred,
            self.n_true[index],
            self.avg_weight(index),
        )
        if self.select is not None:
            mask = self.select[index]
        else:
            mask = (m_pred > 0) | (self.m_true[index] > 0)
        out *= np.asarray(mask, dtype=np.float64)[..., None]
        return out

    def constant(self, objective: Objective | None = None) -> np.ndarray:
        """Summed terms of the averaged labels no rule can predict."""
        objective = objective or self.objective
        true, n_true, m_true = self.extra
        zero = np.zeros_like(true)
        weight = true if objective.average == "weighted" else 1.0
        terms = objective.terms(zero, zero, true, zero, n_true, weight)
        if self.select is None:  # scikit-learn's default: labels present only
            terms = terms * (m_true > 0)[:, None]
        return terms.sum(axis=0)

    def score_counts(
        self, counts: np.ndarray, objective: Objective | None = None
    ) -> float:
        objective = objective or self.objective
        sums = self.terms(counts, objective=objective).sum(axis=0)
        return float(objective.value(sums + self.constant(objective)))

    def predict(self, w: np.ndarray, b: np.ndarray) -> np.ndarray:
        return apply_rule(self.scores, w, b)


def apply_rule(scores: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``argmax_j (w_j s_ij - b_j)`` (first index on ties), in row chunks."""
    n = scores.shape[0]
    out = np.empty(n, dtype=np.intp)
    rows = _chunk_rows(scores)
    for start in range(0, n, rows):
        block = scores[start : start + rows] * w
        block -= b
        out[start : start + rows] = block.argmax(axis=1)
    return out


def _chunk_rows(scores: np.ndarray) -> int:
    return max(1, _CHUNK // max(1, scores.shape[1]))


def separated(above: np.ndarray, below: np.ndarray) -> np.ndarray:
    """Whether a cut between keys ``above`` and ``below`` (arrays of the same
    shape) is safe: keys that
    differ by rounding only (``0.9 - 0.7`` and ``0.7 - 0.5``) would tie once the
    rule is applied, so they count as equal."""
    # max(|above|, |below|, 1) * tolerance, computed in place (millions of
    # keys for a shared threshold)
    scale = np.abs(above)
    np.maximum(scale, np.abs(below), out=scale)
    np.maximum(scale, 1.0, out=scale)
    scale *= _KEY_TOLERANCE
    with np.errstate(invalid="ignore"):
        return (above - below) > scale


def _largest(keys: np.ndarray, count: int) -> np.ndarray:
    """Indices of the ``count`` largest keys, in no order (``count`` below the
    number of keys). For a window of less than a tenth of the keys, a partition
    of every 16th key first bounds the answer from below, so that the exact
    partition runs on a few times ``count`` keys only (measured: 5 times faster
    for windows of a few hundred among 15,000)."""
    step = 16
    sample = keys[::step]
    q = 2 * count // step + 1
    if 10 * count < keys.shape[0]:
        bound = np.partition(sample, sample.shape[0] - 1 - q)[sample.shape[0] - 1 - q]
        near = np.flatnonzero(keys >= bound)
        if near.shape[0] >= count:  # at least count keys reach the bound
            return near[np.argpartition(-keys[near], count - 1)[:count]]
    return np.argpartition(-keys, count - 1)[:count]


def _top_two(
    scores: np.ndarray, w: np.ndarray, b: np.ndarray, rows: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Best and second-best value and class of each row (ties: lower class first)."""
    block = scores if rows is None else scores[rows]
    n = block.shape[0]
    v1 = np.empty(n)
    i1 = np.empty(n, dtype=np.intp)
    v2 = np.empty(n)
    i2 = np.empty(n, dtype=np.intp)
    chunk = _chunk_rows(block)
    for start in range(0, n, chunk):
        z = block[start : start + chunk] * w
        z -= b
        ar = np.arange(z.shape[0])
        a = z.argmax(axis=1)
        i1[start : start + chunk] = a
        v1[start : start + chunk] = z[ar, a]
        z[ar, a] = -np.inf
        c = z.argmax(axis=1)
        i2[start : start + chunk] = c
        v2[start : start + chunk] = z[ar, c]
    return v1, i1, v2, i2


@dataclass
class Search:
    """The state of the coordinate ascent."""

    problem: MulticlassProblem
    w: np.ndarray
    b: np.ndarray
    v1: np.ndarray = field(init=False)
    i1: np.ndarray = field(init=False)
    v2: np.ndarray = field(init=False)
    i2: np.ndarray = field(init=False)
    counts: np.ndarray = field(init=False)
    #: Each class's terms under ``counts``, and their sum with the constant:
    #: kept up to date class by class, so a move costs O(classes it touches).
    class_terms: np.ndarray = field(init=False)
    total: np.ndarray = field(init=False)
    value: float = field(init=False)

    def __post_init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        p = self.problem
        self.v1, self.i1, self.v2, self.i2 = _top_two(p.scores, self.w, self.b)
        self.counts = p.counts(self.i1)
        self.class_terms = p.terms(self.counts)
        self.total = self.class_terms.sum(axis=0) + p.constant()
        self.value = float(p.objective.value(self.total))

    # ------------------------------------------------------------ the scan
    def scan(
        self, j: int, keys: np.ndarray, window: int, members: np.ndarray
    ) -> tuple[int, float, np.ndarray, np.ndarray]:
        """Best cut for class ``j`` over samples entering it in decreasing
        ``keys`` (:meth:`keys`), each leaving its best class other than ``j``;
        ``members``: the samples now in ``j``.

        Returns the cut ``r`` (the number of samples in ``j``), its objective,
        and the sorted keys and sample order of the window.
        """
        p = self.problem
        n = keys.shape[0]
        m = min(n, window)
        if m < n:
            # equal keys in sample order, whatever order the partition left
            # them in (it differs between routines): the sums are then the same
            # bit for bit as over the whole sorted column
            top = np.sort(_largest(keys, m + 1))
        else:
            top = np.arange(n)
        order = top[np.argsort(-keys[top], kind="stable")]
        sorted_keys = keys[order]
        moves = order[:m]
        first_class = self.i1[moves]
        c = np.where(first_class == j, self.i2[moves], first_class)
        y = p.y[moves]
        # base: nobody in j, every current member of j back in its competitor
        base = self.counts.copy()
        base[:, j] = 0.0
        mc = self.i2[members]
        k = p.k
        hit = (p.y[members] == mc) * p.weight[members]
        returning = np.bincount(mc, minlength=k)
        base[0] += np.bincount(mc, weights=hit, minlength=k)
        base[1] += np.bincount(mc, weights=p.weight[members], minlength=k)
        base[2] += np.bincount(mc, weights=p.positive[members], minlength=k)
        base[3] += returning
        touched = np.flatnonzero(returning)
        # what each move takes from its competitor class, grouped by class
        taken = np.empty((4, m))
        taken[1:] = p.added[:, moves]
        np.multiply(y == c, taken[1], out=taken[0])
        by_class = np.argsort(c, kind="stable")
        cs = c[by_class]
        running = np.cumsum(np.take(taken, by_class, axis=1), axis=1)
        if m:
            first = np.concatenate(([True], cs[1:] != cs[:-1]))
            start = np.flatnonzero(first)
            group = np.cumsum(first) - 1
        else:
            start = group = np.zeros(0, dtype=np.intp)
        before_start = np.zeros((4, start.shape[0]))
        before_start[:, 1:] = running[:, start[1:] - 1]
        after = np.empty_like(running)
        after[:, by_class] = running - before_start[:, group]
        after = base[:, c] - after
        before = after + taken
        # what class j gains: the same, and a hit where j is the true class
        gained = np.zeros((4, m + 1))
        np.cumsum(taken, axis=1, out=gained[:, 1:])
        np.cumsum((y == j) * taken[1], out=gained[0, 1:])
        # the terms of every count above in one call (a call costs more than
        # its few hundred entries)
        u = touched.shape[0]
        terms = p.terms(
            np.concatenate((base[:, touched], after, before, gained), axis=1),
            np.concatenate((touched, c, c, np.full(m + 1, j))),
        )
        total = (
            self.total
            - self.class_terms[j]
            - self.class_terms[touched].sum(axis=0)
            + terms[:u].sum(axis=0)
        )
        sums = np.empty((m + 1, total.shape[0]))
        sums[0] = 0.0
        np.subtract(terms[u : u + m], terms[u + m : u + 2 * m], out=sums[1:])
        np.cumsum(sums[1:], axis=0, out=sums[1:])
        sums += terms[u + 2 * m :]
        sums += total
        values = p.objective.value(sums)
        # a cut must fall between distinct keys
        # (past the last cut: the first key outside the window, if any)
        valid = np.ones(m + 1, dtype=bool)
        if m:
            last = sorted_keys.shape[0]
            valid[1:last] = separated(sorted_keys[:-1], sorted_keys[1:])
        values = np.where(valid & ~np.isnan(values), values, -np.inf)
        best = float(values.max())
        # among equal bests, the cut nearest the current one
        current = members.shape[0]
        ties = np.flatnonzero(values == best)
        r = int(ties[np.argmin(np.abs(ties - current))])
        return r, best, sorted_keys, order

    def update_column(self, j: int, w_j: float, b_j: float, col: np.ndarray) -> bool:
        """Set class ``j``'s parameters; keep them if the exact objective does not
        decrease (ties and rounding can make a scanned gain vanish). ``col``:
        the scores of class ``j``, read once by the caller (a strided read of a
        column costs more than the arithmetic on it)."""
        p = self.problem
        old_w, old_b = self.w[j], self.b[j]
        if w_j == old_w and b_j == old_b:
            return False
        z_old = old_w * col - old_b
        z_new = w_j * col - b_j
        v1, i1, v2, i2 = self.v1.copy(), self.i1.copy(), self.v2.copy(), self.i2.copy()
        in1, in2 = i1 == j, i2 == j
        recompute = (in1 | in2) & (z_new < z_old)
        keep = ~recompute
        # j stays or enters among the top two (an increase, or a new entrant)
        a1 = keep & in1
        v1[a1] = z_new[a1]
        a2 = keep & in2
        over = a2 & ((z_new > v1) | ((z_new == v1) & (j < i1)))
        v2[a2] = z_new[a2]
        i2[over], v2[over], i1[over], v1[over] = i1[over], v1[over], j, z_new[over]
        other = keep & ~in1 & ~in2
        first = other & ((z_new > v1) | ((z_new == v1) & (j < i1)))
        second = other & ~first & ((z_new > v2) | ((z_new == v2) & (j < i2)))
        i2[first], v2[first] = i1[first], v1[first]
        i1[first], v1[first] = j, z_new[first]
        i2[second], v2[second] = j, z_new[second]
        w = self.w.copy()
        b = self.b.copy()
        w[j], b[j] = w_j, b_j
        rows = np.flatnonzero(recompute)
        if rows.size:
            v1[rows], i1[rows], v2[rows], i2[rows] = _top_two(p.scores, w, b, rows)
        changed = np.flatnonzero(i1 != self.i1)
        counts = self.counts.copy()
        if changed.size:
            counts -= _row_counts(p, self.i1[changed], changed)
            counts += _row_counts(p, i1[changed], changed)
        touched = np.unique(np.concatenate((self.i1[changed], i1[changed])))
        new_terms = p.terms(counts[:, touched], touched)
        total = (
            self.total - self.class_terms[touched].sum(axis=0) + new_terms.sum(axis=0)
        )
        value = float(p.objective.value(total))
        if not value > self.value:
            return False
        self.w, self.b = w, b
        self.v1, self.i1, self.v2, self.i2 = v1, i1, v2, i2
        self.counts, self.value, self.total = counts, value, total
        self.class_terms[touched] = new_terms
        return True

    def keys(self, j: int, col: np.ndarray, members: np.ndarray) -> np.ndarray:
        """``t_i = w_j s_ij - max_{l != j} (w_l s_il - b_l)``: sample ``i`` is
        predicted ``j`` exactly when ``b_j < t_i``. ``col``: the scores of class
        ``j``; ``members``: the samples now in ``j`` (whose best other class is
        their second)."""
        keys = self.w[j] * col - self.v1
        keys[members] = self.w[j] * col[members] - self.v2[members]
        return keys

    # ---------------------------------------------------------- coordinates
    def step_offset(self, j: int, col: np.ndarray) -> bool:
        """Move class ``j``'s offset to its best cut; whether it moved. The cuts
        scanned are those among the samples nearest the class's boundary: a
        window of a few times its current size. ``col``: the scores of class
        ``j``, contiguous."""
        n = col.shape[0]
        members = np.flatnonzero(self.i1 == j)
        window = min(n, max(4 * members.shape[0], members.shape[0] + 256))
        keys = self.keys(j, col, members)
        r, best, sorted_keys, _ = self.scan(j, keys, window, members)
        if not best > self.value:
            return False
        if r == 0:
            top = sorted_keys[0]
            b_j = top + max(abs(top), 1.0) * 1e-3
        elif r == n:
            low = sorted_keys[n - 1]
            b_j = low - max(abs(low), 1.0) * 1e-3
        else:
            b_j = 0.5 * (sorted_keys[r - 1] + sorted_keys[r])
        return self.update_column(j, float(self.w[j]), float(b_j), col)


def _row_counts(
    p: MulticlassProblem, classes: np.ndarray, rows: np.ndarray
) -> np.ndarray:
    k = p.k
    wt = p.weight[rows]
    return np.stack(
        (
            np.bincount(classes, weights=wt * (p.y[rows] == classes), minlength=k),
            np.bincount(classes, weights=wt, minlength=k),
            np.bincount(classes, weights=p.positive[rows], minlength=k),
            np.bincount(classes, minlength=k).astype(np.float64),
        )
    )


def priors(p: MulticlassProblem) -> np.ndarray:
    """Class frequencies of the validation targets (floored at half a sample)."""
    floor = 0.5 * float(p.weight[p.positive].min()) if p.positive.any() else 1.0
    true = np.maximum(p.true, floor)
    return true / true.sum()


@dataclass
class MulticlassResult:
    weights: np.ndarray
    offsets: np.ndarray
    objective: float
    candidates: list[tuple[str, float, float]]  # (name, objective, exact score)
    n_sweeps: int


def tune_multiclass(
    p: MulticlassProblem,
    *,
    max_iter: int,
    tol: float,
    start: tuple[np.ndarray, np.ndarray] | None = None,
) -> MulticlassResult:
    """Coordinate ascent from the best of argmax and ``p / prior ** a``."""
    k = p.k
    exact = p.objective.exact()
    candidates: list[tuple[str, float, float]] = []
    starts: list[tuple[str, np.ndarray, np.ndarray]] = []
    if start is not None:
        starts.append(
            ("start", start[0].astype(np.float64), start[1].astype(np.float64))
        )
    # p / prior ** a: weights on probabilities, offsets a log(prior) on other
    # scores (the same rule when the scores are logits)
    nonnegative = bool((p.scores >= 0).all())
    log_prior = np.log(priors(p))
    for a in PRIOR_POWERS:
        name = "argmax" if not a else f"prior_power={a:g}"
        if nonnegative:
            w = np.exp(-a * (log_prior - log_prior.min()))
            starts.append((name, w, np.zeros(k)))
        else:
            starts.append((name, np.ones(k), a * log_prior))
    best_w, best_b, best_value = np.ones(k), np.zeros(k), -np.inf
    for name, w, b in starts:
        counts = p.counts(p.predict(w, b))
        value = p.score_counts(counts)
        candidates.append((name, value, p.score_counts(counts, exact)))
        if value > best_value or not candidates[:-1]:
            best_w, best_b, best_value = w, b, value
    search = Search(p, best_w.copy(), best_b.copy())
    sweeps = 0
    for sweep in range(max_iter):
        before = search.value
        for begin in range(0, k, _COLUMNS):
            block = p.scores[:, begin : begin + _COLUMNS].copy()
            for j in range(begin, begin + block.shape[1]):
                search.step_offset(j, np.ascontiguousarray(block[:, j - begin]))
        sweeps = sweep + 1
        search.reset()  # exact state from scratch: no drift of the running sums
        candidates.append(
            (f"sweep {sweeps}", search.value, p.score_counts(search.counts, exact))
        )
        if not search.value > before + tol:
            break
    if not search.value >= best_value:  # pragma: no cover - the ascent is monotone
        search = Search(p, best_w, best_b)
    return MulticlassResult(search.w, search.b, search.value, candidates, sweeps)
