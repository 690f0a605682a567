//! A trace's actions as one Playwright Test file (TypeScript): each element by the locator the
//! browser named just before the action (role and name, scoped or numbered when shared, inside
//! `frameLocator`s), typed secrets as `process.env.NAME`, navigations as `goto`, waits and
//! finds as `expect` assertions. Every string the page or the agent gave is written as a JSON
//! string literal, so nothing in it can end the string and become code.

use std::collections::HashMap;
use std::fmt::Write as _;

use claudezilla_protocol::TabId;
use claudezilla_protocol::args::MouseButton;
use claudezilla_protocol::reply::{Locator, Pick, Query};

use super::Entry;
use super::replay::{Field, Located, Replay, Spot, Step, Text};

/// The test file: one `test` named `title`, its steps numbered as the trace's actions.
pub fn spec(entries: &[Entry], title: &str) -> String {
    let mut out = String::from(
        "// Written by Claudezilla from what an agent did (firefox_trace). Each element is named as\n\
         // the page was just before the action; secrets come from the environment. Read it, then\n\
         // name it *.spec.ts to run it with Playwright Test.\n\
         import { test, expect } from '@playwright/test';\n\n",
    );
    let _ = writeln!(out, "test({}, async ({{ page, context }}) => {{", js(title));
    let mut pages = Pages::default();
    for (i, entry) in entries.iter().enumerate() {
        let n = i + 1;
        let Some(replay) = &entry.replay else {
            continue;
        };
        let _ = writeln!(out, "  // {n}. {} {}", entry.tool, one_line(&entry.target));
        if entry.failed {
            let _ = writeln!(out, "  // (it failed, so it is not replayed)");
            continue;
        }
        match lines(replay, &mut pages) {
            Ok(lines) => lines.iter().for_each(|l| {
                let _ = writeln!(out, "  {l}");
            }),
            Err(why) => {
                let _ = writeln!(out, "  // not replayed: {}", one_line(&why));
            }
        }
    }
    out.push_str("});\n");
    out
}

/// Which Playwright page stands for which tab, and whether it has been given an address.
#[derive(Default)]
struct Pages {
    names: HashMap<Option<TabId>, String>,
    started: Vec<String>,
    last: Option<String>,
}

impl Pages {
    /// The page of `tab` (None: the agent's latest), and the line that makes it with
    /// `context.newPage()` when it is new and not the first.
    fn name_of(&self, tab: Option<TabId>) -> (String, Option<String>) {
        if let Some(name) = tab.map_or(self.last.as_ref(), |_| self.names.get(&tab)) {
            return (name.clone(), None);
        }
        match self.names.len() {
            0 => ("page".to_owned(), None),
            n => {
                let name = format!("page{}", n + 1);
                let made = format!("const {name} = await context.newPage();");
                (name, Some(made))
            }
        }
    }

    /// `page` stands for `tab` from now on, and has an address.
    fn used(&mut self, tab: Option<TabId>, page: &str) {
        self.names.entry(tab).or_insert_with(|| page.to_owned());
        if !self.started.iter().any(|p| p == page) {
            self.started.push(page.to_owned());
        }
        self.last = Some(page.to_owned());
    }
}

/// The statements of one step, or why it cannot be replayed (then nothing is written and
/// no page is made for it).
fn lines(replay: &Replay, pages: &mut Pages) -> Result<Vec<String>, String> {
    let (page, made) = pages.name_of(replay.tab);
    let body = statements(&replay.step, &page)?;
    let mut out: Vec<String> = made.into_iter().collect();
    let opens = matches!(replay.step, Step::Open(_) | Step::Goto(_));
    // The test starts where the agent's tab was.
    if !opens && !pages.started.contains(&page) && replay.url.starts_with("http") {
        out.push(format!("await {page}.goto({});", js(&replay.url)));
    }
    pages.used(replay.tab, &page);
    out.extend(body);
    Ok(out)
}

