"""Validation of the scalar options shared by every public entry point.

Each check raises the exception type scikit-learn raises for the same mistake
(``InvalidParameterError``, a ``ValueError`` and ``TypeError`` at once, for options;
``ValueError`` for inconsistent data), with a message that names the argument, the
function and what is accepted.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, cast

import numpy as np

from ._averages import AVERAGES, ordered
from ._sklearn_private import InvalidParameterError


def _got(value: Any) -> str:
    return f"Got {value!r} instead."


# ---------------------------------------------------------------- the options
#: What an option's ``normalise`` returns for a value the option does not accept.
INVALID: Any = object()


@dataclass(frozen=True)
class Cli:
    """How the ``macrof1`` command line offers an option: ``--name`` (the
    option's name with dashes), in the help group ``group`` ("scoring",
    "intervals" or "output"), given to every public function the program calls
    that takes a keyword of that name (and of the names in ``also``).

    ``kind`` reads the text (``int``, ``float``, or ``str``: kept as text, for
    the program to read against the labels), and the row's ``normalise``
    checks the number; ``choices`` maps the words the program accepts to the
    values they give. ``accepted`` says what is accepted in the program's
    words, where the row's ``accepted`` speaks of Python objects.
    """

    help: str
    group: str
    default: Any = None
    kind: type = str
    choices: Mapping[str, Any] | None = None
    metavar: str | None = None
    accepted: str | None = None
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class Option:
    """One option of the public functions: its name, what it accepts, its check.

    ``normalise(value)`` returns the value as the code uses it (``beta`` as a
    float, ``zero_division`` as "warn", 0.0, 1.0 or nan ...) or :data:`INVALID`;
    it has no side effect. A value it refuses raises ``InvalidParameterError``
    (a ``ValueError`` and ``TypeError`` at once, as in scikit-learn) with the
    message "The '<name>' parameter of <function> must be <accepted>. Got
    <value> instead.", or the exception ``special(value, function)`` returns.
    """

    name: str
    accepted: str
    normalise: Callable[[Any], Any]
    special: Callable[[Any, str], Exception | None] | None = None
    #: How the command line offers it (None: not an option of the program).
    cli: Cli | None = None

    def error(self, value: Any, caller: str) -> Exception:
        """The exception for a value ``normalise`` refused."""
        if self.special is not None:
            exc = self.special(value, caller)
            if exc is not None:
                return exc
        return InvalidParameterError(
            f"The '{self.name}' parameter of {caller} must be {self.accepted}. "
            + _got(value)
        )


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(
        value, bool | np.bool_
    )


_FLOATS = (float, np.floating)


def _is_real(value: Any) -> bool:
    """A real number (bools included, as in ``numbers.Real``) other than nan."""
    kind = type(value)
    if kind is float:  # the common cases first, without the ABC check
        return not math.isnan(value)
    if kind is int:
        return True
    return isinstance(value, numbers.Real) and not (
        isinstance(value, _FLOATS) and math.isnan(value)
    )


def _beta(beta: Any) -> Any:
    if _is_real(beta) and beta >= 0:
        value = float(beta)
        if math.isfinite(value) and math.isinf(value * value):
            return INVALID  # see _beta_overflow
        return value
    return INVALID


def _beta_overflow(beta: Any, caller: str) -> Exception | None:
    """A finite ``beta`` whose square overflows a float (above about 1.3e154)
    raises ``OverflowError``, as in scikit-learn (which computes ``beta ** 2``);
    ``beta=np.inf`` is the supported way to ask for recall."""
    if _is_real(beta) and beta >= 0:
        return OverflowError(
            f"The 'beta' parameter of {caller} is too large: beta ** 2 "
            f"overflows a float (got {beta!r}). Use beta=np.inf for "
            "recall, or a beta below 1e154."
        )
    return None


def _labels(labels: Any) -> Any:
    if labels is None:
        return labels
    if is_array_like(labels) and not hasattr(labels, "toarray"):
        return host_copy(labels)  # a device array's k labels; anything else as given
    return INVALID


def as_numpy(value: Any) -> np.ndarray:
    """``np.asarray(value)``; a PyTorch tensor of a floating dtype NumPy lacks
    (bfloat16, float8: mixed-precision training) is read as float32, which
    holds each of its values exactly. Raises as ``np.asarray`` does for what
    NumPy cannot read (a tensor on a GPU)."""
    try:
        return np.asarray(value)
    except (RuntimeError, TypeError, ValueError, BufferError):
        dtype = getattr(value, "dtype", None)
        if not (
            getattr(dtype, "is_floating_point", False)
            and getattr(dtype, "itemsize", 4) < 4
            and hasattr(value, "float")
        ):
            raise
    return np.asarray(value.float())


def host_copy(value: Any) -> Any:
    """``value`` unchanged, or, for an array NumPy cannot read (an array on a
    GPU or another array-API device), a NumPy copy of it: for small arrays
    only (options such as ``labels``, the counts of a record)."""
    if not hasattr(value, "__array_namespace__") and not hasattr(value, "cpu"):
        return value
    if hasattr(value, "detach"):
        value = value.detach()  # a PyTorch tensor that requires grad
    try:
        return as_numpy(value)
    except (RuntimeError, TypeError, ValueError, BufferError):
        pass
    if hasattr(value, "cpu"):  # PyTorch
        return as_numpy(value.cpu())
    if hasattr(value, "get"):  # CuPy
        return np.asarray(value.get())
    info = value.__array_namespace__().__array_namespace_info__()
    cpu = next(d for d in info.devices() if "cpu" in str(d).lower())
    return np.asarray(value.to_device(cpu))


def _pos_label(pos_label: Any) -> Any:
    """A number, a string, a bool or None (as in scikit-learn)."""
    if (
        pos_label is None
        or type(pos_label) in _PLAIN_POS_LABELS
        or isinstance(pos_label, _POS_LABELS)
    ):
        return pos_label
    return INVALID


_PLAIN_POS_LABELS = frozenset((int, str, float, bool))
_POS_LABELS = (numbers.Real, str, np.bool_)


def _average(average: Any) -> Any:
    if average is None or (isinstance(average, str) and average in AVERAGES):
        return average
    return INVALID


def _zero_division(zero_division: Any) -> Any:
    """``"warn"``, ``0.0``, ``1.0`` or nan.

    Any real number equal to 0 or 1 (numpy scalars included: ``np.int64(1)``,
    ``np.float32(0.0)``) means that value. scikit-learn accepts such scalars too
    but then uses nan for every numpy scalar other than float64, which is not
    what the caller asked for: a deliberate difference.
    """
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return "warn"
    elif isinstance(zero_division, numbers.Real):
        if zero_division in (0, 1):
            return float(zero_division)
        if math.isnan(zero_division):
            return math.nan
    return INVALID


def _confidence(confidence: Any) -> Any:
    if (
        isinstance(confidence, numbers.Real)
        and not isinstance(confidence, bool)
        and 0 < cast(float, confidence) < 1
    ):
        return float(confidence)
    return INVALID


def _method(method: Any) -> Any:
    return method if isinstance(method, str) and method in METHODS else INVALID


def _n_resamples(n_resamples: Any) -> Any:
    if (
        isinstance(n_resamples, numbers.Integral)
        and not isinstance(n_resamples, bool)
        and int(n_resamples) >= 2
    ):
        return int(n_resamples)
    return INVALID


def _random_state(random_state: Any) -> Any:
    """None, an int >= 0, a ``Generator`` or a ``RandomState`` (kept as given:
    :func:`as_generator` turns it into a ``Generator`` when one is drawn from)."""
    if (
        random_state is None
        or (
            isinstance(random_state, numbers.Integral)
            and not isinstance(random_state, bool)
            and int(random_state) >= 0
        )
        or isinstance(random_state, np.random.Generator | np.random.RandomState)
    ):
        return random_state
    return INVALID


def _verbose(verbose: Any) -> Any:
    """An int >= 0 (bools allowed, as in scikit-learn)."""
    if isinstance(verbose, numbers.Integral) and int(verbose) >= 0:
        return int(verbose)
    return INVALID


def _digits(digits: Any) -> Any:
    return digits if _is_int(digits) and digits >= 0 else INVALID


def _flag(value: Any) -> Any:
    return value if isinstance(value, bool | np.bool_) else INVALID


#: The interval methods: "auto" (the default: the posterior where it is
#: defined, else the delta method), the delta method, the percentile bootstrap
#: and the Dirichlet posterior of the confusion cells.
METHODS = ("auto", "delta", "bootstrap", "posterior")

#: The default interval method of every function (and the CLI) that offers one.
DEFAULT_METHOD = "auto"

#: The methods of a paired comparison of two classifiers: its own jackknife
#: and two of :data:`METHODS` (the posterior, and so "auto", give intervals of
#: one classifier only).
COMPARISON_METHODS = ("jackknife", "delta", "bootstrap")

_AVERAGE_CHOICES = ", ".join(map(repr, AVERAGES))
_METHOD_CHOICES = ", ".join(map(repr, METHODS))

#: Every option of the public functions, in the order they are checked (when
#: several are wrong, the first one in this order is named): the report's own
#: options, then scikit-learn's order for the score options, then the
#: intervals'. Options that depend on each other (``output_dict`` with
#: ``as_frame``; an interval needs an ``average``) are checked by the function.
OPTIONS: tuple[Option, ...] = (
    Option(
        "digits",
        "an int in the range [0, inf)",
        _digits,
        cli=Cli(
            "decimals in the report (2); the summary shows at least 6",
            "output",
            default=2,
            kind=int,
        ),
    ),
    Option("output_dict", "an instance of 'bool'", _flag),
    Option("as_frame", "an instance of 'bool'", _flag),
    Option(
        "beta",
        "a float in the range [0.0, inf] (0 gives precision, inf gives recall)",
        _beta,
        _beta_overflow,
        cli=Cli("F-beta's beta (1)", "scoring", default=1.0, kind=float),
    ),
    Option(
        "labels",
        "an array-like",
        _labels,
        cli=Cli(
            "classes to average over, comma-separated (default: all)",
            "scoring",
            metavar="L1,L2,...",
        ),
    ),
    Option(
        "pos_label",
        "an int, float, bool, str or None",
        _pos_label,
        cli=Cli("positive class for --average binary (1)", "scoring", metavar="LABEL"),
    ),
    Option(
        "average",
        f"a str among {{{_AVERAGE_CHOICES}}} or None",
        _average,
        cli=Cli(
            "averaging mode (macro)",
            "scoring",
            default="macro",
            choices={
                **{
                    a: a
                    for a in ordered(AVERAGES, "macro", "micro", "weighted", "samples")
                },
                "none": None,
            },
        ),
    ),
    Option(
        "zero_division",
        "'warn', 0.0, 1.0 or np.nan",
        _zero_division,
        cli=Cli(
            "value of ill-defined ratios (warn: 0 with a warning)",
            "scoring",
            default="warn",
            choices={"warn": "warn", "0": 0.0, "1": 1.0, "nan": math.nan},
        ),
    ),
    Option(
        "confidence",
        "a float in the open interval (0, 1), e.g. 0.95",
        _confidence,
        cli=Cli(
            "add confidence intervals of both scores at LEVEL, e.g. 0.95",
            "intervals",
            kind=float,
            metavar="LEVEL",
        ),
    ),
    Option("method", f"a str among {{{_METHOD_CHOICES}}}", _method),
    Option(
        "interval_method",
        f"a str among {{{_METHOD_CHOICES}}}",
        _method,
        cli=Cli(
            "auto (the Dirichlet posterior for unweighted labels, the delta "
            "method otherwise and above 100,000 samples in classes of 20 or "
            "more), delta method, percentile bootstrap or Dirichlet posterior "
            "(auto)",
            "intervals",
            default=DEFAULT_METHOD,
            choices={m: m for m in METHODS},
            also=("method",),  # fbeta_confidence_interval's name for it
        ),
    ),
    Option(
        "n_resamples",
        "an int >= 2",
        _n_resamples,
        cli=Cli(
            "bootstrap replicates or posterior draws (1000)",
            "intervals",
            default=1000,
            kind=int,
            metavar="N",
        ),
    ),
    Option(
        "random_state",
        "None, an int, a numpy.random.Generator or a numpy.random.RandomState "
        "(ints >= 0)",
        _random_state,
        cli=Cli(
            "seed of the bootstrap and the posterior, for reproducible "
            "intervals (without it the posterior's draws are seeded by the "
            "counts)",
            "intervals",
            kind=int,
            metavar="SEED",
            accepted="an int in the range [0, inf)",
        ),
    ),
    Option("verbose", "an int in the range [0, inf) (0 prints nothing)", _verbose),
)

_NORMALISE: dict[str, Callable[[Any], Any]] = {o.name: o.normalise for o in OPTIONS}


def check_options_of(caller: str, /, **options: Any) -> dict[str, Any]:
    """Check the options of one call of the public function ``caller``.

    Each keyword is an option of :data:`OPTIONS`; returns them normalised, in
    the order given. A refused value raises the exception of the first refused
    option in the table's order, naming ``caller``. Called once per public
    call, before anything is read or counted; nothing below re-checks.
    """
    checked = {}
    for name, value in options.items():
        normalised = _NORMALISE[name](value)
        if normalised is INVALID:
            raise _first_error(caller, options)
        checked[name] = normalised
    return checked


def _first_error(caller: str, options: dict[str, Any]) -> Exception:
    for option in OPTIONS:
        if option.name in options:
            value = options[option.name]
            if option.normalise(value) is INVALID:
                return option.error(value, caller)
    raise AssertionError("no refused option")  # pragma: no cover


def as_generator(random_state: Any) -> np.random.Generator:
    """A numpy ``Generator`` from a checked ``random_state``: a new one for
    None, seeded by an int, the same ``Generator``, or seeded by a draw from a
    ``RandomState``."""
    if random_state is None:
        return np.random.default_rng()
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(0, 2**31 - 1))
    return np.random.default_rng(int(random_state))


def is_array_like(value: Any) -> bool:
    """scikit-learn's notion of "array-like": has a length, a shape or __array__."""
    return (
        hasattr(value, "__len__")
        or hasattr(value, "shape")
        or hasattr(value, "__array__")
    ) and not np.isscalar(value)


