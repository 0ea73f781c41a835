//! One visitor's access and erasure in cluster mode (GDPR articles 15 and 17): their visits found on each shard
//! by the script's session id or the identify() id, exported in the shape SQLite's `Privacy::visitor_data`
//! gives, and erased: counted in the request, deleted on every shard by a deletion job (`privacy_jobs`), their
//! consent choices and recordings deleted in PostgreSQL in the request. Called by `Tracker::visitor_data` and
//! `Tracker::delete_visitor`.

use std::collections::{BTreeSet, HashMap};

use serde_json::{Value, json};

use super::Cluster;
use super::clickhouse::{Node, quote};
use super::ingest_state::IngestState;
use super::intent::{ScrollReport, page_view_depths};
use super::privacy_jobs::Work;
use super::visits::{DAY_MS, float, int, text};
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId, iso};
use crate::privacy::chunk_events;
use crate::privacy::{ConsentLog, VisitorDeletion};
use crate::store::meta::Metadata;

/// A visitor's visits on one shard (a visit's hits share its visitor hash, the sharding key, so each visit is
/// on one shard; a visitor's visits on different days may be on different ones).
struct ShardVisits {
    shard: usize,
    visit_ids: Vec<i64>,
}

impl ShardVisits {
    /// The visits as an SQL condition (integers parsed from the shard's answer).
    fn condition(&self, site: WebsiteId) -> String {
        let ids: Vec<String> = self.visit_ids.iter().map(i64::to_string).collect();
        format!("website_id = {site} AND visit_id IN ({})", ids.join(", "))
    }
}

/// A visitor's visits on every shard and the session ids they were made under.
struct Found {
    shards: Vec<ShardVisits>,
    /// The visitor id as given and each visit's session id: where their consent choices are logged.
    keys: Vec<String>,
}

impl Found {
    fn visit_count(&self) -> u64 {
        self.shards.iter().map(|s| s.visit_ids.len() as u64).sum()
    }

    /// Every visit's id, on whichever shard.
    fn visit_ids(&self) -> Vec<i64> {
        self.shards.iter().flat_map(|v| v.visit_ids.iter().copied()).collect()
    }
}

/// Whether a visit's latest identify() traits name the visitor as SQLite matches them (`id`, `userId` or
/// `email` equal to it as text).
fn traits_name(traits: &str, visitor: &str) -> bool {
    let Ok(Value::Object(traits)) = serde_json::from_str::<Value>(traits) else { return false };
    ["id", "userId", "email"].iter().any(|k| traits.get(*k).and_then(Value::as_str) == Some(visitor))
}

/// Stored JSON (properties, traits) as JSON, empty as null, as SQLite's export gives its NULL.
fn stored_json(text: String) -> Value {
    if text.is_empty() {
        return Value::Null;
    }
    serde_json::from_str(&text).unwrap_or(Value::String(text))
}

/// Text the sink stores empty for SQLite's NULL (addresses, currencies) as null.
fn optional(text: String) -> Value {
    if text.is_empty() { Value::Null } else { Value::String(text) }
}

/// A consent choice as SQLite's visitor export gives it (its booleans as 0 and 1).
fn consent_json(log: &ConsentLog) -> Value {
    json!({
        "sessionId": log.session_id,
        "timestamp": iso(log.timestamp),
        "consentType": log.consent_type.as_str(),
        "ipAddress": log.ip_address,
        "analytics": log.consent_data.analytics as i64,
        "marketing": log.consent_data.marketing as i64,
    })
}

