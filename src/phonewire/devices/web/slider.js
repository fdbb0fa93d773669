// phonewire: the ARIA slider a fill drags (sliders.py).  Evaluated as `(SLIDER)(point)`: point = [x, y] (screen
// points) names the slider there (the element with role=slider at or around it), which is kept for the next calls
// with point = null, which read it again after a drag.  Returns null when there is no such slider, else
// {now, min, max, vertical, disabled, track: [x, y, w, h], thumb: [x, y] | null, moved}, in screen points: `now` the
// aria-valuenow, min and max ARIA's defaults (0, 100) when unset; `track` the line the thumb runs along and `thumb`
// its centre; `moved` whether the page changed its value since the call with a point.  The role is on the thumb
// itself (the APG examples, Radix): the track is the nearest ancestor elongated the slider's way.  The role is on the
// whole control (Quasar's QSlider): it is the track, and the thumb is the element in it whose class names it a thumb
// (null when none does: the caller puts it where the value is).
(function (point) {
  "use strict";
  const vv = window.visualViewport, s = vv && vv.scale > 0 ? vv.scale : 1;
  const ox = vv ? vv.offsetLeft : 0, oy = vv ? vv.offsetTop : 0;
  let el = window.__phonewireSlider || null;
  if (point) {
    // (the element on top may be a part drawn over the thumb, an svg's rail: the slider is then under it)
    // (or the slider is a group that the point falls in between its parts: an svg's <g role=slider> holding rail
    // and thumb, the one slider in the element there whose box holds the point)
    const cx = point[0] / s + ox, cy = point[1] / s + oy;
    const stack = document.elementsFromPoint(cx, cy);
    el = null;
    for (const at of stack) {
      el = at.closest ? at.closest('[role="slider"]') : null;
      if (el) break;
    }
    if (!el && stack.length && stack[0].querySelectorAll) {
      const holds = (r) => r.left <= cx && cx <= r.right && r.top <= cy && cy <= r.bottom;
      const inside = Array.from(stack[0].querySelectorAll('[role="slider"]'))
        .filter((q) => holds(q.getBoundingClientRect()));
      el = inside.length === 1 ? inside[0] : null;
    }
    window.__phonewireSlider = el;
    // whether the page moved it at all while it was dragged (a stepped slider may end where it began)
    if (window.__phonewireSliderWatch) window.__phonewireSliderWatch.disconnect();
    window.__phonewireSliderMoved = false;
    window.__phonewireSliderWatch = el ? new MutationObserver(() => { window.__phonewireSliderMoved = true; }) : null;
    if (el) window.__phonewireSliderWatch.observe(el, {attributes: true, attributeFilter: ["aria-valuenow"]});
  }
  if (!el || !el.isConnected) return null;
  const num = (name, fallback) => {
    const v = parseFloat(el.getAttribute(name) || "");
    return Number.isFinite(v) ? v : fallback;
  };
  const vertical = el.getAttribute("aria-orientation") === "vertical";
  const elongated = (r) => (vertical ? r.height > 2.5 * r.width : r.width > 2.5 * r.height);
  const box = (r) => [(r.left - ox) * s, (r.top - oy) * s, r.width * s, r.height * s];
  const centre = (r) => [(r.left + r.width / 2 - ox) * s, (r.top + r.height / 2 - oy) * s];
  const own = el.getBoundingClientRect();
  let track = own, thumb = null;
  if (!elongated(own)) {
    thumb = own;
    for (let p = el.parentElement; p; p = p.parentElement) {
      const r = p.getBoundingClientRect();
      if (elongated(r)) { track = r; break; }
    }
  } else {
    const knob = el.querySelector('[class*="thumb" i], [class*="handle" i], [class*="knob" i]');
    const r = knob ? knob.getBoundingClientRect() : null;
    thumb = r && r.width > 0 && r.height > 0 ? r : null;
  }
  return {
    now: num("aria-valuenow", null), min: num("aria-valuemin", 0), max: num("aria-valuemax", 100), vertical,
    disabled: el.getAttribute("aria-disabled") === "true", track: box(track), thumb: thumb ? centre(thumb) : null,
    moved: !!window.__phonewireSliderMoved,
  };
})
