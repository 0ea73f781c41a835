//! Security regressions: one module per finding of the attack reviews (issues 12 and 33), each test named after it and
//! run against the real daemon on a loopback port and a real SQLite file.

mod account_ids;
mod client_address;
mod config_secrets;
mod csv_formulas;
mod data_at_rest;
mod http_surface;
mod nul_bytes;
mod registration;
mod replay_bomb;
mod revocation;
mod smtp_clear_text;
mod two_factor_takeover;
mod unverified_mail;
mod visitor_salt;
