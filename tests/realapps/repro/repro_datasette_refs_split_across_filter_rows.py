"""Datasette: after Apply (a new page), the old refs are re-issued to look-alike elements of the new page, and
one filter row's refs end up split across two rows.

Before Apply: @eA = the column select, @eB = its operator select (one filter row). After Apply the page has the
applied row (name, =, "Person 150") and a new empty row (- column -, =, empty). The snapshot gives @eA to the
*new* row's column select and @eB to the *applied* row's operator. An agent that reuses "@eA, @eB = the filter
row" edits two different rows. Expected: new refs on a new page, or both refs on the same row.
"""

from _common import DATASETTE, verdict

import phonewire

with phonewire.Phone(device="web") as phone:
    phone.open(f"{DATASETTE}/db/people")
    v = phone.snapshot(interactive=True).text
    combos = [ln.split()[0] for ln in v.splitlines() if ln.startswith("@") and "ComboBox" in ln]
    col, op = combos[0], combos[1]
    field = next(ln.split()[0] for ln in v.splitlines() if ln.startswith("@") and "TextField" in ln)
    phone.select(col, ["name"])
    phone.fill(field, "Person 150")
    phone.tap("Apply")
    after = phone.snapshot(interactive=True).text
    top = [ln for ln in after.splitlines() if ln.startswith("@") and ("ComboBox" in ln or "TextField" in ln)]
    print("\n".join(top))
    rows = [top[0:3], top[3:6]]
    where = {
        r: next(i for i, row in enumerate(rows) for ln in row if ln.split()[0] == r)
        for r in (col, op)
        if any(ln.split()[0] == r for ln in top)
    }
    print("old refs now in filter row:", where)
    verdict(len(set(where.values())) <= 1, f"{col} and {op} (one row before) still name one row")
