//! Conversion funnels: a site owner's named, ordered steps (spec part 2 "Conversion Funnels", §3, §5) and
//! their per-step figures for a time range. Called by the daemon's /api/funnels routes. The definitions are
//! metadata (`store::meta::FunnelStore`); the figures come from the events store (`events::PathReads`).

use serde::{Deserialize, Serialize};

use crate::analytics::TimeRange;
use crate::analytics::funnels::StepPattern;
use crate::error::{Error, Result};
use crate::events::{Events, Filters};
use crate::model::{Caller, Millis, UserId, WebsiteId, now_ms, ser_iso};
use crate::store::meta::{FunnelChanges, FunnelRow, FunnelStepDef, Meta, NewFunnel};
use crate::store::websites::Websites;

/// The fewest steps a funnel may have (spec §9).
pub const MIN_STEPS: usize = 2;
/// The most steps a funnel may have (each is tested against every event of the range).
pub const MAX_STEPS: usize = 20;
/// The most funnels one account may have.
pub const MAX_FUNNELS: i64 = 200;
const MAX_NAME_CHARS: usize = 200;
const MAX_URL_CHARS: usize = 2000;
/// The longest path pattern a step keeps (what is left of its URL). Matching is linear in it (and it goes into
/// ClickHouse's SQL once per step), but no page needs more.
pub const MAX_PATTERN_CHARS: usize = 500;

/// The body of `POST /api/funnels` and `PUT /api/funnels/{id}` (on PUT an absent field keeps its value).
/// `websiteId` may be a number or numeric text.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FunnelInput {
    pub name: Option<String>,
    pub website_id: Option<serde_json::Value>,
    pub steps: Option<Vec<StepInput>>,
    pub status: Option<String>,
}

/// A step as the dialog sends it.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StepInput {
    pub name: Option<String>,
    pub url: Option<String>,
    pub event_name: Option<String>,
}

/// The site a funnel is on, as the list shows it.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct FunnelWebsite {
    pub name: String,
}

/// A funnel with its figures for the requested range (spec §3 "Funnel").
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Funnel {
    pub id: i64,
    pub name: String,
    pub website_id: WebsiteId,
    pub website: FunnelWebsite,
    pub status: String,
    #[schema(value_type = String, format = DateTime)]
    #[serde(serialize_with = "ser_iso")]
    pub created_at: Millis,
    pub steps: Vec<FunnelStep>,
    /// Visits that reached step 1.
    pub total_visitors: u64,
    /// Visits that reached the last step.
    pub total_conversions: u64,
    /// total_conversions / total_visitors, in percent.
    pub overall_conversion_rate: f64,
    /// The same figure under the spec's second name.
    pub conversion_rate: f64,
    /// The figures are not counted yet (all 0): an edit of the steps or site answers before counting the
    /// range's raw events again, which the next list or read does.
    pub figures_pending: bool,
}

/// One step with its figures (spec §3 "Funnel step").
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FunnelStep {
    pub name: String,
    pub url: String,
    pub event_name: Option<String>,
    /// Visits that reached this step (after the steps before it, in order).
    pub visitors: u64,
    /// Of those, the visits that went on to the next step (the last step: all of them).
    pub conversions: u64,
    /// conversions / visitors in percent (0 without visitors).
    pub conversion_rate: f64,
    /// 100 - conversion_rate (0 without visitors).
    pub drop_off_rate: f64,
}

/// The most drop-off visits listed per step.
pub const MAX_DROP_OFFS: usize = 100;

/// The answer of `GET /api/funnels/{id}/drop-offs`: per step but the last, the visits that reached it and
/// not the next step, newest first.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FunnelDropOffs {
    pub funnel_id: i64,
    pub website_id: WebsiteId,
    pub steps: Vec<StepDropOffs>,
}

/// The visits that stopped at one step.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StepDropOffs {
    /// 1-based.
    pub step: u32,
    pub name: String,
    /// Visits of the range that reached this step and not the next (all of them, not only those listed).
    pub dropped_off: u64,
    /// The newest of them, at most `limit`.
    pub visits: Vec<DropOffVisit>,
}

