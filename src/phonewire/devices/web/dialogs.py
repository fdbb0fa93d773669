"""JavaScript dialogs (``alert``, ``confirm``, ``prompt``, ``beforeunload``) on the web phone.  Pure: no I/O.

While a page shows one, its renderer answers nothing that runs in it (the connection fails such calls at once:
:class:`~phonewire.devices.web.cdp.CdpDialogOpen`).  The device remembers the dialog (:class:`Dialog`, from
``Page.javascriptDialogOpening``) and shows it as the iOS backend shows an alert, so agents see one shape: an
``Alert`` node labelled with the message, a ``TextField`` holding a prompt's text, one ``Button`` per answer, laid
out where a phone draws a dialog (centred), over the page's last walked view, whose interactive nodes are
``coveredBy`` the alert.  A tap inside a button answers the dialog (``Page.handleJavaScriptDialog``); a prompt's
field takes typing and deletes in this object (sent with OK); Escape and back dismiss (Cancel).  The device's
part lives here too, below the pure layout: answering a page's dialog, tapping it, drawing it over the page's last
view, and the refusals of what cannot run under it (each on a page that shows one: :class:`Shows`).

Lifecycle of one dialog::

    open (javascriptDialogOpening) ──tap OK / return──► accepted ──► closed (javascriptDialogClosed: forgotten)
                                   ──tap Cancel / escape / back / app backgrounded or closed──► dismissed ──►
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from phonewire.devices.web.cdp import CdpDialogOpen, CdpProtocolError, CdpSession, target_gone
from phonewire.devices.web.walk import tree_from_walk
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import INTERACTIVE_ROLES, PAGE_DIALOG, RawNode, Rect, Snapshot, build_snapshot

KINDS: Final = ("alert", "confirm", "prompt", "beforeunload")
OK: Final = "OK"
CANCEL: Final = "Cancel"
#: The system's permission dialog (environment.py: a page asked for a permission the phone has not decided): its
#: answers, as iOS words them; the page is not stopped while it shows, the device answers it (``respond``).
PERMISSION: Final = "permission"
ALLOW: Final = "Allow"
DONT_ALLOW: Final = "Don't Allow"
#: The system's menu for a link a long press held (link_menu.py): its choices, stacked, the link's address above.
LINK_MENU: Final = "link menu"
#: Where the dialog is drawn (CSS px): centred, this wide at most, the message above, a prompt's field, buttons.
WIDTH: Final = 280.0
TEXT_HEIGHT: Final = 88.0
FIELD_HEIGHT: Final = 40.0
BUTTON_HEIGHT: Final = 44.0
IDENTIFIER: Final = PAGE_DIALOG
#: A beforeunload dialog's message (the page's own text is not shown by browsers).
LEAVE_MESSAGE: Final = "Leave site? Changes that you made may not be saved."
#: How long back waits for its history step to be taken, or for the page's beforeunload dialog (scaled).
LEAVE_WAIT_S: Final = 1.0


@dataclass(slots=True)
class Dialog:
    kind: str
    message: str
    default: str = ""
    #: A prompt's field: its text now (starts as the default), and whether a tap put the caret in it.
    text: str = ""
    focused: bool = False
    #: The dialog as replies carry it (``dialog``): one object for the dialog's life, so a reply can tell "the
    #: same dialog" from "another one" by identity; the device adds ``answer`` ("accepted" / "dismissed").
    wire: dict[str, Any] = field(default_factory=dict)
    #: A permission dialog's answer, given by the device (True: Allow); None for a page's own dialog.
    respond: Callable[[bool], Awaitable[None]] | None = None
    #: A system menu's choices and what the device does for the one tapped (back closes it, choosing none).
    choices: tuple[str, ...] = ()
    choose: Callable[[str], Awaitable[None]] | None = None

    @classmethod
    def opening(cls, params: dict[str, Any]) -> Dialog:
        kind = str(params.get("type") or "alert")
        kind = kind if kind in KINDS else "alert"
        message = str(params.get("message") or "")
        if kind == "beforeunload":
            message = LEAVE_MESSAGE
        default = str(params.get("defaultPrompt") or "") if kind == "prompt" else ""
        wire: dict[str, Any] = {"type": kind, "message": message}
        if kind == "prompt":
            wire["defaultText"] = default
        return cls(kind, message, default, default, wire=wire)

    def title(self) -> str:
        """``confirm dialog "Delete?"`` (messages name it after "the" or "a"/"an": see :func:`refused`)."""
        what = self.kind if self.choices else f"{self.kind} dialog"
        return f"{what} {json.dumps(self.message[:80], ensure_ascii=False)}"

    def a_title(self) -> str:
        return ("an " if self.kind[:1] in "aeiou" else "a ") + self.title()

    def buttons(self) -> tuple[str, ...]:
        if self.choices:
            return self.choices
        if self.kind == PERMISSION:
            return (DONT_ALLOW, ALLOW)
        return (OK,) if self.kind == "alert" else (CANCEL, OK)


def layout(dialog: Dialog, viewport: Rect) -> tuple[Rect, Rect | None, list[tuple[str, Rect]]]:
    """Where the dialog, its prompt field (if any) and its buttons are on a screen of ``viewport``."""
    width = min(WIDTH, max(1.0, viewport.width - 40))
    extra = FIELD_HEIGHT if dialog.kind == "prompt" else 0.0
    names = dialog.buttons()
    rows = len(names) if dialog.choices else 1  # (a menu's choices one under another; answers side by side)
    height = TEXT_HEIGHT + extra + BUTTON_HEIGHT * rows
    left = viewport.x + (viewport.width - width) / 2
    top = viewport.y + max(0.0, (viewport.height - height) / 2)
    field_rect = Rect.of(left + 12, top + TEXT_HEIGHT, width - 24, extra - 8) if extra else None
    below = top + TEXT_HEIGHT + extra
    if dialog.choices:
        rows_at = (below + n * BUTTON_HEIGHT for n in range(len(names)))
        buttons = [(name, Rect.of(left, at, width, BUTTON_HEIGHT)) for name, at in zip(names, rows_at, strict=True)]
    else:
        each = width / len(names)
        buttons = [(name, Rect.of(left + n * each, below, each, BUTTON_HEIGHT)) for n, name in enumerate(names)]
    return Rect.of(left, top, width, height), field_rect, buttons


def _inside(rect: Rect, x: float, y: float) -> bool:
    return rect.x <= x <= rect.x + rect.width and rect.y <= y <= rect.y + rect.height


def hit(dialog: Dialog, viewport: Rect, x: float, y: float) -> str:
    """What a tap at (x, y) reaches: a button's name, ``"field"`` (a prompt's), or ELEMENT_COVERED elsewhere (the
    dialog is modal: nothing under it takes taps)."""
    box, field_rect, buttons = layout(dialog, viewport)
    for name, rect in buttons:
        if _inside(rect, x, y):
            return name
    if field_rect is not None and _inside(field_rect, x, y):
        return "field"
    where = "outside its buttons" if _inside(box, x, y) else "on the page under it"
    raise ProtocolError(e.ELEMENT_COVERED, f"{dialog.a_title()} is open and the tap landed {where}", hint(dialog))


def hint(dialog: Dialog) -> str:
    if dialog.choices:
        choices = ", ".join(f'"{c}"' for c in dialog.choices)
        return f"Tap one of the {dialog.kind}'s Buttons ({choices}), or press back (closes it, choosing none)."
    answers = " or ".join(f'"{b}"' for b in reversed(dialog.buttons()))
    fill = "; `fill` its TextField first to answer with text" if dialog.kind == "prompt" else ""
    return f"Answer the dialog first: tap its Button {answers}{fill}, or press back (dismisses it, as Cancel)."


def refused(dialog: Dialog, what: str) -> ProtocolError:
    """The refusal of a command that cannot run while the dialog is open (nothing was sent to the page)."""
    return ProtocolError(e.ELEMENT_COVERED, f"{what}: {dialog.a_title()} covers the page", hint(dialog))


def node(dialog: Dialog, viewport: Rect) -> RawNode:
    """The dialog as the snapshot shows it: an ``Alert`` with a prompt's ``TextField`` and its ``Button``s."""
    box, field_rect, buttons = layout(dialog, viewport)
    children: list[RawNode] = []
    if field_rect is not None:
        field_node = RawNode("TextField", value=dialog.text or None, rect=field_rect, enabled=True, interactive=True)
        field_node.focused = dialog.focused
        children.append(field_node)
    children += [RawNode("Button", label=name, rect=rect, enabled=True, interactive=True) for name, rect in buttons]
    return RawNode("Alert", label=dialog.message or dialog.kind, identifier=IDENTIFIER, rect=box, children=children)


