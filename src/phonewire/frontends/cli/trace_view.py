"""``phonewire trace view DIR [-o report.html]``: a trace as one self-contained HTML file.

No server and nothing fetched: the screenshots are inlined as data URIs, the style is inline.  The page has a
timeline of thumbnails (one per step, links to the step; a one-line script points them at the steps' images, so
each image is inlined once) and then one section per step: operation, arguments,
duration, the screen before (mutating steps) and after, the element it reached (outlined on the screen it was found
on, with the selector that finds it again), the result or the error (highlighted), the console messages, page
errors and requests of the step (errors and failed requests highlighted), the agent view after the step and its
diff against the previous one.

Stable hooks for tests and tools: ``section.step[data-op][data-n]``, class ``error`` on a failed step,
``img.shot`` (after), ``img.before``, ``div.outline``, ``pre.view``, ``pre.diff``, ``ul.console > li[data-kind]``,
``div.flow`` (a flow run's file:line command), ``table.network > tr.request`` (class ``failed`` for a status of 400
or more, or none).
"""

from __future__ import annotations

import base64
import difflib
import hashlib
import html
import io
import json
import re
from pathlib import Path
from typing import Any, Final

from phonewire.agent.trace import read_steps

STYLE: Final = """
body{font:14px system-ui,sans-serif;margin:0;background:#f6f7f9;color:#222}
header{padding:12px 20px;background:#1f2933;color:#fff}
nav.timeline{display:flex;gap:6px;overflow-x:auto;padding:10px 20px;background:#e4e7eb;position:sticky;top:0}
nav.timeline a{display:flex;flex-direction:column;align-items:center;text-decoration:none;color:#222;font-size:11px}
nav.timeline img{height:90px;border:2px solid #9aa5b1;border-radius:4px}
nav.timeline a.error img{border-color:#d64545}
section.step{display:flex;gap:16px;margin:14px 20px;padding:12px;background:#fff;border-left:5px solid #3e7bfa;
  border-radius:4px}
section.step{content-visibility:auto;contain-intrinsic-size:auto 460px}
section.step.error{border-left-color:#d64545;background:#fff5f5}
.screens{display:flex;gap:6px;flex:none}
.screen{position:relative;flex:none;width:196px}
.screen .label{font-size:11px;color:#52606d}
ul.console{margin:4px 0;padding-left:18px;font:12px monospace}
ul.console li.bad{color:#b42318}
table.network{border-collapse:collapse;font:12px monospace}
table.network td{padding:1px 6px;border-bottom:1px solid #e4e7eb;max-width:420px;overflow:hidden;text-overflow:ellipsis;
  white-space:nowrap}
table.network tr.failed{color:#b42318}
.screen img{width:100%;display:block;border:1px solid #ccc}
.outline{position:absolute;border:2px solid #f0b429;box-shadow:0 0 0 2px rgba(0,0,0,.35)}
.details{flex:1;min-width:0}
h2{margin:0 0 6px;font-size:16px}
.err{color:#b42318;font-weight:600}
pre{background:#f1f3f5;padding:8px;overflow:auto;max-height:320px;font-size:12px;white-space:pre-wrap}
pre.diff .add{color:#1a7f37}
pre.diff .del{color:#b42318}
code{background:#f1f3f5;padding:1px 4px}
"""


#: Images are decoded when they come near the viewport, and sections off screen are not laid out
#: (``content-visibility``): a 500-step report holds 1000 images (bench/bench_trace.py times it).
_LAZY: Final = 'loading="lazy" decoding="async"'
#: The timeline's thumbnails show the steps' own after-screens: each image is inlined once, not twice.
THUMBS: Final = (
    "for(const t of document.querySelectorAll('nav img[data-of]'))t.src=document.getElementById(t.dataset.of).src"
)


#: The report runs its one script and nothing else, loads nothing from the network, and sends nothing anywhere
#: (defence in depth: every text of the trace is escaped, but a page's console text is hostile by nature).
CSP: Final = (
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
    f"script-src 'sha256-{base64.b64encode(hashlib.sha256(THUMBS.encode()).digest()).decode()}'; "
    "form-action 'none'; base-uri 'none'"
)


def _size(image: bytes) -> tuple[int, int] | None:
    try:
        from PIL import Image

        with Image.open(io.BytesIO(image)) as img:
            return img.size
    except Exception:  # not an image the report can measure: no outline
        return None


def _args_text(args: object) -> str:
    if not isinstance(args, dict):
        return json.dumps(args, ensure_ascii=False, default=str)
    return ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in args.items())