impl Cluster {
    /// Finds a visitor's visits of a site on each shard, each asked alone (an unreachable shard is
    /// `Unavailable`, never a partial answer): by session id, and by the `id`, `userId` or `email` of each
    /// visit's latest identify() traits. Unlike SQLite, whose earlier visits under a session id are renamed
    /// `key~id` when a later one starts, every visit made under the session id matches.
    fn find(&self, site: WebsiteId, visitor: &str) -> Result<Found> {
        let db = self.events.database();
        // The traits are JSON as serde_json wrote them: the visitor's id appears in them as its JSON string.
        let as_json = serde_json::to_string(visitor).map_err(|e| Error::Internal(e.to_string()))?;
        let mut found = Found { shards: Vec::new(), keys: vec![visitor.to_string()] };
        let mut keys = BTreeSet::new();
        for (shard, node) in self.events.nodes().iter().enumerate() {
            let mut visits = BTreeSet::new();
            // Visits copied from a data folder keep the key SQLite gave a retired visit: `key~<its id>`.
            let by_key = node.query(&format!(
                "SELECT DISTINCT visit_id FROM {db}.hits_local
                 WHERE website_id = {site} AND visit_id != 0
                   AND (session_key = {key} OR session_key = concat({key}, '~', toString(visit_id)))",
                key = quote(visitor)
            ))?;
            for row in by_key {
                visits.insert(int(&row, 0)?);
            }
            let identified = node.query(&format!(
                "SELECT visit_id, any(session_key), argMax(properties, ts) AS latest FROM {db}.hits_local
                 WHERE website_id = {site} AND visit_id != 0 AND kind = 'identify'
                 GROUP BY visit_id HAVING position(latest, {}) > 0",
                quote(&as_json)
            ))?;
            for row in identified {
                if traits_name(&text(&row, 2)?, visitor) {
                    visits.insert(int(&row, 0)?);
                    keys.insert(text(&row, 1)?);
                }
            }
            if !visits.is_empty() {
                found.shards.push(ShardVisits { shard, visit_ids: visits.into_iter().collect() });
            }
        }
        keys.remove(visitor);
        found.keys.extend(keys);
        Ok(found)
    }

    fn node(&self, shard: usize) -> &Node {
        &self.events.nodes()[shard]
    }

