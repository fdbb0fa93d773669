// The walker's spec layer: what the W3C specifications say an element is — its role (WAI-ARIA 1.2 and HTML-AAM's
// implicit roles, as Chromium names them), its accessible name (accname 1.2: aria-labelledby, aria-label, the
// host language's label, name from content, title) and its states and value.  Readable against the specs; it reads
// the DOM and the computed style, and knows nothing of the screen (that is walker_perception.js).
//
// A fragment of the walker's one function body (walk.py concatenates the layers in the order it declares):
// the names it uses from the rules layer (walker_rules.js) are the places where a named rule extends the spec —
// rowName (a toggle named by its row), namedByContent, unnamedControlName, expanderState, sliderHandle /
// handleValue, editorText; each is marked "(rule …)" where it is called.  roleOf and implicitRole use nothing
// outside this file: scrolling's plan (scroll_plan.js) runs this file alone for its roles.
const NAME_MAX = 1000;
const ACTIVE = document.activeElement;
// Input types a person types into (the readonly attribute means something only for them).
const TYPED_INPUTS = new Set(["text", "search", "email", "tel", "url", "password", "number", "date", "time",
  "datetime-local", "month", "week"]);
const NAME_FROM_CONTENT = new Set([
  "button", "link", "heading", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "checkbox",
  // (not "row": ARIA allows a row its cells' text as a name, Chromium gives none, and a row named by its cells
  // swallowed them — Dash's DataTable read as one Cell "Tokyo Japan 37" a row: issue 23)
  "radio", "switch", "treeitem", "cell", "gridcell", "columnheader", "rowheader", "tooltip",
  "PopUpButton", "DisclosureTriangle", "clickable",
]);
const LEAFISH = new Set(["button", "link", "heading", "tab", "menuitem", "option", "switch", "checkbox", "radio",
  "treeitem", "gridcell", "img", "image", "textbox", "searchbox", "combobox", "slider", "spinbutton",
  "PopUpButton", "clickable"]);
const INPUT_ROLES = {
  button: "button", submit: "button", reset: "button", image: "button", file: "button", checkbox: "checkbox",
  radio: "radio",
  range: "slider", number: "spinbutton", search: "searchbox", text: "textbox", email: "textbox",
  tel: "textbox", url: "textbox", password: "textbox", "": "textbox",
};
const SECTIONING = "article,aside,main,nav,section";
// Inline by default (their text joins the text around them when they are not rendered and have no display).
const INLINE_TAGS = new Set(["SPAN", "B", "I", "EM", "STRONG", "A", "SMALL", "CODE", "MARK", "U", "S", "SUB", "SUP",
  "ABBR", "CITE", "Q", "KBD", "TIME", "FONT", "BDI", "BDO", "DFN", "VAR", "SAMP", "INS", "DEL", "LABEL"]);

function clean(s) {
  if (!s) return "";
  // zero-width characters (spaces, joiners, byte-order marks) that break up a name but draw nothing
  // (rule zero-width-text)
  s = s.replace(/[\u200b-\u200d\u2060\ufeff]/g, "").replace(/\s+/g, " ").trim();
  return s.length > NAME_MAX ? s.slice(0, NAME_MAX) : s;
}

function authored(s) {
  // An author's name (aria-label) as accname reads it: ASCII whitespace trimmed and collapsed, the rest kept — a
  // no-break space is no ASCII whitespace (WPT comp_label: "label&nbsp;" is the name "label&nbsp;").
  s = s.replace(/[\u200b-\u200d\u2060\ufeff]/g, "").replace(/[\t\n\f\r ]+/g, " ").replace(/^ | $/g, "");
  return s.length > NAME_MAX ? s.slice(0, NAME_MAX) : s;
}

function owned(el) {
  // The elements el's aria-owns makes its children (WPT accname: a label's span that owns a combobox).
  const ids = el.getAttribute("aria-owns");
  if (!ids) return [];
  const out = [];
  for (const id of ids.trim().split(/\s+/)) {
    const o = document.getElementById(id);
    if (o && o !== el && !o.contains(el)) out.push(o);
  }
  return out;
}

