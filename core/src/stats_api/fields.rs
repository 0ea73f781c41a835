//! The Stats API's list fields: `order_by`, lists of names, and names quoted for error messages.

use serde_json::Value;

use super::{Dimension, DimensionKind, Metric, OrderKey};
use crate::error::{Error, Result};

/// `order_by`: `[[metric or dimension, "asc" | "desc"], ...]`; by default the first metric, most first, or
/// time in order when grouping by time.
pub(super) fn order_by(
    raw: Option<&Value>,
    metrics: &[Metric],
    dimensions: &[Dimension],
) -> Result<Vec<(OrderKey, bool)>> {
    let time = dimensions.iter().position(|d| matches!(d.kind, DimensionKind::Time(_)));
    let Some(raw) = raw else {
        return Ok(match time {
            Some(i) => vec![(OrderKey::Dimension(i), false)],
            None => vec![(OrderKey::Metric(0), true)],
        });
    };
    let bad = || Error::invalid("order_by must be [[metric or dimension, \"asc\" or \"desc\"], ...]");
    let list = raw.as_array().ok_or_else(bad)?;
    list.iter()
        .map(|item| {
            let [Value::String(name), Value::String(direction)] = item.as_array().ok_or_else(bad)?.as_slice() else {
                return Err(bad());
            };
            let descending = match direction.as_str() {
                "desc" => true,
                "asc" => false,
                _ => return Err(bad()),
            };
            if let Some(i) = metrics.iter().position(|m| m.name() == name) {
                return Ok((OrderKey::Metric(i), descending));
            }
            if let Some(i) = dimensions.iter().position(|d| d.name == *name) {
                return Ok((OrderKey::Dimension(i), descending));
            }
            Err(Error::invalid(format!("order_by: {} is neither a metric nor a dimension of the query", quoted(name))))
        })
        .collect()
}

/// A list of strings of the request.
pub(super) fn strings(raw: Option<&Value>, field: &str) -> Result<Vec<String>> {
    let list =
        raw.and_then(Value::as_array).ok_or_else(|| Error::invalid(format!("{field} must be a list of names")))?;
    if list.len() > 20 {
        return Err(Error::invalid(format!("{field}: at most 20")));
    }
    list.iter()
        .map(|v| {
            v.as_str().map(str::to_string).ok_or_else(|| Error::invalid(format!("{field} must be a list of names")))
        })
        .collect()
}

/// A name from the request, shortened and quoted for an error message.
pub(super) fn quoted(name: &str) -> String {
    format!("\"{}\"", name.chars().filter(|c| !c.is_control()).take(60).collect::<String>())
}
