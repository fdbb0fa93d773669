// After a long press's touchEnd (input.py's long_press): the guard (press_guard.js) stays until the press's click
// has come and gone (it is dispatched with the touchEnd's gesture, before the next frame), then goes.  A press on
// text selects the word under the finger as a phone does (select_text.js: a real selection, selectionchange
// fires); on a link, a button or a field it selects nothing.  Called with the screen point and select_text.js.
(x, y, select) => new Promise((done) => requestAnimationFrame(() => setTimeout(() => {
  if (window.__phonewirePress) window.__phonewirePress();
  const vv = window.visualViewport, scale = vv && vv.scale > 0 ? vv.scale : 1;
  const el = document.elementFromPoint(x / scale, y / scale);
  const control = "a[href], button, input, textarea, select, label, [role=button], [role=link], [contenteditable]";
  if (!el || el.closest(control)) { done(null); return; }
  done(select(x, y, "word", 0, 0));
}, 0)))
