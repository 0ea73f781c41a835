//! Finding 8 of issue 33: `tracker config show` printed the PostgreSQL and ClickHouse passwords (SMTP's was
//! already hidden). Every URL's password is hidden now, in the TOML and in the JSON output alike.

use crate::cli::Cli;

#[test]
fn config_show_hides_the_database_passwords() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tracker.toml");
    std::fs::write(
        &path,
        "postgres_url = \"postgres://tracker:pg-s3cret-1@db.internal:5432/tracker\"\n\
         clickhouse_url = \"http://default:ch-s3cret-2@ch1:8123,http://default:ch-s3cret-3@ch2:8123\"\n\
         smtp_url = \"smtps://mailer:smtp-s3cret-4@mail.example.com\"\n\
         jwt_secret = \"jwt-s3cret-5 of at least thirty-two characters\"\n",
    )
    .unwrap();
    let cli = Cli::new(&dir.path().join("data"));
    let config = path.to_str().unwrap();
    let toml = cli.ok(&["--config", config, "config", "show"]);
    let json = cli.json(&["--config", config, "config", "show"]).to_string();
    for shown in [&toml, &json] {
        for secret in ["pg-s3cret-1", "ch-s3cret-2", "ch-s3cret-3", "smtp-s3cret-4", "jwt-s3cret-5"] {
            assert!(!shown.contains(secret), "{secret} is shown:\n{shown}");
        }
        // What the operator needs to check stays: users, hosts, ports, the database.
        for kept in
            ["tracker:(hidden)@db.internal:5432/tracker", "default:(hidden)@ch1:8123", "default:(hidden)@ch2:8123"]
        {
            assert!(shown.contains(kept), "{kept} missing:\n{shown}");
        }
    }
}
