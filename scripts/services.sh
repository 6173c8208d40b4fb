#!/usr/bin/env bash
# Make sure the services the tests talk to are up: PostgreSQL on 127.0.0.1:5432 (database `test`), Redis on
# 127.0.0.1:6379, and nginx installed (the cluster tests start their own instance on free ports).
# Idempotent; on machines that already run it this does nothing.
set -uo pipefail
pg_up() { (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; }
if ! pg_up; then
  echo "services: starting PostgreSQL"
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  else
    echo "services: PostgreSQL is not installed; installing it" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  fi
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
fi
if ! pg_up; then
  echo "services: PostgreSQL is still not reachable on 127.0.0.1:5432" >&2
  exit 1
fi

# Redis on 127.0.0.1:6379 (the cluster tests, issue 14); nginx for the proxy in front of the cluster's nodes.
redis_up() { (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; }
SUDO=""
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; fi
if ! redis_up; then
  if ! command -v redis-server >/dev/null 2>&1; then
    echo "services: Redis is not installed; installing it" >&2
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq redis-server >/dev/null
  fi
  echo "services: starting Redis"
  redis-server --bind 127.0.0.1 --port 6379 --daemonize yes --save "" --appendonly no >/dev/null
  for _ in $(seq 1 30); do redis_up && break; sleep 0.2; done
fi
if ! redis_up; then
  echo "services: Redis is still not reachable on 127.0.0.1:6379" >&2
  exit 1
fi
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  echo "services: nginx is not installed; installing it" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq nginx >/dev/null
fi
