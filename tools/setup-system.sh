#!/usr/bin/env bash
# Debian packages the tests need; installed only when missing (root on our machines and in CI).
# libyang2-dev: headers for the libyang Python binding that validates SONiC config_db.json;
# the shellcheck linter, which ansible-test sanity runs on the shell scripts; ethtool and
# iproute2 (ip, dcb) for the NIC tests on veth in network namespaces; openssh-server for the
# molecule hosts scenario (one sshd per namespace host; no daemon starts without systemd);
# frr and frr-pythontools (zebra, bgpd, vtysh, frr-reload.py) and iputils-ping for the molecule
# fabric scenario's routers and its jumbo-frame pings; udev (udevadm) for the test that runs the
# rendered NIC rule through the real rule engine; openssl for the NVUE stand-in's self-signed
# certificate (HTTPS, as Cumulus Linux serves its REST API).
set -euo pipefail
need=()
for pkg in libyang2-dev shellcheck ethtool iproute2 openssh-server frr frr-pythontools udev \
  iputils-ping openssl; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need+=("$pkg")
done
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "missing Debian packages: ${need[*]}; install them (sudo apt-get install ${need[*]})" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q "${need[@]}" >/dev/null
