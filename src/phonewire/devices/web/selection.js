// The page's current text selection, for the view (view.py's snapshot): null when nothing is selected; else its
// text and where it starts on screen, in screen points — the field that holds it, or the first box of the selected
// range.  `place`: [x, y, scale] when this document is a frame of another origin (frames.py): its client px show
// at screen (x, y) + client * scale; without it, the top document's visual viewport says where (a page laid out
// wider than the phone is drawn at its scale from its offset).  Frames of this origin are looked into where they
// are drawn; those of another origin are asked in their own documents (frames.py's selection).
(place) => {
  const vv = window.visualViewport, top = vv && vv.scale > 0 ? vv.scale : 1;
  const probe = (doc, [ax, ay, s], depth) => {
    let el = doc.activeElement;
    for (let i = 0; i < 20 && el && el.shadowRoot && el.shadowRoot.activeElement; i++) el = el.shadowRoot.activeElement;
    const box = (r) => ({x: ax + r.left * s, y: ay + r.top * s, width: r.width * s, height: r.height * s});
    if (el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA")) {
      let a = null, b = null;
      try { a = el.selectionStart; b = el.selectionEnd; } catch (err) { return null; }
      if (a === null || a === b || (el.getAttribute("type") || "").toLowerCase() === "password") return null;
      return {text: el.value.slice(a, b), rect: box(el.getBoundingClientRect()), field: true};
    }
    const sel = doc.getSelection();
    if (sel && !sel.isCollapsed && sel.rangeCount) {
      const text = sel.toString();
      const rects = sel.getRangeAt(0).getClientRects();
      if (text.trim() && rects.length) return {text, rect: box(rects[0]), field: false};
    }
    if (depth > 4) return null;
    for (const frame of doc.querySelectorAll("iframe, frame")) {
      let inner = null;
      try { inner = frame.contentDocument; } catch (err) { inner = null; }
      if (!inner) continue;
      const r = frame.getBoundingClientRect(), cs = getComputedStyle(frame);
      const x = r.left + frame.clientLeft + parseFloat(cs.paddingLeft);
      const y = r.top + frame.clientTop + parseFloat(cs.paddingTop);
      const found = probe(inner, [ax + x * s, ay + y * s, s], depth + 1);
      if (found) return found;
    }
    return null;
  };
  return probe(document, place || [vv ? -vv.offsetLeft * top : 0, vv ? -vv.offsetTop * top : 0, top], 0);
}
