// The element that has focus when it is no text field (input.py's keyboard_return): a button, a link, a menu item
// or any other focusable element, which Enter activates (its own default action, or the page's key handler);
// null when nothing but the page has focus.
() => {
  let el = document.activeElement;
  for (let i = 0; i < 20 && el; i++) {
    if (el.shadowRoot && el.shadowRoot.activeElement) { el = el.shadowRoot.activeElement; continue; }
    if ((el.tagName === "IFRAME" || el.tagName === "FRAME") && el.contentDocument) {
      el = el.contentDocument.activeElement; continue;
    }
    break;
  }
  if (!el || el === document.body || el === document.documentElement) return null;
  if (el.disabled) return null;
  return el.getAttribute("role") || el.tagName.toLowerCase();
}
