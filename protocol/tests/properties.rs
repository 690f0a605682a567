//! Property tests (this crate's fuzz targets; cargo-fuzz needs a nightly toolchain this project
//! does not assume): whatever bytes or strings arrive, parsing answers and never panics.

use claudezilla_protocol::framing::{FrameDecoder, decode_frame, encode_frame};
use claudezilla_protocol::{AgentId, ClientMessage, Command, FromExtension, validate};
use proptest::prelude::*;
use serde_json::Value;

/// Bytes that look like frames: lengths near the limit, JSON-ish payloads, junk.
fn frames() -> impl Strategy<Value = Vec<u8>> {
    let frame = prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..40),
        (0u32..80, proptest::collection::vec(any::<u8>(), 0..80)).prop_map(|(len, body)| {
            let mut v = len.to_le_bytes().to_vec();
            v.extend(body);
            v
        }),
        "[ -~]{0,60}".prop_map(|json| {
            let mut v = (json.len() as u32).to_le_bytes().to_vec();
            v.extend(json.into_bytes());
            v
        }),
    ];
    proptest::collection::vec(frame, 0..6).prop_map(|v| v.concat())
}

/// Strings shaped like commands: real names, wrong types, odd values.
fn command_json() -> impl Strategy<Value = String> {
    let name = prop_oneof![
        proptest::sample::select(Command::NAMES.to_vec()).prop_map(str::to_owned),
        "[a-zA-Z]{0,12}",
    ];
    let value = prop_oneof![
        Just("null".to_owned()),
        Just("-1".to_owned()),
        Just("4294967296".to_owned()),
        Just("1e309".to_owned()),
        Just("\"\"".to_owned()),
        Just("\"e1\"".to_owned()),
        Just("\"f99999999999e1\"".to_owned()),
        Just("[]".to_owned()),
        Just("{}".to_owned()),
        Just("[{\"ref\":\"e1\",\"value\":\"x\"}]".to_owned()),
        "\"[ -~é]{0,20}\"",
        any::<i64>().prop_map(|n| n.to_string()),
    ];
    let field = proptest::sample::select(vec![
        "url",
        "tabId",
        "selector",
        "ref",
        "text",
        "key",
        "values",
        "fields",
        "path",
        "accept",
        "maxLength",
        "format",
        "x",
        "y",
        "from",
        "to",
        "expression",
        "allowedDomains",
        "width",
        "height",
        "device",
        "prompt",
        "maxIterations",
        "savePath",
        "fullPage",
        "quality",
        "scale",
    ]);
    (name, proptest::collection::vec((field, value), 0..5)).prop_map(|(name, fields)| {
        let args: Vec<String> = fields.iter().map(|(k, v)| format!("{k:?}:{v}")).collect();
        format!(r#"{{"name":{name:?},"args":{{{}}}}}"#, args.join(","))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    #[test]
    fn frame_decoding_never_panics(bytes in frames(), max in 1usize..64) {
        let _ = decode_frame(&bytes, max);
        let mut dec = FrameDecoder::new(max);
        dec.push(&bytes);
        while let Ok(Some(_)) = dec.next_frame::<Value>() {}
        let mut dec = FrameDecoder::new(1 << 20);
        dec.push(&bytes);
        for _ in 0..8 {
            let _ = dec.next_frame::<ClientMessage>();
            let _ = dec.next_frame::<FromExtension>();
        }
    }

    #[test]
    fn commands_parse_and_check_without_panicking(json in command_json()) {
        if let Ok(command) = serde_json::from_str::<Command>(&json) {
            // What parsed re-encodes, and survives one more trip.
            let again = serde_json::to_string(&command).unwrap();
            prop_assert!(serde_json::from_str::<Command>(&again).is_ok(), "{}", again);
        }
    }

    #[test]
    fn encoded_frames_decode_to_the_same_message(text in "\\PC{0,200}") {
        let bytes = encode_frame(&Value::String(text.clone()), 1 << 20).unwrap();
        let (used, payload) = decode_frame(&bytes, 1 << 20).unwrap().unwrap();
        prop_assert_eq!(used, bytes.len());
        prop_assert_eq!(serde_json::from_slice::<Value>(payload).unwrap(), Value::String(text));
    }

    /// Ids of the exact form, near misses of it (wrong case, length, separators, pids with a
    /// leading zero or too long) and anything at all: accepted exactly when the written-out
    /// rule says so.
    #[test]
    fn only_the_exact_form_of_agent_id_passes(s in prop_oneof![
        "agent_[0-9a-f]{32}_[1-9][0-9]{0,9}",
        "agent_[0-9a-fA-F]{31,33}_[0-9]{0,11}",
        "agent_[0-9a-f]{32}[_-]?[0-9٠]{1,11}",
        "\\PC{0,60}",
    ]) {
        let verdict = AgentId::try_from(s.clone());
        prop_assert_eq!(verdict.is_ok(), exact_agent_id(&s), "{:?}", s);
        if let Ok(id) = verdict {
            prop_assert_eq!(id.secret(), s.as_str());
            prop_assert_eq!(id.short().len(), 14);
        }
    }

    #[test]
    fn well_formed_agent_ids_pass(s in "agent_[0-9a-f]{32}_[1-9][0-9]{0,9}") {
        prop_assert!(AgentId::try_from(s).is_ok());
    }

    #[test]
    fn near_miss_agent_ids_never_panic(hex in "[0-9a-fé]{28,36}", pid in "[0-9٠-٩_]{0,12}") {
        let _ = AgentId::try_from(format!("agent_{hex}_{pid}"));
        let _ = AgentId::try_from(format!("agent_{hex}{pid}"));
    }

    /// An accepted URL has one of the allowed schemes, no control characters and no
    /// surrounding whitespace (which browsers strip, and which could hide a scheme).
    #[test]
    fn accepted_urls_have_an_allowed_scheme(url in "[a-zA-Z:/\\\\@. \t\n#?%0-9é]{0,40}") {
        if validate::url("url", &url).is_ok() {
            let lower = url.to_ascii_lowercase();
            prop_assert!(
                lower == "about:blank" || lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("file://"),
                "{:?}", url
            );
            prop_assert!(!url.chars().any(char::is_control) && url.trim() == url);
        }
    }
}

/// The agent id rule, written out independently of `AgentId`: `agent_`, 32 lowercase hex
/// digits, `_`, and a pid of 1 to 10 digits without a leading zero.
fn exact_agent_id(s: &str) -> bool {
    let Some((hex, pid)) = s.strip_prefix("agent_").and_then(|r| r.split_once('_')) else {
        return false;
    };
    hex.len() == 32
        && hex.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f'))
        && (1..=10).contains(&pid.len())
        && !pid.starts_with('0')
        && pid.chars().all(|c| c.is_ascii_digit())
}
