"""Text seen on the screen: what an OCR engine reads from a screenshot, as snapshot nodes, for screens whose view
holds little or no text where the screen clearly does (a canvas chart, a game, a WebGL page, a Flutter canvas).

The engine is Tesseract (Debian's ``tesseract-ocr``, its English model included; scripts/setup.sh installs it), run
as a process of its own on the screenshot (``tesseract stdin stdout --psm 11 tsv``: sparse text, each word with its
box and confidence).  Words of one line (Tesseract's block, paragraph and line) become one ``StaticText`` node
with ``"seen": true`` and the line's box in screen points — the view prints it with ``(seen)``, and a selector or
ref reaches it like any other node (a tap lands at its centre: on the canvas, as a finger would).

When: ``snapshot --ocr`` always; without it, when the view is *sparse* (:func:`sparse`): its nodes hold fewer than
:data:`SPARSE_CHARS` characters of text on screen and a drawn area the nodes do not account for covers at least
:data:`SPARSE_DRAWN` of the screen — measured on the same screenshot the engine would read, so a plain page with
little text costs a screenshot and no OCR.  While the session's last snapshot had seen text, the session keeps
reading (each snapshot a target is resolved in reads the screen again; an unchanged screenshot reuses its lines),
so ``tap "text=Revenue"`` and ``tap @e12`` find what the snapshot showed.

No engine installed: ``--ocr`` is UNSUPPORTED_OPERATION naming the package; the automatic reading says so in the
view's header instead.  The engine process is ended (by its PID) when it overruns :data:`OCR_TIMEOUT_S`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import os
import shutil
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol

from phonewire.protocol import commands as c
from phonewire.protocol import errors as e
from phonewire.protocol.errors import ProtocolError
from phonewire.protocol.snapshot import Node, Snapshot, WireRect, rect_of

if TYPE_CHECKING:
    from phonewire.agent.results import Reply


class Screen(Protocol):
    """What reading the screen sends: :class:`phonewire.agent.link.Link` is one (a protocol, so the link, which owns
    a reader, and the reader do not import each other)."""

    async def wire(self, command: str, body: Mapping[str, Any]) -> Reply: ...

    async def send(self, command: str, fields: Mapping[str, Any] | None = None, *, app: bool = False) -> Reply: ...


#: ``on``: read (``snapshot --ocr``); ``auto``: read when the view is sparse; ``again``: the session reads (its last
#: snapshot had seen text).
Mode = Literal["on", "auto", "again"]

#: A view with fewer characters of text than this on screen may be sparse (then the screenshot decides).
SPARSE_CHARS: Final = 12
#: The share of the screen drawn (not a flat background) outside every node's box that makes a view sparse.
SPARSE_DRAWN: Final = 0.015
#: The screen's root roles (their label is the app's title, not text on the screen).
_ROOTS: Final = frozenset({"Application", "Window"})
#: The width (pixels) the sparse measure looks at the screen in (fine enough to keep a 12-point word's strokes).
MEASURE_WIDTH: Final = 195
#: The screenshot that decides whether a view is sparse (small and quick).
SMALL_SHOT: Final = {"format": "jpeg", "scale": "css", "quality": 50}
#: Tesseract's page segmentation modes, run side by side: 11 sparse text (a chart's scattered labels), 3 the page's
#: layout (a word on a filled button, which sparse text misses).
PASSES: Final = ("11", "3")
#: Pixels per point the engine reads at (a 3x phone's screenshot is scaled down to this).
MAX_OCR_SCALE: Final = 2.0
#: Words of one Tesseract line further apart than this many line heights are two lines (two labels side by side).
WORD_GAP: Final = 1.2
#: Words Tesseract is less sure of than this (0-100) are left out.
MIN_CONFIDENCE: Final = 55.0
#: The engine's longest run on one screenshot.
OCR_TIMEOUT_S: Final = 20.0
#: The header line of a view with seen text.
HEADER_OCR: Final = "# text read from the screen (OCR): {n} line(s) marked (seen)"
HEADER_SPARSE: Final = "# sparse view: the screen shows more than its elements say; {n} line(s) read from it (seen)"
HEADER_NO_ENGINE: Final = "# sparse view: the screen shows more than its elements say (no OCR engine: tesseract-ocr)"
ENGINE_PACKAGE: Final = "tesseract-ocr"


@dataclass(frozen=True)
class Line:
    text: str
    #: The box in image pixels: left, top, width, height.
    box: tuple[int, int, int, int]
    confidence: float


def engine() -> str | None:
    return shutil.which("tesseract")


def no_engine() -> ProtocolError:
    return ProtocolError(
        e.UNSUPPORTED_OPERATION,
        f"no OCR engine is installed ({ENGINE_PACKAGE})",
        f"Install Debian's {ENGINE_PACKAGE} (scripts/setup.sh does), or snapshot without --ocr.",
    )


def parse_tsv(tsv: str) -> list[Line]:
    """Tesseract's TSV (one row per word) → lines: the words of each block/paragraph/line joined, boxes merged."""
    groups: dict[tuple[str, str, str, str], list[tuple[str, int, int, int, int, float]]] = {}
    for row in tsv.splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) < 12 or cols[0] != "5":
            continue
        text = cols[11].strip()
        try:
            left, top, width, height = (int(c) for c in cols[6:10])
            conf = float(cols[10])
        except ValueError:
            continue
        if not text or conf < MIN_CONFIDENCE or not any(ch.isalnum() for ch in text):
            continue
        groups.setdefault((cols[1], cols[2], cols[3], cols[4]), []).append((text, left, top, width, height, conf))
    out = []
    for words in groups.values():
        words.sort(key=lambda w: w[1])
        run = [words[0]]
        for word in words[1:]:
            gap = word[1] - (run[-1][1] + run[-1][3])
            if gap > WORD_GAP * max(w[4] for w in run):  # far apart on one line: two labels (a chart's legend)
                out.append(_line(run))
                run = []
            run.append(word)
        out.append(_line(run))
    out.sort(key=lambda line: (line.box[1], line.box[0]))
    return out


