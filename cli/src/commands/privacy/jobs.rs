//! `tracker privacy jobs`: the deletions still under way in the background. On a cluster, deleting a site or
//! an account, a site's data (`tracker privacy delete`) or a visitor answers at once and leaves the deletion on
//! the shards to a job any daemon runs and retries until done; this lists them (none on SQLite, whose deletions
//! finish at once).

use clap::Args;

use super::super::GlobalArgs;
use crate::output::{date, print_json, table};

#[derive(Args)]
#[command(
    after_help = "A job that failed (a shard unreachable) shows why and is retried with backoff, up to a minute \
apart,\nuntil every shard has deleted what it deletes (a site's reads wait for its data's deletion); `tracker_deletion_jobs*` in /metrics count them.\n\n\
Examples:\n  tracker privacy jobs\n  tracker privacy jobs --json"
)]
pub struct JobsArgs {}

pub fn run(global: &GlobalArgs, _args: &JobsArgs) -> anyhow::Result<()> {
    let tracker = global.open_shared()?;
    let jobs = tracker.events.deletion_jobs()?;
    if global.json {
        return print_json(&jobs);
    }
    if jobs.is_empty() {
        println!("No deletion under way.");
        return Ok(());
    }
    let mut out = table(&["Job", "Sites", "Deletes", "Queued", "Attempts", "State", "Last error"]);
    for job in &jobs {
        let sites: Vec<String> = job.website_ids.iter().map(i64::to_string).collect();
        let state = match (job.running, &job.last_error) {
            (true, _) => "running".to_string(),
            (false, Some(_)) => format!("retry at {}", date(job.run_after)),
            (false, None) => "waiting".to_string(),
        };
        out.add_row(vec![
            job.id.to_string(),
            sites.join(", "),
            job.deletes.clone(),
            date(job.created_at),
            job.attempts.to_string(),
            state,
            job.last_error.clone().unwrap_or_default(),
        ]);
    }
    println!("{out}");
    Ok(())
}
