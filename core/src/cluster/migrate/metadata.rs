//! The metadata half of a copy: every table SQLite and PostgreSQL share, with its ids, in one transaction.

use postgres::types::ToSql;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension};

use super::Progress;
use crate::cluster::Cluster;
use crate::error::{Error, Result};
use crate::model::now_ms;

/// The metadata tables copied, parents before children. Columns are those both engines have (a SQLite column
/// the cluster keeps elsewhere, such as an organization's visit count, which ClickHouse counts, is left out).
/// Sign-ins (auth sessions and refresh tokens) are not copied: the cluster signs tokens with its own secret,
/// so everyone signs in once more.
const METADATA_TABLES: &[&str] = &[
    "users",
    "recovery_codes",
    "account_audit",
    "sign_ins",
    "websites",
    "event_definitions",
    "privacy_settings",
    "privacy_audit",
    "consent_logs",
    "funnels",
    "funnel_steps",
    "organizations",
    // Interrupted imports too: their rows are copied with the rest (hits as events, aggregates in
    // `imported_days`), and the site's next import undoes them on the cluster as it would in the data folder.
    "imports",
    "import_days",
    "emails_sent",
    "annotations",
    "saved_segments",
    // Sharing and access travel with the sites. A share link's slug is sealed under the folder's secret: it
    // still opens by its hash on the cluster, but the owner is shown its address only when the cluster signs
    // with that same secret.
    "site_members",
    "site_invitations",
    "api_keys",
    "shared_links",
];

/// Rows sent in one PostgreSQL insert (its parameters stay under the protocol's 65,535).
const METADATA_ROWS_PER_INSERT: usize = 500;

