//! Finding 9 of issue 33: `smtp://user:pass@host:587` authenticated without TLS and nothing warned, so the
//! mail server's password crossed the network in clear text. Credentials on a URL without required TLS are
//! refused now, with a clear configuration error at load, at reload and from `tracker email test`, unless the
//! server is on this machine.

use std::time::Duration;

use crate::cli::{Cli, has_line, start_daemon};
use crate::util::wait_for;

const PLAIN: &str = "smtp://mailer:s3cret@mail.example.com:587";

#[test]
fn smtp_credentials_over_a_plain_connection_are_refused_at_load_and_by_email_test() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tracker.toml");
    let cli = Cli::new(&dir.path().join("data"));
    let config = path.to_str().unwrap();
    for refused in [PLAIN, "smtp://mailer:s3cret@mail.example.com:587?tls=opportunistic"] {
        std::fs::write(&path, format!("smtp_url = \"{refused}\"\n")).unwrap();
        for args in [
            &["--config", config, "config", "check"][..],
            &["--config", config, "email", "test", "--to", "ops@example.com"],
        ] {
            let error = cli.fails(args);
            assert!(error.contains("smtp_url") && error.contains("clear text"), "{refused} {args:?}: {error}");
            assert!(!error.contains("s3cret"), "the password is not repeated: {error}");
        }
    }
    for accepted in [
        "smtps://mailer:s3cret@mail.example.com",
        "smtp://mailer:s3cret@mail.example.com:587?tls=required",
        "smtp://mailer:s3cret@127.0.0.1:2525",
        "smtp://mail.example.com:25",
    ] {
        std::fs::write(&path, format!("smtp_url = \"{accepted}\"\n")).unwrap();
        assert!(cli.ok(&["--config", config, "config", "check"]).contains("configuration ok"), "{accepted}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_to_smtp_credentials_over_a_plain_connection_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tracker.toml");
    std::fs::write(&path, "smtp_url = \"smtps://mailer:s3cret@mail.example.com\"\n").unwrap();
    let cli = Cli::new(&dir.path().join("data"));
    let (mut child, stderr, _) = start_daemon(&cli, &["--config", path.to_str().unwrap()]).await;
    wait_for("the config watch", Duration::from_secs(10), || {
        let found = has_line(&stderr, "watching the config file");
        async move { found }
    })
    .await;
    std::fs::write(&path, format!("smtp_url = \"{PLAIN}\"\n")).unwrap();
    let warning = wait_for("the invalid-file warning", Duration::from_secs(10), || {
        let found = has_line(&stderr, "config file is invalid");
        async move { found }
    })
    .await;
    assert!(warning.contains("clear text"), "{warning}");
    assert!(has_line(&stderr, "config reloaded").is_none(), "the running settings stay");
    child.kill().unwrap();
    child.wait().unwrap();
}
