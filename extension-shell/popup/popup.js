"use strict";
// The toolbar popup: asks the background (Rust) for the pool's state and lists it. It refreshes
// only while open.

function fill(list, items, empty) {
  list.replaceChildren();
  for (const text of items.length ? items : [empty]) {
    const li = document.createElement("li");
    li.textContent = text;
    if (!items.length) li.className = "muted";
    list.append(li);
  }
}

async function render() {
  const status = JSON.parse(await browser.runtime.sendMessage("popup-status"));
  const connection = document.getElementById("connection");
  connection.textContent = status.connected
    ? "Connected to the native host."
    : "Not connected: run `claudezilla-host status` for the fix.";
  connection.className = status.connected ? "ok" : "bad";
  document.getElementById("count").textContent = `(${status.tabs.length} of ${status.poolLimit})`;
  fill(document.getElementById("tabs"),
    status.tabs.map((t) => `${t.tabId} · ${t.owner} · ${t.title || "(loading)"}`), "none");
  fill(document.getElementById("waiting"),
    [...status.waiting.map((a) => `${a} (waiting)`), ...status.reserved.map((a) => `${a} (slot reserved)`)], "nobody");
  const capture = status.capture;
  document.getElementById("capture").textContent = capture
    ? `held by ${capture.holder} for ${capture.heldMs} ms, ${capture.waiting} waiting`
    : "free";
}

render();
setInterval(render, 1000);
