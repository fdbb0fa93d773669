// The conformance probe (test_wpt_conformance.py): run after the walker's spec and rules layers in one function,
// it answers, for every case of the page (class ex / ex-generic, shadow roots included), what the spec layer says
// of it — [testname, expectedRole, expectedLabel, role, name, visible] — and marks each case with data-pw-case=N
// so the test finds the same element in Chromium's accessibility tree.
(() => {
  const cases = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.classList.contains("ex") || el.classList.contains("ex-generic")) cases.push(el);
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  return cases.map((el, i) => {
    el.setAttribute("data-pw-case", String(i));
    const tag = el.tagName, role = roleOf(el, tag);
    const expectedRole = el.classList.contains("ex-generic") ? "generic" : el.getAttribute("data-expectedrole");
    const visible = el.getClientRects().length > 0 && el.checkVisibility({visibilityProperty: true});
    return [el.getAttribute("data-testname") || "", expectedRole, el.getAttribute("data-expectedlabel"), role,
            nameOf(el, tag, role), visible];
  });
})()
