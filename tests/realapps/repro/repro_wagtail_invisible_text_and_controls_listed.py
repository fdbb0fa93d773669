"""Wagtail admin: text and controls a person cannot see are in the view, first line included.

1. Every Wagtail admin page's view starts with `@e1 StaticText "JavaScript is required to use Wagtail, but it is
   currently disabled.<br /> Here are the <a href=\\"https://www.enable-javascript.com/\\" …"` — the raw text of a
   `<noscript class="capabilitymessage">`, markup included (JavaScript is on; nothing of it is drawn).  230
   characters of every snapshot, and it tells the agent the page is broken.
2. The page explorer lists `Heading "Bulk actions"`, `CheckBox "Select all"`, `Link "Move selected pages"`,
   `Link "Delete selected pages"`, `Link "Publish selected pages"`, `Link "Unpublish selected pages"`: Wagtail's
   bulk-action footer, hidden (`.bulk-actions-choices.footer.hidden {transform: translateY(200px);
   visibility: hidden}`) until a row is selected.  The screenshot shows "Page 1 of 2 … 60 pages" and nothing below.
   `tap @e432` (Delete selected pages) → `ok … "hit": "Other id=main", "changed": false` (MCP; the CLI says
   nothing changed) — no ELEMENT_COVERED, no hint that the link is not there.
Expected: neither is listed (a <noscript> is never drawn while scripts run; `visibility: hidden` content is not
drawn and not hit).
Cause (guess): walker.js walk() returns early for SCRIPT/STYLE/TEMPLATE/HEAD/INPUT with role none but not for
NOSCRIPT, and it checks `display` but never `visibility` (only tiny() and a few helpers look at it).
"""

from _common import verdict, wagtail_login

import phonewire

with phonewire.Phone(device="web") as phone:
    wagtail_login(phone, "/admin/pages/3/")
    view = phone.snapshot(interactive=True).text
    print(view.splitlines()[0][:160])
    verdict("JavaScript is required" not in view, "the <noscript> message is not in the view")
    phone.find('role=Link label="Next"')
    view = phone.snapshot(interactive=True).text
    print("\n".join(view.splitlines()[-8:]))
    verdict("Delete selected pages" not in view, "the hidden bulk-action footer is not in the view")
    if "Delete selected pages" in view:
        r = phone.tap('role=Link label="Delete selected pages"')
        print("tap Delete selected pages ->", r.data)
        verdict(False, "a tap on the hidden link is refused (it is not there to tap)")
