"""Flask-Admin: `fill` into a date field with a date picker answers ok while the field holds something else.

The create form's "Published" field is a bootstrap-daterangepicker (moment.js, format YYYY-MM-DD) that re-parses
the text on every key.  CLI: `fill @e90 "2024-02-29"` → `ok filled 10 character(s) into @e90 TextField
"Published"`; the view then shows `value="0002-01-01024-02-29"` and the screenshot too (the picker rewrote the
field after the first key "2": year 2).  A second `fill` says what is true (`COMMAND_FAILED: could not clear … it
still holds 'Invalid date'`), so the first reply is the only one that lies.
Expected: fill reads the field back and, when it does not hold the text typed, says so (an error, or ok with a
warning that names the value it holds) — as it already does for a field it could not clear.
"""

from _common import FLASKADMIN, verdict

import phonewire

with phonewire.Phone(device="web") as phone:
    phone.open(f"{FLASKADMIN}/admin/book/new/")
    phone.wait("role=TextField label=Published")
    try:
        r = phone.fill("role=TextField label=Published", "2024-02-29")
        print("fill ->", r.data)
        said_ok = "warning" not in str(r.data).lower()
    except phonewire.ProtocolError as exc:  # since efront: an error that names what the field holds
        print("fill ->", exc.code, exc.message, "| hint:", exc.hint)
        said_ok = False
    line = next(ln for ln in phone.snapshot(interactive=True).text.splitlines() if '"Published"' in ln)
    print("view:", line.strip())
    verdict('value="2024-02-29"' in line or not said_ok, "fill's ok means the field holds the text typed")
