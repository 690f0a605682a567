use std::cell::RefCell;

use serde_json::{Value, json};

use super::*;

/// A record as the glue reads it through `Reflect`: a field of another type, or read from what
/// is no object, is `None`; each read logged.
#[derive(Default)]
struct Fake {
    reads: RefCell<Vec<String>>,
}

impl Fake {
    fn field(&self, of: &Value, name: &str) -> Value {
        self.reads.borrow_mut().push(name.to_owned());
        of.get(name).cloned().unwrap_or(Value::Null)
    }
}

impl Record for Fake {
    type Value = Value;
    fn list(&self, of: &Value, name: &str) -> Option<Vec<Value>> {
        self.field(of, name).as_array().cloned()
    }
    fn text(&self, of: &Value, name: &str) -> Option<String> {
        self.field(of, name).as_str().map(str::to_owned)
    }
    fn number(&self, of: &Value, name: &str) -> Option<f64> {
        self.field(of, name).as_f64()
    }
}

fn kept(record: Value) -> Kept {
    read(&Fake::default(), &record)
}

fn console<'a>(kept: &'a Kept) -> Vec<(ConsoleLevel, &'a str, f64)> {
    let entry = |e: &'a ConsoleEntry| (e.level, e.message.as_str(), e.time);
    kept.console.iter().map(entry).collect()
}

fn dialog(kind: &str, message: &str) -> Dialog {
    Dialog {
        kind: kind.into(),
        message: message.into(),
    }
}

#[test]
fn the_record_gives_its_dialogs_and_console_messages_in_order() {
    let early = kept(json!({
        "console": [
            {"level": "warn", "message": "slow", "time": 5.0},
            {"level": "debug", "message": "b", "time": 6.0},
        ],
        "dialogs": [{"kind": "confirm", "message": "Sure?"}],
        "shadows": 3,
        "done": false,
    }));
    assert_eq!(early.dialogs, [dialog("confirm", "Sure?")]);
    assert_eq!(
        console(&early),
        [
            (ConsoleLevel::Warn, "slow", 5.0),
            (ConsoleLevel::Debug, "b", 6.0)
        ]
    );
}

#[test]
fn the_dialogs_are_read_then_the_console_each_item_field_by_field() {
    let fake = Fake::default();
    let record = json!({
        "dialogs": [{"kind": "alert", "message": "a"}],
        "console": [{"level": "log", "message": "m", "time": 1}],
    });
    read(&fake, &record);
    let reads = fake.reads.into_inner();
    let order = [
        "dialogs", "kind", "message", "console", "level", "message", "time",
    ];
    assert_eq!(reads, order);
}

#[test]
fn what_is_missing_reads_as_empty_and_an_unknown_level_as_log() {
    let early = kept(json!({"console": [{"level": "trace"}, {}], "dialogs": [{}]}));
    assert_eq!(early.dialogs, [Dialog::default()]);
    let log = (ConsoleLevel::Log, "", 0.0);
    assert_eq!(console(&early), [log, log]);
    assert_eq!(kept(json!({"module": {}})), Kept::default());
}

#[test]
fn a_field_of_another_type_reads_as_its_default_and_spoils_nothing_else() {
    let early = kept(json!({"dialogs": "x", "console": [{"level": 5, "time": "5"}]}));
    assert!(early.dialogs.is_empty());
    assert_eq!(console(&early), [(ConsoleLevel::Log, "", 0.0)]);
    let early = kept(json!({
        "dialogs": [3, null, {"kind": "alert", "message": 7}],
        "console": {"level": "warn"},
    }));
    let fields = [dialog("", ""), dialog("", ""), dialog("alert", "")];
    assert_eq!(early.dialogs, fields);
    assert!(early.console.is_empty());
    let early = kept(json!({"console": [[], {"level": "error", "message": "m", "time": 2}]}));
    let entries = [
        (ConsoleLevel::Log, "", 0.0),
        (ConsoleLevel::Error, "m", 2.0),
    ];
    assert_eq!(console(&early), entries);
}
