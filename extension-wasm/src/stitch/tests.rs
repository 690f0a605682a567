use std::cell::RefCell;
use std::collections::HashMap;

use proptest::prelude::*;

use claudezilla_protocol::reply::{Audit, Finding, Flagged, Found, Impact, Searched};

use super::*;
use crate::at_once::run as ready;

/// Frames by id, answering as an honest content script would: within the limit asked.
#[derive(Debug, Default)]
struct Tab {
    parts: HashMap<u64, SnapshotPart>,
    pages: HashMap<u64, PageContent>,
    found: HashMap<u64, Found>,
    audits: HashMap<u64, Audit>,
    /// Frames kept from loading, and why.
    refused: HashMap<u64, String>,
    /// Each read: the frame, the limit asked and what was answered.
    asked: RefCell<Vec<(u64, usize, usize)>>,
}

fn part(text: &str, refs: u32, frames: Vec<FramePlace>) -> SnapshotPart {
    SnapshotPart {
        text: text.into(),
        refs,
        cut: None,
        frames,
    }
}

fn place(frame: u64, offset: usize, indent: usize) -> FramePlace {
    FramePlace {
        frame,
        offset,
        indent,
    }
}

fn page(url: &str, text: &str, frames: Vec<u64>) -> PageContent {
    PageContent {
        url: url.into(),
        title: String::new(),
        text: text.into(),
        total_length: text.chars().count() as u32,
        truncated: false,
        frames,
    }
}

impl FrameReader for Tab {
    async fn snapshot_part(&self, frame: u64, limit: usize) -> Result<SnapshotPart, String> {
        let mut part = self.parts.get(&frame).cloned().ok_or("frame gone")?;
        if part.text.len() > limit {
            part.text.truncate(floor_boundary(&part.text, limit));
            part.cut = Some("cut".into());
        }
        self.asked
            .borrow_mut()
            .push((frame, limit, part.text.len()));
        Ok(part)
    }

    async fn found(&self, frame: u64, limit: usize) -> Result<Found, String> {
        let mut found = self.found.get(&frame).cloned().ok_or("frame gone")?;
        found.matches.truncate(limit);
        self.asked
            .borrow_mut()
            .push((frame, limit, found.matches.len()));
        Ok(found)
    }

    async fn audited(&self, frame: u64, per_rule: usize) -> Result<Audit, String> {
        let mut audit = self.audits.get(&frame).cloned().ok_or("frame gone")?;
        for finding in &mut audit.violations {
            finding.elements.truncate(per_rule);
        }
        self.asked.borrow_mut().push((frame, per_rule, 0));
        Ok(audit)
    }

    async fn content(&self, frame: u64, max_length: usize) -> Result<PageContent, String> {
        let mut page = self.pages.get(&frame).cloned().ok_or("frame gone")?;
        let (kept, _, cut) = crate::text::truncate_chars(&page.text, max_length);
        page.text = kept.to_owned();
        page.truncated |= cut;
        self.asked
            .borrow_mut()
            .push((frame, max_length, page.text.chars().count()));
        Ok(page)
    }

    fn refused(&self, frame: u64) -> Option<String> {
        self.refused.get(&frame).cloned()
    }
}

#[test]
fn frames_go_where_their_iframes_are_indented_in_page_order() {
    let top = part(
        "- main\n- footer\n",
        3,
        vec![place(7, 7, 2), place(8, 16, 0)],
    );
    let tab = Tab {
        parts: HashMap::from([
            (7, part("- frame one\n", 2, vec![])),
            (8, part("- frame two\n", 1, vec![])),
        ]),
        ..Tab::default()
    };
    let s = ready(snapshot(&tab, top, 10_000));
    assert_eq!(s.text, "- main\n  - frame one\n- footer\n- frame two\n");
    assert_eq!(s.refs, 6);
    assert_eq!(s.cut, None);
    let asked: Vec<u64> = tab.asked.borrow().iter().map(|a| a.0).collect();
    assert_eq!(asked, [7, 8], "page order");
}

#[test]
fn a_frame_past_the_limit_is_named_and_the_cut_said() {
    let top = part(&"x".repeat(900), 1, vec![place(7, 0, 0)]);
    let tab = Tab {
        parts: HashMap::from([(7, part("- never read\n", 1, vec![]))]),
        ..Tab::default()
    };
    let s = ready(snapshot(&tab, top, 1_000));
    assert!(
        s.text
            .starts_with("(frame not read: the snapshot's size limit is reached)\n")
    );
    assert_eq!(
        s.cut.as_deref(),
        Some("the size limit was reached before this frame")
    );
    assert!(tab.asked.borrow().is_empty());
}

