// drag-drop (feross) on a zone that only takes dropped files; each file's name and size in
// `#state`. Bundled by `cargo xtask test` with the pinned drag-drop.
import dragDrop from "drag-drop";

const state = document.getElementById("state");
const dropped = [];
dragDrop("#zone", (files) => {
  for (const file of files) dropped.push(`${file.name} ${file.size}`);
  state.textContent = `dropped ${dropped.join(", ")}`;
});
state.textContent = "ready";
