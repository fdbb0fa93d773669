// The APG pages' record of what each click reached (tests/e2e/test_apg.py), loaded before the page's own scripts by
// the test's server: per click, synchronously, the names of the element it reached and of its ancestors (as a
// person would read them: aria-label, the text of aria-labelledby, a control's label, the text, the title), and whether the
// click follows a link to another page.
(() => {
  const text = (el) => (el.innerText || el.textContent || "").replace(/\s+/g, " ").trim();
  const nameOf = (el) => {
    const label = el.getAttribute("aria-label");
    if (label) return label.trim();
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      const named = by.split(/\s+/).map((id) => document.getElementById(id)).filter(Boolean).map(text).join(" ");
      if (named) return named;
    }
    if (el.labels && el.labels.length) return text(el.labels[0]);
    return text(el).slice(0, 200) || (el.getAttribute("title") || "").trim();
  };
  window.addEventListener("click", (ev) => {
    const names = [];
    for (let el = ev.target instanceof Element ? ev.target : null; el && names.length < 8; el = el.parentElement) {
      names.push(nameOf(el));
      if (el.getAttribute("title")) names.push(el.getAttribute("title").trim());
      if (el.value && typeof el.value === "string") names.push(el.value);
    }
    const link = ev.target instanceof Element ? ev.target.closest("a[href]") : null;
    const away = Boolean(link && !link.getAttribute("href").startsWith("#"));
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/__aim/record", false);
    xhr.setRequestHeader("Content-Type", "application/json");
    xhr.send(JSON.stringify({names, away}));
  }, true);
})();