def _line(words: list[tuple[str, int, int, int, int, float]]) -> Line:
    x0, y0 = min(w[1] for w in words), min(w[2] for w in words)
    x1, y1 = max(w[1] + w[3] for w in words), max(w[2] + w[4] for w in words)
    text = " ".join(w[0] for w in words)
    return Line(text, (x0, y0, x1 - x0, y1 - y0), sum(w[5] for w in words) / len(words))


async def _tesseract(binary: str, image: bytes, psm: str) -> list[Line]:
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}  # its own threads: 10x slower on a busy 2-core machine
    proc = await asyncio.create_subprocess_exec(
        binary, "stdin", "stdout", "--psm", psm, "-l", "eng", "tsv",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, env=env,
    )  # fmt: skip
    try:
        out, _ = await asyncio.wait_for(proc.communicate(image), OCR_TIMEOUT_S)
    except (TimeoutError, asyncio.CancelledError):
        with contextlib.suppress(ProcessLookupError):
            proc.kill()  # by its PID: the process this call started
        await proc.wait()
        raise
    if proc.returncode != 0:
        raise ProtocolError(e.COMMAND_FAILED, f"the OCR engine failed (exit {proc.returncode})", "Try again.")
    return parse_tsv(out.decode("utf-8", "replace"))


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


async def read(image: bytes) -> list[Line]:
    """The lines Tesseract reads in ``image`` (PNG/JPEG bytes): :data:`PASSES` page segmentations run side by side,
    the first's lines, then each later one's that lie where no line was read yet (sparse text finds a chart's
    ticks, the page layout finds a word on a filled button)."""
    binary = engine()
    if binary is None:
        raise no_engine()
    passes = await asyncio.gather(*(_tesseract(binary, image, psm) for psm in PASSES))
    out = list(passes[0])
    for later in passes[1:]:
        out += [line for line in later if not any(_overlaps(line.box, kept.box) for kept in out)]
    out.sort(key=lambda line: (line.box[1], line.box[0]))
    return out


