"""The views every result with tables has, written once."""

from __future__ import annotations

from ._html import render_html
from ._table import Table
from ._text import render_view


class TableViews:
    """``__str__`` and ``_repr_html_`` of a result from what it shows.

    A result class defines ``_view()``: its tables and the notes after them,
    as a notebook shows them; the text of ``str()`` is the same view as text.
    """

    __slots__ = ()

    def _view(self) -> tuple[list[Table], list[str]]:
        raise NotImplementedError

    def __str__(self) -> str:
        return render_view(*self._view())

    def _repr_html_(self) -> str:
        return render_html(*self._view())
