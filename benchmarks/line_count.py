"""Line count of the library: code and docstrings apart.

Counts the lines of every ``.py`` file of ``sklearn_macrof1`` (the installed
package or, with ``--root``, any checkout of it), split by ``ast`` into:

- docstring lines: the lines of module, class and function docstrings;
- code lines: every other non-blank line that is not only a comment;
- comment and blank lines.

Run ``python benchmarks/line_count.py`` for the working tree, or compare two
commits with ``git worktree``/``git archive`` checkouts passed as ``--root``.
"""

from __future__ import annotations

import argparse
import ast
import io
import tokenize
from pathlib import Path


def _docstring_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(
            node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
        ):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                first, last = body[0].lineno, body[0].end_lineno or body[0].lineno
                lines.update(range(first, last + 1))
    return lines


def _comment_lines(source: str) -> set[int]:
    """Lines holding only a comment."""
    code_lines: set[int] = set()
    comment_lines: set[int] = set()
    skip = {tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comment_lines.add(token.start[0])
        elif token.type not in skip and token.type != tokenize.ENDMARKER:
            code_lines.update(range(token.start[0], token.end[0] + 1))
    return comment_lines - code_lines


def count_file(path: Path) -> dict[str, int]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    docstrings = _docstring_lines(ast.parse(source))
    comments = _comment_lines(source)
    out = {"code": 0, "docstrings": 0, "comments": 0, "blank": 0}
    for number, text in enumerate(lines, start=1):
        if number in docstrings:
            out["docstrings"] += 1
        elif not text.strip():
            out["blank"] += 1
        elif number in comments:
            out["comments"] += 1
        else:
            out["code"] += 1
    out["total"] = len(lines)
    return out


def count_package(root: Path) -> dict[str, dict[str, int]]:
    return {
        str(path.relative_to(root)): count_file(path)
        for path in sorted(root.rglob("*.py"))
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--root",
        type=Path,
        default=Path(__file__).resolve().parents[1] / "sklearn_macrof1",
        help="the package folder to count (default: this checkout's)",
    )
    parser.add_argument("--files", action="store_true", help="one line per file")
    args = parser.parse_args()
    per_file = count_package(args.root)
    keys = ("code", "docstrings", "comments", "blank", "total")
    if args.files:
        for name, counts in per_file.items():
            print(f"{name:45s}", "  ".join(f"{counts[k]:6d}" for k in keys))
    totals = {k: sum(c[k] for c in per_file.values()) for k in keys}
    print(f"{len(per_file)} files: " + ", ".join(f"{k} {totals[k]}" for k in keys))


if __name__ == "__main__":
    main()
