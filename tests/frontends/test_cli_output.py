"""Every CLI verb's output text and the call it makes, for a reply with and without the device's message: the text
is declared with the operation (agent/operations.py's ``cli_text``), and these are the words people and agents
have been reading (a change to any of them is a change of the CLI's behaviour)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from phonewire.agent.results import ActionResult, View
from phonewire.frontends.cli import verbs

TARGET = {"ref": "e3", "type": "Button", "label": "Save", "x": 10.5, "y": 20}


class Session:
    """Answers every operation with ``data`` and records the calls (what the CLI parsed the words into)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
        self.app_id: str | None = None

    def __getattr__(self, name: str) -> Any:
        async def call(*args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, args, kwargs))
            if name == "list_apps":
                return [{"appBundleId": "a.b", "state": "foreground", "title": "A"}, {"appBundleId": "c", "state": "x"}]
            if name == "viewport":
                return {"x": 0, "y": 0.5, "width": 390, "height": 844.25}
            if name == "snapshot":
                return View('@e1 Button "Save"', [], {}, {"state": "healthy"})
            if name == "screenshot":
                return b"\x89PNG fake"
            if name == "open_app":  # the session's app, as AgentSession._switched sets it
                self.app_id = str(self.data.get("appBundleId") or (args or (kwargs["app_id"],))[0])
            if name == "clipboard_get" and "text" in self.data:
                return ActionResult({"text": "hi"})
            return ActionResult(dict(self.data))

        return call


WITH_MESSAGE = {"message": "did it", "target": TARGET, "appBundleId": "app.x"}
BARE: dict[str, Any] = {}

CASES: list[tuple[list[str], dict[str, Any], str]] = [
    (["open", "app.x"], BARE, "ok opened app.x"),
    (["open", "app.y", "--clear-state"], WITH_MESSAGE, "ok opened app.x"),
    (["close"], BARE, "ok closed"),
    (["close", "app.y"], BARE, "ok closed app.y"),
    (["close", "app.y"], WITH_MESSAGE, "ok closed app.x"),
    (["apps"], BARE, "a.b\tforeground\tA\nc\tx"),
    (["url", "https://x.test/"], BARE, "ok opened https://x.test/"),
    (["url", "https://x.test/"], WITH_MESSAGE, "ok opened app.x"),
    (
        ["open", "https://x.test/"],
        {"appBundleId": "https://x.test/", "title": "Log in | Site"},
        'ok opened "Log in | Site"',
    ),
    (["snapshot", "-i", "--diff"], BARE, '@e1 Button "Save"'),
    (["viewport"], BARE, "0 0.5 390 844.25"),
    (["tap", "@e3"], BARE, "ok tapped"),
    (["tap", "role=Button", "label=Sign in", "--count", "2"], WITH_MESSAGE, 'ok did it @e3 Button "Save" at 10.5,20'),
    (["tap", "10", "20"], {"message": "m", "changed": False}, "ok m (nothing changed on screen)"),
    # the point once: the device's message names it unrounded, the target rounded to a tenth
    (
        ["tap", "@e3"],
        {"message": "tapped (10.45, 20.04)", "target": TARGET},
        'ok tapped (10.45, 20.04) @e3 Button "Save"',
    ),
    (
        ["tap", "@e3"],
        {"message": "tapped (10.3, 20)", "target": TARGET},
        'ok tapped (10.3, 20) @e3 Button "Save" at 10.5,20',
    ),
    (["longpress", "@e3", "--duration", "900"], BARE, "ok long-pressed"),
    (["longpress", "@e3"], WITH_MESSAGE, 'ok did it @e3 Button "Save" at 10.5,20'),
    (["fill", "@e3", "héllo"], BARE, "ok filled 5 character(s)"),
    (["fill", "label=First", "name", "Ada"], WITH_MESSAGE, 'ok filled 3 character(s) into @e3 Button "Save"'),
    (["fill", "@e3", "x"], {"target": {"type": "TextField"}}, "ok filled 1 character(s) into TextField"),
    (["select", "@e3", "A", "B", "--add"], BARE, "ok selected"),
    (["select", "@e3", "A"], WITH_MESSAGE, 'ok did it @e3 Button "Save" at 10.5,20'),
    (["type", "hello world"], BARE, "ok typed"),
    (["type", "x"], WITH_MESSAGE, "ok did it"),
    (["press", "Enter"], BARE, "ok pressed Enter"),
    (["press", "enter"], WITH_MESSAGE, "ok did it"),
    (["swipe", "1", "2", "3.5", "4", "--duration", "100"], BARE, "ok swiped"),
    (["swipe", "1", "2", "3", "4"], WITH_MESSAGE, "ok did it"),
    (["scroll", "DOWN"], BARE, "ok scrolled down"),
    (
        ["scroll", "up", "role=List", "label=People", "--amount", "0.5"],
        WITH_MESSAGE,
        'ok did it @e3 Button "Save" at 10.5,20',
    ),
    (["find", "Person", "150", "--max-scrolls", "3"], WITH_MESSAGE, "ok did it"),
    (["find", "text=x"], BARE, "ok find"),
    (["wait", "text=Saved", "--timeout", "100"], WITH_MESSAGE, "ok did it"),
    (["wait", "--idle"], BARE, "ok wait"),
    (["trace", "start", "t"], {"message": "tracing to t"}, "ok tracing to t"),
    (["trace", "stop"], BARE, "ok trace stop"),
    (["logs"], WITH_MESSAGE, "ok did it"),
    (["network", "--url", "api", "--status", "404"], BARE, "ok network"),
    (["record", "start", "v.webm"], {"message": "recording"}, "ok recording"),
    (["record", "stop"], BARE, "ok record stop"),
    (["select-text", "@e3", "--from", "1", "--to", "3"], WITH_MESSAGE, "ok did it"),
    (["select-text", "@e3", "--word"], BARE, "ok select-text"),
    (["clipboard", "get"], {"text": "hi"}, "ok clipboard get"),
    (["clipboard", "set", "some text"], BARE, "ok clipboard set"),
    (["rotate", "landscape"], BARE, "ok rotate"),
    (["location", "1.5", "-2", "--accuracy", "5"], WITH_MESSAGE, "ok did it"),
    (["location", "off"], BARE, "ok location off"),
    (["appearance", "dark"], BARE, "ok appearance"),
    (["connectivity", "offline"], BARE, "ok connectivity"),
    (["permissions", "grant", "geolocation", "camera"], BARE, "ok permissions"),
    (["flow", "run", "f.yaml", "--env", "A=1", "--env", "B=2"], {"message": "2 steps"}, "ok 2 steps"),
]

