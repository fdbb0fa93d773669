// Once the keyboard came up or went (the page's view resized): two frames, so the page's own `resize` handlers
// (window's, visualViewport's) have run; then, with the keyboard up, the focused field `el` (active_element.js's)
// is scrolled to just above the keyboard when it ended under it, as the phone's browser does.
(el, up) => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => {
  if (up && el && el.ownerDocument === document) {
    const r = el.getBoundingClientRect();
    if (r.bottom > innerHeight || r.top < 0) el.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
  resolve(0);
})))