/// What one step does on `page`.
fn statements(step: &Step<Located>, page: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let at = |l: &Located| l.as_ref().map(|l| locator(page, l)).map_err(Clone::clone);
    let statement = match step {
        Step::Open(url) | Step::Goto(url) => format!("await {page}.goto({});", js(url)),
        Step::Back => format!("await {page}.goBack();"),
        Step::Forward => format!("await {page}.goForward();"),
        Step::Reload => format!("await {page}.reload();"),
        Step::Click { on, button, count } => click(page, &spot(on, &at)?, *button, *count),
        Step::Hover(on) => match spot(on, &at)? {
            Spot::Element(l) => format!("await {l}.hover();"),
            Spot::Point(x, y) => format!("await {page}.mouse.move({x}, {y});"),
        },
        Step::Type { into, text, clear } => {
            let into = at(into)?;
            match (text, clear) {
                (Text::Plain(t), false) => format!("await {into}.pressSequentially({});", js(t)),
                (text, _) => format!("await {into}.fill({});", value(text)),
            }
        }
        Step::Press { on: Some(on), key } => format!("await {}.press({});", at(on)?, js(key)),
        Step::Press { on: None, key } => format!("await {page}.keyboard.press({});", js(key)),
        Step::Select { on, values } => {
            let values: Vec<String> = values.iter().map(|v| js(v)).collect();
            format!("await {}.selectOption([{}]);", at(on)?, values.join(", "))
        }
        Step::Fill(fields) => {
            for (on, field) in fields {
                out.push(fill(on, &at(on)?, field));
            }
            return Ok(out);
        }
        Step::Upload { on, path } => format!("await {}.setInputFiles({});", at(on)?, js(path)),
        Step::Drag { from, to } => {
            let from = at(from)?;
            match spot(to, &at)? {
                Spot::Element(to) => format!("await {from}.dragTo({to});"),
                Spot::Point(x, y) => {
                    out.push(format!("await {from}.hover();"));
                    out.push(format!("await {page}.mouse.down();"));
                    out.push(format!(
                        "await {page}.mouse.move({x}, {y}, {{ steps: 5 }});"
                    ));
                    format!("await {page}.mouse.up();")
                }
            }
        }
        Step::SeeText(t) => format!(
            "await expect({page}.getByText({}).first()).toBeVisible();",
            js(t)
        ),
        Step::SeeSelector(s) => format!(
            "await expect({page}.locator({}).first()).toBeAttached();",
            js(s)
        ),
        Step::SeeRole { role, name } => {
            let name = name
                .as_ref()
                .map(|n| format!(", {{ name: {}, exact: true }}", js(n)))
                .unwrap_or_default();
            format!(
                "await expect({page}.getByRole({}{name}).first()).toBeVisible();",
                js(role)
            )
        }
        Step::Note(why) => return Err(why.clone()),
        Step::SeeUrl(glob) => format!(
            "await expect({page}).toHaveURL(new RegExp({}));",
            js(&glob_regex(glob))
        ),
    };
    out.push(statement);
    Ok(out)
}

fn spot(
    on: &Spot<Located>,
    at: &impl Fn(&Located) -> Result<String, String>,
) -> Result<Spot<String>, String> {
    Ok(match on {
        Spot::Element(l) => Spot::Element(at(l)?),
        Spot::Point(x, y) => Spot::Point(*x, *y),
    })
}

fn click(page: &str, on: &Spot<String>, button: MouseButton, count: u8) -> String {
    let mut options = Vec::new();
    match button {
        MouseButton::Left => {}
        MouseButton::Middle => options.push("button: 'middle'".to_owned()),
        MouseButton::Right => options.push("button: 'right'".to_owned()),
    }
    let double = count == 2 && matches!(on, Spot::Element(_));
    if count > 1 && !double {
        options.push(format!("clickCount: {count}"));
    }
    let options = match options.is_empty() {
        true => String::new(),
        false => format!("{{ {} }}", options.join(", ")),
    };
    match on {
        Spot::Element(l) if double => format!("await {l}.dblclick({options});"),
        Spot::Element(l) => format!("await {l}.click({options});"),
        Spot::Point(x, y) if options.is_empty() => format!("await {page}.mouse.click({x}, {y});"),
        Spot::Point(x, y) => format!("await {page}.mouse.click({x}, {y}, {options});"),
    }
}

/// One form field: a select by its option, a box by its state, else the text.
fn fill(on: &Located, at: &str, field: &Field) -> String {
    let select = matches!(
        on.as_ref().map(|l| &l.element.query),
        Ok(Query::Role { role, .. }) if role == "combobox" || role == "listbox"
    );
    match field {
        Field::Checked(on) => format!("await {at}.setChecked({on});"),
        Field::Text(Text::Plain(t)) if select => format!("await {at}.selectOption({});", js(t)),
        Field::Text(text) => format!("await {at}.fill({});", value(text)),
    }
}

