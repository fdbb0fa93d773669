// The Ionic page's own handlers: the search filters the list, the dialog's Close button dismisses it, and the
// page records what it saw (window.seen) for the tests to read back.
window.seen = [];
document.getElementById("sheet").breakpoints = [0, 0.25, 0.5, 1];
const search = document.getElementById("search");
search.addEventListener("ionInput", (ev) => {
  const q = (ev.target.value || "").toLowerCase();
  let shown = 0;
  for (const item of document.querySelectorAll("#fruit ion-item")) {
    const hit = item.textContent.toLowerCase().includes(q);
    item.style.display = hit ? "" : "none";
    shown += hit ? 1 : 0;
  }
  document.getElementById("rows").textContent = shown + (shown === 1 ? " row" : " rows");
  window.seen.push("search:" + q);
});
document.getElementById("dialog-close").addEventListener("click", () => {
  document.getElementById("dialog").dismiss();
  window.seen.push("dialog-close");
});
document.getElementById("order").addEventListener("ionReorderEnd", (ev) => ev.detail.complete());
for (const t of document.querySelectorAll("ion-toggle")) {
  t.addEventListener("ionChange", (ev) => window.seen.push(t.id + ":" + ev.detail.checked));
}
document.getElementById("size").addEventListener("ionChange", (ev) => window.seen.push("size:" + ev.detail.value));
