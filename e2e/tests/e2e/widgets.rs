//! Issue 22: widgets as people drive them. Real third-party widgets, installed from npm at
//! pinned versions by `cargo xtask test` (`e2e/widgets/`) and served locally under `/w/`,
//! each driven as a person with a keyboard and a mouse would drive it.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use anyhow::ensure;
use claudezilla_e2e::pages::Page;
use claudezilla_e2e::{Agent, eventually};
use serde_json::json;

use crate::common::{Shared, call, click, press, said, text_of, type_into};

/// Where the pages find the installed widgets.
const MODULES: &str = "/w/node_modules";

/// Two todos, shown as TodoMVC shows them, and the saved titles in `#state`.
const TODOS: &str = "[{title: 'Buy milk'}, {title: 'Walk the dog'}]";

/// TodoMVC's vanilla app (its view and controller, as far as editing goes): Enter blurs the
/// field, and leaving it saves.
fn todo_vanilla() -> String {
    format!(
        r#"<!doctype html><title>Todos, vanilla</title><ul class=todo-list id=list></ul><p id=state></p>
<script>
const todos = {TODOS};
const list = document.getElementById('list');
function render() {{
  list.replaceChildren(...todos.map((t, i) => {{
    const li = document.createElement('li');
    li.dataset.id = i;
    li.innerHTML = '<div class=view><input class=toggle type=checkbox><label></label><button class=destroy></button></div>';
    li.querySelector('label').textContent = t.title;
    return li;
  }}));
  document.getElementById('state').textContent = JSON.stringify(todos.map(t => t.title));
}}
list.addEventListener('dblclick', e => {{
  const li = e.target.closest('li');
  if (!e.target.matches('label') || !li) return;
  li.classList.add('editing');
  const input = document.createElement('input');
  input.className = 'edit';
  li.append(input);
  input.value = todos[li.dataset.id].title;
  input.focus();
}});
list.addEventListener('keypress', e => {{
  if (e.target.className === 'edit' && e.keyCode === 13) e.target.blur();
}});
list.addEventListener('blur', e => {{
  if (e.target.className !== 'edit') return;
  todos[e.target.closest('li').dataset.id].title = e.target.value.trim();
  render();
}}, true);
render();
</script>"#
    )
}

/// TodoMVC's jQuery app: Enter blurs the field (`keyup`, `e.which`), `focusout` saves.
fn todo_jquery() -> String {
    format!(
        r#"<!doctype html><title>Todos, jQuery</title><ul class=todo-list></ul><p id=state></p>
<script src="{MODULES}/jquery/dist/jquery.min.js"></script>
<script>
const todos = {TODOS};
function render() {{
  $('.todo-list').html(todos.map((t, i) =>
    `<li data-id="${{i}}"><div class="view"><label></label></div><input class="edit"></li>`).join(''));
  $('.todo-list label').each((i, label) => $(label).text(todos[i].title));
  $('#state').text(JSON.stringify(todos.map(t => t.title)));
}}
$('.todo-list')
  .on('dblclick', 'label', e => {{
    const $input = $(e.target).closest('li').addClass('editing').find('.edit');
    $input.val(todos[$(e.target).closest('li').data('id')].title).trigger('focus');
  }})
  .on('keyup', '.edit', e => {{ if (e.which === 13) e.target.blur(); }})
  .on('focusout', '.edit', e => {{
    todos[$(e.target).closest('li').data('id')].title = $(e.target).val().trim();
    render();
  }});
render();
</script>"#
    )
}

/// TodoMVC's React app (bundled from `e2e/widgets/src/react-todo.js`): Enter or blur saves.
fn todo_react() -> String {
    r#"<!doctype html><title>Todos, React</title><div id=app></div>
<script src="/w/dist/react-todo.js"></script>"#
        .into()
}

