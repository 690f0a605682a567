// Thin shim, injected on demand into every frame of an agent's tab after the wasm glue (the
// build wraps both in one block, so injecting twice cannot clash): load the Rust content module
// once per frame and hand it each request from the background. The page cannot see any of this.
if (!window.claudezillaContent) {
  const bindgen = wasm_bindgen;
  // Console capture needs a variadic function installed in the page's own world, which Rust
  // cannot declare: this wrapper hands each call's level and arguments to Rust's `record`.
  // It returns the way back: the page's own functions, put back when the tab is given back.
  const hookConsole = (record) => {
    const page = window.wrappedJSObject.console;
    const originals = {};
    for (const level of ["log", "info", "warn", "error", "debug"]) {
      const original = page[level];
      originals[level] = original;
      exportFunction(function (...args) {
        try {
          record(level, args);
        } catch {
          // Never break the page's logging.
        }
        // Spread, not apply: the page may not read a content-script array, only its items.
        return original.call(page, ...args);
      }, page, { defineAs: level });
    }
    return () => {
      for (const [level, original] of Object.entries(originals)) {
        page[level] = original;
      }
    };
  };
  // Shadow hosts and frames under a root, with every element on a path to one (composed
  // tree): one pass here, where each element costs less than a call from wasm. Where the early
  // script saw no shadow root made, only frames are looked for (one query).
  const scan = (from, found) => {
    for (const el of from.querySelectorAll("*")) {
      if (el.shadowRoot) {
        found.push(el);
        scan(el.shadowRoot, found);
      } else if (el.localName === "iframe" || el.localName === "frame") {
        found.push(el);
      }
    }
    return found;
  };
  const hidden = (root) => {
    const early = window.claudezillaEarly;
    const special = early && early.shadows === 0
      ? [...root.querySelectorAll("iframe, frame")]
      : scan(root, []);
    const path = new Set();
    for (let el of special) {
      while (el && el !== root && !path.has(el)) {
        path.add(el);
        el = el.parentElement || el.getRootNode().host;
      }
    }
    return path;
  };
  window.claudezillaContent = bindgen({
    module_or_path: browser.runtime.getURL("wasm/claudezilla_extension_wasm_bg.wasm"),
  }).then(() => bindgen.content_start(hookConsole, hidden));
  browser.runtime.onMessage.addListener((message) => {
    if (!message || !message.content) {
      return undefined;
    }
    return window.claudezillaContent.then(() => bindgen.content_handle(message.content));
  });
}