/// A visit that dropped off, with what its links need.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DropOffVisit {
    /// The session's id (as the visitor stream's journey and the visit detail take it).
    pub id: i64,
    /// The client's session id.
    pub session_id: String,
    #[schema(value_type = String, format = DateTime)]
    #[serde(serialize_with = "ser_iso")]
    pub started_at: Millis,
    /// Seconds from the first to the last hit.
    pub duration: i64,
    pub page_views: i64,
    /// The last page viewed.
    pub exit_page: String,
    pub country: String,
    pub device: String,
    /// The visit's recording, when one exists.
    pub replay_id: Option<i64>,
}

/// Funnels of all accounts; every call names the user and sees only that user's funnels.
#[derive(Clone)]
pub struct Funnels {
    meta: Meta,
    /// Where the figures are counted.
    events: Events,
    /// Who may change a site's funnels (an editor and up).
    websites: Websites,
}

impl Funnels {
    pub(crate) fn new(meta: Meta, events: Events, websites: Websites) -> Funnels {
        Funnels { meta, events, websites }
    }

    /// The user's funnels (of one site when `site` is set), newest first, with figures for `range` of the visits
    /// `filters` admit. Another user's site is not found.
    pub fn list(
        &self,
        user: UserId,
        site: Option<WebsiteId>,
        range: TimeRange,
        filters: &Filters,
    ) -> Result<Vec<Funnel>> {
        if let Some(site) = site {
            self.websites.get(user, site)?;
        }
        let rows = self.meta.funnels(user, site, None)?;
        self.with_figures(rows, range, filters)
    }

    /// One of the user's funnels with figures for `range` of the visits `filters` admit; another user's is not
    /// found.
    pub fn get(&self, user: UserId, id: i64, range: TimeRange, filters: &Filters) -> Result<Funnel> {
        let row = self.meta.funnels(user, None, Some(id))?.pop().ok_or(Error::NotFound("funnel"))?;
        let counts = self.counted(std::slice::from_ref(&row), range, filters)?.pop().unwrap_or_default();
        Ok(funnel(row, &counts))
    }

    /// One of the user's funnels as defined, its figures pending (see [`Funnel::figures_pending`]); another
    /// user's is not found.
    pub fn pending(&self, user: UserId, id: i64) -> Result<Funnel> {
        let mut rows = self.meta.funnels(user, None, Some(id))?;
        if rows.is_empty() {
            return Err(Error::NotFound("funnel"));
        }
        Ok(Funnel { figures_pending: true, ..funnel(rows.remove(0), &[]) })
    }

    /// Per step but the last, the newest visits of `range` that `filters` admit (at most `limit`) that reached
    /// it and not the next one. Another user's funnel is not found.
    pub fn drop_offs(
        &self,
        user: UserId,
        id: i64,
        range: TimeRange,
        filters: &Filters,
        limit: usize,
    ) -> Result<FunnelDropOffs> {
        let funnel = self.get(user, id, range, filters)?;
        let patterns: Vec<StepPattern> =
            funnel.steps.iter().map(|s| StepPattern { url: s.url.clone(), event_name: s.event_name.clone() }).collect();
        let dropped: Vec<u64> = funnel.steps.iter().map(|s| s.visitors - s.conversions).collect();
        let limit = limit.min(MAX_DROP_OFFS);
        let found = self.events.funnel_drop_offs(funnel.website_id, &patterns, range, filters, limit, &dropped)?;
        let steps = found
            .into_iter()
            .enumerate()
            .map(|(n, visits)| StepDropOffs {
                step: n as u32 + 1,
                name: funnel.steps[n].name.clone(),
                dropped_off: dropped[n],
                visits,
            })
            .collect();
        Ok(FunnelDropOffs { funnel_id: funnel.id, website_id: funnel.website_id, steps })
    }

    /// Validates and stores a new funnel (status active unless given); returns its id.
    pub fn create(&self, caller: impl Into<Caller>, input: FunnelInput) -> Result<i64> {
        let name = check_name(input.name.as_deref())?;
        let website_id = check_website(input.website_id.as_ref())?;
        let site = self.websites.get(caller, website_id)?;
        let steps = check_steps(input.steps.as_deref())?;
        let status = check_status(input.status.as_deref())?;
        let new = NewFunnel { website_id, name: &name, status: &status, steps: &steps, created_at: now_ms() };
        self.meta.insert_funnel(site.user_id, new, MAX_FUNNELS)
    }

