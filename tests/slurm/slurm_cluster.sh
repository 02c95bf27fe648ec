# A private single-node Slurm for tests (sourced): munged, slurmctld and slurmd run as
# background processes of the test, configured through SLURM_CONF in a temporary folder,
# on free ports, with their own munge key and socket; nothing is installed or left running.
#   slurm_start DIR   start and wait until the node is idle (exports SLURM_CONF)
#   slurm_stop        stop the daemons by their PIDs
slurm_missing() {
  local t
  for t in munged munge slurmctld slurmd sbatch squeue scancel scontrol sinfo; do
    command -v "$t" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v "$t" >/dev/null 2>&1 || { echo "$t"; return; }
  done
}

free_port() { /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

slurm_start() {
  SLURM_DIR=$1
  export PATH=$PATH:/usr/sbin
  mkdir -p "$SLURM_DIR"/{state,spool,log}
  chmod 755 "$SLURM_DIR"
  head -c 1024 /dev/urandom > "$SLURM_DIR/munge.key"; chmod 600 "$SLURM_DIR/munge.key"
  munged -F --force --socket="$SLURM_DIR/munge.sock" --key-file="$SLURM_DIR/munge.key" \
    --log-file="$SLURM_DIR/log/munged.log" --pid-file="$SLURM_DIR/munged.pid" \
    --seed-file="$SLURM_DIR/munged.seed" > "$SLURM_DIR/log/munged.out" 2>&1 &
  MUNGED_PID=$!
  local i
  for i in $(seq 50); do [ -S "$SLURM_DIR/munge.sock" ] && break; sleep 0.1; done
  # The node as slurmd sees it (CPUs, sockets, cores), with little memory claimed: a RealMemory
  # above the machine's makes the node invalid.
  local node
  node=$(slurmd -C 2>/dev/null | head -1 | sed -e 's/^NodeName=[^ ]*/NodeName=localhost/' \
         -e 's/RealMemory=[0-9]*/RealMemory=256/')
  case "$node" in NodeName=localhost*) ;; *) node="NodeName=localhost CPUs=$(nproc) RealMemory=256" ;; esac
  cat > "$SLURM_DIR/slurm.conf" <<CONF
ClusterName=vptest$$
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SLURM_DIR/munge.sock
CredType=cred/munge
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd.pid
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool
SlurmctldLogFile=$SLURM_DIR/log/slurmctld.log
SlurmdLogFile=$SLURM_DIR/log/slurmd.log
MailProg=/bin/true
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$SLURM_DIR/log/jobcomp.log
KillWait=5
$node State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$SLURM_DIR/slurm.conf
  setsid slurmctld -D -i > "$SLURM_DIR/log/slurmctld.out" 2>&1 &
  SLURMCTLD_PID=$!
  setsid slurmd -D -N localhost > "$SLURM_DIR/log/slurmd.out" 2>&1 &
  SLURMD_PID=$!
  local state="" deadline=$((SECONDS + 30))
  while [ $SECONDS -lt $deadline ]; do
    kill -0 "$SLURMCTLD_PID" 2>/dev/null && kill -0 "$SLURMD_PID" 2>/dev/null || break
    state=$(timeout 5 sinfo -h -N -o '%T' 2>/dev/null)
    [ "$state" = idle ] && return 0
    sleep 0.1
  done
  echo "slurm: the node did not become idle (state '$state'); logs in $SLURM_DIR/log:" >&2
  tail -5 "$SLURM_DIR"/log/*.out >&2
  return 1
}

slurm_stop() {
  [ -n "${SLURM_CONF:-}" ] && timeout 10 scontrol shutdown >/dev/null 2>&1
  local p i
  for p in ${SLURMD_PID:-} ${SLURMCTLD_PID:-}; do
    for i in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -TERM "$p" 2>/dev/null
    for i in $(seq 30); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$p" 2>/dev/null
  done
  [ -n "${MUNGED_PID:-}" ] && kill -TERM "$MUNGED_PID" 2>/dev/null
  wait 2>/dev/null
  SLURMD_PID=; SLURMCTLD_PID=; MUNGED_PID=
}
