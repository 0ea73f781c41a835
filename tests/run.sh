#!/usr/bin/env bash
# Runs every test of tracker from a fresh clone: installs what is missing (npm packages, Debian's chromium),
# builds the dashboard and the binary, then runs Rust unit and integration tests and the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    echo "== installing Debian's chromium for the browser tests"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "chromium is missing: run 'sudo apt-get install -y chromium' and try again" >&2
    exit 1
  fi
fi

echo "== dashboard: npm install, type check (dashboard and tracking scripts), lint, build, unit tests"
(cd dashboard && npm install --no-audit --no-fund --loglevel=error && npm run typecheck && npm run lint && npm run build && npm test)

echo "== rust: format, lints, unused dependencies"
cargo fmt --all --check
python3 tests/unused_deps.py
cargo clippy --locked --all-targets -- -D warnings

echo "== rust: build, unit and integration tests"
cargo build --locked -p tracker
echo "== API contract: dashboard/src/api/generated.ts matches the daemon's OpenAPI document"
(cd dashboard && TRACKER_BIN="$PWD/../target/debug/tracker" npm run contract:check)
cargo test --locked --workspace
echo "== API contract: Schemathesis fuzz run against a real daemon (no 5xx, answers match their schemas)"
bash tests/contract/fuzz.sh
# The README's run command uses the release profile (optimised generics can fail where debug ones pass).
cargo build --locked --release -p tracker

echo "== browser tests (headless chromium against the real daemon)"
export TRACKER_BIN="$PWD/target/debug/tracker"
(cd dashboard && npm run test:browser && npm run test:tracker)
