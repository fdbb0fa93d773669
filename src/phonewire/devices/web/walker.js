// phonewire in-page snapshot walk.  Evaluated once per snapshot as `(WALK)(maxNodes, cfg)`; returns
// {w, h, title, url, ready, doc, nodes} where each node is a compact array:
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
// ScrollView).  With cfg.probe = [x, y] the walk is skipped and the description of the element at that point is
// returned instead (what a tap there hits), or null.
// Culling: subtrees that lie outside the viewport (intersected with scroll-container clips) are not walked,
// unless they lie above or beside it and overflow their own box (content overflows downward and to the right).
(function (maxNodes, cfg, drawnSelect) {
  "use strict";
  const VW = window.innerWidth, VH = window.innerHeight;
  const out = [];
  const active = document.activeElement;
  const MAX_DEPTH = 200;
  const NAME_MAX = 1000;
  // Input types a person types into (the readonly attribute means something only for them).
  const TYPED_INPUTS = new Set(["text", "search", "email", "tel", "url", "password", "number", "date", "time",
    "datetime-local", "month", "week"]);
  const NAME_FROM_CONTENT = new Set([
    "button", "link", "heading", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "checkbox",
    "radio", "switch", "treeitem", "cell", "gridcell", "columnheader", "rowheader", "tooltip", "row",
    "PopUpButton", "DisclosureTriangle", "clickable",
  ]);
  const LEAFISH = new Set(["button", "link", "heading", "tab", "menuitem", "option", "switch", "checkbox", "radio",
    "treeitem", "gridcell", "img", "image", "textbox", "searchbox", "combobox", "slider", "spinbutton",
    "PopUpButton", "clickable"]);
  const INPUT_ROLES = {
    button: "button", submit: "button", reset: "button", image: "button", checkbox: "checkbox", radio: "radio",
    range: "slider", number: "spinbutton", search: "searchbox", text: "textbox", email: "textbox",
    tel: "textbox", url: "textbox", password: "textbox", "": "textbox",
  };
  const SECTIONING = "article,aside,main,nav,section";
  // Elements given click-like listeners (walk.py's CLICKERS_JS records them from before the page's scripts run).
  const CLICKERS = window[Symbol.for("phonewire.clickers")] || null;
  // Inline elements whose text joins the sentence around them (one StaticText for a line with bold words).
  const INLINE = new Set(["SPAN", "B", "I", "EM", "STRONG", "SMALL", "CODE", "MARK", "U", "S", "SUB", "SUP", "ABBR",
    "CITE", "Q", "KBD", "TIME", "FONT", "BDI", "DFN", "VAR", "SAMP", "INS", "DEL"]);
  // Words of an icon's class that say nothing about what it does.
  const NOISE = new Set(["icon", "icons", "fa", "fas", "far", "fab", "fal", "glyphicon", "material", "symbols",
    "outlined", "btn", "button", "bi", "ion", "svg", "ui", "js", "is", "has", "lg", "sm", "md", "xs", "xl", "fw",
    "inline", "block", "flex", "hidden", "active", "selected", "pull", "left", "right", "img", "image", "wrapper",
    "container", "item", "link", "clickable", "pointer", "cursor", "action", "actions", "el", "c", "x",
    // layout and spacing words, and the prefixes of widget libraries (xdsoft_prev, backdrop-ux)
    "align", "middle", "center", "float", "text", "nowrap", "me", "ms", "mx", "my", "mt",
    "mb", "px", "py", "pt", "pb", "xdsoft", "ux", "available", "mdi", "ti"]);
  // An icon font's class (fa-times, bi-trash, glyphicon-search): its word says what the icon shows.
  const ICON_CLASS = /^(?:fa|fas|far|fab|fal|bi|glyphicon|icon|ion|mdi|ti)-([a-z][a-z-]*)$/;
  // Icons whose word is the shape, not the meaning (a "×").
  const ICON_MEANING = {times: "close", xmark: "close", remove: "close", multiply: "close"};
  const INTERACTIVE_SELECTOR = "a[href],button,input,select,textarea,summary,[role=button],[role=link]," +
    "[role=checkbox],[role=tab],[role=menuitem],[role=option],[tabindex],[onclick],[contenteditable=true]";
  // A calendar's day: a table cell that a date picker serves through a handler on the calendar (daterangepicker's
  // td.available, bootstrap-datepicker's td.day, xdsoft's td.xdsoft_date, a data-date).
  // (daterangepicker's month arrows are th.available too)
  const SERVED_CELL = "td.available,td.day,td[data-date],td[data-day],td.xdsoft_date,th.available";
  // A closed <select> lists at most this many options (geometry-less: they show only when it opens).
  const MAX_OPTIONS = 50;
  const SERIALS_KEY = Symbol.for("phonewire.serials");
  let serials = null;

  function serialOf(node) {
    if (!node) return 0;
    if (serials === null) {
      serials = document[SERIALS_KEY];
      if (!serials) {
        serials = {doc: Math.random().toString(36).slice(2, 10), n: 0, of: new WeakMap()};
        Object.defineProperty(document, SERIALS_KEY, {value: serials});
      }
    }
    let s = serials.of.get(node);
    if (s === undefined) { s = ++serials.n; serials.of.set(node, s); }
    return s;
  }

  function clean(s) {
    if (!s) return "";
    // zero-width characters (spaces, joiners, byte-order marks) that break up a name but draw nothing
    s = s.replace(/[\u200b-\u200d\u2060\ufeff]/g, "").replace(/\s+/g, " ").trim();
    return s.length > NAME_MAX ? s.slice(0, NAME_MAX) : s;
  }

  function implicitRole(el, tag) {
    switch (tag) {
      case "A": case "AREA": return el.hasAttribute("href") ? "link" : "generic";
      case "BUTTON": return "button";
      case "INPUT": {
        const t = (el.getAttribute("type") || "").toLowerCase();
        if (t === "hidden") return "none";
        if (t === "text" || t === "" || t === "email" || t === "tel" || t === "url" || t === "search") {
          if (el.list) return "combobox"; // a list naming no datalist is a text field (findings 3, E16)
        }
        return INPUT_ROLES[t] || "textbox";
      }
      case "TEXTAREA": return "textbox";
      case "SELECT": return (el.multiple || el.size > 1) ? "listbox" : "combobox";
      case "OPTION": return "option";
      case "IMG": return el.getAttribute("alt") === "" ? "none" : "image";
      case "SVG": case "svg": return "generic";
      case "H1": case "H2": case "H3": case "H4": case "H5": case "H6": return "heading";
      case "UL": case "OL": case "MENU": return "list";
      case "LI": return "listitem";
      case "NAV": return "navigation";
      case "MAIN": return "main";
      case "HEADER": return el.closest(SECTIONING) ? "generic" : "banner";
      case "FOOTER": return el.closest(SECTIONING) ? "generic" : "contentinfo";
      case "ASIDE": return "complementary";
      case "ARTICLE": return "article";
      case "SECTION": return (el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby")) ? "region" : "generic";
      case "FORM": return "form";
      case "DIALOG": return "dialog";
      case "TABLE": return "table";
      case "TR": return "row";
      case "TD": return "cell";
      case "TH": return "columnheader";
      case "PROGRESS": return "progressbar";
      case "METER": return "meter";
      case "FIELDSET": return "group";
      case "DETAILS": return "group";
      case "SUMMARY": return "DisclosureTriangle";
      case "LABEL": return "LabelText";
      case "P": return "paragraph";
      case "IFRAME": return "Iframe";
      case "HR": return "separator";
      case "SCRIPT": case "STYLE": case "TEMPLATE": case "NOSCRIPT": case "HEAD": case "META": case "LINK":
        return "none";
      default: return "generic";
    }
  }

  function roleOf(el, tag) {
    const explicit = el.getAttribute("role");
    // An editable region stays a text field whatever its role says (a code editor marks its lines
    // role=presentation; ARIA ignores that role on a focusable element).
    const editable = el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable);
    if (explicit) {
      const first = explicit.trim().split(/\s+/)[0].toLowerCase();
      if ((first === "presentation" || first === "none") && !editable) return "none";
      if (first && first !== "presentation" && first !== "none") return first;
    }
    if (editable) return "textbox";
    return implicitRole(el, tag);
  }

  function generated(el, which) {
    // The text CSS draws before or after an element (::before / ::after `content`: quoted strings and attr()),
    // icon-font glyphs (private-use characters) left out.
    const cs = getComputedStyle(el, which);
    const v = cs.content;
    if (!v || v === "none" || v === "normal" || cs.display === "none" || cs.visibility === "hidden") return "";
    if (/(^|\s)counters?\(/.test(v)) return "";  // a counter's number is not in the computed value: leave it all out
    let s = "";
    for (const m of v.matchAll(/"((?:[^"\\]|\\.)*)"|attr\(\s*([\w-]+)\s*\)/g)) {
      s += m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (el.getAttribute(m[2]) || "");
    }
    return s.replace(/[\ue000-\uf8ff]/g, "").trim();
  }

  function withGenerated(el, text) {
    // An element's own text with what CSS draws around it, as a person reads it.
    const before = generated(el, "::before"), after = generated(el, "::after");
    return (before ? before + " " : "") + text + (after ? " " + after : "");
  }

  function textOf(node, depth, item) {
    // Name from content: text, alt of images, aria-label of descendants, CSS generated text; hidden parts skipped.
    // item: the name of a tree or list item, which leaves out its nested list (its children are items of their own).
    if (depth > 20) return "";
    let s = "";
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) { s += c.data; continue; }
      if (c.nodeType !== 1 || c === namedControl) continue;
      if (c.hidden || c.getAttribute("aria-hidden") === "true") continue;
      const tag = c.tagName;
      if (tag === "SCRIPT" || tag === "STYLE" || tag === "TEMPLATE" || tag === "NOSCRIPT" || tag === "style" ||
          tag === "script") continue;  // (lower-case: an inline SVG's own)
      if (item && (tag === "UL" || tag === "OL" || /^(group|tree)$/.test(c.getAttribute("role") || ""))) continue;
      // not rendered (display: none; no boxes, and not a display: contents wrapper) or invisible: not heard
      // either — a label per theme of which one shows names the element once; a visually hidden one still does
      if (!c.getClientRects().length) {
        if (getComputedStyle(c).display !== "contents") continue;
      } else if (!c.checkVisibility({visibilityProperty: true})) continue;
      const al = c.getAttribute("aria-label");
      if (al) { s += " " + al + " "; continue; }
      if (tag === "IMG") { s += " " + (c.getAttribute("alt") || "") + " "; continue; }
      if (tag === "INPUT") {
        // embedded controls: a text field contributes its value; checkboxes, radios and files nothing
        const t = (c.getAttribute("type") || "text").toLowerCase();
        if (t !== "checkbox" && t !== "radio" && t !== "file" && t !== "hidden" && t !== "image") s += " " + (c.value || "") + " ";
        continue;
      }
      if (tag === "TEXTAREA") { s += " " + (c.value || "") + " "; continue; }
      if (tag === "SELECT") { const o = c.selectedOptions && c.selectedOptions[0]; s += " " + (o ? o.textContent : "") + " "; continue; }
      const inline = tag === "SPAN" || tag === "B" || tag === "I" || tag === "EM" || tag === "STRONG" || tag === "A";
      const inner = withGenerated(c, textOf(c, depth + 1, item));
      s += inline ? inner : " " + inner + " ";
    }
    return s;
  }

  function classWords(el) {
    // "fa fa-reply" → "reply"; an icon inside the element counts too (<span class="icon-trash">), and before the
    // element's own layout classes (<a class="align-middle"><span class="fa fa-times"> → "close").
    for (let e = el, i = 0; e && i < 3; e = e.firstElementChild, i++) {
      const cls = typeof e.className === "string" ? e.className : (e.getAttribute && e.getAttribute("class")) || "";
      for (const part of cls.toLowerCase().split(/\s+/)) {
        const m = ICON_CLASS.exec(part);
        if (m && !NOISE.has(m[1])) return ICON_MEANING[m[1]] || m[1].replace(/-/g, " ");
      }
    }
    const words = [];
    for (let e = el, i = 0; e && i < 3; e = e.firstElementChild, i++) {
      const cls = typeof e.className === "string" ? e.className : (e.getAttribute && e.getAttribute("class")) || "";
      for (const part of cls.toLowerCase().split(/[\s_-]+/)) {
        if (part.length > 1 && !NOISE.has(part) && !/\d/.test(part) && !words.includes(part)) words.push(part);
      }
      if (words.length >= 3) break;
    }
    return words.slice(0, 3).join(" ");
  }

  function iconName(el) {
    // The best name an element without text offers: a descendant's title or aria-label, an SVG <title>.
    const t = el.querySelector("[title],[aria-label]");
    if (t) {
      const v = clean(t.getAttribute("aria-label") || t.getAttribute("title"));
      if (v) return v;
    }
    const st = el.querySelector("svg title");
    return st ? clean(st.textContent) : "";
  }

  function byIds(ids) {
    let s = "";
    for (const id of ids.trim().split(/\s+/)) {
      const r = document.getElementById(id);
      if (r) s += " " + (r.getAttribute("aria-label") || textOf(r, 0));
    }
    return clean(s);
  }

  // The control a label around it names: its own value is no part of its name (Gradio's textbox sits inside its
  // <label>; named with its value, its name and so its ref changed with every fill: findings 4, F6).
  let namedControl = null;

  function labelFor(el) {
    let s = "";
    if (el.labels && el.labels.length) {
      namedControl = el;
      try {
        for (const l of el.labels) s += " " + textOf(l, 0);
      } finally {
        namedControl = null;
      }
    }
    return clean(s);
  }

  function rowText(node, depth) {
    // The text a row shows, without its controls (their values, a hidden edit field) and unrendered parts.
    if (depth > 20) return "";
    let s = "";
    for (let c = node.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) { s += c.data; continue; }
      if (c.nodeType !== 1 || c.hidden || c.getAttribute("aria-hidden") === "true") continue;
      const tag = c.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || tag === "BUTTON" || tag === "SCRIPT" ||
          tag === "STYLE" || tag === "TEMPLATE" || tag === "style" || c.getClientRects().length === 0) continue;
      s += " " + rowText(c, depth + 1) + " ";
    }
    return s;
  }

  function rowName(el) {
    // A checkbox, radio or switch without a name of its own is heard with its row: the text of the nearest list
    // item or table row (up to 6 levels up) that holds it, without the row's controls.
    for (let e = el.parentElement, i = 0; e && i < 6; e = e.parentElement, i++) {
      const role = (e.getAttribute("role") || "").trim().toLowerCase();
      if (e.tagName === "LI" || e.tagName === "TR" || role === "row" || role === "listitem") {
        return clean(rowText(e, 0));
      }
    }
    return "";
  }

  // Set by nameOf: whether the name it returned last was borrowed from the row (rowName).
  let borrowedName = false;

  function nameOf(el, tag, role) {
    const own = ownName(el, tag, role);
    borrowedName = false;
    if (own || !(role === "checkbox" || role === "radio" || role === "switch")) return own;
    const row = rowName(el);
    borrowedName = !!row;
    return row;
  }

  function ownName(el, tag, role) {
    const lb = el.getAttribute("aria-labelledby");
    if (lb) { const n = byIds(lb); if (n) return n; }
    const al = el.getAttribute("aria-label");
    if (al && al.trim()) return clean(al);
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || tag === "METER" || tag === "PROGRESS") {
      const t = (el.getAttribute("type") || "").toLowerCase();
      if (tag === "INPUT" && (t === "button" || t === "submit" || t === "reset")) {
        return clean(el.value || (t === "submit" ? "Submit" : t === "reset" ? "Reset" : ""));
      }
      if (tag === "INPUT" && t === "image") return clean(el.getAttribute("alt") || el.value || "Submit");
      const n = labelFor(el);
      if (n) return n;
      const title = el.getAttribute("title");
      if (title) return clean(title);
      return clean(el.getAttribute("placeholder") || "");
    }
    if (tag === "IMG") return clean(el.getAttribute("alt") || el.getAttribute("title") || "");
    if (tag === "FIELDSET") { const lg = el.querySelector(":scope > legend"); if (lg) return clean(textOf(lg, 0)); }
    if (tag === "DIALOG" || role === "dialog" || role === "alertdialog") {
      return clean(el.getAttribute("title") || "");
    }
    if (NAME_FROM_CONTENT.has(role) || (role === "listitem" && clicked(el)) || messageBox(el, role)) {
      // (a list item with a click handler of its own is a menu entry: named by its text, like a button)
      const n = clean(withGenerated(el, textOf(el, 0, role === "treeitem" || role === "listitem")));
      if (n) return n;
    }
    const title = clean(el.getAttribute("title") || "");
    if (title || !(role === "button" || role === "link" || role === "clickable")) return title;
    // (an expander drawn without ARIA is named for what it is; its state is a flag, not a class word)
    if (el.ownerSVGElement) return iconName(el) || shapeName(el);
    return iconName(el) || (expanderState(el) !== null ? "expander" : classWords(el));
  }

  // Class words of an expander drawn without ARIA (jQuery treeview's <div class="hitarea expandable-hitarea">, a
  // twisty, a caret) and the words that tell its state, on it or on its tree item.
  const EXPANDER_WORDS = new Set(["hitarea", "expander", "toggle", "toggler", "twisty", "twistie", "caret", "chevron",
    "arrow", "disclosure", "expand", "collapse", "expandable", "collapsable", "collapsible", "collapsed", "expanded"]);
  const CLOSED_WORDS = new Set(["expandable", "collapsed", "closed"]);
  const OPEN_WORDS = new Set(["collapsable", "expanded", "open", "opened"]);

  function classSet(el) {
    const cls = typeof el.className === "string" ? el.className : (el.getAttribute && el.getAttribute("class")) || "";
    return new Set(cls.toLowerCase().split(/[\s_-]+/).filter(Boolean));
  }

  function treeItemOf(el) {
    // The tree item an element belongs to: the nearest list item or role=treeitem, up to 2 levels up.
    for (let e = el.parentElement, i = 0; e && i < 2; e = e.parentElement, i++) {
      const role = (e.getAttribute("role") || "").trim().toLowerCase();
      if (e.tagName === "LI" || role === "treeitem") return e;
    }
    return null;
  }

  function expanderState(el) {
    // An element without text that opens and closes its tree item: true (open) / false (closed) / null (not one).
    // Its state from its classes or its item's (expandable → closed, collapsable/expanded/open → open), else the
    // item's aria-expanded, else whether the item's nested list shows.
    const own = classSet(el);
    if (![...own].some((w) => EXPANDER_WORDS.has(w))) return null;
    const item = treeItemOf(el);
    if (!item) return null;
    for (const words of [own, classSet(item)]) {
      for (const w of words) {
        if (CLOSED_WORDS.has(w)) return false;
        if (OPEN_WORDS.has(w)) return true;
      }
    }
    const a = item.getAttribute("aria-expanded");
    if (a === "true" || a === "false") return a === "true";
    const nested = item.querySelector(":scope > ul, :scope > ol, :scope > [role=group]");
    return nested ? nested.getClientRects().length > 0 : null;
  }

  function expandedOf(el, tag, role) {
    // Whether the element is open (true), closed (false) or neither (null): aria-expanded, a <summary>'s
    // <details>, else an expander drawn without ARIA.
    const a = el.getAttribute("aria-expanded");
    if (a === "true" || a === "false") return a === "true";
    if (tag === "SUMMARY" && el.parentElement && el.parentElement.tagName === "DETAILS") return el.parentElement.open;
    if (role === "button" || role === "clickable" || role === "treeitem") {
      if (!(el.textContent || "").trim()) return expanderState(el);
    }
    return null;
  }

  function backdrop(el) {
    // A modal's backdrop or a widget's mask (backdrop-ux, select2-drop-mask, modal-backdrop): what covers the
    // page while something is open, no button of its own.
    const cls = typeof el.className === "string" ? el.className.toLowerCase() : "";
    return /backdrop|(^|[\s_-])(mask|scrim|overlay)([\s_-]|$)/.test(cls) && !clean(el.textContent);
  }

  function messageBox(el, role) {
    // An alert or status that is one message (short, no list, table, heading or field inside): named by its text.
    // A live region around a whole list of results is no message: its content keeps its own lines.
    return (role === "alert" || role === "status") && (el.textContent || "").length <= 300 &&
      !el.querySelector("li,tr,h1,h2,h3,h4,h5,h6,input,select,textarea");
  }

  function clicked(el) {
    return (CLICKERS !== null && CLICKERS.has(el)) || el.onclick !== null;
  }

  function sameAsControl(el) {
    // The content of a button or link that a listener was put on (Quasar's QBtn adds its press-end listeners to
    // the element the press started on, its content span): the same control a second time, not a button inside
    // it (findings 3, E18).
    const a = el.parentElement && el.parentElement.closest(
      "button, a[href], summary, [role=button], [role=link], [role=menuitem], [role=tab]");
    return !!a && clean(a.textContent || "") === clean(el.textContent || "");
  }

  function holdsClicker(el) {
    // A descendant with a click handler of its own (a menu's entries inside the element that opens it): the
    // element delegates, it is no button itself.  Bounded: an element with more descendants than this is no
    // button either way (its text is long).
    const all = el.getElementsByTagName("*");
    for (let i = 0; i < all.length && i < 200; i++) if (clicked(all[i])) return true;
    return false;
  }

  function servedCell(td) {
    // A calendar day a person taps (SERVED_CELL, no control inside) whose click handler is its own, on the calendar
    // around it (delegated, up to 8 levels up), or that the page marks with a pointer.
    if (!td.matches(SERVED_CELL) || td.querySelector(INTERACTIVE_SELECTOR)) return false;
    for (let a = td, i = 0; a && i < 9 && a.tagName !== "BODY"; a = a.parentElement, i++) if (clicked(a)) return true;
    return getComputedStyle(td).cursor === "pointer";
  }

  function shapeName(el) {
    // A clickable shape inside an <svg> (a circle, a polygon): its <title>, else its id, else its kind.
    const t = el.querySelector(":scope > title");
    return (t && clean(t.textContent)) || clean(el.id) || el.tagName.toLowerCase();
  }

  function sliderHandle(el) {
    // A slider's handle that a widget library draws without ARIA (jQuery UI's <span class="ui-slider-handle">).
    const cls = typeof el.className === "string" ? el.className : "";
    return /(^|\s)(ui-slider-handle|slider-handle|noUi-handle)(\s|$)/.test(cls);
  }

  function handleValue(el) {
    // What a handle without aria-valuenow stands at: the widget's own value (jQuery UI), else its place along the
    // track, in per cent.
    const host = el.parentElement;
    const jq = window.jQuery;
    try {
      const inst = jq && host && jq.data ? jq.data(host, "ui-slider") : null;
      if (inst && typeof inst.value === "function") {
        const handles = host.querySelectorAll(":scope > .ui-slider-handle");
        if (handles.length > 1 && typeof inst.values === "function") {
          return String(inst.values(Array.prototype.indexOf.call(handles, el)));
        }
        return String(inst.value());
      }
    } catch (e) { /* not a jQuery UI slider after all: fall back to the place */ }
    if (!host) return "";
    const hr = host.getBoundingClientRect(), r = el.getBoundingClientRect();
    const vertical = hr.height > hr.width;
    const span = vertical ? hr.height : hr.width;
    if (!(span > 0)) return "";
    const at = vertical ? (hr.y + hr.height - (r.y + r.height / 2)) / span : (r.x + r.width / 2 - hr.x) / span;
    return Math.round(Math.min(Math.max(at, 0), 1) * 100) + "%";
  }

  function mergedText(el, depth) {
    // The text of an element whose children are text and plain inline elements (a sentence with bold words),
    // with the spaces it has; null when a child is anything else (a control, an identified element, a block).
    let s = "";
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) { s += c.data; continue; }
      if (c.nodeType !== 1) continue;
      if (c.tagName === "BR") { s += " "; continue; }
      if (depth > 3 || !INLINE.has(c.tagName) || c.id || c.hasAttribute("data-testid") || c.hasAttribute("role") ||
          c.hasAttribute("tabindex") || c.onclick !== null || (CLICKERS && CLICKERS.has(c)) || c.hidden ||
          c.getAttribute("aria-hidden") === "true" || c.getClientRects().length === 0) return null;
      const cs = getComputedStyle(c);
      if (cs.cursor === "pointer" && getComputedStyle(el).cursor !== "pointer") return null;
      if ((cs.display !== "inline" && cs.display !== "inline-block") || cs.visibility === "hidden") return null;
      const inner = mergedText(c, depth + 1);
      if (inner === null) return null;
      s += inner;
    }
    return s;
  }

  function valueOf(el, tag, role, flags) {
    if (role === "switch" || role === "checkbox" || role === "radio" || role === "menuitemcheckbox") {
      if (tag === "INPUT") return el.checked ? "1" : "0";
      const c = el.getAttribute("aria-checked");
      return c === "true" ? "1" : c === "mixed" ? "2" : "0";
    }
    if (role === "slider" || role === "spinbutton" || role === "progressbar" || role === "meter" || role === "scrollbar") {
      const vt = el.getAttribute("aria-valuetext");
      if (vt) return clean(vt);
      const vn = el.getAttribute("aria-valuenow");
      if (vn !== null) return vn;
      if (tag !== "INPUT" && sliderHandle(el)) return handleValue(el);
      return el.value !== undefined && el.value !== null ? String(el.value) : "";
    }
    if (tag === "INPUT" || tag === "TEXTAREA") {
      const v = el.value || "";
      if (flags & 16) return "\u2022".repeat(v.length);
      return v.length > NAME_MAX ? v.slice(0, NAME_MAX) : v;
    }
    if (tag === "SELECT") {
      const o = el.selectedOptions && el.selectedOptions[0];
      return o ? clean(o.textContent) : "";
    }
    if (flags & 128) return clean(editorText(el).replace(/\u200b/g, ""));
    return "";
  }

  const TAP_ROLES = new Set(cfg.tapRoles), CLIP_ROLES = new Set(cfg.clipRoles), PLAIN = new Set(cfg.plainRoles);
  const DULL = new Set(["generic", "none", "paragraph", "LabelText", "main", "form"]);

  function describe(el) {
    // What a person would call the element at a point: the nearest of it and its ancestors (up to 6 levels) that
    // has a role, a name or an id; else the element itself, by its classes.
    let e = el;
    for (let i = 0; e && i < 6; i++, e = e.parentElement) {
      const tag = e.tagName, role = roleOf(e, tag);
      const name = DULL.has(role) && !e.id ? "" : nameOf(e, tag, role);
      if (!DULL.has(role) || name || e.id) return [role, name.slice(0, 60), e.id || "", ""];
    }
    const cls = typeof el.className === "string" ? el.className.trim().split(/\s+/).slice(0, 2).join(" ") : "";
    return [roleOf(el, el.tagName), "", "", cls || el.tagName.toLowerCase()];
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
    if (!(x >= 0 && y >= 0 && x < VW && y < VH)) return null;
    const hit = hitAt(x, y, el);
    if (reaches(hit, el)) return null;
    // The centre is under something else: try the centres of the left, right, top and bottom thirds of the part
    // that shows (at most 4 more hit tests); the first that reaches the element is where a tap on it lands.
    const w6 = (x1 - x0) / 6, h6 = (y1 - y0) / 6;
    const tries = [[x0 + w6, y], [x1 - w6, y], [x, y0 + h6], [x, y1 - h6]];
    for (let i = 0; i < tries.length; i++) {
      const px = tries[i][0], py = tries[i][1];
      if (!(px >= 0 && py >= 0 && px < VW && py < VH)) continue;
      if (reaches(hitAt(px, py, el), el)) return {tap: [px, py]};
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

  function tiny(el) {
    // Not drawn as itself: no box, a box under 4 px a side, or invisible (a styled checkbox's real input).
    const r = el.getBoundingClientRect();
    if (r.width < 4 || r.height < 4) return true;
    const cs = getComputedStyle(el);
    if (cs.visibility === "hidden" || cs.display === "none") return true;
    // or clipped away by a box under 4 px around it (the "visually hidden" wrapper of React Aria, which Streamlit
    // draws its radios and checkboxes with: the input keeps its 13-px box inside a 1-px one; findings 4, F2)
    const p = el.parentElement;
    if (!p) return false;
    const pr = p.getBoundingClientRect();
    return (pr.width < 4 || pr.height < 4) && getComputedStyle(p).overflow !== "visible";
  }

  function hiddenToggle(el) {
    // A checkbox or radio input that a label draws instead (the input hidden, the label styled).
    if (!el || el.tagName !== "INPUT") return false;
    const t = (el.getAttribute("type") || "").toLowerCase();
    return (t === "checkbox" || t === "radio") && el.labels && el.labels.length > 0 && tiny(el);
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

  function editorText(el) {
    // The text an editable region shows: its lines (one per block), without a code editor's gutters and line
    // numbers (contenteditable=false), or hidden parts (measuring elements, cursors).
    let s = "";
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) { s += c.data; continue; }
      if (c.nodeType !== 1 || c.tagName === "TEXTAREA" || c.getAttribute("aria-hidden") === "true" ||
          c.getAttribute("contenteditable") === "false") continue;
      const cls = typeof c.className === "string" ? c.className : "";
      if (/gutter|line-?number|(^|\s)margin(\s|$)/i.test(cls)) continue;
      const cs = getComputedStyle(c);
      if (cs.display === "none" || cs.visibility === "hidden") continue;
      s += editorText(c) + (cs.display === "block" ? "\n" : "");
      if (s.length > 2 * NAME_MAX) break;  // more than a value holds: the rest of a long document is not read
    }
    return s;
  }

  function push(parent, role, name, ident, value, r, flags, node) {
    out.push([parent, role, name, ident, value, r ? r.x : 0, r ? r.y : 0, r ? r.width : 0, r ? r.height : 0, flags,
              serialOf(node)]);
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
    push(parent, "StaticText", t, "", "", r, 0, node);
  }

  // Subtrees the walk left out as off screen.  An element of one may still show: a position: fixed one (a chat
  // button, a toast, a modal placed in a footer below the screen) is laid out against the viewport, and no overflow
  // of its ancestors says so.  shownFromCulled() finds those and walks them as subtrees of their own.
  const culled = new Set();
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
    for (let x = 4; x < VW - 4; x += SWEEP_PX) xs.push(x);
    for (let y = 4; y < VH - 4; y += SWEEP_PX) ys.push(y);
    xs.push(VW - 4); ys.push(VH - 4);
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
      if (!(r.width > 0 && r.height > 0 && r.x < VW && r.y < VH && r.x + r.width > 0 && r.y + r.height > 0)) continue;
      if (shown.some((s) => s.contains(el))) continue;
      shown.push(el);
      if (out.length >= maxNodes) return;
      walk(el, -1, [0, 0, VW, VH], [0, 0, VW, VH], 0, false, false);
    }
  }

  function walk(el, parent, clip, tclip, depth, inName, parentPointer) {
    if (out.length >= maxNodes || depth > MAX_DEPTH) return;
    const tag = el.tagName;
    const r = el.getBoundingClientRect();
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
    if (outside && !overflows && el.childElementCount < 50) { culled.add(el); return; }
    if (el.hidden && tag !== "svg") return;
    let role = roleOf(el, tag);
    const drawn = tag === "LABEL" && hiddenToggle(el.control) ? el.control : null;
    if (drawn) role = (drawn.getAttribute("type") || "").toLowerCase();
    else if (tag === "INPUT" && hiddenToggle(el)) return;  // its label stands for it
    // A select a library hides and draws a box for (drawn_select.js): the box is the select, the select is left out.
    const stand = drawnSelect(el, true);
    if (stand && tag === "SELECT") return;
    // ... and its <label>, apart from the select, that only names it: the box's name says it (findings 3, E6)
    if (tag === "LABEL" && el.control && el.control.tagName === "SELECT" && !el.contains(el.control) &&
        drawnSelect(el.control, true) && clean(el.textContent) === nameOf(el.control, "SELECT", "combobox")) return;
    const standsFor = stand ? stand.select : null;
    if (standsFor) role = "combobox";
    if (role === "none" && (tag === "SCRIPT" || tag === "STYLE" || tag === "TEMPLATE" || tag === "HEAD" ||
        tag === "NOSCRIPT" || (tag === "INPUT"))) return;  // (JavaScript is on: <noscript> is text never drawn)
    if (tag === "style" || tag === "script") return;  // an inline SVG's style sheet or script (SVG tags keep their case)
    // Hidden from assistive technology, but a person still taps it (jQuery UI's spinner arrows: aria-hidden links
    // with role=button, or a click handler of their own; Bootstrap's close "×", a <button> whose handler sits on
    // the document): such a control itself stays.
    if (el.getAttribute("aria-hidden") === "true" &&
        !(clicked(el) || tag === "BUTTON" || (el.hasAttribute("role") && TAP_ROLES.has(role)))) {
      return;
    }
    // inert: neither seen by assistive technology nor tapped (a page's hidden off-canvas drawer)
    if (el.hasAttribute("inert")) return;
    let geometryless = false;
    if (r.width === 0 && r.height === 0 && r.x === 0 && r.y === 0) {
      const cs = getComputedStyle(el);
      if (cs.display === "none") return;
      geometryless = cs.display === "contents";
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
    if (tag === "INPUT" && (el.getAttribute("type") || "").toLowerCase() === "password") flags |= 16;
    if (tag === "TEXTAREA" || (role === "textbox" && el.getAttribute("aria-multiline") === "true")) flags |= 32;
    if (el.isContentEditable && role === "textbox") flags |= 128 | 32;
    if (el === active && tag !== "BODY" && tag !== "HTML") flags |= 2;
    if (((tag === "TEXTAREA" || (tag === "INPUT" && TYPED_INPUTS.has((el.type || "").toLowerCase()))) &&
         el.readOnly) || el.getAttribute("aria-readonly") === "true") flags |= 256;
    if (el.getAttribute("aria-disabled") === "true" || (("disabled" in el) && el.matches(":disabled"))) flags |= 1;
    const sel = el.getAttribute("aria-selected");
    if (sel === "true" || (tag === "OPTION" && el.selected)) flags |= 4;
    if (el.hasAttribute("tabindex") || el.onclick !== null) flags |= 8;
    if (drawn) { flags |= 8; if (drawn.disabled) flags |= 1; }
    if (standsFor) { flags |= 8; if (standsFor.disabled) flags |= 1; }
    // A clickable element without a role (a click listener, onclick, or where cursor:pointer starts) that holds no
    // control of its own: a button to a person.  One that holds controls delegates their clicks: it stays generic.
    if ((role === "generic" || role === "none") && sliderHandle(el)) {
      role = "slider";
      flags |= 8;
    }
    // A message box without a role (Bootstrap's .alert, a flash message, an aria-live region): a status, named by
    // its text, that the interactive view keeps.
    if (role === "generic" && (/(^|\s)(alert|flash)(\s|$)/.test(typeof el.className === "string" ? el.className : "") ||
        /^(polite|assertive)$/.test(el.getAttribute("aria-live") || "")) && r.width >= 4 && r.height >= 4 &&
        messageBox(el, "status")) {
      role = "status";
    }
    // A calendar's days are cells of their own (named by their day), and their week row stands for none of them.
    if ((tag === "TD" || tag === "TH") && !el.hasAttribute("role") && servedCell(el)) {
      role = clean(el.textContent) ? "gridcell" : "clickable";  // (an arrow drawn by CSS: named by its class)
      flags |= 8;
      if (/(^|[\s_-])disabled(\s|$)/.test(typeof el.className === "string" ? el.className : "")) flags |= 1;
    } else if (tag === "TR" && role === "row" && !el.hasAttribute("role") && !clicked(el)) {
      const table = el.closest("table"), day = table ? table.querySelector(SERVED_CELL) : null;
      if (day && servedCell(day)) role = "generic";  // (the header rows of a calendar too)
    }
    let cs = null;
    if (tag !== "BODY" && tag !== "HTML") {
      // Not drawn, so not seen: content-visibility: hidden (its content), a transparent wrapper (opacity: 0, a
      // page's hidden footer; not a control drawn over by its own styling).  visibility: hidden / collapse hides
      // the element and its text, but a child may show again (visibility: visible): only the children are walked.
      cs = getComputedStyle(el);
      if (cs.contentVisibility === "hidden") return;
      if (cs.opacity === "0" && tag !== "INPUT" && tag !== "SELECT" && tag !== "TEXTAREA") return;
      if (cs.visibility !== "visible") {
        for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
          walk(c, parent, childClip, tclip, depth + 1, inName, parentPointer);
          if (out.length >= maxNodes) return;
        }
        return;
      }
    }
    let pointer = parentPointer;
    if (!outside && !geometryless && tag !== "BODY" && tag !== "HTML") {
      pointer = (cs || getComputedStyle(el)).cursor === "pointer";
      if ((role === "generic" || role === "none" || role === "paragraph") && tag !== "LABEL" &&
          ((CLICKERS && CLICKERS.has(el)) || el.onclick !== null || (pointer && !parentPointer)) &&
          r.width > 0 && r.height > 0 && (el.textContent || "").length <= 300 &&
          !el.querySelector(INTERACTIVE_SELECTOR) && !holdsClicker(el) && !el.querySelector(SERVED_CELL) &&
          !backdrop(el) && !sameAsControl(el)) {
        role = "clickable";
        flags |= 8;
      }
    }
    const open = expandedOf(el, tag, role);
    if (open !== null) flags |= open ? 1024 : 2048;

    const ident = (standsFor && standsFor.id) || el.id || el.getAttribute("data-testid") || "";
    const interestingRole = role !== "generic" && role !== "none" && role !== "paragraph" &&
      role !== "LabelText" && role !== "main" && role !== "form" && role !== "group" && role !== "region";
    let name = "";
    let value = "";
    let self = parent;
    if (drawn) {
      // the control's own aria-label names it (Streamlit's checkbox has one inside a label that shows the same words)
      name = clean(drawn.getAttribute("aria-label") || textOf(el, 0));
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
        !geometryless && el.childElementCount === 0) {
      // A text-only element (<span id="count">3</span>) is one StaticText that keeps the element's identifier.
      const t = clean(withGenerated(el, el.textContent));
      if (t) push(parent, "StaticText", t, ident, "", r, 0, el);
      return;
    }
    if (!inName && (role === "generic" || role === "paragraph" || role === "LabelText") && !name && !(flags & 8) &&
        !outside && !geometryless && !el.shadowRoot) {
      // A sentence with inline markup (Enter "<b>Dannie</b>" into…, <strong>1</strong> item left) is one line, with
      // its spaces, that keeps the element's identifier.
      const t = mergedText(el, 0);
      if (t !== null && clean(t)) {
        push(parent, "StaticText", clean(t), ident, "", r, 0, el);
        return;
      }
    }
    const candidate = interestingRole || scrollable || name || ident || value || (flags & 8);
    let childTclip = tclip;
    if (candidate && !outside) {
      self = push(parent, role, name, ident, value, geometryless ? null : r, flags, el);
      if (!geometryless && r.width > 0 && r.height > 0) {
        if (TAP_ROLES.has(role) || (flags & 8)) {
          const cover = coveredBy(el, r, tclip);
          if (cover) out[self].push(cover);
        }
        if (CLIP_ROLES.has(role) || ((flags & 64) && PLAIN.has(role))) {
          const c = [Math.max(tclip[0], r.x), Math.max(tclip[1], r.y),
                     Math.min(tclip[2], r.x + r.width), Math.min(tclip[3], r.y + r.height)];
          if (c[0] < c[2] && c[1] < c[3]) childTclip = c;
        }
      }
    } else if (candidate && outside) {
      self = parent;
    }
    const childInName = inName || NAME_FROM_CONTENT.has(role) || role === "textbox" || role === "searchbox" ||
      (!!name && messageBox(el, role));
    if (tag === "SELECT" && self !== parent) options(el, self, r, el.multiple || el.size > 1);
    if (standsFor && self !== parent) options(standsFor, self, r, false);
    if (tag === "SELECT" || tag === "TEXTAREA" || tag === "INPUT" || standsFor) return;
    const mixed = !childInName;
    // a closed <details> shows its <summary> only (the rest is laid out but never painted)
    const shut = tag === "DETAILS" && !el.open;
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (shut && !(c.nodeType === 1 && c.tagName === "SUMMARY")) continue;
      if (c.nodeType === 1) {
        walk(c, self, childClip, childTclip, depth + 1, childInName, pointer);
      } else if (c.nodeType === 3 && mixed && c.data.trim()) {
        if (el.childElementCount === 0 && !geometryless && !outside && !name && c === el.firstChild && !c.nextSibling) {
          // a text-only element: its box is the text's box (no Range needed); no line for zero-width text
          const t = clean(c.data);
          if (t) push(self, "StaticText", t, "", "", r, 0, c);
        } else {
          textRun(self, c, childClip);
        }
      }
      if (out.length >= maxNodes) return;
    }
    if (el.shadowRoot) {
      for (let c = el.shadowRoot.firstElementChild; c; c = c.nextElementSibling) {
        walk(c, self, childClip, childTclip, depth + 1, childInName, pointer);
      }
    }
  }

  if (cfg.probe) {
    const hit = document.elementFromPoint(cfg.probe[0], cfg.probe[1]);
    return hit ? describe(hit) : null;
  }
  const root = document.documentElement;
  const body = document.body || root;
  // A modal dialog makes everything else inert: like the accessibility tree, show only the dialog.
  let modal = null;
  try { modal = document.querySelector("dialog:modal"); } catch (e) { modal = null; }
  walk(modal || body, -1, [0, 0, VW, VH], [0, 0, VW, VH], 0, false, false);
  if (culled.size && !modal) shownFromCulled();
  serialOf(document);  // draws the document's id when nothing was pushed
  return {w: VW, h: VH, title: document.title || "", url: location.href, ready: document.readyState,
          doc: serials.doc, nodes: out};
})
