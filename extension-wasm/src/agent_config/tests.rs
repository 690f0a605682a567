use claudezilla_protocol::ErrorCode;

use super::*;

fn agent() -> AgentId {
    AgentId::new([0xaa; 16], 100)
}

fn args(domains: Option<&[&str]>, consent: Option<bool>) -> SetConfigArgs {
    SetConfigArgs {
        allowed_domains: domains.map(|d| d.iter().map(|s| (*s).to_owned()).collect()),
        handle_consent: consent,
    }
}

#[test]
fn what_a_call_leaves_out_stays_as_it_was() {
    let mut configs = HashMap::new();
    let user = ["example.com".to_owned()];
    set(
        &mut configs,
        &agent(),
        &user,
        args(Some(&["Shop.Example.com"]), None),
    )
    .unwrap();
    let answer = set(&mut configs, &agent(), &user, args(None, Some(true))).unwrap();
    assert_eq!(answer.allowed_domains, ["shop.example.com"]);
    assert!(answer.handle_consent);
    assert_eq!(answer.user_domains, ["example.com"]);
    let answer = set(&mut configs, &agent(), &user, args(Some(&[]), None)).unwrap();
    assert!(answer.allowed_domains.is_empty());
    assert!(answer.handle_consent);
}

#[test]
fn a_list_wider_than_the_users_changes_nothing() {
    let mut configs = HashMap::new();
    let user = ["example.com".to_owned()];
    let e = set(
        &mut configs,
        &agent(),
        &user,
        args(Some(&["other.org"]), Some(true)),
    )
    .unwrap_err();
    assert_eq!(e.code, ErrorCode::NotAllowed);
    assert!(configs.is_empty());
}
