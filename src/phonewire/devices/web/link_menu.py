"""The system's menu for a link a long press held, as each platform's browser shows it.  Pure: no I/O.

A long press on a link shows no page content of its own: the browser opens its menu over the page, the link's
address at its head.  iOS's Safari shows a preview of the page with its actions under it; Android's Chrome a
menu.  The web phone shows the actions a test can carry out here, named as each platform names them; the device
(editing.py) does what the tapped one says.  What neither can do here (Share, Download, Preview, Reading List,
Open in Incognito) is left out rather than shown as a button that does nothing.  A page whose contextmenu handler
cancels the press (its own menu, Android only: iOS fires no contextmenu for a long press) gets no system menu."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final

from phonewire.devices.web import dialogs
from phonewire.devices.web.profiles import apple

#: What each choice does: open the link in this tab, in a new tab, or copy its address or its text.
OPEN_HERE: Final = "open here"
OPEN_TAB: Final = "open in a new tab"
COPY_ADDRESS: Final = "copy the address"
COPY_TEXT: Final = "copy the text"
#: The menu of each platform: its buttons' words, in the order it shows them, and what each does.
IOS: Final = (("Open Link", OPEN_HERE), ("Open in New Tab", OPEN_TAB), ("Copy Link", COPY_ADDRESS))
ANDROID: Final = (("Open in new tab", OPEN_TAB), ("Copy link address", COPY_ADDRESS), ("Copy link text", COPY_TEXT))

Do = Callable[[str], Awaitable[None]]


def menu(platform: str, href: str, text: str, *, open_here: Do, open_tab: Do, copy: Do) -> dialogs.Dialog:
    """The link menu for ``href`` (its text ``text``) on a profile of ``platform``: each choice calls one of the
    device's actions with the address or the text."""
    entries = IOS if apple(platform) else ANDROID
    actions = {
        OPEN_HERE: (open_here, href),
        OPEN_TAB: (open_tab, href),
        COPY_ADDRESS: (copy, href),
        COPY_TEXT: (copy, text),
    }
    chosen = {word: actions[what] for word, what in entries}

    async def choose(word: str) -> None:
        act, value = chosen[word]
        await act(value)

    choices = tuple(word for word, _ in entries)
    wire = {"type": dialogs.LINK_MENU, "message": href, "choices": list(choices)}
    return dialogs.Dialog(dialogs.LINK_MENU, href, wire=wire, choices=choices, choose=choose)
