// The walker's perception layer: what is on the screen and where — the viewport, element geometry, culling of
// off-screen subtrees (and the position: fixed elements they still hold: rule fixed-in-culled), the hit test a tap
// would make (occlusion, the point a tap lands on), the rows the walk returns (push) and the serials that name their
// DOM nodes.  A fragment of the walker's one function body (walk.py concatenates the layers in the order it
// declares); `maxNodes` and `cfg` are the walker's arguments.

// The coordinate model (docs/snapshot.md): every rect and point the walk returns or takes is in screen points of
// what the phone shows — the visual viewport — whatever the page's layout width, zoom and scroll.  The page's own
// geometry (getBoundingClientRect, elementFromPoint) is in client px of the layout viewport, which may be wider and
// taller than the screen (a page laid out wider than the phone: its layout viewport grows to the content) and is
// drawn at the visual viewport's scale from its offset: a client point c shows at screen (c - offset) * scale.
// SCREEN is the client box the screen shows; the walk culls against it and returns rows through toScreen.
const VV = window.visualViewport;
// A frame of another origin is walked in its own document (cfg.frame, from the device: frames.py): its client px
// show at screen point `at` + client * `scale`, and `view` is the part of its client space the screen shows.
const FRAME = cfg.frame || null;
const SCALE = FRAME ? FRAME.scale : VV && VV.scale > 0 ? VV.scale : 1;
const OX = FRAME ? -FRAME.at[0] / SCALE : VV ? VV.offsetLeft : 0, OY = FRAME ? -FRAME.at[1] / SCALE : VV ? VV.offsetTop : 0;
const VW = VV ? VV.width : window.innerWidth, VH = VV ? VV.height : window.innerHeight;
const SCREEN = FRAME ? FRAME.view : [OX, OY, OX + VW, OY + VH];
// A same-origin frame's document is walked in place (walkFrame): its geometry is in the frame's client px, FX / FY
// is where the frame's client origin lies in the top document's client px, VIEW the part of the frame's client
// space the screen shows, FRAMES the frame elements the walk is inside (outermost first).
let FX = 0, FY = 0, VIEW = SCREEN;
const FRAMES = [];
// Frames of another origin met by the walk (their documents are not reachable from here): per frame its row and
// where it is drawn ([row, x, y, scale, view], HOLES), and the elements (kept in the window under HOLES_KEY, where
// the device reads them to find each one's frame); the device walks each in its own document and joins the rows.
const HOLES = [], HOLE_ELS = [];
const HOLES_KEY = Symbol.for("phonewire.frameHoles");
function toScreen(x, y) { return [(x + FX - OX) * SCALE, (y + FY - OY) * SCALE]; }
function toClient(x, y) { return [x / SCALE + OX, y / SCALE + OY]; }
function onScreen(x, y) { return x >= VIEW[0] && y >= VIEW[1] && x < VIEW[2] && y < VIEW[3]; }
function frameShows(x, y) {
  // inside a frame, a point of it reaches the frame in the top document (nothing of the top page lies over it)
  return !FRAMES.length || document.elementFromPoint(x + FX, y + FY) === FRAMES[0];
}

function frameBox(frame, r, clip) {
  // A frame's content box: its client origin (in the client px of the document that holds it) and the part of
  // its client space that `clip` leaves.
  const cs = getComputedStyle(frame);
  const bx = r.x + frame.clientLeft + parseFloat(cs.paddingLeft || "0");
  const by = r.y + frame.clientTop + parseFloat(cs.paddingTop || "0");
  return [bx, by, [Math.max(clip[0], bx) - bx, Math.max(clip[1], by) - by,
                   Math.min(clip[2], bx + frame.clientWidth) - bx, Math.min(clip[3], by + frame.clientHeight) - by]];
}