def check_array_like(value: Any, *, name: str, caller: str, sparse: bool) -> None:
    """Reject scalars and other non-sequences (and, unless ``sparse``, sparse
    matrices) for a data argument, as scikit-learn's parameter validation does."""
    if (
        value is None
        or not is_array_like(value)
        or (not sparse and hasattr(value, "toarray"))  # a scipy sparse matrix
    ):
        accepted = "an array-like or a sparse matrix" if sparse else "an array-like"
        raise InvalidParameterError(
            f"The '{name}' parameter of {caller} must be {accepted}. " + _got(value)
        )


def check_weight_shape(
    shape: tuple[Any, ...], n_samples: int, *, inputs: str = "y_true and y_pred"
) -> None:
    """Refuse weights of ``shape`` unless they are one per sample of ``inputs``
    (``ValueError``); the shape check of :func:`check_sample_weight`, also made
    on weights that stay where they are (a device, a Dask cluster)."""
    if len(shape) != 1:
        raise ValueError(
            "sample_weight must be a 1-D array, one weight per sample; got an "
            f"array of shape {shape}."
        )
    if shape[0] != n_samples:
        raise ValueError(
            f"sample_weight has {shape[0]} entries but {inputs} "
            f"have {n_samples} samples; give one weight per sample."
        )


