//! Funnel figures and drop-off visits read from ClickHouse, with the meaning SQLite gives them
//! (analytics/funnels.rs, visit_hours.rs): the visits that started in the range's whole hours, each counted for
//! the steps its page views, custom events and conversions reached in order, one step at most per hit.
//!
//! Not `windowFunnel`: on 18.16 it takes its time as UInt32 or DateTime, so hits of one second lose their
//! order (SQLite orders them by millisecond) and milliseconds over a 90-day range do not fit; and how it
//! treats a hit matching two consecutive steps is a detail of its implementation. Each visit's hits are
//! gathered instead (`groupArray`, sorted by time) as a bit mask of the steps each matches, and the steps are
//! found in order with `arrayFirstIndex`, each after the one before: SQLite's walk, exactly. A visit's hits
//! are on one shard (the sharding key is its visitor), so each shard groups its own visits. Hits of one
//! millisecond in one visit are ordered by the steps they match, not by arrival (SQLite's row id): ClickHouse
//! keeps no arrival order.

use std::collections::HashMap;

use super::clickhouse::quote;
use super::events::Events;
use super::visits::{int, text};
use crate::analytics::TimeRange;
use crate::analytics::funnels::{StepPattern, normalize_path};
use crate::analytics::visit_hours::HOUR_MS;
use crate::error::Result;
use crate::model::WebsiteId;
use crate::store::funnels::DropOffVisit;

impl Events {
    /// Per step of a funnel, the visits of `site` started in `range` (whole hours, as SQLite stores them)
    /// that reached it in order.
    pub fn funnel_counts(
        &self,
        site: WebsiteId,
        steps: &[StepPattern],
        range: TimeRange,
        admitted: &str,
    ) -> Result<Vec<u64>> {
        if steps.is_empty() {
            return Ok(Vec::new());
        }
        let counts: Vec<String> = (1..=steps.len()).map(|n| format!("countIf(reached >= {n})")).collect();
        let rows = self.nodes()[0].query(&format!(
            "SELECT {} FROM ({})",
            counts.join(", "),
            self.reached_sql(site, steps, range, admitted, "")
        ))?;
        let row = rows.first().cloned().unwrap_or_default();
        (0..steps.len()).map(|i| Ok(int(&row, i)? as u64)).collect()
    }

    /// Per step but the last (index 0 = step 1), the newest visits of `site` started in `range` that reached
    /// it and not the next, at most `limit` each, with what the drop-off list shows of them. No visit has a
    /// recording in cluster mode.
    pub fn funnel_drop_offs(
        &self,
        site: WebsiteId,
        steps: &[StepPattern],
        range: TimeRange,
        admitted: &str,
        limit: usize,
    ) -> Result<Vec<Vec<DropOffVisit>>> {
        let mut out: Vec<Vec<DropOffVisit>> = (1..steps.len()).map(|_| Vec::new()).collect();
        if out.is_empty() || limit == 0 {
            return Ok(out);
        }
        // The exit page is the last page view's path, or the first hit's when the visit viewed no page, as
        // SQLite's writer keeps it.
        let details = "session_key, last, page_views, exit_page, country, device";
        let visit_columns = "any(session_key) AS session_key, max(ts) AS last,
            countIf(kind = 'pageview') AS page_views,
            if(page_views > 0, argMaxIf(path, ts, kind = 'pageview'), argMin(path, ts)) AS exit_page,
            argMin(country, ts) AS country, argMin(device, ts) AS device";
        let rows = self.nodes()[0].query(&format!(
            "SELECT reached, visit_id, start, {details} FROM ({})
             WHERE reached >= 1 AND reached < {}
             ORDER BY start DESC, visit_id DESC
             LIMIT {limit} BY reached",
            self.reached_sql(site, steps, range, admitted, visit_columns),
            steps.len()
        ))?;
        // A visit a later one of its key replaced is named `key~id`, as SQLite renames it.
        let keys: Vec<String> = rows.iter().map(|row| text(row, 3).map(|k| quote(&k))).collect::<Result<_>>()?;
        let latest: HashMap<String, i64> = if keys.is_empty() {
            HashMap::new()
        } else {
            self.nodes()[0]
                .query(&format!(
                    "SELECT session_key, argMax(visit_id, ts) FROM {}.hits
                     WHERE website_id = {site} AND session_key IN ({}) GROUP BY session_key",
                    self.database(),
                    keys.join(", ")
                ))?
                .iter()
                .map(|row| Ok((text(row, 0)?, int(row, 1)?)))
                .collect::<Result<_>>()?
        };
        for row in rows {
            let (reached, visit, start, last) = (int(&row, 0)?, int(&row, 1)?, int(&row, 2)?, int(&row, 4)?);
            let key = text(&row, 3)?;
            let session_id = match latest.get(&key) {
                Some(current) if *current != visit => format!("{key}~{visit}"),
                _ => key,
            };
            out[reached as usize - 1].push(DropOffVisit {
                id: visit,
                session_id,
                started_at: start,
                duration: (last - start) / 1000,
                page_views: int(&row, 5)?,
                exit_page: text(&row, 6)?,
                country: text(&row, 7)?,
                device: text(&row, 8)?,
                replay_id: None,
            });
        }
        Ok(out)
    }

