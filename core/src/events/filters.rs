//! The owner's filters on a read: Plausible's Stats API v2 filter syntax (`[["is", "visit:source", ["Google"]]]`,
//! operators `is`, `is_not`, `contains`, `contains_not`, groups `and`, `or`, `not`), parsed and checked once here
//! and rendered into a WHERE condition by each engine's `Dialect`, so both engines answer the same question.
//!
//! What a filter means: a condition on a `visit:` dimension holds for a visit (its first hit's values, its entry
//! and exit page); a condition on an `event:` dimension holds for an event. Visit figures (visits, visitors,
//! bounces, duration) count the visits that pass the visit conditions and hold at least one event passing the
//! event conditions; event figures (page views, events, conversions) count the events that pass the event
//! conditions in visits passing the visit conditions. A group (`or`, `not`) is either about visits or about
//! events: mixing the two in one group has no per-row meaning, so it is refused.

use serde_json::Value;

use crate::error::{Error, Result};

/// Most conditions one filter holds, and most values one condition lists: enough for any screen, small enough
/// that no request makes the engines compile a huge statement.
const MAX_CONDITIONS: usize = 20;
const MAX_VALUES: usize = 50;
/// Longest value a condition compares with, in characters.
const MAX_VALUE_LEN: usize = 2000;
/// Deepest nesting of groups.
const MAX_DEPTH: usize = 4;

/// What a condition reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    /// `event:page`: the event's path.
    Page,
    /// `event:name`: a custom event's name, or its kind (`pageview`, `outbound`, ...) when it has none.
    Name,
    /// `event:goal`: a conversion's name ('' for other events).
    Goal,
    /// `event:props:<key>`: a property of the event, as text ('' when it has none).
    Prop(String),
    /// A per-visit column (`visit:<name>`).
    Visit(VisitField),
}

/// The per-visit dimensions a filter or a breakdown reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VisitField {
    EntryPage,
    ExitPage,
    /// The traffic source's name ('' = Direct).
    Source,
    /// The referring host ('' = none).
    Referrer,
    UtmSource,
    UtmMedium,
    UtmCampaign,
    UtmContent,
    UtmTerm,
    Country,
    Region,
    City,
    Device,
    Browser,
    BrowserVersion,
    Os,
    OsVersion,
    Screen,
}

impl VisitField {
    /// Every per-visit dimension with its name after `visit:` (the stored column of the same name, but
    /// `referrer`, which is the referring host).
    pub const ALL: [(VisitField, &'static str); 18] = [
        (VisitField::EntryPage, "entry_page"),
        (VisitField::ExitPage, "exit_page"),
        (VisitField::Source, "source"),
        (VisitField::Referrer, "referrer"),
        (VisitField::UtmSource, "utm_source"),
        (VisitField::UtmMedium, "utm_medium"),
        (VisitField::UtmCampaign, "utm_campaign"),
        (VisitField::UtmContent, "utm_content"),
        (VisitField::UtmTerm, "utm_term"),
        (VisitField::Country, "country"),
        (VisitField::Region, "region"),
        (VisitField::City, "city"),
        (VisitField::Device, "device"),
        (VisitField::Browser, "browser"),
        (VisitField::BrowserVersion, "browser_version"),
        (VisitField::Os, "os"),
        (VisitField::OsVersion, "os_version"),
        (VisitField::Screen, "screen"),
    ];

    /// The name after `visit:`.
    pub fn name(self) -> &'static str {
        VisitField::ALL.iter().find(|(f, _)| *f == self).map(|(_, n)| *n).expect("every field is listed")
    }
}

