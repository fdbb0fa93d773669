// Run in every page before its own scripts (pages.py's POPUPS_JS): a phone's popup blocker.  A phone's browser lets
// a page open one window per tap (window.open needs the user's activation, and opening a window uses it up); the
// headless browser lets a page open any number, and one tap of a page that opened 100 windows held the phone for
// 6 s and ended its app.  So window.open opens a window only while the page has the user's activation and no window
// was opened since the last tap or key press began; otherwise it answers null (a blocked popup, as a page sees it)
// and says so in one console line that starts with `marker` (the device counts it for the view; it is no log
// entry).  Links with target=_blank open as they did (one per click).
(marker) => {
  const key = Symbol.for("phonewire.popups");
  if (window[key]) return;
  Object.defineProperty(window, key, {value: true});
  let gesture = 0, used = -1;
  const began = (event) => { if (event.isTrusted) gesture++; };
  window.addEventListener("pointerdown", began, true);
  window.addEventListener("keydown", began, true);
  const open = window.open;
  const warn = console.warn;
  window.open = function (...args) {
    const activation = navigator.userActivation;
    if ((!activation || activation.isActive) && used !== gesture) {
      used = gesture;
      return open.apply(this, args);
    }
    warn.call(console, marker + String(args[0] ?? ""));
    return null;
  };
}
