// Whether a phone shows its on-screen keyboard for the focused element `el` (active_element.js's), whose kind
// focus_probe.js gave as `kind`: a field that takes typing, unless it asks for no keyboard (inputmode="none");
// a date, time or colour field opens a picker instead, a read-only or disabled one nothing.
(el, kind) => {
  if (!el || !kind || kind === "readonly" || kind === "disabled") return false;
  if (/^input:(date|time|datetime-local|month|week|color)$/.test(kind)) return false;
  return (el.getAttribute("inputmode") || "").toLowerCase() !== "none";
}
