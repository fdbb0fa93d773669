"""Text seen on the screen (agent/seen.py): Tesseract on a screenshot, as StaticText lines marked (seen) that a tap
reaches by text and by ref.  The screen here is a scripted sender's: an image drawn with Pillow at a phone's 3x
scale (what an Android or iOS backend's screenshot is; the web device's: tests/realapps/test_realapp_ocr.py), and a
tree with nothing in it."""

from __future__ import annotations

import asyncio
import base64
import io
import os
from collections.abc import Mapping
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from agent_fakes import FakeSender, screen
from phonewire.agent import seen
from phonewire.agent.core import AgentSession
from phonewire.protocol import errors as e
from phonewire.protocol.envelope import Envelope, ok
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import RawNode, Rect

needs_engine = pytest.mark.skipif(
    seen.engine() is None and not os.environ.get("CI"), reason="tesseract-ocr is not installed (scripts/setup.sh)"
)
SCALE = 3


def drawn(texts: dict[str, tuple[int, int]]) -> bytes:
    """A 390x844-point screen at 3x: dark, with each text drawn at its place (points)."""
    img = Image.new("RGB", (390 * SCALE, 844 * SCALE), (16, 0, 43))
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=22 * SCALE)
    for text, (x, y) in texts.items():
        draw.text((x * SCALE, y * SCALE), text, fill=(255, 255, 255), font=font)
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


class Screen(FakeSender):
    """A tree with no text and a screenshot that shows ``image``."""

    def __init__(self, image: bytes, nodes: list[Any] | None = None) -> None:
        super().__init__(nodes if nodes is not None else screen(RawNode("Other", rect=Rect(0, 0, 390, 844))))
        self.image = image

    async def send(self, command: str, fields: Mapping[str, Any] | None = None) -> Envelope:
        if command == "screenshot":
            self.sent.append((command, dict(fields or {})))
            return ok({"imageBase64": base64.b64encode(self.image).decode()})
        return await super().send(command, fields)


GAME = {"SPACE RACE": (100, 80), "Score: 12450": (110, 160), "START GAME": (110, 300), "HIGH SCORES": (100, 420),
        "Tap to start": (115, 600)}  # fmt: skip


@needs_engine
def test_a_sparse_view_gets_the_text_drawn_on_the_screen_marked_seen_and_tappable_by_text_and_ref() -> None:
    sender = Screen(drawn(GAME))
    agent = AgentSession(sender, app_id="game")
    view = asyncio.run(agent.snapshot())
    assert view.text.splitlines()[0].startswith("# sparse view:")
    lines = {n["label"]: n for n in view.nodes if n.get("seen")}
    assert set(lines) == set(GAME)
    start = lines["START GAME"]["rect"]
    # in points: the drawn text starts at (110, 300); its box is where the words are
    assert 105 <= start["x"] <= 115 and 295 <= start["y"] <= 312 and 100 <= start["width"] <= 200
    assert '"START GAME" (seen)' in view.text and view.quality["seen"]["reason"] == "sparse"

    asyncio.run(agent.tap("text=START GAME"))
    tap = sender.commands("tap")[-1]
    assert start["x"] < tap["x"] < start["x"] + start["width"] and start["y"] < tap["y"] < start["y"] + start["height"]
    ref = next(r for r, n in view.refs.items() if n.get("label") == "Score: 12450")
    asyncio.run(agent.tap("@" + ref))
    score = lines["Score: 12450"]["rect"]
    assert abs(sender.commands("tap")[-1]["y"] - (score["y"] + score["height"] / 2)) < 1


@needs_engine
def test_an_unchanged_screen_is_not_read_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    reads = []
    real = seen.read

    async def counted(image: bytes) -> list[seen.Line]:
        reads.append(1)
        return await real(image)

    monkeypatch.setattr(seen, "read", counted)
    agent = AgentSession(Screen(drawn(GAME)), app_id="game")
    asyncio.run(agent.snapshot(ocr=True))
    asyncio.run(agent.tap("text=START GAME"))
    assert len(reads) == 1


def test_a_view_with_text_costs_no_screenshot() -> None:
    nodes = screen(RawNode("StaticText", label="A page with enough text", rect=Rect(0, 0, 300, 20)))
    sender = Screen(drawn(GAME), nodes)
    view = asyncio.run(AgentSession(sender, app_id="x").snapshot())
    assert "screenshot" not in [c for c, _ in sender.sent] and "seen" not in view.quality


def test_without_an_engine_ocr_is_unsupported_and_a_sparse_view_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seen, "engine", lambda: None)
    agent = AgentSession(Screen(drawn(GAME)), app_id="game")
    with pytest.raises(ProtocolError) as caught:
        asyncio.run(agent.snapshot(ocr=True))
    assert caught.value.code == e.UNSUPPORTED_OPERATION and "tesseract-ocr" in caught.value.message
    view = asyncio.run(agent.snapshot())
    assert view.text.splitlines()[0] == seen.HEADER_NO_ENGINE and not any(n.get("seen") for n in view.nodes)


def test_an_image_that_does_not_decode_leaves_the_view_as_it_is() -> None:
    agent = AgentSession(Screen(b"\x89PNG\r\n\x1a\nbroken"), app_id="x")
    view = asyncio.run(agent.snapshot())
    assert "seen" not in view.quality


def test_tesseract_words_become_lines_and_low_confidence_or_punctuation_is_left_out() -> None:
    head = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext"
    rows = [
        "5\t1\t1\t1\t1\t1\t10\t20\t50\t12\t95.1\tQuarterly",
        "5\t1\t1\t1\t1\t2\t64\t21\t40\t12\t93.0\tsales",
        "5\t1\t2\t1\t1\t1\t10\t60\t20\t12\t30.0\tpow",  # unsure: left out
        "5\t1\t3\t1\t1\t1\t10\t90\t8\t12\t96.0\t|",  # no letter or digit
        "4\t1\t1\t1\t1\t0\t10\t20\t94\t13\t-1\t",
    ]
    lines = seen.parse_tsv("\n".join([head, *rows]))
    assert [(line.text, line.box) for line in lines] == [("Quarterly sales", (10, 20, 94, 13))]


def test_seen_lines_are_in_points_under_the_root_and_skip_what_the_view_already_says() -> None:
    nodes = screen(RawNode("StaticText", label="Revenue", rect=Rect(0, 0, 100, 20)))
    lines = [seen.Line("Revenue", (0, 0, 300, 60), 90.0), seen.Line("Costs", (300, 600, 150, 60), 90.0)]
    out = seen.nodes_of(lines, 1170, {"x": 0, "y": 100, "width": 390, "height": 744}, nodes)
    assert [(n["label"], n["rect"]) for n in out] == [
        ("Costs", {"x": 100.0, "y": 300.0, "width": 50.0, "height": 20.0})
    ]
    assert out[0]["seen"] is True and out[0]["index"] > max(n["index"] for n in nodes)
