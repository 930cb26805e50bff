// /account: sign in or create an account; once signed in, export or delete it, or sign out.
import { applyStatic, t, toggleLang } from "/static/i18n.js";
import { el } from "/static/people.js";
import { forget, jsonHeaders, me, mountAccount, profileHref } from "/static/session.js";

const main = document.getElementById("main");

function field(label, input) {
  return el("label", { className: "field" }, el("span", { text: label }), input);
}

function detail(data, response) {
  if (typeof data.detail === "string") return data.detail;
  if (Array.isArray(data.detail) && data.detail.length) return data.detail[0].msg;
  return response.statusText;
}

function next() {
  const target = new URLSearchParams(location.search).get("next") || "";
  // Only a path of this site: never an address elsewhere.
  return /^\/(?![/\\])/.test(target) ? target : null;
}

function form(kind) {
  const name = el("input", { name: "name", autocomplete: "username", maxlength: "20", required: "" });
  const password = el("input", {
    name: "password",
    type: "password",
    autocomplete: kind === "signup" ? "new-password" : "current-password",
    minlength: "8",
    maxlength: "256",
    required: "",
  });
  const error = el("p", { className: "error", role: "alert" });
  const button = el("button", { className: "btn-primary", type: "submit", text: t(`account.${kind}`) });
  const box = el(
    "form",
    { className: `panel account-form account-${kind}`, id: `${kind}-form` },
    el("h2", { text: t(`account.${kind}.title`) }),
    field(t("account.name"), name),
    field(t("account.password"), password),
  );
  if (kind === "signup") box.append(el("p", { className: "blurb", text: t("account.signup.blurb") }));
  box.append(error, button);
  box.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    error.textContent = "";
    try {
      const response = await fetch(kind === "signup" ? "/api/accounts" : "/api/session", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: name.value, password: password.value }),
      });
      const data = await response.json();
      if (!response.ok) throw new Error(detail(data, response));
      forget();
      location.href = next() || profileHref(data.name);
    } catch (e) {
      error.textContent = t("account.error", { e: e.message });
      button.disabled = false;
    }
  });
  return box;
}

function signedIn(who) {
  const out = el("button", { className: "btn-small", type: "button", text: t("account.signout") });
  out.addEventListener("click", async () => {
    await fetch("/api/session", { method: "DELETE", headers: await jsonHeaders() });
    forget();
    location.href = "/";
  });
  const password = el("input", { type: "password", autocomplete: "current-password", required: "" });
  const error = el("p", { className: "error", role: "alert" });
  const remove = el("button", { className: "btn-danger", type: "submit", text: t("account.delete") });
  const deletion = el(
    "form",
    { className: "panel account-delete", id: "delete-form" },
    el("h2", { text: t("account.delete.title") }),
    el("p", { className: "blurb", text: t("account.delete.blurb") }),
    field(t("account.password"), password),
    error,
    remove,
  );
  deletion.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!window.confirm(t("account.delete.confirm"))) return;
    remove.disabled = true;
    const response = await fetch("/api/me", {
      method: "DELETE",
      headers: await jsonHeaders(),
      body: JSON.stringify({ password: password.value }),
    });
    if (response.status === 204) {
      forget();
      location.href = "/";
      return;
    }
    const data = await response.json().catch(() => ({}));
    error.textContent = t("account.error", { e: detail(data, response) });
    remove.disabled = false;
  });
  const profile = el("a", { className: "btn-primary", href: profileHref(who.name), text: t("account.profile") });
  const download = el("a", { className: "btn-small", href: "/api/me/export", text: t("account.export") });
  return [
    el(
      "section",
      { className: "panel account-me" },
      el("h1", { text: t("account.hello", { name: who.name }) }),
      el("p", { className: "account-actions" }, profile, download, out),
      el("p", { className: "blurb", text: t("account.export.blurb") }),
    ),
    deletion,
  ];
}

async function render() {
  applyStatic();
  document.title = `${t("account.title")} · Truco`;
  const who = await me();
  if (who.name) {
    main.replaceChildren(...signedIn(who));
  } else {
    main.replaceChildren(
      el("h1", { className: "people-title", text: t("account.title") }),
      el("p", { className: "blurb", text: t("account.lead") }),
      el("div", { className: "account-forms" }, form("signin"), form("signup")),
    );
  }
  mountAccount();
}

document.getElementById("lang-btn").addEventListener("click", async () => {
  await toggleLang();
  render();
});
render();
