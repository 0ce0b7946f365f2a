"""How results show themselves: one description, every view.

A result class describes what it shows once, as tables (:mod:`._table`), in the
module of its kind here (:mod:`._summary`: the summary and the accumulator;
:mod:`._intervals`: intervals and comparisons; :mod:`._gap`, :mod:`._search`,
:mod:`._report`); the renderers turn the same description into the notebook's
HTML (:mod:`._html`), the text of ``str()`` and of a report (:mod:`._text`),
and the frame of ``to_frame()``, CSV rows and JSON objects (:mod:`._frame`).
Result classes keep thin ``to_frame`` methods that call these modules, and get
``__str__`` and ``_repr_html_`` from one mixin (:class:`._views.TableViews`)
given their ``_view()``. The layer sits below the statistics, whose result
classes use it; it reads the results it shows and holds no statistics of its
own.
"""
