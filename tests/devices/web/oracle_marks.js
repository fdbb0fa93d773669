// The oracle test's lookup (test_walk_oracle.py): the elements (shadow roots included) that the walk gave a
// serial, as [serials, elements] — the test reads the elements by reference and asks Chromium's tree about each.
(() => {
  const serials = document[Symbol.for("phonewire.serials")];
  const numbers = [], elements = [];
  const visit = (root) => {
    for (const el of root.querySelectorAll("*")) {
      const n = serials ? serials.of.get(el) : undefined;
      if (n !== undefined) { numbers.push(String(n)); elements.push(el); }
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  return [numbers, elements];
})()
