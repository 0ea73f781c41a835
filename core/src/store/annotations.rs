//! Annotations (issue 37): dated notes on a site's chart, written by people (the dashboard, a `write` API key
//! from a deploy pipeline, `tracker annotate`) and by tracker itself when a traffic spike alert fires. This
//! service validates and decides; `meta::AnnotationStore` stores. Callers check the site's access first.

use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Serialize};

use crate::analytics::TimeRange;
use crate::error::{Error, Result};
use crate::model::{Millis, UserId, WebsiteId, now_ms, ser_iso};
use crate::store::meta::Meta;

/// Most annotations one site keeps: far beyond a release a day for a year, and a bound on what every chart
/// read carries.
pub const MAX_ANNOTATIONS: u32 = 1000;
/// Longest annotation text, in characters after trimming.
pub const MAX_ANNOTATION_CHARS: usize = 280;

/// Who wrote an annotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum AnnotationSource {
    /// A person through the API (a sign-in or an API key).
    User,
    /// The operator with `tracker annotate`.
    Cli,
    /// The traffic-spike alert.
    Spike,
}

impl AnnotationSource {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            AnnotationSource::User => "user",
            AnnotationSource::Cli => "cli",
            AnnotationSource::Spike => "spike",
        }
    }

    /// The source a stored name stands for.
    pub fn parse(text: &str) -> Option<AnnotationSource> {
        match text {
            "user" => Some(AnnotationSource::User),
            "cli" => Some(AnnotationSource::Cli),
            "spike" => Some(AnnotationSource::Spike),
            _ => None,
        }
    }
}

/// A stored annotation.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Annotation {
    pub id: i64,
    /// The day it marks, YYYY-MM-DD.
    pub date: String,
    pub text: String,
    pub source: AnnotationSource,
    /// The email of the account that wrote it; null for tracker's own and the operator's, or once that account
    /// is gone.
    pub created_by: Option<String>,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Millis,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: Millis,
}

/// What a chart needs of an annotation (the time series' `annotations`).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct AnnotationMark {
    pub id: i64,
    /// The day it marks, YYYY-MM-DD.
    pub date: String,
    pub text: String,
}

impl From<Annotation> for AnnotationMark {
    fn from(a: Annotation) -> AnnotationMark {
        AnnotationMark { id: a.id, date: a.date, text: a.text }
    }
}

/// The body of `POST` and `PUT /api/websites/{id}/annotations`.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnnotationRequest {
    /// The day it marks, YYYY-MM-DD.
    #[schema(example = "2026-11-20")]
    pub date: String,
    /// Trimmed, 1 to 280 characters, no control characters.
    #[schema(min_length = 1, max_length = 280)]
    pub text: String,
}

/// An annotation to store, validated.
pub struct NewAnnotation<'a> {
    pub day: &'a str,
    pub text: &'a str,
    pub source: AnnotationSource,
    pub created_by: Option<UserId>,
    pub at: Millis,
}

/// Annotations of websites (callers check access first).
#[derive(Clone)]
pub struct Annotations {
    meta: Meta,
}

impl Annotations {
    pub(crate) fn new(meta: Meta) -> Annotations {
        Annotations { meta }
    }

    /// A site's annotations on the days `range` touches (every one for `None`), by day then age.
    pub fn list(&self, site: WebsiteId, range: Option<TimeRange>) -> Result<Vec<Annotation>> {
        let days = range.map(days_of);
        self.meta.annotations(site, days.as_ref().map(|(a, b)| (a.as_str(), b.as_str())))
    }

