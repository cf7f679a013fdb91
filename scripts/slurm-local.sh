#!/bin/sh
# A throwaway single-node Slurm (munged + slurmctld + slurmd on this host), for testing the
# job array recipe where no cluster is at hand. Everything lives in DIR; nothing outside it
# is touched. Needs root (slurmd starts jobs as their user), Debian's slurm-wlm and munge.
#
#   scripts/slurm-local.sh start DIR    # prints "export SLURM_CONF=DIR/slurm.conf"
#   SLURM_CONF=DIR/slurm.conf sbatch --wait --array=0-9 docs/recipes/slurm-array.sh ...
#   scripts/slurm-local.sh stop DIR
set -eu
action=$1
dir=$(cd "$2" && pwd)
case "$action" in
start)
    mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
    chmod 700 "$dir/munge"
    [ -f "$dir/munge/munge.key" ] ||
        dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
    chmod 400 "$dir/munge/munge.key"
    munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/socket" \
        --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" \
        --seed-file="$dir/munge/seed"
    # Free ports, from the kernel's choice.
    ports=$(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1",0)) for x in s]
print(" ".join(str(x.getsockname()[1]) for x in s))')
    set -- $ports
    cpus=$(nproc)
    host=$(hostname -s)
    cat > "$dir/slurm.conf" <<CONF
ClusterName=cpsolve-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
MaxArraySize=100000
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$dir/slurm.conf"
    slurmctld -i
    slurmd -N "$host"
    echo "export SLURM_CONF=$dir/slurm.conf"
    ;;
stop)
    for pid in slurmd.pid slurmctld.pid munge/munged.pid; do
        [ -f "$dir/$pid" ] && kill "$(cat "$dir/$pid")" 2>/dev/null || true
    done
    ;;
*)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
