// phonewire demo app: a small multi-screen mobile app with visible counters, so a test (or an agent) can read
// every effect back from a snapshot and check it happened exactly once.  No build step, no dependencies.
"use strict";

const $ = (id) => document.getElementById(id);
const ROWS = 300;
const state = { likes: new Array(ROWS).fill(0), totalLikes: 0, cart: 0, doubleTaps: 0, singleTaps: 0,
  longPresses: 0, searches: 0, signins: 0, switchToggles: 0, confirms: 0, cancels: 0, moves: 0, ticks: 0 };

// ---- list -------------------------------------------------------------------------------------------------
function buildRows() {
  const list = $("rows");
  const frag = document.createDocumentFragment();
  for (let i = 1; i <= ROWS; i++) {
    const li = document.createElement("li");
    li.id = "row-" + i;
    const a = document.createElement("a");
    a.href = "#detail/" + i;
    a.id = "open-" + i;
    a.textContent = "Item " + i;
    const b = document.createElement("button");
    b.className = "like";
    b.id = "like-" + i;
    b.dataset.row = String(i);
    b.textContent = "Like 0";
    li.append(a, b);
    frag.append(li);
  }
  list.append(frag);
  list.addEventListener("click", (ev) => {
    const b = ev.target.closest("button.like");
    if (!b) return;
    const i = Number(b.dataset.row) - 1;
    state.likes[i] += 1;
    state.totalLikes += 1;
    b.textContent = "Like " + state.likes[i];
    $("likes-total").textContent = String(state.totalLikes);
  });
}

// ---- detail -----------------------------------------------------------------------------------------------
function showDetail(n) {
  $("detail-heading").textContent = "Item " + n;
  $("detail-body").textContent = "Details of item " + n + ". Likes: " + (state.likes[n - 1] || 0) + ".";
}
$("add-to-cart").addEventListener("click", () => { state.cart += 1; $("cart-count").textContent = String(state.cart); });
$("double-tap-target").addEventListener("click", () => {
  state.singleTaps += 1; $("single-taps").textContent = String(state.singleTaps);
});
$("double-tap-target").addEventListener("dblclick", () => {
  state.doubleTaps += 1; $("double-taps").textContent = String(state.doubleTaps);
});
(function longPress() {
  const el = $("hold-target");
  let timer = null;
  const cancel = () => { if (timer) { clearTimeout(timer); timer = null; } };
  el.addEventListener("touchstart", () => {
    cancel();
    timer = setTimeout(() => {
      timer = null; state.longPresses += 1; $("long-presses").textContent = String(state.longPresses);
    }, 500);
  }, { passive: true });
  el.addEventListener("touchend", cancel);
  el.addEventListener("touchcancel", cancel);
  el.addEventListener("contextmenu", (ev) => ev.preventDefault());
})();

// ---- form -------------------------------------------------------------------------------------------------
$("search-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  state.searches += 1;
  $("search-count").textContent = String(state.searches);
  $("search-last").textContent = $("search").value || "(empty)";
});
$("login-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  state.signins += 1;
  $("signin-count").textContent = String(state.signins);
  $("signin-user").textContent = $("name").value || "(no name)";
});

// ---- controls ---------------------------------------------------------------------------------------------
$("notifications").addEventListener("change", () => {
  state.switchToggles += 1; $("switch-count").textContent = String(state.switchToggles);
});
$("volume").addEventListener("input", () => { $("volume-value").textContent = $("volume").value; });
$("open-dialog").addEventListener("click", () => $("dialog").showModal());
$("dialog-cancel").addEventListener("click", () => {
  state.cancels += 1; $("dialog-cancels").textContent = String(state.cancels); $("dialog").close();
});
$("dialog-confirm").addEventListener("click", () => {
  state.confirms += 1; $("dialog-confirms").textContent = String(state.confirms); $("dialog").close();
});
(function carousel() {
  const c = $("carousel");
  for (let i = 1; i <= 8; i++) {
    const d = document.createElement("div");
    d.className = "card-item";
    d.id = "card-" + i;
    d.textContent = "Card " + i;
    c.append(d);
  }
  c.addEventListener("scroll", () => {
    $("carousel-index").textContent = String(Math.min(8, Math.round(c.scrollLeft / 272) + 1));
  }, { passive: true });
})();
setInterval(() => { state.ticks += 1; $("ticks").textContent = String(state.ticks); }, 100);

