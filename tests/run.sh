#!/usr/bin/env bash
# Runs every test of tracker from a fresh clone: installs what is missing (npm packages, Debian's chromium),
# builds the dashboard and the binary, then runs Rust unit and integration tests and the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

# Prints how long each part took, so the run's time can be kept well under CI's 30 minutes.
lap_start=$SECONDS
lap() {
  echo "-- $1: $((SECONDS - lap_start)) s"
  lap_start=$SECONDS
}

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

echo "== dashboard: npm ci, type check (dashboard and tracking scripts), lint, build, unit tests"
(cd dashboard && npm ci --no-audit --no-fund --loglevel=error && npm run typecheck && npm run lint && npm run build && npm test)
lap "dashboard install, checks, build and unit tests"

echo "== rust: format, lints, unused dependencies"
cargo fmt --all --check
python3 tests/unused_deps.py
# In the profile of the build below, which then reuses the build scripts' outputs and the proc macros compiled here.
cargo clippy --locked --workspace --all-targets --profile ci -- -D warnings
lap "fmt, unused dependencies, clippy"

echo "== rust: the binary and every test binary, in one build (profile ci: release without link-time optimisation)"
# Optimised, as users run it (the browser and CLI tests run faster against it than against a debug build);
# without LTO, which linked the binary and each test binary for minutes on every run. One cargo command for the
# binary and the tests unifies features once: built apart, the binary's daemon (no HTTP client in hyper) and the
# tests' (reqwest's) were two builds of hyper, warp and tracker-daemon.
cargo build --locked --profile ci --workspace --bins --tests
export TRACKER_BIN="$PWD/target/ci/tracker"
lap "build"

echo "== API contract: dashboard/src/api/generated.ts matches the daemon's OpenAPI document"
(cd dashboard && npm run contract:check)

echo "== scale-out test clusters: PostgreSQL and a 2-shard ClickHouse on loopback ports, one for the unit tests and"
echo "   one for the integration tests"
# Two clusters, so the two test binaries can run at once: a unit test restarts its cluster's ClickHouse shards (what
# survives a restart), which would fail whatever integration test reads through them at that moment. Each test
# makes its own schema and database, so tests of one binary share a cluster safely.
unit_cluster=$(mktemp -d)
integration_cluster=$(mktemp -d)
logs=$(mktemp -d)
trap 'for c in "$unit_cluster" "$integration_cluster"; do bash tests/cluster/cluster.sh down "$c" >/dev/null 2>&1 || true; rm -rf "$c"; done; rm -rf "$logs"' EXIT
bash tests/cluster/cluster.sh up "$unit_cluster" >/dev/null
bash tests/cluster/cluster.sh up "$integration_cluster" >/dev/null
# Every cluster test must then run: with this set, a test that finds no harness fails instead of skipping.
export TRACKER_TEST_REQUIRE_CLUSTER=1
lap "test clusters up"

echo "== the user-agent corpus the enrichment tests measure device classes on (Matomo's fixtures, from PyPI)"
[ -f target/ua-corpus/device_detector-6.5.1-py3-none-any.whl ] ||
  python3 -m pip download -q --no-deps --only-binary=:all: device_detector==6.5.1 -d target/ua-corpus

# The unit and integration tests run at the same time: they mostly wait (on ClickHouse's background pool, ~10 s
# for each deletion on 18.16; on daemons starting), so together they take little more than the longer one. They
# share no port (every server takes a free one) and no folder (each test makes its own); each writes its own
# log, printed whole when it ends. The browser tests come after, alone: their waits on pages (10-30 s) failed
# when they ran beside these on a loaded 2-core machine.
unit_tests() {
  set -a && . "$unit_cluster/env" && set +a &&
    # More threads than cores: the unit tests mostly wait for the cluster's servers, not for a core (core's unit
    # tests used 58 s of CPU in 596 s with 2 threads, and took 429 s with 6, in a debug build on 2 cores).
    cargo test --locked --profile ci --workspace --lib --bins -- --test-threads=6 &&
    cargo test --locked --profile ci --workspace --doc
}
integration_tests() {
  set -a && . "$integration_cluster/env" && set +a &&
    # Twice the default (the cores): on 4 threads the integration binary took 285 s and used 86 s of CPU (67 s
    # user, 19 s system) on this shared 2-core machine; on 2, beside the unit tests, 514 s.
    cargo test --locked --profile ci --workspace --test '*' -- --test-threads=4
}
declare -A part_pid
start_part() {
  local name=$1
  (
    started=$SECONDS
    if "$name"; then rc=0; else rc=$?; fi
    echo "-- $name: $((SECONDS - started)) s"
    exit $rc
  ) >"$logs/$name.log" 2>&1 &
  part_pid[$name]=$!
}
echo "== rust: unit and integration tests (built above), at once (each one's log follows)"
parts=(unit_tests integration_tests)
for part in "${parts[@]}"; do start_part "$part"; done
failed=()
for part in "${parts[@]}"; do
  if wait "${part_pid[$part]}"; then rc=0; else rc=$?; fi
  echo "== $part"
  cat "$logs/$part.log"
  ((rc == 0)) || failed+=("$part")
done
lap "unit and integration tests"
((${#failed[@]} == 0)) || { echo "== failed: ${failed[*]}" >&2; exit 1; }

echo "== API contract: Schemathesis fuzz run against a real daemon (no 5xx, answers match their schemas)"
# After the Rust tests, not beside them: its load made the cluster's demo test (cluster_demo) count more
# visitors than a data folder, a race of the cluster's own under load that is not fixed yet.
bash tests/contract/fuzz.sh
lap "schemathesis"

echo "== browser tests (headless chromium against the real daemon): the dashboard's and the tracking scripts'"
# Two files at a time, each with its own daemon and Chromium: a file mostly waits on its pages (155 and 35 tests
# took 175 s and 62 s at two, 250 s and 118 s at one). One run of both folders, so neither waits for the
# other's slowest file.
(cd dashboard && npm run test:e2e)
lap "browser tests"
echo "== every test passed in $((SECONDS / 60)) min $((SECONDS % 60)) s"
