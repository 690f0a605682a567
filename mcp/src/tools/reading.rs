//! Reading pages: content, snapshots with refs, elements, page state and its diff, waiting.

use claudezilla_protocol::args::{
    AccessibilitySnapshotArgs, FindArgs, GetContentArgs, MAX_MAX_LENGTH, PageStateArgs,
    PerformanceArgs, SnapshotArgs, TargetArgs, WaitForArgs,
};
use claudezilla_protocol::asks;
use claudezilla_protocol::reply;
use claudezilla_protocol::reply::{
    Found, PageContent, PagePerformance, PageState, Painted, Searched, Showing, Snapshot,
};

use rmcp::model::CallToolResult;
use rmcp::schemars::{self, JsonSchema};
use serde::Deserialize;

use super::output::ToFile;
use super::{Context, Given, respond, text};
use crate::session::Claudezilla;

/// firefox_wait_for's own default, shorter than other tools'.
const WAIT_FOR_DEFAULT_MS: u64 = 10_000;

browser_tools! { reading_router;
    get_content "firefox_get_content" (ToFile<GetContentArgs>) => with read_content, "Read your tab as text (default), markdown (headings, links, lists, tables) or html, whole or under a selector. Cut at maxLength.";
    snapshot "firefox_snapshot" (SnapshotArgs) => whole asks::Snapshot, "Compact accessibility tree of your tab (all frames, shadow DOM) where every interactive element has a ref (e12) that any action tool takes instead of a selector.";
        s => text(render_snapshot(s));
    find "firefox_find" (FindArgs) => asks::Find, "Where a text (or regex) shows on your tab, frames and shadow DOM too: each match's line, and the ref, role and name of the element to act on; or every element of a role (and name).";
        f => text(render_found(&f));
    performance "firefox_performance" (PerformanceArgs) => with measure, "Your tab's load and responsiveness: TTFB, DOMContentLoaded, load, LCP, CLS, INP, long tasks, resources by type and the largest.";
    accessibility_snapshot "firefox_get_accessibility_snapshot" (AccessibilitySnapshotArgs) => asks::AccessibilitySnapshot, "Accessibility tree limited by depth and node count (Claudezilla's); firefox_snapshot is usually better.";
        s => text(render_snapshot(s));
    get_element "firefox_get_element" (TargetArgs) => asks::GetElement, "One element in detail: attributes, visibility, box, key styles, text, value.";
        e => text(serde_json::to_string_pretty(&e).unwrap_or_default());
    get_page_state "firefox_get_page_state" (PageStateArgs) => asks::GetPageState, "Structured page summary (JSON): headings, links, buttons, inputs with refs, images, landmarks, counts, recent errors.";
        s => text(serde_json::to_string(&s).unwrap_or_default());
    diff_page_state "firefox_diff_page_state" (DiffArgs) => with diff_states, "What changed between two firefox_get_page_state answers (pass them as before and after).";
    wait_for "firefox_wait_for" (WaitForArgs) => with wait, "Wait until an element matches a selector, the page shows a text, or the URL matches a glob. timeout defaults to 10000 here.";
}

impl Claudezilla {
    /// The cut is said with the length asked for.
    async fn read_content(
        &self,
        a: Given<ToFile<GetContentArgs>>,
        context: Context,
    ) -> CallToolResult {
        let max_length = match a.args.output_file {
            Some(_) => MAX_MAX_LENGTH,
            None => a.args.args.max_length,
        };
        let render = move |c: PageContent| text(render_content(&c, max_length));
        self.answer_or_file::<asks::GetContent, _>(a, context, render)
            .await
    }

    /// A fresh load first when asked: the extension reloads the tab (shown while it loads),
    /// waits for the page, then reads the entries.
    async fn measure(&self, a: Given<PerformanceArgs>, _: Context) -> CallToolResult {
        respond(
            self.ask::<asks::Performance>(a.args, a.timeout).await,
            |p| text(render_performance(&p)),
        )
    }

    /// Pure: two answers compared here, the browser not asked.
    async fn diff_states(&self, a: Given<DiffArgs>, _: Context) -> CallToolResult {
        text(diff(&a.args.before.0, &a.args.after.0))
    }

