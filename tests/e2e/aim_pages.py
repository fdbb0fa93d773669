"""Generated pages for the aim property test (test_aim_property.py): one page per seed, built from a fixed set of
shapes — a layout width of 320–1600 px, with or without a viewport tag and an initial scale, the page scrolled
sideways and down on load, buttons placed anywhere (some cut by the layout's right or bottom edge), a transformed
box, a fixed header, a same-origin and a cross-origin frame, and a widget whose opening focuses a field further
down and scrolls to it.  Every button is marked ``data-aim`` with its own id and label, so the page's click handler
(aim/recorder.js) names the element each click reached."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

WIDTHS = (320, 393, 620, 980, 1200, 1600)
VIEWPORT_TAGS = (
    None,
    "width=device-width,initial-scale=1",
    "width=device-width,initial-scale=0.5",
    "width=device-width,initial-scale=2",
    "width=800",
)


@dataclass
class GeneratedPage:
    seed: int
    html: str
    frame_html: dict[str, str]  # "same" / "cross" → the frame's page
    buttons: list[str] = field(default_factory=list)  # ids of the top document's buttons
    frame_buttons: list[str] = field(default_factory=list)  # ids of the frames' buttons (both frames)
    shape: str = ""


def _button(ident: str, style: str, extra: str = "") -> str:
    return f'<button id="{ident}" data-aim {extra} style="position:absolute;{style}">{ident}</button>'


def generate(seed: int, *, frame_base: str, other_base: str) -> GeneratedPage:
    """The page of ``seed``; its frames load ``{frame_base}/gen-frame-SEED-same.html`` (same origin) and
    ``{other_base}/gen-frame-SEED-cross.html`` (the second origin)."""
    rng = random.Random(seed)
    width = rng.choice(WIDTHS)
    tag = rng.choice(VIEWPORT_TAGS)
    height = rng.choice((900, 1600, 2600))
    scroll = (rng.choice((0, 0, 120, 400)), rng.choice((0, 0, 300, 900)))
    p = f"g{seed}"
    parts: list[str] = []
    ids: list[str] = []
    for i in range(rng.randint(4, 7)):
        bw, bh = rng.choice((44, 90, 160)), rng.choice((28, 44))
        edge = rng.random()
        x, y = rng.randint(0, max(0, width - bw)), rng.randint(60, height - bh)
        if edge < 0.2:  # cut by the layout's right edge
            x = width - bw // 2
        elif edge < 0.3:  # cut by the bottom
            y = height - bh // 2
        ident = f"{p}-b{i}"
        ids.append(ident)
        parts.append(_button(ident, f"left:{x}px;top:{y}px;width:{bw}px;height:{bh}px"))
    if rng.random() < 0.6:  # a transformed box
        t = rng.choice(("scale(0.8)", "translate(30px, 40px) scale(1.25)", "rotate(8deg)", "scale(0.5)"))
        x, y = rng.randint(0, max(0, width - 240)), rng.randint(80, height - 200)
        inner = []
        for j in range(2):
            ident = f"{p}-t{j}"
            ids.append(ident)
            inner.append(_button(ident, f"left:{20 + 110 * j}px;top:40px;width:90px;height:40px"))
        parts.append(
            f'<div style="position:absolute;left:{x}px;top:{y}px;width:240px;height:140px;transform:{t};'
            f'transform-origin:0 0;background:#eef">{"".join(inner)}</div>'
        )
    header = rng.random() < 0.5
    if header:  # a fixed header over the content, with a button of its own
        ident = f"{p}-h"
        ids.append(ident)
        parts.append(
            '<div style="position:fixed;left:0;top:0;right:0;height:48px;background:#333;z-index:5">'
            + _button(ident, "left:8px;top:8px;width:80px;height:32px")
            + "</div>"
        )
    frames = []
    if rng.random() < 0.5:
        frames.append(("same", frame_base))
    if rng.random() < 0.5:
        frames.append(("cross", other_base))
    for k, (kind, base) in enumerate(frames):
        x, y = rng.randint(0, max(0, width - 300)), rng.randint(100, height - 220)
        parts.append(
            f'<iframe id="{p}-f{k}" src="{base}/gen-frame-{seed}-{kind}.html" '
            f'style="position:absolute;left:{x}px;top:{y}px;width:300px;height:200px;border:1px solid #999">'
            "</iframe>"
        )
    if rng.random() < 0.5:  # a widget whose opening focuses a field further down and scrolls to it
        ident = f"{p}-open"
        ids.append(ident)
        y = rng.randint(60, 400)
        parts.append(_button(ident, f"left:10px;top:{y}px;width:120px;height:40px", f'data-opens="{p}-panel"'))
        parts.append(
            f'<div id="{p}-panel" hidden style="position:absolute;left:20px;top:{height - 260}px;width:300px">'
            f'<input aria-label="{p} field" style="width:200px">'
            + _button(f"{p}-ok", "left:0;top:40px;width:100px;height:40px")
            + "</div>"
        )
        ids.append(f"{p}-ok")
    meta = f'<meta name="viewport" content="{tag}">' if tag else ""
    html = (
        f"<!doctype html><html><head>{meta}<title>gen {seed}</title>"
        '<script src="/recorder.js"></script></head>'
        f'<body data-scroll="{scroll[0]},{scroll[1]}" style="margin:0">'
        f'<div style="position:relative;width:{width}px;height:{height}px">{"".join(parts)}</div></body></html>'
    )
    frame_html: dict[str, str] = {}
    frame_ids: list[str] = []
    for kind, _ in frames:
        mine = [f"{p}-{kind}{j}" for j in range(2)]
        frame_ids += mine
        frame_html[kind] = (
            '<!doctype html><html><head><script src="/recorder.js"></script></head><body style="margin:0">'
            + "".join(_button(i, f"left:{20 + 120 * j}px;top:60px;width:100px;height:40px") for j, i in enumerate(mine))
            + "</body></html>"
        )
    shape = f"width={width} viewport={tag!r} height={height} scroll={scroll} header={header} frames={len(frames)}"
    return GeneratedPage(seed, html, frame_html, ids, frame_ids, shape)
