// Slate with React (slate-react): it takes typing through `beforeinput`, applies it to its
// model and lets React render it. The model's text in `#out` after every change. Bundled by
// `cargo xtask test` with the pinned Slate and React.
import React, { useMemo } from "react";
import { createRoot } from "react-dom/client";
import { Node, createEditor } from "slate";
import { Editable, Slate, withReact } from "slate-react";

const h = React.createElement;
const out = document.getElementById("out");
const show = (value) => {
  out.textContent = JSON.stringify({ text: value.map((n) => Node.string(n)).join("\n") });
};
const initialValue = [{ type: "paragraph", children: [{ text: "" }] }];

function Note() {
  const editor = useMemo(() => withReact(createEditor()), []);
  return h(
    Slate,
    { editor, initialValue, onChange: show },
    h(Editable, { id: "slate", "aria-label": "Slate note", style: { minHeight: "3em", border: "1px solid #999" } }),
  );
}

createRoot(document.getElementById("app")).render(h(Note));
show(initialValue);
