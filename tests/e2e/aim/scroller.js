// scroller.html: twelve posts, each with reply / retweet / like controls — spans whose content is an image, a click
// on them handled by one delegated listener on the scroller, as MiniWoB's social-media task does — the scroller
// scrolled part-way.
const area = document.getElementById("area");
for (let i = 0; i < 12; i++) {
  const post = document.createElement("div");
  post.className = "post";
  post.innerHTML = `<div>@user${i}: post ${i}</div><div class="controls">` +
    `<span data-aim="reply-${i}" class="reply"></span>` +
    `<span data-aim="retweet-${i}" class="retweet"></span>` +
    `<span data-aim="like-${i}" class="like"></span></div>`;
  area.appendChild(post);
}
area.addEventListener("click", (ev) => {
  const control = ev.target.closest(".controls span");
  if (control) document.getElementById("query").textContent = `done: ${control.dataset.aim}`;
});
area.scrollTop = 29;
