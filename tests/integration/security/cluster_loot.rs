//! What an attacker holding a cluster's databases can read (issue 33, findings 1 and 2): every value of every
//! table of the test's PostgreSQL schema and of its ClickHouse database on every shard, as text and bytes.

use std::collections::HashSet;

use serde_json::Value;
use tracker_core::cluster::clickhouse::{Node, quote};

use crate::cluster::Corner;

/// Every value found: integers apart (the visitor hashes are integers), everything else as bytes.
pub(crate) struct ClusterLoot {
    pub(crate) integers: HashSet<i64>,
    /// Text values as their bytes, and `bytea` values decoded (as well as their hex text).
    pub(crate) values: HashSet<Vec<u8>>,
    /// The tables read, as `pg.<table>` and `ch.<table>`: what the test shows it searched.
    pub(crate) tables: Vec<String>,
}

impl ClusterLoot {
    fn add_text(&mut self, text: &str) {
        if let Ok(n) = text.parse::<i64>() {
            self.integers.insert(n);
        } else if let Ok(n) = text.parse::<u64>() {
            // ClickHouse keeps the visitor hash unsigned (its sharding key): the same 64 bits.
            self.integers.insert(n as i64);
        }
        if let Some(hex) = text.strip_prefix("\\x")
            && let Some(bytes) = decode_hex(hex)
        {
            self.values.insert(bytes);
        }
        self.values.insert(text.as_bytes().to_vec());
    }

    fn add_json(&mut self, value: &Value) {
        match value {
            Value::Null | Value::Bool(_) => {}
            Value::Number(n) => self.add_text(&n.to_string()),
            Value::String(s) => self.add_text(s),
            Value::Array(items) => items.iter().for_each(|v| self.add_json(v)),
            Value::Object(fields) => {
                // A JSON column holds text too: keep it whole and each of its values.
                self.values.insert(value.to_string().into_bytes());
                fields.values().for_each(|v| self.add_json(v));
            }
        }
    }
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok()).collect()
}

/// Reads everything the corner's PostgreSQL schema and ClickHouse database hold.
pub(crate) async fn loot(corner: &Corner) -> ClusterLoot {
    let (pg_url, schema, ch) = (corner.base_postgres_url(), corner.name.clone(), corner.ch.clone());
    tokio::task::spawn_blocking(move || {
        let mut loot = ClusterLoot { integers: HashSet::new(), values: HashSet::new(), tables: Vec::new() };
        let mut client = postgres::Client::connect(&pg_url, postgres::NoTls).unwrap();
        let tables: Vec<String> = client
            .query("SELECT tablename::text FROM pg_tables WHERE schemaname = $1 ORDER BY 1", &[&schema])
            .unwrap()
            .iter()
            .map(|row| row.get(0))
            .collect();
        for table in &tables {
            // Each row as JSON: every column's value as text, bytea as its \x hex form.
            let sql = format!("SELECT row_to_json(t)::text FROM \"{schema}\".\"{table}\" t");
            for row in client.query(&sql, &[]).unwrap() {
                let text: String = row.get(0);
                loot.add_json(&serde_json::from_str(&text).unwrap());
            }
            loot.tables.push(format!("pg.{table}"));
        }
        for url in ch.split(',') {
            let node = Node::new(url);
            let tables = node
                .query(&format!(
                    "SELECT name FROM system.tables WHERE database = {} AND engine NOT IN ('Distributed', 'View')
                     ORDER BY name",
                    quote(&schema)
                ))
                .unwrap();
            for table in tables.iter().map(|row| row[0].clone()) {
                for row in node.query(&format!("SELECT * FROM {schema}.{table}")).unwrap() {
                    row.iter().for_each(|field| loot.add_text(field));
                }
                loot.tables.push(format!("ch.{table}"));
            }
        }
        loot.tables.sort();
        loot.tables.dedup();
        loot
    })
    .await
    .unwrap()
}
