"""Gradio 6.31 Blocks (apps/gradio_quotes.py): what the view and the replies say around the Dropdown and Submit
(findings 4, F7-F9).

F7: with the Dropdown's list open (by `fill`ing a filter into it), `press escape` closes it (the screen and the
    next view agree) but answers "nothing changed on screen" (`changed: false`): a `batch --strict` stops there,
    an agent believes Escape failed.
F8: Gradio's Markdown (`gr.Markdown`, a <div data-testid="markdown"> with a click listener) is a `Button`: the page's
    title "Quotes" and the About tab's text are buttons in the view; the screen shows a heading and a paragraph.
F9: after Submit the view carries `Alert "Loading"` (Gradio's status tracker) that the screenshot does not show;
    a `wait 'role=Alert label=Loading' --gone` ends ~0.8 s later.
Run with the app served: `bash tests/realapps/repro/apps/setup_round4.sh`.
"""

from _common import GRADIO, verdict

import phonewire

with phonewire.Phone(device="web") as phone:
    phone.open(f"{GRADIO}/")
    phone.wait("role=Button label=Submit")
    phone.fill("role=ComboBox label=Product", "Co")
    opened = phone.snapshot(interactive=True).text
    print("list open:", 'Cell "Cocoa"' in opened)
    r = phone.press("escape")
    print("press escape ->", r.data)
    closed = phone.snapshot(interactive=True).text
    print("list open after escape:", 'Cell "Cocoa"' in closed)
    if 'Cell "Cocoa"' in opened and 'Cell "Cocoa"' not in closed:
        verdict(bool(r.data.get("changed")), "press escape that closed the list answers changed: true")
    first = closed.splitlines()[0]
    print("first line:", first)
    verdict("Button" not in first, 'the page title "Quotes" (gr.Markdown) is not a Button')
    phone.tap("role=Button label=Submit")
    after = phone.snapshot(interactive=True).text
    phone.screenshot("/tmp/gradio-after-submit.png")
    print("\n".join(ln for ln in after.splitlines() if "Result" in ln or "Alert" in ln))
    verdict('Alert "Loading"' not in after, "no Loading alert in the view once the result shows (the screen has none)")
