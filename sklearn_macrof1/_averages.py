"""The averaging modes, and which results each of them has.

Every rule about averages is written here once: the options the checks accept,
which averages have a gap, a bound on it, an attribution over class pairs (the
means over classes) and a confidence interval. Checks, messages, the report's
rows, the CLI's choices and the views read them from here, so a new average or
result is one edit.
"""

from __future__ import annotations

from collections.abc import Iterable

#: scikit-learn's averaging modes besides None (no averaging: per-class values),
#: in the order scikit-learn's messages list them.
AVERAGES: tuple[str, ...] = ("binary", "micro", "macro", "weighted", "samples")

#: The averages whose two formulas can differ: a mean over classes (macro,
#: weighted) or over samples (samples) taken before or after the harmonic mean,
#: which is concave, so F-beta of averages >= averaged F-beta. For micro (one
#: pooled ratio) and binary (one class) the two coincide.
HAS_GAP: tuple[str, ...] = ("macro", "weighted", "samples")

#: The averages with a proven bound on the gap: the reference paper's Theorem 3
#: (Opitz & Burst, "Macro F1 and Macro F1", arXiv:1911.03347) gives its supremum
#: for the macro average only.
HAS_BOUND: tuple[str, ...] = ("macro",)

#: The averages that are a mean over classes (weights 1/n or support shares),
#: the ones with a gap attribution: their gap is a sum of class-pair terms (the
#: paper's Lemma, generalised to weights and any beta). A plot draws one point
#: per class and their mean; a class absent from the data is left out of the
#: mean. (samples: the terms would run over pairs of samples; micro and binary
#: have no gap.)
CLASS_MEANS: tuple[str, ...] = ("macro", "weighted")

#: The averages with a confidence interval: every one that gives one score per
#: formula (None gives one per class).
HAS_INTERVAL: tuple[str, ...] = AVERAGES


def has_closed_form(average: str | None, beta: float) -> bool:
    """Whether the paper's Lemma gives the gap in closed form: macro, beta = 1."""
    return average == "macro" and beta == 1


def averages_of(kind: str) -> tuple[str, ...]:
    """The averages a target of ``kind`` (``type_of_target``'s) can use:
    "binary" needs a binary target, "samples" a multilabel one."""
    return tuple(
        average
        for average in AVERAGES
        if (average != "binary" or kind == "binary")
        and (average != "samples" or kind == "multilabel-indicator")
    )


def ordered(averages: Iterable[str], *first: str) -> tuple[str, ...]:
    """``averages`` with those of ``first`` leading, in that order: how a list
    shown to users orders them (e.g. the default, "macro", first)."""
    averages = tuple(averages)
    leading = tuple(average for average in first if average in averages)
    return leading + tuple(average for average in averages if average not in first)


def spelled(averages: Iterable[str | None]) -> str:
    """The averages as a message lists them: ``'macro', 'micro' or None``."""
    words = [repr(average) for average in averages]
    return " or ".join([", ".join(words[:-1]), words[-1]]) if words[1:] else words[0]