impl Field {
    /// Parses a Plausible dimension name (`event:page`, `visit:country`, `event:props:plan`).
    pub fn parse(name: &str) -> Result<Field> {
        if let Some(key) = name.strip_prefix("event:props:") {
            return Ok(Field::Prop(property_key(key)?));
        }
        let field = match name {
            // Plausible's names of the stored places: countries by name (mapped to codes for the stored codes,
            // see `condition`), regions and cities as stored.
            "visit:country_name" => Field::Visit(VisitField::Country),
            "visit:region_name" => Field::Visit(VisitField::Region),
            "visit:city_name" => Field::Visit(VisitField::City),
            "event:page" => Field::Page,
            "event:name" => Field::Name,
            "event:goal" => Field::Goal,
            _ => match name.strip_prefix("visit:").and_then(|v| VisitField::ALL.iter().find(|(_, n)| *n == v)) {
                Some((field, _)) => Field::Visit(*field),
                None => {
                    return Err(Error::invalid(format!(
                        "unknown filter dimension {}: use event:page, event:name, event:goal, event:props:<key> or \
                         visit: followed by one of {}",
                        shown(name),
                        VisitField::ALL.iter().map(|(_, n)| *n).collect::<Vec<_>>().join(", ")
                    )));
                }
            },
        };
        Ok(field)
    }

    /// Whether the field is a visit's rather than an event's.
    pub fn is_visit(&self) -> bool {
        matches!(self, Field::Visit(_))
    }
}

/// A property key as a filter names it: the ingest's keys, without the quote and backslash both engines' JSON
/// lookups would need escaped.
fn property_key(key: &str) -> Result<String> {
    let ok =
        !key.is_empty() && key.chars().count() <= 100 && !key.chars().any(|c| c.is_control() || c == '"' || c == '\\');
    if !ok {
        return Err(Error::invalid(
            "event:props: must be followed by a property name of 1 to 100 characters without quotes or backslashes",
        ));
    }
    Ok(key.to_string())
}

/// How a condition compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// The value is one of the listed ones.
    Is,
    /// The value is none of them.
    IsNot,
    /// The value contains one of them.
    Contains,
    /// The value contains none of them.
    ContainsNot,
}

/// One comparison of a field with values.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    pub op: Op,
    pub field: Field,
    /// The values, as stored: `(none)` and `(not set)` (and, for sources and referrers, `Direct` and
    /// `Direct / None`) stand for ''.
    pub values: Vec<String>,
    pub case_sensitive: bool,
}

/// A filter tree: conditions and their groups.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Condition(Condition),
    And(Vec<Expr>),
    Or(Vec<Expr>),
    Not(Box<Expr>),
}

impl Expr {
    /// Whether every condition of the tree reads the visit (else all read the event: `parse` refuses mixes).
    fn is_visit(&self) -> bool {
        match self {
            Expr::Condition(c) => c.field.is_visit(),
            Expr::And(all) | Expr::Or(all) => all.first().is_some_and(Expr::is_visit),
            Expr::Not(inner) => inner.is_visit(),
        }
    }

    /// The fields the tree reads.
    fn fields<'a>(&'a self, out: &mut Vec<&'a Field>) {
        match self {
            Expr::Condition(c) => out.push(&c.field),
            Expr::And(all) | Expr::Or(all) => all.iter().for_each(|e| e.fields(out)),
            Expr::Not(inner) => inner.fields(out),
        }
    }
}

/// Whether a filter reads `event:goal`, and whether it reads nothing else.
fn goal_reads(expr: &Expr) -> (bool, bool) {
    let mut fields = Vec::new();
    expr.fields(&mut fields);
    let goal = |f: &&Field| matches!(f, Field::Goal);
    (fields.iter().any(goal), fields.iter().all(goal))
}

/// A read's filters, split by what they hold for: every visit condition and every event condition must pass.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filters {
    pub visit: Vec<Expr>,
    pub event: Vec<Expr>,
}

impl Filters {
    /// No filter: the read counts everything.
    pub fn none() -> Filters {
        Filters::default()
    }

