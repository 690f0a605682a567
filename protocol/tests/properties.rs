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
    fn commands_parse_and_validate_without_panicking(json in command_json()) {
        if let Ok(command) = serde_json::from_str::<Command>(&json) {
            let _ = command.validate();
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

    #[test]
    fn agent_ids_never_panic_and_only_the_exact_form_passes(s in "\\PC{0,60}") {
        if let Ok(id) = AgentId::try_from(s.clone()) {
            prop_assert!(s.starts_with("agent_") && s.is_ascii());
            prop_assert_eq!(id.secret(), s.as_str());
            prop_assert_eq!(id.short().len(), 14);
        }
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
