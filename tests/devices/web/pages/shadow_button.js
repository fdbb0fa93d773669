// shadow_button.html's element: a host drawing its native button in its shadow root, a listener on the host.
customElements.define("x-button", class extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    this.attachShadow({mode: "open"}).innerHTML = "<button part=\"native\"><span><slot></slot></span></button>";
    this.addEventListener("click", () => { this.dataset.taps = String(Number(this.dataset.taps || 0) + 1); });
  }
});