    /// Parses the `filters` parameter (URL-decoded JSON); absent or empty text is no filter.
    pub fn parse(raw: Option<&str>) -> Result<Filters> {
        let raw = raw.unwrap_or("").trim();
        if raw.is_empty() {
            return Ok(Filters::none());
        }
        let value: Value = serde_json::from_str(raw)
            .map_err(|e| Error::invalid(format!("filters must be a JSON array of filters: {e}")))?;
        Filters::from_json(&value)
    }

    /// Reads a JSON array of filters (the Stats API's `filters` field).
    pub fn from_json(value: &Value) -> Result<Filters> {
        let list = value.as_array().ok_or_else(|| Error::invalid("filters must be a JSON array of filters"))?;
        let mut count = 0;
        let mut filters = Filters::none();
        for item in list {
            let expr = expr(item, 1, &mut count)?;
            if expr.is_visit() { filters.visit.push(expr) } else { filters.event.push(expr) }
        }
        Ok(filters)
    }

    /// Both filters at once: every condition of each must pass (a share link's fixed filters and a visitor's).
    pub fn and(mut self, other: Filters) -> Filters {
        self.visit.extend(other.visit);
        self.event.extend(other.event);
        self
    }

    /// Whether there is no condition at all.
    pub fn is_empty(&self) -> bool {
        self.visit.is_empty() && self.event.is_empty()
    }

    /// Whether an event condition reads `event:goal`.
    pub fn has_goal(&self) -> bool {
        self.event.iter().any(|e| goal_reads(e).0)
    }

    /// These filters without their `event:goal` filters: whom a conversion rate divides by. A goal inside a
    /// group with other dimensions leaves no such divisor (400).
    pub fn without_goals(&self) -> Result<Filters> {
        let mut event = Vec::new();
        for expr in &self.event {
            match goal_reads(expr) {
                (false, _) => event.push(expr.clone()),
                (true, true) => {}
                (true, false) => {
                    return Err(Error::invalid(
                        "filters: a conversion rate needs each event:goal filter apart from other dimensions",
                    ));
                }
            }
        }
        Ok(Filters { visit: self.visit.clone(), event })
    }

    /// The per-visit fields the visit conditions read, each once.
    pub fn visit_fields(&self) -> Vec<VisitField> {
        let mut fields = Vec::new();
        self.visit.iter().for_each(|e| e.fields(&mut fields));
        let mut out: Vec<VisitField> = Vec::new();
        for field in fields {
            if let Field::Visit(v) = field
                && !out.contains(v)
            {
                out.push(*v);
            }
        }
        out
    }
}

/// One filter or group of the JSON, at nesting `depth`, counting conditions into `count`.
fn expr(item: &Value, depth: usize, count: &mut usize) -> Result<Expr> {
    if depth > MAX_DEPTH {
        return Err(Error::invalid(format!("filters may nest groups at most {MAX_DEPTH} deep")));
    }
    let parts = item
        .as_array()
        .filter(|p| !p.is_empty())
        .ok_or_else(|| Error::invalid(format!("each filter must be a non-empty array, not {}", short(item))))?;
    let op = parts[0].as_str().ok_or_else(|| Error::invalid("a filter must start with its operator's name"))?;
    match op {
        "and" | "or" => {
            let [_, Value::Array(items)] = parts.as_slice() else {
                return Err(Error::invalid(format!("[\"{op}\", [filters...]] takes one array of filters")));
            };
            if items.is_empty() {
                return Err(Error::invalid(format!("an \"{op}\" group must hold at least one filter")));
            }
            let all = items.iter().map(|i| expr(i, depth + 1, count)).collect::<Result<Vec<_>>>()?;
            if all.iter().any(|e| e.is_visit() != all[0].is_visit()) {
                return Err(Error::invalid(format!(
                    "an \"{op}\" group may not mix visit: and event: dimensions (filter them in separate filters)"
                )));
            }
            Ok(if op == "and" { Expr::And(all) } else { Expr::Or(all) })
        }
        "not" => {
            let [_, inner] = parts.as_slice() else {
                return Err(Error::invalid("[\"not\", filter] takes one filter"));
            };
            Ok(Expr::Not(Box::new(expr(inner, depth + 1, count)?)))
        }
        _ => {
            *count += 1;
            if *count > MAX_CONDITIONS {
                return Err(Error::invalid(format!("filters may hold at most {MAX_CONDITIONS} conditions")));
            }
            condition(op, parts).map(Expr::Condition)
        }
    }
}

