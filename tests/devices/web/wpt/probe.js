// The conformance probe (wpt_cases.py): run after the walker's spec and rules layers in one function, with MANUAL
// declared before it (the manual tests' cases: [element id, expected name]), it answers, for every case of the page
// — class ex / ex-generic (shadow roots included), then each manual case's element — what the spec layer says of
// it: [testname, expectedRole, expectedLabel, role, name, visible].  It marks each case with data-pw-case=N so the
// test finds the same element in Chromium's accessibility tree.
(() => {
  const cases = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.classList.contains("ex") || el.classList.contains("ex-generic")) {
        const role = el.classList.contains("ex-generic") ? "generic" : el.getAttribute("data-expectedrole");
        const label = el.hasAttribute("data-expectedlabel") ? el.getAttribute("data-expectedlabel")
          : el.getAttribute("data-expectedname");
        cases.push([el, el.getAttribute("data-testname") || "", role, label]);
      }
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  for (const [id, label] of MANUAL) {
    const el = document.getElementById(id);
    if (el) cases.push([el, "#" + id + " " + document.title, null, label]);
  }
  return cases.map(([el, test, expectedRole, expectedLabel], i) => {
    el.setAttribute("data-pw-case", String(i));
    const tag = el.tagName, role = roleOf(el, tag);
    const visible = el.getClientRects().length > 0 && el.checkVisibility({visibilityProperty: true});
    return [test, expectedRole, expectedLabel, role, nameOf(el, tag, role), visible];
  });
})()
