//! `Tracker`: the one door into the domain, opened from a `Config` by the daemon and the CLI alike.

use std::net::IpAddr;
use std::ops::Deref;
use std::sync::Arc;

use crate::account::Account;
use crate::analytics::journeys::{CustomerJourneys, JourneyFilter, JourneyPaths};
use crate::analytics::{
    ActiveSession, ActivityEvent, Advanced, AiIntent, Analytics, Conversions, CountryCount, Dimension, DimensionCount,
    EventSummary, IdentifiedVisitor, LiveVisitors, OrganizationSummary, Overview, ReferrerCount, ReplayDetail,
    ReplayEvents, ReplayFilter, ReplayStats, ReplaySummary, SessionJourney, SiteMetric, SitePeriods, StreamSession,
    TimeRange, Timeseries, Totals, TrafficSource,
};
use crate::auth::{self, Auth};
use crate::cluster::ingest_state::IngestState;
use crate::cluster::pg::Pg;
use crate::cluster::sink::ClickHouseSink;
use crate::cluster::{Cluster, ClusterKeys};
use crate::config::Config;
use crate::db::{self, Db};
use crate::email::{Email, Figures as EmailFigures};
use crate::error::{Error, Result};
use crate::export::Export;
use crate::import::Imports;
use crate::ingest::{Ingest, LiveHub};
use crate::metrics::Metrics;
use crate::model::{Millis, UserId, WebsiteId, now_ms};
use crate::privacy::{DataType, DeletionReport, Privacy, RetentionReport, Right, VisitorDeletion};
use crate::settings::Settings;
use crate::store::event_definitions::EventDefinitions;
use crate::store::funnels::{Figures, Funnels};
use crate::store::organizations::{OrganizationUpdate, Organizations};
use crate::store::websites::Websites;

/// An open tracker instance: storage plus one service per aggregate, behind one reference count.
///
/// Cloning is one atomic increment: warp clones its filters, and the Tracker each filter holds, on every
/// request (an `or` keeps a copy of its second branch), so a clone of every service would cost a dozen
/// contended atomics per route per request.
#[derive(Clone)]
pub struct Tracker {
    services: Arc<Services>,
}

/// The services of a tracker, reached through `Tracker` (`tracker.ingest`, `tracker.analytics`, ...).
pub struct Services {
    pub settings: Settings,
    pub auth: Auth,
    pub account: Account,
    pub websites: Websites,
    pub ingest: Ingest,
    pub analytics: Analytics,
    pub privacy: Privacy,
    pub export: Export,
    pub events: EventDefinitions,
    pub organizations: Organizations,
    pub funnels: Funnels,
    pub imports: Imports,
    pub live: LiveHub,
    pub email: Email,
    pub metrics: Metrics,
    db: Db,
    /// The shared stores in cluster mode; `None` on SQLite alone.
    cluster: Option<Cluster>,
}