def check_finite_weights(xp: Any, weights: Any) -> None:
    """Refuse weights (an array of the namespace ``xp``: NumPy's, or a
    device's, where they stay) holding NaN or infinity (``ValueError``)."""
    if not bool(xp.all(xp.isfinite(weights))):
        bad = "NaN" if bool(xp.any(xp.isnan(weights))) else "infinity"
        raise ValueError(
            f"Input sample_weight contains {bad}; sample weights must be finite."
        )


def _number_kind(xp: Any, dtype: Any) -> str:
    """NumPy's kind letter of a dtype of the namespace ``xp``: ``"c"``
    (complex), ``"f"`` (bool, integer or real floating: numbers a weight can
    be) or ``"O"`` (anything else)."""
    if xp is np:
        kind = np.dtype(dtype).kind
        return kind if kind == "c" else ("f" if kind in "biuf" else "O")
    if xp.isdtype(dtype, "complex floating"):
        return "c"
    return "f" if xp.isdtype(dtype, ("bool", "integral", "real floating")) else "O"


def check_sample_weight(
    sample_weight: Any,
    n_samples: int,
    *,
    inputs: str = "y_true and y_pred",
    positive_total: bool = False,
    xp: Any = None,
    dtype: Any = None,
) -> Any:
    """Return ``sample_weight`` as a finite float vector of length ``n_samples``.

    ``sample_weight`` passed :func:`check_array_like` (no scalar, no sparse
    matrix). Negative weights are accepted (as in scikit-learn); non-numeric,
    non-finite, multi-dimensional or wrongly sized weights raise
    ``ValueError``. Weights that are all zero are the counting's to judge
    (:func:`~._counting._record.zero_weight_rule`), unless ``positive_total``:
    then negative weights, and weights that are all zero, raise ``ValueError``
    here (a decision rule is tuned on non-negative weights). ``inputs``: the
    arguments whose samples the weights are for, as the length error names
    them.

    The same check is made where the weights stay: ``xp``, the array
    namespace of weights on a device, checks them there and returns them as
    its floating ``dtype`` (float64 where the device has it); without
    ``xp`` they are read with NumPy and returned as float64.
    """
    if sample_weight is None:
        return None
    if xp is None:
        try:
            raw = np.asarray(sample_weight)
        except ValueError as exc:  # ragged nested sequences
            raise ValueError(
                "sample_weight must be a 1-D array of numbers (int or float), one "
                "per sample; got a ragged sequence."
            ) from exc
        xp, dtype = np, np.float64
    else:
        raw = sample_weight
    kind = _number_kind(xp, raw.dtype)
    if kind == "c":
        raise ValueError("sample_weight must hold real numbers; got complex values.")
    if kind != "f":  # as sklearn: no strings or objects
        raise TypeError(
            "sample_weight must be a 1-D array of numbers (int or float); got "
            f"values of dtype {raw.dtype} (convert them with np.asarray(..., "
            "dtype=float) if they are numbers)."
        )
    weights = raw.astype(dtype, copy=False) if xp is np else xp.astype(raw, dtype)
    check_weight_shape(tuple(weights.shape), n_samples, inputs=inputs)
    check_finite_weights(xp, weights)
    if positive_total and bool(xp.any(weights < 0)):
        raise ValueError(
            "sample_weight must be non-negative to tune a decision rule; got "
            f"{int(xp.count_nonzero(weights < 0))} negative weight(s)."
        )
    if positive_total and n_samples and not bool(xp.any(weights != 0)):
        raise all_zero_weights(n_samples)
    return weights


