#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: nothing durable, reachable only through a unix
# socket in a fresh temporary directory, removed whole when stopped.
#
#   url=$(bash Scripts/postgres.sh start)   # prints postgres://postgres@/postgres?host=DIR&port=PORT
#   bash Scripts/postgres.sh stop "$url"     # or the directory itself
#
# As root the server runs as the `postgres` user (initdb refuses root). The cluster trusts every
# local connection, has fsync off, and listens on no TCP address; the port only names its socket.
set -euo pipefail

usage() {
    echo "usage: bash Scripts/postgres.sh start | stop DIR-or-URL" >&2
    exit 2
}

# The server's programs: pg_config's bindir (Debian keeps them off PATH), else PATH.
bindir() {
    local dir
    dir=$(pg_config --bindir 2>/dev/null || true)
    if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then
        echo "$dir"
    elif command -v initdb >/dev/null; then
        dirname "$(command -v initdb)"
    else
        echo "error: no initdb found; install PostgreSQL (bash Scripts/bootstrap.sh)" >&2
        exit 1
    fi
}

# Runs a server program as the user that owns the cluster.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# Marks a directory as one of these clusters, so `stop` removes nothing else.
marker=jsonimport-test-cluster

start() {
    local pgbin dir port
    pgbin=$(bindir)
    dir=$(mktemp -d "${TMPDIR:-/tmp}/jsonimport-pg.XXXXXX")
    touch "$dir/$marker"
    [ "$(id -u)" -ne 0 ] || chown postgres: "$dir"
    # A free TCP port, though the server listens on none: the socket's name stays unique
    # should TCP ever be enabled for a run.
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    if ! as_owner "$pgbin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 --no-sync \
        >"$dir/initdb.log" 2>&1; then
        cat "$dir/initdb.log" >&2
        rm -rf "$dir"
        echo "error: initdb failed" >&2
        exit 1
    fi
    # Parallel tests each hold a few connections.
    if ! as_owner "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -s \
        -o "-k $dir -p $port -c listen_addresses='' -c fsync=off -c max_connections=300" start; then
        cat "$dir/log" >&2 || true
        rm -rf "$dir"
        echo "error: the PostgreSQL server did not start" >&2
        exit 1
    fi
    echo "postgres://postgres@/postgres?host=$dir&port=$port"
}

# The cluster directory of a URL printed by `start` (its host= parameter), or DIR itself.
directory() {
    local target=$1
    case "$target" in
        postgres://* | postgresql://*)
            local query=${target#*\?}
            [ "$query" != "$target" ] || { echo "error: '$target' names no socket directory (host=)" >&2; exit 1; }
            local pair host=""
            IFS='&' read -ra pairs <<<"$query"
            for pair in "${pairs[@]}"; do
                [ "${pair%%=*}" != host ] || host=${pair#host=}
            done
            # libpq percent-decodes parameters; the directories `start` makes need no more than %2F.
            host=${host//%2F//}
            host=${host//%2f//}
            echo "$host"
            ;;
        *) echo "$target" ;;
    esac
}

stop() {
    local dir pgbin
    dir=$(directory "$1")
    if [ ! -f "$dir/$marker" ]; then
        echo "error: '$dir' is not a cluster started by Scripts/postgres.sh" >&2
        exit 1
    fi
    pgbin=$(bindir)
    if as_owner "$pgbin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
        as_owner "$pgbin/pg_ctl" -D "$dir/data" -w -s -t 20 -m fast stop 2>/dev/null ||
            as_owner "$pgbin/pg_ctl" -D "$dir/data" -w -s -t 20 -m immediate stop ||
            kill -KILL "$(head -n 1 "$dir/data/postmaster.pid")" 2>/dev/null ||
            echo "warning: the server in '$dir' did not stop" >&2
    fi
    rm -rf "$dir"
}

case "${1:-}" in
    start) [ $# -eq 1 ] || usage; start ;;
    stop) [ $# -eq 2 ] || usage; stop "$2" ;;
    *) usage ;;
esac