/// Typed text as written, or a secret from the environment.
fn value(text: &Text) -> String {
    match text {
        Text::Plain(t) => js(t),
        Text::Secret(name) => format!("process.env.{name} ?? ''"),
    }
}

/// The locator expression of an element on `page`.
pub fn locator(page: &str, l: &Locator) -> String {
    let mut out = page.to_owned();
    for frame in &l.frames {
        let css = match &frame.query {
            Query::Css(css) => css.clone(),
            Query::Role { role, .. } => role.clone(),
        };
        let _ = write!(out, ".frameLocator({})", js(&css));
        if let Some(n) = frame.nth {
            let _ = write!(out, ".nth({n})");
        }
    }
    pick(&mut out, &l.element);
    out
}

fn pick(out: &mut String, p: &Pick) {
    if let Some(scope) = &p.scope {
        query(out, scope);
    }
    query(out, &p.query);
    if let Some(n) = p.nth {
        let _ = write!(out, ".nth({n})");
    }
}

fn query(out: &mut String, q: &Query) {
    let _ = match q {
        Query::Role { role, name, level } => {
            let level = level.map(|l| format!(", level: {l}")).unwrap_or_default();
            write!(
                out,
                ".getByRole({}, {{ name: {}, exact: true{level} }})",
                js(role),
                js(name)
            )
        }
        Query::Css(css) => write!(out, ".locator({})", js(css)),
    };
}

/// A JavaScript string literal (JSON's is one): quotes, backslashes and line breaks escaped,
/// and the two line separators JSON leaves as they are (older JavaScript ends a line there).
fn js(text: &str) -> String {
    serde_json::to_string(text)
        .unwrap_or_else(|_| "\"\"".to_owned())
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// A comment's text on one line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `firefox_wait_for`'s URL glob as a regular expression: `**` anything, `*` within a part.
fn glob_regex(glob: &str) -> String {
    let mut out = String::from("^");
    let mut chars = glob.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' if chars.peek() == Some(&'*') => {
                chars.next();
                out.push_str(".*");
            }
            '*' => out.push_str("[^/]*"),
            c if "\\^$.|?+()[]{}/".contains(c) => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push('$');
    out
}

#[cfg(test)]
mod tests {
    use claudezilla_protocol::args::ElementTarget;
    use serde_json::{Value, json};

    use super::super::replay::step_of;
    use super::*;

    fn role(role: &str, name: &str) -> Query {
        Query::Role {
            role: role.into(),
            name: name.into(),
            level: None,
        }
    }

    fn alone(query: Query) -> Pick {
        Pick {
            scope: None,
            query,
            nth: None,
            matches: 1,
        }
    }

    fn entry(tool: &str, target: &str, replay: Replay) -> Entry {
        Entry {
            at_ms: 0,
            tool: tool.into(),
            target: target.into(),
            answer: String::new(),
            failed: false,
            url: String::new(),
            title: String::new(),
            errors: vec![],
            picture: None,
            replay: Some(replay),
        }
    }

    fn replay(step: Step<Located>) -> Replay {
        Replay {
            tab: Some(TabId(3)),
            url: "https://shop.example/cart".into(),
            step,
        }
    }

    #[test]
    fn steps_are_read_from_the_tools_arguments() {
        let args = |v: Value| v.as_object().cloned().unwrap();
        let (tab, step) = step_of(
            "firefox_click",
            &args(json!({"tabId": 4, "ref": "f1e7", "clickCount": 2})),
        )
        .unwrap();
        assert_eq!(tab, Some(TabId(4)));
        assert!(matches!(
            step,
            Step::Click {
                on: Spot::Element(ElementTarget::Ref(_)),
                count: 2,
                ..
            }
        ));
        let (_, step) = step_of(
            "firefox_type",
            &args(json!({"ref": "e2", "secret": "SHOP_PASSWORD"})),
        )
        .unwrap();
        assert!(
            matches!(step, Step::Type { text: Text::Secret(ref n), .. } if n == "SHOP_PASSWORD")
        );
        let (_, step) = step_of(
            "firefox_press_key",
            &args(json!({"key": "a", "ctrlKey": true})),
        )
        .unwrap();
        assert_eq!(
            step,
            Step::Press {
                on: None,
                key: "Control+a".into()
            }
        );
        assert!(step_of("firefox_find", &args(json!({"pattern": "a+"}))).is_none());
        assert!(step_of("firefox_snapshot", &args(json!({}))).is_none());
        // Arguments the tool refuses are not a step either.
        assert!(step_of("firefox_click", &args(json!({"ref": "e1", "x": 3, "y": 4}))).is_none());
    }