    /// A subquery of the visits of `site` that started in `range`'s whole hours, one row per visit:
    /// `visit_id`, `start`, `reached` (how many steps it reached in order) and `extra` aggregate columns; only
    /// the visits `admitted` keeps (a condition on hits, `" AND ..."` or nothing).
    fn reached_sql(
        &self,
        site: WebsiteId,
        steps: &[StepPattern],
        range: TimeRange,
        admitted: &str,
        extra: &str,
    ) -> String {
        let db = self.database();
        // SQLite counts a visit in the hour it started and reads whole hours (visit_hours::hours_of).
        let from = range.start.div_euclid(HOUR_MS) * HOUR_MS;
        let to = ((range.end - 1).div_euclid(HOUR_MS) + 1) * HOUR_MS;
        let mask: Vec<String> = steps
            .iter()
            .enumerate()
            .map(|(k, step)| format!("if({}, {}, 0)", step_condition(step), 1u32 << k))
            .collect();
        // p_k: the position of the hit that reached step k, the first after p_(k-1) that matches it; n + 1 (past
        // every hit) when it was not reached, so no later step finds a hit after it. Each p_k names p_(k-1)
        // once: 18.16 inlines aliases, and two mentions doubled the expression per step ("AST is too big" at
        // 13 steps). `(x + n) % (n + 1) + 1` maps arrayFirstIndex's 0 (none) to n + 1 and keeps 1..n.
        let positions: Vec<String> = (1..=steps.len())
            .map(|k| {
                format!(
                    "(arrayFirstIndex((m, i) -> i > p{} AND bitAnd(m, {}) != 0, masks, arrayEnumerate(masks)) \
                     + hit_count) % (hit_count + 1) + 1 AS p{k}",
                    k - 1,
                    1u32 << (k - 1),
                )
            })
            .collect();
        let reached: Vec<String> = (1..=steps.len()).map(|k| format!("(p{k} <= hit_count)")).collect();
        let extra = if extra.is_empty() { String::new() } else { format!(", {extra}") };
        format!(
            "SELECT *, length(masks) AS hit_count, 0 AS p0, {positions}, {reached} AS reached FROM (
                SELECT visit_id, min(ts) AS start,
                       arrayMap(x -> x.2, arraySort(groupArray((ts, {mask})))) AS masks{extra}
                FROM {db}.hits
                WHERE website_id = {site} AND visit_id IN (
                    SELECT visit_id FROM {db}.hits_local
                    WHERE website_id = {site} AND visit_id != 0 AND ts >= {from} AND ts < {to}){admitted}
                GROUP BY visit_id
                HAVING start >= {from} AND start < {to})",
            positions = positions.join(", "),
            reached = reached.join(" + "),
            mask = mask.join(" + "),
        )
    }
}

/// Whether a hit reaches `step`, as SQL over `hits` (StepPattern::matches): its kind and name, and its path
/// without trailing slashes against the step's pattern.
fn step_condition(step: &StepPattern) -> String {
    let path = "if(replaceRegexpOne(path, '/+$', '') = '' AND path != '', '/', replaceRegexpOne(path, '/+$', ''))";
    let pattern = quote(&glob_regex(normalize_path(&step.url)));
    match &step.event_name {
        Some(event) => {
            format!("(kind IN ('custom', 'conversion') AND name = {} AND match({path}, {pattern}))", quote(event))
        }
        None => format!("(kind = 'pageview' AND match({path}, {pattern}))"),
    }
}

/// A step's path pattern as an RE2 expression of the whole text: `*` is any run of characters (newlines
/// too), every other character itself.
fn glob_regex(pattern: &str) -> String {
    let mut out = String::from("(?s)^");
    for c in pattern.chars() {
        match c {
            '*' => out.push_str(".*"),
            c if c.is_ascii_alphanumeric() || !c.is_ascii() => out.push(c),
            // RE2 takes any escaped ASCII punctuation as itself.
            c if c.is_ascii_punctuation() => {
                out.push('\\');
                out.push(c);
            }
            c => out.push_str(&format!("\\x{:02x}", c as u32)),
        }
    }
    out.push('$');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_patterns_become_whole_text_expressions() {
        assert_eq!(glob_regex("/product/*"), "(?s)^\\/product\\/.*$");
        assert_eq!(glob_regex("/a.b?c"), "(?s)^\\/a\\.b\\?c$");
        assert_eq!(glob_regex("/é"), "(?s)^\\/é$");
        assert_eq!(glob_regex("/a b"), "(?s)^\\/a\\x20b$");
    }
}
