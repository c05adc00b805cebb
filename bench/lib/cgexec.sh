#!/bin/sh
# cgexec.sh DIR[:DIR…] CMD [ARG…] — moves this process into each cgroup directory (cgroup v1
# or v2: writes its pid to DIR/cgroup.procs), then execs CMD, so CMD keeps this pid and is
# charged to the cgroups from its first allocation. Used by bench/sizing.ts for memory caps
# and CPU quotas without systemd (needs root or a delegated cgroup).
set -e
dirs=$1
shift
IFS=:
for d in $dirs; do
  echo $$ > "$d/cgroup.procs"
done
unset IFS
exec "$@"