function flatChildren(node) {
  // The children a person sees (the flat tree), as a list to index: a shadow host's shadow root's, a slot's
  // assigned nodes or else its own (fallback) content, in place of the slot.  Most elements have neither: their
  // own child list, not copied (the walk's hot path: a generator here cost the demo list's walk ~40 %).
  const list = node.shadowRoot ? node.shadowRoot.childNodes : node.childNodes;
  let slots = false;
  for (let i = 0; i < list.length && !slots; i++) slots = list[i].nodeName === "SLOT";
  if (!slots) return list;
  const out = [];
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c.nodeName !== "SLOT") { out.push(c); continue; }
    const assigned = c.assignedNodes({flatten: true});
    const shown = assigned.length ? assigned : flatChildren(c);
    for (let j = 0; j < shown.length; j++) out.push(shown[j]);
  }
  return out;
}

function implicitRole(el, tag) {
  switch (tag) {
    case "A": case "AREA": return el.hasAttribute("href") ? "link" : "generic";
    // SVG's <a> (its tag in lower case): a link with an href as HTML's is (SVG-AAM), a chart's bar that opens a page
    case "a": return el.hasAttribute("href") || el.hasAttributeNS("http://www.w3.org/1999/xlink", "href") ? "link" : "generic";
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
    case "LI": {  // an item of a list only (HTML-AAM: an orphaned <li> is generic)
      const p = el.parentElement;
      // (a list given another role is no list: Lumino's <ul role="menu"> holds its submenu items as bare <li>s)
      const pr = p && p.getAttribute("role");
      return p && (pr ? pr.trim().split(/\s+/)[0] === "list" : /^(UL|OL|MENU)$/.test(p.tagName)) ? "listitem" : "generic";
    }
    case "ADDRESS": case "HGROUP": return "group";
    case "B": case "STRONG": return "strong";
    case "EM": return "emphasis";
    case "CODE": return "code";
    case "DEL": case "S": return "deletion";
    case "INS": return "insertion";
    case "MARK": return "mark";
    case "SUB": return "subscript";
    case "SUP": return "superscript";
    case "TIME": return "time";
    case "DT": case "DFN": return "term";
    case "DD": return "definition";
    case "BLOCKQUOTE": return "blockquote";
    case "CAPTION": return "caption";
    case "FIGURE": return "figure";
    case "OUTPUT": return "status";
    case "SEARCH": return "search";
    case "NAV": return "navigation";
    case "MAIN": return "main";
    case "HEADER": return el.closest(SECTIONING) ? "generic" : "banner";
    case "FOOTER": return el.closest(SECTIONING) ? "generic" : "contentinfo";
    case "ASIDE":  // (in sectioning content only with a name of its own)
      return el.parentElement && el.parentElement.closest(SECTIONING) &&
        !el.hasAttribute("aria-label") && !el.hasAttribute("aria-labelledby") ? "generic" : "complementary";
    case "ARTICLE": return "article";
    case "SECTION": return (el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby")) ? "region" : "generic";
    case "FORM": return "form";
    case "DIALOG": return "dialog";
    case "TABLE": return layoutTable(el) ? "generic" : "table";
    case "TR": return layoutTable(el.closest("table")) ? "generic" : "row";
    case "TD": return layoutTable(el.closest("table")) ? "generic" : "cell";
    case "TH": return headerRole(el);
    case "THEAD": case "TBODY": case "TFOOT":  // a row group a person can focus is one (HTML-AAM)
      return el.hasAttribute("tabindex") ? "rowgroup" : "generic";
    case "PROGRESS": return "progressbar";
    case "METER": return "meter";
    case "FIELDSET": return "group";
    case "DETAILS": return "group";
    case "SUMMARY": {  // the first <summary> child of a <details> only (HTML-AAM)
      const p = el.parentElement;
      return p && p.tagName === "DETAILS" && p.querySelector(":scope > summary") === el ? "DisclosureTriangle" : "generic";
    }
    case "LABEL": return "LabelText";
    case "P": return "paragraph";
    case "IFRAME": return "Iframe";
    case "HR": return "separator";
    case "SCRIPT": case "STYLE": case "TEMPLATE": case "NOSCRIPT": case "HEAD": case "META": case "LINK":
      return "none";
    default: return "generic";
  }
}

function headerRole(th) {
  // A header cell heads its column or its row: its scope, else a header in a row that holds data cells heads the
  // row (WPT html-aam table-roles: the <th> leading a body row is a rowheader), else the column.
  const scope = (th.getAttribute("scope") || "").toLowerCase();
  if (scope === "row" || scope === "rowgroup") return "rowheader";
  if (scope === "col" || scope === "colgroup") return "columnheader";
  const row = th.parentElement;
  if (!row || row.tagName !== "TR" || (row.parentElement && row.parentElement.tagName === "THEAD")) return "columnheader";
  return row.querySelector(":scope > td") ? "rowheader" : "columnheader";
}

function layoutTable(table) {
  // A table used for layout, not data (Chromium's tree makes its rows and cells plain): nothing of a data table —
  // no caption, header cells, head or foot, summary or role — and a single row or a single column.  (Chromium
  // weighs more signs; this is the part that never calls a data table a layout one.)
  if (!table || table.tagName !== "TABLE" || table.hasAttribute("role") || table.hasAttribute("summary")) return false;
  if (table.querySelector(":scope > caption, :scope > thead, :scope > tfoot, th")) return false;
  const rows = table.rows;
  return rows.length <= 1 || (rows[0] && rows[0].cells.length <= 1);
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
  // an image is no text (APG's checkboxes draw theirs with url("data:image/svg+xml,…"): the name was that URL,
  // issue 23); its alternative text after "/" is
  let text = v.replace(/(?:url|image-set|image|(?:repeating-)?(?:linear|radial|conic)-gradient)\((?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^)])*\)/g, "");
  // content: "★" / "Favourite": the part after the slash (outside strings) is what it means (CSS Content 3)
  const alt = text.match(/^(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^"'\/])*\/(.*)$/);
  if (alt) text = alt[1];
  let s = "";
  for (const m of text.matchAll(/"((?:[^"\\]|\\.)*)"|attr\(\s*([\w-]+)\s*\)/g)) {
    s += m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (el.getAttribute(m[2]) || "");
  }
  // (its own spaces kept: " before " joins the text with a space, "nospace" without one)
  s = s.replace(/[\ue000-\uf8ff]/g, "");
  return s.trim() ? s : "";
}

