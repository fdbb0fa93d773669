// The page's own record of what a touch reached, for the aim tests (tests/e2e/aim_site.py).  Every click is
// reported to the test's loopback server synchronously (the report is stored before the click's task ends, so
// before the runner answers the tap): the nearest element marked data-aim (its data-aim value, or its id), or null
// for a click that
// reached no such element.  A button with data-opens shows that panel, focuses its field and scrolls it into view
// (a widget whose opening moves focus and scrolls).  data-scroll="X,Y" on the body scrolls the page on load.
(() => {
  const report = (id) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/record", false);
    xhr.setRequestHeader("Content-Type", "application/json");
    xhr.send(JSON.stringify({id}));
  };
  document.addEventListener("click", (ev) => {
    const el = ev.target instanceof Element ? ev.target.closest("[data-aim]") : null;
    report(el ? el.dataset.aim || el.id : null);
  }, true);
  document.addEventListener("click", (ev) => {
    const opener = ev.target instanceof Element ? ev.target.closest("[data-opens]") : null;
    if (!opener) return;
    const panel = document.getElementById(opener.dataset.opens);
    panel.hidden = false;
    const field = panel.querySelector("input");
    field.focus();
    field.scrollIntoView({block: "center"});
  });
  const scroll = () => {
    const at = document.body && document.body.dataset.scroll;
    if (at) window.scrollTo(...at.split(",").map(Number));
  };
  if (document.readyState === "complete") scroll();
  else window.addEventListener("load", scroll);
})();