#[test]
fn the_second_frame_gets_what_the_first_left() {
    let top = part("top\n", 0, vec![place(1, 4, 0), place(2, 4, 0)]);
    let tab = Tab {
        parts: HashMap::from([
            (1, part(&"a".repeat(500), 0, vec![])),
            (2, part(&"b".repeat(500), 0, vec![])),
        ]),
        ..Tab::default()
    };
    ready(snapshot(&tab, top, 1_004));
    let asked = tab.asked.borrow();
    assert_eq!(asked[0].1, 1_000);
    // 500 read and a newline added after it.
    assert_eq!(asked[1].1, 499);
}

#[test]
fn a_frame_holding_itself_stops_at_the_nesting_limit() {
    let top = part("top\n", 0, vec![place(1, 4, 1)]);
    let tab = Tab {
        parts: HashMap::from([(1, part("- again\n", 1, vec![place(1, 8, 1)]))]),
        ..Tab::default()
    };
    let s = ready(snapshot(&tab, top, 100_000));
    assert_eq!(tab.asked.borrow().len(), MAX_NESTING as usize);
    assert!(s.text.contains("(frames nested too deep)"));
    assert_eq!(s.refs, MAX_NESTING);
}

#[test]
fn a_frame_that_cannot_be_read_says_why_in_its_place() {
    let top = part("top\n", 2, vec![place(9, 4, 2)]);
    let s = ready(snapshot(&Tab::default(), top, 10_000));
    assert_eq!(
        s.text,
        "top\n  (this frame could not be read: frame gone)\n"
    );
    assert_eq!(s.refs, 2);
}

#[test]
fn content_marks_frames_by_site_and_names_frames_within() {
    let top = page(
        "https://a.example/",
        &format!(
            "before {} middle {} after",
            frame_marker(0),
            frame_marker(1)
        ),
        vec![4, 5],
    );
    let tab = Tab {
        pages: HashMap::from([
            (
                4,
                page(
                    "https://a.example/x",
                    &format!("same {}", frame_marker(0)),
                    vec![9],
                ),
            ),
            (5, page("https://b.example/", "other", vec![])),
        ]),
        ..Tab::default()
    };
    let c = ready(content(&tab, top, 10_000));
    assert_eq!(
        c.text,
        "before [frame: https://a.example/x]\nsame [a frame inside this frame]\n[end of frame] \
         middle [frame from another origin: https://b.example/]\nother\n[end of frame] after"
    );
    assert!(c.frames.is_empty());
    assert!(!c.truncated);
}

#[test]
fn content_past_the_limit_names_the_frame_and_says_truncated() {
    let top = page(
        "https://a.example/",
        &format!("{}{}", "x".repeat(950), frame_marker(0)),
        vec![4],
    );
    let tab = Tab {
        pages: HashMap::from([(4, page("https://a.example/f", "never", vec![]))]),
        ..Tab::default()
    };
    let c = ready(content(&tab, top, 1_000));
    assert!(c.truncated);
    assert!(tab.asked.borrow().is_empty());
    assert!(c.text.chars().count() <= 1_000);
}

fn matches(frame: u32, n: u32, frames: Vec<u64>) -> Found {
    Found {
        matches: (0..n)
            .map(|i| claudezilla_protocol::reply::FoundMatch {
                element_ref: format!("f{frame}e{}", i + 1).parse().unwrap(),
                role: "text".into(),
                name: String::new(),
                context: format!("«m{i}»"),
            })
            .collect(),
        total: n,
        frames,
        searched: Searched {
            chars: 100,
            frames: 1,
            ms: 10,
            stopped: None,
        },
    }
}