def _diff(previous: str | None, current: str | None) -> str:
    if previous is None or current is None:
        return ""
    out = []
    for line in difflib.unified_diff(previous.splitlines(), current.splitlines(), lineterm="", n=0):
        if line.startswith(("---", "+++", "@@")):
            continue
        kind = "add" if line.startswith("+") else "del"
        out.append(f'<span class="{kind}">{html.escape(line)}</span>')
    return "\n".join(out)


#: The only image names a trace's steps may point at (``shots/NNNNN.jpg``, ``shots/NNNNN-before.jpg``): a trace
#: handed to you is data, and its report never inlines another file of your disk.
_SHOT_NAME: Final = re.compile(r"shots/\d{5,}(-before)?\.jpg\Z")


def _image(directory: Path, name: object) -> bytes | None:
    if not isinstance(name, str) or not _SHOT_NAME.match(name):
        return None
    path = directory / name
    return path.read_bytes() if path.is_file() and not path.is_symlink() else None


_RECT_KEYS: Final = ("x", "y", "width", "height")


def _flow(step: dict[str, Any]) -> list[str]:
    """A flow run's step: the flow's file, line and command (docs/flows.md)."""
    flow = step.get("flow")
    if not isinstance(flow, dict):
        return []
    where = f"{flow.get('file')}:{flow.get('line')} {flow.get('command')}"
    return [f'<div class="flow">flow {html.escape(where)}</div>']


def _outline(step: dict[str, Any], image: bytes) -> str:
    rect = (step.get("target") or {}).get("rect")
    size = _size(image)
    if not isinstance(rect, dict) or not size:
        return ""
    if not all(isinstance(rect.get(k), int | float) and not isinstance(rect.get(k), bool) for k in _RECT_KEYS):
        return ""
    w, h = size
    style = (f"left:{100 * rect['x'] / w:.2f}%;top:{100 * rect['y'] / h:.2f}%;"
             f"width:{100 * rect['width'] / w:.2f}%;height:{100 * rect['height'] / h:.2f}%")  # fmt: skip
    return f'<div class="outline" style="{style}"></div>'


def _uri(image: bytes) -> str:
    return "data:image/jpeg;base64," + base64.b64encode(image).decode("ascii")


def _screen(directory: Path, step: dict[str, Any]) -> tuple[str, str]:
    """The step's screens, before (if any) and after, with the target outlined on the one it was found on (before,
    when there is one), and the after screen's thumbnail for the timeline."""
    before, after = _image(directory, step.get("before")), _image(directory, step.get("shot"))
    n = step["n"]
    out = []
    if before is not None:
        out.append(f'<div class="screen"><div class="label">before</div><img class="before" alt="screen before step '
                   f'{n}" {_LAZY} src="{_uri(before)}">{_outline(step, before)}</div>')  # fmt: skip
    if after is not None:
        outline = "" if before is not None else _outline(step, after)
        label = '<div class="label">after</div>' if before is not None else ""
        out.append(f'<div class="screen">{label}<img class="shot" id="shot-{n}" alt="screen after step {n}" {_LAZY} '
                   f'src="{_uri(after)}">{outline}</div>')  # fmt: skip
    if not out:
        return '<div class="screen noshot">no screenshot</div>', ""
    return f'<div class="screens">{"".join(out)}</div>', f"shot-{n}" if after is not None else ""


def _console(entries: list[Any]) -> str:
    items = []
    for x in entries:
        if not isinstance(x, dict):
            continue
        kind, level = str(x.get("kind", "")), str(x.get("level", ""))
        bad = kind == "error" or level == "error"
        where = f" <small>{html.escape(str(x['url']))}</small>" if x.get("url") else ""
        tag = html.escape(level or kind)
        items.append(f'<li data-kind="{html.escape(kind)}" class="{"bad" if bad else ""}">[{tag}]'
                     f" {html.escape(str(x.get('text', '')))}{where}</li>")  # fmt: skip
    return f'<details open><summary>console ({len(items)})</summary><ul class="console">{"".join(items)}</ul></details>'


