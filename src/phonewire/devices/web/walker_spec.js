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
  button: "button", submit: "button", reset: "button", image: "button", checkbox: "checkbox", radio: "radio",
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

function* flatChildren(node) {
  // The children a person sees (the flat tree): a shadow host's shadow root's, a slot's assigned nodes or else
  // its own (fallback) content, in place of the slot.
  const list = node.shadowRoot ? node.shadowRoot.childNodes : node.childNodes;
  for (const c of list) {
    if (c.nodeType === 1 && c.tagName === "SLOT") {
      const assigned = c.assignedNodes({flatten: true});
      if (assigned.length) yield* assigned;
      else yield* flatChildren(c);
    } else {
      yield c;
    }
  }
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
    case "TH": return "columnheader";
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
  const text = v.replace(/(?:url|image-set|image|(?:repeating-)?(?:linear|radial|conic)-gradient)\((?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^)])*\)/g, "");
  let s = "";
  for (const m of text.matchAll(/"((?:[^"\\]|\\.)*)"|attr\(\s*([\w-]+)\s*\)/g)) {
    s += m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (el.getAttribute(m[2]) || "");
  }
  return s.replace(/[\ue000-\uf8ff]/g, "").trim();
}

function withGenerated(el, text) {
  // An element's own text with what CSS draws around it, as a person reads it.
  const before = generated(el, "::before"), after = generated(el, "::after");
  return (before ? before + " " : "") + text + (after ? " " + after : "");
}

// Set by byIds while it reads a hidden element that aria-labelledby points at: all of its text counts, hidden parts
// included (accname 2B with 2A: "include all nodes in the subtree").
let readingHidden = false;

function textOf(node, depth, item) {
  // Name from content: text, alt of images, aria-label of descendants, CSS generated text; hidden parts skipped.
  // Children in the flat tree (a shadow host's shadow root, a slot's assigned nodes); an inline child's text joins
  // the text around it, any other's is set apart by spaces (as Chromium does: a<div>b</div>c is "a b c").
  // item: the name of a tree or list item, which leaves out its nested list (its children are items of their own).
  if (depth > 20) return "";
  let s = "";
  for (const c of flatChildren(node)) {
    if (c.nodeType === 3) { s += c.data; continue; }
    if (c.nodeType !== 1 || c === namedControl) continue;
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
    const display = getComputedStyle(c).display;
    const inline = display === "inline" || display === "contents" || (display === "none" && INLINE_TAGS.has(tag));
    const inner = withGenerated(c, textOf(c, depth + 1, item));
    s += inline ? inner : " " + inner + " ";
  }
  return s;
}

function byIds(ids) {
  let s = "";
  for (const id of ids.trim().split(/\s+/)) {
    const r = document.getElementById(id);
    if (!r) continue;
    const al = r.getAttribute("aria-label");
    if (al && al.trim()) { s += " " + al; continue; }
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
      for (const l of el.labels) s += " " + textOf(l, 0);
    } finally {
      namedControl = null;
    }
  }
  return clean(s);
}

// Set by nameOf: whether the name it returned last was borrowed from the row (rowName).
let borrowedName = false;

function nameOf(el, tag, role) {
  const own = ownName(el, tag, role);
  borrowedName = false;
  if (own || !(role === "checkbox" || role === "radio" || role === "switch")) return own;
  const row = rowName(el);  // (rule name-from-row)
  borrowedName = !!row && shape("name-from-row");
  return row;
}

function ownName(el, tag, role) {
  const lb = el.getAttribute("aria-labelledby");
  if (lb) { const n = byIds(lb); if (n) return n; }
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
    if (tag === "INPUT" && t === "image") return clean(el.getAttribute("alt") || el.value || "Submit");
    const title = el.getAttribute("title");
    if (title) return clean(title);
    return clean(el.getAttribute("placeholder") || "");
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
    if (n) return n;
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
  if (sel === "true" || (tag === "OPTION" && el.selected)) flags |= 4;
  if (el.getAttribute("aria-pressed") === "true" && (role === "button" || tag === "BUTTON")) flags |= 4;
  if ((role === "menuitemradio" || role === "menuitemcheckbox") && el.getAttribute("aria-checked") === "true") {
    flags |= 4;
  }
  if (el.hasAttribute("tabindex") || el.onclick !== null) flags |= 8;
  return flags;
}