    /// What the chart of `range` marks.
    pub fn marks(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<AnnotationMark>> {
        Ok(self.list(site, Some(range))?.into_iter().map(AnnotationMark::from).collect())
    }

    /// Writes an annotation for `by` (`None`: the operator's, from the CLI).
    pub fn create(&self, site: WebsiteId, by: Option<UserId>, request: &AnnotationRequest) -> Result<Annotation> {
        let day = day(&request.date)?;
        let text = text(&request.text)?;
        let source = if by.is_some() { AnnotationSource::User } else { AnnotationSource::Cli };
        let new = NewAnnotation { day: &day, text, source, created_by: by, at: now_ms() };
        self.meta.insert_annotation(site, &new, MAX_ANNOTATIONS, None)?.ok_or_else(too_many)
    }

    /// Changes an annotation's day and text; another site's id is not found.
    pub fn update(&self, site: WebsiteId, id: i64, request: &AnnotationRequest) -> Result<Annotation> {
        let day = day(&request.date)?;
        let text = text(&request.text)?;
        self.meta.update_annotation(site, id, &day, text, now_ms())?.ok_or(Error::NotFound("annotation"))
    }

    /// Deletes an annotation; another site's id is not found.
    pub fn delete(&self, site: WebsiteId, id: i64) -> Result<()> {
        if self.meta.delete_annotation(site, id)? { Ok(()) } else { Err(Error::NotFound("annotation")) }
    }
}

/// Marks a traffic spike found at `at` on the site's chart, once per spike: not when tracker marked one in the
/// `quiet_ms` before (the alert's quiet period), nor on a site full of annotations. Whether it was written.
pub(crate) fn mark_spike(meta: &Meta, site: WebsiteId, page_views: i64, at: Millis, quiet_ms: Millis) -> Result<bool> {
    let day = chrono::DateTime::from_timestamp_millis(at).unwrap_or_default().format("%Y-%m-%d").to_string();
    let text = format!("Traffic spike: {page_views} page views in the hour to {} UTC", hour_minute(at));
    let new = NewAnnotation { day: &day, text: &text, source: AnnotationSource::Spike, created_by: None, at };
    Ok(meta.insert_annotation(site, &new, MAX_ANNOTATIONS, Some(at - quiet_ms))?.is_some())
}

/// "14:05".
fn hour_minute(ms: Millis) -> String {
    chrono::DateTime::from_timestamp_millis(ms).unwrap_or_default().format("%H:%M").to_string()
}

/// The first and last local days (YYYY-MM-DD) of the range's timezone it touches.
fn days_of(range: TimeRange) -> (String, String) {
    let (first, last) = range.dates();
    (first.to_string(), last.to_string())
}

fn too_many() -> Error {
    Error::Conflict(format!("a site can have at most {MAX_ANNOTATIONS} annotations: delete some first"))
}

/// A day as exactly YYYY-MM-DD (so that stored days compare as text).
fn day(raw: &str) -> Result<String> {
    let raw = raw.trim();
    NaiveDate::parse_from_str(raw, "%Y-%m-%d")
        .ok()
        .filter(|d| (1970..=9999).contains(&d.year()))
        .map(|d| d.format("%Y-%m-%d").to_string())
        .filter(|d| d == raw)
        .ok_or_else(|| Error::invalid("date must be a day as YYYY-MM-DD"))
}

/// The trimmed text, 1 to 280 characters without control characters.
fn text(raw: &str) -> Result<&str> {
    let text = raw.trim();
    if text.is_empty() {
        return Err(Error::invalid("text is required"));
    }
    if text.chars().count() > MAX_ANNOTATION_CHARS {
        return Err(Error::invalid(format!("text may have at most {MAX_ANNOTATION_CHARS} characters")));
    }
    if text.chars().any(char::is_control) {
        return Err(Error::invalid("text may not hold control characters (line breaks included)"));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_exactly_iso_and_texts_are_one_trimmed_line() {
        assert_eq!(day(" 2026-11-05 ").unwrap(), "2026-11-05");
        for bad in ["2026-11-5", "2026-13-01", "2026-02-30", "05.11.2026", "", "1969-12-31", "2026-11-05T00:00"] {
            assert!(matches!(day(bad), Err(Error::Invalid(_))), "{bad:?}");
        }
        assert_eq!(text("  Release 2.0  ").unwrap(), "Release 2.0");
        assert_eq!(text(&"é".repeat(280)).unwrap().chars().count(), 280);
        for bad in ["", "   ", "a\nb", "tab\there", "nul\u{0}", &"x".repeat(281)] {
            assert!(matches!(text(bad), Err(Error::Invalid(_))), "{bad:?}");
        }
    }
}