#[test]
fn matches_come_from_every_frame_listed_to_the_limit_and_all_counted() {
    let top = matches(0, 3, vec![1, 2]);
    let tab = Tab {
        found: HashMap::from([
            (1, matches(1, 4, vec![3])),
            (2, matches(2, 5, vec![])),
            (3, matches(3, 6, vec![])),
        ]),
        ..Tab::default()
    };
    let f = ready(find(&tab, top, 8));
    assert_eq!(f.total, 3 + 4 + 5 + 6);
    let refs: Vec<String> = f
        .matches
        .iter()
        .map(|m| m.element_ref.to_string())
        .collect();
    assert_eq!(
        refs,
        ["e1", "e2", "e3", "f1e1", "f1e2", "f1e3", "f1e4", "f2e1"]
    );
    let asked: Vec<(u64, usize)> = tab.asked.borrow().iter().map(|a| (a.0, a.1)).collect();
    assert_eq!(
        asked,
        [(1, 5), (2, 1), (3, 0)],
        "frames in page order, each the rest"
    );
    assert!(f.frames.is_empty());
}

#[test]
fn a_frame_holding_itself_is_searched_a_bounded_number_of_times() {
    // Ten places for itself in every frame: the nesting limit alone would allow 11,111 reads.
    let tab = Tab {
        found: HashMap::from([(1, matches(1, 1, vec![1; 10]))]),
        ..Tab::default()
    };
    let f = ready(find(&tab, matches(0, 0, vec![1]), 10));
    assert_eq!(tab.asked.borrow().len(), MAX_FIND_FRAMES);
    assert_eq!(f.total as usize, MAX_FIND_FRAMES);
    // What was searched says so, and what was not.
    assert_eq!(f.searched.frames as usize, 1 + MAX_FIND_FRAMES);
    assert_eq!(f.searched.chars as usize, 100 * (1 + MAX_FIND_FRAMES));
    let stopped = f.searched.stopped.unwrap();
    assert!(
        stopped.ends_with(" frame(s) not searched: only the first 100 frames are searched"),
        "{stopped}"
    );
}

#[test]
fn frames_share_the_search_time_and_say_where_they_stopped() {
    let slow = |frames: Vec<u64>| {
        let mut f = matches(1, 1, frames);
        f.searched.ms = 1_500;
        f.searched.stopped = Some("a frame's text is too long".into());
        f
    };
    let tab = Tab {
        found: HashMap::from([(1, slow(vec![3])), (2, slow(vec![])), (3, slow(vec![]))]),
        ..Tab::default()
    };
    let f = ready(find(&tab, matches(0, 2, vec![1, 2]), 20));
    let asked: Vec<u64> = tab.asked.borrow().iter().map(|a| a.0).collect();
    assert_eq!(asked, [1, 2], "the time was used up before the third frame");
    assert_eq!((f.total, f.searched.frames, f.searched.ms), (4, 3, 3_010));
    assert_eq!(
        f.searched.stopped.as_deref(),
        Some(
            "a frame's text is too long; 1 frame(s) not searched: \
             the search's time (2000 ms for all frames) was used up"
        ),
        "each reason once"
    );
}

/// A frame's audit: each rule with `n` flagged elements of this frame (refs `f{frame}e1`…).
fn audited(frame: u64, rules: &[(&str, Option<Impact>, u32)], frames: Vec<u64>) -> Audit {
    let prefix = match frame {
        0 => String::new(),
        f => format!("f{f}"),
    };
    let finding = |&(rule, impact, n): &(&str, Option<Impact>, u32)| Finding {
        rule: rule.into(),
        impact,
        tags: vec!["wcag2a".into()],
        help: format!("help for {rule}"),
        help_url: String::new(),
        elements: (1..=n)
            .map(|i| Flagged {
                element_ref: format!("{prefix}e{i}").parse().unwrap(),
                html: String::new(),
                fix: String::new(),
            })
            .collect(),
        total: n,
    };
    Audit {
        url: format!("http://frame{frame}/"),
        engine: "4.14.1".into(),
        violations: rules.iter().map(finding).collect(),
        review: Vec::new(),
        frames,
        frames_audited: 1,
        not_audited: Vec::new(),
        ms: 10,
    }
}

