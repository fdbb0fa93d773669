// surface.html's listeners: the whole content cancels nothing here but listens (as Ionic's does); the tile records
// its taps on itself (data-taps) for a test to read.
document.getElementById("content").addEventListener("click", () => {});
const tile = document.getElementById("tile");
tile.addEventListener("click", () => { tile.dataset.taps = String(Number(tile.dataset.taps || 0) + 1); });
