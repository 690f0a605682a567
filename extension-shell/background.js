"use strict";
// Thin shim: load the Rust background (extension-wasm) and start it. All logic lives there.
wasm_bindgen({ module_or_path: browser.runtime.getURL("wasm/background_bg.wasm") })
  .then(() => wasm_bindgen.start_background())
  .catch((error) => console.error("Claudezilla: the background failed to start", error));