function walkFrame(frame, parent, r, clip, depth) {
  // (issue 22 item 2) a same-origin frame's document walked where it is drawn, its rows under the frame's; a frame
  // of another origin has no document here: it is left to the device (HOLES), to walk in its own document
  let doc = null;
  try { doc = frame.contentDocument; } catch (e) { doc = null; }
  const [bx, by, view] = frameBox(frame, r, clip);
  if (!(view[0] < view[2] && view[1] < view[3])) return;
  if (!doc) {
    if (parent >= 0 && out[parent][10] === serialOf(frame)) {
      const at = toScreen(bx, by);
      HOLES.push([parent, at[0], at[1], SCALE, view]);
      HOLE_ELS.push(frame);
    }
    return;
  }
  if (!doc.body) return;
  const saved = [FX, FY, VIEW];
  FX += bx; FY += by; VIEW = view;
  FRAMES.push(frame);
  try {
    walk(doc.body, parent, view, view, depth + 1, false, false);
  } finally {
    FRAMES.pop();
    [FX, FY, VIEW] = saved;
  }
}
const out = [];
const MAX_DEPTH = 200;
// The walk's own budget (issue 28: a document of 10⁶ elements took a snapshot 30 s, then the phone): it stops
// after cfg.maxVisits elements (the same cut on every machine) or past cfg.budgetMs, whichever comes first, and
// says so (`cut`: the view's quality, walk.py) — before the page-script budget would stop it with nothing to show.
const WALK_DEADLINE = performance.now() + (cfg.budgetMs || Infinity);
let visits = 0;
let cut = false;
function overBudget() {
  if (!cut && (++visits > cfg.maxVisits || ((visits & 255) === 0 && performance.now() > WALK_DEADLINE))) cut = true;
  return cut;
}
// A closed <select> lists at most this many options (geometry-less: they show only when it opens).
const MAX_OPTIONS = 50;
const SERIALS_KEY = Symbol.for("phonewire.serials");
let serials = null;

function serialOf(node) {
  if (!node) return 0;
  if (serials === null) {
    serials = document[SERIALS_KEY];
    if (!serials) {
      serials = {doc: Math.random().toString(36).slice(2, 10), n: 0, of: new WeakMap(), by: new Map()};
      Object.defineProperty(document, SERIALS_KEY, {value: serials});
    }
  }
  let s = serials.of.get(node);
  if (s === undefined) {
    s = ++serials.n;
    serials.of.set(node, s);
    serials.by.set(s, new WeakRef(node));
    if (serials.by.size > (serials.limit || 20000)) {
      // drop the entries of nodes gone; the next sweep waits until the map has doubled (amortised: O(1) a node)
      for (const [k, ref] of serials.by) if (!ref.deref()) serials.by.delete(k);
      serials.limit = Math.max(20000, 2 * serials.by.size);
    }
  }
  return s;
}

function nodeOfSerial(serial) {
  // The node a serial ("doc:n", from an earlier walk of this document) names, while it is in the document.
  serialOf(document);
  const [doc, n] = String(serial).split(":");
  if (doc !== serials.doc) return null;
  const ref = serials.by.get(Number(n));
  const node = ref ? ref.deref() : null;
  return node && node.isConnected ? node : null;
}

function aim(x, y, serial, since) {
  // A gesture's aim, checked in the evaluation that sends it (issue 22): the screen point (x, y) in the page's
  // client px and in the DevTools input space (CSS px of the visual viewport: a touch sent at (tx, ty) lands at
  // client (tx, ty) + offset), what a touch there reaches, and with the serial of the element it is aimed at the
  // verdict: "ok" (it reaches the element or its own descendant), "gone" (no such element in the document any
  // more), "covered" (the point is on the element, something else lies over it), "moved" (the element is not at
  // the point now; `now` is its rect); with `since` (a snapshot's change mark) "changed" when the screen changed
  // after that snapshot (its places and identities are no longer proven).
  const [cx, cy] = toClient(x, y);
  const res = {scale: SCALE, client: [cx, cy], input: [x / SCALE, y / SCALE], hit: null, verdict: "ok"};
  const el = serial ? nodeOfSerial(serial) : null;
  if (serial && !el) { res.verdict = "gone"; return res; }
  const changes = window[Symbol.for("phonewire.changes")];
  if (since && (!changes || changes.doc + ":" + changes.n !== since)) { res.verdict = "changed"; return res; }
  let hit = document.elementFromPoint(cx, cy), fx = 0, fy = 0;
  // into same-origin frames: the element there in the frame's own document
  for (let i = 0; i < 8 && hit && (hit.tagName === "IFRAME" || hit.tagName === "FRAME"); i++) {
    let doc = null;
    try { doc = hit.contentDocument; } catch (e) { doc = null; }
    if (!doc) break;
    const fr = hit.getBoundingClientRect(), st = getComputedStyle(hit);
    fx += fr.x + hit.clientLeft + parseFloat(st.paddingLeft || "0");
    fy += fr.y + hit.clientTop + parseFloat(st.paddingTop || "0");
    const inner = doc.elementFromPoint(cx - fx, cy - fy);
    if (!inner) break;
    hit = inner;
  }
  const root = el && el.nodeType === 1 ? el.getRootNode() : null;
  if (hit && root && root.host && root.elementFromPoint) {
    hit = root.elementFromPoint(cx - fx, cy - fy) || hit;  // (an element in a shadow root: the hit in that tree)
  }
  res.hit = hit ? describe(hit) : null;
  if (!el) return res;
  const box = el.nodeType === 1 ? el : el.parentElement;
  if (reaches(hit, box)) {
    if (box.tagName === "IFRAME" || box.tagName === "FRAME") {
      // a frame of another origin aimed through: where its content is drawn now (the device aims on inside it)
      const [bx, by, view] = frameBox(box, box.getBoundingClientRect(), [-1e9, -1e9, 1e9, 1e9]);
      const at = toScreen(bx + fx, by + fy);
      res.frame = {at, scale: SCALE, view};
    }
    return res;
  }
  const r = box.getBoundingClientRect(), at = toScreen(r.x + fx, r.y + fy);
  res.now = [at[0], at[1], r.width * SCALE, r.height * SCALE];
  const lx = cx - fx, ly = cy - fy;
  res.verdict = lx >= r.left && lx <= r.right && ly >= r.top && ly <= r.bottom ? "covered" : "moved";
  return res;
}

