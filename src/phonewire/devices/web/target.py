"""One page target of the web phone (an app's screen, or the home screen) and what putting it to sleep and waking it
takes.  State only: the device's rooms (pages.py, view.py, input.py, back.py) act on it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from phonewire.devices.base import AppState
from phonewire.devices.web.cdp import CdpSession
from phonewire.devices.web.chooser import FileChooser
from phonewire.devices.web.dialogs import Dialog
from phonewire.devices.web.frames import Frames


async def freeze(session: CdpSession) -> None:
    """Put a background page to sleep: hidden, then frozen (its timers and tasks really stop)."""
    await session.send("Emulation.setFocusEmulationEnabled", {"enabled": False})
    await session.send("Page.setWebLifecycleState", {"state": "frozen"})


async def thaw(session: CdpSession) -> None:
    """Wake a frozen page and make it visible again.  Freezing hides the page (``WasHidden``) and ``active`` only
    unfreezes it; the full browser shows it again on ``Page.bringToFront``, but ``chromium-headless-shell`` (no
    tabs, no windows to activate) leaves it hidden for good, and a hidden page draws no frames, so every later
    ``Input.dispatchTouchEvent`` waits forever for its ack.  Focus emulation counts the page as captured, which
    shows it in both browsers; :func:`freeze` turns it off again first, so a background page is hidden."""
    await session.send("Page.setWebLifecycleState", {"state": "active"})
    await session.send("Emulation.setFocusEmulationEnabled", {"enabled": True})


@dataclass(slots=True)
class Page:
    """One attached page target (an app, or the home screen)."""

    app_id: str
    target_id: str
    session: CdpSession
    url: str
    state: AppState = AppState.FOREGROUND
    frozen: bool = False
    gone: str | None = None  # why the target vanished (crash, closed by the page)
    #: The page's renderer crashed or was ended for not answering: commands on the app answer APP_CRASHED.
    crashed: bool = False
    #: An action ran since the last snapshot: the next one waits for the screen to settle.
    unsettled: bool = False
    #: The main frame is loading a new document (Page.frameStartedLoading … frameStoppedLoading).
    loading: bool = False
    #: When the page last asked for a navigation that has not started loading yet (loop time).
    requested_at: float | None = None
    #: The screen this one was opened from (``target=_blank``, ``window.open``): the same app's previous screen,
    #: shown again when this one closes or ``back`` leaves it.  The app's entry in ``WebDevice._apps`` is its top.
    below: Page | None = None
    #: The page asked for a new window (``Page.windowOpen``) that is not adopted yet (loop time).
    opening: float | None = None
    #: The JavaScript dialog the page shows now (dialogs.py), and the last view walked (shown under it).
    dialog: Dialog | None = None
    last_walk: dict[str, Any] | None = None
    #: Main-frame navigations committed (``Page.frameNavigated``, ``Page.navigatedWithinDocument``).
    commits: int = 0
    #: Documents the main frame committed (``Page.frameNavigated``), and the one of them the walker was defined in
    #: (walk.py's walker_call): in a document the device has not seen yet, the walker is defined without asking.
    documents: int = 0
    walker_in: int | None = None
    #: Its frames of another origin, walked in their own documents (frames.py).
    frames: Frames = field(default_factory=Frames)
    #: The file chooser the page opened and nobody answered yet (chooser.py).
    chooser: FileChooser | None = None
    #: The on-screen keyboard is up over it (a field that takes typing has focus: keyboard.py).
    keyboard: bool = False
    #: The scale its last double tap zoomed it to, while that zoom was not undone by another (zooming.py).
    zoomed: float | None = None
    #: What the last double tap's zoom did, until the tap's reply takes it (the device's ``zoomed``).
    zoom_said: dict[str, Any] | None = None

    def stack(self) -> Iterator[Page]:
        """This screen and the ones below it, top first."""
        page: Page | None = self
        while page is not None:
            yield page
            page = page.below
