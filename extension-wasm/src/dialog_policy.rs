//! How a page's `alert`, `confirm` and `prompt` are answered while an agent drives its tab
//! (`firefox_handle_dialog` sets the policy), and what the agent is told of them: every
//! dialog in the next answer, the last few in the dialog tool's report.

use claudezilla_protocol::reply::DialogReport;

/// Dialogs kept for the dialog tool's report.
const MAX_SEEN: usize = 20;
/// Dialogs told in one answer.
const MAX_UNTOLD: usize = 10;
/// Characters of a dialog's message in what the agent is told.
const MAX_MESSAGE: usize = 200;

/// The kinds of dialog a page can open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialog {
    Alert,
    Confirm,
    Prompt,
}

impl Dialog {
    pub const ALL: [Dialog; 3] = [Dialog::Alert, Dialog::Confirm, Dialog::Prompt];

    pub fn named(name: &str) -> Option<Dialog> {
        Dialog::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The page's function it stands for.
    pub fn name(self) -> &'static str {
        match self {
            Dialog::Alert => "alert",
            Dialog::Confirm => "confirm",
            Dialog::Prompt => "prompt",
        }
    }
}

/// By default (and after the tab is given back) alerts are acknowledged and confirm and
/// prompt dismissed.
#[derive(Debug, Default)]
pub struct DialogPolicy {
    accept: bool,
    prompt_text: Option<String>,
    seen: Vec<String>,
    /// Dialogs not yet told to the agent in an answer.
    untold: Vec<String>,
}

impl DialogPolicy {
    /// What `confirm(message)` returns.
    pub fn confirm(&mut self, message: &str) -> bool {
        let accept = self.accept;
        self.note(
            Dialog::Confirm,
            message,
            if accept { "ok" } else { "cancel" },
        );
        accept
    }

    /// What `prompt(message, default)` returns: the agent's text, else the page's default,
    /// else empty, when accepting; nothing (`null`) when dismissing.
    pub fn prompt(&mut self, message: &str, default: Option<String>) -> Option<String> {
        let answer = self
            .accept
            .then(|| self.prompt_text.clone().or(default).unwrap_or_default());
        let said = answer
            .as_ref()
            .map_or_else(|| "cancel".to_owned(), |a| format!("{a:?}"));
        self.note(Dialog::Prompt, message, &said);
        answer
    }

    /// `alert(message)`: acknowledged.
    pub fn alert(&mut self, message: &str) {
        self.note(Dialog::Alert, message, "ok");
    }

    /// A dialog `early.js` answered while the page loaded, by the default policy.
    pub fn answered_early(&mut self, kind: Dialog, message: &str) {
        let answer = if kind == Dialog::Alert {
            "ok"
        } else {
            "cancel"
        };
        self.note(kind, message, answer);
    }

    fn note(&mut self, dialog: Dialog, message: &str, answer: &str) {
        let kind = dialog.name();
        let message = crate::a11y::clean(message, MAX_MESSAGE);
        self.seen.push(format!("{kind}({message:?}) → {answer}"));
        if self.seen.len() > MAX_SEEN {
            self.seen.remove(0);
        }
        let how = if dialog == Dialog::Alert {
            String::new()
        } else {
            let other = !self.accept;
            format!(
                "; to answer otherwise, call firefox_handle_dialog {{accept: {other}}} (and promptText for a prompt), then act again"
            )
        };
        if self.untold.len() < MAX_UNTOLD {
            self.untold.push(format!(
                "the page showed {kind}({message:?}), answered {answer} by the dialog policy{how}"
            ));
        }
    }

    /// The dialogs the agent has not heard of yet, to add to the current answer.
    pub fn untold(&mut self) -> Vec<String> {
        std::mem::take(&mut self.untold)
    }

    /// `firefox_handle_dialog`: the new policy, and the dialogs seen since the last report.
    pub fn set(&mut self, accept: bool, prompt_text: Option<String>) -> DialogReport {
        let policy = match (accept, &prompt_text) {
            (true, text) => format!(
                "accept (prompt answers {:?})",
                text.clone().unwrap_or_default()
            ),
            (false, _) => "dismiss".to_owned(),
        };
        self.accept = accept;
        self.prompt_text = prompt_text;
        DialogReport {
            policy,
            seen: std::mem::take(&mut self.seen),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_default_confirm_and_prompt_are_dismissed() {
        let mut p = DialogPolicy::default();
        p.alert("hi");
        assert!(!p.confirm("sure?"));
        assert_eq!(p.prompt("name?", Some("x".into())), None);
        let told = p.untold();
        assert_eq!(told.len(), 3);
        assert_eq!(
            told[0],
            "the page showed alert(\"hi\"), answered ok by the dialog policy"
        );
        assert!(told[1].contains("answered cancel"), "{}", told[1]);
        assert!(told[1].contains("firefox_handle_dialog {accept: true}"));
        assert!(p.untold().is_empty(), "told once");
    }

    #[test]
    fn accepting_answers_the_agents_text_else_the_pages_default() {
        let mut p = DialogPolicy::default();
        let report = p.set(true, None);
        assert_eq!(report.policy, "accept (prompt answers \"\")");
        assert!(p.confirm("sure?"));
        assert_eq!(
            p.prompt("name?", Some("dflt".into())).as_deref(),
            Some("dflt")
        );
        assert_eq!(p.prompt("name?", None).as_deref(), Some(""));
        p.set(true, Some("Ada".into()));
        assert_eq!(
            p.prompt("name?", Some("dflt".into())).as_deref(),
            Some("Ada")
        );
        let told = p.untold();
        assert!(told.last().unwrap().contains("answered \"Ada\""));
        assert!(told[0].contains("firefox_handle_dialog {accept: false}"));
    }

    #[test]
    fn the_report_keeps_the_last_twenty_and_an_answer_tells_ten() {
        let mut p = DialogPolicy::default();
        for i in 0..25 {
            p.alert(&format!("m{i}"));
        }
        assert_eq!(p.untold().len(), MAX_UNTOLD);
        let report = p.set(false, None);
        assert_eq!(report.policy, "dismiss");
        assert_eq!(report.seen.len(), MAX_SEEN);
        assert_eq!(report.seen[0], "alert(\"m5\") → ok");
        assert!(p.set(false, None).seen.is_empty(), "reported once");
    }

    #[test]
    fn dialogs_answered_while_the_page_loaded_are_told() {
        let mut p = DialogPolicy::default();
        assert_eq!(Dialog::named("open"), None);
        p.answered_early(Dialog::named("confirm").unwrap(), "leave?");
        p.answered_early(Dialog::named("alert").unwrap(), "hi");
        let told = p.untold();
        assert!(told[0].starts_with("the page showed confirm(\"leave?\"), answered cancel"));
        assert!(told[1].contains("answered ok"));
    }

    #[test]
    fn a_long_message_is_cut() {
        let mut p = DialogPolicy::default();
        p.alert(&"a".repeat(1_000));
        let told = p.untold();
        assert!(told[0].chars().count() < 300, "{}", told[0]);
    }
}
