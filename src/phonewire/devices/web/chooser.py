"""A page's file chooser on the web phone (``<input type=file>``, ``showOpenFilePicker`` is not one): shown as the
phone's system sheet, answered by ``pick_file``.

Every page intercepts its file choosers (``Page.setInterceptFileChooserDialog``): a tap on a file input (or a
``input.click()`` the page's handler makes) opens no window but sends ``Page.fileChooserOpened`` with the input's
backend node and whether it takes several files.  The device remembers it (:class:`FileChooser`) and shows it the way
a phone does — a sheet over the bottom of the screen, ``Dialog "Choose a file"`` with the kinds the input accepts as
its value and a ``Cancel`` button — over the page's view, whose interactive nodes are ``coveredBy`` it.  While it is
open a tap elsewhere is ELEMENT_COVERED.  ``pick_file`` hands it files (``DOM.setFileInputFiles``: the input's
``input`` and ``change`` events fire, the page reads each file's name and size); Cancel closes it (the input's
``cancel`` event fires, as Chromium fires it when a picker is dismissed).

Lifecycle of one chooser::

    open (Page.fileChooserOpened) ──pick_file──► picked (the page's change handler runs) ──► forgotten
                                  ──tap Cancel──► cancelled (the page's cancel handler runs) ──► forgotten
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

from phonewire.devices.web.cdp import CdpProtocolError, CdpSession, target_gone
from phonewire.devices.web.dialogs import cover
from phonewire.devices.web.walk import tree_from_walk
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect, Snapshot, build_snapshot

IDENTIFIER: Final = "phonewire-file-chooser"
CANCEL: Final = "Cancel"
#: The sheet's height (CSS px): the title and the accepted kinds, then Cancel at the bottom, full width.
SHEET_HEIGHT: Final = 160.0
BUTTON_HEIGHT: Final = 52.0
#: Most files one pick hands over (a multiple input's).
MAX_FILES: Final = 100
_CANCEL_JS: Final = "function() { this.dispatchEvent(new Event('cancel', {bubbles: true})); }"


@dataclass(slots=True)
class FileChooser:
    """The chooser a page opened: its input (a backend node id) and whether it takes several files."""

    backend_node_id: int
    multiple: bool
    #: The input's ``accept`` (``image/*,.pdf``), read when the chooser is first shown ("" when it has none).
    accept: str | None = None

    @classmethod
    def opening(cls, params: dict[str, Any]) -> FileChooser:
        return cls(int(params.get("backendNodeId") or 0), params.get("mode") == "selectMultiple")

    def title(self) -> str:
        return "Choose files" if self.multiple else "Choose a file"


def layout(screen: Rect) -> tuple[Rect, Rect]:
    """The sheet and its Cancel button on a screen of ``screen``: along the bottom edge, full width."""
    height = min(SHEET_HEIGHT, screen.height)
    sheet = Rect.of(screen.x, screen.y + screen.height - height, screen.width, height)
    button = Rect.of(sheet.x, sheet.y + height - BUTTON_HEIGHT, sheet.width, BUTTON_HEIGHT)
    return sheet, button


def hint(chooser: FileChooser) -> str:
    several = " (several: `pick-file A B`)" if chooser.multiple else ""
    return f'Hand it files with `pick-file PATH`{several}, or tap its Button "Cancel".'


def node(chooser: FileChooser, screen: Rect) -> RawNode:
    sheet, button = layout(screen)
    cancel = RawNode("Button", label=CANCEL, rect=button, enabled=True, interactive=True)
    return RawNode("Dialog", label=chooser.title(), identifier=IDENTIFIER, value=chooser.accept or None, rect=sheet,
                   children=[cancel])  # fmt: skip


def snapshot(walk: dict[str, Any], chooser: FileChooser, screen: Rect, kind: str) -> Snapshot:
    """The sheet over the page's view just walked."""
    root = tree_from_walk(walk)
    cover(root, node(chooser, screen))
    return build_snapshot(root, screen, kind)


async def read_accept(session: CdpSession, chooser: FileChooser) -> None:
    """The input's ``accept`` attribute, once (the sheet's value)."""
    if chooser.accept is not None:
        return
    chooser.accept = ""
    described = await session.send("DOM.describeNode", {"backendNodeId": chooser.backend_node_id})
    attributes = (described.get("node") or {}).get("attributes") or []
    for name, value in zip(attributes[::2], attributes[1::2], strict=False):
        if name == "accept":
            chooser.accept = str(value)


