//! Integration tests: the real daemon on a port-0 listener and a temp data folder.

mod dashboard_reads;