/// Copies every metadata table and records the copy as started, in one transaction; then no id the copy
/// brought can be handed out again (each identity moves past the highest id SQLite ever gave, deleted ones
/// included), and visit ids continue after SQLite's.
pub(super) fn copy_metadata(
    conn: &Connection,
    cluster: &Cluster,
    source: &str,
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<(String, u64)>> {
    let mut copied = Vec::new();
    cluster.pg.with(|client| {
        let mut tx = client.transaction()?;
        tx.execute("INSERT INTO migrated_from (source, started_at) VALUES ($1, $2)", &[&source, &now_ms()])?;
        for table in METADATA_TABLES {
            let rows = copy_table(conn, &mut tx, table)?;
            progress(Progress::Metadata { table, rows });
            copied.push((table.to_string(), rows));
        }
        let highest_visit: i64 = conn.query_row("SELECT COALESCE(MAX(id), 0) FROM sessions", [], |r| r.get(0))?;
        if highest_visit > 0 {
            tx.execute("SELECT setval('ingest_visit_ids', $1)", &[&highest_visit])?;
        }
        tx.commit()?;
        Ok(())
    })?;
    Ok(copied)
}

/// A column of a PostgreSQL table: its name, type and whether it is an identity.
struct Column {
    name: String,
    data_type: String,
    identity: bool,
}

/// Copies one table's rows, in the columns both engines have, keeping ids; moves an identity past them.
fn copy_table(conn: &Connection, tx: &mut postgres::Transaction, table: &'static str) -> Result<u64> {
    let sqlite_columns: Vec<String> = {
        let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
        stmt.query_map([table], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?
    };
    let columns: Vec<Column> = tx
        .query(
            "SELECT column_name, data_type, is_identity = 'YES' FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
            &[&table],
        )?
        .into_iter()
        .map(|r| Column { name: r.get(0), data_type: r.get(1), identity: r.get(2) })
        .filter(|c| sqlite_columns.contains(&c.name))
        .collect();
    if columns.is_empty() {
        return Err(Error::Internal(format!("migrate: no column of {table} is in both databases")));
    }
    // Names come from the two schemas, not from input; quoted all the same.
    let names: Vec<String> = columns.iter().map(|c| format!("\"{}\"", c.name)).collect();
    let mut stmt = conn.prepare(&format!("SELECT {} FROM {table}", names.join(", ")))?;
    let mut rows = stmt.query([])?;
    let mut batch: Vec<Box<dyn ToSql + Sync>> = Vec::new();
    let mut count = 0u64;
    let flush = |tx: &mut postgres::Transaction, batch: &mut Vec<Box<dyn ToSql + Sync>>| -> Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let width = columns.len();
        let tuples: Vec<String> = (0..batch.len() / width)
            .map(|row| {
                let marks: Vec<String> = (1..=width).map(|i| format!("${}", row * width + i)).collect();
                format!("({})", marks.join(", "))
            })
            .collect();
        let sql =
            format!("INSERT INTO {table} ({}) OVERRIDING SYSTEM VALUE VALUES {}", names.join(", "), tuples.join(", "));
        let params: Vec<&(dyn ToSql + Sync)> = batch.iter().map(|b| b.as_ref()).collect();
        tx.execute(&sql, &params)?;
        batch.clear();
        Ok(())
    };
    while let Some(row) = rows.next()? {
        for (i, column) in columns.iter().enumerate() {
            batch.push(pg_value(table, column, row.get(i)?)?);
        }
        count += 1;
        if (count as usize).is_multiple_of(METADATA_ROWS_PER_INSERT) {
            flush(tx, &mut batch)?;
        }
    }
    flush(tx, &mut batch)?;
    if let Some(identity) = columns.iter().find(|c| c.identity) {
        // AUTOINCREMENT's counter holds the highest id ever given, the deleted accounts' and sites' too.
        let ever: i64 = conn
            .query_row("SELECT seq FROM sqlite_sequence WHERE name = ?1", [table], |r| r.get(0))
            .optional()
            .unwrap_or(None)
            .unwrap_or(0);
        let highest: i64 =
            conn.query_row(&format!("SELECT COALESCE(MAX(\"{}\"), 0) FROM {table}", identity.name), [], |r| r.get(0))?;
        let next = highest.max(ever);
        if next > 0 {
            tx.execute("SELECT setval(pg_get_serial_sequence($1, $2), $3)", &[&table, &identity.name, &next])?;
        }
    }
    Ok(count)
}

/// A SQLite value as the PostgreSQL column's type takes it.
fn pg_value(table: &str, column: &Column, value: Value) -> Result<Box<dyn ToSql + Sync>> {
    let mismatch = |v: &Value| {
        Error::Internal(format!("migrate: {table}.{} holds {v:?}, not a {}", column.name, column.data_type))
    };
    Ok(match (column.data_type.as_str(), value) {
        ("bigint", Value::Integer(i)) => Box::new(i),
        ("bigint", Value::Null) => Box::new(None::<i64>),
        ("integer", Value::Integer(i)) => Box::new(i32::try_from(i).map_err(|_| mismatch(&Value::Integer(i)))?),
        ("integer", Value::Null) => Box::new(None::<i32>),
        ("boolean", Value::Integer(i)) => Box::new(i != 0),
        ("boolean", Value::Null) => Box::new(None::<bool>),
        ("double precision", Value::Real(f)) => Box::new(f),
        ("double precision", Value::Integer(i)) => Box::new(i as f64),
        ("double precision", Value::Null) => Box::new(None::<f64>),
        ("text", Value::Text(s)) => Box::new(s),
        ("text", Value::Integer(i)) => Box::new(i.to_string()),
        ("text", Value::Real(f)) => Box::new(f.to_string()),
        ("text", Value::Null) => Box::new(None::<String>),
        ("bytea", Value::Blob(b)) => Box::new(b),
        ("bytea", Value::Text(s)) => Box::new(s.into_bytes()),
        ("bytea", Value::Null) => Box::new(None::<Vec<u8>>),
        (_, v) => return Err(mismatch(&v)),
    })
}
