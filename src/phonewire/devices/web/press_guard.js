// The guard of one long press (input.py's long_press): a phone's long press makes no click.  Chromium's touch
// emulation here turns a held touch into a tap (mouse events and a click, a link followed); the guard (window,
// capture phase) stops the press's mouse events, its click and its mouse-type pointer events.  Touch events and
// the touch's pointer events pass untouched, and so does the press's contextmenu event (Android's long press
// fires one: gestures.py sends it as a right-button press, whose mouse events are stopped here); the guard keeps
// it, so press_end.js can tell whether the page took the press for its own menu (preventDefault).  The element at
// the press's client point (x, y) takes its touches itself (lend_click.js).  Answers true; window.__phonewirePress
// takes the guard off.
(function (x, y) {
  const old = window.__phonewirePress; if (old) old();
  const MOUSE = ["mousemove", "mousedown", "mouseup", "click", "mouseover", "mouseout", "mouseenter", "mouseleave",
                 "pointermove", "pointerdown", "pointerup", "pointerover", "pointerout", "pointerenter",
                 "pointerleave", "dblclick", "auxclick"];
  const stop = (ev) => {
    if (!ev.isTrusted) return;
    if (ev.type.startsWith("pointer") && ev.pointerType !== "mouse") return;  // the touch's own pointer events
    ev.stopImmediatePropagation();
    ev.preventDefault();
  };
  const menu = (ev) => { if (ev.isTrusted) window.__phonewirePressMenu = ev; };
  delete window.__phonewirePressMenu;
  for (const t of MOUSE) window.addEventListener(t, stop, true);
  window.addEventListener("contextmenu", menu, true);
  const giveBack = lendClick(x, y);
  window.__phonewirePress = () => {
    giveBack();
    for (const t of MOUSE) window.removeEventListener(t, stop, true);
    window.removeEventListener("contextmenu", menu, true);
    delete window.__phonewirePress;
  };
  return true;
})
