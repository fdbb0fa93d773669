// The page's current text selection, for the view (view.py's snapshot): null when nothing is selected; else its
// text and where it starts on screen — the field that holds it, or the first box of the selected range.
() => {
  let el = document.activeElement;
  for (let i = 0; i < 20 && el && el.shadowRoot && el.shadowRoot.activeElement; i++) el = el.shadowRoot.activeElement;
  const box = (r) => ({x: r.left, y: r.top, width: r.width, height: r.height});
  if (el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA")) {
    let a = null, b = null;
    try { a = el.selectionStart; b = el.selectionEnd; } catch (err) { return null; }
    if (a === null || a === b || (el.getAttribute("type") || "").toLowerCase() === "password") return null;
    return {text: el.value.slice(a, b), rect: box(el.getBoundingClientRect()), field: true};
  }
  const sel = getSelection();
  if (!sel || sel.isCollapsed || !sel.rangeCount) return null;
  const text = sel.toString();
  const rects = sel.getRangeAt(0).getClientRects();
  if (!text.trim() || !rects.length) return null;
  return {text, rect: box(rects[0]), field: false};
}
