// The guarded tap's answer (gestures.py's _GUARD_ANSWER): {state, after}; `then` runs in the page once the tap is
// over, and `after` is what it returned (the caller's reading of the page after the tap, in this same evaluation);
// `left`: the touch's own handlers sent the document away before the click (tap_guard.js).
(then) => {
  const g = window.__phonewireTap;
  if (!g) return {state: "gone"};
  const end = (state) => {
    if (state === "moved") { g.state = "replaying"; return {state}; }
    g.off();
    return g.left ? {state, after: then(), left: true} : {state, after: then()};
  };
  if (g.state !== "waiting") return end(g.state);
  return g.answer.then((state) => { const r = end(state); r.state = "late " + r.state; return r; });
}
