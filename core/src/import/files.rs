//! Reading the exports: CSV files plain or gzipped (GoatCounter gzips its export), folders and zips of them
//! (Plausible), with the bytes read reported for a progress bar and the header checked for the columns a
//! source needs.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use csv::StringRecord;

use super::{BadRow, Source};
use crate::error::{Error, Result};
use crate::model::Millis;

/// The bytes an import of `path` reads (a progress bar's length): the file's size, or the CSVs' sizes in a
/// folder or zip.
pub fn input_size(path: &Path) -> Result<u64> {
    if path.is_dir() {
        let mut total = 0;
        for entry in std::fs::read_dir(path)? {
            let entry = entry?;
            if entry.file_name().to_string_lossy().ends_with(".csv") {
                total += entry.metadata()?.len();
            }
        }
        return Ok(total);
    }
    if is_zip(path)? {
        let mut zip = open_zip(path)?;
        let mut total = 0;
        for i in 0..zip.len() {
            let entry = zip.by_index(i).map_err(|e| zip_error(path, e))?;
            if entry.name().map_err(|e| zip_error(path, e))?.ends_with(".csv") {
                total += entry.size();
            }
        }
        return Ok(total);
    }
    Ok(std::fs::metadata(path)?.len())
}

/// A reader that reports how many bytes went through it.
pub(super) struct Counting<'a, R> {
    inner: R,
    progress: &'a dyn Fn(u64),
}

impl<'a, R: Read> Counting<'a, R> {
    pub fn new(inner: R, progress: &'a dyn Fn(u64)) -> Self {
        Counting { inner, progress }
    }
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        (self.progress)(n as u64);
        Ok(n)
    }
}

/// How many times its compressed size a compressed input (a gzip, a zip's entry) may expand to. Real exports
/// of these tools compress 5 to 30 times; a compression bomb (a small file of gigabytes of one byte) compresses
/// a thousand times and more.
pub(super) const MAX_EXPANSION: u64 = 200;
/// The least a compressed input may always expand to, so a small file is never refused for compressing well.
const MIN_EXPANSION_BOUND: u64 = 16 << 20;

/// A decompressing reader that fails, with [`Expanded`], once more than `bound` bytes have come out of it: a
/// compression bomb is refused at its bound instead of being read (and its rows parsed) to the end.
pub(super) struct Bounded<R> {
    inner: R,
    left: u64,
    bound: u64,
}

impl<R: Read> Bounded<R> {
    /// `inner` decompressing an input of `compressed` bytes.
    pub fn new(inner: R, compressed: u64) -> Self {
        let bound = compressed.saturating_mul(MAX_EXPANSION).max(MIN_EXPANSION_BOUND);
        Bounded { inner, left: bound, bound }
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.left = self
            .left
            .checked_sub(n as u64)
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidData, Expanded { bound: self.bound }))?;
        Ok(n)
    }
}

/// A [`Bounded`] reader's failure: the input expanded past `bound` bytes.
#[derive(Debug)]
pub(super) struct Expanded {
    bound: u64,
}

impl std::fmt::Display for Expanded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "it expands to more than {} MiB", self.bound >> 20)
    }
}

impl std::error::Error for Expanded {}

/// An error reading `file` as CSV: a compressed input past its bound is too large (413: a compression bomb),
/// anything else unreadable (400) with `what` could not be read.
pub(super) fn read_error(file: &str, what: &str, e: &csv::Error) -> Error {
    if let csv::ErrorKind::Io(io) = e.kind()
        && let Some(expanded) = io.get_ref().and_then(|inner| inner.downcast_ref::<Expanded>())
    {
        return Error::TooLarge(format!(
            "{file}: {expanded}, {MAX_EXPANSION} times its compressed size (real exports compress far less): refused \
             as a compression bomb"
        ));
    }
    Error::invalid(format!("{file}: {what}: {e}"))
}