def _network(requests: list[Any]) -> str:
    rows = []
    for r in requests:
        if not isinstance(r, dict):
            continue
        status = r.get("status") or 0
        failed = bool(r.get("error")) or not isinstance(status, int) or status >= 400 or status == 0
        ms = r.get("ms")
        cells = [r.get("method", ""), r.get("error") or status, f"{(r.get('size') or 0) / 1000:.1f} kB",
                 f"{ms:g} ms" if isinstance(ms, int | float) else "", r.get("url", "")]  # fmt: skip
        tds = "".join(f"<td>{html.escape(str(c))}</td>" for c in cells)
        rows.append(f'<tr class="request{" failed" if failed else ""}">{tds}</tr>')
    return (f'<details open><summary>requests ({len(rows)})</summary><table class="network">{"".join(rows)}'
            "</table></details>")  # fmt: skip


def render_report(directory: str | Path) -> str:
    """The report of the trace in ``directory`` as HTML text."""
    folder = Path(directory)
    steps = read_steps(folder)
    errors = sum(1 for s in steps if "error" in s)
    sections, thumbs = [], []
    previous_view: str | None = None
    for step in steps:
        if not isinstance(step.get("n"), int) or isinstance(step.get("n"), bool):
            continue  # not a line phonewire wrote
        n, op = int(step["n"]), str(step.get("op"))
        failed = "error" in step
        cls = "step error" if failed else "step"
        screen, shot_id = _screen(folder, step)
        if shot_id:
            thumbs.append(f'<a href="#step-{n}" class="{"error" if failed else ""}">'
                          f'<img {_LAZY} data-of="{shot_id}" alt="">{n} {html.escape(op)}</a>')  # fmt: skip
        args = html.escape(_args_text(step.get("args") or {}))
        parts = [f"<h2>{n}. {html.escape(op)} <small>{args}</small></h2>"]
        parts += _flow(step)
        ms = html.escape(str(step.get("ms", 0)))
        parts.append(f"<div>{ms} ms" + (" · screen changed" if step.get("changed") else "") + "</div>")
        target = step.get("target")
        if isinstance(target, dict):
            sel = target.get("selector")
            what = f'{target.get("type")} "{target.get("label") or ""}"'
            found_by = f"<code>{html.escape(str(sel))}</code>" if sel else "no stable selector"
            parts.append(f'<div class="target">target: {html.escape(what)} · {found_by}</div>')
        if failed:
            err = step["error"] if isinstance(step["error"], dict) else {"message": step["error"]}
            hint = f"<br>hint: {html.escape(str(err['hint']))}" if err.get("hint") else ""
            code, message_text = html.escape(str(err.get("code"))), html.escape(str(err.get("message")))
            parts.append(f'<div class="err">{code}: {message_text}{hint}</div>')
        else:
            message = ((step.get("result") or {}).get("data") or {}) if isinstance(step.get("result"), dict) else {}
            if isinstance(message, dict) and message.get("message"):
                parts.append(f'<div class="result">{html.escape(str(message["message"]))}</div>')
        if step.get("console"):
            parts.append(_console(list(step["console"]) if isinstance(step["console"], list) else []))
        if step.get("network"):
            parts.append(_network(list(step["network"]) if isinstance(step["network"], list) else []))
        view = step.get("view") if isinstance(step.get("view"), str) else None
        changes = _diff(previous_view, view)
        if changes:
            parts.append(f'<details open><summary>view diff</summary><pre class="diff">{changes}</pre></details>')
        if isinstance(view, str):
            parts.append(f'<details><summary>view after</summary><pre class="view">{html.escape(view)}</pre></details>')
            previous_view = view
        sections.append(f'<section class="{cls}" id="step-{n}" data-n="{n}" data-op="{html.escape(op)}">{screen}'
                        f'<div class="details">{"".join(parts)}</div></section>')  # fmt: skip
    title = f"phonewire trace: {len(steps)} step(s), {errors} error(s)"
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" '
        f'content="{CSP}"><title>{html.escape(title)}</title>'
        f"<style>{STYLE}</style></head><body><header><h1>{html.escape(title)}</h1>"
        f"<div>{html.escape(str(folder.resolve()))}</div></header>"
        f'<nav class="timeline">{"".join(thumbs)}</nav><main>{"".join(sections)}</main>'
        f"<script>{THUMBS}</script></body></html>"
    )


def write_report(directory: str | Path, output: str | Path | None = None) -> Path:
    """Write the report (default ``DIR/report.html``, 0600) and return its path."""
    import os

    path = Path(output) if output is not None else Path(directory) / "report.html"
    # 0600, never through a symlink (a trace directory someone else shared may hold report.html → your ~/.bashrc),
    # never another user's file
    from phonewire.runtime import open_private_output

    fd = open_private_output(path)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(render_report(directory))
    return path
