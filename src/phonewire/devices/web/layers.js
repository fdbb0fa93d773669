// The layers a back closes first (back.py's LAYERS_JS says what it answers and when).
(at) => new Promise(done => {
  const frames = (f) => requestAnimationFrame(() => requestAnimationFrame(f));
  const start = performance.now();
  const still = (f) => {
    const q = window.__phonewireQuiet, now = performance.now();
    if (!q || now - q.last >= 100 || now - start >= 600) f(); else setTimeout(() => still(f), 20);
  };
  (at === null ? still : frames)(() => {
  const layers = [];
  const sel = "dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true], [popover]";
  for (const el of document.querySelectorAll(sel)) {
    try { if (el.hasAttribute("popover") && !el.matches(":popover-open")) continue; } catch (err) { continue; }
    if (el.closest("[hidden], [aria-hidden=true]") || (el.tagName === "DIALOG" && !el.open)) continue;
    const r = el.getBoundingClientRect(), st = getComputedStyle(el);
    if (r.width < 1 || r.height < 1 || st.visibility === "hidden" || Number(st.opacity) === 0) continue;
    if (r.right <= 0 || r.bottom <= 0 || r.left >= innerWidth || r.top >= innerHeight) continue;
    const by = el.getAttribute("aria-labelledby");
    const text = (id) => (document.getElementById(id) || {}).textContent || "";
    const labelled = by ? by.split(/\s+/).map(text).join(" ") : "";
    const name = (el.getAttribute("aria-label") || labelled).replace(/\s+/g, " ").trim().slice(0, 60);
    const role = el.getAttribute("role") === "alertdialog" ? "Alert" : "Dialog";
    layers.push(role + (name ? ` ${JSON.stringify(name)}` : "") + (el.id ? ` id=${el.id}` : ""));
  }
  const q = window.__phonewireQuiet, now = performance.now();
  done({layers, at: now, quiet: !q || now - q.last >= 100, changed: at !== null && !!q && q.last > at});
})})
