// TodoMVC's React app, as far as editing goes: double-click a todo, type, Enter (or leaving
// the field) saves. Bundled by `cargo xtask test` with the pinned React.
import React, { useEffect, useRef, useState } from "react";
import { createRoot } from "react-dom/client";

const h = React.createElement;

function Item({ todo, onSave }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(todo.title);
  const field = useRef(null);
  useEffect(() => {
    if (editing && field.current) {
      field.current.focus();
      const end = field.current.value.length;
      field.current.setSelectionRange(end, end);
    }
  }, [editing]);
  const save = () => {
    if (!editing) return;
    setEditing(false);
    onSave(text.trim());
  };
  return h(
    "li",
    { className: editing ? "editing" : "" },
    h("div", { className: "view" },
      h("label", { onDoubleClick: () => { setText(todo.title); setEditing(true); } }, todo.title)),
    editing && h("input", {
      className: "edit",
      ref: field,
      value: text,
      onChange: (e) => setText(e.target.value),
      onBlur: save,
      onKeyDown: (e) => { if (e.key === "Enter") save(); },
    }),
  );
}

function App() {
  const [todos, setTodos] = useState([{ title: "Buy milk" }, { title: "Walk the dog" }]);
  const saveAt = (i) => (title) => setTodos(todos.map((t, k) => (k === i ? { title } : t)));
  return h("section", null,
    h("ul", { className: "todo-list" }, todos.map((t, i) => h(Item, { key: i, todo: t, onSave: saveAt(i) }))),
    h("p", { id: "state" }, JSON.stringify(todos.map((t) => t.title))));
}

createRoot(document.getElementById("app")).render(h(App));