    /// With a default timeout of its own.
    async fn wait(&self, a: Given<WaitForArgs>, _: Context) -> CallToolResult {
        let timeout = a.timeout.or(Some(WAIT_FOR_DEFAULT_MS));
        respond(
            self.ask::<asks::WaitFor>(a.args, timeout).await,
            |reply::Waited { what, waited_ms }| text(format!("Done after {waited_ms} ms: {what}.")),
        )
    }
}

fn render_content(c: &PageContent, max_length: u32) -> String {
    let mut out = format!("{} — {}\n\n{}", c.title, c.url, c.text);
    if c.truncated {
        out.push_str(&format!(
            "\n\n[Truncated: showing the first {max_length} of {} characters. Pass a larger maxLength, or a selector to read one part.]",
            c.total_length
        ));
    }
    out
}

fn render_performance(p: &PagePerformance) -> String {
    let mut out = format!("Performance of {}\n", p.url);
    match &p.navigation {
        Some(n) => out.push_str(&format!(
            "Navigation: TTFB {} ms, DOMContentLoaded {} ms, load {} ms, {} bytes\n",
            n.ttfb, n.dom_content_loaded, n.load, n.transfer_bytes
        )),
        None => out.push_str("Navigation: no timing (the page was not loaded by a navigation)\n"),
    }
    let painted = |name: &str, p: &Option<Painted>, none: &str| match p {
        Some(Painted { ms, element }) => {
            let on = element
                .as_ref()
                .map(|e| format!(" — {e}"))
                .unwrap_or_default();
            format!("{name}: {ms} ms{on}\n")
        }
        None => format!("{name}: {none}\n"),
    };
    let no_lcp = match p.hidden {
        true => {
            "none — the tab was hidden (not the active tab of its window), and a hidden tab paints nothing; pass reload: true to measure a load with the tab shown"
        }
        false => "none yet",
    };
    out.push_str(&painted("LCP", &p.lcp, no_lcp));
    if let Some(s) = &p.cls {
        let moved = match s.elements.is_empty() {
            true => String::new(),
            false => format!(" — moved: {}", s.elements.join("; ")),
        };
        out.push_str(&format!("CLS: {:.3}{moved}\n", s.score));
    }
    out.push_str(&painted("INP", &p.inp, "no interactions yet"));
    if let Some(t) = &p.long_tasks {
        out.push_str(&format!(
            "Long tasks: {} ({} ms in all)\n",
            t.count, t.total_ms
        ));
    }
    let kinds: Vec<String> = p
        .resources
        .iter()
        .map(|k| format!("{} {}× {} B", k.kind, k.count, k.bytes))
        .collect();
    out.push_str(&format!(
        "Resources: {}\n",
        if kinds.is_empty() {
            "none".into()
        } else {
            kinds.join(", ")
        }
    ));
    for r in &p.largest {
        out.push_str(&format!("  {} B {} {}\n", r.bytes, r.kind, r.url));
    }
    match &p.showing {
        Showing::NotAsked | Showing::AlreadyShown => {}
        Showing::Shown { restored } => {
            let back = match restored {
                Some(t) => format!(", then tab {t} was made active again"),
                None => String::new(),
            };
            out.push_str(&format!(
                "Shown: the tab was the active tab of the agents' window while it reloaded{back}\n"
            ));
        }
        Showing::NotShown { why } => {
            out.push_str(&format!("Not shown while it reloaded: {why}\n"));
        }
    }
    for u in &p.unmeasured {
        out.push_str(&format!("Not measured — {u}\n"));
    }
    out
}

/// What a search read, and why it stopped early if it did.
fn render_searched(s: &Searched) -> String {
    // A search by role reads elements, not characters.
    let chars = match s.chars {
        0 => String::new(),
        n => format!("{n} characters in "),
    };
    let mut read = format!("[searched {chars}{} frame(s), {} ms]", s.frames, s.ms);
    if let Some(why) = &s.stopped {
        read.push_str(&format!(
            "\n[stopped early: {why}; matches past that point are not counted]"
        ));
    }
    read
}

