//! `tracker live`: the sessions active in the last five minutes, redrawn in place — the same core query
//! as the dashboard's live stream.

use std::io::Write;
use std::time::Duration;

use clap::Args;
use tracker_core::model::now_ms;

use super::{GlobalArgs, find_site};
use crate::output::{print_json, table};

#[derive(Args)]
#[command(after_help = "Examples:\n  tracker live --site blog.example.com\n  tracker live --site 1 --once\n  \
tracker live --site 1 --once --json | jq length\n  tracker live --site 1 --json   # one JSON array per line, every 2 s")]
pub struct LiveArgs {
    /// Website id or domain
    #[arg(long)]
    pub site: String,
    /// Print one snapshot and exit
    #[arg(long)]
    pub once: bool,
    /// Seconds between refreshes
    #[arg(long, default_value_t = 2, value_name = "SECONDS")]
    pub interval: u64,
}

pub fn run(global: &GlobalArgs, args: &LiveArgs) -> anyhow::Result<()> {
    // The cluster's live sessions in cluster mode, as the dashboard's stream shows them.
    let tracker = global.open_shared()?;
    let site = find_site(&tracker, &args.site)?;
    let redraw = !args.once && !global.json && std::io::IsTerminal::is_terminal(&std::io::stdout());
    loop {
        let sessions = tracker.events.active_sessions(site.id)?;
        if global.json {
            if args.once {
                print_json(&sessions)?;
            } else {
                println!("{}", serde_json::to_string(&sessions)?);
            }
        } else {
            let now = now_ms();
            let mut t = table(&["Session", "Last seen", "Current page", "Country", "Device", "Browser"]);
            for s in &sessions {
                t.add_row(vec![
                    s.session_id.clone(),
                    ago(now - s.last_seen),
                    s.current_page.clone(),
                    or_dash(&s.country),
                    or_dash(&s.device),
                    or_dash(&s.browser),
                ]);
            }
            let mut out = std::io::stdout().lock();
            if redraw {
                // Home the cursor and clear the screen: the table is redrawn in place.
                write!(out, "\x1b[H\x1b[2J")?;
            }
            writeln!(
                out,
                "{} ({}): {} active in the last 5 minutes, {}{}",
                site.name,
                site.domain,
                sessions.len(),
                chrono::Utc::now().format("%H:%M:%S UTC"),
                if redraw { " (Ctrl-C to quit)" } else { "" }
            )?;
            writeln!(out, "{t}")?;
            out.flush()?;
        }
        if args.once {
            return Ok(());
        }
        std::thread::sleep(Duration::from_secs(args.interval.max(1)));
    }
}

fn ago(ms: i64) -> String {
    let s = (ms / 1000).max(0);
    if s < 60 { format!("{s}s ago") } else { format!("{}m {:02}s ago", s / 60, s % 60) }
}

fn or_dash(s: &str) -> String {
    if s.is_empty() { "-".into() } else { s.into() }
}