def all_zero_weights(n_samples: int | None) -> ValueError:
    """The refusal of ``sample_weight`` that is all zero in the data of one
    call (:func:`check_sample_weight` with ``positive_total``, and the
    counting's :func:`~._counting._record.zero_weight_rule`), as recent
    scikit-learn refuses it."""
    return ValueError(
        "sample_weight must contain at least one non-zero number; all "
        f"{n_samples} weights are zero."
    )


# The package folder (this file is in sklearn_macrof1/): warnings point past it.
_PACKAGE_DIR = str(Path(__file__).resolve().parent)


ORIENTATIONS = ("true", "predicted")

#: Largest total of a float matrix: the aggregation multiplies counts by small
#: constants ((1 + beta**2) tp + ...), which must stay finite for beta <= ~1e4.
_MAX_FLOAT_TOTAL = 1e300


def check_confusion_matrix(matrix: Any, *, rows: Any) -> np.ndarray:
    """Validate a square matrix of counts; return it with rows = true labels."""
    if rows not in ORIENTATIONS:
        raise ValueError(
            "rows must say what the rows of the matrix are: 'true' (rows are true "
            "labels, as in sklearn.metrics.confusion_matrix) or 'predicted' (rows "
            f"are predictions, as in the reference paper); got {rows!r}."
        )
    if hasattr(matrix, "toarray"):
        matrix = matrix.toarray()
    try:
        m = np.asarray(matrix, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            "matrix must be a square 2-D array of non-negative counts; it holds "
            "values that are not numbers."
        ) from exc
    if m.ndim != 2 or m.shape[0] != m.shape[1]:
        raise ValueError(
            "matrix must be a square 2-D array of non-negative counts (one row and "
            f"one column per class); got shape {m.shape}."
        )
    if m.shape[0] == 0:
        raise ValueError("matrix is empty; it needs at least one class.")
    if not np.isfinite(m).all():
        raise ValueError("matrix must hold finite counts; it contains NaN or inf.")
    if (m < 0).any():
        raise ValueError("matrix must hold non-negative counts; it has negatives.")
    with np.errstate(over="ignore"):
        total = float(m.sum())
    if total == 0:
        raise ValueError("matrix holds no samples (all counts are zero).")
    raw = np.asarray(matrix)
    if raw.dtype.kind in "biu":
        # Counted exactly in int64: every sum of cells is at most the total.
        if total >= 2.0**63:
            raise ValueError(
                f"matrix counts are too large: they sum to about {total:.3g}, "
                "beyond int64 (2**63 - 1), where the row and column sums would "
                "overflow. F-scores do not change when every count is divided by "
                "the same number: scale the matrix down."
            )
        m = raw.astype(np.int64)
    elif not total <= _MAX_FLOAT_TOTAL:
        raise ValueError(
            f"matrix counts are too large: they sum to {total:.3g}, where "
            "the ratios behind the scores would overflow float64 (the limit is "
            f"{_MAX_FLOAT_TOTAL:.3g}). F-scores do not change when every count is "
            "divided by the same number: scale the matrix down."
        )
    return m if rows == "true" else m.T


def warn_user(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` attributed to the first caller outside this package."""
    import sys
    import warnings

    frame: FrameType | None = sys._getframe(0)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
        level += 1
    warnings.warn(message, category, stacklevel=level)
