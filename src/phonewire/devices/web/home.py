"""The web phone's home screen: a page listing the apps (the demo first), shown when no app is in front."""

from __future__ import annotations

import html
from collections.abc import Iterable

DEMO_APP_ID = "dev.phonewire.demo"
HOME_APP = "phonewire.home"


def app_title(app_id: str) -> str:
    return "Demo" if app_id == DEMO_APP_ID else app_id.split("://", 1)[-1].split("/", 1)[0]


def home_items(apps: Iterable[str]) -> str:
    """The home page's list items for ``apps`` (the demo app first, always)."""
    ids = [DEMO_APP_ID, *(a for a in apps if a != DEMO_APP_ID)]
    return "".join(f'<li class="app" data-app="{html.escape(a)}">{html.escape(app_title(a))}</li>' for a in ids)


def home_html(apps: Iterable[str]) -> str:
    return HOME_TEMPLATE.replace("{items}", home_items(apps))


HOME_TEMPLATE = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, user-scalable=no">
<title>Home</title>
<style>
body{margin:0;font:16px system-ui,sans-serif;background:linear-gradient(#1e3a5f,#0b1320);color:#fff;min-height:100vh}
h1{font-size:14px;font-weight:500;text-align:center;padding:16px 0 8px;margin:0;opacity:.8}
ul{list-style:none;display:grid;grid-template-columns:repeat(4,1fr);gap:18px;padding:16px;margin:0}
.app{width:64px;height:64px;border-radius:16px;background:#4f8cff;color:#fff;font-size:11px;display:flex;
align-items:center;justify-content:center;overflow:hidden;text-overflow:ellipsis}
</style></head><body><h1 id="home-title">phonewire</h1><ul id="apps">{items}</ul>
</body></html>"""
