//! `tracker users`: add, list and remove accounts, set a password, and reset two-factor sign-in.

use std::io::Read;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};

use super::GlobalArgs;
use crate::output::{date, print_json, table};

#[derive(Args)]
#[command(after_help = "Examples:\n  tracker users add alice@example.com --password 's3cret!'\n  \
echo 's3cret!' | tracker users add bob@example.com --password-stdin\n  tracker users list --json\n  \
echo 'n3w-s3cret!' | tracker users passwd bob@example.com\n  tracker users 2fa-reset bob@example.com\n  \
tracker users rm bob@example.com --yes")]
pub struct UsersArgs {
    #[command(subcommand)]
    command: UsersCommand,
}

#[derive(Subcommand)]
enum UsersCommand {
    /// Create an account
    Add {
        /// Email address of the account
        email: String,
        /// Password (at least 6 characters); prefer --password-stdin in scripts
        #[arg(long, conflicts_with = "password_stdin")]
        password: Option<String>,
        /// Read the password from standard input
        #[arg(long)]
        password_stdin: bool,
    },
    /// List accounts
    List,
    /// Set an account's password, read from standard input; every sign-in of the account ends
    Passwd {
        /// Email address of the account
        email: String,
    },
    /// Turn two-factor sign-in off for an account that lost its authenticator (or had one enrolled by someone
    /// else): its secret and recovery codes are forgotten, every sign-in of the account ends, and the reset
    /// is recorded in the account's audit log
    #[command(name = "2fa-reset")]
    TwoFactorReset {
        /// Email address of the account
        email: String,
    },
    /// Delete an account with all its websites and their data
    Rm {
        /// Email address of the account
        email: String,
        /// Confirm the deletion (required: it cannot be undone)
        #[arg(long, short)]
        yes: bool,
    },
}

pub fn run(global: &GlobalArgs, args: &UsersArgs) -> anyhow::Result<()> {
    match &args.command {
        UsersCommand::Add { email, password, password_stdin } => {
            let password = match (password, password_stdin) {
                (Some(p), _) => p.clone(),
                (None, true) => read_password()?,
                (None, false) => bail!("give a password with --password or --password-stdin"),
            };
            let tracker = global.open_or_create()?;
            let user = tracker.auth.create_user(email, &password)?;
            if global.json {
                print_json(&user)
            } else {
                println!("created user {} (id {})", user.email, user.id);
                Ok(())
            }
        }
        UsersCommand::List => {
            let tracker = global.open_shared()?;
            let users = tracker.auth.list_users()?;
            if global.json {
                return print_json(&users);
            }
            let mut t = table(&["ID", "Email", "Created"]);
            for user in &users {
                t.add_row(vec![user.id.to_string(), user.email.clone(), date(user.created_at)]);
            }
            println!("{t}");
            Ok(())
        }
        UsersCommand::Passwd { email } => {
            let password = read_password()?;
            let tracker = global.open_shared()?;
            let user = tracker.auth.find_user(email).with_context(|| format!("unknown user '{email}'"))?;
            tracker.auth.set_password(user.id, &password)?;
            if global.json {
                print_json(&serde_json::json!({ "updated": user.id }))
            } else {
                println!("changed the password of {} (id {}); its sign-ins have ended", user.email, user.id);
                Ok(())
            }
        }
        UsersCommand::TwoFactorReset { email } => {
            let tracker = global.open_shared()?;
            let user = tracker.auth.find_user(email).with_context(|| format!("unknown user '{email}'"))?;
            let ended = tracker.auth.reset_two_factor(user.id)?;
            if global.json {
                print_json(&serde_json::json!({ "reset": user.id, "signInsEnded": ended }))
            } else {
                println!(
                    "turned two-factor sign-in off for {} (id {}); {ended} sign-in(s) ended, recorded in its audit log",
                    user.email, user.id
                );
                Ok(())
            }
        }
        UsersCommand::Rm { email, yes } => {
            let tracker = global.open_shared()?;
            let user = tracker.auth.find_user(email).with_context(|| format!("unknown user '{email}'"))?;
            if !yes {
                bail!("deleting {} removes its websites and all their data: add --yes to confirm", user.email);
            }
            tracker.remove_user(user.id)?;
            if global.json {
                print_json(&serde_json::json!({ "deleted": user.id }))
            } else {
                println!("deleted user {} (id {}) with its websites and their data", user.email, user.id);
                Ok(())
            }
        }
    }
}

/// A password from standard input (a trailing newline is not part of it).
fn read_password() -> anyhow::Result<String> {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input)?;
    let password = input.trim_end_matches(['\n', '\r']);
    if password.is_empty() {
        bail!("no password on standard input");
    }
    Ok(password.to_string())
}
