// Injected by bench/bench_miniwob.py into every MiniWoB++ task page it serves (never into phonewire).
// Part 1 (PRELUDE, first thing in <head>): remember which elements get click-like listeners, since a page can not
// otherwise tell which <div> or <svg> shape a d3/jQuery handler made clickable.
// Part 2 (MAIN, end of <head>): a fixed seed for Math.seedrandom per episode, and a DOM inventory of the visible
// interactive elements of the task area, posted to the harness (same origin, loopback) whenever it changes.
//__PRELUDE__
(function () {
  var kinds = { click: 1, mousedown: 1, mouseup: 1, dblclick: 1, touchstart: 1, touchend: 1, pointerdown: 1, pointerup: 1 };
  var marked = new WeakSet();
  window.__wobListened = marked;
  var orig = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, opts) {
    if (kinds[type] && this instanceof Element) marked.add(this);
    return orig.call(this, type, fn, opts);
  };
})();
//__MAIN__
(function () {
  var params = new URLSearchParams(location.search);
  var client = params.get("wob_client") || "phone";
  var seed = params.get("wob_seed") || "0";
  var task = location.pathname.split("/").pop().replace(/\.html$/, "");
  if (Math.seedrandom) Math.seedrandom(seed + ":load");
  var startReal = core.startEpisodeReal;
  core.startEpisodeReal = function () {
    Math.seedrandom(seed + ":" + WOB_EPISODE_ID);
    return startReal.apply(this, arguments);
  };

  var NATIVE = "a[href], button, input, select, textarea, [contenteditable=''], [contenteditable=true], [onclick], " +
    "[role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=option], [role=menuitem], " +
    "[role=treeitem], [role=slider], [role=spinbutton], [role=textbox], [role=combobox], [tabindex]:not([tabindex^='-'])";
  // the task area is the page less the harness HUD of core.js (reward display, START cover, click canvas)
  var SKIP_IDS = { wrap: 1, area: 1, query: 1 };
  var HUD = "#reward-display, #sync-task-cover, #click-canvas";

  function textOf(el) {
    var t = "";
    if (el.labels && el.labels.length) t = el.labels[0].innerText;
    t = t || el.getAttribute("aria-label") || el.getAttribute("title") || el.getAttribute("placeholder") || "";
    if (!t && (el.tagName === "INPUT" && /^(button|submit|reset)$/i.test(el.type))) t = el.value;
    if (!t && el.tagName !== "INPUT" && el.tagName !== "TEXTAREA" && el.tagName !== "SELECT") t = el.textContent || "";
    return t.replace(/\s+/g, " ").trim().slice(0, 80);
  }

  function shown(el, r) {
    if (r.width < 1 || r.height < 1) return false;
    if (r.right <= 0 || r.bottom <= 0 || r.left >= innerWidth || r.top >= innerHeight) return false;
    var cs = getComputedStyle(el);
    if (cs.visibility === "hidden" || cs.display === "none" || parseFloat(cs.opacity) === 0) return false;
    // the part of it that shows: clipped by the viewport and by every ancestor that clips its overflow (a
    // scrolled list's rows below its bottom edge do not show, and a hit test there reaches the page itself)
    var x0 = Math.max(r.left, 0), y0 = Math.max(r.top, 0), x1 = Math.min(r.right, innerWidth), y1 = Math.min(r.bottom, innerHeight);
    for (var a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      var acs = getComputedStyle(a);
      if (acs.overflowX === "visible" && acs.overflowY === "visible") continue;
      var ar = a.getBoundingClientRect();
      x0 = Math.max(x0, ar.left); y0 = Math.max(y0, ar.top); x1 = Math.min(x1, ar.right); y1 = Math.min(y1, ar.bottom);
    }
    if (!(x0 < x1 && y0 < y1)) return false;
    var x = Math.min((x0 + x1) / 2, innerWidth - 1), y = Math.min((y0 + y1) / 2, innerHeight - 1);
    var hit = document.elementFromPoint(x, y);
    if (!hit) return false;
    if (hit === el || el.contains(hit)) return hit.id !== "sync-task-cover";
    // an ancestor answers the hit test where the element lets clicks through (pointer-events: none); the page
    // itself answering means nothing is drawn there
    if (hit.contains(el)) return hit !== document.body && hit !== document.documentElement;
    return hit.tagName === "LABEL" && hit.control === el;
  }

  function collect() {
    var cands = [];
    var all = document.body.querySelectorAll("*");
    for (var i = 0; i < all.length; i++) {
      var el = all[i];
      if (SKIP_IDS[el.id] || el.closest(HUD)) continue;
      var why = null;
      if (el.matches(NATIVE)) why = "native";
      else if (window.__wobListened.has(el) || el.onclick || el.onmousedown) why = "listener";
      if (!why) continue;
      if (el.tagName === "INPUT" && el.type === "hidden") continue;
      cands.push([el, why]);
    }
    var out = [];
    for (var j = 0; j < cands.length; j++) {
      var c = cands[j][0];
      // a listener on a container of other candidates is delegation, not a control of its own
      if (cands[j][1] === "listener") {
        var container = false;
        for (var k = 0; k < cands.length && !container; k++) if (k !== j && c.contains(cands[k][0])) container = true;
        if (container) continue;
      }
      var r = c.getBoundingClientRect();
      if (!shown(c, r)) continue;
      var vv = window.visualViewport, vvS = vv && vv.scale > 0 ? vv.scale : 1;
      var vvX = vv ? vv.offsetLeft : 0, vvY = vv ? vv.offsetTop : 0;
      out.push({
        tag: c.tagName.toLowerCase(), type: c.getAttribute("type") || "", id: c.id || "",
        role: c.getAttribute("role") || "", text: textOf(c), why: cands[j][1],
        // in screen points of what the phone shows (docs/snapshot.md's coordinate model), as the view's rects are
        rect: { x: Math.round((r.left - vvX) * vvS * 10) / 10, y: Math.round((r.top - vvY) * vvS * 10) / 10,
                width: Math.round(r.width * vvS * 10) / 10, height: Math.round(r.height * vvS * 10) / 10 },
      });
    }
    return out;
  }

  // what each click actually landed on (the harness compares it with what the agent meant to tap)
  var lastClick = null;
  document.addEventListener("click", function (ev) {
    var t = ev.target;
    lastClick = { tag: t.tagName ? t.tagName.toLowerCase() : "", text: (t.textContent || "").trim().slice(0, 40),
                  x: ev.clientX, y: ev.clientY };
    soon();
  }, true);

  var seq = 0, last = "", timer = null;
  function post() {
    timer = null;
    var cover = document.getElementById("sync-task-cover");
    var started = !!cover && cover.style.display === "none";
    var els = collect();
    var key = JSON.stringify(els) + started + WOB_EPISODE_ID + JSON.stringify(lastClick);
    if (key === last) return;
    last = key;
    seq += 1;
    var body = JSON.stringify({ client: client, task: task, seq: seq, episode: WOB_EPISODE_ID,
                                started: started, scrollY: scrollY, lastClick: lastClick,
                                elements: els });
    var xhr = new XMLHttpRequest();
    xhr.open("POST", "/__wob/inventory", true);
    xhr.setRequestHeader("Content-Type", "application/json");
    xhr.send(body);
  }
  function soon() { if (timer === null) timer = setTimeout(post, 60); }
  function watch() {
    new MutationObserver(soon).observe(document.body, { subtree: true, childList: true, attributes: true,
                                                         characterData: true });
    addEventListener("scroll", soon, true);
    // CSS transitions and fades change what is visible without a DOM mutation: look again now and then
    // (a post is sent only when the inventory changed)
    setInterval(soon, 250);
    soon();
  }
  if (document.body) watch(); else addEventListener("DOMContentLoaded", watch);
})();