function labelled(el) {
  // The control of the <label> that el is, or lies in, when nothing between them has a role of its own (a link in
  // a label is described as the link).
  for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
    if (e.tagName === "LABEL") return e.control && e.control !== el ? e.control : null;
    if (!DULL.has(shownRole(e, e.tagName))) return null;
  }
  return null;
}

// Roles of text-level and grouping elements (HTML-AAM gives <b>, <code>, <time>, <figure>… roles of their own) that
// the view does not show: their text reads as part of the text around them, as a generic element's does.
const TEXT_LEVEL = new Set(["strong", "emphasis", "code", "deletion", "insertion", "mark", "subscript", "superscript",
  "time", "term", "definition", "blockquote", "caption", "figure"]);

function shownRole(el, tag) {
  const role = roleOf(el, tag);
  return TEXT_LEVEL.has(role) ? "generic" : role;
}

const TAP_ROLES = new Set(cfg.tapRoles), CLIP_ROLES = new Set(cfg.clipRoles), PLAIN = new Set(cfg.plainRoles);
const DULL = new Set(["generic", "none", "paragraph", "LabelText", "main", "form"]);

function describe(el) {
  // What a person would call the element at a point: the nearest of it and its ancestors (up to 6 levels) that
  // has a role, a name or an id; else the element itself, by its classes.
  // An element the walk lists as a control by the rules (a span with a click handler or where cursor: pointer
  // starts: rule clickable) is described as the view lists it.  A point on a <label>'s own content (its text, its
  // drawn box) is a tap on its control, and is described as that control (a CheckBox, not the Group around it).
  let e = labelled(el) || el;
  for (let i = 0; e && i < 6; i++, e = e.parentElement) {
    const tag = e.tagName;
    let role = shownRole(e, tag);
    if (DULL.has(role) && tag !== "BODY" && tag !== "HTML") {
      const up = e.parentElement, pointer = getComputedStyle(e).cursor === "pointer";
      const starts = pointer && !(up && getComputedStyle(up).cursor === "pointer");
      if (clickable(e, tag, role, e.getBoundingClientRect(), starts)) role = "clickable";
    }
    const name = DULL.has(role) && !e.id ? "" : nameOf(e, tag, role);
    if (!DULL.has(role) || name || e.id) return [role, name.slice(0, 60), e.id || "", ""];
  }
  const cls = typeof el.className === "string" ? el.className.trim().split(/\s+/).slice(0, 2).join(" ") : "";
  return [shownRole(el, el.tagName), "", "", cls || el.tagName.toLowerCase()];
}

