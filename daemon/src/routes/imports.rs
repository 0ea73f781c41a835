//! POST /api/websites/{id}/imports?from=plausible|umami|goatcounter: the dashboard's Import card. The body is the
//! export file as the tool wrote it (zip, csv or gz), streamed to a temporary folder in the data folder (memory
//! stays a chunk however large the file, as the CLI's import reads from disk), at most `import_max_bytes`
//! (413 beyond, before or while reading); then imported by the same core import as `tracker import`, whose
//! report is the answer (its `--json` report). The temporary folder goes however the import ends.

use bytes::Buf;
use futures_util::{Stream, StreamExt};
use serde::Deserialize;
use tokio::io::AsyncWriteExt;
use tracker_core::import::{ImportOptions, ImportReport, Source};
use tracker_core::model::{Caller, WebsiteId};
use tracker_core::{Error, Tracker};
use warp::{Filter, Rejection, Reply};

use super::{blocking, user, with_tracker};
use crate::error::{ErrorBody, reject};

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct ImportQuery {
    /// The tool the file comes from: plausible, umami or goatcounter.
    from: String,
    /// The file's own name, kept in the site's list of imports ("upload" without one).
    name: Option<String>,
    /// Import the readable rows and report the others (by default a bad row stops the import, nothing written).
    skip_bad_rows: Option<bool>,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("websites" / WebsiteId / "imports")
        .and(warp::post())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and(
            warp::query::<ImportQuery>()
                .or_else(|_| async { Err(reject(Error::invalid("from must be plausible, umami or goatcounter"))) }),
        )
        .and(warp::header::optional::<u64>("content-length"))
        .and(warp::body::stream())
        .and_then(upload)
}

#[utoipa::path(
    post,
    path = "/api/websites/{id}/imports",
    tag = "websites",
    operation_id = "importHistory",
    params(("id" = i64, Path, description = "Website id"), ImportQuery),
    request_body(content = Vec<u8>, content_type = "application/octet-stream", description = "The export file as the tool wrote it: Plausible CE's zip, Umami's events CSV, GoatCounter's CSV (plain or gzipped)"),
    responses((status = 200, description = "What was imported, as `tracker import --json` reports it", body = ImportReport), (status = 413, description = "The file is larger than import_max_bytes, or a compressed file (gzip, or a zip's entry) expands past 200 times its compressed size and past 16 MiB: refused as a compression bomb", body = ErrorBody), (status = "4XX", description = "Refused: a file the importer cannot read (its message), days already imported (409), no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn upload<S, B>(
    id: WebsiteId,
    tracker: Tracker,
    user: Caller,
    query: ImportQuery,
    length: Option<u64>,
    body: S,
) -> Result<impl Reply, Rejection>
where
    S: Stream<Item = Result<B, warp::Error>> + Send + Unpin,
    B: Buf,
{
    // Another user's site is 404 before a byte of the body is read.
    let site = {
        let tracker = tracker.clone();
        blocking(move || tracker.websites.get(user, id)).await?.id
    };
    let source = Source::parse(&query.from).map_err(reject)?;
    let (limit, data_dir) = tracker.settings.read(|c| (c.import_max_bytes, c.data_dir.clone()));
    if length.is_some_and(|n| n > limit) {
        return Err(reject(too_large(limit)));
    }
    let folder =
        tempfile::Builder::new().prefix("import-upload-").tempdir_in(&data_dir).map_err(|e| reject(Error::Io(e)))?;
    let path = folder.path().join(file_name(query.name.as_deref()));
    receive(body, &path, limit).await?;
    let options = ImportOptions { skip_bad_rows: query.skip_bad_rows.unwrap_or(false), ..ImportOptions::default() };
    let report: ImportReport = blocking(move || {
        let report = tracker.imports.import(site, source, &path, options, &|_| {});
        drop(folder);
        report
    })
    .await?;
    Ok(warp::reply::json(&report))
}

/// Writes the body to `path`, refusing it past `limit` bytes (a body sent without its length too).
async fn receive<S, B>(mut body: S, path: &std::path::Path, limit: u64) -> Result<(), Rejection>
where
    S: Stream<Item = Result<B, warp::Error>> + Unpin,
    B: Buf,
{
    let mut file = tokio::fs::File::create(path).await.map_err(|e| reject(Error::Io(e)))?;
    let mut written: u64 = 0;
    while let Some(chunk) = body.next().await {
        let mut chunk = chunk.map_err(|_| reject(Error::invalid("could not read the request body")))?;
        written += chunk.remaining() as u64;
        if written > limit {
            return Err(reject(too_large(limit)));
        }
        while chunk.has_remaining() {
            let piece = chunk.chunk();
            file.write_all(piece).await.map_err(|e| reject(Error::Io(e)))?;
            let n = piece.len();
            chunk.advance(n);
        }
    }
    file.flush().await.map_err(|e| reject(Error::Io(e)))?;
    if written == 0 {
        return Err(reject(Error::invalid("the body is empty: send the export file as the request body")));
    }
    Ok(())
}

fn too_large(limit: u64) -> Error {
    Error::TooLarge(format!(
        "the file is larger than this server's import limit of {} MiB (import_max_bytes); import it with \
         `tracker import` on the server instead",
        limit / (1024 * 1024)
    ))
}

/// The upload's file name in the temporary folder: the given name's last part, letters, digits and `._-` only
/// (a name is never a path), "upload" without one. Plausible's importer reads a single CSV's table from it.
fn file_name(given: Option<&str>) -> String {
    let base = given.unwrap_or("").rsplit(['/', '\\']).next().unwrap_or("");
    let clean: String = base
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | ' ') { c } else { '_' })
        .take(200)
        .collect();
    let clean = clean.trim_start_matches('.').trim().to_string();
    if clean.is_empty() { "upload".into() } else { clean }
}
