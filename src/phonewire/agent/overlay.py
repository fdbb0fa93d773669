"""Set-of-marks: each ref's box and label drawn over a screenshot (Pillow, imported only here)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

from phonewire.protocol.snapshot import Node, rect_of

_COLOURS = ((230, 25, 75), (60, 180, 75), (0, 130, 200), (245, 130, 48), (145, 30, 180), (70, 240, 240))


def draw_refs(image: bytes, refs: dict[str, Node], viewport: dict[str, float], *, format: str = "png") -> bytes:
    """Draw ``refs`` (ref → node with a rect in points) over ``image``; points → pixels by the viewport width."""
    with Image.open(io.BytesIO(image)) as src:
        canvas = src.convert("RGB")
    width = viewport.get("width") or canvas.width
    scale = canvas.width / width if width else 1.0
    draw = ImageDraw.Draw(canvas)
    font = ImageFont.load_default(size=max(10, round(11 * scale)))
    for i, (ref, node) in enumerate(refs.items()):
        r = rect_of(node)
        x0 = (float(r.get("x", 0)) - viewport.get("x", 0)) * scale
        y0 = (float(r.get("y", 0)) - viewport.get("y", 0)) * scale
        x1 = x0 + float(r.get("width", 0)) * scale
        y1 = y0 + float(r.get("height", 0)) * scale
        if x1 <= x0 or y1 <= y0:
            continue
        colour = _COLOURS[i % len(_COLOURS)]
        draw.rectangle((x0, y0, x1, y1), outline=colour, width=max(1, round(scale)))
        label = f"@{ref}"
        box = draw.textbbox((x0, y0), label, font=font)
        tag = (x0, max(0.0, y0 - (box[3] - box[1]) - 2), x0 + (box[2] - box[0]) + 4, max(y0, box[3] - box[1] + 2))
        draw.rectangle(tag, fill=colour)
        draw.text((tag[0] + 2, tag[1]), label, fill=(255, 255, 255), font=font)
    out = io.BytesIO()
    canvas.save(out, format="JPEG" if format == "jpeg" else "PNG")
    return out.getvalue()
