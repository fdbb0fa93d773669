// Resolves once no scroll event fired for QUIET ms (a fling or smooth scroll has ended), at most MAX ms: true when
// it came to rest.  Evaluated as `(rest)(QUIET, MAX)` (scrolling.py's REST_QUIET_MS, REST_MAX_MS).
((QUIET, MAX) => new Promise(resolve => {
  const t0 = performance.now();
  let last = t0;
  const mark = () => { last = performance.now(); };
  addEventListener("scroll", mark, {capture: true, passive: true});
  const check = () => {
    const now = performance.now();
    if (now - last >= QUIET || now - t0 >= MAX) {
      removeEventListener("scroll", mark, {capture: true}); resolve(now - last >= QUIET);
    } else setTimeout(check, Math.max(10, QUIET - (now - last)));
  };
  setTimeout(check, QUIET);
}))