/// TodoMVC's Vue app: `@keyup.enter` or `@blur` saves; a directive focuses the field.
fn todo_vue() -> String {
    format!(
        r#"<!doctype html><title>Todos, Vue</title>
<div id=app><ul class=todo-list>
  <li v-for="(t, i) in todos" :class="{{editing: editing === i}}">
    <div class=view><label @dblclick="edit(i)">{{{{ t.title }}}}</label></div>
    <input v-if="editing === i" class=edit v-model="draft" v-focus @keyup.enter="done(i)" @blur="done(i)">
  </li></ul>
  <p id=state>{{{{ JSON.stringify(todos.map(t => t.title)) }}}}</p>
</div>
<script src="{MODULES}/vue/dist/vue.global.prod.js"></script>
<script>
Vue.createApp({{
  data: () => ({{ todos: {TODOS}, editing: null, draft: '' }}),
  directives: {{ focus: {{ mounted: el => el.focus() }} }},
  methods: {{
    edit(i) {{ this.draft = this.todos[i].title; this.editing = i; }},
    done(i) {{ if (this.editing !== i) return; this.todos[i].title = this.draft.trim(); this.editing = null; }},
  }},
}}).mount('#app');
</script>"#
    )
}

/// A field, a button and a plain-text "unfocus" that calls the field's `blur()`; what the
/// page saw of focus, reported continuously in `#out`.
const FOCUS: &str = r#"<!doctype html><title>Focus</title>
<style>#a:focus { outline: 3px solid rgb(255, 0, 0) } #a:focus-visible { background-color: rgb(0, 0, 255) }
#b:focus-visible { background-color: rgb(0, 255, 0) } form:focus-within { border: 2px solid rgb(1, 2, 3) }</style>
<form id=f><input id=a><button id=b type=button>B</button></form>
<span id=unfocus onmousedown="event.preventDefault()" onclick="document.getElementById('a').blur()">unfocus</span>
<p id=out>waiting</p>
<script>
const log = [];
for (const id of ['a', 'b']) for (const t of ['focus', 'blur', 'focusin', 'focusout'])
  document.getElementById(id).addEventListener(t, e => log.push(`${t}:${id}<${e.relatedTarget ? e.relatedTarget.id : ''}`));
setInterval(() => {
  const style = (id) => getComputedStyle(document.getElementById(id));
  document.getElementById('out').textContent = JSON.stringify({
    log: log.join(' '), has: document.hasFocus(), active: document.activeElement.id,
    ring: style('a').outlineColor, visible: style('a').backgroundColor,
    button: style('b').backgroundColor, within: style('f').borderTopColor });
}, 50);
</script>"#;

/// Monaco from its AMD build; the model's text in `#out` as it changes.
fn monaco() -> String {
    format!(
        r#"<!doctype html><title>Monaco</title><div id=ed style="width:600px;height:200px"></div><p id=out>waiting</p>
<script src="{MODULES}/monaco-editor/min/vs/loader.js"></script>
<script>
require.config({{ paths: {{ vs: '{MODULES}/monaco-editor/min/vs' }} }});
require(['vs/editor/editor.main'], () => {{
  const ed = monaco.editor.create(document.getElementById('ed'), {{ value: '', language: 'plaintext' }});
  ed.onDidChangeModelContent(() => document.getElementById('out').textContent = 'model:' + ed.getValue());
  document.getElementById('out').textContent = 'ready';
}});
</script>"#
    )
}

/// CodeMirror 6 (bundled from `e2e/widgets/src/codemirror.js`): document and selection in `#out`.
const CODEMIRROR: &str = r#"<!doctype html><title>CodeMirror</title><div id=editor></div><p id=out>waiting</p>
<script src="/w/dist/codemirror.js"></script>"#;

/// Quill 2 with its toolbar; its text, length and HTML in `#out` after every change.
fn quill() -> String {
    format!(
        r#"<!doctype html><title>Quill</title>
<link rel=stylesheet href="{MODULES}/quill/dist/quill.snow.css">
<div id=editor><p>Hello world</p></div><p id=out>waiting</p>
<script src="{MODULES}/quill/dist/quill.js"></script>
<script>
const quill = new Quill('#editor', {{ theme: 'snow' }});
const show = () => document.getElementById('out').textContent = JSON.stringify({{
  text: quill.getText(), length: quill.getLength(), html: quill.root.innerHTML }});
quill.on('editor-change', show);
show();
</script>"#
    )
}