function hitTest(el, row, r, role, flags, tclip) {
  // A node a tap may aim at is hit-tested (its row gets what covers it, or where a tap on it lands); a list, a
  // table or a scroll view clips the tap points of what it holds: the clip its children get.
  if (TAP_ROLES.has(role) || (flags & 8) || (covering && role === "heading")) {
    const cover = coveredBy(el, r, tclip);
    if (cover) out[row].push(cover);
    if (Array.isArray(cover)) covering = true;
  }
  if (CLIP_ROLES.has(role) || ((flags & 64) && PLAIN.has(role))) {
    const c = [Math.max(tclip[0], r.x), Math.max(tclip[1], r.y),
               Math.min(tclip[2], r.x + r.width), Math.min(tclip[3], r.y + r.height)];
    if (c[0] < c[2] && c[1] < c[3]) return c;
  }
  return tclip;
}

function hitAt(x, y, el) {
  // The element a tap at (x, y) reaches, from the root (document or shadow root) that holds el.
  const root = el && el.getRootNode ? el.getRootNode() : document;
  return (root.elementFromPoint ? root : document).elementFromPoint(x, y);
}

function coveredBy(el, r, tclip) {
  let x0 = Math.max(r.x, tclip[0]), y0 = Math.max(r.y, tclip[1]);
  let x1 = Math.min(r.x + r.width, tclip[2]), y1 = Math.min(r.y + r.height, tclip[3]);
  if (!(x0 < x1 && y0 < y1)) { x0 = r.x; y0 = r.y; x1 = r.x + r.width; y1 = r.y + r.height; }
  const x = (x0 + x1) / 2, y = (y0 + y1) / 2;
  if (!onScreen(x, y)) return null;
  if (!frameShows(x, y)) return describe(document.elementFromPoint(x + FX, y + FY));
  const hit = hitAt(x, y, el);
  if (reaches(hit, el)) {
    // its own centre off the screen (a page zoomed in, an element wider than the screen): a tap lands on the
    // centre of the part that shows, which the agent cannot work out without the screen's edges
    return onScreen(r.x + r.width / 2, r.y + r.height / 2) ? null : {tap: toScreen(x, y)};
  }
  // The centre is under something else: try the centres of the left, right, top and bottom thirds of the part
  // that shows (at most 4 more hit tests); the first that reaches the element is where a tap on it lands.
  const w6 = (x1 - x0) / 6, h6 = (y1 - y0) / 6;
  const tries = [[x0 + w6, y], [x1 - w6, y], [x, y0 + h6], [x, y1 - h6]];
  for (let i = 0; i < tries.length; i++) {
    const px = tries[i][0], py = tries[i][1];
    if (!onScreen(px, py)) continue;
    if (reaches(hitAt(px, py, el), el)) return {tap: toScreen(px, py)};
  }
  return describe(hit);
}

function reaches(hit, el) {
  // A tap that hits `hit` reaches el: it is el, inside it, or a <label> of it.  An ancestor hit there (el lets
  // taps through, or the ancestor's ::before / ::after lies over it) takes the tap itself: it reaches el only
  // when it is a control that holds el (a button or link around it, a clickable row), not a plain container.
  if (!hit || hit === el || el.contains(hit)) return true;
  const label = hit.closest ? hit.closest("label") : null;
  if (label && label.control === el) return true;
  return hit.contains(el) && forwards(hit);
}

function forwards(a) {
  // An ancestor that a tap on its content means: a native control, an explicit tap role, or a click handler of
  // its own (a list item or table row is no control by its implicit role alone).
  const tag = a.tagName;
  if (tag === "BODY" || tag === "HTML") return false;
  if (tag === "BUTTON" || tag === "SUMMARY" || tag === "LABEL" || (tag === "A" && a.hasAttribute("href"))) return true;
  return (a.hasAttribute("role") && TAP_ROLES.has(roleOf(a, tag))) || clicked(a);
}

function options(sel, parent, r, multi) {
  // A select's options as text under it, the chosen ones [selected].  A list box (multiple / size > 1) shows
  // the options inside its box, with their places; a closed one lists them without a place (up to MAX_OPTIONS).
  const opts = sel.options;
  let shown = 0, more = 0;
  for (let i = 0; i < opts.length; i++) {
    const o = opts[i];
    if (o.hidden) continue;
    let box = null;
    if (multi) {
      const b = o.getBoundingClientRect();
      if (!(b.width > 0 && b.height > 0 && b.y + b.height > r.y && b.y < r.y + r.height)) { more++; continue; }
      box = b;
    } else if (shown >= MAX_OPTIONS) { more++; continue; }
    // a list box's options are its rows (a person taps them); a closed select's are text until it opens
    push(parent, multi ? "option" : "StaticText", clean(o.label || o.text), "", "", box,
         (o.selected ? 4 : 0) | (multi ? 8 : 0) | (multi && o.disabled ? 1 : 0), o);
    shown++;
    if (out.length >= maxNodes) return;
  }
  if (more) push(parent, "StaticText", "\u2026 " + more + " more option" + (more > 1 ? "s" : ""), "", "", null, 0, null);
}

