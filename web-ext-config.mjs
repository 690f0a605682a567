// Configuration for `npx web-ext lint | build | run` from the repository root. `cargo xtask
// test` lints with `--ignore-files content-shim.js wasm/axe.min.js`: the vendored axe-core builds
// functions from strings, which the linter warns of.
// (web-ext 10 loads only .mjs/.cjs config files: a web-ext-config.js is refused.)
import { existsSync } from "node:fs";

const firefox =
  process.env.FIREFOX || (existsSync("/usr/bin/firefox-esr") ? "/usr/bin/firefox-esr" : "firefox");
const headless = !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;

export default {
  sourceDir: "extension-shell",
  artifactsDir: "target/web-ext",
  // The content shim reaches the browser inside wasm/content-bundle.js, not on its own.
  ignoreFiles: ["content-shim.js"],
  lint: {
    warningsAsErrors: true,
  },
  build: {
    overwriteDest: true,
    filename: "claudezilla-{version}.xpi",
  },
  run: {
    target: ["firefox-desktop"],
    firefox,
    args: headless ? ["--headless"] : [],
    startUrl: ["about:blank"],
    browserConsole: false,
  },
};
