// Settled screens' observer (settle.py's OBSERVER_SCRIPT calls it with settle.py's PENDING_TIMER_MS and
// PENDING_SOCKET_MS), installed in every document from its start: the time of the last structural DOM change and of
// the last action, and the page's reactions on their way (settle.py says which).
((PENDING_TIMER_MS, PENDING_SOCKET_MS, PENDING_JUMP_MS) => {
  if (window.__phonewireQuiet) return;
  const state = window.__phonewireQuiet = {
    last: performance.now(), requests: 0, timers: new Set(), scrolled: -Infinity};
  const element = (n) => n.nodeType === 1;
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === "attributes" || Array.prototype.some.call(r.addedNodes, element) ||
          Array.prototype.some.call(r.removedNodes, element)) { state.last = performance.now(); return; }
    }
  }).observe(document, {subtree: true, childList: true, attributes: true});
  const ended = () => { state.requests = Math.max(0, state.requests - 1); state.last = performance.now(); };
  const fetch = window.fetch;
  if (typeof fetch === "function") {
    window.fetch = function () {
      const p = fetch.apply(this, arguments);
      state.requests++;
      p.then(ended, ended);
      return p;
    };
  }
  const XHR = window.XMLHttpRequest && window.XMLHttpRequest.prototype, send = XHR && XHR.send;
  if (send) {
    XHR.send = function () {
      // counted before: a synchronous request's loadend fires inside send()
      state.requests++;
      this.addEventListener("loadend", ended, {once: true});
      try {
        return send.apply(this, arguments);
      } catch (err) {
        ended();  // not sent (not opened), or a synchronous request that failed: no loadend comes
        throw err;
      }
    };
  }
  // A reaction's chain: a short timer or an animation frame requested while an event is dispatched, or from such a
  // callback (up to CHAIN generations: Vue starts a transition two frames after the click), is on its way until it
  // runs. A loop the page ran before the action (a canvas redrawn every frame) is not: its callbacks descend from
  // no event.
  const CHAIN = 3;
  let generation = 0;  // of the tracked callback running now (0: none)
  const tracked = () => (window.event ? 1 : generation > 0 && generation < CHAIN ? generation + 1 : 0);
  const chained = (fn, gen, pending, key) => function () {
    pending.delete(key.id);
    state.last = performance.now();
    const outer = generation;
    generation = gen;
    try { return fn.apply(this, arguments); } finally { generation = outer; }
  };
  const setT = window.setTimeout, clearT = window.clearTimeout;
  window.setTimeout = function (fn, delay) {
    const gen = tracked();
    if (!gen || typeof fn !== "function" || !(Number(delay || 0) <= PENDING_TIMER_MS)) {
      return setT.apply(this, arguments);
    }
    const args = Array.prototype.slice.call(arguments), key = {id: 0};
    args[0] = chained(fn, gen, state.timers, key);
    key.id = setT.apply(this, args);
    state.timers.add(key.id);
    return key.id;
  };
  window.clearTimeout = function (id) { state.timers.delete(id); return clearT.apply(this, arguments); };
  state.frames = new Set();
  const rAF = window.requestAnimationFrame, cancelAF = window.cancelAnimationFrame;
  if (typeof rAF === "function") {
    window.requestAnimationFrame = function (fn) {
      const gen = tracked();
      if (!gen || typeof fn !== "function") return rAF.apply(this, arguments);
      const key = {id: 0};
      key.id = rAF.call(this, chained(fn, gen, state.frames, key));
      state.frames.add(key.id);
      return key.id;
    };
    window.cancelAnimationFrame = function (id) { state.frames.delete(id); return cancelAF.apply(this, arguments); };
  }
  // WebSocket: a message an event handler sent is a reaction on its way until a message comes back on that socket
  // (at most PENDING_SOCKET_MS); a message received is a change (a server answering over a socket: NiceGUI).  The
  // socket is watched from its first send on; the constructor is left alone (wrapping it at document start, the
  // load-time alert test of tests/e2e/test_web_dialogs.py failed more often: 4 of 7 paired runs against 0 of 7).
  state.sockets = new Map();
  const WS = window.WebSocket, wsSend = WS && WS.prototype && WS.prototype.send;
  if (wsSend) {
    const got = function () { state.sockets.delete(this); state.last = performance.now(); };
    const heard = new WeakSet();
    WS.prototype.send = function () {
      if (!heard.has(this)) {
        heard.add(this);
        this.addEventListener("message", got);
        this.addEventListener("close", got);
      }
      if (window.event) state.sockets.set(this, performance.now());
      return wsSend.apply(this, arguments);
    };
  }
  // A same-document link a click followed (an anchor under `scroll-behavior: smooth`): the browser starts scrolling
  // some frames later, so the jump is on its way until the page scrolls, at most PENDING_JUMP_MS.
  state.jump = -Infinity;
  state.jumpMs = PENDING_JUMP_MS;
  addEventListener("click", (ev) => {
    const a = !ev.defaultPrevented && ev.target instanceof Element ? ev.target.closest("a[href]") : null;
    if (!a || !a.hash) return;
    const to = new URL(a.href, location.href), here = location;
    if (to.origin === here.origin && to.pathname === here.pathname && to.search === here.search) {
      state.jump = performance.now();
    }
  });
  // A smooth scroll an event's handler asked for (scrollIntoView, scrollTo, scrollBy or scroll with behavior
  // "smooth", or under `scroll-behavior: smooth`): it starts some frames later too, and is on its way the same way.
  const smooth = (arg) => {
    if (!window.event) return;
    if ((arg && typeof arg === "object" && arg.behavior === "smooth") ||
        getComputedStyle(document.documentElement).scrollBehavior === "smooth") state.jump = performance.now();
  };
  for (const [proto, name] of [[Element.prototype, "scrollIntoView"], [Element.prototype, "scrollTo"],
                               [Element.prototype, "scrollBy"], [Element.prototype, "scroll"],
                               [window, "scrollTo"], [window, "scrollBy"], [window, "scroll"]]) {
    const original = proto[name];
    if (typeof original !== "function") continue;
    proto[name] = function (arg) { smooth(arg); return original.apply(this, arguments); };
  }
  const moved = () => { state.last = state.scrolled = performance.now(); state.jump = -Infinity; };
  addEventListener("scroll", moved, {capture: true, passive: true});
})
