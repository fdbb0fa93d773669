"""Datasette on a phone: each row is a card whose field names ("id", "name", "age" …) are CSS generated content
(`td:nth-of-type(3):before { content: "age" }`, in the page's own <style>). The screenshot shows them; the
snapshot does not: `Cell "1 Person 1 35 Rome person1@example.com 2020-02-02"` — which number is the age?

Expected: the generated text in the view (`age 35`, as the screen shows; browsers' accessibility trees include
::before content). Seen: only the cell values.
"""

import urllib.request

from _common import DATASETTE, verdict

import phonewire

html = urllib.request.urlopen(f"{DATASETTE}/db/people").read().decode()
rules = [ln.strip() for ln in html.splitlines() if ":before { content:" in ln]
print("page CSS:", rules[:3])
with phonewire.Phone(device="web") as phone:
    phone.open(f"{DATASETTE}/db/people")
    view = phone.snapshot().text
    row = next(ln for ln in view.splitlines() if "Person 1 " in ln)
    print("snapshot:", row)
    phone.screenshot("/tmp/repro_datasette_card.png")
    print("screenshot (shows the names): /tmp/repro_datasette_card.png")
    verdict("age" in row, "the card's field names are in the view")