/// Shoelace's web components: a field, a button and a checkbox labelled through slots, a select
/// labelled inside its shadow root; what the field's inner input saw in `#out`.
fn shoelace() -> String {
    format!(
        r#"<!doctype html><title>Shoelace</title>
<link rel=stylesheet href="{MODULES}/@shoelace-style/shoelace/cdn/themes/light.css">
<script type=module src="{MODULES}/@shoelace-style/shoelace/cdn/shoelace-autoloader.js"></script>
<sl-input id=zip label="Zip code" maxlength=5></sl-input>
<sl-button id=save>Save draft</sl-button>
<sl-checkbox id=agree>I agree to the terms</sl-checkbox>
<sl-select id=size label="Shirt size" placeholder="Pick one"><sl-option value=s>Small</sl-option><sl-option value=l>Large</sl-option></sl-select>
<p id=out>waiting</p>
<script type=module>
await customElements.whenDefined('sl-input');
const zip = document.getElementById('zip');
await zip.updateComplete;
const inner = zip.shadowRoot.querySelector('input');
let before = 0;
inner.addEventListener('beforeinput', () => before++);
const show = () => document.getElementById('out').textContent = JSON.stringify({{ value: zip.value, before }});
zip.addEventListener('sl-input', show);
show();
</script>"#
    )
}

/// A Shoelace dialog with text placed directly in it, and a button in its footer slot.
fn shoelace_dialog() -> String {
    format!(
        r#"<!doctype html><title>Shoelace dialog</title>
<link rel=stylesheet href="{MODULES}/@shoelace-style/shoelace/cdn/themes/light.css">
<script type=module src="{MODULES}/@shoelace-style/shoelace/cdn/shoelace-autoloader.js"></script>
<p>Before the dialog.</p>
<sl-dialog label="Notice" open>Your session expires soon.<sl-button slot=footer id=close>Close</sl-button></sl-dialog>"#
    )
}

/// Tom Select over a select of countries; the chosen value in `#out`.
fn tom_select() -> String {
    format!(
        r#"<!doctype html><title>Tom Select</title>
<link rel=stylesheet href="{MODULES}/tom-select/dist/css/tom-select.css">
<label for=country>Country</label>
<select id=country><option value="">Pick one</option><option value=fr>France</option>
<option value=de>Germany</option><option value=it>Italy</option><option value=es>Spain</option></select>
<p id=out>waiting</p>
<script src="{MODULES}/tom-select/dist/js/tom-select.complete.min.js"></script>
<script>
const ts = new TomSelect('#country', {{}});
ts.on('change', v => document.getElementById('out').textContent = 'chose:' + v);
document.getElementById('out').textContent = 'ready';
</script>"#
    )
}

/// flatpickr on a field, showing November 2026; the picked date in `#out`.
fn flatpickr() -> String {
    format!(
        r#"<!doctype html><title>flatpickr</title>
<link rel=stylesheet href="{MODULES}/flatpickr/dist/flatpickr.min.css">
<input id=when placeholder="Pick a date"><p id=out>waiting</p>
<script src="{MODULES}/flatpickr/dist/flatpickr.min.js"></script>
<script>
flatpickr('#when', {{ defaultDate: '2026-11-10', onChange: (d, s) => document.getElementById('out').textContent = 'date:' + s }});
document.getElementById('out').textContent = 'ready';
</script>"#
    )
}

