//! Integration tests: the real daemon on a port-0 listener and a temp data folder, and the built binary.

mod util;

mod auth;
mod cli;
mod dashboard;
mod dashboard_reads;
mod durability;
mod reads;
mod track;
mod websites;
