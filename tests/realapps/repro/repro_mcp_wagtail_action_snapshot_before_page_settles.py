"""MCP on Wagtail: the view an action returns (`snapshot: true`) is taken before the page has finished reacting,
and a date picker's days have no names.

1. (timing: seen in one run of two) `fill {"target": "id=id_date", "text": "2025-03-14", "snapshot": true}`
   on a new Article page: the attached view has lost `ComboBox "Category*"` and `CheckBox "Featured"` (covered)
   but shows nothing in their place; the screenshot shows the xdsoft calendar (March 2025, 14 highlighted)
   over them.  A `snapshot` right after lists it.
2. That calendar, once listed: `Button "xdsoft prev"`, `Button "xdsoft today"` (class words; a person sees ‹ and a
   house), and the month grid as ONE `Button "Sun Mon Tue … 14 …"` with 42 children `Cell` that have no name —
   a day cannot be tapped by ref or text.
3. Page explorer: `fill {"target": "id=id_q", "text": "review"}`, `press {"key": "enter", "snapshot": true}` →
   `changed: true` and a view that still says "1-50 of 61 pages" with every article; the filtered list
   ("1-1 of 1 page") arrives ~0.5 s later (Wagtail searches as you type, debounced, over fetch).
Expected: the attached view is the screen once it holds still (the picker shown, the results in), as docs/mcp.md
says; calendar days are Cells named "14".
"""

import asyncio
import time
from pathlib import Path
from typing import Any

from _common import WAGTAIL, WAGTAIL_PASSWORD, WAGTAIL_USER, verdict
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

PHONEWIRE = str(Path(__file__).resolve().parents[3] / ".venv" / "bin" / "phonewire")


async def main() -> None:
    params = StdioServerParameters(command=PHONEWIRE, args=["mcp"])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
        await s.initialize()

        async def call(tool: str, args: dict[str, Any]) -> str:
            t = time.monotonic()
            r = await s.call_tool(tool, args)
            text = "\n".join(c.text for c in r.content if c.type == "text")
            print(f"## {tool} {args} is_error={r.is_error} chars={len(text)} {time.monotonic() - t:.2f}s")
            return text

        await call("open_app", {"app_id": f"{WAGTAIL}/admin/pages/add/home/articlepage/3/"})
        await call("wait", {"selector": "role=SecureTextField"})
        await call("fill", {"target": "role=TextField label=Username*", "text": WAGTAIL_USER})
        await call("fill", {"target": "role=SecureTextField", "text": WAGTAIL_PASSWORD})
        await call("tap", {"target": 'role=Button label="Sign in"'})
        await call("wait", {"selector": "id=id_date"})
        attached = await call("fill", {"target": "id=id_date", "text": "2025-03-14", "snapshot": True})
        later = await call("snapshot", {"interactive": True})
        print("attached view has the calendar:", "xdsoft" in attached, "| a snapshot after:", "xdsoft" in later)
        verdict("xdsoft" in attached or "xdsoft" not in later, "the view fill returns shows the calendar it opened")
        days = [ln for ln in later.splitlines() if ln.strip().startswith("@") and " Cell" in ln]
        print("calendar cells:", days[:3], "…", len(days))
        verdict(any('Cell "14"' in ln for ln in days), 'the day 14 is a Cell named "14"')

        await call("open_app", {"app_id": f"{WAGTAIL}/admin/pages/3/"})
        await call("fill", {"target": "id=id_q", "text": "Article 07"})
        attached = await call("press", {"key": "enter", "snapshot": True})
        await asyncio.sleep(1.5)
        later = await call("snapshot", {"interactive": True})
        print("attached:", [ln.strip()[:70] for ln in attached.splitlines() if " of " in ln])
        print("1.5 s later:", [ln.strip()[:70] for ln in later.splitlines() if " of " in ln])
        verdict(not ("1-50 of" in attached and "1-1 of 1" in later), "the view press returns shows the results")


asyncio.run(main())
