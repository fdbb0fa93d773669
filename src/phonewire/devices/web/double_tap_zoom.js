// A double tap at the client point (x, y) of the top document (zooming.py says what a phone's browser does).
// Answers null when the page does not double-tap zoom there: the two taps are then a double click, as on a page
// written for phones.  Else it installs the guard of the two taps and answers the block to zoom to.
//
// A page double-tap zooms unless one of these holds (the rules of Chrome on Android, which Safari's are close to):
// - it is laid out for the phone: its layout viewport is as wide as the screen (`width=device-width`);
// - it cannot be zoomed: `user-scalable=no` (or `false`, or `0`), or a most scale not above its least (a
//   `maximum-scale` below what shows the whole width);
// - the element under the finger, or an element above it, has a `touch-action` other than `auto` (`manipulation`
//   is the page's way to say "no double-tap zoom here");
// - the finger is on a frame (not followed: zooming.py says so).
// The guard (window, capture phase; `off` takes it away) keeps the taps' mouse events, clicks and double click from the page, as a
// phone's browser sends none for a double tap it zooms on; touch events and the touch's pointer events pass.  It
// notes whether the page cancelled either touch (`preventDefault`): then nothing zooms, as on a phone.
// The block: the nearest element under the finger that is not laid out inline; its box and the finger's point are
// in CSS px from the top left of the root element's border box (what DOM.scrollIntoViewIfNeeded takes).
(function (x, y, screenWidth) {
  const old = window.__phonewireZoom; if (old) old.off();
  // g (window.__phonewireZoom): the two taps' state, on every page.  g.over resolves once the second tap's double
  // click came (the last event of the two taps: kept from the page where the page zooms); g.off takes away what
  // was installed: the handler lent to the element under the finger (lend_click.js: touch adjustment would move a
  // double click on plain text to a link beside it) and, where the page zooms, the guard.
  const g = {prevented: false, undo: []};
  let over = null;
  g.over = new Promise((resolve) => { over = resolve; });
  const ended = (ev) => { if (ev.isTrusted) over(); };  // (before the guard's listener: it sees the double click)
  window.addEventListener("dblclick", ended, true);
  g.undo.push(lendClick(x, y), () => window.removeEventListener("dblclick", ended, true));
  g.off = () => {
    for (const undo of g.undo) undo();
    delete window.__phonewireZoom;
    return {prevented: g.prevented};
  };
  window.__phonewireZoom = g;
  const meta = document.querySelector('meta[name="viewport" i]');
  const spec = {};
  for (const part of (meta ? meta.getAttribute("content") || "" : "").split(/[,;]/)) {
    const [k, v] = part.split("=").map((s) => s.trim().toLowerCase());
    if (k) spec[k] = v || "";
  }
  // as the browser reads the tag: user-scalable is yes, device-width, device-height or a number at least 1 away
  // from 0, anything else a no ("false"); the least scale shows the page's whole width, or more where the tag says
  // so, and the most is 5 unless it says less (and never below the least: then the scale is fixed)
  const scalable = spec["user-scalable"];
  if (scalable !== undefined && !/^(yes|device-width|device-height)$/.test(scalable)
      && !(Math.abs(parseFloat(scalable)) >= 1)) return null;
  const root = document.documentElement;
  if (Math.abs(root.clientWidth - screenWidth) < 1) return null;
  const fit = screenWidth / Math.max(root.scrollWidth, root.clientWidth, 1);
  const least = Math.max(fit, parseFloat(spec["minimum-scale"]) || 0);
  const most = parseFloat(spec["maximum-scale"]) > 0 ? parseFloat(spec["maximum-scale"]) : 5;
  if (most <= least + 0.001) return null;
  const hit = document.elementFromPoint(x, y);
  if (!hit || hit.tagName === "IFRAME" || hit.tagName === "FRAME") return null;
  const up = (el) => el.parentElement || (el.getRootNode() instanceof ShadowRoot ? el.getRootNode().host : null);
  for (let el = hit; el; el = up(el)) {
    if (getComputedStyle(el).touchAction !== "auto") return null;
  }
  let block = hit;
  while (block !== root && up(block) && /^(inline|contents|ruby)/.test(getComputedStyle(block).display)) {
    block = up(block);
  }
  const origin = root.getBoundingClientRect(), box = block.getBoundingClientRect();
  const MOUSE = ["mousemove", "mousedown", "mouseup", "click", "mouseover", "mouseout", "mouseenter", "mouseleave",
                 "pointermove", "pointerdown", "pointerup", "pointerover", "pointerout", "pointerenter",
                 "pointerleave", "dblclick", "auxclick", "contextmenu"];
  const stop = (ev) => {
    if (!ev.isTrusted) return;
    if (ev.type.startsWith("pointer") && ev.pointerType !== "mouse") return;  // the touch's own pointer events
    ev.stopImmediatePropagation();
    ev.preventDefault();
  };
  const touched = (ev) => { if (ev.isTrusted && ev.defaultPrevented) g.prevented = true; };
  for (const t of MOUSE) window.addEventListener(t, stop, true);
  for (const t of ["touchstart", "touchend"]) window.addEventListener(t, touched, {passive: true});
  g.undo.push(() => {
    for (const t of MOUSE) window.removeEventListener(t, stop, true);
    for (const t of ["touchstart", "touchend"]) window.removeEventListener(t, touched, {passive: true});
  });
  return {block: [box.left - origin.left, box.top - origin.top, box.width, box.height],
          point: [x - origin.left, y - origin.top], scale: window.visualViewport ? visualViewport.scale : 1};
})
