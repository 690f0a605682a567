"use strict";
// Thin shim, injected on demand into an agent's tab after the wasm glue (the build joins both
// into wasm/content-bundle.js): load the Rust content module once per frame and hand it each
// request from the background. The page cannot see or call any of this.
if (!window.claudezillaContent) {
  window.claudezillaContent = wasm_bindgen({
    module_or_path: browser.runtime.getURL("wasm/claudezilla_extension_wasm_bg.wasm"),
  });
  browser.runtime.onMessage.addListener((message) => {
    if (typeof message !== "string") {
      return undefined;
    }
    return window.claudezillaContent.then(() => wasm_bindgen.content_handle(message));
  });
}
