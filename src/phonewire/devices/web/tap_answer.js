// The guarded tap's answer (gestures.py's _GUARD_ANSWER); `then` runs in the page once the tap is over.
(then) => {
  const g = window.__phonewireTap;
  if (!g) return "gone";
  const end = (state) => {
    if (state === "moved") g.state = "replaying";
    else { g.off(); then(); }
    return state;
  };
  return g.state !== "waiting" ? end(g.state) : g.answer.then((state) => "late " + end(state));
}
