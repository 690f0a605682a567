use serde_json::json;

use super::*;

#[test]
fn the_secret_is_hex_and_reaches_the_script_as_a_string() {
    let secret = secret_hex(&[0x00, 0x0f, 0xa0, 0xff]);
    assert_eq!(secret, "000fa0ff");
    assert_eq!(
        prelude(&secret),
        r#"var claudezillaEarlySecret = "000fa0ff";"#
    );
}

#[test]
fn the_script_runs_first_in_every_web_frame_after_its_secret() {
    assert_eq!(
        serde_json::to_value(registration("ab12")).unwrap(),
        json!({
            "matches": ["http://*/*", "https://*/*"],
            "js": [
                {"code": r#"var claudezillaEarlySecret = "ab12";"#},
                {"file": "/early.js"},
            ],
            "runAt": "document_start",
            "allFrames": true,
        })
    );
}

#[test]
fn only_the_tabs_documents_are_marked() {
    assert_eq!(
        serde_json::to_value(documents_of(TabId(7))).unwrap(),
        json!({"urls": ["<all_urls>"], "types": ["main_frame", "sub_frame"], "tabId": 7})
    );
}

#[test]
fn the_mark_follows_the_servers_headers_as_the_script_reads_it() {
    let server: Headers = serde_json::from_value(json!({
        "responseHeaders": [{"name": "Server-Timing", "value": "db;dur=53"}],
        "statusCode": 200,
    }))
    .unwrap();
    assert_eq!(
        serde_json::to_value(marked(server, "ab12")).unwrap(),
        json!({"responseHeaders": [
            {"name": "Server-Timing", "value": "db;dur=53"},
            {"name": "Server-Timing", "value": "claudezilla;desc=ab12"},
        ]})
    );
    let none: Headers = serde_json::from_value(json!({})).unwrap();
    assert_eq!(marked(none, "ab12").response_headers.len(), 1);
}

#[test]
fn only_a_top_documents_load_counts() {
    let from = |sender| serde_json::from_value::<Sender>(sender).unwrap().top_load();
    assert_eq!(
        from(json!({"tab": {"id": 7}, "frameId": 0})),
        Some(TabId(7))
    );
    assert_eq!(
        from(json!({"tab": {"id": 7}, "frameId": 3})),
        None,
        "a frame"
    );
    assert_eq!(from(json!({"frameId": 0})), None, "no tab");
    assert_eq!(from(json!({"tab": {"id": 7}})), None);
}

#[test]
fn the_scripts_word_reads_with_or_without_a_title() {
    let loaded: Loaded = serde_json::from_value(json!({"claudezillaLoaded": "u"})).unwrap();
    assert_eq!(
        (loaded.claudezilla_loaded.as_str(), loaded.title.as_str()),
        ("u", "")
    );
}
