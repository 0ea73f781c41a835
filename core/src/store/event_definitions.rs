//! Event definitions: named events a site owner defines (by CSS selector for clicks and submits); the
//! tracking scripts fetch the active ones with their config.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId, now_ms, ser_iso};
use crate::store::meta::{Meta, NewDefinition};

/// Longest selector accepted.
pub const MAX_SELECTOR_LEN: usize = 500;
/// Most definitions one site may have.
pub const MAX_DEFINITIONS: i64 = 500;

/// An event definition (spec part 2 §3).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventDefinition {
    pub id: i64,
    pub name: String,
    pub display_name: String,
    pub description: String,
    pub event_type: String,
    pub selector: String,
    pub is_conversion: bool,
    /// Numeric text such as "49.99", or null.
    pub conversion_value: Option<String>,
    pub is_active: bool,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Millis,
}

/// The body of `POST /api/websites/{id}/event-definitions`. `conversionValue` may be a number or numeric
/// text.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NewEventDefinition {
    pub name: Option<String>,
    pub display_name: Option<String>,
    pub description: Option<String>,
    pub event_type: Option<String>,
    pub selector: Option<String>,
    pub is_conversion: Option<bool>,
    pub conversion_value: Option<serde_json::Value>,
    pub is_active: Option<bool>,
}

/// What a script needs of an active definition.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActiveDefinition {
    pub id: i64,
    pub name: String,
    pub event_type: String,
    pub selector: String,
    pub is_conversion: bool,
    pub conversion_value: Option<String>,
}

/// Event definitions of websites (callers check ownership first).
#[derive(Clone)]
pub struct EventDefinitions {
    meta: Meta,
}

impl EventDefinitions {
    pub(crate) fn new(meta: Meta) -> EventDefinitions {
        EventDefinitions { meta }
    }

    /// A site's definitions, newest first.
    pub fn list(&self, site: WebsiteId) -> Result<Vec<EventDefinition>> {
        self.meta.definitions(site)
    }

    /// The active definitions of a site, for the tracking scripts' config.
    pub fn active(&self, site: WebsiteId) -> Result<Vec<ActiveDefinition>> {
        Ok(self
            .list(site)?
            .into_iter()
            .filter(|d| d.is_active)
            .map(|d| ActiveDefinition {
                id: d.id,
                name: d.name,
                event_type: d.event_type,
                selector: d.selector,
                is_conversion: d.is_conversion,
                conversion_value: d.conversion_value,
            })
            .collect())
    }

    /// Validates and stores a definition; a name already defined on the site is a conflict.
    pub fn create(&self, site: WebsiteId, new: NewEventDefinition) -> Result<EventDefinition> {
        let def = validate(new)?;
        let created_at = now_ms();
        match self.meta.insert_definition(site, &EventDefinition { created_at, ..def.clone() }, MAX_DEFINITIONS)? {
            NewDefinition::Stored(id) => Ok(EventDefinition { id, created_at, ..def }),
            NewDefinition::TooMany => Err(Error::invalid("a website can have at most 500 event definitions")),
            NewDefinition::NameTaken => Err(Error::Conflict(format!("an event named {} is already defined", def.name))),
        }
    }

    /// One definition of a site; another site's id is not found.
    pub fn get(&self, site: WebsiteId, id: i64) -> Result<EventDefinition> {
        self.meta.definition(site, id)?.ok_or(Error::NotFound("event definition"))
    }

    /// Changes the fields `changes` carries (absent ones keep their value), validated as a whole as on
    /// create; renaming onto a name already defined on the site is a conflict.
    pub fn update(&self, site: WebsiteId, id: i64, changes: NewEventDefinition) -> Result<EventDefinition> {
        let old = self.get(site, id)?;
        let is_conversion = changes.is_conversion.unwrap_or(old.is_conversion);
        let merged = NewEventDefinition {
            name: Some(changes.name.unwrap_or(old.name)),
            display_name: Some(changes.display_name.unwrap_or(old.display_name)),
            description: Some(changes.description.unwrap_or(old.description)),
            event_type: Some(changes.event_type.unwrap_or(old.event_type)),
            selector: Some(changes.selector.unwrap_or(old.selector)),
            is_conversion: Some(is_conversion),
            conversion_value: changes.conversion_value.or(old.conversion_value.map(serde_json::Value::String)),
            is_active: Some(changes.is_active.unwrap_or(old.is_active)),
        };
        let def = validate(merged)?;
        if !self.meta.update_definition(site, id, &def)? {
            // The row was there a moment ago, so nothing changed because the new name is taken.
            return Err(Error::Conflict(format!("an event named {} is already defined", def.name)));
        }
        Ok(EventDefinition { id, created_at: old.created_at, ..def })
    }

    /// Deletes a definition of a site; another site's id is not found.
    pub fn delete(&self, site: WebsiteId, id: i64) -> Result<()> {
        if self.meta.delete_definition(site, id)? { Ok(()) } else { Err(Error::NotFound("event definition")) }
    }
}

