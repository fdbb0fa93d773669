// The element at the client point (x, y) takes a touch there itself.  Chromium moves a touch's touchstart, pointer
// events and click to a clickable element near the finger (touch adjustment, in a box of about 25 points, whatever
// the touch's radius) when what is under the finger takes no clicks: a plain text beside a link sent the link its
// touches (a tap, a double tap, a long press alike).  An element with a click handler of its own is such a
// candidate, and the one under the finger wins: a handler that does nothing (`onclick`, not a listener, which
// clickers.js would count as the page's), lent to that element for the gesture, unless it has one.  `hit`: the
// element there when the caller found it already.  Answers the function that takes the handler back.
(function (x, y, hit) {
  let under = hit || document.elementFromPoint(x, y);
  while (under && under.shadowRoot) {
    const inner = under.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === under) break;
    under = inner;
  }
  const lent = under && under.onclick === null ? under : null;
  if (lent) lent.onclick = () => {};
  return () => { if (lent) lent.onclick = null; };
})
