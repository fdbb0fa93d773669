// The walker's rules layer: what the view shows beyond the spec (walker_spec.js), each rule named, with the finding
// that needed it and the test page that shows it (RULES below).  A rule is where a real page draws a control the
// spec cannot see (a label styled as the checkbox, a box a library draws for a hidden select, a calendar's day
// served by a handler on the calendar), or where the spec's answer is not what a person reads (a name made of an
// icon font's class, a sentence with bold words as one line).  A fragment of the walker's one function body
// (walk.py concatenates the layers in the order it declares); the code of a rule names it in a "(rule …)" comment
// where the walk applies it.

// name → the finding it came from (docs/realapps-findings*.md, docs/miniwob-report.md, an issue) and its test page.
// Each entry is checked by tests/devices/web/test_walker_layers.py: a page that exists, a name the code uses.
const RULES = {
  "drawn-toggle": {finding: "issue 10 item 4; findings 4, F2 (React Aria's 1-px visually hidden wrapper)",
    page: "tests/e2e/hostile/findings4.html", does: "a label drawn instead of its hidden checkbox/radio is that control"},
  "drawn-select": {finding: "findings 3, E6 (Select2)", page: "tests/e2e/hostile/findings3.html",
    does: "a box a library draws for a hidden <select> is the ComboBox; the select and its echoing label go"},
  "tapped-though-hidden": {finding: "miniwob (jQuery UI spinner arrows); findings 3, E11 (Bootstrap's ×)",
    page: "tests/e2e/hostile/findings3_flash.html", does: "an aria-hidden control a person taps stays"},
  "slider-handle": {finding: "miniwob (jQuery UI slider); findings 4, F5", page: "tests/e2e/widgets/controls.html",
    does: "a handle drawn without ARIA is a Slider, valued by its widget or its place on the track"},
  "message-box": {finding: "findings 3, E11 (Flask-Admin's flash)", page: "tests/e2e/hostile/findings3_flash.html",
    does: "a role-less .alert / .flash box or aria-live region is a status named by its text"},
  "calendar-day": {finding: "findings 3, E4 (daterangepicker, bootstrap-datepicker, xdsoft)",
    page: "tests/e2e/hostile/findings3_calendar.html", does: "a day a date picker serves is a cell of its own; its week row stands for none"},
  "image-echo": {finding: "issue 24 trial (JupyterLab 4.6's launcher: Button 'Python 3 (ipykernel) Python 3 (ipykernel)')",
    page: "tests/devices/web/pages/popup_item.html", does: "a control whose image's alt repeats its label is named once"},
  "column-action": {finding: "issue 23 (Dash 4.4's DataTable: three Button 'sort', one per column header)",
    page: "tests/devices/web/pages/dash_parts.html", does: "an icon control in a column header is named with the column's text"},
  "column-field": {finding: "issue 23 (Dash 4.4's DataTable: three filter fields with one name, 'filter data...')",
    page: "tests/devices/web/pages/dash_parts.html", does: "a field named by its placeholder in a column's cell is named with the column"},
  "tab-by-class": {finding: "issue 23 (Dash 4.4's dcc.Tabs: div.tab siblings read as Buttons)",
    page: "tests/devices/web/pages/dash_parts.html", does: "one of two or more siblings of class tab is a tab"},
  "hit-area": {finding: "issue 23 (plotly 3 in Dash 4.4: eleven transparent drag rects read as unnamed Buttons)",
    page: "tests/devices/web/pages/dash_parts.html", does: "an unpainted SVG shape that takes presses is no control"},
  "popup-item": {finding: "issue 24 (JupyterLab 4.6: File > New and Open Recent, Lumino's bare submenu items, read as text)",
    page: "tests/devices/web/pages/popup_item.html", does: "an element without a role that opens a popup and takes focus is a menu item in a menu, else a button"},
  "clickable": {finding: "issue 10 item 8; miniwob bugs 2, 4, 5", page: "tests/e2e/widgets/menu.html",
    does: "an element without a role that takes clicks (a listener, onclick, where cursor:pointer starts) and holds no control is a button"},
  "same-as-control": {finding: "findings 3, E18 (Quasar's QBtn)", page: "tests/e2e/hostile/findings3_nicegui.html",
    does: "the content of a button given a listener of its own is that button, not a second one"},
  "delegating-container": {finding: "miniwob (menus)", page: "tests/e2e/widgets/menu.html",
    does: "an element whose descendants take the clicks is no button"},
  "backdrop": {finding: "findings 3, E12", page: "tests/e2e/hostile/findings3_icons.html",
    does: "a modal's backdrop or a widget's mask without text is no button"},
  "icon-class-name": {finding: "findings 3, E12; issue 10 item 8", page: "tests/e2e/hostile/findings3_icons.html",
    does: "a control without a name is named by its icon font's class (fa-times: close), else its class words"},
  "icon-title": {finding: "issue 10 item 8", page: "tests/e2e/widgets/names.html",
    does: "a control without a name is named by a descendant's title / aria-label or an SVG <title>"},
  "inline-gap": {finding: "a new user's Fava trial (its heading 'Trial Ledger› Income Statement')",
    page: "tests/e2e/widgets/gap.html", does: "an inline element a margin or padding keeps apart on screen reads apart"},
  "svg-shape": {finding: "miniwob (shapes)", page: "tests/e2e/widgets/shapes.html",
    does: "a clickable SVG shape is named by its <title>, its id, else its kind (a container, an <a> or <g>, has none)"},
  "drawn-expander": {finding: "tree expanders (jQuery treeview)", page: "tests/e2e/widgets/tree.html",
    does: "an expander drawn without ARIA is named 'expander', its state from its classes or its item's nested list"},
  "name-from-row": {finding: "refs issue (TodoMVC's toggles)", page: "tests/e2e/widgets/todorow.html",
    does: "a checkbox/radio/switch without a name is named by its row's text (flagged nameFrom row)"},
  "menu-entry": {finding: "miniwob (menus)", page: "tests/e2e/widgets/menu.html",
    does: "a list item with a click handler of its own is named by its text, like a button"},
  "sentence": {finding: "issue 10 item 8; miniwob (Enter <b>Dannie</b> into…)", page: "tests/e2e/widgets/instruction.html",
    does: "text with inline markup is one StaticText line, with its spaces"},
  "editor-text": {finding: "findings 2, D4 (CodeMirror 5)", page: "tests/e2e/hostile/findings2.html",
    does: "an editable region's value is its lines, without gutters and line numbers"},
  "transparent-wrapper": {finding: "findings 3, E3 (Wagtail's hidden footer)", page: "tests/e2e/hostile/findings3_hidden.html",
    does: "an element drawn with opacity 0 (not a control) is not seen"},
  "selected-by-class": {finding: "issue 23 (Dash's tabs: the selected tab marked only by tab--selected)",
    page: "tests/devices/web/pages/truth.html", does: "a tab, button or clickable marked selected/active/current by its class is selected"},
  "mkdocs-toggle": {finding: "issue 23 (mkdocs-material 9.8: the header's menu and search icons were unnamed CheckBoxes)",
    page: "tests/devices/web/pages/truth.html", does: "a drawn toggle without a name is named by what its data-md-toggle opens (drawer: menu, search)"},
  "shadow-control": {finding: "issue 23 (Ionic 9: every ion-button read twice, its host given a listener and its native button)",
    page: "tests/devices/web/pages/shadow_button.html", does: "a host whose shadow root draws the control is no second button"},
  "screen-surface": {finding: "issue 23 (Ionic 9: a bottom sheet swiped to full height read as Button 'Sheet heading Sheet body', its <ion-content> listening for clicks)",
    page: "tests/devices/web/pages/surface.html", does: "what fills the screen and holds a heading is its surface, no button, whatever listens on it"},
  "zero-width-text": {finding: "findings 3, E13 (Swagger UI's paths broken up by U+200B)",
    page: "tests/e2e/hostile/findings3_text.html", does: "zero-width characters are left out of names and text"},
  "clipped-text": {finding: "issue 22 trial (text cut by an overflow: hidden box listed whole, as if all of it showed)",
    page: "tests/e2e/aim/clipped.html", does: "text a box cuts is the words whose middle shows, at the part that shows"},
  "swatch": {finding: "issue 24 (MiniWoB text-editor: Quill's 35 colour swatches, unnamed Buttons told apart only by colour)",
    page: "tests/devices/web/pages/swatch.html", does: "an empty control filled with one colour is named by that colour (red #e60000)"},
  "fixed-in-culled": {finding: "walker culling (a chat button, a toast placed in a footer)",
    page: "tests/devices/web/pages/fixed_in_culled.html", does: "a position: fixed element inside an off-screen subtree shows where it is"},
};

