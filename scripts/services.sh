#!/usr/bin/env bash
# Make sure the services the tests talk to are up: PostgreSQL on 127.0.0.1:5432 (database `test`).
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
