"use strict";
// The toolbar popup: asks the background (Rust) for the pool's state and lists it, and passes
// on the user's decisions (allowing an agent one of their tabs, the evaluate and private-window
// switches, giving an attached tab back). It refreshes only while open.

function fill(list, items, empty) {
  list.replaceChildren();
  for (const item of items.length ? items : [empty]) {
    const li = document.createElement("li");
    li.append(item);
    if (!items.length) li.className = "muted";
    list.append(li);
  }
}

async function ask(request) {
  return browser.runtime.sendMessage(request);
}

function giveBackButton(tab) {
  const button = document.createElement("button");
  button.textContent = "Give back";
  button.addEventListener("click", () => ask({ popup: "giveBack", tabId: tab.tabId }).then(show));
  const span = document.createElement("span");
  span.append(`${tab.tabId} · ${tab.owner} · ${tab.title || "(loading)"} `, button);
  return span;
}

// A list whose rows stay where they are while the popup is open: a row is found again by its
// key, a new one goes at the end, and one whose request ended stays in place, struck through and
// with its buttons disabled, so a click never lands on another request that moved up.
function keyed(list, items, key, render, empty) {
  const rows = list.rows || (list.rows = new Map());
  const live = new Set(items.map(key));
  for (const [k, li] of rows) {
    if (!live.has(k) && !li.classList.contains("gone")) {
      li.classList.add("gone");
      for (const b of li.querySelectorAll("button")) b.disabled = true;
    }
  }
  for (const item of items) {
    const k = key(item);
    if (rows.has(k)) continue;
    const li = document.createElement("li");
    li.dataset.key = String(k);
    li.append(render(item));
    rows.set(k, li);
    list.append(li);
  }
  let placeholder = list.querySelector("li.muted");
  if (rows.size === 0 && !placeholder) {
    placeholder = document.createElement("li");
    placeholder.className = "muted";
    placeholder.textContent = empty;
    list.append(placeholder);
  } else if (rows.size > 0 && placeholder) {
    placeholder.remove();
  }
}

function approvalItem(request) {
  const allow = document.createElement("button");
  allow.textContent = "Allow";
  allow.className = "allow";
  allow.addEventListener("click", () => ask({ popup: "decide", id: request.id, allow: true }).then(show));
  const deny = document.createElement("button");
  deny.textContent = "Deny";
  deny.className = "deny";
  deny.addEventListener("click", () => ask({ popup: "decide", id: request.id, allow: false }).then(show));
  const span = document.createElement("span");
  const where = request.private ? " (private window)" : "";
  span.append(`${request.agent} wants tab ${request.tabId}${where}: ${request.title || "(untitled)"} — ${request.origin} `, allow, " ", deny);
  return span;
}

function show(status) {
  const asking = status.approvals || [];
  document.getElementById("asking").hidden = asking.length === 0;
  keyed(document.getElementById("approvals"), asking, (r) => r.id, approvalItem, "none");
  document.getElementById("private-attach").checked = Boolean(status.privateAttach);
  const connection = document.getElementById("connection");
  connection.textContent = status.connected
    ? "Connected to the native host."
    : "Not connected: run `claudezilla-host status` for the fix.";
  connection.className = status.connected ? "ok" : "bad";
  const own = status.tabs.filter((t) => !t.attached);
  document.getElementById("count").textContent = `(${status.tabs.length} of ${status.poolLimit})`;
  fill(document.getElementById("tabs"),
    own.map((t) => `${t.tabId} · ${t.owner} · ${t.title || "(loading)"}`), "none");
  keyed(document.getElementById("attached"), status.tabs.filter((t) => t.attached),
    (t) => t.tabId, giveBackButton, "none");
  fill(document.getElementById("waiting"),
    [...status.waiting.map((a) => `${a} (waiting)`), ...status.reserved.map((a) => `${a} (slot reserved)`)], "nobody");
  const capture = status.capture;
  document.getElementById("capture").textContent = capture
    ? `held by ${capture.holder} for ${capture.heldMs} ms, ${capture.waiting} waiting`
    : "free";
  fill(document.getElementById("loops"), status.loops, "none");
  showActivity(status.activity || []);
  showSwitch("evaluate", status.evaluate, status.evaluateByEnvironment, "CLAUDEZILLA_ALLOW_EVALUATE");
  showSwitch("storage", status.storage, status.storageByEnvironment, "CLAUDEZILLA_ALLOW_STORAGE");
  showDomains(status.allowedDomains || [], status.allowedDomainsByEnvironment);
}

// The user's allowlist: every agent's tabs stay on these domains (an agent may narrow it for
// itself, never widen it). Set by Firefox's environment, it cannot be changed here.
function showDomains(domains, byEnvironment) {
  const input = document.getElementById("domains");
  // What the user is typing (or typed and has not saved yet) is never overwritten.
  if (document.activeElement !== input && !input.dataset.edited) input.value = domains.join(", ");
  input.disabled = byEnvironment;
  document.getElementById("save-domains").disabled = byEnvironment;
  document.getElementById("domains-note").textContent = byEnvironment
    ? "Set by CLAUDEZILLA_ALLOWED_DOMAINS in Firefox's environment."
    : domains.length ? "Agents' pages, frames, routes, downloads and saved logins stay on these." : "Agents may go anywhere.";
}

for (const edit of ["input", "change"]) {
  document.getElementById("domains").addEventListener(edit, (e) => { e.target.dataset.edited = "1"; });
}

document.getElementById("domains-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const input = document.getElementById("domains");
  const domains = input.value.split(/[\s,]+/).filter(Boolean);
  delete input.dataset.edited;
  input.blur();
  ask({ popup: "setAllowedDomains", domains }).then(show);
});

// The activity log, one list per agent, newest first (no typed text or scripts are kept).
function showActivity(entries) {
  const box = document.getElementById("activity");
  const byAgent = new Map();
  for (const e of entries) {
    if (!byAgent.has(e.agent)) byAgent.set(e.agent, []);
    byAgent.get(e.agent).push(e);
  }
  box.replaceChildren();
  if (!byAgent.size) {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = "nothing yet";
    box.append(p);
  }
  for (const [agent, list] of byAgent) {
    const h = document.createElement("h3");
    h.textContent = agent;
    const ul = document.createElement("ul");
    ul.className = "activity";
    fill(ul, list.map(activityLine), "none");
    box.append(h, ul);
  }
}

function activityLine(e) {
  const when = new Date(e.atMs).toLocaleTimeString();
  const tab = e.tab === undefined ? "" : ` · tab ${e.tab}`;
  const target = e.target ? ` ${e.target}` : "";
  return `${when}${tab} · ${e.tool}${target} → ${e.outcome}`;
}

// A switch of the user's; one set by Firefox's environment cannot be switched off here.
function showSwitch(id, on, byEnvironment, variable) {
  const box = document.getElementById(id);
  box.checked = on;
  box.disabled = byEnvironment;
  box.title = byEnvironment ? `On because Firefox was started with ${variable}=1` : "";
}

document.getElementById("evaluate").addEventListener("change", (e) => {
  ask({ popup: "setEvaluate", enabled: e.target.checked }).then(show);
});

document.getElementById("storage").addEventListener("change", (e) => {
  ask({ popup: "setStorage", enabled: e.target.checked }).then(show);
});

document.getElementById("private-attach").addEventListener("change", (e) => {
  ask({ popup: "setPrivateAttach", enabled: e.target.checked }).then(show);
});

const refresh = () => ask({ popup: "status" }).then(show);
refresh();
setInterval(refresh, 1000);