    /// Validates and stores a new funnel and answers it with its figures for `range`, as one unit: when the
    /// figures cannot be counted the funnel is deleted again and the error answered, so a create that fails
    /// leaves no funnel behind.
    pub fn create_and_read(&self, caller: impl Into<Caller>, input: FunnelInput, range: TimeRange) -> Result<Funnel> {
        let caller = caller.into();
        let id = self.create(caller, input)?;
        self.get(caller.user, id, range, &Filters::none()).or_else(|e| {
            self.delete(caller, id)?;
            Err(e)
        })
    }

    /// Changes the fields present in `input` (same rules as on create); another user's funnel, or a site of
    /// another user named in the body, is not found. True when the figures went with the old steps or site
    /// (counting them again reads the range's raw events).
    pub fn update(&self, caller: impl Into<Caller>, id: i64, input: FunnelInput) -> Result<bool> {
        let caller = caller.into();
        let owner = self.site_owner(caller, id)?;
        let name = input.name.as_deref().map(|n| check_name(Some(n))).transpose()?;
        let site = match &input.website_id {
            None => None,
            Some(raw) => Some(check_website(Some(raw))?),
        };
        let steps = input.steps.as_deref().map(|s| check_steps(Some(s))).transpose()?;
        let status = input.status.as_deref().map(|s| check_status(Some(s))).transpose()?;
        let changes = FunnelChanges {
            website_id: site,
            name: name.as_deref(),
            status: status.as_deref(),
            steps: steps.as_deref(),
            updated_at: now_ms(),
        };
        if let Some(site) = site {
            self.websites.get(caller, site)?;
        }
        let old_site = self.meta.update_funnel(owner, id, changes)?;
        Ok(steps.is_some() || site.is_some_and(|s| s != old_site))
    }

    /// Deletes a funnel the caller may change; one of a site it cannot read is not found.
    pub fn delete(&self, caller: impl Into<Caller>, id: i64) -> Result<()> {
        let owner = self.site_owner(caller.into(), id)?;
        self.meta.delete_funnel(owner, id)
    }

    /// The owner of the funnel's site, once the caller's role on that site allows the call (a funnel of a site
    /// the caller cannot read is not found).
    fn site_owner(&self, caller: Caller, id: i64) -> Result<UserId> {
        let row = self.meta.funnels(caller.user, None, Some(id))?.pop().ok_or(Error::NotFound("funnel"))?;
        Ok(self.websites.get(caller, row.website_id)?.user_id)
    }

    /// Adds the figures, counted once per site for all of its funnels. A funnel whose figures cannot be
    /// counted is answered with them pending (and the cause logged) rather than failing the whole list.
    fn with_figures(&self, rows: Vec<FunnelRow>, range: TimeRange, filters: &Filters) -> Result<Vec<Funnel>> {
        let mut figures: Vec<Option<Vec<u64>>> = vec![None; rows.len()];
        for (site, of_site) in by_site(&rows) {
            let group: Vec<FunnelRow> = of_site.iter().map(|&i| rows[i].clone()).collect();
            match self.counted(&group, range, filters) {
                Ok(counts) => of_site.iter().zip(counts).for_each(|(&i, c)| figures[i] = Some(c)),
                // One funnel's failure is kept to that funnel: the others of the site are counted alone.
                Err(e) => {
                    tracing::error!(site, error = %e, "funnel figures of a site failed; counting each alone");
                    for &i in &of_site {
                        match self.counted(std::slice::from_ref(&rows[i]), range, filters) {
                            Ok(mut counts) => figures[i] = counts.pop(),
                            Err(e) => tracing::error!(funnel = rows[i].id, error = %e, "funnel figures failed"),
                        }
                    }
                }
            }
        }
        Ok(rows
            .into_iter()
            .zip(figures)
            .map(|(row, counts)| match counts {
                Some(counts) => funnel(row, &counts),
                None => Funnel { figures_pending: true, ..funnel(row, &[]) },
            })
            .collect())
    }

    /// The figures of funnels of one site over `range` of the visits `filters` admit, in their order.
    fn counted(&self, rows: &[FunnelRow], range: TimeRange, filters: &Filters) -> Result<Vec<Vec<u64>>> {
        let Some(site) = rows.first().map(|r| r.website_id) else { return Ok(Vec::new()) };
        let patterns: Vec<(i64, Vec<StepPattern>)> =
            rows.iter().map(|row| (row.id, row.steps.iter().map(StepPattern::of).collect())).collect();
        self.events.funnel_counts(site, &patterns, range, filters)
    }
}

