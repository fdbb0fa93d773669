// Resolves once the settled screen holds still (settle.py's QUIET_SCRIPT: its bounds in ms are the arguments).
(QUIET, MAX, SCROLL_MAX, SOCKET_MAX) => new Promise(resolve => {
  const t0 = performance.now();
  const known = window.__phonewireQuiet;
  let last = known ? Math.min(known.last, t0) : t0, scrolled = known ? known.scrolled : -Infinity;
  const element = (n) => n.nodeType === 1;
  const obs = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "attributes" || Array.prototype.some.call(r.addedNodes, element) ||
          Array.prototype.some.call(r.removedNodes, element)) { last = performance.now(); return; }
    }
  });
  obs.observe(document, {subtree: true, childList: true, attributes: true});
  const moved = () => { last = scrolled = performance.now(); };
  addEventListener("scroll", moved, {capture: true, passive: true});
  const answering = (k, now) => {
    if (k.sockets) for (const sent of k.sockets.values()) if (now - sent < SOCKET_MAX) return true;
    return false;
  };
  const check = () => {
    const now = performance.now(), ready = document.readyState === "complete";
    if (known && known.last > last) last = known.last;
    if (known && (known.requests > 0 || (known.timers && known.timers.size > 0) || answering(known, now))) {
      last = now;  // on its way
    }
    const scrolling = now - scrolled < QUIET;
    if ((ready && now - last >= QUIET) || (now - t0 >= MAX && !scrolling) || now - t0 >= SCROLL_MAX) {
      obs.disconnect(); removeEventListener("scroll", moved, {capture: true});
      resolve(ready && now - last >= QUIET);
    }
    else setTimeout(check, Math.max(10, Math.min(QUIET - (now - last), (scrolling ? SCROLL_MAX : MAX) - (now - t0))));
  };
  check();
})
