use serde_json::json;

use super::*;

fn kept(record: serde_json::Value) -> Kept {
    serde_json::from_value(record).unwrap()
}

#[test]
fn the_record_gives_its_dialogs_and_console_messages_in_order() {
    let mut early = kept(json!({
        "console": [
            {"level": "warn", "message": "slow", "time": 5.0},
            {"level": "debug", "message": "b", "time": 6.0},
        ],
        "dialogs": [{"kind": "confirm", "message": "Sure?"}],
        "shadows": 3,
        "done": false,
    }));
    let dialog = Dialog {
        kind: "confirm".into(),
        message: "Sure?".into(),
    };
    assert_eq!(early.dialogs, [dialog]);
    let console = early.console();
    let read: Vec<_> = console
        .iter()
        .map(|e| (e.level, e.message.as_str(), e.time))
        .collect();
    assert_eq!(
        read,
        [
            (ConsoleLevel::Warn, "slow", 5.0),
            (ConsoleLevel::Debug, "b", 6.0)
        ]
    );
}

#[test]
fn what_is_missing_reads_as_empty_and_an_unknown_level_as_log() {
    let mut early = kept(json!({"console": [{"level": "trace"}, {}], "dialogs": [{}]}));
    assert_eq!(early.dialogs, [Dialog::default()]);
    let console = early.console();
    assert!(
        console
            .iter()
            .all(|e| e.level == ConsoleLevel::Log && e.message.is_empty() && e.time == 0.0),
        "{console:?}"
    );
    let mut none = kept(json!({"module": {}}));
    assert!(none.dialogs.is_empty() && none.console().is_empty());
}