// The rules that shaped the row the walk pushes next (perception's push takes them): a rule that fires for an
// element names itself here, and the snapshot node says so in --json (``rules``).
let shaped = [];

function shape(name) {
  if (!shaped.includes(name)) shaped.push(name);
  return true;
}

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
// Words of a class that say what a control does: the only class words that name one (rule icon-class-name).
const ACTION_WORDS = new Set(["prev", "previous", "next", "today", "close", "search", "menu", "back", "forward",
  "add", "plus", "minus", "delete", "trash", "edit", "remove", "play", "pause", "stop", "expand", "collapse",
  "clear", "reset", "refresh", "reload", "settings", "more", "share", "save", "download", "upload", "copy", "undo",
  "redo", "zoom", "home", "up", "down", "star", "like", "bookmark", "info", "help", "print", "filter", "sort",
  "send", "attach", "calendar", "logout", "login", "cart", "cancel", "submit", "first", "last", "fullscreen",
  // a rich-text editor's toolbar (Quill's ql-bold, Trix's trix-button--icon-italic, Summernote's note-btn-bold)
  "bold", "italic", "underline", "strike", "strikethrough", "color", "background", "highlight", "blockquote",
  "indent", "outdent", "bullet", "ordered", "heading", "subscript", "superscript", "code", "formula"]);
