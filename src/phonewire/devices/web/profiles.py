"""Device profiles of the web phone: screen metrics in CSS px (= points), device pixel ratio, user agent, and the
height of the on-screen keyboard held each way (keyboard.py).

Selected as ``--device web:NAME``; ``NAME-landscape`` swaps width and height (and the keyboard's heights).  The
default is a phone.

Keyboard heights, in points, the system keyboard with its suggestion bar as the platform reports it to apps:

* iPhone 15 (a Face ID iPhone): 336 portrait, 209 landscape — ``UIKeyboardFrameEndUserInfoKey``'s height with the
  QuickType bar on a Face ID iPhone, the home indicator's strip included (291 without the bar); Apple's keys area is
  the same on every iPhone, the difference between models is the bottom safe area (F. Benacquista, "List of the
  official iOS keyboards' heights", medium.com).
* iPad (820 × 1180): 320 portrait, 405 landscape — the iPad keyboard's 264 / 352 points (Wei-Meng Lee, "Beginning
  iOS 5 Application Development", Wrox, "Detecting the presence of the keyboard") plus the shortcut bar above it.
* Pixel 7 (Gboard): 300 dp portrait — the height Android's own launcher assumes for a keyboard not yet shown (AOSP
  Launcher3, ``IME_DEFAULT_HEIGHT_DP = 300``, change I33e38cbd, bug 285166099); 220 dp landscape, where Gboard's rows
  are lower.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError

TYPE_CHECKING = False  # not typing's: the runner reads a profile before it imports asyncio (browser.prelaunch)
if TYPE_CHECKING:
    from phonewire.devices.web.cdp import CdpSession

_IOS_UA = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.0 Mobile/15E148 Safari/604.1"
)
_IPAD_UA = (
    "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.0 Mobile/15E148 Safari/604.1"
)
_ANDROID_UA = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/120.0.0.0 Mobile Safari/537.36"
)


def apple(platform: str) -> bool:
    """Whether a profile's ``navigator.platform`` is Apple's (iOS, iPadOS): its shortcuts take cmd, a long press on
    a link opens its menu without a contextmenu event; else Android's."""
    return platform.startswith(("iPhone", "iPad"))


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    width: int  # CSS px
    height: int
    dpr: float
    user_agent: str
    platform: str
    landscape: bool = False
    #: The on-screen keyboard's height in points held as the profile is, and held the other way.
    keyboard: int = 0
    keyboard_turned: int = 0

    def describe(self) -> dict[str, object]:
        return {
            "profile": self.name,
            "screen": {"width": self.width, "height": self.height},
            "devicePixelRatio": self.dpr,
            "orientation": "landscape" if self.landscape else "portrait",
        }


PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile("iphone-15", 393, 852, 3.0, _IOS_UA, "iPhone", keyboard=336, keyboard_turned=209),
        Profile("pixel-7", 412, 915, 2.625, _ANDROID_UA, "Linux armv8l", keyboard=300, keyboard_turned=220),
        Profile("ipad", 820, 1180, 2.0, _IPAD_UA, "iPad", keyboard=320, keyboard_turned=405),
    )
}
DEFAULT_PROFILE = "iphone-15"


def profile_names() -> list[str]:
    return [n for base in PROFILES for n in (base, f"{base}-landscape")]


def resolve_profile(name: str | None) -> Profile:
    """``pixel-7``, ``pixel-7-landscape`` …; ``None`` or empty → the default phone."""
    key = (name or DEFAULT_PROFILE).strip().lower()
    landscape = key.endswith("-landscape")
    base = PROFILES.get(key.removesuffix("-landscape") if landscape else key)
    if base is None:
        raise ProtocolError(
            e.INVALID_REQUEST,
            f"unknown web device profile {name!r}",
            f"Use one of: {', '.join(profile_names())} (e.g. --device web:pixel-7).",
        )
    return turned(base, landscape)


def metrics(p: Profile, *, keyboard: bool = False) -> dict[str, object]:
    """``Emulation.setDeviceMetricsOverride``'s parameters for the profile; ``keyboard``: with the on-screen keyboard
    up, the page's view is the part of the screen above it (the screen itself stays the phone's)."""
    orientation = {"type": "landscapePrimary" if p.landscape else "portraitPrimary", "angle": 90 if p.landscape else 0}
    height = p.height - p.keyboard if keyboard else p.height
    return {"width": p.width, "height": height, "deviceScaleFactor": p.dpr, "mobile": True,
            "screenWidth": p.width, "screenHeight": p.height, "screenOrientation": orientation}  # fmt: skip


def turned(p: Profile, landscape: bool) -> Profile:
    """The profile's phone held the other way (or as it is, when it already is)."""
    if p.landscape == landscape:
        return p
    name = f"{p.name}-landscape" if landscape else p.name.removesuffix("-landscape")
    return replace(p, name=name, width=p.height, height=p.width, landscape=landscape, keyboard=p.keyboard_turned,
                   keyboard_turned=p.keyboard)  # fmt: skip


async def apply_profile(
    session: CdpSession, profile: Profile, *, init_scripts: tuple[str, ...] = (), resume: bool = False
) -> None:
    """Make one page target this phone: metrics, touch, user agent and the events the device listens to, plus the
    scripts every document of the page runs first.  ``resume``: the target is paused before its first script
    (auto-attached); it is let run by a last command sent after all of these — a paused page in a renderer of its
    own answers none of them before it runs, and the browser applies a session's commands in the order sent."""
    import asyncio  # here, not at the top: see TYPE_CHECKING above

    p = profile
    await asyncio.gather(
        session.send("Runtime.enable"),
        session.send("Inspector.enable"),
        session.send("Page.enable"),  # navigation events: a snapshot waits for a navigation under way
        *(session.send("Page.addScriptToEvaluateOnNewDocument", {"source": script}) for script in init_scripts),
        session.send("Emulation.setDeviceMetricsOverride", metrics(p)),
        session.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5}),
        session.send("Emulation.setUserAgentOverride", {"userAgent": p.user_agent, "platform": p.platform}),
        *((session.send("Runtime.runIfWaitingForDebugger"),) if resume else ()),
    )