/// Checks every field and returns the definition to store (id and time still unset).
fn validate(new: NewEventDefinition) -> Result<EventDefinition> {
    let name = new.name.unwrap_or_default().trim().to_string();
    let display_name = new.display_name.unwrap_or_default().trim().to_string();
    if name.is_empty() || display_name.is_empty() {
        return Err(Error::invalid("Please fill in the event name and display name."));
    }
    if name.chars().count() > 100 {
        return Err(Error::invalid("name must be at most 100 characters"));
    }
    if name.chars().any(char::is_control) {
        return Err(Error::invalid("name must not contain control characters"));
    }
    if display_name.chars().count() > 200 {
        return Err(Error::invalid("displayName must be at most 200 characters"));
    }
    crate::model::check_line("displayName", &display_name)?;
    let description = new.description.unwrap_or_default().trim().to_string();
    if description.chars().count() > 1000 {
        return Err(Error::invalid("description must be at most 1000 characters"));
    }
    crate::model::check_text("description", &description)?;
    let event_type = new.event_type.unwrap_or_else(|| "custom".into());
    if !matches!(event_type.as_str(), "click" | "submit" | "pageview" | "custom") {
        return Err(Error::invalid("eventType must be click, submit, pageview or custom"));
    }
    let selector = new.selector.unwrap_or_default().trim().to_string();
    if matches!(event_type.as_str(), "click" | "submit") && selector.is_empty() {
        return Err(Error::invalid("selector is required for click and submit events"));
    }
    if !selector.is_empty() {
        check_selector(&selector)?;
    }
    let is_conversion = new.is_conversion.unwrap_or(false);
    let conversion_value = if is_conversion { conversion_value(new.conversion_value)? } else { None };
    Ok(EventDefinition {
        id: 0,
        name,
        display_name,
        description,
        event_type,
        selector,
        is_conversion,
        conversion_value,
        is_active: new.is_active.unwrap_or(true),
        created_at: 0,
    })
}

/// Numeric text of at most 1e12 (a number is accepted too); empty is none.
fn conversion_value(raw: Option<serde_json::Value>) -> Result<Option<String>> {
    let text = match raw {
        None | Some(serde_json::Value::Null) => return Ok(None),
        Some(serde_json::Value::Number(n)) => n.to_string(),
        Some(serde_json::Value::String(s)) => s.trim().to_string(),
        Some(_) => return Err(Error::invalid("conversionValue must be a number")),
    };
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.0..=1e12).contains(&v) && text.len() <= 20 => Ok(Some(text)),
        _ => Err(Error::invalid("conversionValue must be a number between 0 and 1000000000000")),
    }
}

/// A plausible CSS selector: at most 500 characters, no rule or markup syntax, balanced brackets and
/// quotes. The browser is the final judge; this keeps junk and injection attempts out of the scripts.
pub fn check_selector(selector: &str) -> Result<()> {
    let bad = || Error::invalid("selector must be a valid CSS selector");
    if selector.chars().count() > MAX_SELECTOR_LEN {
        return Err(Error::invalid("selector must be at most 500 characters"));
    }
    if selector.chars().any(|c| c.is_control() || matches!(c, '{' | '}' | '<' | ';' | '\\')) {
        return Err(bad());
    }
    let mut stack = Vec::new();
    let mut quote: Option<char> = None;
    for c in selector.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[' | '(') => stack.push(c),
            (None, ']') if stack.pop() != Some('[') => return Err(bad()),
            (None, ')') if stack.pop() != Some('(') => return Err(bad()),
            _ => {}
        }
    }
    if quote.is_some() || !stack.is_empty() {
        return Err(bad());
    }
    let first = selector.chars().next().unwrap_or(' ');
    let last = selector.chars().last().unwrap_or(' ');
    if matches!(first, '>' | '+' | '~' | ',') || matches!(last, '>' | '+' | '~' | ',') {
        return Err(bad());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors() {
        for ok in [
            "#buy",
            "button.primary",
            "form#signup > button[type=\"submit\"]",
            "a[href^='/pricing']:not(.x)",
            "ul li:nth-child(2n+1)",
        ] {
            assert!(check_selector(ok).is_ok(), "{ok}");
        }
        for bad in ["div { color: red }", "<script>", "a[href", "a)", "\"x", "> a", "a,", "a; b"] {
            assert!(check_selector(bad).is_err(), "{bad}");
        }
        assert!(check_selector(&"a".repeat(501)).is_err());
    }

    #[test]
    fn definitions_need_names_and_selectors() {
        let base = NewEventDefinition {
            name: Some("buy".into()),
            display_name: Some("Buy".into()),
            event_type: Some("click".into()),
            selector: Some("#buy".into()),
            ..Default::default()
        };
        assert!(validate(base.clone()).is_ok());
        assert!(validate(NewEventDefinition { selector: None, ..base.clone() }).is_err());
        assert!(validate(NewEventDefinition { display_name: Some(" ".into()), ..base.clone() }).is_err());
        let def = validate(NewEventDefinition {
            is_conversion: Some(true),
            conversion_value: Some(serde_json::json!(12.5)),
            ..base.clone()
        })
        .unwrap();
        assert_eq!(def.conversion_value.as_deref(), Some("12.5"));
        assert!(
            validate(NewEventDefinition {
                is_conversion: Some(true),
                conversion_value: Some(serde_json::json!("abc")),
                ..base
            })
            .is_err()
        );
    }
}