def checked_files(chooser: FileChooser, files: list[str]) -> list[str]:
    """The files as absolute paths of regular files, as many as the input takes; INVALID_REQUEST otherwise."""
    if not files:
        raise ProtocolError(e.INVALID_REQUEST, "pick-file needs at least one file", hint(chooser))
    if len(files) > 1 and not chooser.multiple:
        raise ProtocolError(
            e.INVALID_REQUEST,
            f"this file chooser takes one file, not {len(files)}",
            "Pick one file: the page's input has no `multiple`.",
        )
    if len(files) > MAX_FILES:
        raise ProtocolError(e.INVALID_REQUEST, f"at most {MAX_FILES} files at once", "Pick fewer files.")
    paths = [Path(f).expanduser().absolute() for f in files]
    for given, path in zip(files, paths, strict=True):
        if not path.is_file():
            what = "a directory" if path.is_dir() else "no file"
            raise ProtocolError(
                e.INVALID_REQUEST,
                f"{json.dumps(given)} is {what}",
                "Name files that exist on the phone's machine (the CLI resolves a relative path against its working "
                "directory); nothing was handed to the page.",
            )
    return [str(p) for p in paths]


def picked(paths: list[str]) -> str:
    return "picked " + ", ".join(Path(p).name for p in paths)


async def pick(session: CdpSession, chooser: FileChooser, paths: list[str]) -> None:
    """Hand ``paths`` to the chooser's input (its input and change events fire in the page)."""
    try:
        await session.send("DOM.setFileInputFiles", {"files": paths, "backendNodeId": chooser.backend_node_id})
    except CdpProtocolError as exc:
        if target_gone(exc):
            raise
        raise ProtocolError(
            e.INVALID_REQUEST,
            "the file chooser's input is gone (the page changed since it opened)",
            "Take a snapshot and open the chooser again from the page.",
        ) from exc


async def cancel(session: CdpSession, chooser: FileChooser) -> None:
    """Close the chooser without files: the input's ``cancel`` event, as a dismissed picker fires."""
    try:
        resolved = await session.send("DOM.resolveNode", {"backendNodeId": chooser.backend_node_id})
        object_id = (resolved.get("object") or {}).get("objectId")
        if object_id:
            await session.send("Runtime.callFunctionOn", {"objectId": object_id, "functionDeclaration": _CANCEL_JS})
    except CdpProtocolError as exc:
        if target_gone(exc):
            raise
        # the input itself is gone (the page changed): there is no one to tell


def none_open() -> ProtocolError:
    return ProtocolError(
        e.INVALID_REQUEST,
        "no file chooser is open",
        'Tap the page\'s file input (or the button that opens it) first: the view then shows Dialog "Choose a file"; '
        "then pick-file PATH.",
    )


def covered(chooser: FileChooser, landed: str) -> ProtocolError:
    return ProtocolError(e.ELEMENT_COVERED, f'the sheet "{chooser.title()}" is open and the tap landed {landed}',
                         hint(chooser))  # fmt: skip


class Shows(Protocol):
    """What the chooser reads and writes of a page (target.Page)."""

    session: CdpSession
    chooser: FileChooser | None
    unsettled: bool


async def tap(page: Shows, chooser: FileChooser, screen: Rect, x: float, y: float) -> str:
    """A tap while the sheet shows: its Cancel closes it; anywhere else is refused."""
    hit(chooser, screen, x, y)
    page.chooser, page.unsettled = None, True
    await cancel(page.session, chooser)
    return f'Button "{CANCEL}" of the sheet "{chooser.title()}"'


def hit(chooser: FileChooser, screen: Rect, x: float, y: float) -> None:
    """A tap on the sheet: Cancel (returns), anywhere else ELEMENT_COVERED (the sheet is modal)."""
    sheet, button = layout(screen)
    if button.x <= x <= button.x + button.width and button.y <= y <= button.y + button.height:
        return
    inside = sheet.y <= y <= sheet.y + sheet.height
    raise covered(chooser, "on the sheet, not on its Cancel" if inside else "on the page under it")
