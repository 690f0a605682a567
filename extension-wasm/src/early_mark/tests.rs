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
fn the_mark_follows_the_servers_headers_as_the_script_reads_it() {
    let server = vec![json!({"name": "Server-Timing", "value": "db;dur=53"})];
    assert_eq!(
        marked(server, "ab12"),
        [
            json!({"name": "Server-Timing", "value": "db;dur=53"}),
            json!({"name": "Server-Timing", "value": "claudezilla;desc=ab12"}),
        ]
    );
}

#[test]
fn only_a_top_documents_load_counts() {
    assert_eq!(top_load(Some(7), Some(0)), Some(TabId(7)));
    assert_eq!(top_load(Some(7), Some(3)), None, "a frame");
    assert_eq!(top_load(None, Some(0)), None, "no tab");
    assert_eq!(top_load(Some(7), None), None);
}