    /// Everything the cluster stores about one visitor of a site, as `Privacy::visitor_data` answers on SQLite
    /// (visit and hit ids are the cluster's own). Callers check ownership and the site's rights first. `NotFound`
    /// when nothing matches.
    pub fn visitor_data(&self, meta: &dyn Metadata, site: WebsiteId, visitor: &str) -> Result<Value> {
        let found = self.find(site, visitor)?;
        let consents = meta.visitor_consents(site, &found.keys)?;
        if found.visit_count() == 0 && consents.is_empty() {
            return Err(Error::NotFound("visitor"));
        }
        let db = self.events.database();
        let mut sessions: Vec<(Millis, Value)> = Vec::new();
        let mut events: Vec<(Millis, Value)> = Vec::new();
        let mut heatmap = HeatmapData::default();
        for visits in &found.shards {
            let node = self.node(visits.shard);
            let condition = visits.condition(site);
            // A visit as SQLite's writer keeps it: the first hit's dimensions, the first and latest page viewed
            // (the first hit's path when it has none), events counting every hit but page views (and touches).
            let rows = node.query(&format!(
                "SELECT visit_id, any(session_key), min(ts), max(ts),
                    if(countIf(kind = 'pageview') > 0, argMinIf(path, ts, kind = 'pageview'), argMin(path, ts)),
                    if(countIf(kind = 'pageview') > 0, argMaxIf(path, ts, kind = 'pageview'), argMin(path, ts)),
                    countIf(kind = 'pageview'), countIf(kind NOT IN ('pageview', 'touch')),
                    argMin(country, ts), argMin(region, ts), argMin(city, ts), argMin(device, ts),
                    argMin(browser, ts), argMin(os, ts), argMin(referrer, ts), argMin(utm_source, ts),
                    argMin(utm_medium, ts), argMin(utm_campaign, ts), argMin(utm_term, ts),
                    argMin(utm_content, ts), argMin(screen, ts), argMin(ip_address, ts),
                    countIf(kind = 'conversion') > 0, sumIf(ifNull(value, 0), kind = 'conversion'),
                    argMaxIf(properties, ts, kind = 'identify')
                 FROM {db}.hits_local WHERE {condition} GROUP BY visit_id"
            ))?;
            for row in rows {
                let first = int(&row, 2)?;
                sessions.push((
                    first,
                    json!({
                        "id": int(&row, 0)?,
                        "sessionId": text(&row, 1)?,
                        "firstSeen": iso(first),
                        "lastSeen": iso(int(&row, 3)?),
                        "entryPage": text(&row, 4)?,
                        "exitPage": text(&row, 5)?,
                        "pageViews": int(&row, 6)?,
                        "events": int(&row, 7)?,
                        "country": text(&row, 8)?,
                        "region": text(&row, 9)?,
                        "city": text(&row, 10)?,
                        "device": text(&row, 11)?,
                        "browser": text(&row, 12)?,
                        "os": text(&row, 13)?,
                        "referrer": text(&row, 14)?,
                        "utmSource": text(&row, 15)?,
                        "utmMedium": text(&row, 16)?,
                        "utmCampaign": text(&row, 17)?,
                        "utmTerm": text(&row, 18)?,
                        "utmContent": text(&row, 19)?,
                        "screen": text(&row, 20)?,
                        "ipAddress": optional(text(&row, 21)?),
                        "isConverted": int(&row, 22)?,
                        "conversionValue": float(&row, 23)?,
                        "traits": stored_json(text(&row, 24)?),
                    }),
                ));
            }
            let rows = node.query(&format!(
                "SELECT visit_id, ts, kind, name, url, path, referrer, properties, isNull(value), ifNull(value, 0),
                    currency
                 FROM {db}.hits_local WHERE {condition} AND kind != 'touch' ORDER BY ts"
            ))?;
            // Each visit's hits in time order, to find the page view a scroll report belongs to.
            let mut visit_hits: HashMap<i64, Vec<(Millis, String, String)>> = HashMap::new();
            for row in rows {
                let ts = int(&row, 1)?;
                visit_hits.entry(int(&row, 0)?).or_default().push((ts, text(&row, 2)?, text(&row, 5)?));
                let value = if int(&row, 8)? == 1 { Value::Null } else { json!(float(&row, 9)?) };
                events.push((
                    ts,
                    json!({
                        "session": int(&row, 0)?,
                        "timestamp": iso(ts),
                        "type": text(&row, 2)?,
                        "name": text(&row, 3)?,
                        "url": text(&row, 4)?,
                        "path": text(&row, 5)?,
                        "referrer": text(&row, 6)?,
                        "properties": stored_json(text(&row, 7)?),
                        "value": value,
                        "currency": optional(text(&row, 10)?),
                    }),
                ));
            }
            heatmap.add(node, db, &condition, &visit_hits)?;
        }
        // Shard by shard, then in time order across them (a stable sort keeps each shard's order of ties).
        sessions.sort_by_key(|(first, _)| *first);
        events.sort_by_key(|(ts, _)| *ts);
        let HeatmapData { mut interactions, mut form_fields, mut scroll_depths } = heatmap;
        for list in [&mut interactions, &mut form_fields, &mut scroll_depths] {
            list.sort_by_key(|(ts, _)| *ts);
        }
        let values = |list: Vec<(Millis, Value)>| list.into_iter().map(|(_, v)| v).collect::<Vec<_>>();
        Ok(json!({
            "websiteId": site,
            "visitorId": visitor,
            "sessions": values(sessions),
            "events": values(events),
            "interactions": values(interactions),
            "formFields": values(form_fields),
            "scrollDepths": values(scroll_depths),
            "recordings": recordings(meta, site, &found)?,
            "consentLogs": consents.iter().map(consent_json).collect::<Vec<_>>(),
        }))
    }

