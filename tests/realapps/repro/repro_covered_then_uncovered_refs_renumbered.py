"""A drop-down that covers part of the screen takes the refs of everything under it: when it closes, the same
elements come back with new refs, and the refs the agent read before are STALE_REF.

Flask-Admin create form: `snapshot -i` lists `@e67 Button "Save"`, `@e61 TextField "Title *"` …  `tap` the Author
Select2 box: its transparent `Button "drop mask"` covers the page, so `snapshot -i --diff` answers `- Button
"Save"`, `- TextField "Title *"` … (13 lines removed while the screenshot still shows them, dimmed by nothing).
Tap an author: the diff answers `+ @e93 Button "Save"`, `+ @e87 TextField "Title *" value=…` — new refs;
`tap @e67` → STALE_REF.  Same on Wagtail (a row's "More options" menu: `Link "Article 49"` @e94 → @e163 after
`press back` closes it; the Post date picker: `ComboBox "Category*"` @e208 → @e276) — in the full view (bridge
`get_tree`) covered elements keep their refs with `[covered]`, only `-i` drops them.
Expected: an element that was only covered keeps its ref (element serials do this for everything else).
"""

from _common import FLASKADMIN, ref_of, verdict

import phonewire

with phonewire.Phone(device="web") as phone:
    phone.open(f"{FLASKADMIN}/admin/book/new/")
    phone.wait('role=Button label="Save"')
    view = phone.snapshot(interactive=True).text
    save = ref_of(view, r'Button "Save"$')
    author = ref_of(view, r'ComboBox "Author"')  # a Link "__None" before efront (E6)
    phone.tap(author)
    covered = phone.snapshot(interactive=True).text
    print(covered)
    phone.tap(ref_of(covered, r'Cell "Jorge Borges"'))
    after = phone.snapshot(interactive=True).text
    print(after)
    save_after = ref_of(after, r'Button "Save"$')
    print("Save before:", save, "after:", save_after)
    verdict(save == save_after, "Save keeps its ref after the drop-down that covered it closed")
