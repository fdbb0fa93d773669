// flight.html: the list opens 300 ms after typing in From stops (jQuery UI autocomplete's default delay) and closes
// when From loses focus.
const from = document.getElementById("flight-from");
const menu = document.getElementById("menu");
let timer = 0;
from.addEventListener("input", () => {
  clearTimeout(timer);
  timer = setTimeout(() => { menu.hidden = false; }, 300);
});
from.addEventListener("blur", () => { menu.hidden = true; });
menu.addEventListener("mousedown", (ev) => ev.preventDefault());
menu.addEventListener("click", (ev) => {
  const item = ev.target.closest("li");
  if (item) from.value = item.textContent;
});