    #[test]
    fn a_test_replays_each_step_by_role_name_frame_and_scope() {
        let in_frame = Locator {
            frames: vec![Pick {
                nth: Some(1),
                matches: 2,
                ..alone(Query::Css("iframe[title=\"Card\"]".into()))
            }],
            element: alone(role("textbox", "Card number")),
        };
        let in_row = Locator {
            frames: vec![],
            element: Pick {
                scope: Some(role("row", "Ford F-Series 33850")),
                ..alone(role("button", "Edit"))
            },
        };
        let nth = Locator {
            frames: vec![],
            element: Pick {
                nth: Some(2),
                matches: 3,
                ..alone(role("link", "Say \"hi\""))
            },
        };
        let entries = [
            entry(
                "firefox_type",
                "ref=\"f1e2\"",
                replay(Step::Type {
                    into: Ok(in_frame),
                    text: Text::Secret("CARD".into()),
                    clear: true,
                }),
            ),
            entry(
                "firefox_click",
                "ref=\"e9\"",
                replay(Step::Click {
                    on: Spot::Element(Ok(in_row)),
                    button: MouseButton::Left,
                    count: 1,
                }),
            ),
            entry(
                "firefox_click",
                "ref=\"e4\"",
                replay(Step::Click {
                    on: Spot::Element(Ok(nth)),
                    button: MouseButton::Right,
                    count: 1,
                }),
            ),
            entry(
                "firefox_hover",
                "ref=\"e5\"",
                replay(Step::Hover(Spot::Element(Err("ref e5 is stale".into())))),
            ),
            entry(
                "firefox_wait_for",
                "url=\"**/done\"",
                replay(Step::SeeUrl("**/done?a=*".into())),
            ),
        ];
        let spec = spec(&entries, "checkout");
        for expected in [
            "import { test, expect } from '@playwright/test';",
            "test(\"checkout\", async ({ page, context }) => {",
            "await page.goto(\"https://shop.example/cart\");",
            "await page.frameLocator(\"iframe[title=\\\"Card\\\"]\").nth(1).getByRole(\"textbox\", { name: \"Card number\", exact: true }).fill(process.env.CARD ?? '');",
            "await page.getByRole(\"row\", { name: \"Ford F-Series 33850\", exact: true }).getByRole(\"button\", { name: \"Edit\", exact: true }).click();",
            "await page.getByRole(\"link\", { name: \"Say \\\"hi\\\"\", exact: true }).nth(2).click({ button: 'right' });",
            "// not replayed: ref e5 is stale",
        ] {
            assert!(spec.contains(expected), "{expected}\n{spec}");
        }
        assert!(
            spec.contains("toHaveURL(new RegExp(\"^.*\\\\/done\\\\?a=[^/]*$\"))"),
            "{spec}"
        );
        assert_eq!(spec.matches(".goto(").count(), 1, "{spec}");
    }

    #[test]
    fn nothing_a_page_wrote_leaves_its_string_or_comment() {
        // U+2028 ends a line in JavaScript: in a comment it would start code.
        let hostile = "x\u{2028}require('child_process').exec('rm -rf ~')\n//\u{2029}\"+";
        let entries = [entry(
            "firefox_click",
            &format!("selector={hostile}"),
            replay(Step::Click {
                on: Spot::Element(Ok(Locator {
                    frames: vec![],
                    element: alone(Query::Css(hostile.into())),
                })),
                button: MouseButton::Left,
                count: 1,
            }),
        )];
        let spec = spec(&entries, hostile);
        assert!(!spec.contains(['\u{2028}', '\u{2029}']), "{spec}");
        // The page's text, escaped whole, inside its strings; the comment on one line.
        let lines: Vec<&str> = spec.lines().collect();
        let escaped = r#""x\u2028require('child_process').exec('rm -rf ~')\n//\u2029\"+""#;
        for expected in [
            format!("  await page.locator({escaped}).click();"),
            format!("test({escaped}, async ({{ page, context }}) => {{"),
        ] {
            assert!(lines.contains(&expected.as_str()), "{expected}\n{spec}");
        }
        for line in lines.iter().filter(|l| l.contains("require(")) {
            let code = line.trim_start();
            assert!(
                code.starts_with("// 1. ")
                    || code.starts_with("await page.locator(")
                    || code.starts_with("test("),
                "{line}"
            );
        }
    }
}
