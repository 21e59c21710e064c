#!/usr/bin/env bash
# Several jgym servers on this machine, as deploy/compose.yaml runs them in
# containers: replica k (1..N) serves gRPC on 127.0.0.1:$((50050+k)) and
# metrics on 127.0.0.1:$((9090+k)), with a token and TLS as a server for
# other people would (docs/security.md): the CA, the certificates and the
# tokens file are made in runs/replicas/ on the first start; clients read
# them from $JGYM_TLS_CA and $JGYM_TOKEN (see "env").
#
#   scripts/replicas.sh up [N]     start N replicas (default 3), wait until they answer
#   scripts/replicas.sh down       stop them (SIGTERM: sessions are drained)
#   scripts/replicas.sh status     list them
#   scripts/replicas.sh env        print the exports a client needs
#   scripts/replicas.sh check [N]  up, spread 96 envs over them from Python, down
#   scripts/replicas.sh steps      each replica's env steps (its metrics); fails if one has none
#
# State (pids, logs) lives in runs/replicas/. JGYM_BIN picks the binary
# (default bin/jgym, built if missing); VENV the Python environment for check and steps.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=runs/replicas
bin=${JGYM_BIN:-bin/jgym}
venv=${VENV:-.venv}

addresses() {
  local n=$1 k out=""
  for ((k = 1; k <= n; k++)); do out+="${out:+,}127.0.0.1:$((50050 + k))"; done
  echo "$out"
}

# credentials makes the CA, the server certificate and a token once.
credentials() {
  if [ ! -f "$dir/certs/ca.pem" ]; then
    "$bin" certs --out "$dir/certs" --hosts localhost,127.0.0.1 >/dev/null
  fi
  if [ ! -f "$dir/tokens" ]; then
    (umask 077 && "$bin" token replicas >"$dir/tokens")
  fi
}

client_env() {
  echo "export JGYM_TLS_CA=$PWD/$dir/certs/ca.pem JGYM_TOKEN=$(awk '{print $2; exit}' "$dir/tokens")"
}

up() {
  local n=${1:-3} k
  if [ ! -x "$bin" ]; then go build -o "$bin" ./cmd/jgym; fi
  mkdir -p "$dir"
  credentials
  for ((k = 1; k <= n; k++)); do
    if [ -f "$dir/$k.pid" ] && kill -0 "$(cat "$dir/$k.pid")" 2>/dev/null; then
      echo "replica $k already running (pid $(cat "$dir/$k.pid"))"
      continue
    fi
    "$bin" serve --addr "127.0.0.1:$((50050 + k))" --metrics-addr "127.0.0.1:$((9090 + k))" \
      --tokens "$dir/tokens" --tls-cert "$dir/certs/server.pem" --tls-key "$dir/certs/server-key.pem" \
      --log-format json >"$dir/$k.log" 2>&1 &
    echo $! >"$dir/$k.pid"
  done
  for ((k = 1; k <= n; k++)); do
    local tries=0
    until grep -q '"serving"\|"listening"' "$dir/$k.log" 2>/dev/null; do
      if ! kill -0 "$(cat "$dir/$k.pid")" 2>/dev/null; then
        echo "replica $k exited; its log:" >&2
        cat "$dir/$k.log" >&2
        exit 1
      fi
      if ((++tries > 100)); then
        echo "replica $k not ready after 10 s; its log: $dir/$k.log" >&2
        exit 1
      fi
      sleep 0.1
    done
    echo "replica $k: grpc 127.0.0.1:$((50050 + k)), metrics http://127.0.0.1:$((9090 + k))/metrics, pid $(cat "$dir/$k.pid")"
  done
  echo "addresses: $(addresses "$n")"
  echo "client credentials: $(client_env)"
}

down() {
  local f pid
  shopt -s nullglob
  for f in "$dir"/*.pid; do
    pid=$(cat "$f")
    if kill -TERM "$pid" 2>/dev/null; then
      for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
      echo "stopped replica $(basename "$f" .pid) (pid $pid)"
    fi
    rm -f "$f"
  done
}

status() {
  local f pid
  shopt -s nullglob
  for f in "$dir"/*.pid; do
    pid=$(cat "$f")
    if kill -0 "$pid" 2>/dev/null; then state=running; else state=dead; fi
    echo "replica $(basename "$f" .pid): pid $pid $state"
  done
}

check() {
  local n=${1:-3}
  up "$n"
  trap down EXIT
  eval "$(client_env)"
  "$venv/bin/python" python-client/examples/multi_server.py --addresses "$(addresses "$n")" --num-envs 96 --steps 20
  # Without the token the servers refuse the client.
  if JGYM_TOKEN= "$venv/bin/python" python-client/examples/multi_server.py --addresses "$(addresses "$n")" --num-envs 4 --steps 1 >/dev/null 2>&1; then
    echo "a client without a token was served" >&2
    exit 1
  fi
  echo "a client without a token is refused"
}

# steps prints the rounds each running replica has played
# (jgym_env_steps_total of its metrics) and fails when one has played none.
steps() {
  local f k n idle=0
  shopt -s nullglob
  for f in "$dir"/*.pid; do
    k=$(basename "$f" .pid)
    n=$("$venv/bin/python" - "$((9090 + k))" <<'EOF'
import sys, urllib.request
text = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=10).read().decode()
print(next(int(float(l.split()[1])) for l in text.splitlines() if l.startswith("jgym_env_steps_total ")))
EOF
)
    echo "replica $k (127.0.0.1:$((50050 + k))): $n env steps"
    if [ "$n" = 0 ]; then idle=1; fi
  done
  if [ "$idle" = 1 ]; then
    echo "a replica played no games" >&2
    return 1
  fi
}

case "${1:-}" in
  up) up "${2:-3}" ;;
  down) down ;;
  status) status ;;
  env) client_env ;;
  check) check "${2:-3}" ;;
  steps) steps ;;
  *)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