#[test]
fn an_audit_merges_each_rule_across_frames_most_harmful_first() {
    use Impact::*;
    let top = audited(
        0,
        &[
            ("region", Some(Moderate), 1),
            ("image-alt", Some(Critical), 2),
        ],
        vec![1, 2],
    );
    let tab = Tab {
        audits: HashMap::from([
            (1, audited(1, &[("image-alt", Some(Critical), 3)], vec![])),
            (
                2,
                audited(
                    2,
                    &[("color-contrast", Some(Serious), 1), ("x", None, 9)],
                    vec![],
                ),
            ),
        ]),
        ..Tab::default()
    };
    let a = ready(audit(&tab, top, 4));
    let rules: Vec<(&str, u32)> = a
        .violations
        .iter()
        .map(|f| (f.rule.as_str(), f.total))
        .collect();
    assert_eq!(
        rules,
        [
            ("image-alt", 5),
            ("color-contrast", 1),
            ("region", 1),
            ("x", 9)
        ],
        "by impact, unrated last"
    );
    let refs: Vec<String> = a.violations[0]
        .elements
        .iter()
        .map(|e| e.element_ref.to_string())
        .collect();
    assert_eq!(
        refs,
        ["e1", "e2", "f1e1", "f1e2"],
        "the page's first, to the limit"
    );
    assert_eq!((a.frames_audited, a.ms), (3, 30));
    assert!(a.frames.is_empty() && a.not_audited.is_empty());
}

#[test]
fn an_audit_names_the_frames_it_could_not_audit_and_is_bounded() {
    // Every frame holds itself ten times over, and one is gone.
    let tab = Tab {
        audits: HashMap::from([(
            1,
            audited(1, &[("image-alt", Some(Impact::Critical), 1)], vec![1; 10]),
        )]),
        ..Tab::default()
    };
    let a = ready(audit(&tab, audited(0, &[], vec![1, 7]), 5));
    // One of the hundred asks went to the frame that is gone.
    assert_eq!(tab.asked.borrow().len(), MAX_FIND_FRAMES - 1);
    assert_eq!(a.violations[0].total as usize, MAX_FIND_FRAMES - 1);
    assert_eq!(a.not_audited[0], "1 frame(s): frame gone");
    assert!(
        a.not_audited[1].ends_with("frame(s): only the first 100 frames are audited"),
        "{:?}",
        a.not_audited
    );
}

/// A tab of up to six frames, any of which may hold any other (itself included), with text
/// that is not all ASCII and offsets that need not fall on a character or inside the text.
fn any_tab() -> impl Strategy<Value = (SnapshotPart, Tab)> {
    let text = "[a-zé€\n]{0,300}";
    let places = prop::collection::vec((0u64..8, 0usize..400, 0usize..6), 0..4);
    let parts = prop::collection::vec((text, 0u32..50, places.clone()), 6);
    (text, places, parts).prop_map(|(top, top_places, parts)| {
        let to_part =
            |(text, refs, places): (String, u32, Vec<(u64, usize, usize)>)| SnapshotPart {
                text,
                refs,
                cut: None,
                frames: places.into_iter().map(|(f, o, i)| place(f, o, i)).collect(),
            };
        let tab = Tab {
            parts: (0..6).zip(parts.into_iter().map(to_part)).collect(),
            ..Tab::default()
        };
        (to_part((top, 1, top_places)), tab)
    })
}

proptest! {
    /// Frames' own text never overspends the size limit, every ref read is counted, a frame
    /// left out says so in the cut, and nothing a page sends makes it panic or loop.
    #[test]
    fn snapshot_frames_share_one_limit(
        (top, tab) in any_tab(),
        max in 0usize..2_000,
    ) {
        let own = top.text.len();
        let top_refs = top.refs;
        let s = ready(snapshot(&tab, top, max));
        let asked = tab.asked.borrow();
        let read: usize = asked.iter().map(|a| a.2).sum();
        prop_assert!(read <= max.saturating_sub(own), "read {read} of {max} after {own}");
        prop_assert!(asked.iter().all(|a| a.1 >= MIN_FRAME_CHARS));
        let refs: u32 = asked.iter().map(|(f, _, _)| tab.parts[f].refs).sum();
        prop_assert_eq!(s.refs, top_refs + refs);
        if s.text.contains("(frame not read") {
            prop_assert!(s.cut.is_some());
        }
        // Four places per frame, five deep at most.
        prop_assert!(asked.len() <= 4 + 16 + 64 + 256 + 1024);
    }

    /// Page text stays within its limit whatever the frames hold, and every frame that has a
    /// place is read or named.
    #[test]
    fn content_stays_within_its_limit(
        texts in prop::collection::vec("[a-zé\n]{0,400}", 4),
        max in 0usize..1_500,
    ) {
        let marked = format!("{}{}{}", texts[0], frame_marker(0), frame_marker(1));
        let top = page("https://a.example/", &marked, vec![1, 2]);
        let tab = Tab {
            pages: HashMap::from([
                (1, page("https://a.example/1", &texts[1], vec![])),
                (2, page("https://c.example/2", &format!("{}{}", texts[2], frame_marker(0)), vec![3])),
            ]),
            ..Tab::default()
        };
        let c = ready(content(&tab, top, max));
        prop_assert!(c.text.chars().count() <= max);
        prop_assert!(!c.text.contains(&frame_marker(0)) && !c.text.contains(&frame_marker(1)));
        prop_assert!(c.total_length >= texts[0].chars().count() as u32);
    }
}

