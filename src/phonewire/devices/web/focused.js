// The element that has focus (active_element.js's) when it is no text field (input.py's keyboard_return): a
// button, a link, a menu item or any other focusable element, which Enter activates (its own default action, or the
// page's key handler); null when nothing but the page has focus.
(el) => {
  if (!el || el === document.body || el === document.documentElement) return null;
  if (el.disabled) return null;
  return el.getAttribute("role") || el.tagName.toLowerCase();
}