// ---- reorder (touch-driven drag) ---------------------------------------------------------------------------
(function reorder() {
  const list = $("tasks");
  for (const name of ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot"]) {
    const li = document.createElement("li");
    li.id = "task-" + name.toLowerCase();
    li.textContent = name;
    list.append(li);
  }
  const pitch = () => { const a = list.children[0], b = list.children[1]; return b.offsetTop - a.offsetTop; };
  const showOrder = () => {
    $("task-order").textContent = Array.from(list.children, (li) => li.textContent).join(" ");
  };
  let drag = null;
  list.addEventListener("touchstart", (ev) => {
    const li = ev.target.closest("li");
    if (!li || ev.touches.length !== 1) return;
    drag = { li, y0: ev.touches[0].clientY, from: Array.prototype.indexOf.call(list.children, li), dy: 0 };
    li.classList.add("dragging");
  }, { passive: true });
  list.addEventListener("touchmove", (ev) => {
    if (!drag) return;
    ev.preventDefault();
    drag.dy = ev.touches[0].clientY - drag.y0;
    drag.li.style.transform = "translateY(" + drag.dy + "px)";
  }, { passive: false });
  const end = () => {
    if (!drag) return;
    const { li, from, dy } = drag;
    drag = null;
    li.classList.remove("dragging");
    li.style.transform = "";
    const n = list.children.length;
    const to = Math.max(0, Math.min(n - 1, from + Math.round(dy / pitch())));
    if (to === from) return;
    li.remove();
    list.insertBefore(li, list.children[to] || null);
    state.moves += 1;
    $("move-count").textContent = String(state.moves);
    showOrder();
  };
  list.addEventListener("touchend", end);
  list.addEventListener("touchcancel", end);
  showOrder();
})();

// ---- drawer, and elements that come and go 300 ms after a tap -------------------------------------------------
(function drawer() {
  const show = (open) => { $("drawer").hidden = !open; $("drawer-backdrop").hidden = !open; };
  $("open-drawer").addEventListener("click", () => show(true));
  $("close-drawer").addEventListener("click", () => show(false));
  $("drawer-backdrop").addEventListener("click", () => show(false));
  $("drawer-inbox").addEventListener("click", () => show(false));
  $("drawer-order").addEventListener("click", () => show(false));
  // like a UI kit's drawer: Escape closes it (the web phone's back sends Escape first)
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && !$("drawer").hidden) show(false); });
  $("show-later").addEventListener("click", () => setTimeout(() => {
    if ($("arrived")) return;
    const b = document.createElement("button");
    b.id = "arrived";
    b.textContent = "Arrived";
    $("later-box").append(b);
  }, 300));
  $("hide-later").addEventListener("click", () => setTimeout(() => { const b = $("arrived"); if (b) b.remove(); }, 300));
})();

// ---- order form: what it holds, how many change events it got, the last keys pressed, a key-driven filter ----
(function order() {
  const form = $("order-form");
  const summary = () => {
    const pick = (id) => Array.from($(id).selectedOptions).map((o) => o.value).join("+") || "none";
    const delivery = form.querySelector("input[name=delivery]:checked");
    $("order-summary").textContent = `size=${pick("size")} toppings=${pick("toppings")} gift=${$("gift").checked ? 1 : 0}` +
      ` delivery=${delivery ? delivery.value : "none"} day=${$("day").value || "none"} at=${$("at").value || "none"}` +
      ` qty=${$("qty").value || "none"} tip=${$("tip").value}`;
  };
  form.addEventListener("change", () => { $("order-changes").textContent = String(Number($("order-changes").textContent) + 1); summary(); });
  form.addEventListener("input", summary);
  const keys = [];
  document.addEventListener("keydown", (ev) => {
    if (location.hash !== "#order") return;
    keys.push(ev.shiftKey && ev.key === "Tab" ? "Shift+Tab" : ev.key === " " ? "Space" : ev.key);
    $("order-keys").textContent = keys.slice(-3).join(",");
  });
  // the filter reacts to keyup only (as many autocompletes do): inserted text that sends no keys does not filter
  $("filter").addEventListener("keyup", () => {
    const q = $("filter").value.toLowerCase();
    for (const li of $("fruit").children) li.hidden = !li.textContent.toLowerCase().startsWith(q);
  });
  summary();
  // icons without text or role: a click listener each (what makes them buttons to a person)
  for (const icon of document.querySelectorAll(".icons [data-act]")) {
    icon.addEventListener("click", () => { $("icon-taps").textContent = icon.dataset.act; });
  }
})();

// ---- routing (hash; every screen change is a history entry, so back works) ----------------------------------
function route() {
  const hash = location.hash.replace(/^#/, "") || "list";
  const [name, arg] = hash.split("/");
  const screen = ["list", "detail", "form", "controls", "reorder", "order"].includes(name) ? name : "list";
  for (const s of document.querySelectorAll(".screen")) s.hidden = s.id !== "screen-" + screen;
  if (screen === "detail") showDetail(Number(arg) || 1);
  $("title").textContent = screen === "detail" ? "Item " + (Number(arg) || 1) : $("screen-" + screen).dataset.title;
  $("nav-back").hidden = screen !== "detail";
  for (const t of document.querySelectorAll(".tab")) {
    if (t.getAttribute("href") === "#" + screen) t.setAttribute("aria-current", "page");
    else t.removeAttribute("aria-current");
  }
}
$("nav-back").addEventListener("click", () => history.back());
window.addEventListener("hashchange", route);
buildRows();
route();