// Set once a control was found covered: from then on headings and text are hit-tested too, so that the page under
// a full-screen overlay (mkdocs-material's search, issue 23) is no longer read as if it showed.
let covering = false;

function textCovered(node, r) {
  // What lies over the centre of a text's box, or null when a tap there reaches the text (its element or an
  // ancestor of it is hit: a text node is never hit itself).  Only a cover from another branch of the page (their
  // nearest common ancestor is the body) counts: an overlay, not a piece of the text's own widget drawn over it.
  const x = r.x + r.width / 2, y = r.y + r.height / 2;
  if (!onScreen(x, y) || !frameShows(x, y)) return null;
  const hit = hitAt(x, y, node);
  if (!hit || hit.contains(node)) return null;
  let a = hit;
  while (a && !a.contains(node)) a = a.parentElement || (a.getRootNode && a.getRootNode().host) || null;
  return !a || a === document.body || a === document.documentElement ? describe(hit) : null;
}

function push(parent, role, name, ident, value, r, flags, node) {
  // (a row's rect in screen points: the coordinate model above; a row shaped by rules says which: {rules: […]},
  // and takes them — the next row starts with none)
  const at = r ? toScreen(r.x, r.y) : [0, 0];
  const row = [parent, role, name, ident, value, at[0], at[1], r ? r.width * SCALE : 0, r ? r.height * SCALE : 0, flags,
               serialOf(node)];
  if (shaped.length) { row.push({rules: shaped}); shaped = []; }
  if (covering && role === "StaticText" && r && node) {
    const cover = textCovered(node, r);
    if (cover) row.push(cover);
  }
  out.push(row);
  return out.length - 1;
}

function textRun(parent, node, clip) {
  const t = clean(node.data);
  if (!t) return;
  const range = document.createRange();
  range.selectNodeContents(node);
  const r = range.getBoundingClientRect();
  if (r.width === 0 && r.height === 0) return;
  if (r.x >= clip[2] || r.y >= clip[3] || r.x + r.width <= clip[0] || r.y + r.height <= clip[1]) return;
  pushText(parent, t, "", r, node, clip);
}

function pushText(parent, t, ident, r, node, clip) {
  // A StaticText row of node's text t at r.  (rule clipped-text) Text that a box with overflow other than visible
  // cuts (a fixed-height card, a one-line cell) is said as a person sees it: the words whose middle shows, at the
  // part of r that shows; none showing, no row.
  if (cutByBox(r, clip)) {
    const seen = seenWords(node, clip);
    if (seen !== null) {
      if (!seen) return;
      const x0 = Math.max(r.x, clip[0]), y0 = Math.max(r.y, clip[1]);
      const shown = {x: x0, y: y0, width: Math.min(r.x + r.width, clip[2]) - x0,
                     height: Math.min(r.y + r.height, clip[3]) - y0};
      shape("clipped-text");
      push(parent, "StaticText", seen, ident, "", shown, 0, node);
      return;
    }
  }
  push(parent, "StaticText", t, ident, "", r, 0, node);
}

function cutByBox(r, clip) {
  // Whether a box's clip (not the screen's edge: what lies past it is scrolled to) cuts the rect r.
  return (r.x < clip[0] - 0.5 && clip[0] > SCREEN[0] + 0.5) || (r.y < clip[1] - 0.5 && clip[1] > SCREEN[1] + 0.5) ||
    (r.x + r.width > clip[2] + 0.5 && clip[2] < SCREEN[2] - 0.5) ||
    (r.y + r.height > clip[3] + 0.5 && clip[3] < SCREEN[3] - 0.5);
}

// A text of more words than this that a box cuts is shown whole (each word is one more layout query).
const MAX_SEEN_WORDS = 400;

