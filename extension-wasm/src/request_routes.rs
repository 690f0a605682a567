//! Each agent's routes (`firefox_route`): URL globs over its own tabs' requests, and what
//! happens to a request one matches — its response fulfilled with a body and headers, the
//! request aborted, or delayed. Routes belong to their agent, apply only to its tabs, and end
//! with it; the newest matching route wins.

use std::collections::HashMap;

use claudezilla_protocol::args::RouteAction;
use claudezilla_protocol::reply::RouteInfo;
use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode};

use crate::glob::Glob;

/// Most routes one agent holds.
pub const MAX_ROUTES: usize = 50;

/// What a matched request gets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    Fulfill {
        body: Option<String>,
        headers: Vec<(String, String)>,
    },
    Abort,
    Delay(u32),
}

impl Rule {
    fn action(&self) -> RouteAction {
        match self {
            Self::Fulfill { .. } => RouteAction::Fulfill,
            Self::Abort => RouteAction::Abort,
            Self::Delay(_) => RouteAction::Delay,
        }
    }
}

#[derive(Debug, Clone)]
struct Route {
    pattern: String,
    glob: Glob,
    rule: Rule,
    hits: u32,
}

#[derive(Debug, Default)]
pub struct RouteTable {
    agents: HashMap<AgentId, Vec<Route>>,
}

impl RouteTable {
    /// Adds a route (replacing one with the same pattern) as the agent's newest.
    pub fn add(&mut self, agent: &AgentId, pattern: &str, rule: Rule) -> Result<(), ErrorBody> {
        let routes = self.agents.entry(agent.clone()).or_default();
        routes.retain(|r| r.pattern != pattern);
        if routes.len() == MAX_ROUTES {
            return Err(ErrorBody::new(
                ErrorCode::InvalidArgument,
                format!("you have {MAX_ROUTES} routes already"),
            )
            .with_hint("remove some with firefox_unroute"));
        }
        routes.push(Route {
            pattern: pattern.to_owned(),
            glob: Glob::new(pattern),
            rule,
            hits: 0,
        });
        Ok(())
    }

    /// Removes the agent's route with this pattern, or all of them; how many went.
    pub fn remove(&mut self, agent: &AgentId, pattern: Option<&str>) -> usize {
        let Some(routes) = self.agents.get_mut(agent) else {
            return 0;
        };
        let before = routes.len();
        match pattern {
            Some(p) => routes.retain(|r| r.pattern != p),
            None => routes.clear(),
        }
        let removed = before - routes.len();
        if routes.is_empty() {
            self.agents.remove(agent);
        }
        removed
    }

    /// The agent's routes, newest first.
    pub fn list(&self, agent: &AgentId) -> Vec<RouteInfo> {
        self.agents
            .get(agent)
            .map(|routes| {
                routes
                    .iter()
                    .rev()
                    .map(|r| RouteInfo {
                        pattern: r.pattern.clone(),
                        action: r.rule.action(),
                        hits: r.hits,
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// What happens to a request of one of `owner`'s tabs: its newest matching route's rule.
    pub fn hit(&mut self, owner: &AgentId, url: &str) -> Option<Rule> {
        let route = self
            .agents
            .get_mut(owner)?
            .iter_mut()
            .rev()
            .find(|r| r.glob.matches(url))?;
        route.hits = route.hits.saturating_add(1);
        Some(route.rule.clone())
    }

    pub fn is_empty(&self) -> bool {
        self.agents.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(n: u8) -> AgentId {
        AgentId::new([n; 16], 0)
    }

    #[test]
    fn routes_are_their_agents_alone_and_the_newest_wins() {
        let (a, b) = (agent(1), agent(2));
        let mut t = RouteTable::default();
        t.add(&a, "**/api/*", Rule::Abort).unwrap();
        t.add(&a, "**/api/data", Rule::Delay(5)).unwrap();
        assert_eq!(t.hit(&a, "http://x/api/data"), Some(Rule::Delay(5)));
        assert_eq!(t.hit(&a, "http://x/api/other"), Some(Rule::Abort));
        assert_eq!(t.hit(&a, "http://x/page"), None);
        // Another agent's requests never meet a's routes.
        assert_eq!(t.hit(&b, "http://x/api/data"), None);
        let listed = t.list(&a);
        assert_eq!(listed[0].pattern, "**/api/data");
        assert_eq!((listed[0].hits, listed[1].hits), (1, 1));
        // The same pattern again replaces the route and makes it the newest.
        t.add(
            &a,
            "**/api/*",
            Rule::Fulfill {
                body: Some("x".into()),
                headers: vec![],
            },
        )
        .unwrap();
        assert_eq!(t.list(&a).len(), 2);
        assert!(matches!(
            t.hit(&a, "http://x/api/data"),
            Some(Rule::Fulfill { .. })
        ));
        assert_eq!(t.remove(&b, None), 0);
        assert_eq!(t.remove(&a, Some("**/api/*")), 1);
        assert_eq!(t.remove(&a, None), 1);
        assert!(t.is_empty());
    }

    #[test]
    fn an_agent_holds_a_bounded_number() {
        let a = agent(1);
        let mut t = RouteTable::default();
        for i in 0..MAX_ROUTES {
            t.add(&a, &format!("**/{i}"), Rule::Abort).unwrap();
        }
        assert!(t.add(&a, "**/one-more", Rule::Abort).is_err());
        // Replacing one is still allowed.
        t.add(&a, "**/7", Rule::Delay(1)).unwrap();
    }
}
