// phonewire in-page snapshot walk.  Evaluated once per snapshot as `(WALK)(maxNodes, cfg)`; returns
// {w, h, title, url, ready, doc, nodes, cut} where each node is a compact array:
//   [parentIndex, axRole, name, identifier, value, x, y, width, height, flags, serial(, coveredBy | {tap})]
// serial: the number of the DOM node the row stands for (an element, a text node, an option), given the first
// time a walk meets it and kept for that node's life (a WeakMap on the document); 0 for a row that stands for no
// node.  doc: a random id of the document, drawn with its first walk — a serial names one node of one document.
// axRole is the Chromium accessibility role name this element would get (ARIA role, else the HTML element's
// implicit role); the runner maps it to the shared vocabulary (devices/web/roles.py).
// flags: 1 disabled, 2 focused, 4 selected, 8 interactive (focusable / click handler), 16 secure (password),
//        32 multiline, 64 scrollable, 128 editable, 256 read-only (a readonly text input/textarea, or
//        aria-readonly="true"), 512 name from row (a checkbox/radio/switch without a name of its own, named by the
//        text of its row: the name is borrowed, the row's text is what a person reads), 1024 expanded, 2048
//        collapsed (aria-expanded; a <summary>'s <details>; a tree item's expander drawn without ARIA, by its
//        classes or its item's nested list — see expanderState).
// Only "candidate" nodes are returned (a role other than generic/none, a name, an identifier, a value, or
// interactivity); pure wrappers are skipped and their children attach to the nearest candidate ancestor.
// Occlusion: every interactive node is hit-tested (document.elementFromPoint) at the point a tap would use — the
// centre of its rect clipped by the viewport and by the scroll containers / lists / tables it sits in (the same
// rule as agent/core.py's _visible_box).  When the element found there is neither the node, nor inside it, nor an
// ancestor of it, nor a <label> of it, up to 4 more points are tried (the centres of the left, right, top and bottom
// thirds of that clipped rect): the first that reaches the node is where a tap lands, an item {tap: [x, y]};
// when none does, the node is covered and gets an item [axRole, name, identifier, classes] of what covers it
// (the centre's hit).  cfg (from walk.py, derived from roles.py): tapRoles (ax roles that are interactive),
// clipRoles (ax roles of lists and tables), plainRoles (ax roles that a scrollable element turns into a
// ScrollView).  With cfg.probe = [x, y(, serial)] the walk is skipped and the gesture's aim at that screen point is
// returned instead (perception's aim(): what a tap there hits, where it lands, whether it reaches the element).
// Rects and points are screen points of the visual viewport (perception's coordinate model).
// Culling: subtrees that lie outside the viewport (intersected with scroll-container clips) are not walked,
// unless they lie above or beside it and overflow their own box (content overflows downward and to the right).
// cut: 0, or how many elements the walk read before its budget ended it (walker_perception.js: overBudget).
//
// The walk itself: one pass over the DOM that joins the three layers — walker_spec.js (roles, names, states),
// walker_rules.js (the named rules beyond the spec) and walker_perception.js (geometry, culling, hit tests).  A
// fragment of the walker's one function body (walk.py concatenates the layers in the order it declares and wraps
// them as `(function (maxNodes, cfg, drawnSelect) {…})`); this part, last, runs the walk and returns its result.

