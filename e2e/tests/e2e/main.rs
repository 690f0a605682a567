//! End-to-end tests: real headless Firefox ESR, real extension, real host, real MCP servers.
//!
//! Tests that cannot disturb each other share one browser (each uses its own agents and tabs);
//! tests that fill the pool, restart the extension or stop Firefox get their own.
//! Run with `cargo xtask test`.

mod agents;
mod attacks;
mod beyond;
mod common;
mod consent;
mod devtools;
mod input;
mod lifecycle;
mod mcp;
mod page_set;
mod pages;
mod pipeline;
mod plugin;
mod powers;
mod shots;
mod widgets;

use common::{plain, with_shared};
use libtest_mimic::Arguments;

fn main() {
    let mut args = Arguments::from_args();
    // Two cores: a few Firefox tabs at a time keep the suite steady.
    args.test_threads.get_or_insert(3);
    let mut trials = vec![
        plain("mcp::lists_the_tools_with_timeouts", mcp::lists_the_tools),
        plain(
            "plugin::installs_and_connects_with_the_real_cli",
            plugin::installs_and_connects_with_the_real_cli,
        ),
        plain(
            "mcp::refuses_bad_arguments_clearly",
            mcp::refuses_bad_arguments,
        ),
        plain(
            "mcp::exits_promptly_when_stdin_closes",
            mcp::exits_promptly_on_stdin_close,
        ),
        with_shared(
            "pipeline::reads_clicks_types_screenshots_and_closes",
            pipeline::reads_clicks_types_screenshots_and_closes,
        ),
        with_shared(
            "pipeline::element_and_page_errors_are_clear",
            pipeline::element_errors_are_clear,
        ),
        with_shared(
            "pipeline::navigation_waits_for_the_page",
            pipeline::navigation_waits_for_the_page,
        ),
        with_shared(
            "pipeline::a_page_that_never_loads_reports_its_state",
            pipeline::a_page_that_never_loads_reports_its_state,
        ),
        with_shared(
            "pipeline::traced_requests_say_where_their_time_went",
            pipeline::traced_requests_say_where_their_time_went,
        ),
        with_shared(
            "pipeline::diagnose_reports_every_link",
            pipeline::diagnose_reports_every_link,
        ),
        with_shared(
            "isolation::other_agents_cannot_touch_my_tab",
            pipeline::other_agents_cannot_touch_my_tab,
        ),
        with_shared(
            "isolation::goodbye_releases_the_agents_tabs",
            pipeline::goodbye_releases_tabs,
        ),
        with_shared(
            "security::the_real_host_refuses_a_wrong_token",
            pipeline::the_real_host_refuses_a_wrong_token,
        ),
        plain(
            "lifecycle::fails_fast_without_firefox_then_reconnects",
            lifecycle::fails_fast_without_firefox_then_reconnects,
        ),
        plain(
            "lifecycle::a_crashed_firefox_takes_the_host_down",
            lifecycle::a_crashed_firefox_takes_the_host_down,
        ),
    ];
    trials.extend([
        with_shared(
            "pages::refs_from_a_snapshot_drive_every_action",
            pages::refs_from_a_snapshot_drive_every_action,
        ),
        with_shared(
            "pages::forms_fill_in_one_call_and_enter_submits",
            pages::forms_fill_in_one_call_and_enter_submits,
        ),
        with_shared(
            "pages::a_react_like_page_sees_typing",
            pages::a_react_like_page_sees_typing,
        ),
        with_shared(
            "pages::frames_and_shadow_roots_are_in_snapshots_and_reachable",
            pages::frames_and_shadow_roots_are_in_snapshots_and_reachable,
        ),
        with_shared(
            "pages::dialogs_never_block_and_follow_the_policy",
            pages::dialogs_never_block_and_follow_the_policy,
        ),
        with_shared(
            "pages::waiting_inspecting_and_page_state",
            pages::waiting_inspecting_and_page_state,
        ),
        with_shared(
            "pages::keys_scroll_hover_and_drag",
            pages::keys_scroll_hover_and_drag,
        ),
        with_shared(
            "pages::markdown_html_and_history",
            pages::markdown_html_and_history,
        ),
        with_shared(
            "pages::a_large_page_snapshot_addresses_every_control_compactly",
            pages::a_large_page_snapshot_addresses_every_control_compactly,
        ),
    ]);
    trials.extend([
        with_shared(
            "pipeline::file_pages_are_refused_with_a_way_out",
            pipeline::file_pages_are_refused_with_a_way_out,
        ),
        plain(
            "agents::a_full_pool_is_shared_by_request_and_grant",
            agents::a_full_pool_is_shared_by_request_and_grant,
        ),
        plain(
            "agents::first_tabs_opened_together_share_one_window",
            agents::first_tabs_opened_together_share_one_window,
        ),
        with_shared(
            "agents::a_killed_agent_frees_its_tabs",
            agents::a_killed_agent_frees_its_tabs,
        ),
        with_shared(
            "agents::concurrent_screenshots_each_show_their_own_page",
            agents::concurrent_screenshots_each_show_their_own_page,
        ),
        plain(
            "agents::the_capture_lock_survives_failures_and_busy_waiters",
            agents::the_capture_lock_survives_failures_and_busy_waiters,
        ),
        plain(
            "agents::a_restarted_extension_readopts_its_window",
            agents::a_restarted_extension_readopts_its_window,
        ),
        plain(
            "agents::silent_agents_lose_their_tabs_live_ones_keep_them",
            agents::silent_agents_lose_their_tabs_live_ones_keep_them,
        ),
    ]);
    trials.extend([
        with_shared("shots::presets_set_the_size", shots::presets_set_the_size),
        with_shared(
            "shots::a_late_image_is_waited_for",
            shots::a_late_image_is_waited_for,
        ),
        with_shared(
            "shots::full_page_and_element_shots",
            shots::full_page_and_element_shots,
        ),
        with_shared(
            "shots::noise_stays_under_the_budget",
            shots::noise_stays_under_the_budget,
        ),
        with_shared(
            "shots::badges_map_to_refs_that_work",
            shots::badges_map_to_refs_that_work,
        ),
        with_shared("shots::saving_to_disk", shots::saving_to_disk),
    ]);
    trials.extend([
        with_shared(
            "devtools::console_captures_the_page_world",
            devtools::console_captures_the_page_world,
        ),
        with_shared(
            "devtools::network_log_has_statuses_and_no_secrets",
            devtools::network_log_has_statuses_and_no_secrets,
        ),
        with_shared(
            "devtools::allowlist_holds_for_navigation_and_links",
            devtools::allowlist_holds_for_navigation_and_links,
        ),
        with_shared(
            "devtools::consent_banners_are_accepted_never_rejected",
            devtools::consent_banners_are_accepted_never_rejected,
        ),
        with_shared(
            "devtools::focus_loops_run_through_the_stop_hook",
            devtools::focus_loops_run_through_the_stop_hook,
        ),
        plain(
            "devtools::evaluate_viewport_and_private_mode",
            devtools::evaluate_viewport_and_private_mode,
        ),
    ]);
    trials.extend([
        plain(
            "consent::the_users_switches_turn_tools_on_and_off",
            consent::the_users_switches_turn_tools_on_and_off,
        ),
        plain(
            "consent::the_popup_shows_the_pool_and_what_agents_did",
            consent::the_popup_shows_the_pool_and_what_agents_did,
        ),
        plain(
            "consent::attaching_waits_for_the_users_answer",
            consent::attaching_waits_for_the_users_answer,
        ),
        plain(
            "consent::attached_tabs_are_given_back_open",
            consent::attached_tabs_are_given_back_open,
        ),
    ]);
    trials.extend([
        with_shared(
            "attacks::files_stay_inside_the_allowed_folders",
            attacks::files_stay_inside_the_allowed_folders,
        ),
        with_shared(
            "attacks::huge_answers_are_bounded",
            attacks::huge_answers_are_bounded,
        ),
        with_shared(
            "attacks::a_pathological_glob_does_not_stall_others",
            attacks::a_pathological_glob_does_not_stall_others,
        ),
        with_shared(
            "attacks::hostile_hellos_are_refused",
            attacks::hostile_hellos_are_refused,
        ),
        with_shared(
            "attacks::clients_refuse_a_runtime_folder_that_is_not_private",
            attacks::clients_refuse_a_runtime_folder_that_is_not_private,
        ),
        with_shared(
            "attacks::unreachable_addresses_are_load_failures",
            attacks::unreachable_addresses_are_load_failures,
        ),
        with_shared(
            "attacks::a_self_navigating_page_is_reported_truly",
            attacks::a_self_navigating_page_is_reported_truly,
        ),
        with_shared(
            "attacks::other_agents_tabs_show_only_their_origin",
            attacks::other_agents_tabs_show_only_their_origin,
        ),
        with_shared(
            "attacks::session_parameters_are_redacted_and_backslashes_do_not_pass",
            attacks::session_parameters_are_redacted_and_backslashes_do_not_pass,
        ),
        plain(
            "attacks::a_hung_page_does_not_hold_the_capture_lock",
            attacks::a_hung_page_does_not_hold_the_capture_lock,
        ),
        plain(
            "attacks::opened_tabs_belong_to_the_opener",
            attacks::opened_tabs_belong_to_the_opener,
        ),
    ]);
    trials.extend([
        with_shared(
            "beyond::clicks_and_wheels_at_a_point",
            beyond::clicks_and_wheels_at_a_point,
        ),
        with_shared(
            "beyond::cookies_and_storage_wait_for_the_users_switch",
            beyond::cookies_and_storage_wait_for_the_users_switch,
        ),
        with_shared(
            "beyond::routes_fulfill_abort_and_delay_only_their_agents_requests",
            beyond::routes_fulfill_abort_and_delay_only_their_agents_requests,
        ),
        with_shared(
            "beyond::bodies_are_captured_for_the_tabs_whose_agent_asked",
            beyond::bodies_are_captured_for_the_tabs_whose_agent_asked,
        ),
        with_shared(
            "beyond::downloads_land_in_the_project",
            beyond::downloads_land_in_the_project,
        ),
        with_shared(
            "beyond::an_own_container_keeps_cookies_apart",
            beyond::an_own_container_keeps_cookies_apart,
        ),
        plain(
            "beyond::cookies_and_storage_when_allowed",
            beyond::cookies_and_storage_when_allowed,
        ),
    ]);
    trials.extend([
        with_shared(
            "input::enter_carries_which_and_key_code",
            input::enter_carries_which_and_key_code,
        ),
        with_shared(
            "input::change_fires_when_the_edit_is_committed",
            input::change_fires_when_the_edit_is_committed,
        ),
        with_shared(
            "input::lengths_are_enforced_as_from_a_keyboard",
            input::lengths_are_enforced_as_from_a_keyboard,
        ),
        with_shared(
            "input::hover_double_click_and_buttons",
            input::hover_double_click_and_buttons,
        ),
        with_shared(
            "input::page_text_includes_shadow_roots_and_frames",
            input::page_text_includes_shadow_roots_and_frames,
        ),
        with_shared(
            "input::load_time_console_dialogs_and_unload",
            input::load_time_console_dialogs_and_unload,
        ),
    ]);
    trials.extend([
        with_shared(
            "powers::routes_run_no_code_without_the_switch",
            powers::routes_run_no_code_without_the_switch,
        ),
        plain(
            "powers::routes_fulfill_pages_with_the_switch",
            powers::routes_fulfill_pages_with_the_switch,
        ),
        with_shared(
            "powers::downloads_land_only_in_the_downloads_folder",
            powers::downloads_land_only_in_the_downloads_folder,
        ),
        plain(
            "powers::saved_states_plant_and_replace_nothing",
            powers::saved_states_plant_and_replace_nothing,
        ),
        with_shared(
            "powers::bodies_are_redacted_in_every_format",
            powers::bodies_are_redacted_in_every_format,
        ),
        plain(
            "powers::the_allowlist_is_the_users",
            powers::the_allowlist_is_the_users,
        ),
        plain(
            "consent::popup_rows_stay_put_and_the_user_sets_the_allowlist",
            consent::popup_rows_stay_put_and_the_user_sets_the_allowlist,
        ),
        plain(
            "consent::consent_follows_the_site_and_user_downloads_stay_theirs",
            consent::consent_follows_the_site_and_user_downloads_stay_theirs,
        ),
    ]);
    trials.push(with_shared("widgets::probe", widgets::probe));
    let conclusion = libtest_mimic::run(&args, trials);
    // Tear the shared browser down before exiting (statics are not dropped).
    let shared = common::SHARED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    drop(shared);
    conclusion.exit();
}