/// Opens a file for reading, gunzipping it when it is gzipped (counted before decompression, bounded after).
pub(super) fn open_maybe_gz<'a>(path: &Path, progress: &'a dyn Fn(u64)) -> Result<Box<dyn Read + 'a>> {
    let mut file = File::open(path).map_err(|e| Error::invalid(format!("cannot open {}: {e}", path.display())))?;
    let mut magic = [0u8; 2];
    let gz = file.read(&mut magic)? == 2 && magic == [0x1f, 0x8b];
    let file = File::open(path)?;
    let compressed = file.metadata()?.len();
    let counted = BufReader::new(Counting::new(file, progress));
    Ok(if gz {
        Box::new(Bounded::new(flate2::bufread::MultiGzDecoder::new(counted), compressed))
    } else {
        Box::new(counted)
    })
}

/// Whether a file starts like a zip archive.
pub(super) fn is_zip(path: &Path) -> Result<bool> {
    if path.is_dir() {
        return Ok(false);
    }
    let mut magic = [0u8; 4];
    let mut file = File::open(path).map_err(|e| Error::invalid(format!("cannot open {}: {e}", path.display())))?;
    Ok(file.read(&mut magic)? == 4 && magic == *b"PK\x03\x04")
}

pub(super) fn open_zip(path: &Path) -> Result<zip::ZipArchive<BufReader<File>>> {
    let file = File::open(path)?;
    zip::ZipArchive::new(BufReader::new(file)).map_err(|e| zip_error(path, e))
}

pub(super) fn zip_error(path: &Path, e: zip::result::ZipError) -> Error {
    Error::invalid(format!("{}: not a readable zip archive: {e}", path.display()))
}

/// A CSV reader over an export file: headers trimmed, rows of varying length reported as bad rows.
pub(super) fn csv_reader<R: Read>(input: R) -> csv::Reader<R> {
    csv::ReaderBuilder::new().trim(csv::Trim::Headers).flexible(false).from_reader(input)
}

/// The header row of a CSV file.
pub(super) fn headers<R: Read>(reader: &mut csv::Reader<R>, file: &str) -> Result<StringRecord> {
    reader.headers().cloned().map_err(|e| read_error(file, "cannot read the header", &e))
}

/// The header of an export file: where each named column is.
pub(super) struct Columns {
    index: HashMap<String, usize>,
}

impl Columns {
    /// Reads the header, failing with the missing columns' names when one of `required` is absent (the file is
    /// not what `source` exports).
    pub fn new(headers: &StringRecord, required: &[&str], file: &str, source: Source) -> Result<Columns> {
        let index: HashMap<String, usize> =
            headers.iter().enumerate().map(|(i, h)| (h.trim().to_ascii_lowercase(), i)).collect();
        let missing: Vec<&str> =
            required.iter().copied().filter(|c| !index.contains_key(&c.to_ascii_lowercase())).collect();
        if !missing.is_empty() {
            return Err(Error::invalid(format!(
                "{file} is not a {} export: missing column{} {} (found: {})",
                source.label(),
                if missing.len() == 1 { "" } else { "s" },
                missing.join(", "),
                headers.iter().collect::<Vec<_>>().join(", ")
            )));
        }
        Ok(Columns { index })
    }

    /// The trimmed cell of a column in `row` ('' when the file has no such column).
    pub fn get<'r>(&self, row: &'r StringRecord, name: &str) -> &'r str {
        self.index.get(name).and_then(|&i| row.get(i)).map(str::trim).unwrap_or("")
    }
}

