"""What the agent reads of the screen and the device: the agent view of each snapshot (and its diff against the
previous one), the log and request lines, the screenshot's image."""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

from phonewire.agent.moves import covers, moved, under_keyboard
from phonewire.agent.refs import Index, RefTable
from phonewire.agent.results import View
from phonewire.agent.view import Rendered, page_header, quality_header, render
from phonewire.agent.view_diff import diff
from phonewire.agent.was import brief
from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import Node


class Views:
    """One session's agent views: each snapshot rendered with the refs it issues, and what the previous showed
    (for ``--diff``)."""

    def __init__(self, refs: RefTable) -> None:
        self.refs = refs
        self._previous: list[Node] | None = None
        self._previous_refs: dict[str, Node] = {}  # the refs the previous snapshot issued
        #: The screen the last action's reply showed and its view (the next action's before, when nothing moved).
        self._settled: tuple[list[Node], Rendered] | None = None

    def forget(self) -> None:
        """Another app, or none: no refs, no previous screen."""
        self.refs.clear()
        self._previous = None
        self._settled = None

    def render(
        self,
        nodes: list[Node],
        quality: dict[str, Any],
        *,
        interactive: bool,
        as_diff: bool,
        full: bool = False,
        mark: str | None = None,
    ) -> View:
        index = Index(nodes)
        rendered = render(nodes, interactive=interactive, full=full, name=self.refs.namer(index))
        header = quality_header(quality)
        if as_diff:
            if self._previous is None:
                lines = ["# no previous snapshot in this session: full view", *rendered.lines]
            else:
                # the previous screen with the refs it issued, so that an element drawn anew in the same place (a
                # page that rebuilds its DOM on every change: Streamlit) shows with its new ref (findings 4, F3)
                issued = {id(n): r for r, n in self._previous_refs.items()}
                before = render(
                    self._previous, interactive=interactive, full=full, name=lambda n: issued.get(id(n), "")
                )
                lines = changes(before, rendered) or ["# no changes"]
        else:
            lines = rendered.lines
        lines = [h for h in (header, page_header(quality)) if h] + lines
        self.refs.reset(index, rendered, mark)
        self._previous = nodes
        self._previous_refs = rendered.refs
        self._settled = None  # refs issued afresh: the last action's view names its elements no more
        return View("\n".join(lines), nodes, rendered.refs, quality)

    def settled(
        self, before: list[Node], after: list[Node], mark: str | None = None, *, was: str | None = None
    ) -> list[str]:
        """What an action did: the lines of the view that changed from ``before`` to ``after`` (the screen once
        still), as ``snapshot --diff`` prints them, refs included — ``after`` is this session's view from now on
        (its refs are the ones to act on next, with ``after``'s change mark: a tap on one of them needs no fresh
        snapshot while the page holds; a later ``snapshot --diff`` starts from it).  When ``after`` is another
        document than ``before`` (their marks, ``mark`` and ``was``, name two: a form that posted, a link that
        navigated), the lines are the new page's view under :data:`NEW_PAGE`: every line of the old page gone and
        every line of the new one added, said once."""
        shown_before = None if new_document(was, mark) else self._shown(before)  # (nothing of an old page is said)
        index = Index(after)
        rendered = render(after, name=self.refs.namer(index), closed_selects=True)
        self.refs.settle(index, rendered, mark)
        self._previous = after
        self._previous_refs = rendered.refs
        self._settled = (after, rendered)
        if shown_before is None:
            return [NEW_PAGE, *rendered.lines]
        lines = changes(shown_before, rendered)
        return [ROUTED, *rendered.lines] if routed(shown_before, rendered, lines) else lines

    def _shown(self, before: list[Node]) -> Rendered:
        """The view of ``before``, with the refs its elements carry."""
        if self._settled is not None and self._settled[0] == before:
            return self._settled[1]  # the screen the previous action left, unchanged since: its view
        carried = self.refs.carried_over(Index(before)) if self.refs.refs or self.refs.retired else {}
        return render(before, name=lambda n: carried.get(int(n["index"]), ""), closed_selects=True)


def changes(before: Rendered, after: Rendered) -> list[str]:
    """The diff's lines from ``before`` to ``after`` as the agent reads them: changed lines said briefly (was.py),
    many that only came under a cover (or out), or under the keyboard, as one; and the elements that moved
    (moves.py) when no line came or went (one that did is why the others moved: a row inserted above them) — a
    list whose rows changed places while the button that did it took focus says both."""
    lines = brief(covers(under_keyboard(diff(before, after), before, after)))
    if any(line.startswith(("+ ", "- ")) for line in lines):
        return lines
    return lines + moved(before, after)


#: The first line of an action's diff that ended on another document: the new page's view follows.
NEW_PAGE = "# a new page (the one before is gone):"


#: The first line of an action's diff that ended on another page of the same document (a single-page app's route).
ROUTED = "# another page, the same document (the one before is gone):"


def routed(before: Rendered, after: Rendered, lines: list[str]) -> bool:
    """Whether the diff ``lines`` from ``before`` to ``after`` is better said as ``after``'s view: the document shows
    another page (its title is another: a single-page app went to another route) and what changed takes more lines
    than that page's whole view (Fava's Journal after its Income Statement: 117 diff lines, most of them ``-``).
    Pure."""

    def title(view: Rendered) -> str | None:
        first = view.keys[0].strip() if view.keys else ""
        return first if first.startswith("Application") else None

    return title(before) is not None and title(before) != title(after) and len(lines) > len(after.lines)


def new_document(before: str | None, after: str | None) -> bool:
    """Whether change marks ``before`` and ``after`` (``DOC:COUNT``) are of two documents; False when either is
    unknown."""
    return bool(before and after) and str(before).rpartition(":")[0] != str(after).rpartition(":")[0]


def dropped(data: Mapping[str, Any]) -> str:
    """What a ``logs`` / ``network`` reply does not hold: the older entries the device no longer kept, and those left
    out to keep the reply small (the newest are in it)."""
    dropped, truncated = data.get("dropped") or 0, data.get("truncated") or 0
    notes = [f"{dropped} older one(s) were dropped: the device keeps the newest only"] if dropped else []
    if truncated:
        notes.append(f"…truncated: {truncated} older one(s) left out, this reply holds the newest "
                     f"{c.MAX_OBSERVED_REPLY_BYTES // 1024} KB")  # fmt: skip
    return f" ({'; '.join(notes)})" if notes else ""


def log_line(entry: Mapping[str, Any]) -> str:
    """One log entry as the agent reads it: ``[console.warn] text (url)``."""
    kind, level = entry.get("kind", "log"), entry.get("level", "")
    tag = kind if not level or level == kind else f"{kind}.{level}"
    where = f" ({entry['url']})" if entry.get("url") else ""
    return f"[{tag}] {entry.get('text', '')}{where}"


def request_line(entry: Mapping[str, Any]) -> str:
    """One request as the agent reads it: ``GET 200 1.2 kB 14 ms http://…``."""
    size = entry.get("size") or 0
    ms = entry.get("ms")
    status = entry.get("error") or entry.get("status")
    timing = f" {ms:g} ms" if isinstance(ms, int | float) else ""
    return f"{entry.get('method', 'GET')} {status} {size / 1000:.1f} kB{timing} {entry.get('url', '')}"


def decode_image(data: Mapping[str, Any]) -> bytes:
    """The runner's ``imageBase64`` (the one key it sends)."""
    value = data.get("imageBase64")
    if isinstance(value, str):
        return base64.b64decode(value)
    raise ProtocolError(e.COMMAND_FAILED, "screenshot reply carried no image", "Try the screenshot again.")
