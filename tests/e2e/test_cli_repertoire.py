"""The phone's repertoire through the CLI (issue 24) on the real web phone, a daemon and runner of its own (what
these verbs change is the phone's): the verbs' words as the operation table declares them (numbers, a list of
names, --from/--to), the page's own observation of each, and bad input refused as a usage error (exit 2) with a
hint before anything changes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from cli_harness import Cli, Result, web_cli
from web_runner import HostileSite

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cli]:
    with web_cli(tmp_path_factory, "cli-repertoire", "apps") as cli:
        yield cli


@pytest.fixture
def run(web: Cli, hostile_site: HostileSite) -> Iterator[object]:
    def call(*argv: str) -> Result:
        return web("--device", "web", *argv)

    assert call("open", hostile_site.url("repertoire.html")).code == 0
    yield call


def shown(run: object, ident: str) -> str:
    """The text of the page's element ``ident`` as the view shows it (scrolled to first: in landscape the page's
    lower half is off screen)."""
    assert run("find", f"id={ident}").code == 0  # type: ignore[operator]
    res = run("--json", "snapshot")  # type: ignore[operator]
    return str(next(n for n in res.json()["data"]["nodes"] if n.get("identifier") == ident).get("label") or "")


def test_select_text_copy_and_paste_through_the_cli(run: object) -> None:
    res = run("select-text", "id=quote", "--from", "4", "--to", "9")  # type: ignore[operator]
    assert res.code == 0 and res.out.startswith('ok selected "quick"'), res.err
    assert shown(run, "selection") == '"quick"'
    assert any(line.rstrip().endswith('[selected text="quick"]') for line in run("snapshot").out.splitlines())  # type: ignore[operator]
    assert run("press", "ctrl+c").code == 0  # type: ignore[operator]
    assert shown(run, "copied") == "quick"
    assert run("clipboard", "get").out.strip() == 'ok the clipboard holds "quick"'  # type: ignore[operator]
    assert run("clipboard", "set", "two  spaces").code == 0  # type: ignore[operator]
    run("tap", "id=target")  # type: ignore[operator]
    assert run("press", "ctrl+v").code == 0  # type: ignore[operator]
    assert shown(run, "pasted") == '"two spaces" (11)'  # both spaces pasted (the view collapses the run)


def test_the_environment_verbs_take_their_words_as_the_table_declares(run: object) -> None:
    try:
        assert run("permissions", "grant", "geolocation", "camera").code == 0  # type: ignore[operator]
        res = run("location", "48.8584", "-2.5", "--accuracy", "5")  # type: ignore[operator]
        assert res.code == 0 and "48.8584, -2.5" in res.out, res.err
        run("tap", "id=locate")  # type: ignore[operator]
        assert shown(run, "position") == "48.8584,-2.5 ±5"
        run("tap", "id=ask")  # type: ignore[operator]
        assert shown(run, "permission") == "geolocation=granted camera=granted notifications=prompt"
        assert run("rotate", "landscape").code == 0  # type: ignore[operator]
        assert shown(run, "orientation") == "landscape-primary"
        assert run("connectivity", "offline").code == 0  # type: ignore[operator]
        assert shown(run, "online") == "false"
    finally:
        run("rotate", "portrait")  # type: ignore[operator]
        run("connectivity", "online")  # type: ignore[operator]
        run("permissions", "reset", "geolocation", "camera")  # type: ignore[operator]
        run("location", "off")  # type: ignore[operator]


@pytest.mark.parametrize(
    ("argv", "says"),
    [(("location", "91", "2"), "latitude 91"), (("location", "north", "2"), "must be a number"),
     (("rotate", "sideways"), "sideways"), (("permissions", "grant", "teleport"), "unknown permission 'teleport'"),
     (("press", "ctrl+home"), "phone's buttons"), (("connectivity", "5g"), "5g")],
)  # fmt: skip
def test_bad_input_is_a_usage_error_with_a_hint(run: object, argv: tuple[str, ...], says: str) -> None:
    res = run(*argv)  # type: ignore[operator]
    assert res.code == 2 and says in res.err and "hint:" in res.err, res.err
    assert shown(run, "position") == "none" and shown(run, "orientation") == "none"


def test_keyboard_hide_through_the_cli(web: Cli, hostile_site: HostileSite) -> None:
    def run(*argv: str) -> Result:
        return web("--device", "web", *argv)

    assert run("open", hostile_site.url("keyboard.html")).code == 0
    assert run("tap", "id=name").code == 0
    assert "Keyboard (covers the screen below y=" in run("snapshot", "-i").out
    res = run("tap", "196", "812")  # under the keyboard: refused, with its code and hint
    assert res.code != 0 and "KEYBOARD_COVERS" in res.err and "keyboard hide" in res.err, (res.out, res.err)
    res = run("keyboard", "hide")
    assert res.code == 0 and res.out.startswith("ok hid the keyboard"), (res.out, res.err)
    assert "Keyboard" not in run("snapshot").out
    assert run("tap", "196", "812").code == 0
    res = run("--json", "snapshot")
    assert next(n for n in res.json()["data"]["nodes"] if n.get("identifier") == "clicks").get("label") == "1"
