use super::*;
use serde_json::json;

#[test]
fn containers_are_own_user_or_a_name() {
    let parse = |v: serde_json::Value| serde_json::from_value::<CreateWindowArgs>(v);
    let args = parse(json!({"container": "own"})).unwrap();
    assert_eq!(args.container, Some(Container::Own));
    let args = parse(json!({"container": " Work "})).unwrap();
    assert_eq!(args.container, Some(Container::Named("Work".into())));
    assert!(parse(json!({"container": ""})).is_err());
    assert!(parse(json!({"container": "x".repeat(101)})).is_err());
    assert_eq!(
        serde_json::to_value(Container::User).unwrap(),
        json!("user")
    );
}

#[test]
fn refs_parse_and_print() {
    assert_eq!(
        "e12".parse(),
        Ok(ElementRef {
            frame: 0,
            index: 12
        })
    );
    assert_eq!("f5e3".parse(), Ok(ElementRef { frame: 5, index: 3 }));
    for bad in [
        "",
        "e",
        "12",
        "x1",
        "e1x",
        "f5",
        "fe3",
        "f5e",
        "e-1",
        "e1234567890",
    ] {
        assert!(bad.parse::<ElementRef>().is_err(), "{bad}");
    }
    assert_eq!(ElementRef { frame: 0, index: 7 }.to_string(), "e7");
    assert_eq!(ElementRef { frame: 2, index: 7 }.to_string(), "f2e7");
}

/// Asserts that a refusal names the field `name`.
fn field(e: String, name: &str) {
    assert!(e.contains(&format!("invalid `{name}`")), "{e}");
}

/// Why `T` refuses `value` as it is parsed.
fn refused<T: serde::de::DeserializeOwned + std::fmt::Debug>(value: serde_json::Value) -> String {
    serde_json::from_value::<T>(value).unwrap_err().to_string()
}

#[test]
fn a_target_is_exactly_one_of_selector_and_ref() {
    let args = |v| serde_json::from_value::<TargetArgs>(v).unwrap();
    assert_eq!(
        args(json!({"selector": "#a"})).target,
        ElementTarget::Selector(Selector::try_from("#a").unwrap())
    );
    assert_eq!(
        args(json!({"ref": "f1e2"})).target,
        ElementTarget::Ref(ElementRef { frame: 1, index: 2 })
    );
    assert!(refused::<TargetArgs>(json!({})).contains("give a CSS selector"));
    let both = refused::<TargetArgs>(json!({"selector": "#a", "ref": "e1"}));
    assert!(both.contains("not both"), "{both}");
    for empty in ["", "  "] {
        let e = refused::<TargetArgs>(json!({ "selector": empty }));
        assert!(e.contains("invalid `selector`: is empty"), "{e}");
    }
    let long = refused::<TargetArgs>(json!({"selector": "a".repeat(1001)}));
    assert!(long.contains("1001 characters"), "{long}");
    // A ref that is not one never becomes a value: it is refused where it is read.
    let bad = refused::<TargetArgs>(json!({"ref": "button"}));
    assert!(bad.contains("firefox_snapshot"), "{bad}");
    let back = serde_json::to_value(args(json!({"ref": "f1e2"}))).unwrap();
    assert_eq!(back, json!({"ref": "f1e2"}), "a ref travels as its text");
    let back = serde_json::to_value(args(json!({"selector": "#a", "tabId": 4}))).unwrap();
    assert_eq!(back, json!({"selector": "#a", "tabId": 4}));
}

