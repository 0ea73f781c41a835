#!/usr/bin/env bash
# The scale-out test cluster (issue 18): one PostgreSQL and two ClickHouse servers (a 2-shard cluster named
# `tracker`) on free loopback ports, each in a folder under DIR, started as plain processes in a few seconds
# and stopped by PID. Debian's packages are installed when missing (CI runs as root; PostgreSQL refuses to run
# as root, so it runs as the `postgres` user). The shards run on examples/deploy/cluster/clickhouse's config.d
# and users.d files (addresses, ports and passwords replaced), so every cluster test checks what operators
# install: the tracker cluster, its user and password (one holding ':', '@' and '/'), the Distributed reads, and
# the small-server settings (system logs removed, caches and memory capped).
#
#   tests/cluster/cluster.sh up DIR     starts them; writes DIR/env (sourceable) with
#                                       TRACKER_TEST_POSTGRES_URL, TRACKER_TEST_CLICKHOUSE_URLS (comma-separated
#                                       HTTP URLs, shard order) and TRACKER_TEST_CLICKHOUSE_CLUSTER
#                                       and TRACKER_TEST_CLUSTER_DIR (DIR, for restart-clickhouse)
#   tests/cluster/cluster.sh down DIR   stops them (SIGTERM, then SIGKILL after 10 s) and leaves DIR
#   tests/cluster/cluster.sh restart-clickhouse DIR N
#                                       stops ClickHouse shard N (1 or 2) with SIGTERM, waits for it to exit, and
#                                       starts it again on the same ports and data (tests of what survives one)
set -euo pipefail

cmd=${1:-}; dir=${2:-}
[[ ($cmd == up || $cmd == down || $cmd == restart-clickhouse) && -n $dir ]] ||
  { echo "usage: $0 up|down DIR | restart-clickhouse DIR N" >&2; exit 2; }

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

