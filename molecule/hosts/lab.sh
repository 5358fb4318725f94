#!/usr/bin/env bash
# Three GPU "hosts" as network namespaces rf<ID>-gpu1..3, each with its own sshd on
# 198.19.<ID>.1N (a bridge in the root namespace holds 198.19.<ID>.1), 8 veth "NICs" rdma0..rdma7
# with 4 queues, and its own /etc/{sysctl.d,systemd,udev,roce-fabric} (ip netns exec bind-mounts
# /etc/netns/<ns>). ROCE_LAB_ID (1-249; `make molecule` derives it from the checkout's path) keeps
# the names, addresses and paths of two checkouts' labs apart.
# usage: lab.sh up|down     State (keys, configs, pids, logs) lives in $LAB.
set -euo pipefail
ID=${ROCE_LAB_ID:-200}
LAB=/tmp/roce-fabric-hosts-lab-$ID
BR=rfhbr$ID
NET=198.19.$ID
HOSTS="1 2 3"

down() {
  for n in $HOSTS; do
    ns=rf$ID-gpu$n
    if [ -f "$LAB/$ns/sshd.pid" ]; then kill "$(cat "$LAB/$ns/sshd.pid")" 2>/dev/null || true; fi
    # Also the per-connection sshd children that SSH connection sharing keeps alive: a deleted
    # namespace would otherwise live on inside them.
    if ip netns pids "$ns" >/dev/null 2>&1; then
      ip netns pids "$ns" | xargs -r kill 2>/dev/null || true
    fi
    ip netns del "$ns" 2>/dev/null || true
    ip link del "rfh${ID}g$n" 2>/dev/null || true
    rm -rf "/etc/netns/$ns"
  done
  ip link del "$BR" 2>/dev/null || true
  # Removing a mount target detaches the bind mounts of every namespace using it (Linux >= 3.18):
  # only when no other lab's namespace (another checkout's, side by side) is left.
  if [ -f "$LAB/etc-targets" ] && [ -z "$(ls -A /etc/netns 2>/dev/null)" ]; then
    xargs -r rmdir --ignore-fail-on-non-empty < "$LAB/etc-targets"
  fi
  rm -rf "$LAB"
}

up() {
  down
  mkdir -p "$LAB" /run/sshd
  # ip netns exec binds /etc/netns/<ns>/<x> over /etc/<x> only where /etc/<x> exists: make the
  # missing targets (removed again by down), or every host would share the real /etc.
  : > "$LAB/etc-targets"
  for t in sysctl.d systemd/system udev/rules.d roce-fabric; do
    if [ ! -d "/etc/$t" ]; then
      # every directory mkdir -p makes, deepest first, so down can rmdir them in order
      mkdir -pv "/etc/$t" | sed -n "s/^mkdir: created directory '\(.*\)'$/\1/p" | tac \
        >> "$LAB/etc-targets"
    fi
  done
  ssh-keygen -q -t ed25519 -N "" -f "$LAB/id_ed25519"
  ip link add "$BR" type bridge
  ip addr add "$NET.1/24" dev "$BR"
  ip link set "$BR" up
  for n in $HOSTS; do
    ns=rf$ID-gpu$n
    addr=$NET.1$n
    mkdir -p "$LAB/$ns" "/etc/netns/$ns/sysctl.d" "/etc/netns/$ns/systemd/system" \
      "/etc/netns/$ns/udev/rules.d" "/etc/netns/$ns/roce-fabric"
    ip netns add "$ns"
    ip link add "rfh${ID}g$n" type veth peer name eth0 netns "$ns"
    ip link set "rfh${ID}g$n" master "$BR" up
    ip -n "$ns" addr add "$addr/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
    for i in 0 1 2 3 4 5 6 7; do
      ip -n "$ns" link add "rdma$i" numtxqueues 4 numrxqueues 4 type veth \
        peer name "rdma${i}p" numtxqueues 4 numrxqueues 4
      ip -n "$ns" link set "rdma$i" up
      ip -n "$ns" link set "rdma${i}p" up
    done
    ssh-keygen -q -t ed25519 -N "" -f "$LAB/$ns/hostkey"
    cat > "$LAB/$ns/sshd_config" <<CFG
ListenAddress $addr
HostKey $LAB/$ns/hostkey
PidFile $LAB/$ns/sshd.pid
AuthorizedKeysFile $LAB/id_ed25519.pub
PermitRootLogin prohibit-password
PasswordAuthentication no
UsePAM no
StrictModes no
Subsystem sftp internal-sftp
CFG
    ip netns exec "$ns" unshare --uts sh -c \
      "hostname gpu$n && exec /usr/sbin/sshd -f $LAB/$ns/sshd_config -E $LAB/$ns/sshd.log"
    ip netns exec "$ns" touch "/etc/roce-fabric/.lab-$ns"
    if [ -e "/etc/roce-fabric/.lab-$ns" ]; then
      echo "$ns shares the root /etc/roce-fabric: the /etc/netns bind mount did not happen" >&2
      exit 1
    fi
  done
  for n in $HOSTS; do
    for _ in $(seq 50); do
      [ -s "$LAB/rf$ID-gpu$n/sshd.pid" ] && break
      sleep 0.1
    done
  done
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  *) echo "usage: $0 up|down" >&2; exit 2 ;;
esac