#[test]
fn drag_ends_are_refs_or_selectors_or_a_point() {
    let drag = |v: serde_json::Value| serde_json::from_value::<DragArgs>(v).unwrap();
    let DragArgs { from, to, .. } = drag(json!({"from": "e3", "to": "#bin"}));
    assert!(matches!(from, ElementTarget::Ref(_)));
    assert!(matches!(
        to,
        DropTarget::Element {
            target: ElementTarget::Selector(_),
            position: DropPosition::Onto
        }
    ));
    let before = drag(json!({"from": "e3", "to": "e4", "position": "before"}));
    assert!(matches!(
        before.to,
        DropTarget::Element {
            position: DropPosition::Before,
            ..
        }
    ));
    let point = drag(json!({"from": "e3", "x": 10.5, "y": 20}));
    assert_eq!(point.to, DropTarget::Point(Point::new(10.5, 20.0).unwrap()));
    // Each end travels as written (a ref, or a selector), the point as its x and y.
    let back = json!({"from": "e3", "to": "#bin", "position": "before", "tabId": 2});
    assert_eq!(serde_json::to_value(drag(back.clone())).unwrap(), back);
    let back = json!({"from": "#a", "x": 10.5, "y": 20.0});
    assert_eq!(serde_json::to_value(drag(back.clone())).unwrap(), back);
    for bad in [
        json!({"from": "e3"}),
        json!({"from": "e3", "x": 1}),
        json!({"from": "e3", "to": "e4", "x": 1, "y": 2}),
        json!({"from": "e3", "x": 1, "y": 2, "position": "after"}),
        json!({"from": "e3", "to": "f2e1"}),
    ] {
        assert!(
            serde_json::from_value::<DragArgs>(bad.clone()).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn a_point_is_in_the_viewport_wherever_it_is_read() {
    for (x, y) in [(0.0, 0.0), (10.5, 100_000.0)] {
        let p = Point::new(x, y).unwrap();
        assert_eq!((p.x(), p.y()), (x, y));
    }
    for (x, y, field) in [
        (-1.0, 0.0, "x"),
        (0.0, f64::NAN, "y"),
        (f64::INFINITY, 0.0, "x"),
        (0.0, 100_000.5, "y"),
    ] {
        let e = Point::new(x, y).unwrap_err().to_string();
        assert!(
            e.contains(&format!("`{field}`")) && e.contains("viewport coordinate"),
            "{e}"
        );
    }
    let half = Point::from_parts(Some(1.0), None).unwrap_err().to_string();
    assert!(half.contains("give y with x"), "{half}");
    let half = Point::from_parts(None, Some(1.0)).unwrap_err().to_string();
    assert!(half.contains("give x with y"), "{half}");
    assert_eq!(Point::from_parts(None, None).unwrap(), None);
    // Read from another process, it is checked again.
    assert!(serde_json::from_value::<Point>(json!({"x": -3, "y": 1})).is_err());
    let back = serde_json::to_value(Point::new(1.5, 2.0).unwrap()).unwrap();
    assert_eq!(back, json!({"x": 1.5, "y": 2.0}));
    let drag = refused::<DragArgs>(json!({"from": "e3", "x": -5, "y": 10}));
    assert!(drag.contains("viewport coordinate"), "{drag}");
}

#[test]
fn click_and_type_travel_as_written() {
    for written in [
        json!({"selector": "#a", "clickCount": 2, "button": "right", "modifiers": ["Shift"], "tabId": 3}),
        json!({"x": 10.5, "y": 20.0}),
    ] {
        let click: ClickArgs = serde_json::from_value(written.clone()).unwrap();
        assert_eq!(serde_json::to_value(click).unwrap(), written);
    }
    let click: ClickArgs = serde_json::from_value(json!({"ref": "f1e2"})).unwrap();
    assert_eq!(
        click.aim,
        Aim::Element(ElementTarget::Ref(ElementRef { frame: 1, index: 2 }))
    );
    for written in [
        json!({"ref": "e2", "text": "hi", "clear": true}),
        json!({"selector": "#p", "secret": "PASSWORD", "clear": false}),
    ] {
        let typed: TypeArgs = serde_json::from_value(written.clone()).unwrap();
        assert_eq!(serde_json::to_value(typed).unwrap(), written);
    }
    let typed: TypeArgs = serde_json::from_value(json!({"ref": "e2", "text": "hi"})).unwrap();
    assert_eq!(typed.entry, Entry::Text("hi".into()));
}

#[test]
fn defaults_and_unknown_fields() {
    let c: GetContentArgs = serde_json::from_value(json!({})).unwrap();
    assert_eq!(
        (c.max_length, c.effective_format()),
        (DEFAULT_MAX_LENGTH, ContentFormat::Text)
    );
    let c: GetContentArgs = serde_json::from_value(json!({"includeHtml": true})).unwrap();
    assert_eq!(c.effective_format(), ContentFormat::Html);
    let w: CreateWindowArgs = serde_json::from_value(json!({})).unwrap();
    assert_eq!(w.url.as_str(), "about:blank");
    assert!(serde_json::from_value::<ClickArgs>(json!({"selector": "a", "tabid": 1})).is_err());
    let p: PageStateArgs = serde_json::from_value(json!({})).unwrap();
    assert_eq!((p.max_headings, p.max_links, p.max_images), (30, 50, 20));
    // An absent optional argument stays absent on the wire.
    let back = json!({"pattern": "**/api/*", "action": "abort"});
    let route: RouteArgs = serde_json::from_value(back.clone()).unwrap();
    assert_eq!(serde_json::to_value(route).unwrap(), back);
}

#[test]
fn field_values_are_text_or_checked() {
    let f: FormField = serde_json::from_value(json!({"ref": "e1", "value": true})).unwrap();
    assert_eq!(f.value, FieldValue::Checked(true));
    let f: FormField = serde_json::from_value(json!({"selector": "#n", "value": "Ada"})).unwrap();
    assert_eq!(f.value, FieldValue::Text("Ada".into()));
}

#[test]
fn each_check_runs_as_the_arguments_are_parsed_and_names_its_field() {
    field(refused::<NavigateArgs>(json!({})), "url");
    field(
        refused::<NavigateArgs>(json!({"url": "javascript:alert(1)"})),
        "url",
    );
    field(
        refused::<CreateWindowArgs>(json!({"url": "about:config"})),
        "url",
    );
    refused::<NavigateArgs>(json!({"url": "about:blank", "action": "back"}));
    field(
        refused::<WaitForArgs>(json!({"selector": "a", "text": "b"})),
        "selector",
    );
    field(refused::<ScrollArgs>(json!({})), "selector");
    assert!(serde_json::from_value::<ScrollArgs>(json!({"x": 1, "behavior": "sideways"})).is_err());
    let smooth: ScrollArgs = serde_json::from_value(json!({"x": 1, "behavior": "smooth"})).unwrap();
    assert_eq!(smooth.behavior, ScrollBehavior::Smooth);
    field(
        refused::<UploadFileArgs>(json!({"selector": "input", "path": ""})),
        "path",
    );
    let long = "x".repeat(MAX_TYPE_TEXT + 1);
    field(
        refused::<TypeArgs>(json!({"selector": "i", "text": long})),
        "text",
    );
    field(refused::<TypeArgs>(json!({"selector": "i"})), "text");
    field(
        refused::<TypeArgs>(json!({"selector": "i", "text": "x", "secret": "PW"})),
        "secret",
    );
    field(
        refused::<ClickArgs>(json!({"selector": "a", "clickCount": 4})),
        "clickCount",
    );
    field(
        refused::<ClickArgs>(json!({"ref": "e1", "x": 1, "y": 2})),
        "x",
    );
    field(refused::<ClickArgs>(json!({})), "selector");
    let form = json!({"fields": [{"ref": "e1", "value": long}]});
    field(refused::<FillFormArgs>(form), "value");
}

#[test]
fn a_search_is_words_or_a_role_with_its_name() {
    let needle = |v: serde_json::Value| {
        serde_json::from_value::<FindArgs>(v)
            .map_err(|e| e.to_string())
            .and_then(|a| a.needle().map_err(|e| e.to_string()))
    };
    assert_eq!(
        needle(json!({"role": " Button ", "name": "Edit"})),
        Ok(Needle::Role {
            role: "button".into(),
            name: Some("Edit".into())
        })
    );
    assert_eq!(
        needle(json!({"text": "Total"})),
        Ok(Needle::Words(Words::Text("Total".into())))
    );
    for (refused, says) in [
        (
            json!({"text": "a", "role": "button"}),
            "one of text, pattern or role",
        ),
        (json!({"text": "a", "name": "Edit"}), "goes with role"),
        (json!({"role": " "}), "is empty"),
        (json!({"role": "x".repeat(41)}), "41 characters"),
        (json!({}), "or a role"),
    ] {
        let e = needle(refused.clone()).unwrap_err();
        assert!(e.contains(says), "{refused}: {e}");
    }
}

/// What only the MCP server fills in has no field in the agent's forms: an agent that writes
/// one is refused, whatever it writes.
#[test]
fn the_agents_forms_cannot_carry_what_the_mcp_server_fills_in() {
    let forged = json!({"name": "PW", "value": "hunter2", "sites": ["evil.test"]});
    assert!(
        refused::<TypeArgs>(json!({"selector": "#p", "secret": forged})).contains("string"),
        "a filled secret written by the agent"
    );
    let form = json!({"fields": [{"selector": "#p", "value": {"secret": forged}}]});
    refused::<FillFormArgs>(form);
    let file = json!({"name": "x.sh", "mime": "text/plain", "base64": "eA=="});
    let upload = json!({"selector": "input", "path": "a.txt", "file": file});
    assert!(refused::<UploadFileArgs>(upload).contains("unknown field `file`"));
    let state = json!({"action": "load", "path": "s.json", "state": {"cookies": []}});
    assert!(refused::<StorageStateArgs>(state).contains("unknown field `state`"));
    let moved = json!({"moved": [{"id": 1, "path": "/etc/passwd"}]});
    assert!(refused::<DownloadsArgs>(moved).contains("unknown field `moved`"));
}

/// The filled forms keep the agents' bounds where they arrive.
#[test]
fn the_filled_forms_are_checked_where_they_arrive() {
    let long = "x".repeat(MAX_TYPE_TEXT + 1);
    let typed = json!({"target": {"selector": "#p"}, "text": {"text": long}, "clear": false, "tabId": null});
    field(refused::<ResolvedType>(typed), "text");
    let ok =
        json!({"target": {"selector": "#p"}, "text": {"text": "hi"}, "clear": true, "tabId": 3});
    let parsed: ResolvedType = serde_json::from_value(ok.clone()).unwrap();
    assert_eq!(serde_json::to_value(&parsed).unwrap(), ok);
    field(
        refused::<ResolvedForm>(json!({"fields": [], "tabId": null})),
        "fields",
    );
    let field_too_long = json!([{"selector": "#p"}, {"typed": {"text": long}}]);
    field(
        refused::<ResolvedForm>(json!({"fields": [field_too_long], "tabId": null})),
        "text",
    );
    let many: Vec<_> = (0..=MAX_DOWNLOADS)
        .map(|id| json!({"id": id, "path": "/p"}))
        .collect();
    field(
        refused::<ResolvedDownloads>(json!({"args": {}, "moved": many})),
        "moved",
    );
    let cookie = json!({"url": "https://a.test", "name": "n", "value": "v", "domain": "a.test", "path": "/"});
    let cookies: Vec<_> = (0..=MAX_SAVED).map(|_| cookie.clone()).collect();
    field(
        refused::<StateToLoad>(json!({"state": {"cookies": cookies}})),
        "path",
    );
    let one = json!({"state": {"cookies": [cookie], "origins": []}});
    let state: StateToLoad = serde_json::from_value(one).unwrap();
    assert_eq!(state.into_state().cookies.len(), 1);
}

#[test]
fn shift_as_a_flag_presses_the_shifted_character_as_the_chord_does() {
    let chord = |v: serde_json::Value| serde_json::from_value::<PressKeyArgs>(v).unwrap().chord();
    let flagged = chord(json!({"tabId": 1, "key": "a", "shiftKey": true}));
    assert_eq!(flagged, chord(json!({"tabId": 1, "key": "Shift+a"})));
    assert_eq!(
        (flagged.key.key.as_str(), flagged.modifiers.shift),
        ("A", true)
    );
    let tab = chord(json!({"tabId": 1, "key": "Tab", "shiftKey": true}));
    assert_eq!(tab.key.key, "Tab");
}
