// The chosen container's offset now (scroll_plan.js chose it): [position, max], or null when it went away.
(() => { const s = window.__phonewireScroll; if (!s || !s.el.isConnected) return null;
  return [s.el[s.pos], s.el[s.size] - s.el[s.client]]; })()
