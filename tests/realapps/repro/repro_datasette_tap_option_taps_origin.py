"""Datasette: tapping a <select>'s option (by its ref, or by its text as a person would) taps the point (0, 0).

`snapshot -i` lists each option as a child line of the ComboBox (`@e40 StaticText "Sort by name"`), so an agent
taps it. Expected: the option chosen (as `select` does) or an error pointing at `select`.
Seen: `ok tapped (0, 0) … at 0,0`, hit "Other", changed=True; the select keeps "Sort by id".
CLI: phonewire open URL/db/people; phonewire tap '"Sort by name"'
"""

from _common import DATASETTE, ref_of, verdict

import phonewire

with phonewire.Phone(device="web") as phone:
    phone.open(f"{DATASETTE}/db/people")
    view = phone.snapshot(interactive=True).text
    opt = ref_of(view, r'StaticText "city"$')  # an option of the column select
    r1 = phone.tap(opt)
    print("tap", opt, "->", r1.data)
    r2 = phone.tap('"Sort by name"')  # by the option's visible text
    print('tap "Sort by name" ->', r2.data)
    after = phone.snapshot(interactive=True).text
    sort_line = next(ln for ln in after.splitlines() if "id=sort_by" in ln)
    col_line = next(ln for ln in after.splitlines() if "ComboBox" in ln)
    print(col_line, "|", sort_line)
    verdict(
        not (r1.data["message"].startswith("tapped (0, 0)") or r2.data["message"].startswith("tapped (0, 0)")),
        "an option tap does not land on the page origin",
    )
    verdict(
        'value="Sort by name"' in sort_line or not r2.data.get("changed"),
        "either the option is chosen or the reply does not say changed=True",
    )