/// A kanban board of dragula (cards with a move cursor, as its examples style them); the
/// columns' cards in `#out` after each drop.
fn dragula() -> String {
    format!(
        r#"<!doctype html><title>dragula</title>
<link rel=stylesheet href="{MODULES}/dragula/dist/dragula.min.css">
<style>.col {{ display: inline-block; width: 200px; min-height: 120px; vertical-align: top; border: 1px solid #999; margin: 4px }}
.card {{ cursor: move; padding: 8px; margin: 6px; background: #eee }}</style>
<div class=col id=todo><div class=card>Task A</div><div class=card>Task B</div></div>
<div class=col id=done><div class=card>Task C</div></div>
<p id=out>waiting</p>
<script src="{MODULES}/dragula/dist/dragula.min.js"></script>
<script>
const cols = ['todo', 'done'].map(id => document.getElementById(id));
const show = () => document.getElementById('out').textContent =
  cols.map(c => c.id + ':' + [...c.children].map(k => k.textContent).join(',')).join(' ');
dragula(cols).on('drop', show);
show();
</script>"#
    )
}

/// A SortableJS list (items with a move cursor, as its examples style them); the order in
/// `#out` after each drag.
fn sortable() -> String {
    format!(
        r#"<!doctype html><title>SortableJS</title>
<style>#list {{ width: 240px; padding: 0 }} .item {{ cursor: move; list-style: none; padding: 10px; margin: 4px; border: 1px solid #999 }}</style>
<ul id=list><li class=item>Apple</li><li class=item>Banana</li><li class=item>Cherry</li></ul>
<p id=out>waiting</p>
<script src="{MODULES}/sortablejs/Sortable.min.js"></script>
<script>
const list = document.getElementById('list');
const show = () => document.getElementById('out').textContent =
  'order:' + [...list.children].map(k => k.textContent).join(',');
new Sortable(list, {{ animation: 0, onEnd: show }});
show();
</script>"#
    )
}

pub fn pages() -> HashMap<&'static str, Page> {
    HashMap::from([
        ("/widgets/todo-vanilla.html", Page::html(todo_vanilla())),
        ("/widgets/todo-jquery.html", Page::html(todo_jquery())),
        ("/widgets/todo-react.html", Page::html(todo_react())),
        ("/widgets/todo-vue.html", Page::html(todo_vue())),
        ("/widgets/focus.html", Page::html(FOCUS)),
        ("/widgets/monaco.html", Page::html(monaco())),
        ("/widgets/codemirror.html", Page::html(CODEMIRROR)),
        ("/widgets/quill.html", Page::html(quill())),
        ("/widgets/shoelace.html", Page::html(shoelace())),
        (
            "/widgets/shoelace-dialog.html",
            Page::html(shoelace_dialog()),
        ),
        ("/widgets/tom-select.html", Page::html(tom_select())),
        ("/widgets/flatpickr.html", Page::html(flatpickr())),
        ("/widgets/dragula.html", Page::html(dragula())),
        ("/widgets/sortable.html", Page::html(sortable())),
    ])
}

/// The text of `selector` once it says `what`.
async fn shows(a: &Agent, tab: u32, selector: &str, what: &str) -> anyhow::Result<String> {
    eventually(Duration::from_secs(10), what, async || {
        text_of(a, tab, selector)
            .await
            .ok()
            .filter(|t| t.contains(what))
    })
    .await
}

/// The TodoMVC edit, in all four apps: double-click a todo, type, Enter — the edit is saved.
/// Vanilla and jQuery save when the page's own `blur()` fires `blur`/`focusout`.
pub async fn todomvc_edits_commit_with_enter(s: Arc<Shared>) -> anyhow::Result<()> {
    let a = s.agent("todomvc").await?;
    for app in ["vanilla", "jquery", "react", "vue"] {
        let tab = a
            .open(&s.pages.url(&format!("/widgets/todo-{app}.html")))
            .await?;
        shows(&a, tab, "#state", "Buy milk").await?;
        call(
            &a,
            "firefox_click",
            json!({"tabId": tab, "selector": "li:first-child label", "clickCount": 2}),
        )
        .await?;
        type_into(&a, tab, "li.editing .edit", " now").await?;
        press(&a, tab, "Enter").await?;
        let saved = eventually(Duration::from_secs(3), "the saved edit", async || {
            text_of(&a, tab, "#state")
                .await
                .ok()
                .filter(|t| t.contains("Buy milk now"))
        })
        .await;
        ensure!(
            saved.is_ok(),
            "{app}: the edit was not saved: {}",
            text_of(&a, tab, "#state").await?
        );
    }
    a.close().await?;
    Ok(())
}

/// A page sees focus as a user's click gives it: the events in order with their
/// `relatedTarget`, `document.hasFocus()`, the `:focus`, `:focus-visible` and `:focus-within`
/// styles, and its own `blur()` fires the events.
pub async fn focus_is_as_a_users_click_gives_it(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("focus", "/widgets/focus.html").await?;
    let seen = async |what: &str| shows(&a, tab, "#out", what).await;
    click(&a, tab, "#a").await?;
    let clicked = seen("\"active\":\"a\"").await?;
    for style in [
        "\"has\":true",
        "\"ring\":\"rgb(255, 0, 0)\"",
        "\"visible\":\"rgb(0, 0, 255)\"",
        "\"within\":\"rgb(1, 2, 3)\"",
        "\"log\":\"focus:a< focusin:a<\"",
    ] {
        ensure!(clicked.contains(style), "{style} in {clicked}");
    }
    // The keyboard's focus shows :focus-visible on a button too; the field's ring goes.
    press(&a, tab, "Tab").await?;
    let tabbed = seen("\"active\":\"b\"").await?;
    ensure!(
        tabbed.contains("\"button\":\"rgb(0, 255, 0)\"")
            && tabbed.contains("\"ring\":\"rgb(0, 0, 0)\""),
        "{tabbed}"
    );
    click(&a, tab, "#a").await?;
    // The page's own blur().
    click(&a, tab, "#unfocus").await?;
    let log = seen("blur:a< ").await?;
    ensure!(
        log.contains(
            "focus:a< focusin:a< blur:a<b focusout:a<b focus:b<a focusin:b<a \
             blur:b<a focusout:b<a focus:a<b focusin:a<b blur:a< focusout:a<"
        ),
        "{log}"
    );
    a.close().await?;
    Ok(())
}

/// Monaco keeps what is typed into it: it listens for focus before it takes input.
pub async fn monaco_takes_typing(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("monaco", "/widgets/monaco.html").await?;
    shows(&a, tab, "#out", "ready").await?;
    click(&a, tab, ".monaco-editor .view-lines").await?;
    type_into(&a, tab, ".monaco-editor textarea", "hello 1234").await?;
    let model = shows(&a, tab, "#out", "model:").await?;
    ensure!(model.contains("model:hello 1234"), "{model}");
    a.close().await?;
    Ok(())
}

/// The JSON a widget page reports in `#out`.
async fn reported(a: &Agent, tab: u32) -> anyhow::Result<serde_json::Value> {
    let out = text_of(a, tab, "#out").await?;
    let json = out.lines().find(|l| l.starts_with('{')).unwrap_or("{}");
    Ok(serde_json::from_str(json)?)
}

/// The editor's report once `ready` holds for it (the page reports after its own update).
async fn reported_when(
    a: &Agent,
    tab: u32,
    what: &str,
    ready: impl Fn(&serde_json::Value) -> bool,
) -> anyhow::Result<serde_json::Value> {
    eventually(Duration::from_secs(3), what, async || {
        reported(a, tab).await.ok().filter(&ready)
    })
    .await
}

/// How long the answer of a `firefox_type` says the field's value is.
fn typed_length(answer: &str) -> Option<u64> {
    answer
        .split("is now ")
        .nth(1)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Typing goes where the caret is, or over the selection, as a person types: after Control+a
/// in CodeMirror it replaces everything; its answer counts what the editor counts, newlines
/// included.
pub async fn codemirror_types_over_the_selection(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("codemirror", "/widgets/codemirror.html").await?;
    shows(&a, tab, "#out", "answer").await?;
    // The editor is named by its row's words, not by its line numbers or the whole page.
    let snap = snapshot(&a, tab).await?;
    let editor = snap
        .lines()
        .find(|l| l.trim_start().starts_with("textbox"))
        .unwrap_or_default();
    ensure!(
        !editor.is_empty() && !editor.contains("\"1 2") && !editor.contains("12let"),
        "{snap}"
    );
    click(&a, tab, ".cm-content").await?;
    press(&a, tab, "Control+a").await?;
    let all = reported(&a, tab).await?;
    ensure!(all["from"] == 0 && all["to"] == all["length"], "{all}");
    let typed = type_into(&a, tab, ".cm-content", "one").await?;
    press(&a, tab, "Enter").await?;
    let typed_again = type_into(&a, tab, ".cm-content", "two").await?;
    let doc = reported_when(&a, tab, "the new document", |d| {
        d["doc"].as_str().is_some_and(|d| d.ends_with("two"))
    })
    .await?;
    ensure!(
        doc["doc"] == "one\ntwo",
        "typed over the selection: {doc} ({typed:?})"
    );
    ensure!(
        typed_length(&typed_again.text) == doc["length"].as_u64(),
        "the answer counts as the editor does: {typed_again:?} vs {doc}"
    );
    a.close().await?;
    Ok(())
}

/// In Quill, typing continues the last line (no stray paragraph), a bold started with
/// Control+b holds for what is typed next, and the answer does not count the editor's
/// invisible caret character.
pub async fn quill_types_at_the_caret_with_its_formats(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("quill", "/widgets/quill.html").await?;
    shows(&a, tab, "#out", "Hello").await?;
    type_into(&a, tab, ".ql-editor", " there").await?;
    press(&a, tab, "Control+b").await?;
    let typed = type_into(&a, tab, ".ql-editor", " bold").await?;
    let seen = reported_when(&a, tab, "the bold text", |d| {
        d["text"].as_str().is_some_and(|t| t.contains("bold"))
    })
    .await?;
    ensure!(
        seen["html"] == "<p>Hello world there<strong> bold</strong></p>",
        "{seen}"
    );
    // Quill's length counts its final newline, which no one typed.
    ensure!(
        typed_length(&typed.text) == seen["length"].as_u64().map(|n| n - 1),
        "{typed:?} vs {seen}"
    );
    a.close().await?;
    Ok(())
}

/// The ref of the first snapshot line that starts with `line` (after the indent).
fn ref_of(snapshot: &str, line: &str) -> Option<String> {
    snapshot
        .lines()
        .map(str::trim_start)
        .find(|l| l.starts_with(line))?
        .split_whitespace()
        .find(|w| w.starts_with('e') && w[1..].chars().all(|c| c.is_ascii_digit()) && w.len() > 1)
        .map(str::to_owned)
}

/// Web components: a field inside a shadow root takes typing from the editor (its maxlength
/// holds, undo works), controls labelled through slots or `aria-labelledby` in their shadow
/// root are named, a clicked checkbox is described by its name, and text placed directly in
/// a dialog whose host is `display: contents` is read, inside the dialog.
pub async fn web_components_are_typed_into_and_named(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("shoelace", "/widgets/shoelace.html").await?;
    shows(&a, tab, "#out", "value").await?;
    let snap = said(&a, "firefox_snapshot", json!({"tabId": tab})).await?;
    for line in [
        "textbox \"Zip code\"",
        "button \"Save draft\"",
        "checkbox \"I agree to the terms\"",
        "combobox \"Shirt size\"",
    ] {
        ensure!(ref_of(&snap, line).is_some(), "{line} in {snap}");
    }
    let zip = ref_of(&snap, "textbox \"Zip code\"").unwrap_or_default();
    let typed = call(
        &a,
        "firefox_type",
        json!({"tabId": tab, "ref": zip, "text": "123456789"}),
    )
    .await?;
    ensure!(
        typed.text.contains("kept 5 of 9") && !typed.text.contains("by script"),
        "{typed:?}"
    );
    ensure!(
        shows(&a, tab, "#out", "12345")
            .await?
            .contains("\"value\":\"12345\"")
    );
    call(
        &a,
        "firefox_press_key",
        json!({"tabId": tab, "ref": zip, "key": "Control+z"}),
    )
    .await?;
    shows(&a, tab, "#out", "\"value\":\"\"").await?;
    let agree = ref_of(&snap, "checkbox \"I agree").unwrap_or_default();
    let clicked = call(&a, "firefox_click", json!({"tabId": tab, "ref": agree})).await?;
    ensure!(
        clicked.text.contains("I agree to the terms") && !clicked.text.contains("\"on\""),
        "{clicked:?}"
    );

    let dialog = a
        .open(&s.pages.url("/widgets/shoelace-dialog.html"))
        .await?;
    let snap = eventually(Duration::from_secs(5), "the dialog", async || {
        let snap = call(&a, "firefox_snapshot", json!({"tabId": dialog}))
            .await
            .ok()?
            .text;
        snap.contains("dialog").then_some(snap)
    })
    .await?;
    let lines: Vec<&str> = snap.lines().collect();
    let at = |what: &str| lines.iter().position(|l| l.contains(what));
    let (Some(open), Some(text), Some(close)) = (
        at("dialog \"Notice\""),
        lines
            .iter()
            .position(|l| l.trim_start().starts_with("\"Your session expires soon.")),
        lines.iter().rposition(|l| l.contains("button \"Close\"")),
    ) else {
        anyhow::bail!("the dialog, its text and its footer button: {snap}");
    };
    let inside = |i: usize| lines[i].starts_with(' ');
    ensure!(
        open < text && text < close && inside(text) && inside(close),
        "the text and the Close button belong in the dialog: {snap}"
    );
    let page = said(&a, "firefox_get_content", json!({"tabId": dialog})).await?;
    ensure!(
        page.contains("Your session expires soon.") && page.contains("Close"),
        "{page}"
    );
    a.close().await?;
    Ok(())
}

/// The snapshot of a tab.
async fn snapshot(a: &Agent, tab: u32) -> anyhow::Result<String> {
    Ok(call(a, "firefox_snapshot", json!({"tabId": tab}))
        .await?
        .text)
}

/// What a person clicks has a ref: a listbox's options (Tom Select), a calendar's days —
/// those outside the month marked — (flatpickr), kanban cards (dragula), sortable items
/// (SortableJS), TodoMVC's todos (double-clicked to edit).
pub async fn what_a_person_clicks_has_a_ref(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("refs", "/widgets/tom-select.html").await?;
    shows(&a, tab, "#out", "ready").await?;
    let snap = snapshot(&a, tab).await?;
    let country = ref_of(&snap, "combobox \"Country\"");
    ensure!(country.is_some(), "{snap}");
    call(&a, "firefox_click", json!({"tabId": tab, "ref": country})).await?;
    let open = snapshot(&a, tab).await?;
    let germany = ref_of(&open, "option \"Germany\"");
    ensure!(germany.is_some(), "the open list's options: {open}");
    call(&a, "firefox_click", json!({"tabId": tab, "ref": germany})).await?;
    shows(&a, tab, "#out", "chose:de").await?;

    let tab = a.open(&s.pages.url("/widgets/flatpickr.html")).await?;
    shows(&a, tab, "#out", "ready").await?;
    click(&a, tab, "#when").await?;
    let calendar = snapshot(&a, tab).await?;
    let day = ref_of(&calendar, "clickable \"November 26, 2026\"");
    ensure!(day.is_some(), "{calendar}");
    ensure!(
        calendar
            .lines()
            .any(|l| l.contains("\"December 1, 2026\"") && l.contains("[outside month]"))
            && calendar
                .lines()
                .any(|l| l.contains("\"November 1, 2026\"") && !l.contains("[outside month]")),
        "next month's days are marked: {calendar}"
    );
    call(&a, "firefox_click", json!({"tabId": tab, "ref": day})).await?;
    shows(&a, tab, "#out", "date:2026-11-26").await?;

    for (page, items) in [
        ("dragula", ["Task A", "Task B", "Task C"]),
        ("sortable", ["Apple", "Banana", "Cherry"]),
    ] {
        let tab = a
            .open(&s.pages.url(&format!("/widgets/{page}.html")))
            .await?;
        shows(&a, tab, "#out", ":").await?;
        let snap = snapshot(&a, tab).await?;
        for item in items {
            ensure!(
                ref_of(&snap, &format!("clickable \"{item}\"")).is_some(),
                "{page}: {item} in {snap}"
            );
        }
    }

    let tab = a.open(&s.pages.url("/widgets/todo-vanilla.html")).await?;
    shows(&a, tab, "#state", "Buy milk").await?;
    let snap = snapshot(&a, tab).await?;
    let todo = ref_of(&snap, "label \"Buy milk\"");
    ensure!(todo.is_some(), "{snap}");
    call(
        &a,
        "firefox_click",
        json!({"tabId": tab, "ref": todo, "clickCount": 2}),
    )
    .await?;
    call(
        &a,
        "firefox_type",
        json!({"tabId": tab, "selector": ".edit", "text": "!", "clear": false}),
    )
    .await?;
    press(&a, tab, "Enter").await?;
    shows(&a, tab, "#state", "Buy milk!").await?;
    a.close().await?;
    Ok(())
}

/// Drags as a hand drags: SortableJS reorders (before and after an item), dragula moves a card
/// to another column, and a drop at a point lands where the point is.
pub async fn drags_that_libraries_accept(s: Arc<Shared>) -> anyhow::Result<()> {
    let (a, tab) = s.agent_at("drag", "/widgets/sortable.html").await?;
    shows(&a, tab, "#out", "order:").await?;
    let item = |n: usize| format!("#list li:nth-child({n})");
    let moved = call(
        &a,
        "firefox_drag",
        json!({"tabId": tab, "from": item(1), "to": item(3), "position": "before"}),
    )
    .await?;
    ensure!(!moved.text.contains("did not put it"), "{moved:?}");
    shows(&a, tab, "#out", "order:Banana,Apple,Cherry").await?;
    let after = call(
        &a,
        "firefox_drag",
        json!({"tabId": tab, "from": item(1), "to": item(3), "position": "after"}),
    )
    .await?;
    let order = shows(&a, tab, "#out", "order:").await?;
    ensure!(
        order.contains("order:Apple,Cherry,Banana"),
        "{order} after {after:?}"
    );
    call(
        &a,
        "firefox_drag",
        json!({"tabId": tab, "from": item(3), "to": item(1), "position": "before"}),
    )
    .await?;
    shows(&a, tab, "#out", "order:Banana,Apple,Cherry").await?;

    let tab = a.open(&s.pages.url("/widgets/dragula.html")).await?;
    shows(&a, tab, "#out", "todo:").await?;
    call(
        &a,
        "firefox_drag",
        json!({"tabId": tab, "from": "#todo .card:first-child", "to": "#done"}),
    )
    .await?;
    let board = shows(&a, tab, "#out", "done:Task C,Task A").await?;
    ensure!(board.contains("todo:Task B"), "{board}");
    call(
        &a,
        "firefox_drag",
        json!({"tabId": tab, "from": "#todo .card", "to": "#done .card:first-child", "position": "before"}),
    )
    .await?;
    shows(&a, tab, "#out", "done:Task B,Task C,Task A").await?;
    // At a point: the bottom of the first column, below its last card.
    let column = call(
        &a,
        "firefox_get_element",
        json!({"tabId": tab, "selector": "#todo"}),
    )
    .await?;
    let info: serde_json::Value = serde_json::from_str(&column.text)?;
    let rect: Vec<f64> = serde_json::from_value(info["rect"].clone())?;
    let (x, y) = (rect[0] + rect[2] / 2.0, rect[1] + rect[3] - 5.0);
    let dropped = call(
        &a,
        "firefox_drag",
        json!({"tabId": tab, "from": "#done .card:first-child", "x": x, "y": y}),
    )
    .await?;
    ensure!(dropped.text.contains("to the point"), "{dropped:?}");
    shows(&a, tab, "#out", "todo:Task B done:Task C,Task A").await?;
    a.close().await?;
    Ok(())
}