// Icons whose word is the shape, not the meaning (a "×").
const ICON_MEANING = {times: "close", xmark: "close", remove: "close", multiply: "close"};
const INTERACTIVE_SELECTOR = "a[href],button,input,select,textarea,summary,[role=button],[role=link]," +
  "[role=checkbox],[role=tab],[role=menuitem],[role=option],[tabindex],[onclick],[contenteditable=true]";
// A calendar's day: a table cell that a date picker serves through a handler on the calendar (daterangepicker's
// td.available, bootstrap-datepicker's td.day, xdsoft's td.xdsoft_date, a data-date).
// (daterangepicker's month arrows are th.available too)
const SERVED_CELL = "td.available,td.day,td[data-date],td[data-day],td.xdsoft_date,th.available";

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
  // else only the words of its classes that say what a control does (xdsoft_prev: "prev"); the rest of a class
  // is styling or a library's name, never a name ("ios hydrated", "button-native" / "button-inner", "lm-Widget
  // jp-…": issue 23) — the control is shown unnamed then
  const words = [];
  for (let e = el, i = 0; e && i < 3; e = e.firstElementChild, i++) {
    const cls = typeof e.className === "string" ? e.className : (e.getAttribute && e.getAttribute("class")) || "";
    for (const part of cls.toLowerCase().split(/[\s_-]+/)) {
      if (ACTION_WORDS.has(part) && !words.includes(part)) words.push(part);
    }
    if (words.length >= 2) break;
  }
  return words.slice(0, 2).join(" ");
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

function backdrop(el) {
  // A modal's backdrop or a widget's mask (backdrop-ux, select2-drop-mask, modal-backdrop): what covers the
  // page while something is open, no button of its own.
  // (Ionic's <ion-backdrop class="ios hydrated">: by its tag)
  const cls = (typeof el.className === "string" ? el.className.toLowerCase() : "") + " " + el.tagName.toLowerCase();
  return /backdrop|(^|[\s_-])(mask|scrim|overlay)([\s_-]|$)/.test(cls) && !clean(el.textContent);
}

function messageBox(el, role) {
  // An alert or status that is one message (short, no list, table, heading or field inside): named by its text.
  // A live region around a whole list of results is no message: its content keeps its own lines.
  return (role === "alert" || role === "status") && (el.textContent || "").length <= 300 &&
    !el.querySelector("li,tr,h1,h2,h3,h4,h5,h6,input,select,textarea");
}

function clicked(el) {
  return (CLICKERS !== null && CLICKERS.has(el)) || ownOnclick(el);
}

const EMPTY_FUNCTION = /^function\s*[\w$]*\s*\(\s*\)\s*\{\s*\}$/;