install_missing() {
  local want=()
  [[ -n $(pg_bin) ]] || want+=(postgresql)
  command -v clickhouse-server >/dev/null || want+=(clickhouse-server clickhouse-client)
  ((${#want[@]} == 0)) && return
  echo "installing ${want[*]}" >&2
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${want[@]}" >&2
}

# A port nothing listens on now (the OS picks it; the small race with other processes is acceptable in tests).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Waits up to 30 s for a command to succeed.
await() {
  local what=$1; shift
  for _ in $(seq 300); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "$what did not come up" >&2; return 1
}

# The test user's password, and as written in a URL.
ch_password='te:st@pw/1'
ch_password_in_url='te%3Ast%40pw%2F1'
examples=$(cd "$(dirname "$0")/../../examples/deploy/cluster/clickhouse" && pwd)

clickhouse_config() { # folder tcp http interserver shard1_tcp shard2_tcp
  local d=$1
  cat >"$d/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>$d/server.log</log><errorlog>$d/error.log</errorlog></logger>
  <listen_host>127.0.0.1</listen_host>
  <tcp_port>$2</tcp_port>
  <http_port>$3</http_port>
  <interserver_http_port>$4</interserver_http_port>
  <path>$d/data/</path>
  <tmp_path>$d/tmp/</tmp_path>
  <user_files_path>$d/user_files/</user_files_path>
  <format_schema_path>$d/format_schemas/</format_schema_path>
  <users_config>$d/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mlock_executable>false</mlock_executable>
  <!-- As Debian's config.xml has them: config.d/small-server.xml must take them out. -->
  <query_log><database>system</database><table>query_log</table>
    <flush_interval_milliseconds>7500</flush_interval_milliseconds></query_log>
  <part_log><database>system</database><table>part_log</table>
    <flush_interval_milliseconds>7500</flush_interval_milliseconds></part_log>
</yandex>
XML
  # The operators' drop-ins; listen_host goes, as this config listens on the loopback already.
  mkdir -p "$d/config.d" "$d/users.d"
  sed -e '/<listen_host>/d' -e "s#ch1.internal</host><port>9000<#127.0.0.1</host><port>$5<#" \
    -e "s#ch2.internal</host><port>9000<#127.0.0.1</host><port>$6<#" -e "s#CHANGE-ME#$ch_password#g" \
    "$examples/config.d/tracker.xml" >"$d/config.d/tracker.xml"
  cp "$examples/config.d/small-server.xml" "$d/config.d/"
  sed -e "s#CHANGE-ME-SHA256#$(printf %s "$ch_password" | sha256sum | cut -d' ' -f1)#" \
    -e "s#10.0.0.0/24#127.0.0.1#" "$examples/users.d/tracker.xml" >"$d/users.d/tracker.xml"
  # `default` gets a password nobody knows: the tests reach the shards as the operators' tracker user only.
  cat >"$d/users.xml" <<XML
<?xml version="1.0"?>
<yandex>
  <profiles><default></default></profiles>
  <users>
    <default>
      <password>$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')</password>
      <networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors>
    <result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
XML
}

up() {
  install_missing
  mkdir -p "$dir"; dir=$(cd "$dir" && pwd)
  local pg; pg=$(pg_bin)
  local pg_port; pg_port=$(free_port)
  mkdir -p "$dir/pg/data" "$dir/pg/socket"
  chown -R postgres: "$dir/pg"
  chmod 755 "$dir"
  local as_postgres=()
  [[ $(id -u) == 0 ]] && as_postgres=(runuser -u postgres --)
  "${as_postgres[@]}" "$pg/initdb" -D "$dir/pg/data" -U tracker --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/pg/initdb.log"
  "${as_postgres[@]}" "$pg/postgres" -D "$dir/pg/data" -p "$pg_port" -k "$dir/pg/socket" -c listen_addresses=127.0.0.1 \
    -c fsync=on >"$dir/pg/server.log" 2>&1 &
  echo $! >"$dir/pg/pid"

  local tcp1 tcp2; tcp1=$(free_port); tcp2=$(free_port)
  local urls=()
  for i in 1 2; do
    local d="$dir/ch$i"; mkdir -p "$d"
    local tcp; [[ $i == 1 ]] && tcp=$tcp1 || tcp=$tcp2
    local http; http=$(free_port)
    clickhouse_config "$d" "$tcp" "$http" "$(free_port)" "$tcp1" "$tcp2"
    clickhouse-server --config-file="$d/config.xml" >"$d/stdout.log" 2>&1 &
    echo $! >"$d/pid"
    urls+=("http://tracker:$ch_password_in_url@127.0.0.1:$http")
  done

  await "PostgreSQL" "$pg/pg_isready" -h 127.0.0.1 -p "$pg_port" -q
  "${as_postgres[@]}" "$pg/createdb" -h 127.0.0.1 -p "$pg_port" -U tracker tracker
  for url in "${urls[@]}"; do await "ClickHouse at ${url#*@}" curl -sf "http://${url#*@}/ping"; done
  local joined; joined=$(IFS=,; echo "${urls[*]}")
  cat >"$dir/env" <<ENV
TRACKER_TEST_POSTGRES_URL=postgres://tracker@127.0.0.1:$pg_port/tracker
TRACKER_TEST_CLICKHOUSE_URLS=$joined
TRACKER_TEST_CLICKHOUSE_CLUSTER=tracker
TRACKER_TEST_CLUSTER_DIR=$dir
ENV
  cat "$dir/env"
}

down() {
  local pids=()
  for f in "$dir"/pg/pid "$dir"/ch*/pid; do
    [[ -f $f ]] || continue
    local pid; pid=$(cat "$f")
    kill -0 "$pid" 2>/dev/null || continue
    # postgres runs under runuser: stop the server itself, the child of that pid, when there is one.
    local child; child=$(pgrep -P "$pid" || true)
    kill -TERM "$pid" $child 2>/dev/null || true
    pids+=("$pid" $child)
  done
  for _ in $(seq 100); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    ((alive == 0)) && return 0
    sleep 0.1
  done
  kill -KILL "${pids[@]}" 2>/dev/null || true
}

restart-clickhouse() {
  local n=${3:-}
  [[ $n == 1 || $n == 2 ]] || { echo "restart-clickhouse: shard 1 or 2" >&2; exit 2; }
  local d="$dir/ch$n" pid; pid=$(cat "$d/pid")
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && { echo "ClickHouse shard $n did not stop" >&2; exit 1; }
  clickhouse-server --config-file="$d/config.xml" >>"$d/stdout.log" 2>&1 &
  echo $! >"$d/pid"
  local http; http=$(sed -n 's:.*<http_port>\([0-9]*\)</http_port>.*:\1:p' "$d/config.xml")
  await "ClickHouse shard $n" curl -sf "http://127.0.0.1:$http/ping"
}

"$cmd" "$@"
