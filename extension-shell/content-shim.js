// Thin shim, injected on demand into every frame of an agent's tab after the wasm glue (the
// build wraps both in one block, so injecting twice cannot clash): load the Rust content module
// once per frame and hand it each request from the background. The page cannot see any of this.
if (!window.claudezillaContent) {
  const bindgen = wasm_bindgen;
  window.claudezillaContent = bindgen({
    module_or_path: browser.runtime.getURL("wasm/claudezilla_extension_wasm_bg.wasm"),
  }).then(() => bindgen.content_start());
  browser.runtime.onMessage.addListener((message) => {
    if (typeof message !== "string") {
      return undefined;
    }
    return window.claudezillaContent.then(() => bindgen.content_handle(message));
  });
}
