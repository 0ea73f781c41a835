//! The Stats API's `total_revenue`: the values of the conversions a query admits, summed per row and currency by
//! the engine, shown as Plausible shows money (`{short, long, value, currency}`), or null with Plausible's
//! warning in `meta.metric_warnings` when there is nothing to add up, or several currencies that may not be added.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Value, json};

/// Per row (its dimension values), cents per currency.
pub(super) type RowRevenue = HashMap<Vec<Value>, BTreeMap<String, i64>>;

/// How a query's revenue is shown: every row in one currency, each row in its own (grouped by goal, whose
/// conversions may carry different currencies), or not at all, with why.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Currencies {
    One(String),
    PerRow,
    None(&'static str),
}

impl Currencies {
    /// Plausible's rule over the currencies of every row: none is no revenue goal matching; several are fine
    /// only when grouped by goal.
    pub(super) fn of(revenue: &RowRevenue, by_goal: bool) -> Currencies {
        let all: std::collections::BTreeSet<&String> = revenue.values().flat_map(|c| c.keys()).collect();
        match all.len() {
            0 => Currencies::None("no_revenue_goals_matching"),
            1 => Currencies::One(all.into_iter().next().expect("one currency").clone()),
            _ if by_goal => Currencies::PerRow,
            _ => Currencies::None("no_single_revenue_currency"),
        }
    }

    /// `meta.metric_warnings.total_revenue`, when the figures are null.
    pub(super) fn warning(&self) -> Option<Value> {
        let Currencies::None(code) = self else { return None };
        let warning = match *code {
            "no_single_revenue_currency" => {
                "Revenue metrics are null as there are multiple currencies for the selected event:goals."
            }
            _ => "Revenue metrics are null as there are no matching revenue goals.",
        };
        Some(json!({"code": code, "warning": warning}))
    }

    /// A row's revenue: its sum in the query's currency (0 without any), its own currency's when per row
    /// (null when it has none or several), or null.
    pub(super) fn value(&self, row: Option<&BTreeMap<String, i64>>) -> Value {
        match self {
            Currencies::One(currency) => money(row.and_then(|r| r.get(currency)).copied().unwrap_or(0), currency),
            Currencies::PerRow => match row.map(|r| r.iter().collect::<Vec<_>>()).as_deref() {
                Some([(currency, cents)]) => money(**cents, currency),
                _ => Value::Null,
            },
            Currencies::None(_) => Value::Null,
        }
    }
}

/// The revenue as a number, for ordering rows.
pub(super) fn number(value: &Value) -> Option<f64> {
    value.get("value").and_then(Value::as_f64)
}

/// Money as Plausible writes it: `{short: "€1.2K", long: "€1,234.50", value: 1234.5, currency: "EUR"}`; a value
/// sent without a currency has `currency` null and no sign.
fn money(cents: i64, currency: &str) -> Value {
    let sign = match currency {
        "USD" => "$".to_string(),
        "EUR" => "€".to_string(),
        "GBP" => "£".to_string(),
        "JPY" => "¥".to_string(),
        "" => String::new(),
        other => format!("{other} "),
    };
    let value = cents as f64 / 100.0;
    let whole = grouped_thousands(cents / 100);
    let long = format!("{sign}{whole}.{:02}", cents % 100);
    let short = match value {
        v if v >= 1e9 => format!("{sign}{:.1}B", v / 1e9),
        v if v >= 1e6 => format!("{sign}{:.1}M", v / 1e6),
        v if v >= 1e3 => format!("{sign}{:.1}K", v / 1e3),
        v => format!("{sign}{v:.1}"),
    };
    let currency = if currency.is_empty() { Value::Null } else { json!(currency) };
    json!({"short": short, "long": long, "value": value, "currency": currency})
}

/// `1234567` as `1,234,567`.
fn grouped_thousands(n: i64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_is_written_as_plausible_writes_it() {
        assert_eq!(
            money(123_450, "EUR"),
            json!({"short": "€1.2K", "long": "€1,234.50", "value": 1234.5, "currency": "EUR"})
        );
        assert_eq!(money(1025, "CHF")["long"], "CHF 10.25");
        assert_eq!(money(7, "")["currency"], Value::Null);
    }

    #[test]
    fn several_currencies_are_shown_only_per_goal() {
        let row = |pairs: &[(&str, i64)]| pairs.iter().map(|(c, n)| (c.to_string(), *n)).collect::<BTreeMap<_, _>>();
        let mut revenue = RowRevenue::new();
        revenue.insert(vec![json!("a")], row(&[("EUR", 100)]));
        revenue.insert(vec![json!("b")], row(&[("USD", 300)]));
        assert_eq!(Currencies::of(&revenue, false), Currencies::None("no_single_revenue_currency"));
        let per_goal = Currencies::of(&revenue, true);
        assert_eq!(per_goal.value(revenue.get(&vec![json!("b")]))["currency"], "USD");
        assert_eq!(Currencies::of(&RowRevenue::new(), false).warning().unwrap()["code"], "no_revenue_goals_matching");
        let one = Currencies::of(&HashMap::from([(vec![], row(&[("EUR", 5)]))]), false);
        assert_eq!(one.value(None)["value"], 0.0);
    }
}
