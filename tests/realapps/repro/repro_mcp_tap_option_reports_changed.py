"""MCP front end: `tap {"target": "\\"Sort by name\\""}` on Datasette (an option of the sort <select>) answers
`ok: tap {"message": "tapped (0, 0)", "hit": "Other", "changed": true, …}`, is_error false; the next
`snapshot {"interactive": true, "diff": true}` answers `# no changes`. Same root as
repro_datasette_tap_option_taps_origin.py, seen through MCP where only the JSON reaches the agent.
"""

import asyncio
from pathlib import Path
from typing import Any

from _common import DATASETTE
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

PHONEWIRE = str(Path(__file__).resolve().parents[3] / ".venv" / "bin" / "phonewire")


async def main() -> None:
    params = StdioServerParameters(command=PHONEWIRE, args=["mcp"])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
        await s.initialize()
        steps: list[tuple[str, dict[str, Any]]] = [
            ("open_app", {"app_id": f"{DATASETTE}/db/people"}),
            ("snapshot", {"interactive": True}),
            ("tap", {"target": '"Sort by name"'}),
            ("snapshot", {"interactive": True, "diff": True}),
        ]
        for tool, args in steps:
            r = await s.call_tool(tool, args)
            text = "\n".join(c.text for c in r.content if c.type == "text")
            print(f"## {tool} {args} is_error={r.is_error} chars={len(text)}")
            print(text if tool != "snapshot" or args.get("diff") else text[:200] + " …")


asyncio.run(main())
