"""Flask-Admin date picker: a calendar's days are not elements of the view; a week row stands for seven days, and a
tap on it picks the day in its middle.

Tap "Published": the daterangepicker calendar opens.  The view lists each week as one line,
`@e257 Cell "25 26 27 28 29 1 2"`; the days (`<td class="available">29</td>`, clicked through a handler the
calendar delegates from its container) have no line of their own.  `tap '"29"'` → AMBIGUOUS_MATCH naming two week
rows; `tap @e257` (the row with Feb 29) → `ok tapped (140, 729.8) @e257 Cell "25 26 27 28 29 1 2"` and the field
says 2024-02-28: the row's centre is Wednesday the 28th.
Expected: each day a tappable element of its own (`Cell "29"`), as a person sees 42 buttons; or a row that is no
target (so nobody taps its centre).
Cause (guess): walker.js lists <tr> as `Cell` (roles.py maps row → Cell) with the row's text as its name, and a <td>
whose click handler sits on an ancestor (jQuery delegation) gets no role of its own.
"""

from _common import FLASKADMIN, ref_of, verdict

import phonewire

with phonewire.Phone(device="web") as phone:
    phone.open(f"{FLASKADMIN}/admin/book/new/")
    phone.tap("role=TextField label=Published")
    view = phone.snapshot(interactive=True).text
    year = ref_of(view, r'ComboBox value="\d{4}"')
    phone.select(year, ["2024"])
    month = ref_of(phone.snapshot(interactive=True).text, r'ComboBox value="[A-Z][a-z]{2}"')
    phone.select(month, ["Feb"])
    view = phone.snapshot(interactive=True).text
    print("\n".join(ln for ln in view.splitlines() if "Cell" in ln))
    try:
        phone.tap('"29"')
        print('tap "29" -> ok')
    except phonewire.ProtocolError as exc:
        print('tap "29" ->', exc.code, exc.message)
    # the week row that shows Feb 29, else (days are elements of their own) the later of the two days "29"
    rows = [ln for ln in view.splitlines() if 'Cell "25 26 27 28 29 1 2"' in ln]
    row = ref_of(view, r'Cell "25 26 27 28 29 1 2"') if rows else ref_of(view, r'Cell "29"$', -1)
    r = phone.tap(row)
    print("tap", row, "->", r.data.get("message"))
    field = next(ln for ln in phone.snapshot(interactive=True).text.splitlines() if '"Published"' in ln)
    print("field:", field.strip())
    verdict('"29"' in view and 'Cell "29"' in view, "the day 29 is an element of its own")
    verdict('value="2024-02-29"' in field, "a tap on the row (or the day) that shows 29 picks the 29th")
