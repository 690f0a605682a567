//! A small Markdown writer: the content script walks the page and reports blocks, inline text
//! and links; this turns them into compact, readable Markdown.

#[derive(Debug, Default)]
pub struct Markdown {
    out: String,
    /// Text of the block being written (flushed at the next block boundary).
    line: String,
    list_depth: usize,
}

impl Markdown {
    pub fn new() -> Self {
        Self::default()
    }

    fn flush(&mut self) {
        let indent = self.line.len() - self.line.trim_start().len();
        let text = self.line.split_whitespace().collect::<Vec<_>>().join(" ");
        let indent = self.line[..indent].to_owned();
        self.line.clear();
        if text.is_empty() {
            return;
        }
        self.out.push_str(&indent);
        self.out.push_str(&text);
        self.out.push('\n');
    }

    /// Ends the current paragraph and leaves a blank line.
    pub fn paragraph(&mut self) {
        self.flush();
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
    }

    pub fn text(&mut self, text: &str) {
        self.line.push_str(text);
    }

    pub fn heading(&mut self, level: usize, text: &str) {
        self.paragraph();
        self.out.push_str(&format!(
            "{} {}\n\n",
            "#".repeat(level.clamp(1, 6)),
            one_line(text)
        ));
    }

    pub fn link(&mut self, text: &str, href: &str) {
        let text = one_line(text);
        if href.is_empty() || href.starts_with("javascript:") {
            self.line.push_str(&text);
        } else {
            self.line.push_str(&format!(" [{text}]({href}) "));
        }
    }

    pub fn image(&mut self, alt: &str) {
        if !alt.trim().is_empty() {
            self.line.push_str(&format!(" ![{}] ", one_line(alt)));
        }
    }

    pub fn list_start(&mut self) {
        self.flush();
        self.list_depth += 1;
    }

    pub fn list_end(&mut self) {
        self.flush();
        self.list_depth = self.list_depth.saturating_sub(1);
        if self.list_depth == 0 {
            self.paragraph();
        }
    }

    /// Starts a list item; its text follows through `text`/`link`.
    pub fn item(&mut self, ordinal: Option<usize>) {
        self.flush();
        let indent = "  ".repeat(self.list_depth.saturating_sub(1));
        let marker = ordinal.map_or("-".to_owned(), |n| format!("{n}."));
        self.line.push_str(&format!("{indent}{marker} "));
    }

    /// A table row; the first row is followed by the header rule.
    pub fn row(&mut self, cells: &[String], first: bool) {
        self.flush();
        let cells: Vec<String> = cells
            .iter()
            .map(|c| one_line(c).replace('|', "\\|"))
            .collect();
        self.out.push_str(&format!("| {} |\n", cells.join(" | ")));
        if first {
            self.out
                .push_str(&format!("|{}\n", "---|".repeat(cells.len().max(1))));
        }
    }

    pub fn code_block(&mut self, code: &str) {
        self.paragraph();
        self.out
            .push_str(&format!("```\n{}\n```\n\n", code.trim_end()));
    }

    pub fn finish(mut self) -> String {
        self.flush();
        self.out.trim().to_owned()
    }
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_paragraphs_links_lists_tables() {
        let mut md = Markdown::new();
        md.heading(1, " Title ");
        md.text("Hello ");
        md.link("world", "https://x/");
        md.text(".");
        md.paragraph();
        md.list_start();
        md.item(None);
        md.text("one");
        md.item(None);
        md.text("two");
        md.list_start();
        md.item(Some(1));
        md.text("nested");
        md.list_end();
        md.list_end();
        md.row(&["a".into(), "b|c".into()], true);
        md.row(&["1".into(), "2".into()], false);
        assert_eq!(
            md.finish(),
            "# Title\n\nHello [world](https://x/) .\n\n- one\n- two\n  1. nested\n\n| a | b\\|c |\n|---|---|\n| 1 | 2 |"
        );
    }
}
