// Run in every page before its own scripts (walk.py's CHANGES_JS): a counter of what changes the screen (elements,
// attributes, text, values, focus, scrolling, zoom) and a random id of the document; change_mark.js reads them.
(() => {
  const key = Symbol.for("phonewire.changes");
  if (window[key]) return;
  const state = {doc: Math.random().toString(36).slice(2), n: 0};
  Object.defineProperty(window, key, {value: state});
  const bump = () => { state.n++; };
  // A mutation changes the screen only where something is rendered: a ticking counter on a hidden screen does
  // not.  An attribute may have just hidden its own element, so there the parent being rendered is enough.
  const rendered = (el) => !el || !el.isConnected || el.checkVisibility({visibilityProperty: true});
  const shows = (r) => {
    const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
    return rendered(el) || (r.type === "attributes" && rendered(el.parentElement));
  };
  new MutationObserver((records) => { if (records.some(shows)) bump(); })
    .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  for (const t of ["scroll", "input", "change", "focusin", "focusout"]) {
    window.addEventListener(t, bump, {capture: true, passive: true});
  }
  // the visual viewport zoomed (a pinch, a double tap) or moved within the page without the page scrolling
  if (window.visualViewport) {
    for (const t of ["scroll", "resize"]) window.visualViewport.addEventListener(t, bump, {passive: true});
  }
})()