fn render_found(f: &Found) -> String {
    let read = render_searched(&f.searched);
    if f.total == 0 {
        return format!(
            "Not found on the page (hidden text and elements are not searched).\n{read}"
        );
    }
    let mut out = format!("{} of {} match(es):\n", f.matches.len(), f.total);
    for m in &f.matches {
        let name = if m.name.is_empty() {
            String::new()
        } else {
            format!(" {:?}", m.name)
        };
        let context = match m.context.is_empty() {
            true => String::new(),
            false => format!(": {}", m.context),
        };
        out.push_str(&format!("{} {}{name}{context}\n", m.element_ref, m.role));
    }
    let rest = (f.total as usize).saturating_sub(f.matches.len());
    if rest > 0 {
        out.push_str(&format!(
            "[{rest} more; raise limit, or search for more words]\n"
        ));
    }
    out.push_str(&read);
    out
}

fn render_snapshot(s: Snapshot) -> String {
    let mut out = s.text;
    out.push_str(&format!("\n[{} refs. Use them as `ref` in firefox_click, firefox_type, …; they stay valid until the element leaves the page.]", s.refs));
    if let Some(cut) = s.cut {
        out.push_str(&format!("\n[Cut: {cut}]"));
    }
    out
}

/// A page state given as the JSON object, or as the JSON text firefox_get_page_state returned.
#[derive(Debug)]
pub struct StateArg(PageState);

impl<'de> Deserialize<'de> for StateArg {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(s) => serde_json::from_str(&s)
                .map(StateArg)
                .map_err(D::Error::custom),
            v => serde_json::from_value(v)
                .map(StateArg)
                .map_err(D::Error::custom),
        }
    }
}

impl JsonSchema for StateArg {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PageState".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"description": "A firefox_get_page_state answer (object or its JSON text)."})
    }
}

/// Arguments of `firefox_diff_page_state`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiffArgs {
    before: StateArg,
    after: StateArg,
}

/// Lists what appeared and disappeared in each part of the page state.
fn diff(before: &PageState, after: &PageState) -> String {
    let mut out = Vec::new();
    if before.url != after.url {
        out.push(format!("url: {} → {}", before.url, after.url));
    }
    if before.title != after.title {
        out.push(format!("title: {:?} → {:?}", before.title, after.title));
    }
    let parts: [(&str, &Vec<String>, &Vec<String>); 7] = [
        ("headings", &before.headings, &after.headings),
        ("links", &before.links, &after.links),
        ("buttons", &before.buttons, &after.buttons),
        ("inputs", &before.inputs, &after.inputs),
        ("images", &before.images, &after.images),
        ("landmarks", &before.landmarks, &after.landmarks),
        ("errors", &before.errors, &after.errors),
    ];
    for (name, b, a) in parts {
        let added: Vec<&String> = a.iter().filter(|x| !b.contains(x)).collect();
        let removed: Vec<&String> = b.iter().filter(|x| !a.contains(x)).collect();
        for x in added {
            out.push(format!("+ {name}: {x}"));
        }
        for x in removed {
            out.push(format!("- {name}: {x}"));
        }
    }
    if before.counts != after.counts {
        out.push(format!("counts: {:?} → {:?}", before.counts, after.counts));
    }
    if out.is_empty() {
        "No change.".into()
    } else {
        out.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_lists_what_appeared_and_went() {
        let before = PageState {
            url: "a".into(),
            buttons: vec!["Save (e1)".into()],
            ..Default::default()
        };
        let mut after = before.clone();
        assert_eq!(diff(&before, &after), "No change.");
        after.url = "b".into();
        after.buttons = vec!["Undo (e2)".into()];
        after.errors = vec!["boom".into()];
        let d = diff(&before, &after);
        assert!(
            d.contains("url: a → b")
                && d.contains("+ buttons: Undo (e2)")
                && d.contains("- buttons: Save (e1)")
                && d.contains("+ errors: boom"),
            "{d}"
        );
    }

    #[test]
    fn states_come_as_objects_or_their_json_text() {
        let obj: DiffArgs = serde_json::from_value(
            serde_json::json!({"before": {"url": "x"}, "after": "{\"url\":\"y\"}"}),
        )
        .unwrap();
        assert_eq!(
            (obj.before.0.url.as_str(), obj.after.0.url.as_str()),
            ("x", "y")
        );
    }
}
