// Thin shim, injected on demand into every frame of an agent's tab after the wasm glue (the
// build wraps both in one block, so injecting twice cannot clash): load the Rust content module
// once per frame and hand it each request from the background. The page cannot see any of this.
// What content/dom.rs imports by name (declared in the bundle's block, where the wasm glue
// finds them).
//
// A read of the page asked as a property (`node.firstChild`) goes through the content script's
// Xray view of it and costs about a microsecond here; the same native getter, taken once from
// that view's prototypes (which the page cannot change) and called directly, costs a twentieth
// of that, and reads the same.
const claudezillaNative = (() => {
  const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const element = Element.prototype;
  const { checkVisibility, matches, getAttribute, hasAttribute, hasAttributes } = element;
  const node = Node.prototype;
  const { getRootNode } = node;
  const InputElement = HTMLInputElement;
  const [firstChild, nextSibling, nodeType, textContent] =
    ["firstChild", "nextSibling", "nodeType", "textContent"].map((name) => getter(node, name));
  const [localName, shadowRoot, childElementCount, namespaceURI] =
    ["localName", "shadowRoot", "childElementCount", "namespaceURI"].map((name) =>
      getter(element, name));
  const isHtml = (el) => namespaceURI.call(el) === "http://www.w3.org/1999/xhtml";
  const seenOptions = { visibilityProperty: true };
  const computedStyle = window.getComputedStyle.bind(window);
  // Is the content of `el`, which `checkVisibility` says is seen, skipped
  // (`content-visibility: hidden`: an empty box)? `checkVisibility` says so of what is inside
  // it, so only its own words (or its shadow root's) need the style, asked last: a child
  // element seen answers no.
  const skipped = (el) => {
    let words = false;
    for (let at = firstChild.call(shadowRoot.call(el) ?? el); at; at = nextSibling.call(at)) {
      const type = nodeType.call(at);
      if (type === 1 && checkVisibility.call(at)) return false;
      words ||= type === 3 && /\S/.test(textContent.call(at));
    }
    return words && !contentShown(el);
  };
  const contentShown = (el) => {
    const style = computedStyle(el);
    return style.contentVisibility !== "hidden" || !containable(style.display);
  };
  // Does `content-visibility` apply to a box so displayed? Not to an inline box, ruby, or a
  // table's parts but its cells (CSS Containment): Firefox shows their words whatever it says.
  const containable = (display) =>
    display !== "inline" && !display.startsWith("ruby") &&
    !(display.startsWith("table-") && display !== "table-cell" && display !== "table-caption");
  return {
    // The reader's own.
    get: { firstChild, nextSibling, nodeType, localName, shadowRoot, hasAttributes, matches },
    isHtml,
    // What wasm asks (content/dom.rs).
    visible: (el) => checkVisibility.call(el),
    seen: (el) => checkVisibility.call(el, seenOptions) && !skipped(el),
    contentShown,
    matches: (el, selectors) => matches.call(el, selectors),
    attribute: (el, name) => getAttribute.call(el, name),
    hasAttribute: (el, name) => hasAttribute.call(el, name),
    // An `<svg><input>` is no HTML input: null, where an HTML one's missing type is "".
    inputType: (el) =>
      el instanceof InputElement ? (getAttribute.call(el, "type") ?? "") : null,
    text: (node) => textContent.call(node),
    childElementCount: (el) => childElementCount.call(el),
    nodeType: (node) => nodeType.call(node),
    localName: (el) => localName.call(el),
    rootNode: (node) => getRootNode.call(node),
    firstChild: (node) => firstChild.call(node),
    nextSibling: (node) => nextSibling.call(node),
    shadowRootOf: (node) => (nodeType.call(node) === 1 ? shadowRoot.call(node) : null),
  };
})();
// The walks' reader (content/dom.rs `Facts`, whose layout this is): a node's children, each
// with what the walk asks of it first, in one call from wasm where each fact was a call of its
// own.
const claudezillaTagNumbers = new Map();
const claudezillaTagNames = [];
// Tags numbered at most (a page could make endlessly many): beyond, an element's tag is
// asked by itself.
const claudezillaMaxTags = 1024;
function claudezillaFacts(node, marked) {
  const native = claudezillaNative.get;
  const type = native.nodeType.call(node);
  if (type !== 1) return type === 3 ? 2 : 0;
  const tag = native.localName.call(node);
  let number = claudezillaTagNumbers.get(tag);
  if (number === undefined && claudezillaTagNames.length < claudezillaMaxTags) {
    claudezillaTagNames.push(tag);
    number = claudezillaTagNames.length;
    claudezillaTagNumbers.set(tag, number);
  }
  const isMarked = typeof marked === "string"
    ? native.hasAttributes.call(node) && native.matches.call(node, marked)
    : marked.has(node);
  return 1 | (isMarked ? 4 : 0) | (native.shadowRoot.call(node) ? 8 : 0) |
    (claudezillaNative.isHtml(node) ? 0 : 16) | ((number || 0) << 8);
}
function claudezillaChildren(parent, after, marked, facts) {
  const { firstChild, nextSibling } = claudezillaNative.get;
  const nodes = [];
  let at = after ? nextSibling.call(after) : firstChild.call(parent);
  for (; at && nodes.length < facts.length; at = nextSibling.call(at)) {
    facts[nodes.length] = claudezillaFacts(at, marked);
    nodes.push(at);
  }
  return nodes;
}
function claudezillaMarkedIn(root, selectors) {
  return new Set(root.querySelectorAll(selectors));
}
function claudezillaTag(number) {
  return claudezillaTagNames[number - 1];
}
// One poll of a request: a throw out of the wasm is caught here, where the backstop hears it
// (content/mod.rs).
function claudezillaTry(poll) {
  poll();
}
if (!window.claudezillaContent) {
  const bindgen = wasm_bindgen;
  // Console capture needs a variadic function installed in the page's own world, which Rust
  // cannot declare: this wrapper hands each call's level and arguments to Rust's `record`.
  // It returns the way back: the page's own functions, put back when the tab is given back.
  const hookConsole = (record) => {
    const page = window.wrappedJSObject.console;
    const originals = {};
    for (const level of ["log", "info", "warn", "error", "debug"]) {
      const original = page[level];
      originals[level] = original;
      exportFunction(function (...args) {
        try {
          record(level, args);
        } catch {
          // Never break the page's logging.
        }
        // Spread, not apply: the page may not read a content-script array, only its items.
        return original.call(page, ...args);
      }, page, { defineAs: level });
    }
    return () => {
      for (const [level, original] of Object.entries(originals)) {
        page[level] = original;
      }
    };
  };
  // Focus as a user's click gives it. An agent's tab is not the focused window's active tab,
  // so Firefox fires no focus events there, `document.hasFocus()` is false and `:focus` never
  // matches. Here the page's own focus() and blur(), and ours, move focus with the events a
  // user's focus change fires (blur, focusout, focus, focusin, each with its relatedTarget),
  // `hasFocus()` is true, and the focused element is marked for the mirrored :focus,
  // :focus-visible and :focus-within styles. Where Firefox fires the events itself (the tab
  // the user looks at), nothing is added. It returns our way to move focus, and the way back.
  const hookFocus = (marks) => {
    const page = window.wrappedJSObject;
    let fired = false;
    const seen = () => { fired = true; };
    window.addEventListener("focus", seen, true);
    const deep = () => {
      let at = document.activeElement;
      while (at && at.shadowRoot && at.shadowRoot.activeElement) at = at.shadowRoot.activeElement;
      return at === document.body ? null : at;
    };
    const typed = (el) => el.isContentEditable || el.localName === "textarea" ||
      (el.localName === "input" && !["button", "submit", "reset", "checkbox", "radio", "range", "color", "file", "image"].includes(el.type));
    const chain = (el) => {
      const up = [];
      for (let at = el; at; at = at.parentElement || (at.getRootNode() && at.getRootNode().host)) up.push(at);
      return up;
    };
    let marked = [];
    const unmark = () => {
      for (const el of marked) {
        for (const name of Object.values(marks)) el.removeAttribute(name);
      }
      marked = [];
    };
    const fire = (el, type, related, bubbles) => {
      el.dispatchEvent(new FocusEvent(type, { bubbles, composed: true, relatedTarget: related }));
    };
    const moved = (before, after, keyboard) => {
      if (before === after) return;
      unmark();
      if (!fired) {
        if (before) { fire(before, "blur", after, false); fire(before, "focusout", after, true); }
        if (after) { fire(after, "focus", before, false); fire(after, "focusin", before, true); }
      }
      const now = deep();
      if (!now) return;
      marked = chain(now);
      for (const el of marked) el.setAttribute(marks.within, "");
      now.setAttribute(marks.focus, "");
      if (keyboard || typed(now)) now.setAttribute(marks.visible, "");
    };
    const around = (act, keyboard) => {
      const before = deep();
      fired = false;
      const result = act();
      moved(before, deep(), keyboard);
      return result;
    };
    const restore = [];
    for (const proto of [page.HTMLElement.prototype, page.SVGElement.prototype]) {
      const { focus, blur } = proto;
      restore.push(() => { proto.focus = focus; proto.blur = blur; });
      exportFunction(function (options) {
        return around(() => focus.call(this, options), false);
      }, proto, { defineAs: "focus" });
      exportFunction(function () {
        return around(() => blur.call(this), false);
      }, proto, { defineAs: "blur" });
    }
    const docProto = page.Document.prototype;
    const { hasFocus } = docProto;
    restore.push(() => { docProto.hasFocus = hasFocus; });
    exportFunction(() => true, docProto, { defineAs: "hasFocus" });
    return {
      // Our pointer and keyboard: `el` takes focus, or (null) whatever has it loses it.
      focus: (el, keyboard) => around(() => (el ? el.focus() : deep() && deep().blur()), keyboard),
      undo: () => {
        window.removeEventListener("focus", seen, true);
        for (const back of restore) back();
        unmark();
      },
    };
  };
  // A method Rust puts on a page's object needs each call's receiver, which a Rust closure
  // cannot see: `receiving(f)` is a function handing `f` its `this` and its arguments.
  const receiving = (f) => function (...args) {
    return f(this, args);
  };
  // Shadow hosts, slots and frames under a root, with every element on a path to one
  // (composed tree): one pass here, where each element costs less than a call from wasm.
  // (`innerText` reads neither a shadow root nor what a slot shows.) Where the early script saw
  // no shadow root made, only frames are looked for (one query).
  const scan = (from, found) => {
    for (const el of from.querySelectorAll("*")) {
      if (el.shadowRoot) {
        found.push(el);
        scan(el.shadowRoot, found);
      } else if (["iframe", "frame", "slot"].includes(el.localName)) {
        found.push(el);
      }
    }
    return found;
  };
  const hidden = (root) => {
    const early = window.claudezillaEarly;
    const special = early && early.shadows === 0
      ? [...root.querySelectorAll("iframe, frame")]
      : scan(root, []);
    const path = new Set();
    for (let el of special) {
      while (el && el !== root && !path.has(el)) {
        path.add(el);
        el = el.parentElement || el.getRootNode().host;
      }
    }
    return path;
  };
  // The module the early script compiled while the page loaded, or (in a frame it skipped, or
  // should that compile have failed) the file, fetched now.
  const url = browser.runtime.getURL("wasm/content_bg.wasm");
  const early = window.claudezillaEarly;
  window.claudezillaContent = bindgen({
    module_or_path: early && early.module ? early.module.catch(() => fetch(url)) : url,
  }).then(() => bindgen.content_start(hookConsole, hidden, hookFocus, receiving));
  browser.runtime.onMessage.addListener((message) => {
    if (!message || !message.content) {
      return undefined;
    }
    return window.claudezillaContent.then(() => bindgen.content_handle(message.content));
  });
}
