#!/bin/bash
# slurm.sh - `shardlp batch --shard` as a Slurm job array: brings up a
# one-node Slurm cluster on localhost (munged, slurmctld and slurmd with a
# generated slurm.conf, all in the test's temporary folder, on free ports),
# submits a 4-task array in which task K runs `batch --shard K/4`, waits
# for it, merges the slices with `batch --merge` and holds the result
# against the summary of one unsharded run (byte-identical after sorting,
# once the columns that vary between runs are masked).  Everything it
# started is stopped on exit, failure included.
#
# Skips (exit 77) when Slurm or munge is not installed (Debian slurm-wlm,
# munge; ./bootstrap installs them) or the test is not root (slurmd runs
# jobs as their owner); SHARDLP_SLURM_REQUIRED=1 (set by .ci/run) makes
# that a failure.
. "$(dirname "$0")/../setup.sh"

skip() {
	echo "skipped: $*"
	if [ -n "${SHARDLP_SLURM_REQUIRED:-}" ]; then
		echo "FAIL: SHARDLP_SLURM_REQUIRED is set"
		exit 1
	fi
	exit 77
}

for p in munged slurmctld slurmd sbatch sinfo scancel python3; do
	command -v "$p" >/dev/null 2>&1 || skip "$p not installed"
done
[ "$(id -u)" -eq 0 ] || skip "not root"
# the jobs run in a folder of their own
SHARDLP=$(cd "$(dirname "$SHARDLP")" && pwd)/$(basename "$SHARDLP")

s=$tmp/slurm
mkdir -p "$s/munge" "$s/state" "$s/spool/shardlpnode" "$s/log"
pids=

# Stops what the test started: the jobs, then the daemons (by the
# process ids it recorded), then removes the temporary folder.
teardown() {
	if [ -n "$pids" ]; then
		SLURM_CONF=$s/slurm.conf scancel --quiet --user=root >/dev/null 2>&1 || true
		for pid in $pids; do
			kill -TERM "$pid" 2>/dev/null || true
		done
		for pid in $pids; do
			for _ in $(seq 1 50); do
				kill -0 "$pid" 2>/dev/null || break
				sleep 0.1
			done
			kill -KILL "$pid" 2>/dev/null || true
		done
	fi
	rm -rf "$tmp"
}
trap teardown EXIT

# show_logs: the daemons' logs, when something went wrong
show_logs() {
	for f in "$s"/log/*; do
		echo "--- $f"
		tail -n 20 "$f"
	done
}

# munged with a fresh key, on a socket of its own
chmod 755 "$s/munge"
dd if=/dev/urandom of="$s/munge/key" bs=1024 count=1 2>/dev/null
chmod 600 "$s/munge/key"
munged -F --force --socket="$s/munge/sock" --key-file="$s/munge/key" \
	--pid-file="$s/munge/pid" --seed-file="$s/munge/seed" \
	>"$s/log/munged" 2>&1 &
pids="$pids $!"

# two free TCP ports for slurmctld and slurmd
read -r ctld_port d_port < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for x in ss:
    x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in ss))')

host=$(hostname -s)
cat >"$s/slurm.conf" <<EOF
ClusterName=shardlptest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$s/munge/sock
CredType=cred/munge
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool/%n
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/log/slurmctld.log
SlurmdLogFile=$s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
InactiveLimit=0
KillWait=5
NodeName=shardlpnode NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=shardlpnode Default=YES MaxTime=10 State=UP
EOF
export SLURM_CONF=$s/slurm.conf

# munged must answer before slurmctld asks it for credentials
for _ in $(seq 1 50); do
	[ -S "$s/munge/sock" ] && break
	sleep 0.1
done
slurmctld -D -f "$SLURM_CONF" >"$s/log/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -N shardlpnode -f "$SLURM_CONF" >"$s/log/slurmd.out" 2>&1 &
pids="$pids $!"

# the node idle: the cluster is up
state=
for _ in $(seq 1 150); do
	state=$(sinfo -h -N -o %t 2>/dev/null || true)
	[ "$state" = idle ] && break
	sleep 0.2
done
checks=$((checks + 1))
if [ "$state" = idle ]; then
	pass "a one-node Slurm cluster on localhost is up"
else
	fail "the Slurm node is '$state', not idle"
	show_logs
	finish || exit 1
fi

# the inputs, and the summary of one unsharded run
mkdir -p "$tmp/gen"
for i in $(seq 1 8); do
	"$SHARDLP" gen transformer --layers 2 --seed "$i" -o "$tmp/gen/t$i.mlir"
done
run "$SHARDLP" batch -j 2 --out "$tmp/full" "$tmp/gen"
expect_rc 0 "the unsharded batch"

# the array: task K runs slice K of 4
run timeout 50 sbatch --wait --array=0-3 --chdir="$tmp" --export=ALL \
	--output="$tmp/task-%a.log" --job-name=shardlp-batch \
	--wrap="'$SHARDLP' batch --shard \$SLURM_ARRAY_TASK_ID/4 --out '$tmp/slice'\$SLURM_ARRAY_TASK_ID '$tmp/gen'"
expect_rc 0 "sbatch --wait of the 4-task array"
if [ "$rc" -ne 0 ]; then
	show_logs
	for f in "$tmp"/task-*.log; do
		[ -f "$f" ] && { echo "--- $f"; tail -n 5 "$f"; }
	done
fi
checks=$((checks + 1))
if [ -s "$tmp/slice0/summary.csv" ] && [ -s "$tmp/slice1/summary.csv" ] &&
   [ -s "$tmp/slice2/summary.csv" ] && [ -s "$tmp/slice3/summary.csv" ]; then
	pass "each task of the array wrote its slice's summary"
else
	fail "missing slices: $(ls -d "$tmp"/slice* 2>/dev/null | wc -l) of 4"
fi

run "$SHARDLP" batch --merge --out "$tmp/merged" "$tmp"/slice*/summary.csv
expect_rc 0 "--merge of the 4 slices"

checks=$((checks + 1))
if diff <(mask_timed "$tmp/full/summary.csv" | sort) <(mask_timed "$tmp/merged/summary.csv" | sort) >"$tmp/diff" &&
   [ "$(head -1 "$tmp/merged/summary.csv")" = "$(head -1 "$tmp/full/summary.csv")" ]; then
	pass "the Slurm array's slices merge to the summary of one run"
else
	fail "the merged slices differ from one run: $(head -4 "$tmp/diff")"
fi
finish