#: What each case called on the session (the method, its positional and keyword arguments; paths relative to CWD).
CALLS: dict[str, tuple[str, tuple[Any, ...], dict[str, Any]]] = {
    "open app.x": ("open_app", ("app.x",), {"clear_state": False}),
    "open app.y --clear-state": ("open_app", ("app.y",), {"clear_state": True}),
    "close": ("close_app", (None,), {}),
    "close app.y": ("close_app", ("app.y",), {}),
    "url https://x.test/": ("open_url", ("https://x.test/",), {}),
    "snapshot -i --diff": ("snapshot", (), {"interactive": True, "diff": True, "all": False, "ocr": False}),
    "tap @e3": ("tap", ("@e3",), {"count": 1}),
    "tap role=Button label=Sign in --count 2": ("tap", ('role=Button label="Sign in"',), {"count": 2}),
    "tap 10 20": ("tap", ("10 20",), {"count": 1}),
    "longpress @e3 --duration 900": ("long_press", ("@e3",), {"duration_ms": 900}),
    "fill @e3 héllo": ("fill", ("@e3", "héllo"), {}),
    "fill label=First name Ada": ("fill", ("label=First name", "Ada"), {}),
    "select @e3 A B --add": ("select", ("@e3", ["A", "B"]), {"add": True}),
    "type hello world": ("type", ("hello world",), {}),
    "press Enter": ("press", ("Enter",), {}),
    "swipe 1 2 3.5 4 --duration 100": ("swipe", (1.0, 2.0, 3.5, 4.0), {"duration_ms": 100}),
    "scroll DOWN": ("scroll", ("DOWN", None), {"amount": 0.6}),
    "scroll up role=List label=People --amount 0.5": ("scroll", ("up", "role=List label=People"), {"amount": 0.5}),
    "find Person 150 --max-scrolls 3": ("find", (), {"selector": "Person 150", "direction": "down",
                                                    "max_scrolls": 3}),
    "wait --idle": ("wait", (), {"gone": False, "idle": True, "timeout_ms": 5000}),
    "network --url api --status 404": ("network", (), {"url": "api", "status": 404}),
    "select-text @e3 --from 1 --to 3": ("select_text", (), {"target": "@e3", "word": False, "all": False,
                                                                  "start": 1, "end": 3}),
    "location 1.5 -2 --accuracy 5": ("location", (), {"latitude": 1.5, "longitude": -2, "accuracy": 5}),
    "permissions grant geolocation camera": ("permissions", (), {"setting": "grant",
                                                                 "names": ["geolocation", "camera"]}),
}  # fmt: skip


