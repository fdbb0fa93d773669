// After a long press's touchEnd (input.py's long_press): the guard (press_guard.js) stays until the press's click
// has come and gone (it is dispatched with the touchEnd's gesture, before the next frame), then goes.  What the
// press did then, as a phone's browser decides it:
// * the page took it (its contextmenu handler called preventDefault: its own menu): nothing more, {taken: true};
// * on a link: the system's link menu, {link: its address, text: its text} (the device shows it);
// * on text: the word under the finger selected (select_text.js: a real selection, selectionchange fires);
// * on a button or a field: nothing, null.
// Called with the screen point and select_text.js.
(x, y, select) => new Promise((done) => requestAnimationFrame(() => setTimeout(() => {
  if (window.__phonewirePress) window.__phonewirePress();
  const menu = window.__phonewirePressMenu;
  delete window.__phonewirePressMenu;
  if (menu && menu.defaultPrevented) { done({taken: true}); return; }
  const vv = window.visualViewport, scale = vv && vv.scale > 0 ? vv.scale : 1;
  const el = document.elementFromPoint(x / scale, y / scale);
  const link = el && el.closest("a[href]");
  if (link && /^(https?|file):/.test(link.href)) {
    done({link: link.href, text: (link.innerText || link.textContent || "").trim().replace(/\s+/g, " ")});
    return;
  }
  const control = "a[href], button, input, textarea, select, label, [role=button], [role=link], [contenteditable]";
  if (!el || el.closest(control)) { done(null); return; }
  done(select(x, y, "word", 0, 0));
}, 0)))
