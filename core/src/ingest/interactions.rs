//! `POST /api/interactions`: clicks, sampled mouse moves, form submits and scroll depth for heatmaps; the
//! body as sent by the scripts and its validation into `Interactions` for the writer.

use serde::Deserialize;

use super::hit::{Hit, parse_http_url, validate_session_id};
use crate::error::{Error, Result};
use crate::model::{Millis, Website};

/// Most clicks, moves and submits in one body (API.md).
pub const MAX_CLICKS: usize = 200;
pub const MAX_MOVES: usize = 500;
pub const MAX_SUBMITS: usize = 50;
pub const MAX_FIELD_EVENTS: usize = 200;
/// Longest CSS selector kept.
pub const MAX_SELECTOR_LEN: usize = 500;
/// Largest page or viewport side accepted, in CSS pixels.
pub const MAX_PAGE_SIDE: f64 = 1_000_000.0;

/// A width and height in CSS pixels.
#[derive(Debug, Clone, Copy, Deserialize, utoipa::ToSchema)]
pub struct Size {
    pub w: f64,
    pub h: f64,
}

/// A click as sent: page-relative position, the target's selector, where inside the target (fractions of
/// its box, 0..1) and when (Unix ms).
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct ClickIn {
    pub x: f64,
    pub y: f64,
    #[serde(default)]
    pub selector: Option<String>,
    #[serde(default)]
    pub ox: Option<f64>,
    #[serde(default)]
    pub oy: Option<f64>,
    #[serde(default)]
    pub t: Option<i64>,
}

/// A sampled mouse position.
#[derive(Debug, Clone, Copy, Deserialize, utoipa::ToSchema)]
pub struct MoveIn {
    pub x: f64,
    pub y: f64,
}

/// A form submitted on the page: the form's selector and when.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct SubmitIn {
    #[serde(default)]
    pub selector: Option<String>,
    #[serde(default)]
    pub t: Option<i64>,
}

/// A form field's focus, blur or change: the form's and the field's selectors, whether the field then held
/// a value, and when. Never the value.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct FieldIn {
    #[serde(default)]
    pub form: Option<String>,
    pub field: String,
    /// "focus", "blur" or "change".
    pub event: String,
    #[serde(default)]
    pub filled: bool,
    #[serde(default)]
    pub t: Option<i64>,
}

/// The body of `POST /api/interactions`.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct InteractionsRequest {
    pub tracking_key: String,
    pub session_id: String,
    pub url: String,
    pub viewport: Size,
    pub page: Size,
    #[serde(default)]
    pub clicks: Vec<ClickIn>,
    #[serde(default)]
    pub moves: Vec<MoveIn>,
    #[serde(default)]
    pub submits: Vec<SubmitIn>,
    #[serde(default)]
    pub fields: Vec<FieldIn>,
    #[serde(default, rename = "scrollDepth")]
    pub scroll_depth: Option<f64>,
}

/// What a heatmap point records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointKind {
    Click,
    Move,
    Submit,
}

impl PointKind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            PointKind::Click => "click",
            PointKind::Move => "move",
            PointKind::Submit => "submit",
        }
    }
}

/// One validated point, in whole page pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub kind: PointKind,
    pub x: i64,
    pub y: i64,
    pub ts: Millis,
    pub selector: String,
    /// Where inside the clicked element, as fractions of its box (clicks that sent it).
    pub offset: Option<(f64, f64)>,
}

/// What a form-field event records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    Focus,
    Blur,
    Change,
}

impl FieldKind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            FieldKind::Focus => "focus",
            FieldKind::Blur => "blur",
            FieldKind::Change => "change",
        }
    }
}

/// One validated form-field event.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldEvent {
    pub kind: FieldKind,
    pub form: String,
    pub field: String,
    pub filled: bool,
    pub ts: Millis,
}

/// A validated interactions body; `visit` carries the site, session, page and (after enrichment) who.
#[derive(Debug, Clone)]
pub struct Interactions {
    pub visit: Hit,
    pub viewport: (i64, i64),
    pub page: (i64, i64),
    pub points: Vec<Point>,
    pub fields: Vec<FieldEvent>,
    pub scroll_depth: Option<i64>,
}