function walk(el, parent, clip, tclip, depth, inName, parentPointer) {
  if (out.length >= maxNodes || depth > MAX_DEPTH || overBudget()) return;
  if (shaped.length) shaped = [];  // (the rules that shape this element's row: walker_rules.js)
  if (el === shownAlone) shape("fixed-in-culled");
  const tag = el.tagName;
  let r = el.getBoundingClientRect();
  // A zero-area box (a wrapper of absolutely positioned children, an empty element) is never "outside":
  // its content is not bounded by it.  (A box with an area is never display: contents, so never geometryless.)
  const outside = r.width > 0 && r.height > 0 &&
    (r.x >= clip[2] || r.y >= clip[3] || r.x + r.width <= clip[0] || r.y + r.height <= clip[1]);
  // Outside the visible area and nothing overflows it toward that area: the subtree is off-screen too.  Content
  // overflows a box downward and to the right (scrollHeight / scrollWidth measure that much), so below the area
  // an overflow never reaches it, and the overflow is not even read (most of a long list lies there); above or
  // beside it, any overflow has the subtree walked.  Nothing below this point pushes a row for an element that is
  // culled here, so it is culled first.  (Elements with many children are walked anyway: cheap to cull each
  // child, safer for odd layouts.)
  if (outside && r.y >= clip[3] && el.childElementCount < 50) { culled.add(el); return; }
  // The overflow of the box, read once: the cull and the scroll check further down both use it.
  const sh = el.scrollHeight, ch = el.clientHeight;
  const overflows = sh > ch + 1 || el.scrollWidth > el.clientWidth + 1;
  if (outside && !overflows && el.childElementCount < 50) { culled.add(el); return; }  // (rule fixed-in-culled)
  if (el.hidden && tag !== "svg") return;
  let role = shownRole(el, tag);
  const drawn = tag === "LABEL" && hiddenToggle(el.control) && shape("drawn-toggle") ? el.control : null;
  if (drawn) role = (drawn.getAttribute("type") || "").toLowerCase();
  else if (tag === "INPUT" && hiddenToggle(el)) return;  // its label stands for it
  // A select a library hides and draws a box for (drawn_select.js): the box is the select, the select is left out.
  // (rule drawn-select)
  const stand = drawnSelect(el, true);
  if (stand && tag === "SELECT") return;
  // ... and its <label>, apart from the select, that only names it: the box's name says it (findings 3, E6)
  if (tag === "LABEL" && el.control && el.control.tagName === "SELECT" && !el.contains(el.control) &&
      drawnSelect(el.control, true) && clean(el.textContent) === nameOf(el.control, "SELECT", "combobox")) return;
  const standsFor = stand && shape("drawn-select") ? stand.select : null;
  if (standsFor) role = "combobox";
  if (role === "none" && (tag === "SCRIPT" || tag === "STYLE" || tag === "TEMPLATE" || tag === "HEAD" ||
      tag === "NOSCRIPT" || (tag === "INPUT"))) return;  // (JavaScript is on: <noscript> is text never drawn)
  if (tag === "style" || tag === "script") return;  // an inline SVG's style sheet or script (SVG tags keep their case)
  // Hidden from assistive technology, but a person still taps it (jQuery UI's spinner arrows: aria-hidden links
  // with role=button, or a click handler of their own; Bootstrap's close "×", a <button> whose handler sits on
  // the document): such a control itself stays.  (rule tapped-though-hidden)
  if (el.getAttribute("aria-hidden") === "true" &&
      !(clicked(el) || tag === "BUTTON" || (el.hasAttribute("role") && TAP_ROLES.has(role)))) {
    return;
  }
  if (el.getAttribute("aria-hidden") === "true") shape("tapped-though-hidden");
  // inert: neither seen by assistive technology nor tapped (a page's hidden off-canvas drawer)
  if (el.hasAttribute("inert")) return;
  let geometryless = false;
  if (r.width === 0 && r.height === 0 && r.x === 0 && r.y === 0) {
    const cs = getComputedStyle(el);
    if (cs.display === "none") return;
    geometryless = cs.display === "contents";
    if (geometryless && LEAFISH.has(role) && role !== "heading") {
      // a control laid out as display: contents has no box of its own, but its content is where a person sees and
      // taps it (a chart legend's button: "has no place on the screen to touch" while its text showed)
      const range = document.createRange();
      range.selectNodeContents(el);
      const box = range.getBoundingClientRect();
      if (box.width > 0 && box.height > 0) { r = box; geometryless = false; }
    }
  }
  let flags = 0;
  let scrollable = false;
  let childClip = clip;
  if (!geometryless && overflows && ch > 0 && tag !== "HTML" && tag !== "BODY") {
    const cs = getComputedStyle(el);
    const oy = cs.overflowY, ox = cs.overflowX;
    if (oy === "auto" || oy === "scroll" || ox === "auto" || ox === "scroll") {
      scrollable = true;
      flags |= 64;
    }
    if (oy !== "visible" || ox !== "visible") {
      childClip = [Math.max(clip[0], r.x), Math.max(clip[1], r.y),
                   Math.min(clip[2], r.x + r.width), Math.min(clip[3], r.y + r.height)];
    }
  }
  flags |= statesOf(el, tag, role);
  if (drawn) { flags |= 8; if (drawn.disabled) flags |= 1; }
  if (standsFor) { flags |= 8; if (standsFor.disabled) flags |= 1; }
  [role, flags] = ruledRole(el, tag, role, r, flags);  // (rules slider-handle, message-box, calendar-day)
  let cs = null;
  if (tag !== "BODY" && tag !== "HTML") {
    // Not drawn, so not seen: content-visibility: hidden (its content), a transparent wrapper (opacity: 0, a
    // page's hidden footer; not a control drawn over by its own styling).  visibility: hidden / collapse hides
    // the element and its text, but a child may show again (visibility: visible): only the children are walked.
    cs = getComputedStyle(el);
    if (cs.contentVisibility === "hidden") return;
    // (rule transparent-wrapper)
    if (cs.opacity === "0" && tag !== "INPUT" && tag !== "SELECT" && tag !== "TEXTAREA") return;
    if (cs.visibility !== "visible") {
      for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
        walk(c, parent, childClip, tclip, depth + 1, inName, parentPointer);
        if (out.length >= maxNodes || cut) return;
      }
      return;
    }
  }
  let pointer = parentPointer;
  if (!outside && !geometryless && tag !== "BODY" && tag !== "HTML") {
    pointer = (cs || getComputedStyle(el)).cursor === "pointer";
    if (clickable(el, tag, role, r, pointer && !parentPointer) && shape("clickable")) {  // (rules clickable, …)
      role = classTab(el) && shape("tab-by-class") ? "tab" : "clickable";  // (rule tab-by-class)
      flags |= 8;
    }
  }
  if (!(flags & 4) && (role === "tab" || role === "clickable" || role === "link" || role === "button") &&
      !el.hasAttribute("aria-selected") && !el.hasAttribute("aria-pressed") && selectedByClass(el)) flags |= 4;
  const open = expandedOf(el, tag, role);
  if (open !== null) flags |= open ? 1024 : 2048;

  const ident = (standsFor && standsFor.id) || el.id || el.getAttribute("data-testid") || "";
  const interestingRole = role !== "generic" && role !== "none" && role !== "paragraph" &&
    role !== "LabelText" && role !== "main" && role !== "form" && role !== "group" && role !== "region";
  let name = "";
  let value = "";
  let self = parent;
  if (drawn) {
    name = toggleName(el, drawn);
    value = drawn.checked ? "1" : "0";
  } else if (standsFor) {
    name = nameOf(standsFor, "SELECT", "combobox");
    value = clean(textOf(el, 0));  // what the box shows
  } else if (!inName || LEAFISH.has(role) || ident) {
    name = nameOf(el, tag, role);
    if (borrowedName) flags |= 512;
    value = valueOf(el, tag, role, flags);
  }
  if (!inName && (role === "generic" || role === "paragraph") && !name && !(flags & 8) && !outside &&
      !geometryless && el.childElementCount === 0 && !el.shadowRoot) {
    // A text-only element (<span id="count">3</span>) is one StaticText that keeps the element's identifier.
    const t = clean(withGenerated(el, el.textContent));
    if (t) pushText(parent, t, ident, r, el, clip);
    return;
  }
  if (!inName && (role === "generic" || role === "paragraph" || role === "LabelText") && !name && !(flags & 8) &&
      !outside && !geometryless && !el.shadowRoot) {
    // A sentence with inline markup (Enter "<b>Dannie</b>" into…, <strong>1</strong> item left) is one line, with
    // its spaces, that keeps the element's identifier.  (rule sentence)
    const t = mergedText(el, 0);
    if (t !== null && clean(t)) {
      if (el.childElementCount) shape("sentence");
      pushText(parent, clean(t), ident, r, el, clip);
      return;
    }
  }
  const candidate = interestingRole || scrollable || name || ident || value || (flags & 8);
  let childTclip = tclip;
  if (candidate && !outside) {
    self = push(parent, role, name, ident, value, geometryless ? null : r, flags, el);
    if (!geometryless && r.width > 0 && r.height > 0) childTclip = hitTest(el, self, r, role, flags, tclip);
    if (shaped.length) shaped = [];  // (a name the hit test described is no rule of this row's children)
  } else if (candidate && outside) {
    self = parent;
  }
  const childInName = inName || NAME_FROM_CONTENT.has(role) || role === "textbox" || role === "searchbox" ||
    // (a message box named by its own text: its text is in the name; one named by its author still shows its text)
    (!!name && messageBox(el, role) && !el.hasAttribute("aria-label") && !el.hasAttribute("aria-labelledby")) ||
    (role === "combobox" && !!value);  // (a select-only combobox's text is its value)
  if (tag === "SELECT" && self !== parent) options(el, self, r, el.multiple || el.size > 1);
  if (standsFor && self !== parent) options(standsFor, self, r, false);
  if (tag === "SELECT" || tag === "TEXTAREA" || tag === "INPUT" || standsFor) return;
  // a slider's parts (its thumb, rail, value labels) are presentational (WAI-ARIA: children presentational): the
  // slider's line says its value (Quasar's thumb read as an unnamed Button under it, APG's temperature labels)
  if (role === "slider" && self !== parent) return;
  if ((tag === "IFRAME" || tag === "FRAME") && !outside && !geometryless) {
    walkFrame(el, self, r, clip, depth);  // (perception: a same-origin frame's document, in place)
    return;
  }
  // a text-only element's text has the element's box (no Range needed)
  const ownBox = el.childElementCount === 0 && !geometryless && !outside && !name ? r : null;
  walkChildren(el, self, childClip, childTclip, depth, childInName, pointer, ownBox);
}