/// A `[operator, dimension, [values], {modifiers}?]` condition.
fn condition(op: &str, parts: &[Value]) -> Result<Condition> {
    let op = match op {
        "is" => Op::Is,
        "is_not" => Op::IsNot,
        "contains" => Op::Contains,
        "contains_not" => Op::ContainsNot,
        "matches" | "matches_not" | "matches_wildcard" | "matches_wildcard_not" | "has_done" | "has_not_done" => {
            return Err(Error::invalid(format!(
                "filter operator {op} is not supported: use is, is_not, contains or contains_not"
            )));
        }
        other => {
            return Err(Error::invalid(format!(
                "unknown filter operator {}: use is, is_not, contains, contains_not, and, or or not",
                shown(other)
            )));
        }
    };
    let (dimension, values, modifiers) = match parts {
        [_, d, v] => (d, v, None),
        [_, d, v, m] => (d, v, Some(m)),
        _ => return Err(Error::invalid("a filter is [operator, dimension, [values]] with optional modifiers")),
    };
    let dimension = dimension.as_str().ok_or_else(|| Error::invalid("a filter's dimension must be a string"))?;
    let field = Field::parse(dimension)?;
    let values = values.as_array().ok_or_else(|| Error::invalid("a filter's values must be an array"))?;
    if values.is_empty() || values.len() > MAX_VALUES {
        return Err(Error::invalid(format!("a filter must list 1 to {MAX_VALUES} values")));
    }
    let values = values
        .iter()
        .map(|v| {
            let text = match v {
                Value::String(s) => s.clone(),
                Value::Number(n) => n.to_string(),
                _ => return Err(Error::invalid("filter values must be strings or numbers")),
            };
            if text.chars().count() > MAX_VALUE_LEN {
                return Err(Error::invalid(format!("filter values must be at most {MAX_VALUE_LEN} characters")));
            }
            if dimension == "visit:country_name" {
                return Ok(country_code_of(&text));
            }
            Ok(stored_value(&field, text))
        })
        .collect::<Result<Vec<_>>>()?;
    let case_sensitive = match modifiers {
        None => true,
        Some(Value::Object(m)) => match m.get("case_sensitive") {
            None => true,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err(Error::invalid("the case_sensitive modifier must be true or false")),
        },
        Some(_) => return Err(Error::invalid("a filter's modifiers must be an object")),
    };
    Ok(Condition { op, field, values, case_sensitive })
}

/// A value as stored: the names reports give an empty value stand for it.
fn stored_value(field: &Field, text: String) -> String {
    let direct = matches!(field, Field::Visit(VisitField::Source | VisitField::Referrer));
    let empty = text == "(none)" || text == "(not set)" || (direct && (text == "Direct / None" || text == "Direct"));
    if empty { String::new() } else { text }
}

/// The stored code of a country named in English (ISO 3166-1, any case); a name no country has stays as it is,
/// so it matches nothing.
fn country_code_of(name: &str) -> String {
    if name.is_empty() {
        return String::new();
    }
    isocountry::CountryCode::iter()
        .find(|c| c.name().eq_ignore_ascii_case(name))
        .map_or_else(|| name.to_string(), |c| c.alpha2().to_string())
}

/// A name from the request, shortened and quoted for an error message.
fn shown(name: &str) -> String {
    let short: String = name.chars().filter(|c| !c.is_control()).take(60).collect();
    format!("\"{short}\"")
}

