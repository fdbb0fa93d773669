// Stores the walker in the page (walk.py's DEFINE_WALKER: once per document) and answers the function that runs
// it: with a probe (a screen point, and the serial of the element a gesture there aims at), the walker's aim there;
// without, the walk of at most maxNodes candidates; `frame`: the frame's place on the screen when the walk runs
// inside a frame (frames.py).  It lives under Symbol.for(keyName), non-writable,
// non-configurable and non-enumerable (walk.py says what that hides and what it does not); a page back from the
// cache keeps the one it had.
(walker, drawnSelect, cfg, maxNodes, keyName) => {
  const run = (probe, frame) => walker(probe ? 0 : maxNodes, {...cfg, probe, frame}, drawnSelect);
  const key = Symbol.for(keyName);
  if (!window[key]) Object.defineProperty(window, key, {value: run});
  return run;
}
