"""Datasette: the SQL editor (CodeMirror 5) is a `Button` whose label starts with the gutter's line number,
`fill` refuses it, and the hint's `tap` then `type` inserts the text in the middle of the query.

Expected: an editable field (TextView, value = the query) that `fill` can replace, or at least a key to reach
the end / select all.  Seen: `Button "1 select * from people"`; fill -> INVALID_REQUEST "is a Button";
tap + type -> "select * from <typed> people"; `press end` / `press ctrl+a` -> unknown key.
Workaround that works: tap, press pageDown, 40 x press backspace, type, tap "Run SQL" (42 calls).
"""

from _common import DATASETTE, verdict

import phonewire
from phonewire import ProtocolError

with phonewire.Phone(device="web") as phone:
    phone.open(f"{DATASETTE}/db")
    view = phone.snapshot(interactive=True).text
    line = next(ln for ln in view.splitlines() if "select * from people" in ln)
    print("editor line:", line)
    verdict(" Button " not in line and '"1 ' not in line, "the editor is a text field named without the gutter number")
    editor = line.split()[0]
    try:
        phone.fill(editor, "select count(*) from people")
        verdict(True, "fill replaces the query")
    except ProtocolError as err:
        print("fill ->", err.code, err)
        verdict(False, "fill replaces the query")
    phone.tap(editor)
    phone.type(" where 1")
    line = next(ln for ln in phone.snapshot(interactive=True).text.splitlines() if "from" in ln)
    print("after tap + type:", line)
    verdict(line.rstrip().endswith('where 1"') or 'where 1"' in line, "tap + type (the hint) appends at the end")
    for key in ("end", "ctrl+a"):
        try:
            phone.press(key)
        except ProtocolError as err:
            print(f"press {key} ->", err.code)
