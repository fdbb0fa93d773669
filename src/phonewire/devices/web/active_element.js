// The element that has focus, through open shadow roots and same-origin frames (the page's document.activeElement
// is the frame or the shadow host): focused.js and readback.js take it.
() => {
  let el = document.activeElement;
  for (let i = 0; i < 20 && el; i++) {
    if (el.shadowRoot && el.shadowRoot.activeElement) { el = el.shadowRoot.activeElement; continue; }
    if ((el.tagName === "IFRAME" || el.tagName === "FRAME") && el.contentDocument) {
      el = el.contentDocument.activeElement; continue;
    }
    break;
  }
  return el;
}
