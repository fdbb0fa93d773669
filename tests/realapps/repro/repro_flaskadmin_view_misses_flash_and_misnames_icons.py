"""Flask-Admin list view: what a person reads first is missing from `-i`, and an icon link is named by layout classes.

1. After Save, the screen's top is a green "Record was successfully created." box with a "×" button.  `snapshot -i`
   starts at `Button "Toggle navigation"`, `Heading "Book"`: neither the message (a `<div class="alert">` without
   role=alert: only the full view has it, as StaticText) nor its "×" (`<button class="close" aria-hidden="true">`,
   closed through Bootstrap's handler on document) is listed.  The agent learns the save worked only from
   "List (121)".
2. After a search, the "×" that clears it (`<a class="align-middle"><span class="fa fa-times …">`) is
   `Link "align middle times"`: class words, two of them layout ("align-middle").
3. `fill` into the Notes textarea with "Line one\\nLine two" → the view says `value="Line one Line two"`; the
   line break is there (screenshot, saved row) but the view cannot show it.
Expected: a success/alert message in `-i` (it is the result of the agent's action), the "×" listed (a person
taps it), `Link "times"` or `Link "×"`, and the value's newline kept (e.g. as "\\n").
"""

import time

from _common import FLASKADMIN, verdict

import phonewire

TITLE = f"Repro flash {time.time_ns()}"  # unique: the search below finds exactly this one

with phonewire.Phone(device="web") as phone:
    phone.open(f"{FLASKADMIN}/admin/book/new/")
    phone.fill('role=TextField label="Title *"', TITLE)
    phone.fill("role=TextView label=Notes", "Line one\nLine two")
    notes = next(ln for ln in phone.snapshot(interactive=True).text.splitlines() if "Notes" in ln)
    print(notes.strip())
    verdict("Line one Line two" not in notes, "the textarea's line break shows in its value")
    phone.tap("role=Button label=Save")
    phone.wait('role=Link label="Add Filter"')
    top = phone.snapshot(interactive=True).text.splitlines()[:4]
    print("\n".join(top))
    verdict(any("successfully created" in ln for ln in top), "-i shows 'Record was successfully created.'")
    phone.fill('role=TextField label="title"', TITLE)
    phone.press("enter")
    phone.wait('role=Link label="List (1)"', timeout_ms=8000)
    view = phone.snapshot(interactive=True).text
    print(next((ln for ln in view.splitlines() if "Link" in ln and ("times" in ln or "close" in ln)), "no such link"))
    verdict("align middle" not in view, "the clear-search icon is not named by layout classes")
