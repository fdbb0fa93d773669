"""NiceGUI 3.18 (Vue + Quasar) contacts app (apps/nicegui_contacts.py): three things a person does not see.

E16: every NiceGUI `ui.input` renders `<input list="cN-datalist">` with no such datalist (one is added only for
     autocomplete on a mobile user agent), so the view calls Name, Email and Search `ComboBox`; a person sees plain
     text fields and `role=TextField label=Name` finds nothing.  HTML-AAM: combobox only for a list attribute that
     names a datalist (`input.list` is null here); walker.js checks `hasAttribute("list")`.
E17: Quasar's QSelect (`ui.select`): `select @eN Engineering` on `ComboBox "Team" [read-only,collapsed]` →
     INVALID_REQUEST "the field is read-only", hint "It cannot be set." — a person taps it and picks Engineering
     from the list that opens (2 taps work); the hint should say so (as NOT_FOUND's does for drawn widgets).
E18: after a dialog that a button opened closes, that button has a second `Button "Add contact"` nested in it
     (its inner span, 92x24), and the outer one is printed `id=c18` to tell them apart; the screen shows one.
Run with the app served: `nenv/bin/python tests/realapps/repro/apps/nicegui_contacts.py 8744`.
"""

from _common import NICEGUI, ref_of, verdict

import phonewire

with phonewire.Phone(device="web") as phone:
    phone.open(f"{NICEGUI}/")
    phone.wait('role=Button label="Add contact"')
    phone.tap('role=Button label="Add contact"')
    phone.wait('role=Button label="Save"')
    form = phone.snapshot(interactive=True).text
    print(form)
    verdict('TextField "Name"' in form, "a NiceGUI text input is a TextField (its list attribute names no datalist)")
    team = ref_of(form, r'"Team"')
    try:
        r = phone.select(team, ["Engineering"])
        print("select ->", r.data)
        took = True
    except phonewire.ProtocolError as exc:
        print("select ->", exc.code, exc.message, "| hint:", exc.hint)
        took = False
        verdict("tap" in (exc.hint or "").lower(), "select's refusal on a QSelect says how to set it (tap, then tap)")
    if took:
        verdict("Engineering" in phone.snapshot(interactive=True).text, "select set the QSelect")
    phone.tap('role=Button label="Cancel"')
    phone.wait('role=Button label="Cancel"', gone=True)
    page = phone.snapshot(interactive=True).text
    print("\n".join(page.splitlines()[:4]))
    verdict(page.count('"Add contact"') == 1, 'one Button "Add contact" after the dialog closed, as on screen')
