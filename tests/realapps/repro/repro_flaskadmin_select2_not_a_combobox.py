"""Flask-Admin create form: a Select2 drop-down (Author, Genre) is a `Link "__None"`; `select` refuses it with a hint
that names a ComboBox the view does not have, and the real <select>'s id answers "scroll to reveal more".

`snapshot -i`: `@e59 Link "__None"`, `@e60 StaticText "Author"` (the label after its control), `@e62 Link "novel"`,
`@e63 StaticText "Genre"`.  A person sees two drop-downs labelled Author and Genre.
`select @e59 "Jorge Borges"` → `INVALID_REQUEST: there is no select or input there (a span)` / hint `Name a
ComboBox, List or input from the snapshot.` (there is none); `select id=author "Jorge Borges"` → `NOT_FOUND: nothing
on screen matches 'id=author'` / hint `… (scroll to reveal more) …` — it is on screen, hidden behind Select2.
What works: `tap @e59` (the search field and the options show as `ComboBox "Author"` + `Cell "Jorge Borges"`),
then `tap` the option: 3 calls and 2 snapshots where `select` would be one.
Expected: the Select2 box listed as a ComboBox named "Author" with its value (its `<a class="select2-choice">`
has the hidden select beside it), `select` working on it (setting the hidden <select> and firing change, as for
a native one), or at least a hint that says "tap it, then tap the option".
"""

from _common import FLASKADMIN, verdict

import phonewire

with phonewire.Phone(device="web") as phone:
    phone.open(f"{FLASKADMIN}/admin/book/new/")
    phone.wait('role=TextField label="Title *"')
    view = phone.snapshot(interactive=True).text
    print(view)
    lines = view.splitlines()
    verdict(any("ComboBox" in ln and "Author" in ln for ln in lines), "the Author drop-down is a ComboBox named Author")
    author = next(ln for ln in lines if '"__None"' in ln).split()[0]
    for target in (author, "id=author"):
        try:
            r = phone.select(target, ["Jorge Borges"])
            print("select", target, "->", r.data)
            verdict(True, f"select {target} chose the author")
        except phonewire.ProtocolError as exc:
            print("select", target, "->", exc.code, exc.message, "| hint:", exc.hint)
            verdict(
                "scroll" not in (exc.hint or "") and "ComboBox" not in (exc.hint or ""),
                f"select {target}: the refusal's hint leads somewhere (tap it, then tap the option)",
            )
