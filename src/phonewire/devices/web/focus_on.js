// Whether typing aimed at the element of `serial` ("doc:n", walker_perception.js's serials) would go into it: null
// when that element (or, for a box holding a field, a field inside it) has focus, else a short description of what
// has focus instead ("" for nothing).  input.py's type_text asks before it types.
(serial) => {
  let active = document.activeElement;
  for (let i = 0; i < 20 && active; i++) {  // into shadow roots and same-origin frames
    let inner = active.shadowRoot ? active.shadowRoot.activeElement : null;
    if (!inner && (active.tagName === "IFRAME" || active.tagName === "FRAME")) {
      try { inner = active.contentDocument ? active.contentDocument.activeElement : null; } catch (e) { inner = null; }
    }
    if (!inner || inner === active) break;
    active = inner;
  }
  const serials = document[Symbol.for("phonewire.serials")];
  const [doc, n] = String(serial).split(":");
  const ref = serials && serials.doc === doc && serials.by ? serials.by.get(Number(n)) : null;
  const aimed = ref ? ref.deref() : null;
  if (aimed && active && (aimed === active || aimed.contains(active))) return null;
  if (!active || active === document.body) return "";
  const name = active.getAttribute("aria-label") || (active.labels && active.labels[0] ?
    active.labels[0].textContent : "") || active.getAttribute("placeholder") || "";
  return active.tagName.toLowerCase() + (active.id ? "#" + active.id : "") +
    (name ? ` "${name.replace(/\s+/g, " ").trim().slice(0, 60)}"` : "");
}
