"""The notebook view of results: :func:`render_html` gives the ``_repr_html_``
of a result from its :class:`~._table.Table` description (a long table shows its
first :data:`~._table.MAX_HTML_ROWS` rows and says how many it left out, as
pandas does)."""

from __future__ import annotations

import html
from collections.abc import Sequence

from ._table import Table, cell

_STYLE = (
    "<style>"
    ".skm1 table{border-collapse:collapse;margin:0.2em 0 0.6em 0}"
    ".skm1 th,.skm1 td{padding:0.15em 0.7em;text-align:right}"
    ".skm1 thead th{border-bottom:1px solid #888}"
    ".skm1 tbody th{text-align:left;font-weight:normal}"
    ".skm1 caption{text-align:left;font-weight:bold;padding-bottom:0.2em}"
    ".skm1 p{margin:0.1em 0;font-size:0.9em}"
    "</style>"
)


def _table_html(table: Table) -> str:
    esc = html.escape
    shown = [c for c in table.columns if c.shown]
    headings = [c.key if c.heading is None else c.heading for c in shown]
    head = "".join(f"<th>{esc(h)}</th>" for h in [table.index, *headings])
    body = "".join(
        f"<tr><th>{esc(table.label(i))}</th>"
        + "".join(f"<td>{esc(cell(table, c, c.values[i]))}</td>" for c in shown)
        + "</tr>"
        for i in table.shown_rows()
    )
    return (
        f"<table><caption>{esc(table.title)}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        + "".join(f"<p>{esc(note)}</p>" for note in table.view_notes())
    )


def render_html(tables: list[Table], notes: Sequence[str] = ()) -> str:
    """The ``_repr_html_`` of a result: its tables, then its notes."""
    parts = [_table_html(t) for t in tables]
    parts += [f"<p>{html.escape(n)}</p>" for n in notes]
    return f'<div class="skm1">{_STYLE}{"".join(parts)}</div>'
