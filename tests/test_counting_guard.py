"""The counting core's one native scatter-add refuses every array it cannot add
safely: SciPy's ``coo_todense`` checks no bounds, so ``add_at_pairs`` checks the
exact arrays it passes, whoever calls it.

The cases that would write out of bounds without the guard run in a subprocess:
a crash there fails the test instead of taking the test run down.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from sklearn_macrof1._core import _scipy_private
from sklearn_macrof1._core._counting import count_targets
from sklearn_macrof1._core._targets import Targets

pytestmark = pytest.mark.skipif(
    not _scipy_private.AVAILABLE, reason="SciPy's routine is absent: bincount is used"
)


def _args(n: int = 6, k: int = 3) -> tuple[np.ndarray, ...]:
    rows = np.arange(n, dtype=np.intp) % k
    return (
        np.zeros((k, k), dtype=np.int64),
        rows,
        rows[::-1].copy(),
        np.ones(n, np.int64),
    )


def test_valid_arrays_are_added_like_bincount() -> None:
    out, rows, cols, values = _args()
    _scipy_private.add_at_pairs(out, rows, cols, values)
    expected = np.bincount(rows * 3 + cols, minlength=9).reshape(3, 3)
    np.testing.assert_array_equal(out, expected)


CRASH_PRONE = {
    "row = k": "rows[0] = 3",
    "row = -1": "rows[1] = -1",
    "col far out": "cols[2] = 10**12",
    "col = -2**62": "cols[3] = -(2**62)",
    "int32 row far out": (
        "rows = rows.astype(np.int32); cols = cols.astype(np.int32); "
        "rows[4] = 2**31 - 1"
    ),
    "int32 col negative": (
        "rows = rows.astype(np.int32); cols = cols.astype(np.int32); cols[0] = -7"
    ),
    "masked huge row": "rows = np.ma.masked_array(rows, mask=[0, 0, 0, 1, 0, 0]); "
    "rows.data[3] = 10**9",
    "values longer than the index arrays": "values = np.ones(7, np.int64)",
    "index arrays shorter than the count": "rows = rows[:2]; cols = cols[:2]",
    "empty table": "out = np.zeros((0, 0), np.int64)",
}


def test_out_of_range_and_mismatched_arrays_raise_cleanly_in_a_subprocess() -> None:
    """Each case would write outside ``out`` (or read past an index array) if it
    reached SciPy; each must raise ValueError or TypeError and leave ``out`` as it
    was."""
    script = textwrap.dedent(
        """
        import numpy as np
        from sklearn_macrof1._core._scipy_private import add_at_pairs
        cases = {cases!r}
        for name, setup in cases.items():
            out = np.zeros((3, 3), dtype=np.int64)
            rows = np.arange(6, dtype=np.intp) % 3
            cols = rows[::-1].copy()
            values = np.ones(6, np.int64)
            exec(setup)
            before = out.copy()
            try:
                add_at_pairs(out, rows, cols, values)
            except (ValueError, TypeError) as exc:
                unchanged = np.array_equal(out, before)
                print(name, "|", type(exc).__name__, "|", unchanged)
            else:
                print(name, "|", "no error", "|", np.array_equal(out, before))
        """
    ).format(cases=CRASH_PRONE)
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    lines = [line.split(" | ") for line in result.stdout.strip().splitlines()]
    assert [name for name, *_ in lines] == list(CRASH_PRONE)
    for name, error, unchanged in lines:
        assert error in ("ValueError", "TypeError"), (name, error)
        assert unchanged == "True", name


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (lambda a: {**a, "rows": a["rows"].astype(np.float64)}, TypeError),
        (lambda a: {**a, "rows": a["rows"].astype(np.int32)}, TypeError),  # mixed
        (lambda a: {**a, "rows": a["rows"].astype(np.int16)}, TypeError),
        (lambda a: {**a, "values": a["values"].astype(np.int32)}, TypeError),
        (lambda a: {**a, "out": a["out"].astype(np.float32)}, TypeError),
        (lambda a: {**a, "out": a["out"].reshape(-1)}, TypeError),
        (lambda a: {**a, "out": np.asmatrix(a["out"])}, TypeError),
        (lambda a: {**a, "rows": np.ma.masked_array(a["rows"])}, TypeError),
        (lambda a: {**a, "cols": np.tile(a["cols"], 2)[::2]}, ValueError),
        (lambda a: {**a, "out": np.zeros((3, 6), np.int64)[:, ::2]}, ValueError),
        (lambda a: {**a, "rows": a["rows"].astype(">i8")}, ValueError),
        (lambda a: {**a, "rows": a["rows"].reshape(2, 3)}, ValueError),
        (lambda a: {**a, "rows": list(a["rows"])}, TypeError),
    ],
)
def test_wrong_types_shapes_and_layouts_are_refused(change, error) -> None:
    out, rows, cols, values = _args()
    args = change({"out": out, "rows": rows, "cols": cols, "values": values})
    before = np.array(args["out"]).copy()
    with pytest.raises(error):
        _scipy_private.add_at_pairs(**args)
    np.testing.assert_array_equal(np.asarray(args["out"]), before)


@pytest.mark.parametrize(
    "codes",
    [
        np.ma.masked_array([0, 1, 1, 10**9], mask=[0, 0, 0, 1]),
        np.ma.masked_array([0, 1, 1, -7], mask=[0, 0, 0, 1]),
        np.asmatrix([[0, 1, 1, 0]]),
    ],
    ids=["masked huge", "masked negative", "matrix"],
)
def test_subclassed_codes_never_reach_the_scatter_add(codes) -> None:
    """Whatever reaches the counting core, its range checks cannot be fooled by a
    subclass whose reductions differ from its data: the scatter-add refuses it."""
    targets = Targets("1d", codes, np.array([0, 1, 0, 1]), np.arange(2), 4)
    with pytest.raises((TypeError, ValueError, RuntimeError)):
        count_targets(targets, None)
