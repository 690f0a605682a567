// React DayPicker showing November 2026, one day picked at a time; the picked day in `#state`.
// Bundled by `cargo xtask test` with the pinned react-day-picker and React.
import React, { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { DayPicker } from "react-day-picker";
import "react-day-picker/style.css";

const h = React.createElement;

const day = (d) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;

function App() {
  const [picked, setPicked] = useState();
  useEffect(() => {
    document.getElementById("state").textContent = picked ? `picked:${day(picked)}` : "ready";
  }, [picked]);
  return h(DayPicker, {
    mode: "single",
    defaultMonth: new Date(2026, 10, 1),
    selected: picked,
    onSelect: setPicked,
  });
}

createRoot(document.getElementById("calendar")).render(h(App));
