// CodeMirror 6 with its basic setup; the document, its length and the selection in `#out`
// after every change. Bundled by `cargo xtask test` with the pinned CodeMirror.
import { basicSetup, EditorView } from "codemirror";

const out = document.getElementById("out");
const show = (view) => {
  const { from, to } = view.state.selection.main;
  out.textContent = JSON.stringify({ doc: view.state.doc.toString(), length: view.state.doc.length, from, to });
};
const view = new EditorView({
  doc: "let answer = 42;\nconsole.log(answer);",
  extensions: [basicSetup, EditorView.updateListener.of((u) => show(u.view))],
  parent: document.getElementById("editor"),
});
show(view);
