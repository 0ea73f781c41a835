//! Security regressions: one module per finding of the attack review (issue 12), each test named after it and
//! run against the real daemon on a loopback port and a real SQLite file.

mod account_ids;
mod client_address;
mod csv_formulas;
mod data_at_rest;
mod funnel_patterns;
mod http_surface;
mod import_bad_rows;
mod long_funnels;
mod registration;
mod replay_bomb;
mod revocation;
mod visitor_salt;