    /// Erases one visitor of a site: counts their visits and hits on every shard, leaves their deletion (with the
    /// visits' heatmap data, and the rebuild of their days' rollups) to a job (`privacy_jobs`), during which no
    /// read of the site answers, and deletes their visits' recordings, ingest state and consent choices in
    /// PostgreSQL. Callers check ownership and the site's rights first. `NotFound` when nothing matches;
    /// `Unavailable` when a shard does not answer, with nothing deleted, so the request can be repeated.
    pub fn delete_visitor(&self, meta: &dyn Metadata, site: WebsiteId, visitor: &str) -> Result<VisitorDeletion> {
        // A visitor whose erasure is under way is not found again.
        self.settle(&[site])?;
        let found = self.find(site, visitor)?;
        let mut report = VisitorDeletion { sessions: found.visit_count(), ..VisitorDeletion::default() };
        let db = self.events.database();
        // The span of their visits, whose days' rollups are rebuilt once they are gone (as on SQLite).
        let (mut first, mut last) = (Millis::MAX, Millis::MIN);
        for visits in &found.shards {
            let condition = visits.condition(site);
            let counts = self
                .node(visits.shard)
                // Touches (heatmap data or a recording keeping the visit alive) are no events: SQLite keeps no row.
                .query(&format!(
                    "SELECT countIf(kind != 'touch'), count(), min(ts), max(ts) FROM {db}.hits_local WHERE {condition}"
                ))?;
            let row = counts.first().map(Vec::as_slice).unwrap_or_default();
            report.events += int(row, 0)? as u64;
            if int(row, 1)? > 0 {
                first = first.min(int(row, 2)?);
                last = last.max(int(row, 3)?);
            }
        }
        let consents = meta.visitor_consents(site, &found.keys)?.len() as u64;
        if report.sessions == 0 && consents == 0 {
            return Err(Error::NotFound("visitor"));
        }
        if !found.shards.is_empty() {
            let span =
                (first <= last).then(|| (first.div_euclid(DAY_MS) * DAY_MS, (last.div_euclid(DAY_MS) + 1) * DAY_MS));
            self.enqueue_privacy_deletion(&Work::Visits { site, visit_ids: found.visit_ids(), span })?;
        }
        report.recordings = meta.delete_visit_replays(site, &found.visit_ids())?;
        IngestState::forget_visits(&self.pg, site, &found.keys)?;
        report.consent_logs = meta.delete_visitor_consents(site, &found.keys)?;
        Ok(report)
    }

    /// A deletion job's work (`privacy_jobs`): deletes a visitor's visits of a site (hits and heatmap data) on
    /// every shard, awaited, then rebuilds the rollups of `span` from the hits left. Repeatable.
    pub(super) fn erase_visits(
        &self,
        site: WebsiteId,
        visit_ids: &[i64],
        span: Option<(Millis, Millis)>,
    ) -> Result<()> {
        for chunk in visit_ids.chunks(10_000) {
            let ids: Vec<String> = chunk.iter().map(i64::to_string).collect();
            self.events.delete_visits_where(&format!("website_id = {site} AND visit_id IN ({})", ids.join(", ")))?;
        }
        if let Some((from, to)) = span {
            self.rebuild_rollups(site, from, to)?;
        }
        Ok(())
    }
}

/// A visitor's heatmap data as SQLite's copy lists it, each item with its time.
#[derive(Default)]
struct HeatmapData {
    /// Clicks, moves and submits (SQLite's `heatmap_points`).
    interactions: Vec<(Millis, Value)>,
    form_fields: Vec<(Millis, Value)>,
    /// One per page view: its deepest report, at the time of its latest (SQLite keeps no other).
    scroll_depths: Vec<(Millis, Value)>,
}

