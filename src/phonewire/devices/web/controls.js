// phonewire: set a form control's value as a person's choice would.  Evaluated as
// `(CONTROLS)(point, values, add, kinds)`: point = [x, y] names the control at that point (the element there, its
// <label>'s control, or the select/input that holds it), null names the focused element.
// A <select>: each value names an option by its visible text (spaces collapsed), else by its value attribute;
// a multi-select's selection becomes those options (add: they are added), a single select takes one.  An input
// (date, time, number, range, color…): its value is set to values[0] through the native setter.  Either way the
// control gets focus and then `input` and `change` events, as after a user's choice.
// An input of one of `kinds` (the types whose value must read back as given) that does not hold values[0] after
// the setter is set back to the value it had, with `input` and `change` again: a failed fill leaves the field as
// it was; the reply says what it would have held (`value`) and what it holds again (`previous`, `restored`).
// A box a library draws for a hidden select (drawnSelect, drawn_select.js) names that select; the reply adds `shown`,
// the text the box shows after the change (the library redraws it on `change`).
// A text input drawn as a drop-down (role=combobox, aria-expanded or aria-haspopup, no datalist) is refused: its text
// is no choice (findings 4, F4).
// Returns {selected, options, type, value, shown?} or {unmatched, options} (nothing changed) or {error, …}.
(function (point, values, add, kinds, drawnSelect) {
  "use strict";
  const clean = (s) => (s || "").replace(/\s+/g, " ").trim();
  // (the point is in screen points: the visual viewport's, at its scale — walker_perception.js's coordinate model)
  const vv = window.visualViewport, s = vv && vv.scale > 0 ? vv.scale : 1;
  let el = point ? document.elementFromPoint(point[0] / s + (vv ? vv.offsetLeft : 0),
                                             point[1] / s + (vv ? vv.offsetTop : 0)) : document.activeElement;
  for (let i = 0; i < 20 && el && el.shadowRoot && el.shadowRoot.activeElement && !point; i++) {
    el = el.shadowRoot.activeElement;
  }
  if (!el) return {error: "nothing", what: "nothing"};
  const stand = drawnSelect(el, false);
  let ctl = stand ? stand.select : (el.closest ? el.closest("select, input, textarea") : null);
  if (!ctl) {
    const label = el.closest ? el.closest("label") : null;
    if (label && label.control) ctl = label.control;
  }
  if (!ctl) return {error: "nothing", what: el.tagName.toLowerCase()};
  if (ctl.disabled) return {error: "disabled", what: ctl.tagName.toLowerCase()};
  const fire = () => {
    ctl.dispatchEvent(new Event("input", {bubbles: true, composed: true}));
    ctl.dispatchEvent(new Event("change", {bubbles: true}));
  };
  if (ctl.tagName === "SELECT") {
    const opts = Array.from(ctl.options);
    const texts = opts.map((o) => clean(o.text));
    const chosen = [], unmatched = [];
    for (const v of values) {
      let i = texts.indexOf(clean(v));
      if (i < 0) i = opts.findIndex((o) => o.value === v);
      if (i < 0 || opts[i].disabled) unmatched.push(v); else chosen.push(i);
    }
    if (unmatched.length) return {unmatched, options: texts, type: ctl.multiple ? "select-multiple" : "select"};
    if (!ctl.multiple && (chosen.length > 1 || add)) {
      return {error: "single", options: texts, type: "select"};
    }
    ctl.focus();
    if (ctl.multiple) {
      opts.forEach((o, i) => { if (chosen.includes(i)) o.selected = true; else if (!add) o.selected = false; });
    } else {
      ctl.selectedIndex = chosen[0];
    }
    fire();
    const reply = {selected: Array.from(ctl.selectedOptions).map((o) => clean(o.text)), options: texts,
                   type: ctl.multiple ? "select-multiple" : "select"};
    if (stand) reply.shown = clean(stand.box.textContent);
    return reply;
  }
  const type = ctl.tagName === "TEXTAREA" ? "textarea" : (ctl.getAttribute("type") || "text").toLowerCase();
  if (ctl.tagName !== "INPUT" || ["checkbox", "radio", "file", "button", "submit", "reset", "image", "hidden"].includes(type)) {
    return {error: "kind", what: ctl.tagName.toLowerCase(), type};
  }
  if (ctl.readOnly) {
    // a read-only input drawn as a drop-down (Quasar's QSelect: role=combobox, aria-expanded): a person taps it
    const drawn = ctl.getAttribute("role") === "combobox" || ctl.hasAttribute("aria-expanded") ||
      ctl.hasAttribute("aria-haspopup");
    return {error: "readonly", what: "input", type, drawn};
  }
  // A text field drawn as a drop-down (Gradio's Dropdown: role=combobox, aria-expanded, its list drawn by the page,
  // no datalist): its text is a filter, not its choice; the page puts its own choice back when the field loses focus.
  if (!(kinds || []).includes(type) && !ctl.list && (ctl.getAttribute("role") === "combobox" ||
      ctl.hasAttribute("aria-expanded") || ctl.hasAttribute("aria-haspopup"))) {
    return {error: "filter", what: "input", type};
  }
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
  if (document.activeElement !== ctl) ctl.focus();
  const previous = ctl.value;
  setter.call(ctl, values[0]);
  fire();
  const held = ctl.value;
  const out = {value: held, type, selected: [held],
               min: ctl.getAttribute("min") || "", max: ctl.getAttribute("max") || "", step: ctl.getAttribute("step") || ""};
  if ((kinds || []).includes(type) && held !== values[0]) {
    if (held !== previous) { setter.call(ctl, previous); fire(); }
    Object.assign(out, {previous, restored: ctl.value === previous});
  }
  return out;
})