function withGenerated(el, text) {
  // An element's own text with what CSS draws around it, as a person reads it: an inline ::before / ::after joins
  // the text (WPT: "nospace" + "label" is "nospacelabel"); one of another display, or kept apart from the text by
  // a margin or padding (findings 2, D9: "age" with margin-right before "35" reads "age 35"), is set apart.
  const before = generated(el, "::before"), after = generated(el, "::after");
  if (!before && !after) return text;
  const apart = (which) => {
    const cs = getComputedStyle(el, which);
    const side = which === "::before" ? "Right" : "Left";
    return cs.display !== "inline" || parseFloat(cs["margin" + side]) > 0 || parseFloat(cs["padding" + side]) > 0
      ? " " : "";
  };
  return (before ? before + apart("::before") : "") + text + (after ? apart("::after") + after : "");
}

function keptApart(cs, text) {
  // An inline element's text where it joins the text around it: set apart on a side where a margin or padding keeps
  // it apart on screen, as a person reads it (rule inline-gap: Fava's "Trial Ledger<span style="margin: 0 4px">›
  // </span>Journal" is "Trial Ledger › Journal", Chromium's "Trial Ledger›Journal"); joined otherwise (WPT:
  // "a<span>b</span>c" is "abc").
  if (!cs || cs.display !== "inline") return text;
  const gap = (side) => parseFloat(cs["margin" + side]) > 0 || parseFloat(cs["padding" + side]) > 0 ? " " : "";
  const left = gap("Left"), right = gap("Right");
  if ((left || right) && text.trim()) shape("inline-gap");
  return left + text + right;
}

// The text a control embedded in another's label gives it: its value, not its name (accname 2C).  null for an
// element that is no such control.
function embeddedValue(c, tag) {
  const role = roleOf(c, tag);
  if (role === "textbox" || role === "searchbox") {
    return tag === "INPUT" || tag === "TEXTAREA" ? c.value || "" : c.textContent || "";
  }
  if (role === "combobox" || role === "listbox") {
    if (tag === "INPUT" || tag === "TEXTAREA") return c.value || "";
    const chosen = tag === "SELECT" ? [...c.selectedOptions]
      : [c, ...owned(c)].flatMap((e) => [...e.querySelectorAll("[role=option][aria-selected=true]")]);
    if (chosen.length || role === "listbox") return chosen.map((o) => o.textContent).join(" ");
    return c.textContent || "";
  }
  if (role === "slider" || role === "spinbutton" || role === "scrollbar") {
    return c.getAttribute("aria-valuetext") || c.getAttribute("aria-valuenow") || (tag === "INPUT" ? c.value : "") || "";
  }
  if (role === "menu") return "";  // a menu in a label gives nothing (WPT accname manual: embedded menu)
  return null;
}

