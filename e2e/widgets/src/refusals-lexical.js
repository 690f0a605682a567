// Lexical with its rich-text behaviour, set up as its vanilla example does: it applies what is
// typed in its own update cycle and then reconciles the DOM. The editor's text, as Lexical's
// model holds it, in `#out` after every update. Bundled by `cargo xtask test` with the pinned
// Lexical.
import { $createParagraphNode, $getRoot, createEditor } from "lexical";
import { HeadingNode, QuoteNode, registerRichText } from "@lexical/rich-text";

const out = document.getElementById("out");
const editor = createEditor({
  namespace: "refusals",
  nodes: [HeadingNode, QuoteNode],
  onError: (error) => {
    out.textContent = "error:" + error.message;
  },
});
editor.setRootElement(document.getElementById("lexical"));
registerRichText(editor);
editor.registerUpdateListener(({ editorState }) =>
  editorState.read(() => {
    out.textContent = JSON.stringify({ text: $getRoot().getTextContent() });
  }),
);
editor.update(() => {
  const root = $getRoot();
  if (root.isEmpty()) root.append($createParagraphNode());
});
