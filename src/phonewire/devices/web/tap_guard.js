// The guard of one tap at (x, y): gestures.py's GUARD_JS says why and how.
(function (x, y) {
  const old = window.__phonewireTap; if (old) old.off();
  // hovering: the mouse is being moved to the point first (sticky hover, gestures.py's HOVER): of that move the
  // page sees the boundary events (mouseover, mouseenter, mouseout, mouseleave) only; the touch's first pointer
  // event ends it
  const g = {state: "waiting", hovering: true};
  const MOUSE = ["mousemove", "mousedown", "mouseup", "click", "mouseover", "mouseout", "mouseenter", "mouseleave",
                 "pointermove", "pointerdown", "pointerup", "pointerover", "pointerout", "pointerenter",
                 "pointerleave", "dblclick", "auxclick"];
  let answer = null;
  g.answer = new Promise((resolve) => { answer = resolve; });
  g.release = () => answer(g.state);
  const clicked = (state) => { g.state = state; answer(state); };
  const near = (ev) => Math.abs(ev.clientX - x) <= 1.5 && Math.abs(ev.clientY - y) <= 1.5;
  const guard = (ev) => {
    if (!ev.isTrusted) return;
    const pointer = ev.type.startsWith("pointer");
    if (pointer && ev.pointerType !== "mouse") { g.hovering = false; return; }  // the touch's own pointer events
    if (g.hovering) { if (pointer || ev.type === "mousemove") ev.stopImmediatePropagation(); return; }
    g.pressed = true;  // (the tap's mouse events began: a navigation from here on is the tap's doing, not the touch's)
    if (g.state === "replaying") {
      if (pointer) ev.stopImmediatePropagation();
      else if (ev.type === "click") g.state = "done";
      return;
    }
    if (near(ev)) { if (ev.type === "click" && g.state === "waiting") clicked("done"); return; }
    ev.stopImmediatePropagation();
    ev.preventDefault();
    if (ev.type === "click" && g.state === "waiting") clicked("moved");
  };
  const giveBack = lendClick(x, y);  // the element at the point takes the touch itself (lend_click.js)
  // the document sent away by the touch's own handlers, before the tap's mouse events (the answer says `left`):
  // DevTools' navigation events may reach the host only after the touch was acknowledged, this listener runs in
  // the handler
  const nav = window.navigation;
  const leaving = (ev) => {
    if (g.state === "waiting" && !g.pressed && !ev.destination.sameDocument && !ev.downloadRequest) g.left = true;
  };
  if (nav) nav.addEventListener("navigate", leaving);
  g.off = () => {
    for (const t of MOUSE) window.removeEventListener(t, guard, true);
    if (nav) nav.removeEventListener("navigate", leaving);
    giveBack();
    delete window.__phonewireTap;
  };
  for (const t of MOUSE) window.addEventListener(t, guard, true);
  window.__phonewireTap = g;
  return true;
})
