//! The pages the page-tool tests own (issue 4): a form with every input type, a React-like
//! page, frames (same- and cross-origin), a shadow root, dialogs, a page that changes later,
//! keyboard, hover, drag, upload and Markdown pages.

use std::collections::HashMap;

use claudezilla_e2e::pages::Page;

pub const FORM: &str = r#"<!doctype html><title>Form</title>
<form id="f" onsubmit="event.preventDefault(); document.getElementById('result').textContent = 'submitted: ' + new URLSearchParams(new FormData(this)).toString()">
<label>Name <input name="name" id="name" required></label>
<label>Email <input type="email" name="email"></label>
<label>Password <input type="password" name="pw"></label>
<label>Age <input type="number" name="age"></label>
<label>Day <input type="date" name="day"></label>
<label>Level <input type="range" name="level" min="0" max="10"></label>
<label>Colour <input type="color" name="colour"></label>
<label><input type="checkbox" name="news" value="yes"> Newsletter</label>
<fieldset><legend>Size</legend>
<label><input type="radio" name="size" value="s"> Small</label>
<label><input type="radio" name="size" value="l"> Large</label></fieldset>
<label>Country <select name="country"><option value="">--</option><option value="fr">France</option><option value="es">Spain</option></select></label>
<label>Tags <select name="tags" multiple><option>red</option><option>blue</option><option>green</option></select></label>
<label>Notes <textarea name="notes"></textarea></label>
<label>Upload <input type="file" name="doc" id="doc" onchange="document.getElementById('file').textContent = this.files[0].name + ' ' + this.files[0].size"></label>
<button id="submit">Send</button>
<button type="button" aria-expanded="false">Menu</button><button type="button" disabled>Archived</button>
<div role="checkbox" aria-checked="true" aria-label="Remember me" tabindex="0"></div>
<div role="checkbox" aria-checked="false" tabindex="0">Accept the terms</div>
</form>
<p id="result">not submitted</p><p id="file">no file</p>
<div id="gone"><button id="temp">Temporary</button></div>"#;

pub const REACT_LIKE: &str = r#"<!doctype html><title>React-like</title>
<input id="controlled"><p id="state">state: </p>
<script>
// Like React: the instance's value property tracks what the page set; only an input event
// whose node value differs from the tracked one updates the state, which is re-rendered.
const input = document.getElementById('controlled');
const proto = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
let tracked = '';
let state = '';
Object.defineProperty(input, 'value', { get() { return proto.get.call(this); }, set(v) { tracked = v; proto.set.call(this, v); } });
input.addEventListener('input', () => {
  const now = proto.get.call(input);
  if (now !== tracked) { state = now; tracked = now; }
  input.value = state;
  document.getElementById('state').textContent = 'state: ' + state;
});
</script>"#;

pub const SHADOW: &str = r#"<!doctype html><title>Shadow</title>
<div id="host"></div><p id="out">shadow untouched</p>
<script>
const root = document.getElementById('host').attachShadow({mode: 'open'});
root.innerHTML = '<button id="inner">Shadow button</button>';
root.getElementById('inner').addEventListener('click', () => { document.getElementById('out').textContent = 'shadow clicked'; });
</script>"#;

pub const DIALOGS: &str = r#"<!doctype html><title>Dialogs</title>
<button id="a" onclick="alert('hello'); document.getElementById('out').textContent = 'after alert'">Alert</button>
<button id="c" onclick="document.getElementById('out').textContent = 'confirm: ' + confirm('sure?')">Confirm</button>
<button id="p" onclick="document.getElementById('out').textContent = 'prompt: ' + prompt('name?', 'x')">Prompt</button>
<p id="out">no dialog</p>"#;

pub const DELAYED: &str = r#"<!doctype html><title>Delayed</title><p>waiting page</p>
<script>
// Started by a click, so the "before" state is taken before anything appears.
function start() {
  setTimeout(() => { const b = document.createElement('button'); b.id = 'late'; b.textContent = 'Late button'; document.body.append(b); }, 700);
  setTimeout(() => { document.body.append('the eagle has landed'); }, 900);
  setTimeout(() => { location.hash = 'done'; }, 1100);
}
</script>
<button id="start" onclick="start()">Start</button>
<button id="boom" onclick="setTimeout(() => { throw new Error('delayed boom'); }, 0)">Boom</button>"#;

pub const KEYS: &str = r#"<!doctype html><title>Keys</title>
<form id="search" onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'searched ' + document.getElementById('q').value">
<input id="q" name="q"><button type="submit">Go</button></form>
<textarea id="t"></textarea>
<input id="one"><input id="two">
<p id="out">idle</p>
<div id="tall" style="height:3000px">tall</div><p id="bottom">bottom</p>"#;

pub const HOVER_DRAG: &str = r##"<!doctype html><title>Hover and drag</title>
<div id="menu" onmouseover="document.getElementById('sub').hidden = false">Menu</div>
<ul id="sub" hidden><li><a href="#x">Secret item</a></li></ul>
<div id="item" draggable="true" ondragstart="event.dataTransfer.setData('text/plain', 'item')">Drag me</div>
<div id="bin" ondragover="event.preventDefault()" ondrop="event.preventDefault(); this.textContent = 'dropped ' + event.dataTransfer.getData('text/plain')">Drop here</div>"##;

pub const MARKDOWN: &str = r#"<!doctype html><title>Doc</title><main>
<h1>Guide</h1><p>Read <a href="/basic.html">the basics</a> first.</p>
<h2>Steps</h2><ul><li>One</li><li>Two</li></ul>
<table><tr><th>Name</th><th>Size</th></tr><tr><td>alpha</td><td>3</td></tr></table>
<script>var hidden = 1;</script><p hidden>never shown</p></main>"#;

/// The iframe page, served from both origins.
pub const INNER: &str = r#"<!doctype html><title>Inner</title>
<button id="in" onclick="this.textContent = 'inner clicked'">Inner button</button>"#;

pub fn frames(other_origin: &str) -> String {
    format!(
        r#"<!doctype html><title>Frames</title><h1>Outer</h1>
<iframe title="same" src="/inner.html"></iframe>
<iframe title="cross" src="{other_origin}/inner.html"></iframe>"#
    )
}

pub fn pages(other_origin: &str) -> HashMap<&'static str, Page> {
    HashMap::from([
        ("/form.html", Page::html(FORM)),
        ("/react.html", Page::html(REACT_LIKE)),
        (
            "/frame-text.html",
            Page::html("<!doctype html><title>Frame text</title><p>frame-text-55</p>"),
        ),
        ("/shadow.html", Page::html(SHADOW)),
        ("/dialogs.html", Page::html(DIALOGS)),
        ("/delayed.html", Page::html(DELAYED)),
        ("/keys.html", Page::html(KEYS)),
        ("/hover.html", Page::html(HOVER_DRAG)),
        ("/doc.html", Page::html(MARKDOWN)),
        ("/inner.html", Page::html(INNER)),
        ("/frames.html", Page::html(frames(other_origin))),
        (
            "/large.html",
            Page::html(claudezilla_e2e::pages::large_page(2_000)),
        ),
    ])
}