impl Tracker {
    /// Creates the data folder if needed (owner-only, as its files), opens and migrates the database, loads the
    /// signing secret and starts the ingest writer. With `postgres_url` and `clickhouse_url` set (cluster mode),
    /// metadata lives in PostgreSQL and hits go to ClickHouse; the signing secret and the visitor-salt key then
    /// come from configuration only (the same on every daemon), never from a database.
    pub fn open(config: &Config) -> Result<Tracker> {
        let cluster_config = crate::cluster::ClusterConfig::of(config)?;
        // Before anything is made or connected: a cluster daemon without its keys says which to set.
        let cluster_keys = cluster_config.as_ref().map(|_| ClusterKeys::of(config)).transpose()?;
        db::secure_folder(&config.data_dir)?;
        // In cluster mode this is a transitional database of this daemon's own: the services whose storage has
        // not moved still need one to be built, but their routes answer 503 (`cluster::unavailable_feature`)
        // and the background jobs over it do not run, so nothing reachable writes shared data to it.
        let db = Db::open(&config.database_path())?;
        let settings = Settings::new(config.clone());
        let live = LiveHub::default();
        let metrics = Metrics::new(db.path(), config.ingest_queue.max(1));
        let (meta, secret, cluster) = match (&cluster_config, &cluster_keys) {
            (Some(cluster_config), Some(keys)) => {
                let cluster = Cluster::open(cluster_config)?;
                let meta = crate::store::meta::postgres(cluster.pg.clone());
                (meta, keys.signing_secret.clone(), Some(cluster))
            }
            _ => {
                let secret = auth::load_or_create_secret(config.signing_secret()?, &config.data_dir)?;
                // Created 0600; one made by hand or copied in may not be.
                db::secure_file(&config.data_dir.join("secret.key"))?;
                (crate::store::meta::sqlite(db.clone()), secret, None)
            }
        };
        let privacy = Privacy::new(db.clone(), meta.clone());
        let websites = Websites::new(meta.clone()).limited_by(settings.clone());
        let ingest = match (&cluster_config, &cluster_keys) {
            (Some(cluster_config), Some(keys)) => {
                // The writer's own pool and shard clients: a batch's upsert and inserts never wait for a read.
                let sink = ClickHouseSink::new(
                    crate::cluster::open_events(cluster_config)?,
                    IngestState::new(Pg::open(&cluster_config.postgres_url)?, &keys.visitor_salt_key),
                    meta.clone(),
                    live.clone(),
                    metrics.clone(),
                );
                Ingest::start_with_sink(sink, websites.clone(), privacy.clone(), metrics.clone(), config)?
            }
            _ => Ingest::start(&db, websites.clone(), privacy.clone(), live.clone(), metrics.clone(), config)?,
        };
        let mut cluster = cluster;
        if let Some(cluster) = &mut cluster {
            cluster.notices = Some(listen_to_other_daemons(cluster, &live, &websites, &privacy)?);
        }
        let analytics = Analytics::new(db.clone());
        let services = Services {
            auth: Auth::new(meta.clone(), &secret, settings.clone(), cluster.as_ref().map(|c| c.pg.clone())),
            account: Account::new(meta.clone(), settings.clone()),
            email: Email::new(
                meta.clone(),
                settings.clone(),
                match &cluster {
                    Some(cluster) => EmailFigures::Cluster(cluster.events.clone()),
                    None => EmailFigures::Sqlite { db: db.clone(), analytics: analytics.clone() },
                },
            ),
            analytics,
            privacy,
            export: Export::new(db.clone()),
            events: EventDefinitions::new(meta.clone()),
            organizations: Organizations::new(meta.clone()),
            funnels: Funnels::new(
                meta.clone(),
                match &cluster {
                    Some(cluster) => Figures::Cluster(cluster.events.clone()),
                    None => Figures::Sqlite(db.clone()),
                },
            ),
            imports: Imports::new(
                db.clone(),
                cluster.as_ref().map(|c| crate::cluster::imports::ClusterImports::new(c.pg.clone(), c.events.clone())),
            ),
            settings,
            websites,
            ingest,
            live,
            metrics,
            db,
            cluster,
        };
        services.auth.seal_plain_secrets()?;
        Ok(Tracker { services: Arc::new(services) })
    }

    /// Whether this instance runs in cluster mode (README "Scaling out").
    pub fn is_cluster(&self) -> bool {
        self.services.cluster.is_some()
    }

    /// In cluster mode, `Unavailable` (503) for an API request whose feature has not moved to the cluster's
    /// stores yet (see `cluster::unavailable_feature`); always Ok in single-machine mode.
    pub fn cluster_unsupported(&self, method: &str, path: &str) -> Result<()> {
        if !self.is_cluster() {
            return Ok(());
        }
        match crate::cluster::unavailable_feature(method, path) {
            Some(feature) => Err(Error::NotInCluster(feature)),
            None => Ok(()),
        }
    }

    /// The overview of a site over a range, from ClickHouse in cluster mode.
    pub fn overview(&self, site: WebsiteId, range: TimeRange) -> Result<Overview> {
        match &self.services.cluster {
            Some(cluster) => {
                let overview = cluster.events.overview(site, range)?;
                Ok(Overview { imported: self.imports.imported_within(site, range.start, range.end)?, ..overview })
            }
            None => self.analytics.overview(site, range),
        }
    }

