"use strict";
// Registered to run at document_start in every http(s) frame (background/early.rs), it acts
// only in documents the background marked as an agent tab's (a Server-Timing entry with this
// run's secret). There it keeps the console messages and dialogs of the page's first moments
// and keeps beforeunload from blocking, until the content module takes over.
(() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const marked = nav && nav.serverTiming.some(
    (t) => t.name === "claudezilla" && t.description === claudezillaEarlySecret);
  if (!marked || window.claudezillaEarly) {
    return;
  }
  // The content module compiles while the page loads (a streamed compile runs off the page's
  // thread), so the first command after a navigation only instantiates it.
  const module = WebAssembly.compileStreaming(fetch(browser.runtime.getURL("wasm/content_bg.wasm")));
  module.catch(() => {});
  const early = { console: [], dialogs: [], shadows: 0, done: false, module };
  window.claudezillaEarly = early;
  const page = window.wrappedJSObject;
  const text = (value) => {
    if (typeof value === "string") return value;
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      return String(value);
    }
  };
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    const original = page.console[level];
    exportFunction(function (...args) {
      if (!early.done && early.console.length < 500) {
        early.console.push({ level, message: args.map(text).join(" ").slice(0, 2000), time: Date.now() });
      }
      return original.call(page.console, ...args);
    }, page.console, { defineAs: level });
  }
  // The default policy (dismiss) until the content module installs the agent's.
  for (const [kind, answer] of [["alert", undefined], ["confirm", false], ["prompt", null]]) {
    exportFunction(function (message) {
      if (early.dialogs.length < 20) {
        early.dialogs.push({ kind, message: String(message ?? "").slice(0, 200) });
      }
      return answer;
    }, page, { defineAs: kind });
  }
  // Counts the shadow roots the page's scripts make, so reading a page that has none skips
  // looking for them (declarative shadow roots are not counted).
  const proto = page.Element.prototype;
  const attachShadow = proto.attachShadow;
  exportFunction(function (init) {
    early.shadows += 1;
    return attachShadow.call(this, init);
  }, proto, { defineAs: "attachShadow" });
  // A page's "leave this page?" must never hold an agent's navigation.
  window.addEventListener("beforeunload", (event) => event.stopImmediatePropagation(), true);
  // The top document says when it has loaded: a navigation answers then. Firefox tells the
  // background of the network's side of a load (webRequest) late, often after the tab's own
  // "complete"; this word is first, and proves a response (an error page has no script).
  if (window === window.top) {
    const loaded = (event) => {
      if (!event.isTrusted || event.target !== document) return;
      window.removeEventListener("load", loaded, true);
      browser.runtime
        .sendMessage({ claudezillaLoaded: location.href, title: document.title })
        .catch(() => {});
    };
    window.addEventListener("load", loaded, true);
  }
})();
