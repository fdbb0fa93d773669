"""Streamlit 1.67 (apps/streamlit_orders.py): the sidebar's radios and checkbox, the slider, and the refs after a
rerun (findings 4, F2, F3, F5).

F2: the sidebar's `st.radio` and `st.checkbox` are React Aria controls: each <input> sits in a 1-px clipping box
    inside its <label>.  The view had `Group "Currency"` with `StaticText "EUR"` … and `StaticText "Show totals"`:
    no control, no state.  Fixed: `RadioButton "EUR" [checked]`, `CheckBox "Show totals" [checked]`, tap sets them.
F3: after "Add order" Streamlit reruns and draws the expander below the grown table anew: `snapshot -i --diff`
    listed only the new row, and `tap @e11` (the expander's ref from before) → STALE_REF while the screen showed it.
    Fixed: the diff says `~ @e35 Button "Shipping details" [collapsed]  (drawn anew: @e11 is gone)`.
F5 (left): `st.slider` is a React Aria slider: an <input type=range> in the same 1-px box; the view has only
    `Group "Quantity"` with `StaticText "1"` (the thumb's label): no Slider, so `select` cannot set it
    (`there is no select or input there (a div)`) and `find role=Slider` → NOT_FOUND.  A swipe along the track works.
Run with the app served: `bash tests/realapps/repro/apps/setup_round4.sh`.
"""

from _common import STREAMLIT, ref_of, verdict

import phonewire

with phonewire.Phone(device="web") as phone:
    phone.open(f"{STREAMLIT}/")
    phone.wait('role=Button label="Shipping details"')
    phone.wait(idle=True)
    view = phone.snapshot(interactive=True).text
    verdict("Slider" in view, "the Quantity slider is in the interactive view (F5)")
    try:
        phone.select("label=Quantity", ["5"])
        print("select Quantity 5 -> ok")
    except phonewire.ProtocolError as exc:
        print("select Quantity 5 ->", exc.code, exc.message)
    phone.fill('role=TextField label="Customer name"', "Grace Hopper")
    expander = ref_of(view, r'"Shipping details"')
    phone.tap('role=Button label="Add order"')
    phone.wait("role=Alert")
    changes = phone.snapshot(interactive=True, diff=True).text
    print(changes)
    try:
        phone.tap(expander)
        print(f"tap {expander} -> ok")
        stale = False
    except phonewire.ProtocolError as exc:
        print(f"tap {expander} ->", exc.code, exc.message)
        stale = True
    verdict(not stale or '"Shipping details"' in changes, "the diff after the rerun names the expander's new ref (F3)")
    phone.tap('role=Button label="Expand sidebar"')
    side = phone.snapshot(interactive=True).text
    print("\n".join(side.splitlines()[:8]))
    verdict('RadioButton "EUR"' in side and 'CheckBox "Show totals"' in side, "the sidebar's radios and checkbox (F2)")