function seenWords(node, clip) {
  // The words of node's text (a text node, or an element's text nodes in order) whose middle lies inside clip,
  // joined ("" for none); null past MAX_SEEN_WORDS.
  const texts = [];
  if (node.nodeType === 3) texts.push(node);
  else for (let w = document.createTreeWalker(node, NodeFilter.SHOW_TEXT), t; (t = w.nextNode());) texts.push(t);
  const range = document.createRange(), words = [];
  let n = 0;
  for (const text of texts) {
    const re = /\S+/g;
    let m;
    while ((m = re.exec(text.data)) !== null) {
      if (++n > MAX_SEEN_WORDS) return null;
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      const w = range.getBoundingClientRect(), mx = w.x + w.width / 2, my = w.y + w.height / 2;
      if (mx >= clip[0] && mx <= clip[2] && my >= clip[1] && my <= clip[3]) words.push(m[0]);
    }
  }
  return clean(words.join(" "));
}

// Subtrees the walk left out as off screen.  An element of one may still show: a position: fixed one (a chat
// button, a toast, a modal placed in a footer below the screen) is laid out against the viewport, and no overflow
// of its ancestors says so.  shownFromCulled() finds those and walks them as subtrees of their own.
const culled = new Set();
// The fixed element shownFromCulled walks now (its row says rule fixed-in-culled).
let shownAlone = null;
const FIXED_KEY = Symbol.for("phonewire.fixedRules");
// Where the style rules cannot be read, the screen is hit-tested every SWEEP_PX (its edges included).
const SWEEP_PX = 48;

// The selectors of the document's style rules that make an element position: fixed, plus inline styles; cached
// on the document while its sheets' rule counts stay the same.  null when a sheet cannot be read (another
// origin's, without CORS).
function fixedSelector() {
  const sheets = [...document.styleSheets, ...(document.adoptedStyleSheets || [])];
  let key = "";
  try {
    for (const sheet of sheets) key += sheet.cssRules.length + ",";
  } catch (e) {
    return null;
  }
  const cached = document[FIXED_KEY];
  if (cached && cached.key === key) return cached.selector;
  const found = ['[style*="fixed"]'];
  const visit = (rules) => {
    for (const rule of rules) {
      if (rule.selectorText && rule.style && rule.style.position === "fixed") {
        try { document.querySelector(rule.selectorText); found.push(rule.selectorText); } catch (e) { /* ::before */ }
      }
      if (rule.cssRules) visit(rule.cssRules);
    }
  };
  for (const sheet of sheets) visit(sheet.cssRules);
  const selector = found.join(",");
  if (cached) { cached.key = key; cached.selector = selector; }
  else Object.defineProperty(document, FIXED_KEY, {value: {key, selector}});
  return selector;
}

// Elements that might show although a culled subtree holds them, in document order.
function fixedCandidates() {
  const selector = fixedSelector();
  if (selector !== null) return document.querySelectorAll(selector);
  const xs = [], ys = [], hits = new Set();
  for (let x = SCREEN[0] + 4; x < SCREEN[2] - 4; x += SWEEP_PX) xs.push(x);
  for (let y = SCREEN[1] + 4; y < SCREEN[3] - 4; y += SWEEP_PX) ys.push(y);
  xs.push(SCREEN[2] - 4); ys.push(SCREEN[3] - 4);
  for (const y of ys) for (const x of xs) { const hit = document.elementFromPoint(x, y); if (hit) hits.add(hit); }
  return hits;
}

function shownFromCulled() {
  const shown = [];
  for (const hit of fixedCandidates()) {
    let top = null;
    for (let a = hit.parentElement; a && !top; a = a.parentElement) if (culled.has(a)) top = a;
    if (!top || shown.some((s) => s.contains(hit))) continue;
    // the outermost fixed element between them; one that shows by other means (a transform, a negative offset)
    // is shown from the element hit
    let el = null;
    for (let a = hit; a !== top; a = a.parentElement) if (getComputedStyle(a).position === "fixed") el = a;
    el = el || hit;
    const r = el.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0 && r.x < SCREEN[2] && r.y < SCREEN[3] && r.x + r.width > SCREEN[0] &&
          r.y + r.height > SCREEN[1])) continue;
    if (shown.some((s) => s.contains(el))) continue;
    shown.push(el);
    if (out.length >= maxNodes) return;
    shownAlone = el;
    walk(el, -1, SCREEN, SCREEN, 0, false, false);
  }
}
