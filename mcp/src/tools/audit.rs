//! The accessibility audit: axe-core's findings on the agent's tab, by impact, each element
//! with the ref an action tool takes.

use claudezilla_protocol::args::AuditArgs;
use claudezilla_protocol::asks;
use claudezilla_protocol::reply::{Audit, Finding};

use super::text;

browser_tools! { audit_router;
    audit "firefox_audit" (AuditArgs) => whole asks::Audit, "Accessibility audit of your tab (axe-core, all frames): broken rules by impact, with WCAG tags, help and the refs of the elements to fix.";
        a => text(render_audit(&a));
}

fn render_audit(a: &Audit) -> String {
    let mut out = format!(
        "Accessibility audit of {} (axe-core {}, {} frame(s), {} ms)\n",
        a.url, a.engine, a.frames_audited, a.ms
    );
    if a.violations.is_empty() {
        out.push_str("No rule broken among those run.\n");
    } else {
        let elements: u32 = a.violations.iter().map(|f| f.total).sum();
        out.push_str(&format!(
            "{} rule(s) broken by {elements} element(s):\n",
            a.violations.len()
        ));
    }
    for f in &a.violations {
        render_finding(&mut out, f);
    }
    if !a.review.is_empty() {
        out.push_str("\nFor a person to check (axe could not decide):\n");
        for f in &a.review {
            render_finding(&mut out, f);
        }
    }
    for why in &a.not_audited {
        out.push_str(&format!("Not audited: {why}\n"));
    }
    out
}

fn render_finding(out: &mut String, f: &Finding) {
    let impact = f.impact.map_or("unrated", |i| i.word());
    out.push_str(&format!(
        "\n[{impact}] {}: {} ({}) — {} element(s)\n",
        f.rule,
        f.help,
        f.tags.join(", "),
        f.total
    ));
    // The advice once, where the elements share it (they mostly do).
    let mut said = "";
    for e in &f.elements {
        out.push_str(&format!("  {} {}", e.element_ref, e.html));
        if !e.fix.is_empty() && e.fix != said {
            out.push_str(&format!(" — {}", e.fix));
            said = &e.fix;
        }
        out.push('\n');
    }
    let rest = (f.total as usize).saturating_sub(f.elements.len());
    if rest > 0 {
        out.push_str(&format!("  … {rest} more (raise perRule to list them)\n"));
    }
    if !f.help_url.is_empty() {
        out.push_str(&format!("  More: {}\n", f.help_url));
    }
}
