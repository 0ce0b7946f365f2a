"""The crash-safety fuzz test (see fuzz.py): a bounded, seeded run.

``MACROF1_FUZZ_CASES`` sets the number of cases (default 180, 20 per category;
``.ci/run`` runs 2,000 and release checks 100,000: ``MACROF1_FUZZ_CASES=100000
python -m pytest tests/fuzz -s -m ""`` or ``python tests/fuzz/fuzz.py run --cases
100000``); ``MACROF1_FUZZ_SEED`` the seed (default 0). With ``-s`` the counts of
cases per category, entry point and verdict are printed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))

import fuzz

CASES = int(os.environ.get("MACROF1_FUZZ_CASES", "180"))
SEED = int(os.environ.get("MACROF1_FUZZ_SEED", "0"))


@pytest.mark.slow
def test_no_crash_and_scikit_learns_answer_on_adversarial_inputs():
    result = fuzz.drive(SEED, CASES)
    table, failures = fuzz.summarize(result, CASES)
    print("\n" + table)
    assert len(result["records"]) + len(result["crashes"]) == CASES
    assert not failures, "\n".join(failures[:30])


def test_cases_are_reproducible_from_seed_and_index(tmp_path):
    a = fuzz.make_case(3, 17, str(tmp_path))
    b = fuzz.make_case(3, 17, str(tmp_path))
    assert (a.category, a.entry, sorted(a.tags)) == (
        b.category,
        b.entry,
        sorted(b.tags),
    )
    assert repr(a.y_true) == repr(b.y_true) and repr(a.options) == repr(b.options)


def test_a_crash_is_detected_and_attributed(monkeypatch, tmp_path):
    """A worker that dies is restarted after the case it died on, which is
    reported as a crash (here: a case made to kill its worker)."""
    script = tmp_path / "crasher.py"
    script.write_text(
        "import json, os, sys\n"
        "seed, start, stop = map(int, sys.argv[-3:])\n"
        "for i in range(start, stop):\n"
        "    if sys.argv[1] == 'worker' and i == 2:\n"
        "        os.abort()\n"
        "    if sys.argv[1] == 'ours':\n"
        "        os.abort()\n"
        "    print(json.dumps({'i': i, 'category': 'c', 'entry': 'e', "
        "'verdict': 'ok'}), flush=True)\n"
    )
    monkeypatch.setattr(fuzz, "__file__", str(script))
    result = fuzz.drive(0, 5, n_workers=1)
    assert [c["i"] for c in result["crashes"]] == [2]
    assert sorted(result["records"]) == [0, 1, 3, 4]


def test_judge_accepts_only_same_values_errors_or_listed_differences(monkeypatch):
    monkeypatch.setattr(fuzz, "_REFERENCE_SKLEARN", True)
    case = fuzz.Case(0, 0, "dtype", "averaged_fbeta_score")
    same = ("value", np.array(0.5))
    assert fuzz.judge(case, same, ("value", np.array(0.5 + 1e-13))) == "ok"
    assert fuzz.judge(case, same, ("value", np.array(0.6))).startswith("mismatch")
    assert fuzz.judge(case, ("error", ValueError()), ("error", ValueError())) == "ok"
    assert fuzz.judge(case, same, ("error", ValueError())).startswith("mismatch")
    assert fuzz.judge(case, ("error", KeyError()), same).startswith("mismatch")
    case.tags.add("stored-zero")
    assert fuzz.judge(case, same, ("value", np.array(0.6))) == "ok:sparse-stored-zero"


@pytest.mark.slow
def test_out_of_range_codes_reaching_the_counting_core_fail_the_run(monkeypatch):
    """With a label encoding broken on purpose (codes past the last class,
    claimed in range), the run must fail: the codes are counted in the wrong
    cells or past the table (a mismatch), or the worker crashes (a crash)."""
    monkeypatch.setenv("MACROF1_FUZZ_INJECT", "shifted-codes")
    n = 27  # three rounds of the nine categories
    result = fuzz.drive(5, n)
    _, failures = fuzz.summarize(result, n)
    assert len(failures) >= 3, failures