/// The funnels' indexes grouped by site, sites in ascending order.
fn by_site(rows: &[FunnelRow]) -> Vec<(WebsiteId, Vec<usize>)> {
    let mut sites: Vec<WebsiteId> = rows.iter().map(|r| r.website_id).collect();
    sites.sort_unstable();
    sites.dedup();
    sites.into_iter().map(|site| (site, (0..rows.len()).filter(|&i| rows[i].website_id == site).collect())).collect()
}

/// Builds the answer from step definitions and the visits reaching each step.
fn funnel(row: FunnelRow, counts: &[u64]) -> Funnel {
    let count = |i: usize| counts.get(i).copied().unwrap_or(0);
    let last = row.steps.len().saturating_sub(1);
    let steps: Vec<FunnelStep> = row
        .steps
        .into_iter()
        .enumerate()
        .map(|(i, step)| {
            let visitors = count(i);
            let conversions = if i == last { visitors } else { count(i + 1) };
            let conversion_rate = percent(conversions, visitors);
            FunnelStep {
                name: step.name,
                url: step.url,
                event_name: step.event_name,
                visitors,
                conversions,
                conversion_rate,
                drop_off_rate: if visitors == 0 { 0.0 } else { 100.0 - conversion_rate },
            }
        })
        .collect();
    let total_visitors = count(0);
    let total_conversions = count(last);
    let rate = percent(total_conversions, total_visitors);
    Funnel {
        id: row.id,
        name: row.name,
        website_id: row.website_id,
        website: FunnelWebsite { name: row.website_name },
        status: row.status,
        created_at: row.created_at,
        steps,
        total_visitors,
        total_conversions,
        overall_conversion_rate: rate,
        conversion_rate: rate,
        figures_pending: false,
    }
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 * 100.0 / whole as f64 }
}

fn check_name(raw: Option<&str>) -> Result<String> {
    let name = raw.unwrap_or("").trim();
    if name.is_empty() {
        return Err(Error::invalid("Funnel name is required"));
    }
    if name.chars().count() > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(Error::invalid("Funnel name must be at most 200 characters, without control characters"));
    }
    Ok(name.to_string())
}

/// A website id from the body: missing, null or blank is required; anything else that is not an id is
/// simply not found (like another user's site).
fn check_website(raw: Option<&serde_json::Value>) -> Result<WebsiteId> {
    match raw {
        None | Some(serde_json::Value::Null) => Err(Error::invalid("Website is required")),
        Some(serde_json::Value::String(s)) if s.trim().is_empty() => Err(Error::invalid("Website is required")),
        Some(serde_json::Value::String(s)) => s.trim().parse().map_err(|_| Error::NotFound("website")),
        Some(serde_json::Value::Number(n)) => n.as_i64().ok_or(Error::NotFound("website")),
        Some(_) => Err(Error::NotFound("website")),
    }
}

fn check_steps(raw: Option<&[StepInput]>) -> Result<Vec<FunnelStepDef>> {
    let raw = raw.unwrap_or(&[]);
    if raw.len() < MIN_STEPS {
        return Err(Error::invalid("At least 2 steps are required"));
    }
    if raw.len() > MAX_STEPS {
        return Err(Error::invalid("A funnel can have at most 20 steps"));
    }
    raw.iter().map(check_step).collect()
}

fn check_step(step: &StepInput) -> Result<FunnelStepDef> {
    let name = step.name.as_deref().unwrap_or("").trim();
    if name.is_empty() {
        return Err(Error::invalid("Step name is required"));
    }
    if name.chars().count() > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(Error::invalid("Step name must be at most 200 characters, without control characters"));
    }
    let url = step_url(step.url.as_deref().unwrap_or(""))?;
    let event_name = step.event_name.as_deref().map(str::trim).filter(|e| !e.is_empty());
    if let Some(event) = event_name
        && (event.chars().count() > MAX_NAME_CHARS || event.chars().any(char::is_control))
    {
        return Err(Error::invalid("Event name must be at most 200 characters, without control characters"));
    }
    Ok(FunnelStepDef { name: name.to_string(), url, event_name: event_name.map(str::to_string) })
}

