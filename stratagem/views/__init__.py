"""Pages a designer opens in a browser: a record, or a sweep report, as one self-contained HTML file.

One module per concern: :mod:`.page` (the shell: style, the small script, a stepping replay, tables),
:mod:`.strato` (a Strato line as cards on the table), :mod:`.stakd` (STAKD layers from the geometry),
:mod:`.cardclash` (the Card Clash battlefield), :mod:`.prooftree` (a proof tree, collapsible),
:mod:`.matrices` (a Stack Attack certificate as its matrices, rebuilt from the rules), :mod:`.policy` (a
Strato policy with the pile hidden, and the ``odds`` reports), :mod:`.reach` (a reachability report),
:mod:`.records`
(any record -> its page), :mod:`.charts` and :mod:`.report` (a sweep report with its plots as SVG).

Every page is deterministic (same input, same bytes) and reaches no network: no fonts, scripts or
images from elsewhere, and a Content-Security-Policy that forbids every fetch.
"""

from __future__ import annotations

from stratagem.views.records import VIEWABLE, record_page

__all__ = ["VIEWABLE", "record_page"]
