"""The user documentation speaks to users: no commit hashes, no CI scripts.

README.md, CHANGELOG.md, the pages of docs/ and every docstring of the installed
package are read by users, who have neither the repository's history nor its CI.
A commit hash ("measured at 8135aa8") or a CI path (``.ci/run``) there is a
sentence meant for the project's developers (they go to CONTRIBUTING.md, commit
messages or benchmarks/); a repository path such as ``docs/decisions.md`` in a
docstring names a file that is not installed (docstrings name the page's title).

What counts as a commit hash: a token of 7 to 40 hexadecimal characters holding
at least one letter and one digit (a hash of digits only or letters only, such
as "1234567" or "deadbeef", is too rare to name and too common to refuse), not
glued to a word character on either side. Allowed, because they are no hashes:

- a token after "." (the fraction of a number written with an exponent,
  ``1.96078431372549e-2`` in the CLI page, whose digits and ``e`` look like hex);
- a token after "#" (a colour, ``#1f77b4ff``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_HEX = re.compile(r"(?<![\w.#])[0-9a-fA-F]{7,40}(?!\w)")
_CI_PATH = re.compile(r"(?<![\w.])\.ci/")
_REPO_DOC_PATH = re.compile(r"(?<![\w.])docs/[\w./-]+")


def commit_hashes(text: str) -> list[str]:
    """The tokens of ``text`` that read as commit hashes (see the module doc)."""
    return [
        token
        for token in _HEX.findall(text)
        if re.search(r"[a-fA-F]", token) and re.search(r"[0-9]", token)
    ]


def findings(text: str, *, docstring: bool = False) -> list[str]:
    """What a user should not meet in ``text``, one entry per finding."""
    found = [f"commit hash {h}" for h in commit_hashes(text)]
    found += [f"CI path {m.group()}" for m in _CI_PATH.finditer(text)]
    if docstring:
        found += [f"repository path {m}" for m in _REPO_DOC_PATH.findall(text)]
    return found


def _pages() -> list[Path]:
    pages = [ROOT / "README.md", ROOT / "CHANGELOG.md"]
    return pages + sorted((ROOT / "docs").rglob("*.md"))


def _docstrings() -> list[tuple[str, str]]:
    """(where, docstring) of every module, class and function of the package."""
    out = []
    for path in sorted((ROOT / "sklearn_macrof1").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(
                node,
                (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef),
            ):
                doc = ast.get_docstring(node, clean=False)
                if doc:
                    name = getattr(node, "name", "module docstring")
                    out.append((f"{path.relative_to(ROOT)}: {name}", doc))
    return out


@pytest.mark.parametrize("page", _pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_pages_carry_no_commit_hash_and_no_ci_path(page: Path) -> None:
    lines = page.read_text(encoding="utf-8").splitlines()
    bad = [
        f"line {i}: {finding}"
        for i, line in enumerate(lines, 1)
        for finding in findings(line)
    ]
    assert not bad, f"{page.relative_to(ROOT)}: {bad}"


def test_docstrings_carry_no_commit_hash_ci_path_or_repository_path() -> None:
    docstrings = _docstrings()
    assert len(docstrings) > 100  # the whole package was read
    bad = [
        f"{where}: {finding}"
        for where, doc in docstrings
        for finding in findings(doc, docstring=True)
    ]
    assert not bad, bad


@pytest.mark.parametrize(
    "text",
    [
        "one run at 8135aa8, 2026-11-26",
        "(see commit e72111d)",
        "commit 0123456789abcdef0123456789abcdef01234567 on main",
        "`git show B52B448`",
        "at a4ed27a.",
    ],
)
def test_a_planted_commit_hash_is_found(text: str) -> None:
    assert len(commit_hashes(text)) == 1
    assert findings(text)


@pytest.mark.parametrize(
    "text",
    [
        "1.96078431372549e-2 (averaged F1)",  # a number's fraction and exponent
        "color #1f77b4ff",  # a colour
        "deadbeef and 1234567",  # letters only, digits only
        "0.48534265191225007 and 2026-11-28",
        "id 12345abcdef0123456789abcdef0123456789abcde",  # 42 characters: no hash
        "sklearn_macrof1 0.1.0 and x86_64",
    ],
)
def test_numbers_colours_and_words_are_no_commit_hash(text: str) -> None:
    assert commit_hashes(text) == []


def test_ci_paths_and_repository_paths_are_found() -> None:
    assert findings("run `.ci/run` first") == ["CI path .ci/"]
    assert findings("see .ci/minimum-versions.txt") == ["CI path .ci/"]
    assert findings("see ``docs/decisions.md``") == []  # a page may link a page
    assert findings("see ``docs/decisions.md``", docstring=True) == [
        "repository path docs/decisions.md"
    ]
    assert findings("the Decision rules page of the documentation") == []