    /// The totals of a site over a range (visits, events and the rest), from ClickHouse in cluster mode.
    pub fn totals(&self, site: WebsiteId, range: TimeRange) -> Result<Totals> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.totals(site, range),
            None => self.analytics.totals(site, range),
        }
    }

    /// Visitors and page views per bucket of a range, from ClickHouse in cluster mode.
    pub fn timeseries(&self, site: WebsiteId, range: TimeRange) -> Result<Timeseries> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.timeseries(site, range),
            None => self.analytics.timeseries(site, range),
        }
    }

    /// The newest page views and events of a site, from ClickHouse in cluster mode.
    pub fn recent_activity(&self, site: WebsiteId, limit: i64) -> Result<Vec<ActivityEvent>> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.recent_activity(site, limit),
            None => self.analytics.recent_activity(site, limit),
        }
    }

    /// A metric of each of `sites` today, yesterday, over 7 and 30 days, from ClickHouse in cluster mode.
    pub fn site_periods(&self, sites: &[WebsiteId], metric: SiteMetric, now: Millis) -> Result<Vec<SitePeriods>> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.site_periods(sites, metric, now),
            None => self.analytics.site_periods(sites, metric, now),
        }
    }

    /// Visits by referring host over a range, from ClickHouse in cluster mode.
    pub fn referrers(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<ReferrerCount>> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.referrers(site, range),
            None => self.analytics.referrers(site, range),
        }
    }

    /// Visits by traffic source over a range, from ClickHouse in cluster mode.
    pub fn traffic_sources(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<TrafficSource>> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.traffic_sources(site, range),
            None => self.analytics.traffic_sources(site, range),
        }
    }

    /// The most frequent values of a dimension over a range, from ClickHouse in cluster mode.
    pub fn breakdown(
        &self,
        site: WebsiteId,
        range: TimeRange,
        dim: Dimension,
        limit: i64,
    ) -> Result<Vec<DimensionCount>> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.breakdown(site, range, dim, limit),
            None => self.analytics.breakdown(site, range, dim, limit),
        }
    }

    /// Visits by country over a range, from ClickHouse in cluster mode.
    pub fn countries(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<CountryCount>> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.countries(site, range),
            None => self.analytics.countries(site, range),
        }
    }

    /// The conversions of a range and its conversion rate, from ClickHouse in cluster mode.
    pub fn conversions(&self, site: WebsiteId, range: TimeRange) -> Result<Conversions> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.conversions(site, range),
            None => self.analytics.conversions(site, range),
        }
    }

    /// The Advanced Analytics screen's figures of a range, from ClickHouse in cluster mode (the intent model
    /// fitted there and cached by this daemon).
    pub fn advanced(&self, site: WebsiteId, range: TimeRange) -> Result<Advanced> {
        let Some(cluster) = &self.services.cluster else { return self.analytics.advanced(site, range) };
        let model = self.analytics.cached_intent_model(site, false, |now| cluster.events.fit_intent(site, now))?;
        cluster.events.advanced(site, range, &model, now_ms())
    }

    /// Intent scores of a range's visits and what to do about them, from ClickHouse in cluster mode; `refit`
    /// fits the site's model again first.
    pub fn ai_intent(&self, site: WebsiteId, range: TimeRange, refit: bool) -> Result<AiIntent> {
        let Some(cluster) = &self.services.cluster else { return self.analytics.ai_intent(site, range, refit) };
        let model = self.analytics.cached_intent_model(site, refit, |now| cluster.events.fit_intent(site, now))?;
        cluster.events.ai_intent(site, range, &model)
    }

    /// Event totals of a range with the site's definitions, from ClickHouse (and PostgreSQL's definitions) in
    /// cluster mode.
    pub fn events_summary(&self, site: WebsiteId, range: TimeRange) -> Result<EventSummary> {
        match &self.services.cluster {
            Some(cluster) => {
                // In id order, as SQLite reads its definitions.
                let mut definitions: Vec<(i64, String)> =
                    self.events.list(site)?.into_iter().map(|d| (d.id, d.name)).collect();
                definitions.sort_unstable();
                cluster.events.events_summary(site, range, definitions)
            }
            None => self.analytics.events_summary(site, range),
        }
    }

    /// The pages viewed over the last 90 days and those with heatmap data, from ClickHouse in cluster mode.
    pub fn page_urls(&self, site: WebsiteId) -> Result<Vec<String>> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.page_urls(site, crate::model::now_ms()),
            None => self.analytics.page_urls(site),
        }
    }

    /// The heatmap of a page over a range, from ClickHouse in cluster mode.
    pub fn heatmap(&self, site: WebsiteId, path: &str, range: TimeRange) -> Result<crate::analytics::Heatmap> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.heatmap(site, path, range),
            None => self.analytics.heatmap(site, path, range),
        }
    }

    /// A site's organizations, most visits first: their visits from ClickHouse in cluster mode.
    pub fn organizations(&self, site: WebsiteId) -> Result<Vec<OrganizationSummary>> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.organizations(site, self.organizations.known(site)?),
            None => self.analytics.organizations(site),
        }
    }

    /// A site's identified visitors, highest lead score first: from ClickHouse in cluster mode, their
    /// organizations' names and industries from PostgreSQL.
    pub fn identified_visitors(&self, site: WebsiteId) -> Result<Vec<IdentifiedVisitor>> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.identified_visitors(site, self.organizations.known(site)?),
            None => self.analytics.identified_visitors(site),
        }
    }

    /// Sets what the owner knows of one organization of a site (`NotFound` for another site's) and answers it
    /// as the list shows it.
    pub fn update_organization(
        &self,
        site: WebsiteId,
        id: i64,
        changes: OrganizationUpdate,
    ) -> Result<OrganizationSummary> {
        let known = self.organizations.update(site, id, changes)?;
        match &self.services.cluster {
            Some(cluster) => cluster.events.organization(site, known),
            None => self.analytics.organization(site, id),
        }
    }

    /// The site of one of `user`'s visits; `NotFound` for a missing visit and for another user's alike. In
    /// cluster mode the visit is looked for among the user's sites' hits in ClickHouse.
    pub fn session_site(&self, user: UserId, session: i64) -> Result<WebsiteId> {
        match &self.services.cluster {
            Some(cluster) => {
                let sites: Vec<WebsiteId> = self.websites.list(user)?.into_iter().map(|w| w.id).collect();
                cluster.events.session_site(&sites, session)
            }
            None => {
                let site = self.analytics.session_site(session)?;
                // Another user's session answers exactly as a missing one.
                self.websites.get(user, site).map_err(|_| Error::NotFound("session"))?;
                Ok(site)
            }
        }
    }

    /// One visit of a site as the stream lists it, from ClickHouse in cluster mode.
    pub fn stream_session(&self, site: WebsiteId, session: i64) -> Result<StreamSession> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.stream_session(site, session),
            None => self.analytics.stream_session(site, session),
        }
    }

    /// One visit's page-by-page journey, from ClickHouse in cluster mode.
    pub fn session_journey(&self, site: WebsiteId, session: i64) -> Result<SessionJourney> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.session_journey(site, session),
            None => self.analytics.session_journey(site, session),
        }
    }

    /// The page under a heatmap, from the site's latest recording that viewed it: in cluster mode from
    /// PostgreSQL's recordings and ClickHouse's page views.
    pub fn page_snapshot(&self, site: WebsiteId, path: &str) -> Result<crate::analytics::PageRendering> {
        match &self.services.cluster {
            Some(cluster) => cluster.page_snapshot(self.privacy.meta.as_ref(), site, path),
            None => self.analytics.page_snapshot(site, path),
        }
    }

    /// A site's recordings with activity in a range that pass a filter, newest first: in cluster mode from
    /// PostgreSQL, with their visits from ClickHouse.
    pub fn replays(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filter: ReplayFilter,
        limit: i64,
    ) -> Result<Vec<ReplaySummary>> {
        match &self.services.cluster {
            Some(cluster) => {
                let known = self.organizations.known(site)?;
                cluster.replays(self.privacy.meta.as_ref(), &known, site, range, filter, limit)
            }
            None => self.analytics.replays(site, range, filter, limit),
        }
    }

    /// The Session Replays cards of a range: in cluster mode from PostgreSQL, with their visits from ClickHouse.
    pub fn replay_stats(&self, site: WebsiteId, range: TimeRange, filter: ReplayFilter) -> Result<ReplayStats> {
        match &self.services.cluster {
            Some(cluster) => {
                let known = self.organizations.known(site)?;
                cluster.replay_stats(self.privacy.meta.as_ref(), &known, site, range, filter)
            }
            None => self.analytics.replay_stats(site, range, filter),
        }
    }

    /// One recording of one of `owner`'s sites (another user's is not found, as a missing one).
    pub fn replay(&self, owner: UserId, replay: i64) -> Result<ReplayDetail> {
        match &self.services.cluster {
            Some(cluster) => {
                cluster.replay(self.privacy.meta.as_ref(), owner, replay, |site| self.organizations.known(site))
            }
            None => self.analytics.replay(owner, replay),
        }
    }

    /// A recording's events, read a chunk at a time from SQLite or, in cluster mode, PostgreSQL.
    pub fn replay_events(&self, owner: UserId, replay: i64) -> Result<ReplayEvents> {
        match &self.services.cluster {
            Some(_) => ReplayEvents::of(self.privacy.meta.clone(), owner, replay),
            None => self.analytics.replay_events(owner, replay),
        }
    }

    /// The most common paths through the user's sites, or through one of them (another user's is not
    /// found), over a range: from ClickHouse in cluster mode.
    pub fn journey_paths(&self, user: UserId, site: Option<WebsiteId>, range: TimeRange) -> Result<JourneyPaths> {
        let Some(cluster) = &self.services.cluster else { return self.analytics.journey_paths(user, site, range) };
        let sites = match site {
            Some(site) => vec![self.websites.get(user, site)?.id],
            None => self.websites.list(user)?.into_iter().map(|w| w.id).collect(),
        };
        cluster.events.journey_paths(&sites, range)
    }

    /// The customer journeys of the user's sites, or of one of them, from ClickHouse in cluster mode (the
    /// sites' intent models fitted there together and cached by this daemon), in a number of queries that does
    /// not grow with the number of sites.
    pub fn customer_journeys(
        &self,
        user: UserId,
        site: Option<WebsiteId>,
        range: TimeRange,
        filter: JourneyFilter,
        now: Millis,
    ) -> Result<CustomerJourneys> {
        let Some(cluster) = &self.services.cluster else {
            return self.analytics.customer_journeys(user, site, range, filter, now);
        };
        let sites = match site {
            Some(site) => vec![self.websites.get(user, site)?.id],
            None => self.websites.list(user)?.into_iter().map(|w| w.id).collect(),
        };
        // The models missing from this daemon's cache fitted in one read of all their sites, not one per site.
        let models =
            self.analytics.cached_intent_models(&sites, |stale, now| cluster.events.fit_intents(stale, now))?;
        cluster.events.customer_journeys(&sites, range, filter, now, &models)
    }

    /// The live stream's sessions of a site (seen in the last five minutes), from ClickHouse in cluster mode.
    pub fn active_sessions(&self, site: WebsiteId) -> Result<Vec<ActiveSession>> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.active_sessions(site),
            None => self.analytics.active_sessions(site),
        }
    }

    /// The visitor stream's live summary over `sites`, from ClickHouse in cluster mode.
    pub fn live_visitors(&self, sites: &[WebsiteId]) -> Result<LiveVisitors> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.live_visitors(sites),
            None => self.analytics.live_visitors(sites),
        }
    }

    /// Deletes a site of `owner` with all its data: in cluster mode its events on every shard first (awaited),
    /// then its metadata, so a failure on the way leaves the site listed and the deletion can be retried.
    /// `NotFound` for another owner's site, before anything is deleted.
    pub fn delete_website(&self, owner: UserId, id: WebsiteId) -> Result<()> {
        if let Some(cluster) = &self.services.cluster {
            self.websites.get(owner, id)?;
            cluster.events.delete_site(id)?;
        }
        self.websites.delete(owner, id)
    }

    /// Deletes an account with its websites and all their data after checking its password (in cluster mode
    /// the sites' events go first, as in [`Tracker::delete_website`]).
    pub fn delete_account(&self, user: UserId, password: &str, client: IpAddr) -> Result<()> {
        self.auth.check_password(user, password, client)?;
        self.remove_user(user)
    }

    /// Deletes an account with its websites and all their data, without a password (the operator's
    /// `tracker users rm`).
    pub fn remove_user(&self, user: UserId) -> Result<()> {
        if let Some(cluster) = &self.services.cluster {
            let sites: Vec<WebsiteId> = self.websites.list(user)?.iter().map(|site| site.id).collect();
            cluster.events.delete_sites(&sites)?;
        }
        self.auth.remove_user(user)
    }

    /// Everything stored about one visitor of a site (callers check ownership first), from the shards and
    /// PostgreSQL in cluster mode. Refused unless the site's settings allow access; `NotFound` when nothing
    /// matches.
    pub fn visitor_data(&self, site: WebsiteId, visitor: &str) -> Result<serde_json::Value> {
        match &self.services.cluster {
            Some(cluster) => {
                self.privacy.check_right(site, Right::Access)?;
                cluster.visitor_data(self.privacy.meta.as_ref(), site, visitor)
            }
            None => self.privacy.visitor_data(site, visitor),
        }
    }

    /// Erases one visitor of a site (callers check ownership first): in cluster mode on every shard, awaited,
    /// before PostgreSQL. Refused unless the site's settings allow erasure; `NotFound` when nothing matches.
    pub fn delete_visitor(&self, site: WebsiteId, visitor: &str) -> Result<VisitorDeletion> {
        match &self.services.cluster {
            Some(cluster) => {
                self.privacy.check_right(site, Right::Erasure)?;
                cluster.delete_visitor(self.privacy.meta.as_ref(), site, visitor)
            }
            None => self.privacy.delete_visitor(site, visitor),
        }
    }

    /// Deletes a site's data of one type, only rows before `before` when given (callers check ownership
    /// first): in cluster mode on every shard, awaited, before PostgreSQL (see `Cluster::delete_data`).
    pub fn delete_data(&self, site: WebsiteId, data: DataType, before: Option<Millis>) -> Result<DeletionReport> {
        match &self.services.cluster {
            Some(cluster) => cluster.delete_data(self.privacy.meta.as_ref(), site, data, before),
            None => self.privacy.delete_data(site, data, before),
        }
    }

    /// Writes a site's page views and events as an export (callers check ownership first): from every shard in
    /// cluster mode (see `Events::write_export`); returns the number of rows written.
    pub fn write_export<W: std::io::Write>(
        &self,
        query: &crate::export::ExportQuery,
        format: crate::export::ExportFormat,
        out: W,
    ) -> Result<u64> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.write_export(query, format, out),
            None => self.export.write(query, format, out, |_| {}),
        }
    }

    /// Writes a site's visits as the privacy export's JSON array (callers check ownership first): from every
    /// shard in cluster mode; returns how many.
    pub fn export_sessions<W: std::io::Write>(&self, site: WebsiteId, out: W) -> Result<u64> {
        match &self.services.cluster {
            Some(cluster) => cluster.events.export_sessions(site, out),
            None => self.privacy.export_sessions(site, out),
        }
    }

    /// In cluster mode, rolls up the hours closed by now into ClickHouse's rollups (serve's warming job; one
    /// daemon at a time). Nothing on SQLite, whose writer keeps its rollups as it writes.
    pub fn roll_up(&self) -> Result<()> {
        if let Some(cluster) = &self.services.cluster {
            cluster.roll_up(now_ms())?;
        }
        Ok(())
    }

    /// In cluster mode, recomputes a site's rollups of the rolled-up hours in [from, to) from its hits, for hits
    /// written there after their hours were rolled up (`tracker demo`'s history). Nothing on SQLite, whose writer
    /// keeps its rollups as it writes.
    pub fn rebuild_rollups(&self, site: WebsiteId, from: Millis, to: Millis) -> Result<()> {
        if let Some(cluster) = &self.services.cluster {
            cluster.rebuild_rollups(site, from, to)?;
        }
        Ok(())
    }

    /// Applies every site's retention days now (serve's periodic job; see [`Tracker::apply_retention_at`]).
    pub fn apply_retention(&self) -> Result<RetentionReport> {
        self.apply_retention_at(now_ms())
    }

    /// Applies every site's retention days as if it were `now`: on SQLite, [`Privacy::apply_retention_at`]; in
    /// cluster mode, each site's expired hits are deleted on every shard by one daemon at a time (an empty
    /// report when another daemon is running it).
    pub fn apply_retention_at(&self, now: Millis) -> Result<RetentionReport> {
        let Some(cluster) = &self.services.cluster else { return self.privacy.apply_retention_at(now) };
        match cluster.apply_retention(self.privacy.meta.as_ref(), now)? {
            Some(report) => Ok(report),
            None => {
                tracing::info!("retention is being applied by another daemon of the cluster");
                Ok(RetentionReport::default())
            }
        }
    }

    /// Whether this instance can take hits: the ingest writer runs, its queue is below its limit and the
    /// database's write lock can be taken within 2 seconds (in cluster mode: PostgreSQL and every ClickHouse
    /// shard answer). `Unavailable` says which is not so.
    pub fn ready(&self) -> Result<()> {
        if !self.ingest.writer_alive() {
            return Err(Error::Unavailable("the ingest writer has stopped".into()));
        }
        if self.metrics.queue_depth() >= self.metrics.queue_capacity() {
            return Err(Error::Unavailable("the ingest queue is full".into()));
        }
        if let Some(cluster) = &self.services.cluster {
            // Hits and sign-ins go to the shared stores, not to this daemon's database.
            return cluster.ready();
        }
        // A connection of its own: the shared one may be held by a long deletion, which is not unreadiness.
        let unwritable = |e: Error| Error::Unavailable(format!("the database is not writable: {e}"));
        let conn = db::connect(self.db().path()).map_err(unwritable)?;
        conn.busy_timeout(std::time::Duration::from_secs(2)).map_err(|e| unwritable(e.into()))?;
        conn.execute_batch("BEGIN IMMEDIATE; ROLLBACK;").map_err(|e| unwritable(e.into()))?;
        Ok(())
    }

    /// Writes a consistent copy of the database to `dest` while ingest goes on (see [`db::backup::backup`]).
    pub fn backup(&self, dest: &std::path::Path) -> Result<db::backup::BackupInfo> {
        db::backup::backup(self.db(), dest)
    }

    /// The database handle, for services added beside this one.
    pub fn db(&self) -> &Db {
        &self.services.db
    }
}

/// Acts on the other daemons' notices: their stored hits wake this daemon's live streams, and a site changed
/// anywhere leaves this daemon's caches of it. After a lost connection every cached site is read again.
fn listen_to_other_daemons(
    cluster: &Cluster,
    live: &LiveHub,
    websites: &Websites,
    privacy: &Privacy,
) -> Result<crate::cluster::notices::Listener> {
    use crate::cluster::notices::{Notice, listen};
    let (live, websites, privacy) = (live.clone(), websites.clone(), privacy.clone());
    listen(&cluster.pg, live.origin(), move |notice| match notice {
        Notice::Hits(sites) => sites.into_iter().for_each(|site| live.publish(site)),
        Notice::SiteChanged(site) => {
            websites.forget_cached();
            privacy.forget_cached(site);
        }
        Notice::Reconnected => {
            websites.forget_cached();
            privacy.forget_all_cached();
        }
    })
}

impl Deref for Tracker {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.services
    }
}