// Set by byIds while it reads a hidden element that aria-labelledby points at: all of its text counts, hidden parts
// included (accname 2B with 2A: "include all nodes in the subtree").
let readingHidden = false;

// The elements aria-labelledby took into the name being computed (nameOf's): each counts once (WPT comp_name_from_
// content: an image a link's aria-labelledby took is skipped where it sits).  null outside a name's computation.
let seen = null;

function textOf(node, depth, item, mute) {
  // Name from content: text, alt of images, aria-label of descendants, CSS generated text; hidden parts skipped.
  // Children in the flat tree (a shadow host's shadow root, a slot's assigned nodes); an inline child's text joins
  // the text around it, any other's is set apart by spaces (as Chromium does: a<div>b</div>c is "a b c").
  // item: the name of a tree or list item, which leaves out its nested list (its children are items of their own).
  // mute: node is visibility: hidden — its own text is unheard, a descendant made visible again is (WPT).
  if (depth > 20) return "";
  let s = "";
  let kids = flatChildren(node);
  if (node.nodeType === 1 && node.hasAttribute("aria-owns")) kids = [...kids, ...owned(node)];
  for (let i = 0; i < kids.length; i++) {
    const c = kids[i];
    if (c.nodeType === 3) { if (!mute || readingHidden) s += c.data; continue; }
    if (c === namedControl) { s += " "; continue; }  // (it sets apart the text on either side)
    if (c.nodeType !== 1 || (seen !== null && seen.has(c))) continue;
    if (!readingHidden && (c.hidden || c.getAttribute("aria-hidden") === "true")) continue;
    const tag = c.tagName;
    if (tag === "SCRIPT" || tag === "STYLE" || tag === "TEMPLATE" || tag === "NOSCRIPT" || tag === "style" ||
        tag === "script") continue;  // (lower-case: an inline SVG's own)
    if (item && (tag === "UL" || tag === "OL" || /^(group|tree)$/.test(c.getAttribute("role") || ""))) continue;
    // not rendered (display: none; no boxes, and not a display: contents wrapper) or invisible: not heard
    // either — a label per theme of which one shows names the element once; a visually hidden one still does
    if (readingHidden) {
      // (everything counts)
    } else if (!c.getClientRects().length) {
      if (getComputedStyle(c).display !== "contents") continue;
    } else if (!c.checkVisibility({visibilityProperty: true})) {
      if (/^(hidden|collapse)$/.test(getComputedStyle(c).visibility) && c.checkVisibility()) {
        s += " " + textOf(c, depth + 1, item, true) + " ";
      }
      continue;
    }
    const lb = !readingHidden && seen !== null ? c.getAttribute("aria-labelledby") : null;
    if (lb) { const n = byIds(lb); if (n) { s += " " + n + " "; continue; } }
    const embedded = embeddedValue(c, tag);
    if (embedded !== null) { s += " " + embedded + " "; continue; }
    const al = c.getAttribute("aria-label");
    if (al) { s += " " + al + " "; continue; }
    if (tag === "IMG") { s += " " + (c.getAttribute("alt") || "") + " "; continue; }
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") {
      // other embedded controls (checkboxes, radios, files, buttons) give nothing but their own name as a button
      const t = (c.getAttribute("type") || "").toLowerCase();
      if (tag === "INPUT" && (t === "button" || t === "submit" || t === "reset")) s += " " + (c.value || "") + " ";
      continue;
    }
    // (an element inline by default is read by its computed display — a span made a block is set apart —; any
    // other is taken as a block: one style read less per element of a name)
    const cs = INLINE_TAGS.has(tag) ? getComputedStyle(c) : null;
    const display = cs ? cs.display : "block";
    const inline = display === "inline" || display === "contents" || (display === "none" && INLINE_TAGS.has(tag));
    const inner = withGenerated(c, textOf(c, depth + 1, item));
    s += inline ? keptApart(cs, inner) : " " + inner + " ";
  }
  return s;
}

// The element whose aria-labelledby byIds reads (it may name itself: its own name then, not its value).
let labelling = null;

