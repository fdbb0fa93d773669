"""Datasette on an iPad: the six column-menu cogs (`Button "dropdown menu"`) get new refs in every snapshot taken
after the menu opens, even after an action that "changed nothing on screen"; the ref the agent just read is
STALE_REF. With the menu open, rows 1-5 also lose their text in `-i` (only `Link "1"` … stay) although most of
each row is visible next to the small menu (screenshot /tmp/repro_datasette_cog_menu.png).

Expected: the cogs keep their refs (docs/agent-view.md: "later snapshots keep the ref of every element still on
screen"); a row mostly visible keeps its text.
"""

import re

from _common import DATASETTE, verdict

import phonewire
from phonewire import ProtocolError


def cogs(text: str) -> list[str]:
    return [ln.split()[0] for ln in text.splitlines() if "dropdown menu" in ln]


with phonewire.Phone(device="web:ipad") as phone:
    phone.open(f"{DATASETTE}/db/people")
    v1 = phone.snapshot(interactive=True).text
    c1 = cogs(v1)
    print("cogs before:", c1)
    phone.tap(c1[2])  # the "age" column's menu
    v2 = phone.snapshot(interactive=True).text
    c2 = cogs(v2)
    print("cogs with the menu open:", c2, [ln for ln in v2.splitlines() if "Sort" in ln])
    r = phone.press("escape")
    print("press escape ->", r.data)
    try:  # the last snapshot's ref, no snapshot since
        print(f"tap {c2[3]} ->", phone.tap(c2[3]).data)
        phone.tap(c2[3])  # close that menu again
    except ProtocolError as err:
        print(f"tap {c2[3]} (from the last snapshot) ->", err.code, err)
    c3 = cogs(phone.snapshot(interactive=True).text)
    print("cogs after escape:", c3)
    verdict(c1 == c2 == c3, "the cogs keep their refs")
    phone.screenshot("/tmp/repro_datasette_cog_menu.png")
    rows_before = len(re.findall(r'Cell "\d+ Person', v1))
    rows_open = len(re.findall(r'Cell "\d+ Person', v2))
    verdict(rows_open >= rows_before - 1, f"rows listed in -i: {rows_before} before, {rows_open} with the menu open")