def cover(root: RawNode, alert: RawNode) -> None:
    """Put ``alert`` (an Alert, or another modal node: a file chooser's sheet) on top of the view under ``root`` and
    mark every interactive node under it as covered."""
    label = " ".join((alert.label or "").split())[:80]
    by = f"{alert.type} {json.dumps(label, ensure_ascii=False)}" if label else alert.type
    stack = list(root.children)
    while stack:
        n = stack.pop()
        stack.extend(n.children)
        if n.interactive or n.type in INTERACTIVE_ROLES:
            n.covered_by = by
            n.tap_point = None
    root.children.insert(0, alert)


# -- the device's part: a page that shows a dialog ----------------------------------------------------------------
class Shows(Protocol):
    """What dialogs read and write of a page (target.Page)."""

    session: CdpSession
    dialog: Dialog | None
    unsettled: bool
    gone: str | None
    commits: int
    last_walk: dict[str, Any] | None


@contextlib.contextmanager
def may_open(page: Shows) -> Iterator[None]:
    """An action whose effect is a dialog (a click handler calling ``confirm()``) ends there: the page answers
    nothing more until the dialog is answered, and the reply says it opened (the runner reads ``dialog()``)."""
    try:
        yield
    except CdpDialogOpen:
        if page.dialog is None:
            raise


