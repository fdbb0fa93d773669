"""JSON-RPC bridge on Swagger UI: frames of zero size that tap_element taps at the screen's origin, replies that
say nothing but the tree, and a style sheet read as text.

1. After "Try it out", `get_tree` lists the `status` select's options as `StaticText "sold" frame={{0.0, 0.0},
   {0.0, 0.0}}`.  The PhoneAgent workflow (docs/bridge.md: "copy an element's frame string, act on it") then sends
   `tap_element {"coordinate": "{{0.0, 0.0}, {0.0, 0.0}}"}` → a normal result (tree, no error, no warning): the
   point (0, 0) was tapped (here it only blurred the focused button; on another page it is a real control).
   `tap {"target": "@eN"}` on the same option selects it (finding D1's fix) — only the frame path misses it.
2. `tap` and `press` answer `{"tree": …}` only: `press back` does not say whether it closed the Authorize dialog,
   went back in history or went home (MCP says `pressed back: the page closed what was open …`, `changed`).
3. Line 2 of every tree is `StaticText ".logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}"`:
   the CSS of the inline SVG logo's `<style>` (walker.js skips STYLE by its upper-case HTML tag name; an SVG
   element's tagName is lower-case `style`).  Operation names carry zero-width spaces: `Button "get \\u200b/pets
   \\u200b/item1.json"`.
Expected: a zero-size frame refused (INVALID_REQUEST naming `select`, as a ref is) or no frame printed for options;
the action's message and `changed` in the result; no style-sheet text; zero-width characters dropped from names.
Starts its own bridge on a free port and stops it (`stop`).
"""

import json
import socket
import subprocess
from pathlib import Path
from typing import Any

from _common import SWAGGER, verdict

PHONEWIRE = str(Path(__file__).resolve().parents[3] / ".venv" / "bin" / "phonewire")
proc = subprocess.Popen(
    [PHONEWIRE, "bridge", "--port", "0", "--app", f"{SWAGGER}/index.html"], stdout=subprocess.PIPE, text=True
)
try:
    assert proc.stdout is not None
    port = int(proc.stdout.readline().split("port=")[1])
    conn = socket.create_connection(("127.0.0.1", port))
    f = conn.makefile("rwb")
    n = 0

    def call(method: str, **params: object) -> dict[str, Any]:
        global n
        n += 1
        f.write((json.dumps({"id": n, "method": method, "params": params}) + "\n").encode())
        f.flush()
        reply: dict[str, Any] = json.loads(f.readline())
        print(f"## {method} {params} -> keys {sorted(reply.get('result', reply))}")
        return reply

    call("wait", selector='role=Button label="GET /pets/item1.json Get pets item 1"')
    tree = call("get_tree")["result"]["tree"]
    print(tree.splitlines()[2])
    verdict("fill:#" not in tree, "no style-sheet text in the tree")
    verdict("\u200b" not in tree, "no zero-width spaces in names")
    call("tap", target='role=Button label="GET /pets/item1.json Get pets item 1"')
    tree = call("tap", target='role=Button label="Try it out"')["result"]["tree"]
    sold = next(ln for ln in tree.splitlines() if 'StaticText "sold"' in ln)
    print(sold.strip())
    frame = sold.split("frame=")[1]
    r = call("tap_element", coordinate=frame)
    print("tap_element", frame, "->", r.get("error") or "ok (no error, no warning)")
    verdict("error" in r, "tap_element on a zero-size frame is refused, not a tap at (0, 0)")
    call("tap", target="role=Button label=Authorize")
    r = call("press", key="back")["result"]
    verdict("message" in r or "changed" in r, "press back says what it did (closed the dialog)")
    call("stop")
finally:
    proc.wait(30)
