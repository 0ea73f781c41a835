//! What a funnel step matches. A visit counts for step n when, within it, steps 1..n happened in that order
//! (other pages between them are allowed; each event advances it by at most one step). Counting visits rather
//! than visitor hashes keeps "within one session" exact: the hash is per day and shared by everyone behind
//! one address. The counts come from `visit_hours.rs`; the funnel store and the drop-off list use this.

/// What a funnel step matches: page views of a path pattern, or, with an event name, that custom event or
/// conversion fired on a page of the pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepPattern {
    pub url: String,
    pub event_name: Option<String>,
}

impl StepPattern {
    /// Whether one stored event (kind, name, path) reaches this step.
    pub fn matches(&self, kind: &str, name: &str, path: &str) -> bool {
        let kind_ok = match &self.event_name {
            Some(event) => matches!(kind, "custom" | "conversion") && name == event,
            None => kind == "pageview",
        };
        kind_ok && glob(normalize_path(&self.url), normalize_path(path))
    }
}

/// A path pattern or path without a trailing slash (except the root), so "/shop/" and "/shop" are one page.
pub fn normalize_path(path: &str) -> &str {
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() && path.starts_with('/') { "/" } else { trimmed }
}

/// `*` matches any run of characters (slashes included); everything else matches itself.
fn glob(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == b'*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(url: &str) -> StepPattern {
        StepPattern { url: url.into(), event_name: None }
    }

    #[test]
    fn wildcards_and_trailing_slashes() {
        assert!(glob("/", "/"));
        assert!(!glob("/", "/product"));
        assert!(glob("/product/*", "/product/42"));
        assert!(glob("/product*", "/product"));
        assert!(glob("*/checkout", "/en/shop/checkout"));
        assert!(!glob("/product/*", "/products/42"));
        assert!(glob("/a*b*c", "/aXXbYYc"));
        assert!(!glob("/a*b*c", "/aXXbYY"));
        assert!(page("/shop/").matches("pageview", "", "/shop"));
        assert!(page("/").matches("pageview", "", "/"));
    }

    #[test]
    fn event_steps_need_the_event_on_a_matching_page() {
        let step = StepPattern { url: "/success".into(), event_name: Some("purchase".into()) };
        assert!(step.matches("conversion", "purchase", "/success"));
        assert!(step.matches("custom", "purchase", "/success/"));
        assert!(!step.matches("pageview", "", "/success"));
        assert!(!step.matches("conversion", "purchase", "/other"));
        let anywhere = StepPattern { url: "*".into(), event_name: Some("signup".into()) };
        assert!(anywhere.matches("custom", "signup", "/pricing"));
        assert!(!page("/success").matches("conversion", "purchase", "/success"));
    }
}