/// Reads every record of `reader`, giving each to `each` with its line; unreadable rows and rows `each`
/// rejects become bad rows with their line.
pub(super) fn for_each_row<R: Read>(
    reader: &mut csv::Reader<R>,
    file: &str,
    parsed: &mut super::Parsed,
    mut each: impl FnMut(&StringRecord, &mut super::Parsed) -> std::result::Result<(), String>,
) -> Result<()> {
    let mut row = StringRecord::new();
    loop {
        if parsed.bad.stop() {
            return Ok(());
        }
        match reader.read_record(&mut row) {
            Ok(false) => return Ok(()),
            Ok(true) => {
                let line = row.position().map(|p| p.line()).unwrap_or(0);
                if let Err(reason) = each(&row, parsed) {
                    parsed.bad.push(BadRow { file: file.to_string(), line, reason });
                }
            }
            Err(e) => {
                let line = e.position().map(|p| p.line()).unwrap_or(0);
                match e.kind() {
                    csv::ErrorKind::UnequalLengths { expected_len, len, .. } => parsed.bad.push(BadRow {
                        file: file.to_string(),
                        line,
                        reason: format!("{len} fields where the header has {expected_len}"),
                    }),
                    csv::ErrorKind::Utf8 { .. } => {
                        parsed.bad.push(BadRow { file: file.to_string(), line, reason: "not UTF-8 text".into() })
                    }
                    _ => return Err(read_error(file, "cannot read the CSV", &e)),
                }
            }
        }
    }
}

/// Parses a time as the exports write it: RFC 3339, `YYYY-MM-DD HH:MM:SS[.fff]` in UTC (Umami's CSV), or with
/// the offset psql prints for a `timestamptz` (`2026-10-01 02:16:41.123+00`, `+00:00`, `+0530`).
pub(super) fn parse_time(s: &str) -> Option<Millis> {
    if let Ok(t) = chrono::DateTime::parse_from_rfc3339(s) {
        return Some(t.timestamp_millis());
    }
    // `%#z` takes an offset with or without its minutes, as psql writes `+00`.
    if let Some(t) = ["%Y-%m-%d %H:%M:%S%.f%#z", "%Y-%m-%dT%H:%M:%S%.f%#z"]
        .iter()
        .find_map(|f| chrono::DateTime::parse_from_str(s, f).ok())
    {
        return Some(t.timestamp_millis());
    }
    ["%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M:%S%.f"]
        .iter()
        .find_map(|f| chrono::NaiveDateTime::parse_from_str(s, f).ok())
        .map(|t| t.and_utc().timestamp_millis())
}

/// Parses a day `YYYY-MM-DD` into ms of its midnight (UTC).
pub(super) fn parse_day(s: &str) -> Option<Millis> {
    chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .ok()
        .and_then(|d| d.and_hms_opt(0, 0, 0))
        .map(|t| t.and_utc().timestamp_millis())
}

/// A count cell: a whole number ≥ 0 ('' counts as 0, as the exports write empty cells for none).
pub(super) fn count(name: &str, s: &str) -> std::result::Result<i64, String> {
    if s.is_empty() {
        return Ok(0);
    }
    s.parse::<i64>().ok().filter(|n| *n >= 0).ok_or_else(|| format!("{name}: not a count: '{s}'"))
}

/// The host of a referrer as tracker keeps it: lower case, without `www.`, '' for none.
pub(super) fn referrer_host(referrer: &str) -> String {
    let with_scheme = if referrer.contains("://") { referrer.to_string() } else { format!("https://{referrer}") };
    url::Url::parse(&with_scheme)
        .ok()
        .and_then(|u| u.host_str().map(|h| h.trim_start_matches("www.").to_ascii_lowercase()))
        .unwrap_or_default()
}

/// The utm parameters of a query string (without `?`).
pub(super) fn utm_of_query(query: &str) -> (String, String, String) {
    let (mut source, mut medium, mut campaign) = (String::new(), String::new(), String::new());
    for (key, value) in url::form_urlencoded::parse(query.trim_start_matches('?').as_bytes()) {
        let value: String = value.chars().take(200).collect();
        match key.as_ref() {
            "utm_source" => source = value,
            "utm_medium" => medium = value,
            "utm_campaign" => campaign = value,
            _ => {}
        }
    }
    (source, medium, campaign)
}

/// Cuts a value to `max` characters, as the ingest limits do.
pub(super) fn capped(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}
