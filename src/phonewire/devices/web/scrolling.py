"""Scrolling on the web phone: which scroll container a scroll moves, where the finger goes, and when the content
has come to rest.

A scroll is a real touch drag (Input.dispatchTouchEvent, :func:`gestures.drag`), so a page's touch listeners, its
scroll snapping and overscroll rules all apply; what this module adds is measured on the page around it:

1. :data:`PLAN_JS` chooses the container and a start point.  With a point: the nearest ancestor of the element
   there that scrolls along the direction's axis (``overflow`` auto/scroll/overlay and content beyond its box), else
   the page.  Without a point: the page's main scroller — the document when it scrolls along that axis, else the
   largest visible element that does (an app whose body is fixed and whose main column scrolls).  It is *not* what
   lies under the screen's centre: that is often an inner list box or a carousel, which a person moves only by
   putting a thumb on it.  With ``reveal`` (``find``): the innermost container that clips the first element whose
   text (or aria-label, or value) holds that text — exact text first — towards that element; a container that is
   itself off screen gives way to the one around it.  The start point is the container's visible centre (or the
   point given), moved until the element under it belongs to that container, so the touch moves that container
   and not a nested one (a grid inside the page).
2. The drag is at most ``SCROLL_MAX_REACH`` of the container's visible extent and stays inside it.
3. :data:`REST_JS` waits until no ``scroll`` event has fired for :data:`REST_QUIET_MS` (a fling decelerating, smooth
   scrolling, snapping), at most :data:`REST_MAX_MS`; then :data:`MEASURE_JS` reads the container's offset again:
   the distance it moved and whether it reached the end.

A container already at its end in that direction is not dragged at all: the reply says it did not move.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from phonewire.devices.base import SCROLL_MAX_REACH
from phonewire.devices.web.roles import AX_TO_ROLE

#: The content counts as resting once no scroll event fired for this long (ms), bounded by REST_MAX_MS.
REST_QUIET_MS: Final = 120
REST_MAX_MS: Final = 3000
#: A drag shorter than this fraction of the container is mostly touch slop: ``find`` never asks for less.
MIN_REVEAL_AMOUNT: Final = 0.2

#: ``find`` (reveal): an element more than this many container extents away is approached by setting the
#: container's scroll offset (a jump, as ``scrollIntoView`` does: the page sees scroll events, no touches) to leave it
#: JUMP_LEAD extents from the container's centre, just out of view; the touch drag then brings it in.  Without the
#: jump, row 150 of the demo's 300 took 13 drags (~15 s); with it, one jump and a drag or two.
JUMP_EXTENTS: Final = 1.5
JUMP_LEAD: Final = 0.9

#: How the page tells an element's role for ``find`` (a subset of walker.js's implicit roles: what selectors name).
_INPUT_ROLES: Final = {
    "button": "button", "submit": "button", "reset": "button", "image": "button", "checkbox": "checkbox",
    "radio": "radio", "range": "slider", "number": "spinbutton", "search": "searchbox",
}  # fmt: skip
_TAG_ROLES: Final = {
    "BUTTON": "button", "TEXTAREA": "textbox", "OPTION": "option", "IMG": "image", "UL": "list", "OL": "list",
    "LI": "listitem", "TABLE": "table", "TR": "row", "TD": "cell", "TH": "columnheader", "NAV": "navigation",
    "DIALOG": "dialog", "SUMMARY": "DisclosureTriangle", "PROGRESS": "progressbar", "METER": "meter",
    "FIELDSET": "group", "DETAILS": "group",
}  # fmt: skip

# Shared by the scripts: window.__phonewireScroll holds the chosen container between the evaluations of one scroll.
PLAN_JS = (
    r"""((x, y, dir, amount, reach, reveal, only) => {
  const vertical = dir === "up" || dir === "down", sign = (dir === "down" || dir === "right") ? 1 : -1;
  const W = innerWidth, H = innerHeight, root = document.scrollingElement || document.documentElement;
  const SCROLLING = new Set(["auto", "scroll", "overlay"]);
  const axisOf = (v) => v ? ["scrollTop", "scrollHeight", "clientHeight", "overflowY"]
                          : ["scrollLeft", "scrollWidth", "clientWidth", "overflowX"];
  const scrolls = (el, v) => {
    const [, size, client, overflow] = axisOf(v);
    if (el === root) return el[size] - el[client] > 1;
    return el[size] - el[client] > 1 && SCROLLING.has(getComputedStyle(el)[overflow]);
  };
  const parentOf = (el) => el.parentElement || (el.getRootNode && el.getRootNode().host) || null;
  const scrollerOf = (el, v) => {
    for (let n = el; n && n !== root && n !== document.body; n = parentOf(n)) {
      if (n.nodeType === 1 && scrolls(n, v)) return n;
    }
    return root;
  };
  const clip = (el) => {  // the visible part of a container: its box within every clipping ancestor and the screen
    let l = 0, t = 0, r = W, b = H;
    for (let n = el; n && n !== root && n !== document.body; n = parentOf(n)) {
      if (n.nodeType !== 1) continue;
      const s = getComputedStyle(n);
      if (n === el || s.overflowX !== "visible" || s.overflowY !== "visible") {
        const q = n.getBoundingClientRect();
        l = Math.max(l, q.left); t = Math.max(t, q.top); r = Math.min(r, q.right); b = Math.min(b, q.bottom);
      }
    }
    return {x: l, y: t, width: Math.max(0, r - l), height: Math.max(0, b - t)};
  };
  const describe = (el) => {
    if (el === root) return "the page";
    const label = el.getAttribute("aria-label") || el.id || (el.getAttribute("class") || "").split(" ")[0];
    return (el.tagName.toLowerCase()) + (label ? ` "${String(label).slice(0, 40)}"` : "");
  };
  let container = null, want = null, revealed = false, found = false, from = null, jumped = false;
  const clean = (t) => String(t || "").replace(/\s+/g, " ").trim();
  // whether a person sees `el` now: its centre on the screen, inside every scroll container around it
  const shows = (el) => {
    const r = el.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    if (cx < 0 || cx > W || cy < 0 || cy > H) return false;
    for (let n = parentOf(el); n && n !== root && n !== document.body; n = parentOf(n)) {
      if (n.nodeType !== 1 || !(scrolls(n, true) || scrolls(n, false))) continue;
      const b = clip(n);
      if (cx < b.x || cx > b.x + b.width || cy < b.y || cy > b.y + b.height) return false;
    }
    return true;
  };
  let el = null;
  if (reveal) el = seek(reveal);
  if (el) {
    found = true;
    const r = el.getBoundingClientRect();
    let cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    let inside = cx >= 0 && cx <= W && cy >= 0 && cy <= H;
    for (let n = parentOf(el); n; n = n === root ? null : parentOf(n)) {
      if (n !== root && (n.nodeType !== 1 || n === document.body)) continue;
      const both = [true, false].filter((v) => scrolls(n, v));
      if (!both.length) continue;
      const box = n === root ? {x: 0, y: 0, width: W, height: H} : clip(n);
      const v = both.includes(true) && (cy < box.y || cy > box.y + box.height) ? true
              : both.includes(false) && (cx < box.x || cx > box.x + box.width) ? false : null;
      if (v === null) continue;
      inside = false;
      if (n !== root && (v ? box.height : box.width) < 40) {
        // the container itself is (nearly) off screen: the one around it scrolls, towards the container
        const q = n.getBoundingClientRect();
        cx = Math.min(Math.max(cx, q.left), q.right); cy = Math.min(Math.max(cy, q.top), q.bottom);
        continue;
      }
      container = n;
      dir = v ? (cy < box.y ? "up" : "down") : (cx < box.x ? "left" : "right");
      const off = v ? cy - (box.y + box.height / 2) : cx - (box.x + box.width / 2);
      const extent = v ? box.height : box.width;
      want = Math.abs(off) / extent;
      if (want > JUMP) {  // far away: jump to just short of it, then the touch drag brings it in
        const [p] = axisOf(v);
        from = n[p];
        n[p] += Math.sign(off) * (Math.abs(off) - LEAD * extent);
        want = (Math.abs(off) - Math.abs(n[p] - from)) / extent;
      }
      break;
    }
    revealed = inside && !container;
  } else if (reveal) {
    const guess = interpolate(reveal);
    if (guess) {
      ({container, dir, from} = guess);
      jumped = true;
    }
  }

  // The first element off screen that the terms of an alternative match (the first alternative that matches
  // any decides), innermost: an element that holds another match is not one (a list is not its row).
  function seek(alternatives) {
    const CLICKERS = window[Symbol.for("phonewire.clickers")] || null;
    const ownText = (el) => {
      let t = "";
      for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 3) t += c.data;
      return clean(t);
    };
    const names = (el) => [el.getAttribute("aria-label"), el.getAttribute("alt"), el.getAttribute("title"),
      el.getAttribute("placeholder"), ...(el.labels ? Array.from(el.labels, (l) => l.textContent) : []),
      ownText(el), el.textContent].map(clean).filter(Boolean);
    const valueOf = (el) => typeof el.value === "string" && el.tagName !== "BUTTON" && el.tagName !== "LI"
      ? clean(el.value) : clean(el.getAttribute("aria-valuetext") || el.getAttribute("aria-valuenow"));
    const roleOf = (el) => {
      const r = (el.getAttribute("role") || "").trim().split(/\s+/)[0].toLowerCase();
      if (r && r !== "none" && r !== "presentation") return r;
      const tag = el.tagName;
      if (tag === "INPUT") return INPUT_ROLES[(el.getAttribute("type") || "").toLowerCase()] || "textbox";
      if (tag === "SELECT") return el.multiple || el.size > 1 ? "listbox" : "combobox";
      if (tag === "A") return el.hasAttribute("href") ? "link" : "generic";
      if (/^H[1-6]$/.test(tag)) return "heading";
      if (el.isContentEditable) return "textbox";
      return TAG_ROLES[tag] || "generic";
    };
    // 0: no, 1: text contains, 2: yes
    const test = (el, key, want) => {
      switch (key) {
        case "id": return el.id === want || el.getAttribute("data-testid") === want ? 2 : 0;
        case "role": {
          if (want.includes(roleOf(el))) return 2;
          if (want.includes("StaticText") && ownText(el)) return 2;
          return want.includes("clickable") && (el.onclick !== null || (CLICKERS && CLICKERS.has(el))) ? 2 : 0;
        }
        case "label": return names(el).includes(want) ? 2 : 0;
        case "value": return valueOf(el) === want ? 2 : 0;
        case "text": {
          const low = want.toLowerCase(), texts = [...names(el), valueOf(el)].map((t) => t.toLowerCase());
          return texts.includes(low) ? 2 : texts.some((t) => t.includes(low)) ? 1 : 0;
        }
        default: return 2;  // a key the page cannot check: the agent checks it on the snapshot
      }
    };
    const all = (document.body || document.documentElement).querySelectorAll("*");
    for (const terms of alternatives) {
      const matches = new Map();
      for (const el of all) {
        let q = 2;
        for (const [key, want] of terms) { q = Math.min(q, test(el, key, want)); if (!q) break; }
        if (q) matches.set(el, q);
      }
      const outer = new Set();  // elements that hold a match (marked once each: their ancestors are marked too)
      for (const el of matches.keys()) {
        for (let n = el.parentElement; n && !outer.has(n); n = n.parentElement) outer.add(n);
      }
      const best = [[], []];
      for (const [el, q] of matches) {
        if (outer.has(el)) continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        if (shows(el)) continue;  // on screen: the agent has looked there already
        best[2 - q].push(el);
        if (q === 2) break;
      }
      const el = best[0][0] || best[1][0];
      if (el) return el;
    }
    return null;
  }

  // A virtual list renders only the rows near its view: the row sought is in no element.  When what is sought has
  // a number (`Row 7,500`) and a scroll container shows, in its view, three rows or more of the same shape whose
  // numbers go up (or down) along it, the container jumps to where that number's row would be, as the rows shown
  // place it (rows of equal height, or nearly; else the next look corrects it).
  function interpolate(alternatives) {
    const NUM = /\d{1,3}(?:,\d{3})+(?!\d)|\d+/g;
    const shape = (t) => t.toLowerCase().replace(NUM, "#");
    const number = (t) => { const m = t.match(NUM); return m ? Number(m[m.length - 1].replace(/,/g, "")) : null; };
    let sought = null;
    for (const terms of alternatives) {
      for (const [key, want] of terms) {
        if ((key === "label" || key === "text" || key === "value") && number(want) !== null) { sought = want; break; }
      }
      if (sought) break;
    }
    if (!sought) return null;
    const goal = number(sought), form = shape(clean(sought));
    const groups = new Map();
    const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const text = clean(t.data);
      if (!text || shape(text) !== form || !t.parentElement) continue;
      const r = t.parentElement.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      let v = true, c = scrollerOf(t.parentElement, true);
      if (c === root && !scrolls(root, true)) { v = false; c = scrollerOf(t.parentElement, false); }
      if (!scrolls(c, v)) continue;
      const box = c === root ? {x: 0, y: 0, width: W, height: H} : clip(c);
      const [p] = axisOf(v), mid = v ? r.top + r.height / 2 - box.y : r.left + r.width / 2 - box.x;
      if (mid < 0 || mid > (v ? box.height : box.width)) continue;  // only the rows in view place the others
      const at = mid + c[p];
      if (!groups.has(c)) groups.set(c, {v, box, rows: []});
      groups.get(c).rows.push([number(text), at]);
    }
    for (const [c, {v, box, rows}] of groups) {
      // numbered in order (up or down) along the list, three rows at least: a list of prices is not an index
      rows.sort((a, b) => a[1] - b[1]);
      const up = rows.every((r, i) => i === 0 || r[0] > rows[i - 1][0]);
      const down = rows.every((r, i) => i === 0 || r[0] < rows[i - 1][0]);
      if (rows.length < 3 || !(up || down)) continue;
      rows.sort((a, b) => a[0] - b[0]);
      const [lo, hi] = [rows[0], rows[rows.length - 1]];
      if (goal >= lo[0] && goal <= hi[0]) continue;  // it would show: not a row of this list
      const pitch = (hi[1] - lo[1]) / (hi[0] - lo[0]);
      if (!Number.isFinite(pitch) || pitch === 0) continue;
      const [p, size, client] = axisOf(v), extent = v ? box.height : box.width;
      const near = goal < lo[0] ? lo : hi;
      const target = near[1] + (goal - near[0]) * pitch - extent / 2;
      const to = Math.max(0, Math.min(c[size] - c[client], target)), before = c[p];
      if (Math.abs(to - before) < 1) continue;
      c[p] = to;
      return {container: c, from: before, dir: v ? (to > before ? "down" : "up") : (to > before ? "right" : "left")};
    }
    return null;
  }
  const v = dir === "up" || dir === "down";
  if (!container && x !== null) {
    const hit = document.elementFromPoint(x, y);
    container = hit ? scrollerOf(hit, v) : root;
  }
  if (!container) {
    container = root;
    if (!scrolls(root, v)) {  // the document does not scroll that way: the largest visible element that does
      let best = 0;
      for (const el of document.querySelectorAll("*")) {
        if (!scrolls(el, v)) continue;
        const b = clip(el), area = b.width * b.height;
        if (area > best) { best = area; container = el; }
      }
    }
  }
  const [pos, size, client] = axisOf(v), s = (dir === "down" || dir === "right") ? 1 : -1;
  const before = from === null ? container[pos] : from, max = container[size] - container[client];
  const atEnd = s > 0 ? container[pos] >= max - 1 : container[pos] <= 1;
  window.__phonewireScroll = {el: container, pos, size, client};
  const box = container === root ? {x: 0, y: 0, width: W, height: H} : clip(container);
  const out = {dir, before, max, atEnd, box, container: describe(container), revealed, found, jumped};
  if (reveal && only && !found && !jumped) { out.located = false; return out; }  // nothing located: no move
  if (revealed || jumped || atEnd || box.width < 1 || box.height < 1) return out;
  // the drag: at most `reach` of the box, inside its inner part, through a point whose element belongs to it
  const f = Math.min(amount, reach, want === null ? amount : Math.max(want, %(min)s));
  const dx = v ? 0 : s * f * box.width / 2, dy = v ? s * f * box.height / 2 : 0;
  const mx = box.width * (1 - reach) / 2, my = box.height * (1 - reach) / 2;
  const clampX = (cx) => Math.min(Math.max(cx, box.x + mx + Math.abs(dx)), box.x + box.width - mx - Math.abs(dx));
  const clampY = (cy) => Math.min(Math.max(cy, box.y + my + Math.abs(dy)), box.y + box.height - my - Math.abs(dy));
  const px = x !== null && !reveal ? x : box.x + box.width / 2, py = x !== null && !reveal ? y : box.y + box.height / 2;
  const candidates = [[clampX(px), clampY(py)]];
  for (let i = 1; i <= 4; i++) for (let j = 1; j <= 4; j++)
    candidates.push([clampX(box.x + box.width * i / 5), clampY(box.y + box.height * j / 5)]);
  candidates.sort((a, b) => Math.hypot(a[0] - px, a[1] - py) - Math.hypot(b[0] - px, b[1] - py));
  let start = candidates[0];
  for (const [cx, cy] of candidates) {
    const hit = document.elementFromPoint(cx + dx, cy + dy);
    if (hit && scrollerOf(hit, v) === container) { start = [cx, cy]; break; }
  }
  out.from = [start[0] + dx, start[1] + dy];
  out.to = [start[0] - dx, start[1] - dy];
  return out;
})""".replace("%(min)s", str(MIN_REVEAL_AMOUNT))
    .replace("INPUT_ROLES", json.dumps(_INPUT_ROLES))
    .replace("TAG_ROLES", json.dumps(_TAG_ROLES))
    .replace("JUMP", str(JUMP_EXTENTS))
    .replace("LEAD", str(JUMP_LEAD))
)

#: Resolves once no scroll event fired for REST_QUIET_MS (a fling or smooth scroll has ended), at most REST_MAX_MS.
REST_JS = """new Promise(resolve => {
  const QUIET = QUIET_MS, MAX = MAX_MS, t0 = performance.now();
  let last = t0;
  const mark = () => { last = performance.now(); };
  addEventListener("scroll", mark, {capture: true, passive: true});
  const check = () => {
    const now = performance.now();
    if (now - last >= QUIET || now - t0 >= MAX) {
      removeEventListener("scroll", mark, {capture: true}); resolve(now - last >= QUIET);
    } else setTimeout(check, Math.max(10, QUIET - (now - last)));
  };
  setTimeout(check, QUIET);
})""".replace("QUIET_MS", str(REST_QUIET_MS)).replace("MAX_MS", str(REST_MAX_MS))

#: The chosen container's offset now: ``[position, max]``.
MEASURE_JS = """(() => { const s = window.__phonewireScroll; if (!s || !s.el.isConnected) return null;
  return [s.el[s.pos], s.el[s.size] - s.el[s.client]]; })()"""


def reveal_terms(terms: Sequence[str] | None) -> list[list[list[Any]]] | None:
    """``find``'s selector terms (``key=value``, ``||`` between alternatives) as the page checks them: alternatives
    of ``[key, value]``, with a role as the Chromium roles that map to it (roles.py).  A term the page cannot check
    (a boolean, a role such as ``Other`` that any element may have) is left out: the agent checks every term on
    the snapshot anyway."""
    if not terms:
        return None
    alternatives: list[list[list[Any]]] = [[]]
    for term in terms:
        if term == "||":
            alternatives.append([])
            continue
        key, _, value = term.partition("=")
        if key == "role":
            roles = ax_roles(value)
            if roles:
                alternatives[-1].append([key, roles])
        elif key in ("id", "label", "text", "value") and value:
            alternatives[-1].append([key, " ".join(value.split()) if key != "id" else value])
    kept = [a for a in alternatives if a]
    return kept or None


def ax_roles(role: str) -> list[str]:
    """The Chromium roles (and the walk's own ``clickable`` / ``StaticText``) that show as ``role``."""
    want = role.strip().lower()
    found = sorted(ax for ax, mapped in AX_TO_ROLE.items() if mapped.lower() == want)
    if want in ("securetextfield", "textview"):  # a password input, a textarea: textboxes to the page
        found.append("textbox")
    if want in ("other", "group", "scrollview", "application", "window", "webview"):
        return []  # any element may be one
    return found


def plan_expression(
    direction: str, amount: float, at: tuple[float, float] | None, reveal: Sequence[str] | None, *, only: bool = False
) -> str:
    """The scroll plan's evaluation.  ``only`` (WebDriver's find off screen): move only towards what ``reveal``
    locates (or a virtual list's jump); else no move, ``located: false``."""
    x, y = at if at is not None else (None, None)
    args = [x, y, direction, amount, SCROLL_MAX_REACH, reveal_terms(reveal), only]
    return f"({PLAN_JS})({', '.join(json.dumps(a) for a in args)})"


def outcome(plan: dict[str, Any], after: object) -> dict[str, Any]:
    """The reply of a scroll from its plan and the offset measured at rest (``None``: the container went away)."""
    direction = str(plan["dir"])
    sign = 1 if direction in ("down", "right") else -1
    out: dict[str, Any] = {"direction": direction, "container": plan.get("container")}
    if plan.get("found") is not None and plan.get("found"):
        out["revealed"] = bool(plan.get("revealed"))
    if plan.get("located") is False:
        out["located"] = False
    if isinstance(after, list) and len(after) == 2:
        position, limit = float(after[0]), float(after[1])
        out["distance"] = round(max(0.0, (position - float(plan["before"])) * sign), 1)
        out["atEnd"] = position >= limit - 1 if sign > 0 else position <= 1
    else:
        out["distance"] = None
        out["atEnd"] = None
    return out
