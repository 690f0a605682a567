// An OpenLayers map as pages build one, without its tiles (nothing is fetched): the default
// controls (zoom buttons), a marker that is an Overlay holding an image button, and a popup
// Overlay the marker opens. The zoom in `#state` after every move. The map's element is
// focusable (tabindex=0, as OpenLayers' accessibility example has it). Bundled by
// `cargo xtask test` with the pinned ol.
import Map from "ol/Map.js";
import Overlay from "ol/Overlay.js";
import View from "ol/View.js";
import "ol/ol.css";

const PIN =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="32"><path d="M12 0C5 0 0 5 0 12c0 9 12 20 12 20s12-11 12-20C24 5 19 0 12 0z" fill="#c22"/></svg>',
  );

const marker = document.createElement("img");
marker.src = PIN;
marker.width = 24;
marker.height = 32;
marker.alt = "Lighthouse";
marker.setAttribute("role", "button");
marker.tabIndex = 0;
marker.style.cursor = "pointer";

const popup = document.createElement("div");
popup.className = "popup";
popup.style.cssText = "background:#fff;border:1px solid #999;padding:6px 10px;white-space:nowrap";
popup.textContent = "Lighthouse: open on Sundays";

const map = new Map({ target: "map", view: new View({ center: [0, 0], zoom: 4 }) });
// Rendered once now: the attribution control hides itself at its first render (no layer here
// has attributions), and a background tab may give that render no frame for a while, so a
// read before it and one after would see different controls.
map.renderSync();
map.addOverlay(new Overlay({ element: marker, position: [0, 0], positioning: "bottom-center" }));
const bubble = new Overlay({ element: popup, positioning: "bottom-center", offset: [0, -36] });
map.addOverlay(bubble);
marker.addEventListener("click", () => bubble.setPosition([0, 0]));
// Said at once and after each change of the view's zoom: a map without layers never ends a
// first move (OpenLayers sends no moveend then).
const say = () => {
  document.getElementById("state").textContent = `zoom:${map.getView().getZoom()}`;
};
map.getView().on("change:resolution", say);
say();
