//! `tracker sites`: add, list, edit, remove websites and print their tracking snippet.

use clap::{Args, Subcommand, ValueEnum};
use serde::Serialize;
use tracker_core::Tracker;
use tracker_core::model::{TrackingLevel, Website};
use tracker_core::store::websites::{NewWebsite, WebsiteChanges};

use super::GlobalArgs;
use crate::output::{date, print_json, table};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tracker sites add --name Blog --domain blog.example.com --owner alice@example.com\n  \
tracker sites list\n  tracker sites edit blog.example.com --level enhanced\n  tracker sites snippet 1\n  tracker sites rm 1 --yes"
)]
pub struct SitesArgs {
    #[command(subcommand)]
    command: SitesCommand,
}

#[derive(Subcommand)]
enum SitesCommand {
    /// Register a website for a user
    Add {
        #[arg(long)]
        name: String,
        #[arg(long)]
        domain: String,
        /// Email of the owning account
        #[arg(long)]
        owner: String,
        /// Tracking level [default: light]
        #[arg(long, value_enum)]
        level: Option<Level>,
    },
    /// List websites
    List {
        /// Only the websites of this account
        #[arg(long)]
        owner: Option<String>,
    },
    /// Change a website's name, domain or tracking level
    Edit {
        /// Website id or domain
        site: String,
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        domain: Option<String>,
        /// Tracking level
        #[arg(long, value_enum)]
        level: Option<Level>,
        /// Accept hits only from pages on the site's domain and its subdomains
        #[arg(long)]
        domain_only: Option<bool>,
        /// The site's timezone (an IANA name such as Asia/Kolkata): its days and hours in every read
        #[arg(long)]
        timezone: Option<String>,
    },
    /// Delete a website and all its data
    Rm {
        /// Website id or domain
        site: String,
        /// Confirm the deletion (required: it cannot be undone)
        #[arg(long, short)]
        yes: bool,
    },
    /// Print the tracking snippet to paste into the site's pages
    Snippet {
        /// Website id or domain
        site: String,
    },
}

/// A website as the CLI prints it in JSON, with its owner and script URL.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SiteOutput {
    #[serde(flatten)]
    website: Website,
    owner: String,
    script_url: String,
}

/// What a site's tracking script collects.
#[derive(Clone, Copy, ValueEnum)]
enum Level {
    /// Page views and custom events
    Light,
    /// Adds session replays, heatmaps and CSS-selector event definitions
    Enhanced,
    /// Adds organization detection, identify() and advanced analytics
    Professional,
}

impl From<Level> for TrackingLevel {
    fn from(level: Level) -> TrackingLevel {
        match level {
            Level::Light => TrackingLevel::Light,
            Level::Enhanced => TrackingLevel::Enhanced,
            Level::Professional => TrackingLevel::Professional,
        }
    }
}

pub fn run(global: &GlobalArgs, args: &SitesArgs) -> anyhow::Result<()> {
    let tracker = global.open_shared()?;
    let (base, guessed) = super::daemon_url::base_url(&tracker.settings.get());
    let shows_snippet =
        matches!(args.command, SitesCommand::Add { .. } | SitesCommand::Edit { .. } | SitesCommand::Snippet { .. });
    run_command(global, args, &tracker, &base)?;
    if guessed && shows_snippet {
        eprintln!(
            "note: no public_url is set and no daemon is running on this data folder, so the script URL's {base} is a \
             guess: set public_url (or start `tracker serve`) for the address visitors' browsers reach"
        );
    }
    Ok(())
}

fn run_command(global: &GlobalArgs, args: &SitesArgs, tracker: &Tracker, base: &str) -> anyhow::Result<()> {
    let script_url = |site: &Website| format!("{base}/tracking/{}.js", site.tracking_key);
    let owner_email = |site: &Website| -> String {
        tracker
            .auth
            .list_users()
            .ok()
            .and_then(|users| users.into_iter().find(|u| u.id == site.user_id))
            .map(|u| u.email)
            .unwrap_or_default()
    };
    let show = |site: Website| -> anyhow::Result<()> {
        if global.json {
            let owner = owner_email(&site);
            let script_url = script_url(&site);
            print_json(&SiteOutput { website: site, owner, script_url })
        } else {
            println!("{} (id {}) {} [{}]", site.name, site.id, site.domain, site.tracking_level.as_str());
            println!("tracking key: {}", site.tracking_key);
            println!("script: {}", script_url(&site));
            Ok(())
        }
    };
    match &args.command {
        SitesCommand::Add { name, domain, owner, level } => {
            let owner = tracker.auth.find_user(owner)?;
            let new = NewWebsite {
                name: name.clone(),
                domain: domain.clone(),
                tracking_level: level.map(TrackingLevel::from),
            };
            show(tracker.websites.create(owner.id, new)?)
        }
        SitesCommand::List { owner } => {
            let users = tracker.auth.list_users()?;
            let sites = match owner {
                Some(email) => tracker.websites.list(tracker.auth.find_user(email)?.id)?,
                None => tracker.websites.list_all()?,
            };
            let email_of = |site: &Website| {
                users.iter().find(|u| u.id == site.user_id).map(|u| u.email.clone()).unwrap_or_default()
            };
            if global.json {
                let out: Vec<_> = sites
                    .into_iter()
                    .map(|site| SiteOutput { owner: email_of(&site), script_url: script_url(&site), website: site })
                    .collect();
                return print_json(&out);
            }
            let mut t = table(&["ID", "Name", "Domain", "Level", "Owner", "Tracking key", "Created"]);
            for site in &sites {
                t.add_row(vec![
                    site.id.to_string(),
                    site.name.clone(),
                    site.domain.clone(),
                    site.tracking_level.as_str().to_string(),
                    email_of(site),
                    site.tracking_key.clone(),
                    date(site.created_at),
                ]);
            }
            println!("{t}");
            Ok(())
        }
        SitesCommand::Edit { site, name, domain, level, domain_only, timezone } => {
            let current = super::find_site(tracker, site)?;
            let changes = WebsiteChanges {
                name: name.clone(),
                domain: domain.clone(),
                tracking_level: level.map(TrackingLevel::from),
                domain_only: *domain_only,
                umami_website_id: None,
                timezone: timezone.clone(),
            };
            show(tracker.update_website(current.user_id, current.id, changes)?)
        }
        SitesCommand::Rm { site, yes } => {
            let current = super::find_site(tracker, site)?;
            if !yes {
                anyhow::bail!(
                    "deleting {} ({}, id {}) removes all its data: add --yes to confirm",
                    current.name,
                    current.domain,
                    current.id
                );
            }
            tracker.delete_website(current.user_id, current.id)?;
            if global.json {
                print_json(&serde_json::json!({ "deleted": current.id }))
            } else {
                println!("deleted website {} ({}) and all its data", current.name, current.id);
                Ok(())
            }
        }
        SitesCommand::Snippet { site } => {
            let site = super::find_site(tracker, site)?;
            let url = script_url(&site);
            if global.json {
                print_json(&serde_json::json!({ "scriptUrl": url, "snippet": snippet(&url) }))
            } else {
                println!("{}", snippet(&url));
                Ok(())
            }
        }
    }
}

/// The HTML to paste into every page of the site.
pub fn snippet(script_url: &str) -> String {
    format!("<script async src=\"{script_url}\"></script>")
}
