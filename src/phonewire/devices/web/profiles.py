"""Device profiles of the web phone: screen metrics in CSS px (= points), device pixel ratio, user agent.

Selected as ``--device web:NAME``; ``NAME-landscape`` swaps width and height.  The default is a phone.
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


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    width: int  # CSS px
    height: int
    dpr: float
    user_agent: str
    platform: str
    landscape: bool = False

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
        Profile("iphone-15", 393, 852, 3.0, _IOS_UA, "iPhone"),
        Profile("pixel-7", 412, 915, 2.625, _ANDROID_UA, "Linux armv8l"),
        Profile("ipad", 820, 1180, 2.0, _IPAD_UA, "iPad"),
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


def metrics(p: Profile) -> dict[str, object]:
    """``Emulation.setDeviceMetricsOverride``'s parameters for the profile."""
    orientation = {"type": "landscapePrimary" if p.landscape else "portraitPrimary", "angle": 90 if p.landscape else 0}
    return {"width": p.width, "height": p.height, "deviceScaleFactor": p.dpr, "mobile": True,
            "screenOrientation": orientation}  # fmt: skip


def turned(p: Profile, landscape: bool) -> Profile:
    """The profile's phone held the other way (or as it is, when it already is)."""
    if p.landscape == landscape:
        return p
    name = f"{p.name}-landscape" if landscape else p.name.removesuffix("-landscape")
    return replace(p, name=name, width=p.height, height=p.width, landscape=landscape)


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
