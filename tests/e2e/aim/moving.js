// moving.html: what the buttons do to the target and the frame.
const target = document.getElementById("target");
document.getElementById("mover").addEventListener("click", () => { target.style.top = "180px"; });
document.getElementById("remover").addEventListener("click", () => target.remove());
document.getElementById("coverer").addEventListener("click", () => {
  const cover = document.createElement("div");
  cover.id = "cover";
  document.body.appendChild(cover);
});
document.getElementById("closer").addEventListener("click", () => document.getElementById("frame").remove());