function byIds(ids) {
  let s = "";
  for (const id of ids.trim().split(/\s+/)) {
    const r = document.getElementById(id);
    if (!r) continue;
    if (seen !== null) seen.add(r);
    const embedded = r === labelling ? null : embeddedValue(r, r.tagName);
    if (embedded !== null) { s += " " + embedded; continue; }
    const al = r.getAttribute("aria-label");
    if (al && al.trim()) { s += " " + al; continue; }
    if (r.tagName === "IMG" || r.tagName === "INPUT") { s += " " + ownName(r, r.tagName, roleOf(r, r.tagName), true); continue; }
    // a hidden element pointed at gives all its text; a shown one only what shows
    const hidden = !r.checkVisibility({visibilityProperty: true}) && getComputedStyle(r).display !== "contents";
    const was = readingHidden;
    readingHidden = was || hidden || !!r.closest("[aria-hidden=true]");
    try {
      s += " " + textOf(r, 0);
    } finally {
      readingHidden = was;
    }
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
      for (const l of el.labels) s += " " + withGenerated(l, textOf(l, 0));
    } finally {
      namedControl = null;
    }
  }
  return clean(s);
}

// Set by nameOf: whether the name it returned last was borrowed from the row (rowName).
let borrowedName = false;

const SEEN = new Set();

function nameOf(el, tag, role) {
  SEEN.clear();
  seen = SEEN;
  let own;
  try {
    own = ownName(el, tag, role);
  } finally {
    seen = null;
  }
  borrowedName = false;
  if (own || !(role === "checkbox" || role === "radio" || role === "switch")) return own;
  const row = rowName(el);  // (rule name-from-row)
  borrowedName = !!row && shape("name-from-row");
  return row;
}

function ownName(el, tag, role, referenced) {
  // referenced: el is read for another's aria-labelledby (its own aria-labelledby is not followed again, 2B)
  const lb = referenced ? null : el.getAttribute("aria-labelledby");
  if (lb) {
    const was = labelling;
    labelling = el;
    try {
      const n = byIds(lb);
      if (n) return n;
    } finally {
      labelling = was;
    }
  }
  const al = el.getAttribute("aria-label");
  if (al && authored(al)) return authored(al);
  // HTML-AAM: a button's <label>s come before its value, alt or content
  if (tag === "BUTTON") { const n = labelFor(el); if (n) return n; }
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || tag === "METER" || tag === "PROGRESS") {
    const t = (el.getAttribute("type") || "").toLowerCase();
    const n = labelFor(el);
    if (n) return n;
    if (tag === "INPUT" && (t === "button" || t === "submit" || t === "reset")) {
      return clean(el.value || (t === "submit" ? "Submit" : t === "reset" ? "Reset" : ""));
    }
    if (tag === "INPUT" && t === "image") {
      return clean(el.getAttribute("alt") || el.value || el.getAttribute("title") || "Submit");
    }
    const title = el.getAttribute("title");
    if (title) return clean(title);
    const placeholder = clean(el.getAttribute("placeholder") || "");
    return placeholder ? inColumn(el, placeholder) : "";  // (rule column-field)
  }
  if (tag === "IMG") return clean(el.getAttribute("alt") || el.getAttribute("title") || "");
  if (tag === "FIELDSET") { const lg = el.querySelector(":scope > legend"); if (lg) return clean(textOf(lg, 0)); }
  if (tag === "TABLE") {
    const caption = el.querySelector(":scope > caption");
    const n = caption ? clean(textOf(caption, 0)) : "";
    if (n) return n;
  }
  if (tag === "DIALOG" || role === "dialog" || role === "alertdialog") {
    return clean(el.getAttribute("title") || "");
  }
  if (NAME_FROM_CONTENT.has(role) || namedByContent(el, role)) {
    const n = clean(withGenerated(el, textOf(el, 0, role === "treeitem" || role === "listitem")));
    if (n) return echoedOnce(el, n);  // (rule image-echo)
  }
  const title = clean(el.getAttribute("title") || "");
  if (title || !(role === "button" || role === "link" || role === "clickable")) return title;
  return unnamedControlName(el);  // the rules' name for a control the spec leaves unnamed
}