function walkChildren(el, self, clip, tclip, depth, inName, pointer, ownBox) {
  // The element's children in the flat tree — a shadow host's shadow root (its text included), a slot's assigned
  // nodes or else its fallback content: what a person sees, in order (issue 23: "foo slotted bar" read as
  // "slotted") — a closed <details> shows its <summary> only (the rest is laid out but never painted); its text as
  // lines of their own where it is no part of a name.
  const shut = el.tagName === "DETAILS" && !el.open;
  const kids = flatChildren(el);
  for (let i = 0; i < kids.length; i++) {
    const c = kids[i];
    if (shut && !(c.nodeType === 1 && c.tagName === "SUMMARY")) continue;
    if (c.nodeType === 1) {
      walk(c, self, clip, tclip, depth + 1, inName, pointer);
    } else if (c.nodeType === 3 && !inName && c.data.trim()) {
      if (ownBox && !el.shadowRoot && c === el.firstChild && !c.nextSibling) {
        const t = clean(c.data);  // (no line for zero-width text)
        if (t) push(self, "StaticText", t, "", "", ownBox, 0, c);
      } else {
        textRun(self, c, clip);
      }
    }
    if (out.length >= maxNodes || cut) return;
  }
}

if (cfg.probe) return aim(cfg.probe[0], cfg.probe[1], cfg.probe[2] || null, cfg.probe[3] || null);
const root = document.documentElement;
const body = document.body || root;
// A modal dialog makes everything else inert: like the accessibility tree, show only the dialog.
let modal = null;
try { modal = document.querySelector("dialog:modal"); } catch (e) { modal = null; }
walk(modal || body, -1, SCREEN, SCREEN, 0, false, false);
if (culled.size && !modal && !cut) shownFromCulled();
serialOf(document);  // draws the document's id when nothing was pushed
// the screen (w, h, in points) and how the page is shown on it: its scale, the layout's size in client px and the
// part of it the screen shows (the visual viewport's page offsets and size)
const se = document.scrollingElement || root;
const changes = window[Symbol.for("phonewire.changes")];  // (changes.js: what changed the screen, counted)
if (HOLE_ELS.length || window[HOLES_KEY]) window[HOLES_KEY] = HOLE_ELS;  // (frames of another origin: frames.py)
return {w: VW * SCALE, h: VH * SCALE, title: document.title || "", url: location.href, ready: document.readyState,
        doc: serials.doc, nodes: out, cut: cut ? visits - 1 : 0, mark: changes ? changes.doc + ":" + changes.n : null,
        shown: {scale: SCALE, width: se.scrollWidth, height: se.scrollHeight, left: VV ? VV.pageLeft : scrollX,
                top: VV ? VV.pageTop : scrollY, visibleWidth: VW, visibleHeight: VH}, frames: HOLES};
