"""Gradio 6.31 Blocks (apps/gradio_quotes.py): `select` on the Dropdown and `fill` on the Textbox (findings 4, F4, F6).

F4: Gradio's Dropdown is an <input role=combobox> whose list the page draws.  `select @eN Cocoa` answered
    `ok selected "Cocoa"` (`changed: true`), the field showed "Cocoa" with the list open on "✓ Tea"; when the field
    lost focus Gradio put "Tea" back, and Submit quoted Tea.  Fixed: refused with the hint to tap it, then the option.
F6: the Textbox is a <textarea> inside its <label>; after `fill` its name became "Name Grace Hopper" (its own value)
    and its ref changed.  Fixed: the field is named "Name" and keeps its ref.
Run with the app served: `bash tests/realapps/repro/apps/setup_round4.sh`.
"""

from _common import GRADIO, ref_of, verdict

import phonewire

with phonewire.Phone(device="web") as phone:
    phone.open(f"{GRADIO}/")
    phone.wait("role=Button label=Submit")
    view = phone.snapshot(interactive=True).text
    name = ref_of(view, r'TextView "Name"')
    phone.fill(name, "Grace Hopper")
    after = phone.snapshot(interactive=True).text
    print(next(ln for ln in after.splitlines() if "Grace Hopper" in ln))
    verdict(f'{name} TextView "Name" value="Grace Hopper"' in after, "after fill the Textbox keeps its name and ref")
    try:
        r = phone.select("role=ComboBox label=Product", ["Cocoa"])
        print("select ->", r.data)
        refused = False
    except phonewire.ProtocolError as exc:
        print("select ->", exc.code, exc.message, "| hint:", exc.hint)
        refused = True
    phone.tap("role=Button label=Submit")
    phone.wait("role=Alert label=Loading", gone=True)
    result = next(ln for ln in phone.snapshot(interactive=True).text.splitlines() if '"Result"' in ln)
    print(result)
    verdict(refused or "Cocoa" in result, "select on the Dropdown either chose Cocoa or said it did not")
    # what works: tap the box, tap the option
    phone.tap("role=ComboBox label=Product")
    phone.tap('role=Cell label="Cocoa"')
    phone.tap("role=Button label=Submit")
    phone.wait("role=Alert label=Loading", gone=True)
    result = next(ln for ln in phone.snapshot(interactive=True).text.splitlines() if '"Result"' in ln)
    print(result)
    verdict("Cocoa" in result, "tap the Dropdown, then the option: the quote says Cocoa")
