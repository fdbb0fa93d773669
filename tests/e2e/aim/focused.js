// focused.html: the inline rename field closes (is replaced by its text) when it is tapped while being edited, as
// a notebook's inline editor does.
const rename = document.getElementById("rename");
rename.addEventListener("pointerdown", () => {
  if (document.activeElement === rename) {
    document.getElementById("rename-box").textContent = rename.value;
    document.getElementById("status").textContent = "closed";
  }
});