def readable(image: bytes, viewport_width: float) -> tuple[bytes, int]:
    """``image`` at most :data:`MAX_OCR_SCALE` pixels per point (Tesseract reads 2x text as well as 3x, in half the
    time), as PNG, and its width."""
    from PIL import Image

    with Image.open(io.BytesIO(image)) as src:
        scale = src.width / max(1.0, viewport_width)
        if scale <= MAX_OCR_SCALE:
            return image, src.width
        size = (round(viewport_width * MAX_OCR_SCALE), round(src.height * MAX_OCR_SCALE / scale))
        small = src.convert("L").resize(size, Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.save(out, format="PNG")
    return out.getvalue(), size[0]


def text_chars(nodes: Sequence[Node]) -> int:
    """Characters of text the view's nodes hold on screen (labels and values; the root's title left out)."""
    total = 0
    for n in nodes:
        if n.get("type") in _ROOTS or n.get("seen"):
            continue
        r = rect_of(n)
        if float(r.get("width", 0)) <= 0 or float(r.get("height", 0)) <= 0:
            continue
        total += len(str(n.get("label") or "")) + len(str(n.get("value") or ""))
    return total


def drawn_outside(image: bytes, nodes: Sequence[Node], viewport: dict[str, float]) -> float:
    """The share of the screen that is drawn (differs from the screen's most common colour) and lies outside every
    box of a node with text or a control (a canvas wrapper without text does not account for what it draws)."""
    from PIL import Image

    with Image.open(io.BytesIO(image)) as src:
        small = src.convert("L").resize((MEASURE_WIDTH, max(1, round(MEASURE_WIDTH * src.height / max(1, src.width)))))
    w, h = small.size
    pixels = small.tobytes()  # mode L: one byte per pixel
    background = Counter(pixels).most_common(1)[0][0]
    sx = w / max(1.0, viewport.get("width", w))
    covered = bytearray(w * h)
    for n in nodes:
        if n.get("type") in _ROOTS or not (n.get("label") or n.get("value") or n.get("seen")):
            continue
        r = rect_of(n)
        x0 = int((float(r.get("x", 0)) - viewport.get("x", 0)) * sx)
        y0 = int((float(r.get("y", 0)) - viewport.get("y", 0)) * sx)
        x1 = int(x0 + float(r.get("width", 0)) * sx) + 1
        y1 = int(y0 + float(r.get("height", 0)) * sx) + 1
        for y in range(max(0, y0), min(h, y1)):
            covered[y * w + max(0, x0) : y * w + min(w, x1)] = b"\x01" * max(0, min(w, x1) - max(0, x0))
    drawn = sum(1 for i, p in enumerate(pixels) if abs(p - background) > 24 and not covered[i])
    return drawn / (w * h)


def _drawn(image: bytes, nodes: Sequence[Node], viewport: dict[str, float]) -> float:
    """:func:`drawn_outside`, or 0 for an image that does not decode (then the view is taken as it is)."""
    try:
        return drawn_outside(image, nodes, viewport)
    except (OSError, ValueError, SyntaxError):  # PIL's errors for a truncated or unknown image
        return 0.0


def nodes_of(lines: Sequence[Line], image_width: int, viewport: dict[str, float], nodes: Sequence[Node]) -> list[Node]:
    """The seen lines as snapshot nodes under the screen's root (indexes after the snapshot's own), in points; a
    line whose text a node already shows in the same place is left out."""
    scale = image_width / max(1.0, viewport.get("width", image_width))
    root = next((n for n in nodes if n.get("type") in _ROOTS), None)
    base = max((int(n["index"]) for n in nodes), default=-1) + 1
    known = {" ".join(str(n.get("label") or "").split()).lower() for n in nodes if n.get("label")}
    out: list[Node] = []
    for line in lines:
        if " ".join(line.text.split()).lower() in known:
            continue
        x, y, w, h = line.box
        left, top = viewport.get("x", 0) + x / scale, viewport.get("y", 0) + y / scale
        rect: WireRect = {"x": round(left, 1), "y": round(top, 1), "width": round(w / scale, 1),
                          "height": round(h / scale, 1)}  # fmt: skip
        out.append({
            "index": base + len(out), "type": "StaticText", "label": line.text, "identifier": None, "value": None,
            "rect": rect, "enabled": True, "focused": False, "selected": False,
            "depth": 1 if root is not None else 0,
            "parentIndex": None if root is None else root["index"], "seen": True,
        })  # fmt: skip
    return out


class Reader:
    """A session's reading of its screen: the last screenshot's digest and lines (an unchanged screen is not read
    again), and whether the session is in the mode where every snapshot reads (the last view had seen text)."""

    def __init__(self) -> None:
        self.active = False
        self._digest: bytes | None = None
        self._lines: list[Line] = []
        self.last_ms = 0.0

    def forget(self) -> None:
        """Another app (or the same one started again): nothing read yet, nothing reading."""
        self.active = False
        self._digest = None
        self._lines = []

    async def augment(self, link: Screen, snap: Snapshot, mode: Mode) -> Snapshot:
        """``snap`` with the text seen on the screen added as nodes (see the module docstring), and
        ``quality.seen`` saying so: ``{"lines", "reason", "ocrMs", "header"}``."""
        nodes = list(snap["nodes"])
        if mode == "auto" and text_chars(nodes) >= SPARSE_CHARS:
            self.active = False
            return snap
        from phonewire.agent.observe import decode_image

        try:
            vp = (await link.send(c.VIEWPORT, app=True)).data or {}
            viewport = {k: float(vp.get(k, 0)) for k in ("x", "y", "width", "height")}
            if mode == "auto":  # a small image decides whether the view is sparse; only then the big one is read
                small = decode_image((await link.wire(c.SCREENSHOT, SMALL_SHOT)).data or {})
                if _drawn(small, nodes, viewport) < SPARSE_DRAWN:
                    self.active = False
                    return snap
            image = decode_image((await link.wire(c.SCREENSHOT, {"format": "png", "scale": "device"})).data or {})
        except ProtocolError:
            if mode == "on":
                raise
            self.active = mode == "again" and self.active  # no screen to read (a device without screenshots)
            return snap
        reason = "ocr" if mode == "on" else "sparse" if mode == "auto" else "reading"
        if mode == "auto" and engine() is None:
            self.active = False
            return {**snap, "quality": {**snap["quality"], "seen": {"lines": 0, "reason": "sparse",
                                                                       "header": HEADER_NO_ENGINE}}}  # fmt: skip
        if mode == "on" and engine() is None:
            raise no_engine()
        try:
            image, width = readable(image, viewport["width"])
        except (OSError, ValueError, SyntaxError) as exc:
            raise ProtocolError(e.COMMAND_FAILED, "the screenshot to read did not decode", "Try again.") from exc
        added = nodes_of(await self.lines(image), width, viewport, nodes)
        self.active = True if mode == "again" else bool(added)
        template = HEADER_OCR if mode == "on" else HEADER_SPARSE
        seen_quality = {"lines": len(added), "reason": reason, "ocrMs": round(self.last_ms, 1),
                        "header": template.format(n=len(added))}  # fmt: skip
        return {"nodes": [*nodes, *added], "quality": {**snap["quality"], "seen": seen_quality}}

    async def lines(self, image: bytes) -> list[Line]:
        digest = hashlib.sha256(image).digest()
        if digest != self._digest:
            loop = asyncio.get_running_loop()
            t0 = loop.time()
            self._lines = await read(image)
            self.last_ms = (loop.time() - t0) * 1000
            self._digest = digest
        return self._lines