function ownOnclick(el) {
  // An onclick handler that does something: not the empty one React puts on its root's container and on every
  // element given an onClick prop (so that iOS Safari delivers clicks there), which says nothing a person sees —
  // JupyterLab's dialog header read as Button "Rename File", every Dash html.Div with an id (Dash counts its
  // clicks) as a Button.  Such an element is a button to a person when it looks like one (cursor: pointer).
  const f = el.onclick;
  return f !== null && !(typeof f === "function" && EMPTY_FUNCTION.test(Function.prototype.toString.call(f)));
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
  // A clickable shape inside an <svg> (a circle, a polygon): its <title>, else its id, else its kind — the kind only
  // when it is painted (MiniWoB's "click the circle"): a transparent one is a chart's hit area (plotly's legend
  // toggles, 11 x Button "rect": issue 23), no shape a person sees.
  // A container (an <a>, a <g>) has no kind a person sees: "a" named each of a chart's bar links.
  const t = el.querySelector(":scope > title");
  const named = (t && clean(t.textContent)) || clean(el.id);
  if (named) return named;
  return el instanceof SVGGeometryElement && painted(el) ? el.tagName.toLowerCase() : "";
}

function swatchName(el) {
  // (rule swatch) A colour picker's swatch: an empty control, small, filled with one opaque colour; a person tells
  // it by its colour, so it is named by the colour's word and its hex ("red #e60000", "light blue #cce0f5").
  if (el.childElementCount || el.textContent.trim() || el.getAttribute("data-value") === null &&
      !/(^|[\s_-])(swatch|color|colour)/i.test(String(el.className || ""))) return "";
  const r = el.getBoundingClientRect();
  if (r.width < 4 || r.height < 4 || r.width > 64 || r.height > 64) return "";
  const m = /^rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\)$/.exec(getComputedStyle(el).backgroundColor);
  if (!m || (m[4] !== undefined && Number(m[4]) < 1)) return "";
  const [R, G, B] = [m[1], m[2], m[3]].map(Number);
  const hex = "#" + [R, G, B].map((v) => v.toString(16).padStart(2, "0")).join("");
  return colourWord(R / 255, G / 255, B / 255) + " " + hex;
}

function colourWord(r, g, b) {
  // The colour's everyday word: a grey by its lightness, else its hue, lightened or darkened.
  const max = Math.max(r, g, b), min = Math.min(r, g, b), l = (max + min) / 2, d = max - min;
  if (d < 0.08) return l > 0.9 ? "white" : l < 0.12 ? "black" : l > 0.6 ? "light grey" : l < 0.35 ? "dark grey" : "grey";
  let h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  h = (h * 60 + 360) % 360;
  const HUES = [[15, "red"], [45, "orange"], [70, "yellow"], [170, "green"], [200, "cyan"], [255, "blue"],
    [290, "purple"], [345, "pink"], [360, "red"]];
  const word = HUES.find(([top]) => h < top)[1];
  return (l > 0.75 ? "light " : max < 0.45 ? "dark " : "") + word;
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
  // (children in the flat tree: a shadow root's text and what its slots show, in the order a person reads them)
  let s = "";
  const kids = flatChildren(el);
  for (let i = 0; i < kids.length; i++) {
    const c = kids[i];
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
    s += keptApart(cs, inner);
  }
  return s;
}

function selectedByClass(el) {
  // (rule selected-by-class) a tab, link, button or clickable that the page marks as the chosen one only by a class
  // word (Dash's tab--selected, Bootstrap's active, a nav's current; a toolbar's pressed toggle: Quill's ql-active)
  const cls = typeof el.className === "string" ? el.className.toLowerCase() : "";
  return /(^|[\s_-])(selected|active|current)(\s|$)/.test(cls) && shape("selected-by-class");
}

