//! Saved segments (issue 36): a site's named sets of filters (Plausible's Stats API v2 syntax, as the
//! dashboard's URL holds them) that the filter bar applies in one pick. Filters are checked by the one filter
//! parser when saved, so a stored segment always applies. `meta::SegmentStore` stores; callers check the site's
//! access first and hand over the caller's role: any member saves, changes and deletes its own personal
//! segments, and a segment shared with the site needs an editor or above.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, Result};
use crate::events::Filters;
use crate::model::{Millis, Role, UserId, WebsiteId, now_ms, ser_iso};
use crate::store::meta::Meta;

/// Most segments one site keeps (the picker lists them all).
pub const MAX_SEGMENTS: u32 = 100;
/// Longest segment name, in characters after trimming.
pub const MAX_SEGMENT_NAME_CHARS: usize = 100;

/// A stored segment.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SavedSegment {
    pub id: i64,
    pub name: String,
    /// Stats API v2 filters, e.g. `[["is","visit:source",["Google"]]]` (API.md "Filters").
    #[schema(value_type = Vec<Value>)]
    pub filters: Value,
    /// The email of the account that saved it; null once that account is gone.
    pub created_by: Option<String>,
    /// Listed only to the account that saved it; shared with everyone on the site otherwise.
    pub personal: bool,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Millis,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: Millis,
}

/// The body of `POST` and `PUT /api/websites/{id}/segments`.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SegmentRequest {
    /// Trimmed, 1 to 100 characters, no control characters; unique on the site.
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    /// At least one filter, in the syntax every read's `filters` takes.
    #[schema(value_type = Vec<Value>)]
    pub filters: Value,
    /// Only for the account saving it (true) or shared with the site (false, the default on create; on update,
    /// absent keeps it, and only the account that saved it may change it).
    #[serde(default)]
    pub personal: Option<bool>,
}

/// A segment to store, validated: its name and its filters as JSON text.
pub struct NewSegment<'a> {
    pub name: &'a str,
    pub filters: &'a str,
    pub created_by: UserId,
    pub personal: bool,
    pub at: Millis,
}

/// A segment's new name and filters, validated, and its new visibility when asked (the saver's to change).
pub struct SegmentChange<'a> {
    pub name: &'a str,
    pub filters: &'a str,
    pub personal: Option<bool>,
    pub at: Millis,
}

/// Saved segments of websites (callers check access first).
#[derive(Clone)]
pub struct Segments {
    meta: Meta,
}

impl Segments {
    pub(crate) fn new(meta: Meta) -> Segments {
        Segments { meta }
    }

    /// A site's segments `viewer` may see (the shared ones and its own personal ones), oldest first.
    pub fn list(&self, site: WebsiteId, viewer: UserId) -> Result<Vec<SavedSegment>> {
        self.meta.segments(site, viewer)
    }

    /// Saves a segment as `by`, whose role on the site is `role`; a shared one needs an editor or above, and a
    /// name the site has already is a conflict.
    pub fn create(&self, site: WebsiteId, by: UserId, role: Role, request: &SegmentRequest) -> Result<SavedSegment> {
        let name = name(&request.name)?;
        let filters = filters(&request.filters)?;
        let personal = request.personal.unwrap_or(false);
        if !personal {
            may_share(role)?;
        }
        let new = NewSegment { name, filters: &filters, created_by: by, personal, at: now_ms() };
        self.meta.insert_segment(site, &new, MAX_SEGMENTS)?.ok_or_else(|| {
            Error::Conflict(format!("a site can have at most {MAX_SEGMENTS} segments: delete some first"))
        })
    }

    /// Renames a segment and replaces its filters (and who sees it, by the account that saved it); another
    /// site's id, or another account's personal segment, is not found; a shared one, or sharing one, needs an
    /// editor or above.
    pub fn update(
        &self,
        site: WebsiteId,
        id: i64,
        viewer: UserId,
        role: Role,
        request: &SegmentRequest,
    ) -> Result<SavedSegment> {
        let name = name(&request.name)?;
        let filters = filters(&request.filters)?;
        if request.personal == Some(false) {
            may_share(role)?;
        }
        let change = SegmentChange { name, filters: &filters, personal: request.personal, at: now_ms() };
        match self.meta.update_segment(site, id, viewer, role >= Role::Editor, &change)? {
            Some(segment) => Ok(segment),
            None => Err(self.refusal(site, id, viewer, role)),
        }
    }

    /// Deletes a segment; another site's id, or another account's personal segment, is not found; a shared one
    /// needs an editor or above.
    pub fn delete(&self, site: WebsiteId, id: i64, viewer: UserId, role: Role) -> Result<()> {
        match self.meta.delete_segment(site, id, viewer, role >= Role::Editor)? {
            true => Ok(()),
            false => Err(self.refusal(site, id, viewer, role)),
        }
    }

    /// Why a change of segment `id` touched nothing: a shared segment `viewer` sees but may not change is
    /// forbidden, anything else not found.
    fn refusal(&self, site: WebsiteId, id: i64, viewer: UserId, role: Role) -> Error {
        match self.meta.segments(site, viewer) {
            Ok(seen) if seen.iter().any(|s| s.id == id && !s.personal) => may_share(role).err(),
            Ok(_) => None,
            Err(e) => Some(e),
        }
        .unwrap_or(Error::NotFound("segment"))
    }
}

/// A segment shared with the site is saved, changed and deleted by editors and up.
fn may_share(role: Role) -> Result<()> {
    if role >= Role::Editor {
        return Ok(());
    }
    Err(Error::Forbidden(format!(
        "your role on this website is {}: a segment shared with the site needs editor or above (save it only for \
         yourself)",
        role.as_str()
    )))
}

/// The trimmed name, 1 to 100 characters without control characters.
fn name(raw: &str) -> Result<&str> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(Error::invalid("name is required"));
    }
    if name.chars().count() > MAX_SEGMENT_NAME_CHARS {
        return Err(Error::invalid(format!("name may have at most {MAX_SEGMENT_NAME_CHARS} characters")));
    }
    if name.chars().any(char::is_control) {
        return Err(Error::invalid("name may not hold control characters"));
    }
    Ok(name)
}

/// The filters as compact JSON text, once the filter parser has taken them; an empty list segments nothing.
fn filters(value: &Value) -> Result<String> {
    let parsed = Filters::from_json(value)?;
    if parsed.is_empty() {
        return Err(Error::invalid("filters must hold at least one filter"));
    }
    Ok(value.to_string())
}

/// A stored filter list read back (written by [`filters`], so always an array).
pub(crate) fn stored_filters(text: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| Error::Internal(format!("a stored segment's filters are not JSON: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_are_one_trimmed_line_and_filters_parse() {
        assert_eq!(name("  Google visitors ").unwrap(), "Google visitors");
        for bad in ["", "  ", "a\nb", &"x".repeat(101)] {
            assert!(matches!(name(bad), Err(Error::Invalid(_))), "{bad:?}");
        }
        let good = json!([["is", "visit:source", ["Google"]], ["contains", "event:page", ["/blog"]]]);
        assert_eq!(filters(&good).unwrap(), good.to_string());
        for bad in [json!([]), json!("x"), json!([["is", "visit:nope", ["a"]]]), json!([["like", "event:page", ["/"]]])]
        {
            assert!(matches!(filters(&bad), Err(Error::Invalid(_))), "{bad}");
        }
    }
}