def _run(argv: list[str], data: dict[str, Any], cwd: Path) -> tuple[str, Session]:
    session = Session(data)

    async def get() -> Any:
        return session

    inv = verbs.parse_argv(argv)
    outcome = asyncio.run(verbs.execute(inv, verbs.Context(get, cwd=str(cwd))))
    return verbs.render_outcome(outcome, as_json=False), session


def _call(session: Session) -> tuple[str, dict[str, Any]]:
    """The one call's method and its arguments by name (positional ones named by the method's signature)."""
    import inspect

    from phonewire.agent.core import AgentSession

    (name, args, kwargs), *more = session.calls
    assert not more
    bound = inspect.signature(getattr(AgentSession, name)).bind(None, *args, **kwargs)
    bound.apply_defaults()
    return name, {k: v for k, v in bound.arguments.items() if k != "self"}


@pytest.mark.parametrize(("argv", "data", "text"), CASES, ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_every_verb_prints_its_declared_text(argv: list[str], data: dict[str, Any], text: str, tmp_path: Path) -> None:
    shown, session = _run(argv, data, tmp_path)
    assert shown == text
    expected = CALLS.get(" ".join(argv))
    if expected is not None:
        name, args, kwargs = expected
        assert _call(session) == _call_of(name, args, kwargs)


def _call_of(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    fake = Session({})
    fake.calls.append((name, args, kwargs))
    return _call(fake)


def test_paths_are_the_callers_and_the_screenshot_says_where_it_went(tmp_path: Path) -> None:
    _, session = _run(["trace", "start", "t"], {"message": "m"}, tmp_path)
    assert _call(session) == ("trace_start", {"dir": str(tmp_path / "t")})
    _, session = _run(["flow", "run", "f.yaml", "--env", "A=1"], {"message": "m"}, tmp_path)
    assert _call(session) == ("flow_run", {"file": str(tmp_path / "f.yaml"), "env": ["A=1"], "trace": None})
    _, session = _run(["record", "start", "v.webm"], {"message": "m"}, tmp_path)
    assert _call(session) == ("record_start", {"file": str(tmp_path / "v.webm")})
    shown, session = _run(["screenshot", "shot.png"], BARE, tmp_path)
    assert shown == f"ok screenshot {tmp_path / 'shot.png'}"
    assert (tmp_path / "shot.png").read_bytes() == b"\x89PNG fake"
    assert _call(session) == ("screenshot", {"format": "png", "scale": "device", "overlay_refs": False})


def test_a_verbs_usage_errors_are_as_before(tmp_path: Path) -> None:
    with pytest.raises(verbs.UsageError, match="unknown direction 'sideways'"):
        _run(["scroll", "sideways"], BARE, tmp_path)
    with pytest.raises(verbs.UsageError, match="x1 must be a number, got 'a'"):
        _run(["swipe", "a", "2", "3", "4"], BARE, tmp_path)


def _data(argv: list[str], data: dict[str, Any], cwd: Path) -> Any:
    import json

    session = Session(data)

    async def get() -> Any:
        return session

    outcome = asyncio.run(verbs.execute(verbs.parse_argv(argv), verbs.Context(get, cwd=str(cwd))))
    return json.loads(verbs.render_outcome(outcome, as_json=True))["data"]


def test_the_json_data_is_the_results(tmp_path: Path) -> None:
    assert _data(["apps"], BARE, tmp_path) == {
        "apps": [{"appBundleId": "a.b", "state": "foreground", "title": "A"}, {"appBundleId": "c", "state": "x"}]
    }
    assert _data(["viewport"], BARE, tmp_path) == {"x": 0, "y": 0.5, "width": 390, "height": 844.25}
    assert _data(["snapshot"], BARE, tmp_path)["text"] == '@e1 Button "Save"'
    assert _data(["tap", "@e3"], WITH_MESSAGE, tmp_path) == WITH_MESSAGE
    assert _data(["clipboard", "get"], {"text": "hi"}, tmp_path) == {"text": "hi"}
    assert _data(["screenshot", "s.jpg"], BARE, tmp_path) == {
        "path": str(tmp_path / "s.jpg"), "bytes": 9, "format": "jpeg"
    }  # fmt: skip
