// The chosen container's offset now (scroll_plan.js chose it): [position, max, scale], or null when it went away.
// The page's offset is the visual viewport's (scroll_plan.js).  Offsets are CSS px; scale is how many screen points
// one of them is (the page's zoom: 0.401 on a desktop-width page), so a distance in points is a difference times it.
(() => { const s = window.__phonewireScroll; if (!s || !s.el.isConnected) return null;
  const vv = window.visualViewport, scale = vv ? vv.scale : 1;
  if (s.page && vv) return [s.v ? vv.pageTop : vv.pageLeft, s.el[s.size] - (s.v ? vv.height : vv.width), scale];
  return [s.el[s.pos], s.el[s.size] - s.el[s.client], scale]; })()
