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

#[test]
fn a_target_is_exactly_one_of_selector_and_ref() {
    let args = |v| serde_json::from_value::<TargetArgs>(v).unwrap();
    assert_eq!(
        args(json!({"selector": "#a"})).target(),
        Ok(ElementTarget::Selector("#a".into()))
    );
    assert_eq!(
        args(json!({"ref": "f1e2"})).target(),
        Ok(ElementTarget::Ref(ElementRef { frame: 1, index: 2 }))
    );
    assert!(args(json!({})).target().is_err());
    assert!(
        args(json!({"selector": "#a", "ref": "e1"}))
            .target()
            .is_err()
    );
    // A ref that is not one never becomes a value: it is refused where it is read.
    let bad = serde_json::from_value::<TargetArgs>(json!({"ref": "button"})).unwrap_err();
    assert!(bad.to_string().contains("firefox_snapshot"), "{bad}");
    let back = serde_json::to_value(args(json!({"ref": "f1e2"}))).unwrap();
    assert_eq!(back, json!({"ref": "f1e2"}), "a ref travels as its text");
}

#[test]
fn drag_ends_are_refs_or_selectors_or_a_point() {
    let drag = |v: serde_json::Value| serde_json::from_value::<DragArgs>(v).unwrap();
    let (from, to) = drag(json!({"from": "e3", "to": "#bin"})).targets().unwrap();
    assert!(matches!(from, ElementTarget::Ref(_)));
    assert!(matches!(
        to,
        DropTarget::Element {
            target: ElementTarget::Selector(_),
            position: DropPosition::Onto
        }
    ));
    let (_, before) = drag(json!({"from": "e3", "to": "e4", "position": "before"}))
        .targets()
        .unwrap();
    assert!(matches!(
        before,
        DropTarget::Element {
            position: DropPosition::Before,
            ..
        }
    ));
    let (_, point) = drag(json!({"from": "e3", "x": 10.5, "y": 20}))
        .targets()
        .unwrap();
    assert_eq!(point, DropTarget::Point { x: 10.5, y: 20.0 });
    for bad in [
        json!({"from": "e3"}),
        json!({"from": "e3", "x": 1}),
        json!({"from": "e3", "to": "e4", "x": 1, "y": 2}),
        json!({"from": "e3", "x": 1, "y": 2, "position": "after"}),
        json!({"from": "e3", "to": "f2e1"}),
    ] {
        assert!(drag(bad.clone()).validate().is_err(), "{bad}");
    }
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
    assert_eq!(w.url, "about:blank");
    assert!(serde_json::from_value::<ClickArgs>(json!({"selector": "a", "tabid": 1})).is_err());
    let p: PageStateArgs = serde_json::from_value(json!({})).unwrap();
    assert_eq!((p.max_headings, p.max_links, p.max_images), (30, 50, 20));
}

#[test]
fn field_values_are_text_or_checked() {
    let f: FormField = serde_json::from_value(json!({"ref": "e1", "value": true})).unwrap();
    assert_eq!(f.value, FieldValue::Checked(true));
    let f: FormField = serde_json::from_value(json!({"selector": "#n", "value": "Ada"})).unwrap();
    assert_eq!(f.value, FieldValue::Text("Ada".into()));
}

#[test]
fn each_validation_names_its_field() {
    let nav = NavigateArgs {
        url: None,
        action: None,
        tab_id: None,
    };
    assert_eq!(nav.validate().unwrap_err().field, "url");
    let nav = NavigateArgs {
        url: Some("about:blank".into()),
        action: Some(NavAction::Back),
        tab_id: None,
    };
    assert!(nav.validate().is_err());
    let wait = WaitForArgs {
        selector: Some("a".into()),
        text: Some("b".into()),
        url: None,
        tab_id: None,
    };
    assert!(wait.validate().is_err());
    let scroll = ScrollArgs {
        selector: None,
        element_ref: None,
        x: None,
        y: None,
        behavior: ScrollBehavior::Instant,
        delta_y: None,
        delta_x: None,
        tab_id: None,
    };
    assert!(scroll.validate().is_err());
    assert!(serde_json::from_value::<ScrollArgs>(json!({"x": 1, "behavior": "sideways"})).is_err());
    let smooth: ScrollArgs = serde_json::from_value(json!({"x": 1, "behavior": "smooth"})).unwrap();
    assert_eq!(smooth.behavior, ScrollBehavior::Smooth);
    let up = UploadFileArgs {
        selector: Some("input".into()),
        element_ref: None,
        path: String::new(),
        file: None,
        tab_id: None,
    };
    assert_eq!(up.validate().unwrap_err().field, "path");
    let text = TypeArgs {
        selector: Some("i".into()),
        element_ref: None,
        text: Some("x".repeat(MAX_TYPE_TEXT + 1)),
        secret: None,
        clear: false,
        tab_id: None,
    };
    assert_eq!(text.validate().unwrap_err().field, "text");
    let neither = TypeArgs {
        text: None,
        ..text.clone()
    };
    assert_eq!(neither.validate().unwrap_err().field, "text");
    let both = TypeArgs {
        text: Some("x".into()),
        secret: Some(Secret::Named(
            SecretName::try_from("PW".to_owned()).unwrap(),
        )),
        ..text
    };
    assert_eq!(both.validate().unwrap_err().field, "secret");
}
