#!/usr/bin/env bash
# A Ray cluster of N nodes on this machine, started as one would start it on
# N hosts (docs/operations.md, "Training on a Ray cluster"): a head node and
# N-1 worker nodes that join it with `ray start --address`, each with
# --num-cpus 1, all on 127.0.0.1. Ray (2.5x and later) turns token
# authentication on for a new cluster: every node and every driver need the
# same RAY_AUTH_MODE=token and RAY_AUTH_TOKEN, made here once.
#
#   scripts/ray-cluster.sh up [N]   start a head and N-1 workers (default 2), wait until all joined
#   scripts/ray-cluster.sh down     stop them (SIGTERM to the nodes started here, nothing else)
#   scripts/ray-cluster.sh env      print the exports a driver needs (RAY_ADDRESS, RAY_AUTH_*)
#
# Each node runs `ray start --block` in the background, so that stopping it
# stops its Ray processes and no others on the machine (`ray stop` would
# stop every Ray of the user). State (token, pids, logs, Ray's temp dirs)
# lives in runs/ray-cluster/ and /tmp/jgym-ray-*; RAY_PORT picks the head's
# port (default 6390), VENV the Python environment (default .venv).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=runs/ray-cluster
venv=${VENV:-.venv}
port=${RAY_PORT:-6390}
ray=$venv/bin/ray

client_env() {
  echo "export RAY_ADDRESS=127.0.0.1:$port RAY_AUTH_MODE=token RAY_AUTH_TOKEN=$(cat "$dir/token")"
}

# node K: the head (K=1) or a worker; each has its own temp dir (short:
# Ray's Unix sockets live there) and its own ports.
node() {
  local k=$1 args
  args=(--block --node-ip-address 127.0.0.1 --num-cpus 1 --temp-dir "/tmp/jgym-ray-$port-$k"
    --min-worker-port $((20000 + 1000 * k)) --max-worker-port $((20000 + 1000 * k + 999)))
  if [ "$k" = 1 ]; then
    args+=(--head --port "$port" --ray-client-server-port $((port + 1)) --include-dashboard false)
  else
    args+=(--address "127.0.0.1:$port")
  fi
  rm -f "$dir/$k.log"
  RAY_AUTH_MODE=token RAY_AUTH_TOKEN=$(cat "$dir/token") \
    "$ray" start "${args[@]}" --dashboard-agent-listen-port 0 >"$dir/$k.log" 2>&1 &
  echo $! >"$dir/$k.pid"
}

up() {
  local n=${1:-2} k tries
  mkdir -p "$dir"
  if [ ! -f "$dir/token" ]; then
    (umask 077 && "$venv/bin/python" -c 'import secrets; print(secrets.token_hex(32))' >"$dir/token")
  fi
  for ((k = 1; k <= n; k++)); do
    if [ -f "$dir/$k.pid" ] && kill -0 "$(cat "$dir/$k.pid")" 2>/dev/null; then
      echo "node $k already running (pid $(cat "$dir/$k.pid"))"
      continue
    fi
    # A node's `ray start` prints "Ray runtime started" once it runs (a
    # worker: once it has joined the head). Ray gives a raylet 30 s to
    # register, too little on a loaded machine: a node that gives up is
    # started again, up to three times.
    for attempt in 1 2 3; do
      node "$k"
      tries=0
      until grep -q "Ray runtime started" "$dir/$k.log" 2>/dev/null; do
        if ! kill -0 "$(cat "$dir/$k.pid")" 2>/dev/null || ((++tries > 900)); then
          break
        fi
        sleep 0.2
      done
      if grep -q "Ray runtime started" "$dir/$k.log" 2>/dev/null; then break; fi
      kill -TERM "$(cat "$dir/$k.pid")" 2>/dev/null || true
      echo "ray node $k did not start (attempt $attempt of 3); the end of its log ($dir/$k.log):" >&2
      tail -3 "$dir/$k.log" >&2
      if [ "$attempt" = 3 ]; then exit 1; fi
      sleep 2
    done
  done
  echo "ray: $n nodes at 127.0.0.1:$port (a head and $((n - 1)) workers, token authentication)"
  echo "driver environment: $(client_env | sed 's/RAY_AUTH_TOKEN=.*/RAY_AUTH_TOKEN=.../')"
}

down() {
  local f pid
  shopt -s nullglob
  # The workers first, the head last.
  for f in $(printf '%s\n' "$dir"/*.pid | sort -r); do
    pid=$(cat "$f")
    if kill -TERM "$pid" 2>/dev/null; then
      for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
      if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; fi
      echo "stopped ray node $(basename "$f" .pid) (pid $pid)"
    fi
    rm -f "$f"
  done
}

case "${1:-}" in
  up) up "${2:-2}" ;;
  down) down ;;
  env) client_env ;;
  *)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
