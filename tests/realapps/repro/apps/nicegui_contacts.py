"""Round 3b (docs/realapps-findings-3.md): a NiceGUI 3 contacts app (Vue + Quasar).

A list of 150 contacts to scroll, a search field, an "Add contact" dialog with a form (text, email, select,
checkbox), a confirm dialog per row's Delete, toasts (ui.notify).  Serve: `python nicegui_contacts.py [PORT]`
(default 8744) with nicegui installed; the contacts live in memory and start afresh at each start."""

import sys

from nicegui import ui

TEAMS = ["Sales", "Support", "Engineering", "Finance"]
contacts = [
    {"id": i, "name": f"Contact {i:03d}", "email": f"c{i:03d}@example.test", "team": TEAMS[i % 4], "vip": i % 7 == 0}
    for i in range(1, 151)
]


@ui.page("/")
def index() -> None:
    state = {"q": ""}

    @ui.refreshable
    def rows() -> None:
        shown = [c for c in contacts if state["q"].lower() in c["name"].lower()]
        ui.label(f"{len(shown)} contacts").classes("text-caption")
        with ui.list().props("bordered separator").classes("w-full"):
            for c in shown:
                with ui.item():
                    with ui.item_section():
                        ui.item_label(c["name"] + (" ★" if c["vip"] else ""))
                        ui.item_label(f"{c['email']} · {c['team']}").props("caption")
                    with ui.item_section().props("side"):
                        ui.button(icon="delete", on_click=lambda c=c: confirm_delete(c)).props(
                            f'flat round aria-label="Delete {c["name"]}"'
                        )

    def confirm_delete(c: dict) -> None:
        with ui.dialog() as d, ui.card():
            ui.label(f"Delete {c['name']}?")
            with ui.row():
                ui.button("Cancel", on_click=d.close).props("flat")

                def really() -> None:
                    contacts.remove(c)
                    d.close()
                    ui.notify(f"Deleted {c['name']}")
                    rows.refresh()

                ui.button("Delete", on_click=really).props("color=negative")
        d.open()

    with ui.dialog() as add, ui.card().classes("w-80"):
        ui.label("New contact").classes("text-h6")
        name = ui.input("Name")
        email = ui.input("Email")
        team = ui.select(TEAMS, label="Team", value="Sales")
        vip = ui.checkbox("VIP")

        def save() -> None:
            if not name.value:
                ui.notify("Name is required", type="warning")
                return
            nid = max((c["id"] for c in contacts), default=0) + 1
            contacts.append({"id": nid, "name": name.value, "email": email.value, "team": team.value, "vip": vip.value})
            add.close()
            ui.notify(f"Saved {name.value}")
            name.value, email.value, vip.value = "", "", False
            rows.refresh()

        with ui.row():
            ui.button("Cancel", on_click=add.close).props("flat")
            ui.button("Save", on_click=save)

    ui.label("Contacts").classes("text-h5")
    with ui.row():
        ui.input("Search", on_change=lambda e: (state.update(q=e.value or ""), rows.refresh()))
        ui.button("Add contact", on_click=add.open)
    rows()


ui.run(host="127.0.0.1", port=int(sys.argv[1]) if len(sys.argv) > 1 else 8844, reload=False, show=False)
