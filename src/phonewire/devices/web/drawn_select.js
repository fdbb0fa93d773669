// phonewire: a <select> that a library hides and draws a box of its own for (Select2).  Evaluated as an argument
// of the walk and of the control setter, `drawnSelect(el)` answers {box, select} when `el` is that box (or inside
// it; with `exact`, only the box itself) or the hidden select itself, else null.  Select2 3.x puts a `.select2-container` (id "s2id_" + the select's
// id) before the select, its box an <a class="select2-choice">; Select2 4.x puts it after the select, its box a
// `.select2-selection--single`.  The walk lists the box as the select (a ComboBox named by the select's label,
// its value the text the box shows) and leaves the hidden select out; `select` sets the hidden select and fires
// `change`, which the library listens to.
(function drawnSelect(el, exact) {
  "use strict";
  const BOX = ".select2-choice, .select2-selection--single";
  if (!el || !el.closest) return null;
  if (el.tagName === "SELECT") {
    if (el.multiple) return null;
    const before = el.previousElementSibling, after = el.nextElementSibling;
    const container = (el.id && document.getElementById("s2id_" + el.id)) ||
      [before, after].find((c) => c && c.classList && c.classList.contains("select2-container")) || null;
    const box = container ? container.querySelector(BOX) : null;
    return box ? {box, select: el} : null;
  }
  const box = exact ? (el.matches(BOX) ? el : null) : el.closest(BOX);
  const container = box ? box.closest(".select2-container") : null;
  if (!container) return null;
  let select = container.id.startsWith("s2id_") ? document.getElementById(container.id.slice(5)) : null;
  if (!select || select.tagName !== "SELECT") {
    const before = container.previousElementSibling, after = container.nextElementSibling;
    select = [after, before].find((c) => c && c.tagName === "SELECT") || null;
  }
  return select && !select.multiple ? {box, select} : null;
})