/// A JSON value shortened for an error message.
fn short(value: &Value) -> String {
    shown(&value.to_string())
}

/// An engine's SQL for filters: how it reads a field and writes a value. The tree is walked once, in
/// `condition_sql`, for both engines.
pub(crate) trait Dialect {
    /// The SQL of a field's value in the row the condition is checked on.
    fn field(&mut self, field: &Field) -> String;
    /// A string value: bound as a parameter, or quoted by the engine's builder.
    fn text(&mut self, value: &str) -> String;
    /// Whether `haystack` contains `needle` (both SQL).
    fn contains(&self, haystack: &str, needle: &str) -> String;
}

/// The SQL condition of all of `exprs` ("1" when there are none).
pub(crate) fn condition_sql(exprs: &[Expr], dialect: &mut dyn Dialect) -> String {
    if exprs.is_empty() {
        return "1".to_string();
    }
    let parts: Vec<String> = exprs.iter().map(|e| expr_sql(e, dialect)).collect();
    parts.join(" AND ")
}

fn expr_sql(expr: &Expr, dialect: &mut dyn Dialect) -> String {
    match expr {
        Expr::Condition(c) => comparison_sql(c, dialect),
        Expr::And(all) => format!("({})", all.iter().map(|e| expr_sql(e, dialect)).collect::<Vec<_>>().join(" AND ")),
        Expr::Or(all) => format!("({})", all.iter().map(|e| expr_sql(e, dialect)).collect::<Vec<_>>().join(" OR ")),
        Expr::Not(inner) => format!("(NOT {})", expr_sql(inner, dialect)),
    }
}