async def answer(page: Shows, *, accept: bool) -> Dialog:
    """Answer the page's dialog: OK (a prompt with its field's text) or Cancel."""
    dialog = page.dialog
    assert dialog is not None
    params: dict[str, Any] = {"accept": accept}
    if accept and dialog.kind == "prompt":
        params["promptText"] = dialog.text
    try:
        if dialog.respond is not None:  # the system's permission dialog: the device answers the page
            await dialog.respond(accept)
        elif dialog.choose is not None:  # a system menu closed without a choice: nothing to tell the page
            pass
        else:
            await page.session.send("Page.handleJavaScriptDialog", params)
    except CdpProtocolError as exc:
        if target_gone(exc):
            raise
        # "No dialog is showing": it closed by itself (the page navigated) — nothing left to answer
    dialog.wire["answer"] = "accepted" if accept else "dismissed"
    if page.dialog is dialog:
        page.dialog = None
    page.unsettled = True
    return dialog


async def asked_to_leave(page: Shows, commits: int, scale: float) -> bool:
    """After a step away was asked for (``commits`` counted before): wait (bounded) until a navigation commits
    or the page's ``beforeunload`` dialog opens instead; True for the dialog (the page stays until it is
    answered OK)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + LEAVE_WAIT_S * scale
    while page.dialog is None and page.commits == commits and not page.gone and loop.time() < deadline:
        await asyncio.sleep(0.01)
    return page.dialog is not None and page.dialog.kind == "beforeunload"


def viewport(page: Shows, width: float, height: float) -> Rect:
    """The screen a dialog is drawn on: the page's last walked viewport, else the profile's (``width``,
    ``height``)."""
    walk = page.last_walk
    if walk is not None:
        return Rect.of(0, 0, walk.get("w"), walk.get("h"))
    return Rect.of(0, 0, width, height)


def snapshot(page: Shows, dialog: Dialog, screen: Rect, kind: str) -> Snapshot:
    """The dialog over the page's last walked view (the page answers no walk while the dialog is open)."""
    root = tree_from_walk(page.last_walk) if page.last_walk is not None else RawNode("Application", rect=screen)
    cover(root, node(dialog, screen))
    return build_snapshot(root, screen, kind)


async def tap(page: Shows, dialog: Dialog, screen: Rect, at: tuple[float, float], taps: int) -> str:
    """A tap at ``at`` on the dialog: its field takes the caret, a button answers it."""
    target = hit(dialog, screen, *at)
    if target == "field":
        dialog.focused = True
        return f"TextField of the {dialog.title()}"
    if taps != 1:
        raise ProtocolError(e.INVALID_REQUEST, f"a dialog button takes one tap, not {taps}", hint(dialog))
    if dialog.choose is not None:  # a system menu: the choice is the device's to carry out, the menu closed first
        dialog.wire["answer"] = target
        page.dialog, page.unsettled = None, True
        await dialog.choose(target)
    else:
        await answer(page, accept=target in (OK, ALLOW))
    return f"Button {json.dumps(target)} of the {dialog.title()}"


def no_dialog(page: Shows, what: str) -> None:
    """Refuse ``what`` while the page shows a dialog."""
    if page.dialog is not None:
        raise refused(page.dialog, f"{what} cannot run")


def typing_field(dialog: Dialog) -> Dialog:
    """The prompt whose field takes typing; TEXT_INPUT_NOT_FOCUSED for any other dialog or an untapped field."""
    if dialog.kind != "prompt" or not dialog.focused:
        raise ProtocolError(
            e.TEXT_INPUT_NOT_FOCUSED,
            f"no editable element has focus: {dialog.a_title()} is open"
            + (" (tap its TextField first)" if dialog.kind == "prompt" else ""),
            hint(dialog),
        )
    return dialog
