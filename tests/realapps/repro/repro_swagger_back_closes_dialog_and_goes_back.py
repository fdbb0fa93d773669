"""Swagger UI: `press back` right after opening a dialog closes it AND goes back in history; the reply names only
the history step, and the next `back` leaves the app.

Expand an operation (deep linking puts `#/pets/get_pets_item1_json` in the URL), tap "Authorize" (a React modal:
`.dialog-ux`, no role=dialog, closes on Escape), then at once `press back` →
`pressed back: went back to http://127.0.0.1:8742/index.html` (`back: "history"`).  The dialog is gone too: the
Escape closed it, but the page had not been still for 100 ms before the key (the dialog had just opened), so the
"its DOM changed on the key" rule of docs/web.md did not count it, and back went on to the history step.  An agent
that sees the dialog in a screenshot and presses back again to close it gets `pressed back: left the app: the home
screen shows`.  With a `snapshot` between the tap and the back (the page still), the same back answers
`pressed back: the page closed what was open (it answered Escape)` and stays on the page.
Expected: one back does one thing; a key that closed a layer stops there whether or not the page was still before.
"""

from _common import SWAGGER, verdict

import phonewire

with phonewire.Phone(device="web") as phone:
    phone.open(f"{SWAGGER}/index.html")
    phone.wait("role=Button label=Authorize")
    phone.tap('role=Button label="GET /pets/item1.json Get pets item 1"')
    phone.tap("role=Button label=Authorize")
    r = phone.press("back")
    print("back ->", r.data)
    view = phone.snapshot(interactive=True).text
    print("dialog still open:", "Available authorizations" in view)
    verdict(r.data.get("back") == "closed", "the back that closed the dialog says so and does nothing more")
    r = phone.press("back")
    print("second back ->", r.data)
