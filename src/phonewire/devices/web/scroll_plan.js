// A scroll's plan (scrolling.py explains the steps): which container moves, which way, and where the finger goes.
// Evaluated as `(plan)(x, y, dir, amount, reach, reveal, only, k)`, k = {min, jump, lead, quotes, edges}
// (scrolling.py's constants).  It runs after walker_spec.js in one function (scrolling.py joins them): `roleOf` is
// the walker's, the one role table of the page's elements.
// Shared by the scripts: window.__phonewireScroll holds the chosen container between the evaluations of one scroll.
((x, y, dir, amount, reach, reveal, only, k) => {
  const vertical = dir === "up" || dir === "down", sign = (dir === "down" || dir === "right") ? 1 : -1;
  // The screen is the visual viewport (walker_perception.js's coordinate model): its box in the page's client px is
  // [L0, T0, R0, B0]; `x, y` come in screen points, and the drag goes out in the DevTools input space (client px
  // less the visual viewport's offset).
  const vv = window.visualViewport, S = vv && vv.scale > 0 ? vv.scale : 1;
  const L0 = vv ? vv.offsetLeft : 0, T0 = vv ? vv.offsetTop : 0;
  const W = vv ? vv.width : innerWidth, H = vv ? vv.height : innerHeight, R0 = L0 + W, B0 = T0 + H;
  if (x !== null) { x = x / S + L0; y = y / S + T0; }
  const root = document.scrollingElement || document.documentElement;
  const SCROLLING = new Set(["auto", "scroll", "overlay"]);
  const axisOf = (v) => v ? ["scrollTop", "scrollHeight", "clientHeight", "overflowY"]
                          : ["scrollLeft", "scrollWidth", "clientWidth", "overflowX"];
  const scrolls = (el, v) => {
    const [, size, client, overflow] = axisOf(v);
    if (el === root) return el[size] - (vv ? (v ? H : W) : el[client]) > 1;
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
    let l = L0, t = T0, r = R0, b = B0;
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
  // protocol/folding.py's fold, with its characters (k.quotes, k.edges): text as a person compares it
  const fold = (t) => {
    const plain = clean(t).toLowerCase(), s = Array.from(plain).filter((c) => !k.quotes.includes(c)).join("");
    let a = 0, b = s.length;
    while (a < b && (s[a] === " " || k.edges.includes(s[a]))) a++;
    while (b > a && (s[b - 1] === " " || k.edges.includes(s[b - 1]))) b--;
    return clean(s.slice(a, b)) || plain;
  };
  // whether a person sees `el` now: its centre on the screen, inside every scroll container around it
  const shows = (el) => {
    const r = el.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    if (cx < L0 || cx > R0 || cy < T0 || cy > B0) return false;
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
    let inside = cx >= L0 && cx <= R0 && cy >= T0 && cy <= B0;
    for (let n = parentOf(el); n; n = n === root ? null : parentOf(n)) {
      if (n !== root && (n.nodeType !== 1 || n === document.body)) continue;
      const both = [true, false].filter((v) => scrolls(n, v));
      if (!both.length) continue;
      const box = n === root ? {x: L0, y: T0, width: W, height: H} : clip(n);
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
      if (want > k.jump) {  // far away: jump to just short of it, then the touch drag brings it in
        const [p] = axisOf(v);
        from = n[p];
        n[p] += Math.sign(off) * (Math.abs(off) - k.lead * extent);
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
    // 0: no, 1: text contains, 2: yes
    const test = (el, key, want) => {
      switch (key) {
        case "id": return el.id === want || el.getAttribute("data-testid") === want ? 2 : 0;
        case "role": {
          if (want.includes(roleOf(el, el.tagName))) return 2;
          if (want.includes("StaticText") && ownText(el)) return 2;
          return want.includes("clickable") && (el.onclick !== null || (CLICKERS && CLICKERS.has(el))) ? 2 : 0;
        }
        case "label": return names(el).map(fold).includes(want) ? 2 : 0;  // want: folded by scrolling.py
        case "value": return valueOf(el) === want ? 2 : 0;
        case "text": {
          const texts = [...names(el), valueOf(el)].map(fold);
          return texts.includes(want) ? 2 : texts.some((t) => t.includes(want)) ? 1 : 0;
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
      const box = c === root ? {x: L0, y: T0, width: W, height: H} : clip(c);
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
  // the page itself moves under the screen as the visual viewport does (its page offsets: the layout's scroll plus
  // the visual viewport's pan inside a layout viewport wider or taller than the screen)
  const page = container === root && !!vv;
  const now = page ? (v ? vv.pageTop : vv.pageLeft) : container[pos];
  const before = from === null ? now : from;
  const max = page ? container[size] - (v ? H : W) : container[size] - container[client];
  const atEnd = s > 0 ? now >= max - 1 : now <= 1;
  window.__phonewireScroll = {el: container, pos, size, client, page, v};
  const box = container === root ? {x: L0, y: T0, width: W, height: H} : clip(container);
  const out = {dir, before, max, atEnd, box, container: describe(container), revealed, found, jumped};
  if (reveal && only && !found && !jumped) { out.located = false; return out; }  // nothing located: no move
  if (revealed || jumped || atEnd || box.width < 1 || box.height < 1) return out;
  // the drag: at most `reach` of the box, inside its inner part, through a point whose element belongs to it
  const f = Math.min(amount, reach, want === null ? amount : Math.max(want, k.min));
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
  out.from = [start[0] + dx - L0, start[1] + dy - T0];
  out.to = [start[0] - dx - L0, start[1] - dy - T0];
  return out;
})
