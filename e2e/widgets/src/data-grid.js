// react-data-grid as an app uses it: three cars, the price edited in the grid's own text
// editor (double-click, type, Enter), every column sorted by a click on its header. The rows as
// shown, in `#state`, after every change. Bundled by `cargo xtask test` with the pinned
// react-data-grid and React.
import React, { useEffect, useMemo, useState } from "react";
import { createRoot } from "react-dom/client";
import { DataGrid, renderTextEditor } from "react-data-grid";
import "react-data-grid/lib/styles.css";

const h = React.createElement;

const CARS = [
  { make: "Toyota", model: "Celica", price: 35000 },
  { make: "Ford", model: "F-Series", price: 33850 },
  { make: "Porsche", model: "Boxster", price: 72000 },
];

const columns = [
  { key: "make", name: "Make" },
  { key: "model", name: "Model" },
  { key: "price", name: "Price", renderEditCell: renderTextEditor },
];

const compare = (key) => (a, b) =>
  key === "price" ? Number(a.price) - Number(b.price) : String(a[key]).localeCompare(String(b[key]));

function App() {
  const [rows, setRows] = useState(CARS);
  const [sortColumns, setSortColumns] = useState([]);
  const shown = useMemo(() => {
    if (sortColumns.length === 0) return rows;
    const { columnKey, direction } = sortColumns[0];
    const sorted = [...rows].sort(compare(columnKey));
    return direction === "DESC" ? sorted.reverse() : sorted;
  }, [rows, sortColumns]);
  useEffect(() => {
    document.getElementById("state").textContent =
      "rows:" + shown.map((r) => `${r.make}=${r.price}`).join(",");
  }, [shown]);
  return h(DataGrid, {
    columns,
    rows: shown,
    rowKeyGetter: (r) => r.make,
    onRowsChange: setRows,
    sortColumns,
    onSortColumnsChange: setSortColumns,
    defaultColumnOptions: { sortable: true },
    enableVirtualization: false,
    style: { blockSize: 200, inlineSize: 600 },
  });
}

createRoot(document.getElementById("grid")).render(h(App));