impl Interactions {
    /// Validates a request for `site` at server time `now`.
    pub fn from_request(request: InteractionsRequest, site: &Website, now: Millis) -> Result<Self> {
        let session_key = validate_session_id(&request.session_id)?;
        let url = parse_http_url("url", &request.url)?.ok_or_else(|| Error::invalid("url is required"))?;
        if request.clicks.len() > MAX_CLICKS {
            return Err(Error::TooLarge("at most 200 clicks per body".into()));
        }
        if request.moves.len() > MAX_MOVES {
            return Err(Error::TooLarge("at most 500 moves per body".into()));
        }
        if request.submits.len() > MAX_SUBMITS {
            return Err(Error::TooLarge("at most 50 submits per body".into()));
        }
        if request.fields.len() > MAX_FIELD_EVENTS {
            return Err(Error::TooLarge("at most 200 field events per body".into()));
        }
        let viewport = size("viewport", request.viewport)?;
        let page = size("page", request.page)?;
        let scroll_depth = match request.scroll_depth {
            None => None,
            Some(d) if d.is_finite() && (0.0..=100.0).contains(&d) => Some(d.round() as i64),
            Some(_) => return Err(Error::invalid("scrollDepth must be between 0 and 100")),
        };
        let mut points = Vec::with_capacity(request.clicks.len() + request.moves.len());
        for click in request.clicks {
            let selector = selector_of(click.selector)?;
            points.push(Point {
                kind: PointKind::Click,
                x: coordinate("clicks x", click.x, page.0)?,
                y: coordinate("clicks y", click.y, page.1)?,
                ts: super::accept_timestamp(click.t, now),
                offset: offset(click.ox, click.oy)?,
                selector,
            });
        }
        for m in request.moves {
            points.push(Point {
                kind: PointKind::Move,
                x: coordinate("moves x", m.x, page.0)?,
                y: coordinate("moves y", m.y, page.1)?,
                ts: now,
                selector: String::new(),
                offset: None,
            });
        }
        for submit in request.submits {
            points.push(Point {
                kind: PointKind::Submit,
                x: 0,
                y: 0,
                ts: super::accept_timestamp(submit.t, now),
                selector: selector_of(submit.selector)?,
                offset: None,
            });
        }
        let mut fields = Vec::with_capacity(request.fields.len());
        for f in request.fields {
            let kind = match f.event.as_str() {
                "focus" => FieldKind::Focus,
                "blur" => FieldKind::Blur,
                "change" => FieldKind::Change,
                _ => return Err(Error::invalid("fields event must be focus, blur or change")),
            };
            let field = selector_of(Some(f.field))?;
            if field.is_empty() {
                return Err(Error::invalid("fields field is required"));
            }
            fields.push(FieldEvent {
                kind,
                form: selector_of(f.form)?,
                field,
                filled: f.filled,
                ts: super::accept_timestamp(f.t, now),
            });
        }
        let visit = Hit {
            website_id: site.id,
            session_key,
            ts: now,
            path: url.path().to_string(),
            url: url.to_string(),
            ..Hit::default()
        };
        Ok(Interactions { visit, viewport, page, points, fields, scroll_depth })
    }

    /// Nothing to store.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty() && self.fields.is_empty() && self.scroll_depth.is_none()
    }
}

fn size(field: &str, size: Size) -> Result<(i64, i64)> {
    let ok = |v: f64| v.is_finite() && (1.0..=MAX_PAGE_SIDE).contains(&v);
    if !ok(size.w) || !ok(size.h) {
        return Err(Error::invalid(format!("{field}.w and {field}.h must be between 1 and 1000000")));
    }
    Ok((size.w.round() as i64, size.h.round() as i64))
}

/// A page coordinate: non-negative and finite; positions a little past the page edge (late layout) are
/// clamped onto it.
fn coordinate(field: &str, v: f64, limit: i64) -> Result<i64> {
    if !v.is_finite() || !(0.0..=MAX_PAGE_SIDE).contains(&v) {
        return Err(Error::invalid(format!("{field} must be between 0 and the page size")));
    }
    Ok((v.round() as i64).min(limit))
}

/// A click's place inside its element: both fractions or neither, each within 0..1.
fn offset(ox: Option<f64>, oy: Option<f64>) -> Result<Option<(f64, f64)>> {
    let fraction = |v: f64| v.is_finite() && (0.0..=1.0).contains(&v);
    match (ox, oy) {
        (None, None) => Ok(None),
        (Some(x), Some(y)) if fraction(x) && fraction(y) => Ok(Some((x, y))),
        _ => Err(Error::invalid("clicks ox and oy must both be between 0 and 1")),
    }
}

fn selector_of(raw: Option<String>) -> Result<String> {
    let selector = raw.unwrap_or_default().trim().to_string();
    if selector.chars().count() > MAX_SELECTOR_LEN {
        return Err(Error::invalid("selector must be at most 500 characters"));
    }
    if selector.chars().any(char::is_control) {
        return Err(Error::invalid("selector must not contain control characters"));
    }
    Ok(selector)
}
