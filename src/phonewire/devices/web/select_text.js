// Selecting text as a person's long press and handles would (editing.py's select_text): the selection the page sees
// is a real one (its `selectionchange` fires).  Called with the point, the mode (element: the element's whole
// text; word: the word at the point; all: select all; range: characters start…end of the element's text) and the
// offsets.  Answers {selected, where} or {error, length}.
(x, y, mode, start, end) => {
  // (x, y) in screen points, as every gesture's (walker_perception.js's coordinate model): in client px here
  const vv = window.visualViewport, scale = vv && vv.scale > 0 ? vv.scale : 1;
  if (x !== null && x !== undefined) { x = x / scale + (vv ? vv.offsetLeft : 0); y = y / scale + (vv ? vv.offsetTop : 0); }
  const deep = (px, py) => {
    let el = document.elementFromPoint(px, py);
    while (el && el.shadowRoot) {
      const inner = el.shadowRoot.elementFromPoint(px, py);
      if (!inner || inner === el) break;
      el = inner;
    }
    return el;
  };
  const words = (text, at) => {
    // the word around offset `at` (Intl.Segmenter's words; a space or punctuation: the nearest word before it)
    const segments = [...new Intl.Segmenter(undefined, {granularity: "word"}).segment(text)];
    let best = null;
    for (const s of segments) {
      if (!s.isWordLike) continue;
      if (s.index <= at) best = s;
      if (s.index <= at && at < s.index + s.segment.length) return [s.index, s.index + s.segment.length];
    }
    if (best) return [best.index, best.index + best.segment.length];
    const next = segments.find((s) => s.isWordLike);
    return next ? [next.index, next.index + next.segment.length] : [at, at];
  };
  const describe = (el) => {
    const tag = el.tagName.toLowerCase();
    const label = (el.getAttribute("aria-label") || el.id || "").slice(0, 40);
    return label ? `${tag} ${JSON.stringify(label)}` : tag;
  };
  const el = deep(x, y);
  if (!el) return {error: "nothing"};
  const field = el.closest("input, textarea");
  if (field && field.selectionStart !== null && field.selectionStart !== undefined) {
    const value = field.value;
    let a = 0, b = value.length;
    if (mode === "range") {
      if (end > value.length) return {error: "range", length: value.length};
      a = start; b = end;
    } else if (mode === "word") {
      // the offset under the point: a copy of the field's text laid out where the field shows it
      const st = getComputedStyle(field), r = field.getBoundingClientRect();
      const mirror = document.createElement("div");
      for (const p of ["font", "letterSpacing", "wordSpacing", "padding", "border", "boxSizing", "lineHeight",
                       "textIndent", "textTransform", "direction", "textAlign"]) mirror.style[p] = st[p];
      Object.assign(mirror.style, {position: "fixed", left: `${r.left}px`, top: `${r.top}px`,
        width: `${r.width}px`, height: `${r.height}px`, overflow: "hidden", opacity: "0", zIndex: "2147483647",
        whiteSpace: field.tagName === "TEXTAREA" ? "pre-wrap" : "pre", overflowWrap: "break-word", margin: "0",
        pointerEvents: "auto"});
      mirror.textContent = value;
      document.documentElement.appendChild(mirror);
      mirror.scrollLeft = field.scrollLeft; mirror.scrollTop = field.scrollTop;
      const caret = document.caretRangeFromPoint(x, y);
      const at = caret && caret.startContainer.parentNode === mirror ? caret.startOffset : value.length;
      mirror.remove();
      [a, b] = words(value, at);
    }
    field.focus();
    field.setSelectionRange(a, b);
    return {selected: value.slice(a, b), where: describe(field)};
  }
  const sel = getSelection();
  const editable = el.closest("[contenteditable]:not([contenteditable=false])");
  if (editable) editable.focus();
  const range = document.createRange();
  if (mode === "all") {
    range.selectNodeContents(editable || document.body);
  } else if (mode === "word") {
    const caret = document.caretRangeFromPoint(x, y);
    if (!caret || caret.startContainer.nodeType !== Node.TEXT_NODE) return {error: "notext"};
    const [a, b] = words(caret.startContainer.data, caret.startOffset);
    range.setStart(caret.startContainer, a); range.setEnd(caret.startContainer, b);
  } else if (mode === "range") {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let seen = 0, node, begun = false;
    while ((node = walker.nextNode())) {
      const n = node.data.length;
      if (!begun && start <= seen + n) { range.setStart(node, start - seen); begun = true; }
      if (begun && end <= seen + n) { range.setEnd(node, end - seen); seen = -1; break; }
      seen += n;
    }
    if (seen !== -1) return {error: "range", length: (el.textContent || "").length};
  } else {
    range.selectNodeContents(el);
  }
  sel.removeAllRanges();
  sel.addRange(range);
  const text = sel.toString();
  if (!text) return {error: "notext"};
  return {selected: text, where: describe(el)};
}
