"""TodoMVC React: a `destroy` ref read on one row deletes another row after a filter moved the hover.

The row's destroy button exists only under :hover. After editing row "B" (double tap, fill, enter),
`snapshot -i` lists `Button "destroy"` right after `StaticText "B edited"`. The agent completes "A" and taps the
"Active" filter (A leaves the list, the rows move under the pointer), then taps the destroy ref it read on B's line.
The agent re-reads the screen (`snapshot -i`): the destroy button now shown is C's, yet it carries B's old ref
(docs/agent-view.md: "later snapshots keep the ref of every element still on screen"), so an agent that
remembers "@eN = B's delete" taps it. Expected: a new ref for C's button (or B's ref STALE_REF).
Seen: same ref, listed under C; `ok tapped … Button "destroy"`, and C is deleted; B stays.
(Without the re-read, the tap answers STALE_REF, which is right.)
"""

from _common import TODOMVC, verdict

import phonewire

with phonewire.Phone(device="web") as phone:
    phone.open(f"{TODOMVC}/react/index.html")
    phone.wait("id=new-todo")
    for t in ("A first", "B second", "C third"):
        phone.fill("id=new-todo", t)
        phone.press("enter")
    # the row's words (the checkbox only borrows their name: a bare "B second" is the words, not the checkbox)
    phone.tap('"B second"', count=2)
    field = [
        ln
        for ln in phone.snapshot(interactive=True).text.splitlines()
        if "[focused]" in ln and 'value="B second"' in ln
    ]
    phone.fill(field[0].split()[0], "B edited")
    phone.press("enter")
    view = phone.snapshot(interactive=True).text
    print(view)
    lines = view.splitlines()
    i = max(k for k, ln in enumerate(lines) if 'StaticText "B edited"' in ln)
    print("line after B:", lines[i + 1])
    assert "✖" in lines[i + 1], "the destroy button did not show on B's row this time (hover timing)"
    destroy = lines[i + 1].split()[0]
    a_box = next(ln for ln in lines if 'CheckBox "A first"' in ln).split()[0]
    phone.tap(a_box)  # complete A
    phone.tap("role=Link label=Active")  # filter: A disappears, B and C move up
    mid = phone.snapshot(interactive=True).text  # the agent re-reads the screen
    print(mid)
    same = [ln for ln in mid.splitlines() if ln.split()[0] == destroy]
    print("the ref", destroy, "is still issued:", same)
    verdict(not same, f"{destroy} (B's destroy button) is not re-issued to another row's button")
    refused = None
    try:
        r = phone.tap(destroy)
        print("tap", destroy, "->", r.data)
    except phonewire.ProtocolError as exc:  # the old ref is refused: nothing was tapped
        refused = exc
        print("tap", destroy, "->", exc.code, exc.message)
    phone.tap("role=Link label=All")
    after = phone.snapshot(interactive=True).text
    print(after)
    if refused is not None:
        verdict('"B edited"' in after and '"C third"' in after, "the old ref refused (STALE_REF): B and C both kept")
    else:
        verdict(
            '"B edited"' not in after and '"C third"' in after,
            "B deleted (the row whose destroy ref was tapped); C kept",
        )
