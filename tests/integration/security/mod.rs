//! Security regressions: one module per finding of the attack reviews (issues 12 and 33), each test named after
//! it and run against the real daemon on a loopback port and a real SQLite file, or for cluster-only findings
//! (`cluster_*`) on two daemons of the harness cluster (tests/cluster/cluster.sh).

mod account_ids;
mod api_keys;
mod array_bodies;
mod client_address;
mod cluster_api_keys;
mod cluster_loot;
mod cluster_signing_secret;
mod cluster_visitor_salt;
mod config_secrets;
mod csv_formulas;
mod data_at_rest;
mod funnel_patterns;
mod http_surface;
mod import_bad_rows;
mod long_funnels;
mod members;
mod nul_bytes;
mod registration;
mod replay_bomb;
mod revocation;
mod share_links;
mod smtp_clear_text;
mod two_factor_takeover;
mod unverified_mail;
mod visitor_salt;