function toggleName(label, input) {
  // (rule drawn-toggle) the name of a hidden checkbox or radio its label draws: the label's own title where it has
  // one — what the shown label says it does (mkdocs-material's palette toggle: the label shown in light mode is
  // titled "Switch to dark mode", its input's aria-label names the other scheme: issue 23) —, else the input's
  // aria-label (Streamlit's checkbox has one inside a label that shows the same words), else the label's text
  const name = clean(label.getAttribute("title") || input.getAttribute("aria-label") || textOf(label, 0));
  if (name) return name;
  // (rule mkdocs-toggle) mkdocs-material's header draws its menu and search toggles as icon labels of hidden
  // checkboxes that say what they open only in data-md-toggle: the drawer is what a person calls the menu (its
  // hamburger icon), the search is search
  const opens = clean(input.getAttribute("data-md-toggle") || "");
  return opens && shape("mkdocs-toggle") ? (opens === "drawer" ? "menu" : opens) : "";
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

// Where the spec layer asks the rules (walker_spec.js calls these).

function namedByContent(el, role) {
  // (rules menu-entry, message-box) a list item with a click handler of its own is a menu entry, an alert or status
  // that is one message: both named by their text, like a button
  if (role === "listitem" && clicked(el)) return shape("menu-entry");
  return messageBox(el, role) && shape("message-box");
}

function unnamedControlName(el) {
  // (rules svg-shape, icon-title, drawn-expander, icon-class-name) a button or link the spec leaves unnamed; an
  // expander drawn without ARIA is named for what it is (its state is a flag, not a class word); else unnamed
  const named = (name, rule) => { if (name) shape(rule); return name; };
  const title = named(iconName(el), "icon-title");
  if (title) return title;
  if (el.ownerSVGElement) return named(shapeName(el), "svg-shape");
  if (expanderState(el) !== null) return named("expander", "drawn-expander");
  const word = named(classWords(el), "icon-class-name");
  if (word) return columnAction(el, word);
  return named(swatchName(el), "swatch");
}

function columnAction(el, word) {
  // (rule column-action) an icon control in a column's header (Dash DataTable's sort arrows: three Button "sort") is
  // named with the column's text, as a person reads the arrow beside it: "sort City"
  const th = el.closest("th, [role=columnheader]");
  return withColumn(word, th ? clean(th.textContent || "") : "", "column-action");
}

function withColumn(name, column, rule) {
  // a name and the text of its column, when there is one short enough to read as a column's name
  return column && column.length <= 60 && shape(rule) ? `${name} ${column}` : name;
}

function inColumn(el, name) {
  // (rule column-field) a field named only by its placeholder in a table's cell under a column header (Dash
  // DataTable's filter row: three TextField "filter data...") is named with the column too: "filter data... City"
  const cell = el.closest("td, th");
  const row = cell && cell.parentElement;
  const table = row && row.closest("table");
  if (!table || row.tagName !== "TR") return name;
  // (a row of fields only: a row whose cells say something names its fields itself — Swagger UI's parameter row,
  // "petId * required" beside the field)
  for (const c of row.cells) if (clean(c.textContent || "")) return name;
  for (let i = row.rowIndex - 1; i >= 0; i--) {
    const above = table.rows[i].cells[cell.cellIndex];
    const column = above ? clean(above.textContent || "") : "";
    if (column) return withColumn(name, column, "column-field");
  }
  return name;
}

function classTab(el) {
  // (rule tab-by-class) one of two or more siblings of class "tab" (Dash's dcc.Tabs: div.tab in a div.tab-container,
  // the chosen one also tab--selected): a tab to a person, though no role says so
  const isTab = (e) => typeof e.className === "string" && /(^|\s)tab(\s|$)/.test(e.className);
  if (!isTab(el) || !el.parentElement) return false;
  let tabs = 0;
  for (let c = el.parentElement.firstElementChild; c && tabs < 2; c = c.nextElementSibling) if (isTab(c)) tabs++;
  return tabs >= 2;
}

function painted(el) {
  // Whether an SVG shape is drawn: filled or stroked with a colour that shows
  const cs = getComputedStyle(el);
  const paint = (v) => v && v !== "none" && v !== "transparent" && !/^rgba\(.*,\s*0\)$/.test(v);
  return ((paint(cs.fill) && cs.fillOpacity !== "0") || (paint(cs.stroke) && cs.strokeOpacity !== "0")) &&
    cs.opacity !== "0";
}

// Where the walk asks the rules (walker.js calls these).

function echoedOnce(el, name) {
  // (rule image-echo) a control whose picture's alternative text is its label read twice (JupyterLab's launcher
  // cards: the kernel's logo, alt "Python 3 (ipykernel)", over the words "Python 3 (ipykernel)") is read once
  const half = (name.length - 1) / 2;
  if (!Number.isInteger(half) || half < 2 || name[half] !== " " || name.slice(0, half) !== name.slice(half + 1)) {
    return name;
  }
  const words = name.slice(0, half);
  for (const img of el.querySelectorAll("img[alt]")) {
    if (clean(img.getAttribute("alt")) === words && shape("image-echo")) return words;
  }
  return name;
}

function popupItem(el) {
  const popup = (el.getAttribute("aria-haspopup") || "false").trim().toLowerCase();
  return popup !== "false" && el.hasAttribute("tabindex") && el.tabIndex >= -1;
}

function ruledRole(el, tag, role, r, flags) {
  // The role (and flags) the rules give an element whose spec role says less than a person sees: [role, flags].
  if ((role === "generic" || role === "none") && sliderHandle(el)) {
    // (rule slider-handle) a slider's handle a library draws without ARIA
    shape("slider-handle");
    role = "slider";
    flags |= 8;
  }
  // (rule popup-item) an element without a role that opens a popup and takes focus (Lumino's submenu items: a bare
  // <li aria-haspopup tabindex=0> in a role=menu list, "File > New" read as text): a menu item in a menu, else a
  // button
  if ((role === "generic" || role === "listitem") && popupItem(el) && shape("popup-item")) {
    const owner = el.parentElement && el.parentElement.closest("[role]");
    role = owner && /^(menu|menubar)\b/.test(owner.getAttribute("role") || "") ? "menuitem" : "button";
    flags |= 8;
  }
  // (rule message-box) a message box without a role (Bootstrap's .alert, a flash message, an aria-live region): a
  // status, named by its text, that the interactive view keeps
  if (role === "generic" && (/(^|\s)(alert|flash)(\s|$)/.test(typeof el.className === "string" ? el.className : "") ||
      /^(polite|assertive)$/.test(el.getAttribute("aria-live") || "")) && r.width >= 4 && r.height >= 4 &&
      messageBox(el, "status")) {
    shape("message-box");
    role = "status";
  }
  // (rule calendar-day) a calendar's days are cells of their own (named by their day), and their week row stands
  // for none of them
  if ((tag === "TD" || tag === "TH") && !el.hasAttribute("role") && servedCell(el)) {
    role = clean(el.textContent) ? "gridcell" : "clickable";  // (an arrow drawn by CSS: named by its class)
    shape("calendar-day");
    flags |= 8;
    if (/(^|[\s_-])disabled(\s|$)/.test(typeof el.className === "string" ? el.className : "")) flags |= 1;
  } else if (tag === "TR" && role === "row" && !el.hasAttribute("role") && !clicked(el)) {
    const table = el.closest("table"), day = table ? table.querySelector(SERVED_CELL) : null;
    if (day && servedCell(day) && shape("calendar-day")) role = "generic";  // (the header rows of a calendar too)
  }
  return [role, flags];
}

function clickable(el, tag, role, r, pointerStarts) {
  // (rules clickable, delegating-container, backdrop, same-as-control) an element without a role that takes clicks
  // (a click listener, onclick, or where cursor:pointer starts) and holds no control of its own: a button to a
  // person.  One that holds controls delegates their clicks: it stays generic.
  return (role === "generic" || role === "none" || role === "paragraph") && tag !== "LABEL" &&
    ((CLICKERS && CLICKERS.has(el)) || ownOnclick(el) || pointerStarts) &&
    r.width > 0 && r.height > 0 && (el.textContent || "").length <= 300 &&
    !el.querySelector(INTERACTIVE_SELECTOR) && !shadowControl(el) && !holdsClicker(el) && !el.querySelector(SERVED_CELL) &&
    !backdrop(el) && !sameAsControl(el) && !surface(el, r) && !hitArea(el);
}

function hitArea(el) {
  // (rule hit-area) an SVG shape drawn with no paint that takes presses (plotly's eleven drag layers over the plot,
  // rect.nsewdrag and its corners and edges: 11 unnamed Buttons on every chart) is no control a person sees: the
  // chart under it is what shows
  return el instanceof SVGGeometryElement && !el.querySelector("title") && !painted(el) && shape("hit-area");
}

function shadowControl(el) {
  // (rule shadow-control) a host whose shadow root draws the control (Ionic's <ion-button> around its native
  // <button>: "Show toast" twice, issue 23) delegates to it, as a container of controls does
  return !!el.shadowRoot && el.shadowRoot.querySelector(INTERACTIVE_SELECTOR) !== null;
}

function surface(el, r) {
  // (rule screen-surface) a listener on what fills the screen (Ionic's <ion-content> listens to cancel the click
  // that ends a scroll) makes no button of a whole page: a person reads its heading and text, and taps what is in it.
  return r.width >= innerWidth * 0.9 && r.height >= innerHeight * 0.75 &&
    el.querySelector("h1,h2,h3,h4,h5,h6,[role=heading]") !== null;
}
