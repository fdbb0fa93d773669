"""Chromium accessibility roles → the shared role vocabulary (:data:`phonewire.protocol.snapshot.ROLES`).

One table, used by the in-page walk's results and by the faithfulness test that compares the walk with
``Accessibility.getFullAXTree``.  docs/snapshot.md documents it.  Pure: no I/O.
"""

from __future__ import annotations

from typing import Final

AX_TO_ROLE: Final[dict[str, str]] = {
    "button": "Button",
    "togglebutton": "Button",
    "PopUpButton": "Button",
    "DisclosureTriangle": "Button",
    # not a Chromium role: the walk's name for an element without a role that a person would click (a click
    # listener, onclick, or where cursor:pointer starts) and that holds no control of its own
    "clickable": "Button",
    "link": "Link",
    "textbox": "TextField",
    # Chromium's internal roles of a date, time or date-time field: the TextField the view shows it as
    # (walker_spec.js's typed inputs; `fill` sets it whole)
    "Date": "TextField",
    "DateTime": "TextField",
    "InputTime": "TextField",
    "searchbox": "SearchField",
    "combobox": "ComboBox",
    "checkbox": "CheckBox",
    "menuitemcheckbox": "MenuItem",
    "menuitemradio": "MenuItem",
    "menuitem": "MenuItem",
    "radio": "RadioButton",
    "switch": "Switch",
    "slider": "Slider",
    "spinbutton": "Stepper",
    "image": "Image",
    "img": "Image",
    "graphics-symbol": "Image",
    "heading": "Heading",
    "StaticText": "StaticText",
    "listitem": "Cell",
    "option": "Cell",
    "MenuListOption": "Cell",
    "treeitem": "TreeItem",
    "row": "Cell",
    "gridcell": "Cell",
    "list": "List",
    "listbox": "List",
    "tree": "List",
    "table": "Table",
    "grid": "Table",
    "treegrid": "Table",
    "tab": "Tab",
    "tablist": "TabBar",
    "navigation": "NavigationBar",
    "toolbar": "Toolbar",
    "dialog": "Dialog",
    "alertdialog": "Alert",
    "alert": "Alert",
    # a live region: role=status, and a message box without a role (the walk's: .alert, .flash, aria-live)
    "status": "Alert",
    "menu": "Menu",
    "menubar": "Menu",
    "progressbar": "ProgressIndicator",
    "meter": "ProgressIndicator",
    "group": "Group",
    "radiogroup": "Group",
    "form": "Group",
    "region": "Group",
    "Iframe": "WebView",
    "RootWebArea": "Application",
}


def vocabulary_role(ax_role: str, *, secure: bool = False, multiline: bool = False, scrollable: bool = False) -> str:
    """Map one Chromium role (plus the facts the role name alone lacks) to the shared vocabulary."""
    if ax_role == "textbox":
        if secure:
            return "SecureTextField"
        if multiline:
            return "TextView"
    role = AX_TO_ROLE.get(ax_role, "Other")
    if scrollable and role in ("Other", "Group"):
        return "ScrollView"
    return role
