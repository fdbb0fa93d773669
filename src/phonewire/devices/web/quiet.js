// Resolves once the settled screen holds still (settle.py's QUIET_SCRIPT: its bounds in ms are the arguments).
// Still: the document complete, no reaction of the page on its way (requests, short timers, animation frames an
// event's handlers asked for, socket answers, a same-document link's jump not begun: the observer counts them), no finite animation or transition running (document.getAnimations(), which brings style up
// to date first, so a transition a tap just started is seen), and STILL_FRAMES animation frames in a row that began
// with no element added, removed or changed and nothing scrolled since the frame before — or, whichever comes first,
// QUIET ms without a change (the window the frames replaced, for pages whose frames are slow or do not come).
(QUIET, MAX, SCROLL_MAX, SOCKET_MAX, STILL_FRAMES) => new Promise(resolve => {
  const t0 = performance.now();
  const known = window.__phonewireQuiet;
  let last = known ? Math.min(known.last, t0) : t0, scrolled = known ? known.scrolled : -Infinity;
  let still = 0, seen = t0, framed = -Infinity, done = false;
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
  // document.getAnimations() leaves out what runs inside shadow roots (Ionic's modal, sheet and toast animate
  // there: a reply judged still mid-close, issue 23), so the open shadow roots answer too — found again after a
  // change of the DOM (at most once a frame), not on every check.
  let roots = [], rootsAt = -1;
  const shadowRoots = () => {
    if (rootsAt >= last) return roots;
    roots = [];
    const visit = (root) => {
      for (const el of root.querySelectorAll("*")) if (el.shadowRoot) { roots.push(el.shadowRoot); visit(el.shadowRoot); }
    };
    visit(document);
    rootsAt = performance.now();
    return roots;
  };
  const running = () => {
    const all = document.getAnimations();
    for (const root of shadowRoots()) if (root.getAnimations) all.push(...root.getAnimations());
    return all;
  };
  const animating = () => {
    if (typeof document.getAnimations !== "function") return false;
    for (const a of running()) {
      if (a.playState !== "running") continue;
      const timing = a.effect && a.effect.getComputedTiming ? a.effect.getComputedTiming() : null;
      if (timing && timing.iterations === Infinity) continue;  // a spinner never ends: no reaction to wait for
      return true;
    }
    return false;
  };
  const finish = (settled) => {
    done = true;
    obs.disconnect(); removeEventListener("scroll", moved, {capture: true});
    resolve(settled);
  };
  // true when the bounds ran out (the promise is resolved then)
  const bounded = (now, settled) => {
    const scrolling = now - scrolled < QUIET;
    if ((now - t0 >= MAX && !scrolling) || now - t0 >= SCROLL_MAX) { finish(settled); return true; }
    return false;
  };
  const busy = (now) => {
    if (known && known.last > last) last = known.last;
    if (known && (known.requests > 0 || (known.timers && known.timers.size > 0) ||
                  (known.frames && known.frames.size > 0) || answering(known, now) ||
                  now - known.jump < known.jumpMs)) return true;
    return animating();
  };
  const frame = () => {
    if (done) return;
    const now = performance.now(), ready = document.readyState === "complete";
    framed = now;
    if (busy(now)) last = now;  // on its way
    still = ready && last <= seen ? still + 1 : 0;
    seen = now;
    if (still >= STILL_FRAMES) { finish(true); return; }
    if (!bounded(now, false)) requestAnimationFrame(frame);
  };
  // The window, beside the frames: QUIET ms without a change is still too (a page that draws no frames — rAF does not
  // run in a hidden document — and a fresh document whose first frame is slow in coming are judged by it).
  const window_ = () => {
    if (done) return;
    const now = performance.now(), ready = document.readyState === "complete";
    if (busy(now)) last = now;
    if (ready && now - last >= QUIET) { finish(true); return; }
    if (now - framed >= QUIET && bounded(now, false)) return;
    setTimeout(window_, Math.max(10, QUIET - (now - last)));
  };
  requestAnimationFrame(frame);
  window_();
})
