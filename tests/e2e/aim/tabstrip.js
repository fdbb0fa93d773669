// tabstrip.html: a tab selects itself and names itself in the panel.
for (const tab of document.querySelectorAll("[role=tab]")) {
  tab.addEventListener("click", () => {
    for (const t of document.querySelectorAll("[role=tab]")) t.setAttribute("aria-selected", String(t === tab));
    document.getElementById("panel").textContent = tab.textContent;
  });
}