/// A step's URL as a path pattern: a full URL keeps its path; a bare "product" becomes "/product".
fn step_url(raw: &str) -> Result<String> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Err(Error::invalid("URL is required"));
    }
    if raw.chars().count() > MAX_URL_CHARS || raw.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(Error::invalid("URL must be a path such as /checkout (at most 2000 characters, no spaces)"));
    }
    let lower = raw.to_ascii_lowercase();
    let pattern = if lower.starts_with("http://") || lower.starts_with("https://") {
        // `*` is not valid in a host, so only the path of a full URL may carry wildcards.
        let parsed = url::Url::parse(raw).map_err(|_| Error::invalid("URL must be a path such as /checkout"))?;
        parsed.path().to_string()
    } else {
        let path = raw.split(['?', '#']).next().unwrap_or("");
        if path.starts_with('/') || path.starts_with('*') { path.to_string() } else { format!("/{path}") }
    };
    if pattern.chars().count() > MAX_PATTERN_CHARS {
        return Err(Error::invalid("URL path must be at most 500 characters"));
    }
    Ok(pattern)
}

/// active or paused; absent is active.
fn check_status(raw: Option<&str>) -> Result<String> {
    match raw.map(str::trim) {
        None | Some("") | Some("active") => Ok("active".into()),
        Some("paused") => Ok("paused".into()),
        Some(_) => Err(Error::invalid("status must be active or paused")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(n: usize) -> Vec<StepInput> {
        (0..n)
            .map(|i| StepInput { name: Some(format!("Step {i}")), url: Some(format!("/s{i}")), event_name: None })
            .collect()
    }

    #[test]
    fn validation_messages_follow_the_spec() {
        assert_eq!(check_name(Some("  ")).unwrap_err().to_string(), "Funnel name is required");
        assert_eq!(check_website(None).unwrap_err().to_string(), "Website is required");
        assert_eq!(check_website(Some(&serde_json::json!(""))).unwrap_err().to_string(), "Website is required");
        assert!(matches!(check_website(Some(&serde_json::json!("x"))), Err(Error::NotFound(_))));
        assert_eq!(check_steps(Some(&steps(1))).unwrap_err().to_string(), "At least 2 steps are required");
        let mut no_name = steps(2);
        no_name[1].name = Some(" ".into());
        assert_eq!(check_steps(Some(&no_name)).unwrap_err().to_string(), "Step name is required");
        let mut no_url = steps(2);
        no_url[0].url = None;
        assert_eq!(check_steps(Some(&no_url)).unwrap_err().to_string(), "URL is required");
        assert!(check_steps(Some(&steps(21))).is_err());
    }

    #[test]
    fn step_urls_become_path_patterns() {
        assert_eq!(step_url("/product").unwrap(), "/product");
        assert_eq!(step_url("product/*").unwrap(), "/product/*");
        assert_eq!(step_url("https://shop.example.com/checkout?x=1").unwrap(), "/checkout");
        assert_eq!(step_url("*").unwrap(), "*");
        assert_eq!(step_url("/a?b").unwrap(), "/a");
        assert!(step_url("/a b").is_err());
        assert!(step_url(&format!("/{}", "a".repeat(499))).is_ok());
        let long = step_url(&format!("/{}", "a".repeat(500))).unwrap_err().to_string();
        assert_eq!(long, "URL path must be at most 500 characters");
        assert!(step_url(&format!("https://x.example.com/a?{}", "q".repeat(1900))).is_ok(), "the query goes");
    }

    #[test]
    fn figures_from_counts() {
        let row = FunnelRow {
            id: 1,
            website_id: 1,
            website_name: "Shop".into(),
            name: "Checkout".into(),
            status: "active".into(),
            created_at: 0,
            steps: (0..4).map(|i| FunnelStepDef { name: format!("{i}"), url: "/".into(), event_name: None }).collect(),
        };
        let f = funnel(row, &[100, 60, 30, 12]);
        assert_eq!(f.total_visitors, 100);
        assert_eq!(f.total_conversions, 12);
        assert_eq!(f.overall_conversion_rate, 12.0);
        assert_eq!(f.steps[0].conversions, 60);
        assert_eq!(f.steps[0].conversion_rate, 60.0);
        assert_eq!(f.steps[1].drop_off_rate, 50.0);
        assert_eq!(f.steps[3].conversions, 12);
        assert_eq!(f.steps[3].drop_off_rate, 0.0);
    }
}