/// Frames by id, each with its parent; an iframe is picked as "iframe of <frame> in <holder>".
struct Nest {
    parents: HashMap<u64, u64>,
}

impl FrameTree for Nest {
    type Pick = String;

    async fn parent(&self, frame: u64) -> Result<u64, ErrorBody> {
        self.parents
            .get(&frame)
            .copied()
            .ok_or_else(|| ErrorBody::new(ErrorCode::ElementNotFound, "the frame is gone"))
    }

    async fn iframe(&self, holder: u64, frame: u64) -> Result<String, ErrorBody> {
        Ok(format!("iframe of {frame} in {holder}"))
    }
}

#[test]
fn a_locator_names_the_iframes_around_an_element_outermost_first() {
    let nest = Nest {
        parents: HashMap::from([(5, 3), (3, 0)]),
    };
    assert_eq!(
        ready(frames_around(&nest, 5)).unwrap(),
        ["iframe of 3 in 0", "iframe of 5 in 3"]
    );
    assert!(ready(frames_around(&nest, 0)).unwrap().is_empty());
    // A frame gone while climbing is said as it was found gone.
    let error = ready(frames_around(&nest, 9)).unwrap_err();
    assert_eq!(error.code, ErrorCode::ElementNotFound);
}

#[test]
fn a_locator_climbs_no_deeper_than_its_limit() {
    let depth = MAX_FRAME_DEPTH as u64;
    let deepest = Nest {
        parents: (1..=depth).map(|f| (f, f - 1)).collect(),
    };
    assert_eq!(
        ready(frames_around(&deepest, depth)).unwrap().len(),
        MAX_FRAME_DEPTH
    );
    let trap = Nest {
        parents: (1..=depth + 1).map(|f| (f, f - 1)).collect(),
    };
    let error = ready(frames_around(&trap, depth + 1)).unwrap_err();
    assert!(
        error.message.contains("more than 10 nested frames"),
        "{}",
        error.message
    );
}

#[test]
fn a_frame_kept_from_loading_is_never_asked_and_every_read_says_why() {
    let why = "a frame of other.example was not loaded: outside the user's allowed domains";
    // Whatever document is left in the frame is not the page named: it would answer.
    let tab = Tab {
        parts: HashMap::from([(9, part("- other-frame text\n", 1, vec![]))]),
        pages: HashMap::from([(
            9,
            page("https://other.example/", "other-frame text", vec![]),
        )]),
        found: HashMap::from([(9, matches(1, 1, vec![]))]),
        audits: HashMap::from([(9, audited(9, &[("label", None, 1)], vec![]))]),
        refused: HashMap::from([(9, why.to_owned())]),
        ..Tab::default()
    };
    let s = ready(snapshot(
        &tab,
        part("top\n", 0, vec![place(9, 4, 0)]),
        10_000,
    ));
    assert_eq!(
        s.text,
        format!("top\n(this frame could not be read: {why})\n")
    );
    let top = page(
        "https://a.example/",
        &format!("top {}", frame_marker(0)),
        vec![9],
    );
    let c = ready(content(&tab, top, 10_000));
    assert_eq!(
        c.text,
        format!("top [a frame that could not be read: {why}]")
    );
    let f = ready(find(&tab, matches(0, 0, vec![9]), 10));
    assert_eq!(f.total, 0);
    let a = ready(audit(&tab, audited(0, &[], vec![9]), 10));
    assert_eq!(a.frames_audited, 1, "the top frame alone");
    assert!(
        a.not_audited.iter().any(|n| n.contains(why)),
        "{:?}",
        a.not_audited
    );
    assert!(
        tab.asked.borrow().is_empty(),
        "asked {:?}",
        tab.asked.borrow()
    );
}