impl HeatmapData {
    /// Adds the heatmap rows of a shard's visits (`condition`), given each visit's hits as (time, kind, path) in
    /// time order. Rows of a time keep their order in their body (`seq`), as SQLite's row ids do.
    fn add(
        &mut self,
        node: &Node,
        db: &str,
        condition: &str,
        visit_hits: &HashMap<i64, Vec<(Millis, String, String)>>,
    ) -> Result<()> {
        let rows = node.query(&format!(
            "SELECT visit_id, ts, kind, path, x, y, page_w, page_h, viewport_w, viewport_h, selector, form, field,
                filled, depth
             FROM {db}.interactions_local WHERE {condition} ORDER BY ts, seq"
        ))?;
        let mut reports: HashMap<i64, Vec<ScrollReport>> = HashMap::new();
        for row in rows {
            let (visit, ts, kind) = (int(&row, 0)?, int(&row, 1)?, text(&row, 2)?);
            match kind.as_str() {
                "scroll" => reports.entry(visit).or_default().push((ts, text(&row, 3)?, int(&row, 14)?)),
                "focus" | "blur" | "change" => self.form_fields.push((
                    ts,
                    json!({
                        "session": visit,
                        "timestamp": iso(ts),
                        "type": kind,
                        "path": text(&row, 3)?,
                        "form": text(&row, 11)?,
                        "field": text(&row, 12)?,
                        "filled": int(&row, 13)?,
                    }),
                )),
                _ => self.interactions.push((
                    ts,
                    json!({
                        "session": visit,
                        "timestamp": iso(ts),
                        "type": kind,
                        "path": text(&row, 3)?,
                        "x": int(&row, 4)?,
                        "y": int(&row, 5)?,
                        "pageWidth": int(&row, 6)?,
                        "pageHeight": int(&row, 7)?,
                        "viewportWidth": int(&row, 8)?,
                        "viewportHeight": int(&row, 9)?,
                        "selector": text(&row, 10)?,
                    }),
                )),
            }
        }
        for (visit, reports) in reports {
            let hits = visit_hits.get(&visit).map(Vec::as_slice).unwrap_or_default();
            for (ts, path, depth) in page_view_depths(hits, reports) {
                let row = json!({"session": visit, "timestamp": iso(ts), "path": path, "depth": depth});
                self.scroll_depths.push((ts, row));
            }
        }
        Ok(())
    }
}

