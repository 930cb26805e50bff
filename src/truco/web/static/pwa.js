// The installable app (docs/app.md): every page registers the service worker that keeps the
// app shell; on the offline page, "retry" asks for the address again.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((e) => {
      console.warn("the app shell is not kept for offline use:", e);
    });
  });
}

const retry = document.getElementById("retry");
if (retry) retry.addEventListener("click", () => location.reload());
