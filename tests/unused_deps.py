#!/usr/bin/env python3
"""Fails when a workspace crate declares a dependency its code never names (what cargo-machete checks, offline
and without a build): each [dependencies], [dev-dependencies] and [build-dependencies] entry must appear as
`name::` or `use name` (dashes as underscores) in that crate's Rust files, or be listed in IMPLICIT."""
import pathlib
import re
import sys
import tomllib

# Dependencies used without their name in the code.
IMPLICIT = {
    # Compiled in for its `bundled` feature through rusqlite; never named.
    "libsqlite3-sys",
}

root = pathlib.Path(__file__).resolve().parent.parent
members = tomllib.loads((root / "Cargo.toml").read_text())["workspace"]["members"]
unused = []
for member in members:
    crate = root / member
    manifest = tomllib.loads((crate / "Cargo.toml").read_text())
    code = "\n".join(p.read_text() for p in crate.rglob("*.rs") if "target" not in p.parts)
    for section in ("dependencies", "dev-dependencies", "build-dependencies"):
        for name in manifest.get(section, {}):
            ident = name.replace("-", "_")
            if name in IMPLICIT or re.search(rf"\b{ident}::|\buse {ident}\b|\bextern crate {ident}\b", code):
                continue
            unused.append(f"{member}/Cargo.toml [{section}] {name}")
if unused:
    print("unused dependencies (remove them, or list them in IMPLICIT with the reason):")
    print("\n".join(f"  {u}" for u in unused))
    sys.exit(1)
print(f"no unused dependencies in {len(members)} crates")
