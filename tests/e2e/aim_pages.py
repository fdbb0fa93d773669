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


class _Page:
    """One generated page being built: its random choices, its parts and the ids of its buttons."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seed, self.p = seed, f"g{seed}"
        self.width = self.rng.choice(WIDTHS)
        self.tag = self.rng.choice(VIEWPORT_TAGS)
        self.height = self.rng.choice((900, 1600, 2600))
        self.scroll = (self.rng.choice((0, 0, 120, 400)), self.rng.choice((0, 0, 300, 900)))
        self.parts: list[str] = []
        self.ids: list[str] = []

    def add(self, ident: str, style: str, extra: str = "") -> str:
        self.ids.append(ident)
        return _button(ident, style, extra)

    def buttons(self) -> None:
        rng = self.rng
        for i in range(rng.randint(4, 7)):
            bw, bh = rng.choice((44, 90, 160)), rng.choice((28, 44))
            edge = rng.random()
            x, y = rng.randint(0, max(0, self.width - bw)), rng.randint(60, self.height - bh)
            if edge < 0.2:  # cut by the layout's right edge
                x = self.width - bw // 2
            elif edge < 0.3:  # cut by the bottom
                y = self.height - bh // 2
            self.parts.append(self.add(f"{self.p}-b{i}", f"left:{x}px;top:{y}px;width:{bw}px;height:{bh}px"))

    def transformed(self) -> None:
        rng = self.rng
        t = rng.choice(("scale(0.8)", "translate(30px, 40px) scale(1.25)", "rotate(8deg)", "scale(0.5)"))
        x, y = rng.randint(0, max(0, self.width - 240)), rng.randint(80, self.height - 200)
        inner = [self.add(f"{self.p}-t{j}", f"left:{20 + 110 * j}px;top:40px;width:90px;height:40px") for j in (0, 1)]
        self.parts.append(
            f'<div style="position:absolute;left:{x}px;top:{y}px;width:240px;height:140px;transform:{t};'
            f'transform-origin:0 0;background:#eef">{"".join(inner)}</div>'
        )

    def header(self) -> None:
        self.parts.append(
            '<div style="position:fixed;left:0;top:0;right:0;height:48px;background:#333;z-index:5">'
            + self.add(f"{self.p}-h", "left:8px;top:8px;width:80px;height:32px")
            + "</div>"
        )

    def frame(self, k: int, kind: str, base: str) -> None:
        x, y = self.rng.randint(0, max(0, self.width - 300)), self.rng.randint(100, self.height - 220)
        self.parts.append(
            f'<iframe id="{self.p}-f{k}" src="{base}/gen-frame-{self.seed}-{kind}.html" '
            f'style="position:absolute;left:{x}px;top:{y}px;width:300px;height:200px;border:1px solid #999">'
            "</iframe>"
        )

    def widget(self) -> None:
        p, y = self.p, self.rng.randint(60, 400)
        self.parts.append(
            self.add(f"{p}-open", f"left:10px;top:{y}px;width:120px;height:40px", f'data-opens="{p}-panel"')
        )
        self.parts.append(
            f'<div id="{p}-panel" hidden style="position:absolute;left:20px;top:{self.height - 260}px;width:300px">'
            f'<input aria-label="{p} field" style="width:200px">'
            + self.add(f"{p}-ok", "left:0;top:40px;width:100px;height:40px")
            + "</div>"
        )

    def html(self) -> str:
        meta = f'<meta name="viewport" content="{self.tag}">' if self.tag else ""
        return (
            f"<!doctype html><html><head>{meta}<title>gen {self.seed}</title>"
            '<script src="/recorder.js"></script></head>'
            f'<body data-scroll="{self.scroll[0]},{self.scroll[1]}" style="margin:0">'
            f'<div style="position:relative;width:{self.width}px;height:{self.height}px">{"".join(self.parts)}</div>'
            "</body></html>"
        )


def _frame_page(ids: list[str]) -> str:
    return (
        '<!doctype html><html><head><script src="/recorder.js"></script></head><body style="margin:0">'
        + "".join(_button(i, f"left:{20 + 120 * j}px;top:60px;width:100px;height:40px") for j, i in enumerate(ids))
        + "</body></html>"
    )


def generate(seed: int, *, frame_base: str, other_base: str) -> GeneratedPage:
    """The page of ``seed``; its frames load ``{frame_base}/gen-frame-SEED-same.html`` (same origin) and
    ``{other_base}/gen-frame-SEED-cross.html`` (the second origin)."""
    page = _Page(seed)
    rng = page.rng
    page.buttons()
    if rng.random() < 0.6:  # a transformed box
        page.transformed()
    header = rng.random() < 0.5
    if header:  # a fixed header over the content, with a button of its own
        page.header()
    frames = [(kind, base) for kind, base in (("same", frame_base), ("cross", other_base)) if rng.random() < 0.5]
    for k, (kind, base) in enumerate(frames):
        page.frame(k, kind, base)
    if rng.random() < 0.5:  # a widget whose opening focuses a field further down and scrolls to it
        page.widget()
    frame_ids = {kind: [f"{page.p}-{kind}{j}" for j in range(2)] for kind, _ in frames}
    shape = (
        f"width={page.width} viewport={page.tag!r} height={page.height} scroll={page.scroll} header={header} "
        f"frames={len(frames)}"
    )
    return GeneratedPage(
        seed,
        page.html(),
        {kind: _frame_page(ids) for kind, ids in frame_ids.items()},
        page.ids,
        [i for ids in frame_ids.values() for i in ids],
        shape,
    )
