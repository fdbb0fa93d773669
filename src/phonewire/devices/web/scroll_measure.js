// The chosen container's offset now (scroll_plan.js chose it): [position, max], or null when it went away.
// The page's offset is the visual viewport's (scroll_plan.js).
(() => { const s = window.__phonewireScroll; if (!s || !s.el.isConnected) return null;
  const vv = window.visualViewport;
  if (s.page && vv) return [s.v ? vv.pageTop : vv.pageLeft, s.el[s.size] - (s.v ? vv.height : vv.width)];
  return [s.el[s.pos], s.el[s.size] - s.el[s.client]]; })()
