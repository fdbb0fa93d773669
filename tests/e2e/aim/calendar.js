// calendar.html: November 2026, weeks Sunday to Saturday; a click on a day names it.
const body = document.getElementById("days");
let day = 1 - 0;  // Nov 1 2026 is a Sunday
for (let w = 0; w < 5; w++) {
  const row = body.insertRow();
  for (let d = 0; d < 7; d++, day++) {
    const cell = row.insertCell();
    if (day <= 30) { cell.textContent = String(day); cell.id = `day-${day}`; cell.dataset.aim = ""; }
  }
}
document.getElementById("month").addEventListener("click", (ev) => {
  const cell = ev.target.closest("td");
  if (cell && cell.textContent) document.getElementById("picked").textContent = `picked: ${cell.textContent}`;
});