/// One condition: values compared as the engines' `lower` does (ASCII only, on both) when not case-sensitive.
fn comparison_sql(c: &Condition, dialect: &mut dyn Dialect) -> String {
    let mut field = dialect.field(&c.field);
    let value = |v: &String| if c.case_sensitive { v.clone() } else { v.to_ascii_lowercase() };
    if !c.case_sensitive {
        field = format!("lower({field})");
    }
    let any = match c.op {
        Op::Is | Op::IsNot => {
            let list: Vec<String> = c.values.iter().map(|v| dialect.text(&value(v))).collect();
            format!("{field} IN ({})", list.join(", "))
        }
        Op::Contains | Op::ContainsNot => {
            let mut parts = Vec::with_capacity(c.values.len());
            for v in &c.values {
                let needle = dialect.text(&value(v));
                parts.push(dialect.contains(&field, &needle));
            }
            format!("({})", parts.join(" OR "))
        }
    };
    match c.op {
        Op::Is | Op::Contains => format!("({any})"),
        Op::IsNot | Op::ContainsNot => format!("(NOT {any})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(raw: &str) -> Result<Filters> {
        Filters::parse(Some(raw))
    }

    fn message(raw: &str) -> String {
        match parse(raw) {
            Err(Error::Invalid(m)) => m,
            other => panic!("{raw} should be refused, got {other:?}"),
        }
    }

    #[test]
    fn conditions_are_split_into_visit_and_event_ones() {
        let f = parse(r#"[["is","visit:source",["Google"]],["contains","event:page",["/blog"]]]"#).unwrap();
        assert_eq!(
            f.visit,
            vec![Expr::Condition(Condition {
                op: Op::Is,
                field: Field::Visit(VisitField::Source),
                values: vec!["Google".into()],
                case_sensitive: true
            })]
        );
        assert_eq!(f.event.len(), 1);
        assert_eq!(f.visit_fields(), vec![VisitField::Source]);
        assert!(parse("").unwrap().is_empty());
        assert!(parse("[]").unwrap().is_empty());
    }

    #[test]
    fn groups_nest_and_modifiers_are_read() {
        let f = parse(
            r#"[["or",[["is","visit:country",["DE"]],["not",["is","visit:device",["mobile"]]]]],
                ["is","event:props:plan",["pro"],{"case_sensitive":false}]]"#,
        )
        .unwrap();
        assert!(matches!(&f.visit[0], Expr::Or(all) if all.len() == 2));
        let Expr::Condition(c) = &f.event[0] else { panic!() };
        assert_eq!(c.field, Field::Prop("plan".into()));
        assert!(!c.case_sensitive);
    }

    #[test]
    fn report_names_of_empty_values_stand_for_empty() {
        let f = parse(r#"[["is","visit:source",["Direct / None"]],["is","visit:utm_medium",["(none)"]]]"#).unwrap();
        let values: Vec<_> = f
            .visit
            .iter()
            .map(|e| match e {
                Expr::Condition(c) => c.values[0].clone(),
                _ => panic!(),
            })
            .collect();
        assert_eq!(values, ["", ""]);
        let f = parse(r#"[["is","visit:country_name",["Estonia","United States of America","Atlantis"]]]"#).unwrap();
        let Expr::Condition(c) = &f.visit[0] else { panic!() };
        assert_eq!(
            (&c.field, c.values.as_slice()),
            (&Field::Visit(VisitField::Country), &["EE".to_string(), "US".into(), "Atlantis".into()][..])
        );
    }

    #[test]
    fn bad_filters_say_what_is_wrong() {
        assert!(message("{").contains("JSON array"));
        assert!(message(r#"{"a":1}"#).contains("JSON array"));
        assert!(message(r#"[["is","visit:nope",["x"]]]"#).contains("unknown filter dimension \"visit:nope\""));
        assert!(message(r#"[["like","event:page",["x"]]]"#).contains("unknown filter operator"));
        assert!(message(r#"[["matches","event:page",["x"]]]"#).contains("not supported"));
        assert!(message(r#"[["is","event:page",[]]]"#).contains("1 to 50 values"));
        assert!(message(r#"[["is","event:page",[true]]]"#).contains("strings or numbers"));
        assert!(message(r#"[["is","event:page","x"]]"#).contains("must be an array"));
        assert!(message(r#"[["or",[["is","event:page",["/"]],["is","visit:country",["DE"]]]]]"#).contains("mix"));
        assert!(message(r#"[["is","event:props:a\"b",["x"]]]"#).contains("without quotes"));
        assert!(message(r#"[["is","event:page",["x"],{"case_sensitive":1}]]"#).contains("true or false"));
        assert!(message(r#"[["not",["not",["not",["not",["is","event:page",["/"]]]]]]]"#).contains("deep"));
        let many = format!("[{}]", vec![r#"["is","event:page",["/"]]"#; 21].join(","));
        assert!(message(&many).contains("at most 20"));
    }

    /// A dialect that writes values inline, to read the SQL the walk builds.
    struct Plain;

    impl Dialect for Plain {
        fn field(&mut self, field: &Field) -> String {
            match field {
                Field::Visit(v) => v.name().to_string(),
                other => format!("{other:?}"),
            }
        }
        fn text(&mut self, value: &str) -> String {
            format!("'{value}'")
        }
        fn contains(&self, haystack: &str, needle: &str) -> String {
            format!("has({haystack}, {needle})")
        }
    }

    #[test]
    fn the_walk_writes_each_operator() {
        let f = parse(
            r#"[["is_not","visit:country",["DE","FR"]],["contains_not","visit:city",["Ber"],{"case_sensitive":false}],
                ["or",[["is","visit:device",["mobile"]],["not",["contains","visit:os",["Lin"]]]]]]"#,
        )
        .unwrap();
        assert_eq!(
            condition_sql(&f.visit, &mut Plain),
            "(NOT country IN ('DE', 'FR')) AND (NOT (has(lower(city), 'ber'))) AND \
             ((device IN ('mobile')) OR (NOT ((has(os, 'Lin')))))"
        );
        assert_eq!(condition_sql(&[], &mut Plain), "1");
    }
}
