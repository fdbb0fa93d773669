"""``phonewire trace view DIR [-o report.html]``: a trace as one self-contained HTML file.

No server and nothing fetched: the screenshots are inlined as data URIs, the style is inline.  The page has a
timeline of thumbnails (one per step, links to the step) and then one section per step: operation, arguments,
duration, the element it reached (outlined on the screenshot, with the selector that finds it again), the result or
the error (highlighted), the agent view after the step and its diff against the previous one.

Stable hooks for tests and tools: ``section.step[data-op][data-n]``, class ``error`` on a failed step,
``img.shot``, ``div.outline``, ``pre.view``, ``pre.diff``.
"""

from __future__ import annotations

import base64
import difflib
import html
import io
import json
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
section.step.error{border-left-color:#d64545;background:#fff5f5}
.screen{position:relative;flex:none;width:196px}
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


def _size(image: bytes) -> tuple[int, int] | None:
    try:
        from PIL import Image

        with Image.open(io.BytesIO(image)) as img:
            return img.size
    except Exception:  # not an image the report can measure: no outline
        return None


def _args_text(args: dict[str, Any]) -> str:
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


def _screen(directory: Path, step: dict[str, Any]) -> tuple[str, str]:
    """The step's screenshot (with the target outlined) and its thumbnail for the timeline."""
    shot = step.get("shot")
    path = directory / shot if isinstance(shot, str) else None
    if path is None or not path.is_file():
        return '<div class="screen noshot">no screenshot</div>', ""
    image = path.read_bytes()
    uri = "data:image/jpeg;base64," + base64.b64encode(image).decode("ascii")
    outline = ""
    rect = (step.get("target") or {}).get("rect")
    size = _size(image)
    if isinstance(rect, dict) and size:
        w, h = size
        style = (f"left:{100 * rect['x'] / w:.2f}%;top:{100 * rect['y'] / h:.2f}%;"
                 f"width:{100 * rect['width'] / w:.2f}%;height:{100 * rect['height'] / h:.2f}%")  # fmt: skip
        outline = f'<div class="outline" style="{style}"></div>'
    return f'<div class="screen"><img class="shot" alt="screen after step {step["n"]}" src="{uri}">{outline}</div>', uri


def render_report(directory: str | Path) -> str:
    """The report of the trace in ``directory`` as HTML text."""
    folder = Path(directory)
    steps = read_steps(folder)
    errors = sum(1 for s in steps if "error" in s)
    sections, thumbs = [], []
    previous_view: str | None = None
    for step in steps:
        n, op = int(step["n"]), str(step["op"])
        failed = "error" in step
        cls = "step error" if failed else "step"
        screen, uri = _screen(folder, step)
        if uri:
            thumbs.append(f'<a href="#step-{n}" class="{"error" if failed else ""}"><img src="{uri}" alt="">'
                          f"{n} {html.escape(op)}</a>")  # fmt: skip
        args = html.escape(_args_text(step.get("args") or {}))
        parts = [f"<h2>{n}. {html.escape(op)} <small>{args}</small></h2>"]
        parts.append(f"<div>{step.get('ms', 0)} ms" + (" · screen changed" if step.get("changed") else "") + "</div>")
        target = step.get("target")
        if isinstance(target, dict):
            sel = target.get("selector")
            what = f'{target.get("type")} "{target.get("label") or ""}"'
            found_by = f"<code>{html.escape(sel)}</code>" if sel else "no stable selector"
            parts.append(f'<div class="target">target: {html.escape(what)} · {found_by}</div>')
        if failed:
            err = step["error"]
            hint = f"<br>hint: {html.escape(str(err['hint']))}" if err.get("hint") else ""
            code, message_text = html.escape(str(err.get("code"))), html.escape(str(err.get("message")))
            parts.append(f'<div class="err">{code}: {message_text}{hint}</div>')
        else:
            message = ((step.get("result") or {}).get("data") or {}) if isinstance(step.get("result"), dict) else {}
            if isinstance(message, dict) and message.get("message"):
                parts.append(f'<div class="result">{html.escape(str(message["message"]))}</div>')
        view = step.get("view")
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
        f'<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{STYLE}</style></head><body><header><h1>{html.escape(title)}</h1>"
        f"<div>{html.escape(str(folder.resolve()))}</div></header>"
        f'<nav class="timeline">{"".join(thumbs)}</nav><main>{"".join(sections)}</main></body></html>'
    )


def write_report(directory: str | Path, output: str | Path | None = None) -> Path:
    """Write the report (default ``DIR/report.html``, 0600) and return its path."""
    import os

    path = Path(output) if output is not None else Path(directory) / "report.html"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(render_report(directory))
    return path