/// A visitor's recordings (PostgreSQL) with their rrweb events, as SQLite's copy lists them.
fn recordings(meta: &dyn Metadata, site: WebsiteId, found: &Found) -> Result<Vec<Value>> {
    let mut list = Vec::new();
    for recording in meta.visit_replays(site, &found.visit_ids())? {
        let mut events = Vec::new();
        for seq in meta.replay_chunk_seqs(recording.id)? {
            if let Some(gzip) = meta.replay_chunk(recording.id, seq)? {
                events.extend(chunk_events(&gzip)?);
            }
        }
        list.push(json!({
            "id": recording.id,
            "session": recording.visit,
            "startedAt": iso(recording.started_at),
            "endedAt": iso(recording.ended_at),
            "screen": recording.screen,
            "eventCount": recording.event_count,
            "events": events,
        }));
    }
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::events::{HitRow, month_of};
    use crate::cluster::testing::fresh;
    use crate::privacy::{ConsentData, ConsentRecord};

    const SITE: WebsiteId = 7;
    /// 2026-11-10, 12:00 UTC.
    const T: i64 = 1_794_312_000_000;

    fn hit(visit_id: i64, visitor: u64, key: &str, ts: i64, kind: &'static str, properties: &str) -> HitRow {
        HitRow {
            month: month_of(ts),
            website_id: SITE,
            ts,
            visit_id,
            visitor,
            session_key: key.into(),
            kind,
            path: "/".into(),
            properties: properties.into(),
            ..HitRow::default()
        }
    }

    #[test]
    fn a_visitor_is_found_on_every_shard_and_erased_only_when_every_shard_answers() {
        let Some(test) = fresh() else { return };
        test.add_site(SITE);
        let events = test.events();
        // "erase-me" has a visit on each shard (visitors 2 and 3: the key modulo two); visit 3 is another session
        // id whose traits name it; visit 4 is someone else's, its traits only mentioning the id.
        let rows = vec![
            hit(1, 2, "erase-me", T, "pageview", ""),
            hit(1, 2, "erase-me", T + 1, "custom", "{\"a\":1}"),
            hit(2, 3, "erase-me", T + 2, "pageview", ""),
            hit(3, 5, "other-tab", T + 3, "identify", "{\"email\":\"erase-me\"}"),
            hit(4, 4, "keep-me", T + 4, "identify", "{\"note\":\"erase-me\"}"),
            hit(5, 6, "keep-me-too", T + 5, "pageview", ""),
        ];
        events.insert(&rows).unwrap();
        let meta = test.meta();
        let choice = |key: &str| ConsentRecord {
            website_id: SITE,
            session_key: key.into(),
            ts: T,
            ip_address: None,
            data: ConsentData { analytics: true, marketing: false },
        };
        meta.insert_consents(&[choice("erase-me"), choice("other-tab"), choice("keep-me")]).unwrap();
        let cluster = |events: super::super::events::Events| Cluster {
            pg: std::sync::Arc::new(test.pg()),
            events: std::sync::Arc::new(events),
        };

        let data = cluster(test.events()).visitor_data(meta.as_ref(), SITE, "erase-me").unwrap();
        let sessions: Vec<&str> =
            data["sessions"].as_array().unwrap().iter().map(|s| s["sessionId"].as_str().unwrap()).collect();
        assert_eq!(sessions, ["erase-me", "erase-me", "other-tab"], "{data}");
        assert_eq!(data["events"].as_array().unwrap().len(), 4, "{data}");
        assert_eq!(data["events"][1]["properties"], json!({"a": 1}));
        assert_eq!(data["sessions"][2]["traits"], json!({"email": "erase-me"}));
        assert_eq!(data["consentLogs"].as_array().unwrap().len(), 2, "{data}");

        // A shard that does not answer: 503, nothing deleted anywhere.
        let down = cluster(test.events().with_nodes(&[test.ch_urls[0].clone(), "http://127.0.0.1:9".into()]));
        let refused = down.delete_visitor(meta.as_ref(), SITE, "erase-me");
        assert!(matches!(refused, Err(Error::Unavailable(_))), "{refused:?}");
        assert_eq!((0..2).map(|s| test.local_rows(s, "1")).sum::<u64>(), 6);
        assert_eq!(meta.visitor_consents(SITE, &["erase-me".into(), "other-tab".into()]).unwrap().len(), 2);

        // Repeated with both shards up: everything of the visitor goes, on both shards, and nothing else.
        let up = cluster(test.events());
        let report = up.delete_visitor(meta.as_ref(), SITE, "erase-me").unwrap();
        let expected = VisitorDeletion { sessions: 3, events: 4, consent_logs: 2, ..VisitorDeletion::default() };
        assert_eq!(report, expected);
        // The job deletes the rows; a read waits for it.
        up.settle(&[SITE]).unwrap();
        for shard in 0..2 {
            assert_eq!(test.local_rows(shard, "visit_id IN (1, 2, 3)"), 0, "shard {shard}");
        }
        assert_eq!((0..2).map(|s| test.local_rows(s, "1")).sum::<u64>(), 2);
        assert_eq!(meta.visitor_consents(SITE, &["keep-me".into()]).unwrap().len(), 1);
        let again = cluster(test.events()).delete_visitor(meta.as_ref(), SITE, "erase-me");
        assert!(matches!(again, Err(Error::NotFound(_))), "{again:?}");
        // A hostile id is one value, not SQL.
        let hostile = cluster(test.events()).visitor_data(meta.as_ref(), SITE, "x' OR 1 = 1 OR session_key = '");
        assert!(matches!(hostile, Err(Error::NotFound(_))), "{hostile:?}");
    }
}
