//! The Firefox extension's logic, compiled to wasm and loaded by thin JS shims.
//!
//! Pure policy lives in plain modules that build and test natively (`cargo test`):
//! * [`pool`]: the shared tab pool and who owns which tab — the only place ownership is decided —
//!   with slot requests, reservations, slots held for tabs being made, and idle agents.
//! * [`route`]: where each command runs: the page operation, tab, frame and wait, or the
//!   background's work on a tab or for the agent.
//! * [`approvals`]: the user's consent before an agent drives one of the user's tabs, and what
//!   an agent sees of each tab and of the whole browser;
//!   [`attaching`]: the attach's order, from the tab found to the tab taken.
//! * [`capture_lock`]: the screenshot mutex, granted in arrival order.
//! * [`capture_plan`]: what a screenshot captures, capped whatever the page measures.
//! * [`page_marks`]: which of a frame's elements an annotated screenshot marks.
//! * [`child_batches`]: a node's children read a batch at a time, as the snapshot walks.
//! * [`page_content`]: which element a read of a frame's content reads, and how each format
//!   reads it; what one element's details show.
//! * [`page_names`]: what names read of a page (labels found once a tree, lists numbered once),
//!   a field's value as answers show it, and an element's short description.
//! * [`page_state`]: a page's outline as its page state lists it, and its last uncaught
//!   errors.
//! * [`pixels`], [`jpeg`]: decoding, stitching, shrinking and encoding pictures.
//! * [`load`]: when a navigation counts as finished, and whether it reached what was asked;
//!   [`arrival`]: what the navigation's answer says of it; [`trip`]: a navigation, a new
//!   tab and a tab a page opened, carried through.
//! * [`agents_window`]: the agents' window: a tab opened in it (or in a new one), the tab
//!   group, a tab or the window closed (and when that is refused), released tabs closed.
//! * [`native_link`]: the host link's welcome, reconnect backoff and pings; an answer's last
//!   size bound.
//! * [`network`]: requests in flight, for "the network is quiet".
//! * [`text`], [`a11y`], [`markdown`], [`suggest`]: answers' text, roles and names (their
//!   order of sources, what a field's value shows), Markdown, "did you mean".
//! * [`hit_test`]: where the pointer lands, and what a press of it focuses;
//!   [`pointer_press`]: a press, a click and a hover carried out, and their words;
//!   [`caret`]: where the caret goes, at the end of an editor's text or where a press is.
//! * [`input_plan`]: the events of a click and of a key press, in order, and what the browser
//!   does for a key a page did not handle; [`key_press`]: a key press carried out;
//!   [`drag_plan`]: a drag's drop point, path and end;
//!   [`wheel`]: a scroll and a wheel turn carried out, and the box a turn the page left alone
//!   moves; [`field_kind`]: which fields take typed text; [`typed`], [`typing`]: typing
//!   decided, and carried out;
//!   [`edit_commit`]: when an edit is committed with `change`;
//!   [`upload_plan`]: an upload carried out, and where the file goes.
//! * [`request_log`]: each tab's network log, fed by [`request_events`]; [`redact`]: credentials
//!   out of what is shown.
//! * [`request_routes`]: each agent's routes, what of them needs the evaluate switch, whose
//!   routes a request meets and what the background does with it, and which tabs the
//!   blocking listeners hear; [`request_intercept`]: what the listeners do with one request
//!   and its response's headers.
//! * [`early_mark`]: how the early script tells an agent tab's documents apart, and which of
//!   its loads count; [`early_kept`]: what it kept while the page loaded, taken over.
//! * [`allowlist`], [`glob`]: the user's and the agents' domain lists; URL globs;
//!   [`agent_config`]: each agent's own settings.
//! * [`saved_state`]: which cookies of a saved state may be loaded; [`page_storage`]: what
//!   one `firefox_storage` call does to a page's storage.
//! * [`site_data`]: what the cookie and storage tools do with an agent's sites.
//! * [`focus_loop`]: focus loops and the Stop hook's verdict.
//! * [`form_fill`]: a form's fields set in order, and what an error part-way says.
//! * [`hop_trace`]: one traced request's hop times, kept apart from the requests interleaved
//!   with it.
//! * [`downloads`]: which agent a download belongs to.
//! * [`jars`]: which cookie jar (container) an agent's new tab opens in.
//! * [`secret_fields`]: which fields of which frames a secret may be typed into.
//! * [`hidden`]: the typed secrets this instance hides in every text it shows, and what a
//!   frame of an agent's tab is told to hide.
//! * [`activity`]: what agents did, for the user and for each agent (no secrets).
//! * [`popup_status`]: what the toolbar popup is told.
//! * [`consent_words`]: which banner buttons accept and which reject; [`consent_banner`]:
//!   which button dismisses a consent banner.
//! * [`console_ring`]: a page's console as it is kept and read; [`dialog_policy`]: how a
//!   page's dialogs are answered and told.
//! * [`click_refusals`]: what Firefox refused the page during a click, as the answer says it.
//! * [`page_value`]: a page's JavaScript values as console lines and evaluated results.
//! * [`refusal`]: what a rejected browser call means, read once from Firefox's words;
//!   [`retry_plan`]: when a message to a frame or a navigation is tried again, and how long
//!   a try lasts.
//! * [`perf`]: what a page's performance entries add up to (INP, CLS, resources), and the wait
//!   for the largest paint.
//! * [`sorting`]: a stable sort the content module's lists share (one copy of the standard
//!   sort in its wasm, where each list's own was one more).
//! * [`page_text`]: a page's text with its shadow roots read in place and its frames marked.
//! * [`style_rules`]: which of a page's style rules are mirrored for `:hover` and `:focus`,
//!   and which give `::before` / `::after` words.
//! * [`search`]: where a text or pattern shows in a frame's text, and the line around it.
//! * [`axe_run`]: one frame's audit by axe-core, and what of its results an answer keeps.
//! * [`lookup`]: waiting for an element or text in a frame, and what its errors say.
//! * [`frame_alias`]: the short names refs give a tab's frames.
//! * [`snapshot`]: what a frame's snapshot lists, and where it stops.
//! * [`stitch`]: one snapshot or page text from every frame of a tab, under one size limit.
//! * [`tab_frames`]: the reads that span a tab's frames, each frame asked within its share
//!   (an audit's given axe-core first), and a locator's frames named up from the element's.
//! * [`background_state`]: the background's state, and which waiters a tab's event ends, what
//!   a tab that went or an agent that left takes with it, what the allowlists and the
//!   evaluate switch refuse, how much is kept of it, what goes to a frame (its id, the
//!   console's restart, the agent's typed secrets to hide; a tab given back, its hooks out)
//!   and a granted slot's reservation.
//! * [`tab_listeners`]: which tabs' blocking listeners to add and take out as the pool changes.
//! * [`browser_tab`]: a tab and a window as the browser gives them, a page's title cut.
//! * [`tab_mark`]: the owner's mark an agent tab carries across a restart, and the pool a
//!   restart finds by the marks.
//! * [`window_plan`]: sizing an agent's viewport, and what the answer says of it.
//! * [`composed`]: walks over the composed tree (shadow roots, slots) as the page shows it.
//! * [`backstop`]: a content request answered, and its hooks in the page undone, when the
//!   page's document throws out of it.
//! * [`showing`]: how an element shows to the readers of a page's words (rendered, invisible,
//!   box-less, not rendered).
//!
//! The browser glue is wasm-only:
//! * `web`: bindings to `browser.*` APIs and timers.
//! * `background`: the native port, command dispatch and tab management.
//! * `content`: DOM operations, one coarse call per command.

