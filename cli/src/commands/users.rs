//! `tracker users`: add and list accounts.

use std::io::Read;

use anyhow::bail;
use clap::{Args, Subcommand};

use super::GlobalArgs;
use crate::output::{date, print_json, table};

#[derive(Args)]
#[command(after_help = "Examples:\n  tracker users add alice@example.com --password 's3cret!'\n  \
echo 's3cret!' | tracker users add bob@example.com --password-stdin\n  tracker users list --json")]
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
}

pub fn run(global: &GlobalArgs, args: &UsersArgs) -> anyhow::Result<()> {
    match &args.command {
        UsersCommand::Add { email, password, password_stdin } => {
            let password = match (password, password_stdin) {
                (Some(p), _) => p.clone(),
                (None, true) => {
                    let mut input = String::new();
                    std::io::stdin().read_to_string(&mut input)?;
                    input.trim_end_matches(['\n', '\r']).to_string()
                }
                (None, false) => bail!("give a password with --password or --password-stdin"),
            };
            let tracker = global.open()?;
            let user = tracker.auth.create_user(email, &password)?;
            if global.json {
                print_json(&user)
            } else {
                println!("created user {} (id {})", user.email, user.id);
                Ok(())
            }
        }
        UsersCommand::List => {
            let tracker = global.open()?;
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
    }
}