function expandedOf(el, tag, role) {
  // Whether the element is open (true), closed (false) or neither (null): aria-expanded, a <summary>'s
  // <details>, else an expander drawn without ARIA.
  const a = el.getAttribute("aria-expanded");
  if (a === "true" || a === "false") return a === "true";
  if (tag === "SUMMARY" && el.parentElement && el.parentElement.tagName === "DETAILS") return el.parentElement.open;
  if (role === "button" || role === "clickable" || role === "treeitem") {
    if (!(el.textContent || "").trim()) return expanderState(el);  // (rule drawn-expander)
  }
  return null;
}

function valueOf(el, tag, role, flags) {
  if (role === "switch" || role === "checkbox" || role === "radio") {
    if (tag === "INPUT") return el.checked ? "1" : "0";
    const c = el.getAttribute("aria-checked");
    return c === "true" ? "1" : c === "mixed" ? "2" : "0";
  }
  if (role === "slider" || role === "spinbutton" || role === "progressbar" || role === "meter" || role === "scrollbar") {
    const vt = el.getAttribute("aria-valuetext");
    if (vt) return clean(vt);
    const vn = el.getAttribute("aria-valuenow");
    if (vn !== null) return vn;
    if (tag !== "INPUT" && sliderHandle(el)) return handleValue(el);  // (rule slider-handle)
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
  // a column or row header sorted by it (aria-sort): the way it is sorted
  if (role === "columnheader" || role === "rowheader") {
    const sort = el.getAttribute("aria-sort");
    return sort === "ascending" || sort === "descending" || sort === "other" ? sort : "";
  }
  // a select-only combobox drawn by a page (role=combobox on an element that takes no typing): what it shows is its
  // value, the option chosen (Ionic's select: "Size … Large", issue 23)
  if (role === "combobox" && tag !== "INPUT" && !(flags & 128) &&
      !el.querySelector("input, textarea, [role=listbox], [role=option], [contenteditable=true]")) {
    const shown = clean(textOf(el, 0));
    return shown && shown !== clean(el.getAttribute("aria-label") || "") ? shown : "";
  }
  if (flags & 128) return shape("editor-text") && clean(editorText(el).replace(/\u200b/g, ""));  // (rule editor-text)
  return "";
}

function activeOption(option) {
  // An option its single-select listbox points at (aria-activedescendant) while none of its options says
  // aria-selected: the chosen one, selection following focus (jQuery UI's selectmenu marks its value so; issue 23).
  const box = option.id && option.closest("[role=listbox]");
  return !!box && box.getAttribute("aria-activedescendant") === option.id &&
    box.getAttribute("aria-multiselectable") !== "true" && !box.querySelector("[role=option][aria-selected]");
}

function statesOf(el, tag, role) {
  // The walk's state flags the spec gives an element (walker.js's header lists them): 16 secure (password), 32
  // multiline, 128 editable, 2 focused, 256 read-only, 1 disabled, 4 selected, 8 focusable by tabindex or clicked
  // through onclick.
  let flags = 0;
  if (tag === "INPUT" && (el.getAttribute("type") || "").toLowerCase() === "password") flags |= 16;
  if (tag === "TEXTAREA" || (role === "textbox" && el.getAttribute("aria-multiline") === "true")) flags |= 32;
  if (el.isContentEditable && role === "textbox") flags |= 128 | 32;
  if (el === ACTIVE && tag !== "BODY" && tag !== "HTML") flags |= 2;
  if (((tag === "TEXTAREA" || (tag === "INPUT" && TYPED_INPUTS.has((el.type || "").toLowerCase()))) &&
       el.readOnly) || el.getAttribute("aria-readonly") === "true") flags |= 256;
  if (el.getAttribute("aria-disabled") === "true" || (("disabled" in el) && el.matches(":disabled"))) flags |= 1;
  // selected: aria-selected (a tab, an option), a pressed toggle button (aria-pressed), a checked menu item
  // (menuitemradio / menuitemcheckbox: aria-checked) — the states a person sees marked (issue 23)
  const sel = el.getAttribute("aria-selected");
  if (sel === "true" || (tag === "OPTION" && el.selected) || (role === "option" && sel === null && activeOption(el))) {
    flags |= 4;
  }
  if (el.getAttribute("aria-pressed") === "true" && (role === "button" || tag === "BUTTON")) flags |= 4;
  if ((role === "menuitemradio" || role === "menuitemcheckbox") && el.getAttribute("aria-checked") === "true") {
    flags |= 4;
  }
  if (el.hasAttribute("tabindex") || el.onclick !== null) flags |= 8;
  return flags;
}