pub mod a11y;
pub mod activity;
pub mod agent_config;
pub mod agents_window;
pub mod allowlist;
pub mod approvals;
pub mod arrival;
#[cfg(test)]
mod at_once;
pub mod attaching;
pub mod axe_run;
pub mod background_state;
pub mod backstop;
pub mod browser_tab;
pub mod capture_lock;
pub mod capture_plan;
pub mod caret;
pub mod child_batches;
pub mod click_refusals;
pub mod composed;
pub mod consent_banner;
pub mod consent_words;
pub mod console_ring;
pub mod dialog_policy;
pub mod downloads;
pub mod drag_plan;
pub mod early_kept;
pub mod early_mark;
pub mod edit_commit;
pub mod exchange;
pub mod field_kind;
pub mod focus_loop;
pub mod form_fill;
pub mod frame_alias;
pub mod glob;
pub mod hidden;
pub mod hit_test;
pub mod hop_trace;
pub mod input_plan;
pub mod jars;
pub mod jpeg;
pub mod key_press;
pub mod load;
pub mod lookup;
pub mod markdown;
pub mod native_link;
pub mod network;
pub mod page_content;
pub mod page_marks;
pub mod page_names;
pub mod page_state;
pub mod page_storage;
pub mod page_text;
pub mod page_title;
pub mod page_value;
pub mod perf;
pub mod pixels;
pub mod pointer_press;
pub mod pool;
pub mod popup_status;
pub mod redact;
pub mod refusal;
pub mod request_events;
pub mod request_intercept;
pub mod request_log;
pub mod request_routes;
pub mod retry_plan;
pub mod route;
pub mod saved_state;
pub mod search;
pub mod secret_fields;
pub mod shot;
pub mod showing;
pub mod site_data;
pub mod snapshot;
pub mod sorting;
#[cfg(test)]
mod steps;
pub mod stitch;
pub mod style_rules;
pub mod suggest;
pub mod tab_frames;
pub mod tab_listeners;
pub mod tab_mark;
pub mod tab_wait;
pub mod text;
pub mod trip;
pub mod typed;
pub mod typing;
pub mod upload_plan;
pub mod wheel;
pub mod window_plan;

#[cfg(all(target_arch = "wasm32", feature = "background"))]
mod background;
#[cfg(all(target_arch = "wasm32", feature = "content"))]
mod content;
// Each module uses part of the bindings; the full build (and its lint) uses them all.
#[cfg(target_arch = "wasm32")]
#[cfg_attr(
    not(all(feature = "background", feature = "content")),
    allow(dead_code, unused_imports)
)]
mod web;
