"""Driver models: stateful fakes of a GPU host's NIC per driver stack, for the host code's tests.

Not recordings: each model keeps the state a driver keeps, refuses what the driver refuses and
reports what the driver reports - every rule cites the kernel / iproute2 function it models
(torvalds/linux drivers/net/ethernet/{mellanox/mlx5/core/en_dcbnl.c, broadcom/bnxt/bnxt_dcb.c,
intel/ice/ice_dcb_nl.c, intel/ice/ice_dcb_lib.c}, iproute2 dcb/dcb_app.c, dcb_ets.c). The text
the fakes print is the iproute2 / ethtool printers' format (tests/unit/fixtures/nic keep the
recorded samples). A host answers ``run(argv)``, ``read(path)``, ``listdir(path)`` and
``write(path, value, mkdir)`` as live.py's injected functions, and logs every change it takes.
"""
import errno
import json

TSA = {0: "strict", 1: "cbs", 2: "ets", 255: "vendor"}      # linux/dcbnl.h IEEE_8021QAZ_TSA_*
TSA_ID = dict((v, k) for k, v in TSA.items())
SEL_DGRAM, SEL_DSCP = 3, 5                                    # IEEE_8021QAZ_APP_SEL_*


class Refused(Exception):
    """A driver callback's negative errno."""

    def __init__(self, code, why=""):
        Exception.__init__(self, why or errno.errorcode.get(code, str(code)))
        self.code = code


def _pairs(text_items):
    """'24:3 24:0' -> [(24, 3), (24, 0)]: a del may name two priorities of one DSCP."""
    return [tuple(int(x) for x in t.split(":", 1)) for t in text_items]


def _map(text_items):
    """'0:1 3:on' tokens -> {0: '1', 3: 'on'} (iproute2 parse_mapping; 'all' expands)."""
    out = {}
    for token in text_items:
        key, _sep, value = token.partition(":")
        for k in (range(8) if key == "all" else [int(key)]):
            out[k] = value
    return out


class Nic(object):
    """The netdev half every stack shares: MTU, pause, channels, DCBNL dispatch. A subclass is
    one driver's dcbnl_rtnl_ops."""
    driver, version, stack = "veth", "1.0", "no-dcb"
    rdma = None
    has_dcb = True

    def __init__(self, name="rdma0", pci="0000:17:00.0", ignore_writes=False):
        self.name, self.pci, self.ignore = name, pci, ignore_writes
        self.mtu, self.pause = 1500, {"autoneg": True, "rx": True, "tx": True}
        self.channels = {"max": 63, "current": 63}
        self.apps = []                 # (selector, protocol, priority), dcb_ieee_setapp's list
        self.attrs = {}                # sysfs/configfs/debugfs path -> [getter, setter]
        self.groups = {}               # configfs subsystem dir -> make_group callback
        self.log = []

    # -- DCBNL ops, overridden per driver ------------------------------------------------
    def getets(self):
        raise Refused(errno.EOPNOTSUPP)

    def setets(self, ets):
        raise Refused(errno.EOPNOTSUPP)

    def getpfc(self):
        raise Refused(errno.EOPNOTSUPP)

    def setpfc(self, pfc_en, delay):
        raise Refused(errno.EOPNOTSUPP)

    def setapp(self, app):
        raise Refused(errno.EOPNOTSUPP)

    def delapp(self, app):
        self.apps.remove(app)

    def dcbx(self):
        return "host ieee"

    def setdcbx(self, flags):
        """The driver's setdcbx status: 0 taken, 1 refused (dcbnl.c puts it in the reply)."""
        return 1

    def lldp_exchange(self):
        """What a firmware DCBX agent does with the peer's LLDP after a host write: nothing
        unless the driver models one."""

    def priv_flags(self):
        return None

    def set_priv_flag(self, flag, on):
        raise Refused(errno.EOPNOTSUPP)

    def rdma_tree(self, files):
        """Static sysfs of the RDMA device (GIDs, ports)."""

    # -- iproute2 dcb, as dcb/dcb_*.c drive the ops --------------------------------------
    def dcb(self, argv):
        obj, verb = argv[0], argv[1]
        try:
            if obj == "app" and verb == "show":
                return 0, self._app_json(), ""
            if obj == "app" and verb == "replace":
                return self._app_replace(argv[4:])
            if obj == "app" and verb in ("add", "del"):
                return self._app_add_del(verb, argv[4:])
            if obj == "ets" and verb == "show":
                return 0, self._ets_text(self.getets()), ""
            if obj == "ets" and verb == "set":
                ets = self.getets()          # dcb_ets.c: get, modify the named maps, set all
                cur = None
                for token in argv[4:]:
                    if token in ("prio-tc", "tc-tsa", "tc-bw"):
                        cur = token.replace("-", "_")
                        continue
                    for k, v in _map([token]).items():
                        ets[cur][k] = TSA_ID[v] if cur == "tc_tsa" else int(v)
                if not self.ignore:
                    self.setets(ets)
                    self.lldp_exchange()
                self.log.append(("ets",))
                return 0, "", ""
            if obj == "pfc" and verb == "show":
                pfc = self.getpfc()
                return 0, ("pfc-cap %d macsec-bypass off delay %d\nprio-pfc %s\n" % (
                    pfc["pfc_cap"], pfc["delay"], " ".join(
                        "%d:%s" % (p, "on" if pfc["pfc_en"] >> p & 1 else "off")
                        for p in range(8)))), ""
            if obj == "pfc" and verb == "set":
                pfc = self.getpfc()
                en, delay, args = pfc["pfc_en"], pfc["delay"], argv[4:]
                i = 0
                while i < len(args):
                    if args[i] == "prio-pfc":
                        i += 1
                        while i < len(args) and ":" in args[i]:
                            for p, state in _map([args[i]]).items():
                                en = en | 1 << p if state == "on" else en & ~(1 << p)
                            i += 1
                    elif args[i] == "delay":
                        delay, i = int(args[i + 1]), i + 2
                    else:
                        i += 1
                if not self.ignore:
                    self.setpfc(en, delay)
                    self.lldp_exchange()
                self.log.append(("pfc",))
                return 0, "", ""
            if obj == "dcbx" and verb == "show":
                return 0, self.dcbx() + " \n", ""
            if obj == "dcbx" and verb == "set":
                # dcb_dcbx.c dcb_cmd_dcbx_set: the named flags, one DCB_CMD_SDCBX; a non-zero
                # status from the driver's setdcbx fails in dcb_set_attribute_attr_cb
                if not self.ignore and self.setdcbx(set(argv[4:])):
                    return 1, "", ("Error when attempting to set attribute: Operation not "
                                   "permitted\n")
                self.log.append(("dcbx",))
                return 0, "", ""
        except Refused as exc:
            return 1, "", "Error: %s\n" % exc
        return 1, "", "Error: unknown dcb command\n"

    def _app_json(self):
        # dcb_app.c dcb_app_print_filtered: an array of [pid, prio] per table; the newer
        # printers add a trailing " " member, which the parser must take as well
        out = {}
        for sel, name in ((SEL_DSCP, "dscp_prio"), (SEL_DGRAM, "dgram_port_prio")):
            entries = sorted([p, q, " "] for s, p, q in self.apps if s == sel)
            if entries:
                out[name] = entries
        return json.dumps(out)

    def _app_replace(self, args):
        # dcb_app.c dcb_cmd_app_replace: add the entries not yet there, then delete the
        # replaced ones (same selector and protocol, other priority); a refused add prints
        # "Could not add new APP entries" and still exits 0 (iproute2 6.1-7.1,
        # host-audit.md #4); the kernel's dcbnl_ieee_set stops at the first refused entry.
        sel = {"dscp-prio": SEL_DSCP, "dgram-port-prio": SEL_DGRAM}[args[0]]
        new = [(sel, int(k), int(v)) for k, v in _map(args[1:]).items()]
        add = [a for a in new if a not in self.apps]
        old = [a for a in self.apps if any(a[:2] == n[:2] and a != n for n in new)]
        if self.ignore:
            return 0, "", ""
        for app in add:
            try:
                self.setapp(app)
            except Refused:
                return 0, "", "Could not add new APP entries\n"
            self.log.append(("app", app))
        for app in old:
            try:
                self.delapp(app)
            except Refused:
                pass
        return 0, "", ""

    def _app_add_del(self, verb, args):
        # dcb_app.c dcb_cmd_app_add / _del: one DCB_CMD_IEEE_SET / _DEL message with every
        # entry; the kernel's dcbnl_ieee_set / dcbnl_ieee_del stop at the first entry the driver
        # refuses and the tool prints the error and exits 1
        sel = {"dscp-prio": SEL_DSCP, "dgram-port-prio": SEL_DGRAM}[args[0]]
        entries = [(sel, int(k), int(v)) for k, v in _pairs(args[1:])]
        if self.ignore:
            return 0, "", ""
        for app in entries:
            try:
                if verb == "add":
                    if app in self.apps:       # dcbnl.c dcb_ieee_setapp: an equal entry
                        raise Refused(errno.EEXIST)    # is refused
                    self.setapp(app)
                elif app not in self.apps:
                    raise Refused(errno.ENOENT)
                else:
                    self.delapp(app)
            except Refused as exc:
                return 1, "", "Error: %s\n" % exc
            self.log.append(("app", app))
        return 0, "", ""

    @staticmethod
    def _ets_text(ets):
        def m(key, fmt=str):
            return " ".join("%d:%s" % (i, fmt(ets[key][i])) for i in range(8))
        return ("willing off ets-cap %d cbs off\ntc-bw %s\npg-bw %s\ntc-tsa %s\nprio-tc %s\n"
                % (ets["ets_cap"], m("tc_bw"), m("tc_bw"), m("tc_tsa", lambda t: TSA[t]),
                   m("prio_tc")))


class Mlx5(Nic):
    """mlx5_core (inbox; ``ofed`` adds MLNX_OFED's sysfs) - en_dcbnl.c."""
    driver, version, stack, rdma = "mlx5_core", "6.8.0-51-generic", "mlx5-inbox", "mlx5_0"

    def __init__(self, ofed=False, vport_group_manager=True, buffers=True, firmware_dcbx=False,
                 host_mode_refused=False, **kw):
        Nic.__init__(self, **kw)
        self.ofed, self.vgm, self.buffers = ofed, vport_group_manager, buffers
        # mlx5e_dcbnl_initialize: the firmware's DCBX mode (mlx5e_dcbnl_query_dcbx_mode: host or
        # "auto"); cap CEE | IEEE, plus HOST only in host mode. host_mode_refused: the firmware
        # refuses the DCBX_PARAM write of mlx5e_dcbnl_set_dcbx_mode.
        self.host_mode, self.host_mode_refused = not firmware_dcbx, host_mode_refused
        self.dcbx_cap = {"cee", "ieee"} | ({"host"} if self.host_mode else set())
        if ofed:
            self.stack, self.version = "mlx5-ofed", "24.10-1.1.4"
        self.max_tc = 7                                     # mlx5_max_tc(): ets_cap 8
        # mlx5e_ets_init: every TC vendor TSA at 100 %, prio 0 -> TC1, prio 1 -> TC0, i -> i;
        # setets_core stores tc_group / tc_tx_bw in firmware and tc_tsa in priv->dcbx
        self.prio_tc = [1, 0, 2, 3, 4, 5, 6, 7]
        self.tsa = [255] * 8
        self.group, self.fw_bw = [7] * 8, [100] * 8
        self.trust, self.dscp2prio, self.dscp_app_cnt = "pcp", [d >> 3 for d in range(64)], 0
        self.pfc_en, self.cable_len, self.toggles = 0, 7, 0   # MLX5E_DEFAULT_CABLE_LEN
        self.cc = {"np_cnp_dscp": 48, "np_cnp_prio": 6, "np_cnp_prio_mode": 1}
        self.ecn = dict(((side, p), 0) for side in ("rp", "np") for p in range(8))
        self.ofed_cnp = {"cnp_dscp": 48, "cnp_802p_prio": 7}
        self.tclass = 0
        self.lldp_exchange()                 # a willing firmware agent took the peer's already
        self.toggles = 0

    def getets(self):
        # mlx5e_dcbnl_ieee_getets: firmware bw per TC; ETS TCs of group 0 reported 0 % when a
        # weighted group 1 exists; TSA ETS below 100 %, else what setets stored
        zero = any(self.fw_bw[i] < 100 and self.group[i] == 1 for i in range(8))
        bw = [0 if zero and self.group[i] == 0 else self.fw_bw[i] for i in range(8)]
        tsa = [2 if bw[i] < 100 else self.tsa[i] for i in range(8)]
        return {"ets_cap": self.max_tc + 1, "prio_tc": dict(enumerate(self.prio_tc)),
                "tc_tsa": dict(enumerate(tsa)), "tc_bw": dict(enumerate(bw))}

    def setets(self, ets):
        # mlx5e_dbcnl_validate_ets: priorities below 8; ETS weights summing to 100
        if any(tc >= 8 for tc in ets["prio_tc"].values()):
            raise Refused(errno.EINVAL, "Invalid argument")
        weights = [ets["tc_bw"][i] for i in range(8) if ets["tc_tsa"][i] == 2]
        if weights and sum(weights) != 100:
            raise Refused(errno.EINVAL, "Invalid argument")
        tsa = [ets["tc_tsa"][i] for i in range(8)]
        bw = [ets["tc_bw"][i] for i in range(8)]
        # mlx5e_build_tc_group: zero-weight ETS TCs group 0, weighted ETS group 1 (when a
        # zero-weight one exists), strict TCs above; mlx5e_build_tc_tx_bw: strict 100 %,
        # zero-weight ETS share 100 %
        zero_bw = any(t == 2 and not b for t, b in zip(tsa, bw))
        strict = (1 if 2 in tsa else 0) + (1 if zero_bw else 0)
        zeros = [i for i in range(8) if tsa[i] == 2 and not bw[i]]
        for i in range(8):
            if tsa[i] == 0:
                self.group[i], self.fw_bw[i], strict = strict, 100, strict + 1
            elif tsa[i] == 255:
                self.group[i], self.fw_bw[i] = 7, 100
            else:
                self.group[i] = 1 if bw[i] and zero_bw else 0
                self.fw_bw[i] = bw[i] or 100 // len(zeros)
        if zeros:
            self.fw_bw[zeros[-1]] += 100 % len(zeros)
        self.prio_tc = [ets["prio_tc"][p] for p in range(8)]
        self.tsa = tsa

    def getpfc(self):
        # mlx5e_dcbnl_ieee_getpfc: delay is the cable length only with port buffers
        return {"pfc_cap": 8, "pfc_en": self.pfc_en,
                "delay": self.cable_len if self.buffers else 0}

    def setpfc(self, pfc_en, delay):
        # mlx5e_dcbnl_ieee_setpfc: a new mask toggles the link; delay taken below 1000 m
        if pfc_en != self.pfc_en:
            self.pfc_en, self.toggles = pfc_en, self.toggles + 1
        if delay and delay < 1000 and delay != self.cable_len:
            self.cable_len = delay

    def setapp(self, app):
        # mlx5e_dcbnl_ieee_setapp: needs vport_group_manager; DSCP selector only; the first
        # DSCP entry switches trust to DSCP
        if not self.vgm:
            raise Refused(errno.EOPNOTSUPP)
        if app[0] != SEL_DSCP or app[1] >= 64:
            raise Refused(errno.EINVAL)
        if not self.dscp_app_cnt:
            self.trust = "dscp"
        old = [a for a in self.apps if a[:2] == app[:2]]
        self.dscp2prio[app[1]] = app[2]
        for a in old:
            self.apps.remove(a)
        self.apps.append(app)
        if not old:
            self.dscp_app_cnt += 1

    def delapp(self, app):
        # mlx5e_dcbnl_ieee_delapp: only an entry matching the firmware's map
        if app not in self.apps or self.dscp2prio[app[1]] != app[2]:
            raise Refused(errno.ENOENT)
        self.apps.remove(app)
        self.dscp2prio[app[1]] = 0
        self.dscp_app_cnt -= 1
        if not self.dscp_app_cnt:
            self.trust = "pcp"

    def dcbx(self):
        # mlx5e_dcbnl_getdcbx: priv->dcbx.cap; dcb_dcbx_print prints the flags lowest bit first
        return " ".join(f for f in ("host", "cee", "ieee") if f in self.dcbx_cap)

    def setdcbx(self, flags):
        # mlx5e_dcbnl_setdcbx: LLD_MANAGED refused; no flag at all hands DCBX back to the
        # firmware; a mode without HOST refused; else mlx5e_dcbnl_switch_to_host_mode
        # (version_admin = host) and cap = the mode asked for
        if "lld-managed" in flags:
            return 1
        if not flags:
            self.host_mode, self.dcbx_cap = False, self.dcbx_cap - {"host"}
            return 0
        if "host" not in flags or self.host_mode_refused:
            return 1
        self.host_mode, self.dcbx_cap = True, set(flags)
        return 0

    # What a peer switch advertises over LLDP (DCBX TLVs, recommendation): PFC on 3 and 4 (SONiC's
    # default lossless priorities, sonic.md) and an ETS unlike the plan's, so a test sees it.
    PEER_PFC = 1 << 3 | 1 << 4
    PEER_ETS = {"prio_tc": dict((p, p) for p in range(8)), "tc_tsa": dict((t, 2) for t in range(8)),
                "tc_bw": {0: 13, 1: 13, 2: 12, 3: 12, 4: 13, 5: 13, 6: 12, 7: 12}}

    def lldp_exchange(self):
        # Firmware mode: the ConnectX's own DCBX agent is willing (mlx5e_dcbnl_set_dcbx_mode sets
        # willing_admin for any mode but host) and applies the peer's PFC and ETS over whatever
        # the host wrote; a PFC change bounces the link as a host write does.
        if self.host_mode:
            return
        if self.pfc_en != self.PEER_PFC:
            self.pfc_en, self.toggles = self.PEER_PFC, self.toggles + 1
        Mlx5.setets(self, self.PEER_ETS)

    def rdma_tree(self, files):
        net = "/sys/class/net/%s" % self.name
        if self.ofed:
            # MLNX_OFED en_sysfs.c: ecn/roce_{rp,np}/enable/<prio>, roce_np/cnp_*; no qos/trust
            for (side, p) in self.ecn:
                self.attr("%s/ecn/roce_%s/enable/%d" % (net, side, p),
                          lambda s=side, q=p: "%d\n" % self.ecn[(s, q)],
                          lambda v, s=side, q=p: self.ecn.__setitem__((s, q), int(v)))
            for key in self.ofed_cnp:
                self.attr("%s/ecn/roce_np/%s" % (net, key),
                          lambda k=key: "%d\n" % self.ofed_cnp[k],
                          lambda v, k=key: self.ofed_cnp.__setitem__(k, int(v)))
            # OFED ib tc sysfs: reads "Global tclass=N", takes "N"
            self.attr("/sys/class/infiniband/%s/tc/1/traffic_class" % self.rdma,
                      lambda: "Global tclass=%d\n" % self.tclass,
                      lambda v: setattr(self, "tclass", int(v)))
        else:
            # drivers/infiniband/hw/mlx5/cong.c: cc_params, decimal; writing np_cnp_prio sets
            # np_cnp_prio_mode 0
            cc = "/sys/kernel/debug/mlx5/%s/cc_params" % self.pci
            for key in ("np_cnp_dscp", "np_cnp_prio"):
                self.attr("%s/%s" % (cc, key), lambda k=key: "%d\n" % self.cc[k],
                          lambda v, k=key: self._cc(k, int(v)))

    def _cc(self, key, value):
        self.cc[key] = value
        if key == "np_cnp_prio":
            self.cc["np_cnp_prio_mode"] = 0

    def attr(self, path, getter, setter=None):
        self.attrs[path] = [getter, setter]


class Bnxt(Nic):
    """bnxt_en + bnxt_re - bnxt_dcb.c (before the 2025 ETS fix b74c2a2e, the stricter check)."""
    driver, version, stack, rdma = "bnxt_en", "6.8.0-51-generic", "bnxt-upstream", "bnxt_re0"

    def __init__(self, broadcom=False, service_profile=False, dcbx="host ieee", max_tc=3,
                 max_lltc=3, **kw):
        Nic.__init__(self, **kw)
        self.broadcom, self.service_profile = broadcom, service_profile
        if broadcom:
            self.stack, self.version = "bnxt-broadcom", "1.10.3-233.2.77.9"
        self.flags, self.max_tc, self.max_lltc = set(dcbx.split()), max_tc, max_lltc
        self.pause = {"autoneg": False, "rx": False, "tx": False}
        self.my_ets = self.my_pfc = None
        self.max_dscp = 63                   # bnxt_hwrm_queue_dscp_qcaps (PF)
        self.firmware_apps = []
        self.firmware_dscp = {}              # the firmware's DSCP -> priority table
        # bnxt_re configfs (Broadcom's driver): values %#x; Thor2 default CNP priority 7
        self.cc = {"cnp_dscp": 0x30, "cnp_prio": 0x7, "ecn_enable": 0x0}
        self.applied = dict(self.cc)

    def _host(self):
        # setets / setpfc / setapp: EINVAL unless DCB_CAP_DCBX_HOST and VER_IEEE
        if not {"host", "ieee"} <= self.flags:
            raise Refused(errno.EINVAL, "Invalid argument")

    def getets(self):
        # bnxt_dcbnl_ieee_getets: ets_cap = max_tc; in host mode nothing else until set
        if self.my_ets is None:
            zero = dict((i, 0) for i in range(8))
            return {"ets_cap": self.max_tc, "prio_tc": dict(zero), "tc_tsa": dict(zero),
                    "tc_bw": dict(zero)}
        return dict(json.loads(json.dumps(self.my_ets), object_hook=_intkeys),
                    ets_cap=self.max_tc)

    def setets(self, ets):
        self._host()
        # bnxt_ets_validate
        total, zero = 0, False
        for i in range(8):
            if ets["prio_tc"][i] > self.max_tc:
                raise Refused(errno.EINVAL, "Invalid argument")
            if (ets["tc_bw"][i] or ets["tc_tsa"][i]) and i > self.max_tc:
                raise Refused(errno.EINVAL, "Invalid argument")
            if ets["tc_tsa"][i] == 2:
                total += ets["tc_bw"][i]
                zero = zero or not ets["tc_bw"][i]
            elif ets["tc_tsa"][i] != 0:
                raise Refused(errno.EOPNOTSUPP)
        if total > 100 or (zero and total == 100):      # "starving a TC"
            raise Refused(errno.EINVAL, "Invalid argument")
        self.my_ets = dict((k, dict(ets[k])) for k in ("prio_tc", "tc_tsa", "tc_bw"))

    def getpfc(self):
        # bnxt_dcbnl_ieee_getpfc: pfc_cap = max_lltc; host mode: 0 until set
        pfc = self.my_pfc or {"pfc_en": 0, "delay": 0}
        return {"pfc_cap": self.max_lltc, "pfc_en": pfc["pfc_en"], "delay": pfc["delay"]}

    def setpfc(self, pfc_en, delay):
        self._host()
        # bnxt_hwrm_queue_pfc_cfg: no ETS yet -> EINVAL; more lossless TCs than max_lltc
        if self.my_ets is None:
            raise Refused(errno.EINVAL, "Invalid argument")
        tcs = set(self.my_ets["prio_tc"][p] for p in range(8) if pfc_en >> p & 1)
        if len(tcs) > self.max_lltc:
            raise Refused(errno.EINVAL, "Invalid argument")
        self.my_pfc = {"pfc_en": pfc_en, "delay": delay}

    def setapp(self, app):
        self._host()
        # bnxt_dcbnl_ieee_dscp_app_prep; DGRAM 4791 also to firmware (bnxt_hwrm_set_dcbx_app)
        if app[0] == SEL_DSCP and (not self.max_dscp or app[1] > self.max_dscp):
            raise Refused(errno.EINVAL)
        self.apps.append(app)
        if app[0] == SEL_DGRAM and app[1] == 4791:
            self.firmware_apps.append(app)
        if app[0] == SEL_DSCP:               # bnxt_hwrm_queue_dscp2pri_cfg(add): mask 0x3f
            self.firmware_dscp[app[1]] = app[2]

    def delapp(self, app):
        self._host()
        self.apps.remove(app)
        if app[0] == SEL_DSCP:               # bnxt_hwrm_queue_dscp2pri_cfg(!add): mask 0, the
            self.firmware_dscp.pop(app[1], None)     # DSCP has no firmware mapping any more

    def dcbx(self):
        return " ".join(f for f in ("host", "lld-managed", "ieee") if f in self.flags)

    def rdma_tree(self, files):
        if not self.broadcom:
            return                           # upstream bnxt_re registers no configfs
        files["/sys/kernel/config/bnxt_re/"] = None          # the subsystem, empty
        self.groups["/sys/kernel/config/bnxt_re/%s" % self.rdma] = self._make_group

    def _make_group(self, group):
        # make_bnxt_re_dev: the device group, with ports/1/cc/ attributes
        cc = group + "/ports/1/cc/"
        for key in self.cc:
            self.attrs[cc + key] = [lambda k=key: "%#x\n" % self.cc[k],
                                    lambda v, k=key: self._store(k, v)]
        self.attrs[cc + "apply"] = [lambda: "ecn status: %d\n" % self.applied["ecn_enable"],
                                    lambda v: self._apply()]

    def _apply(self):
        # configfs.c apply_store -> bnxt_re_program_cc_params: without a service profile
        # bnxt_re_program_cnp_dcb_values runs first and, while congestion control is off
        # (is_cc_enabled: cc_param.enable, which the ecn_enable store sets), drops the CNP
        # masks and sets alt_tos_dscp and alt_vlan_pcp to 0; then the rest is committed. The
        # cnp_* files show the driver's cc_param (233.x cnp_dscp_show / cnp_prio_show).
        if not self.service_profile and not self.cc["ecn_enable"]:
            self.cc["cnp_dscp"] = self.cc["cnp_prio"] = 0
        self.applied.update(self.cc)

    def _store(self, key, value):
        # service-profile firmware owns the CNP priority: the store returns EINVAL
        # (host-audit.md #3, bnxt_setupcc.sh skips configfs on such firmware)
        if key == "cnp_prio" and self.service_profile:
            raise OSError(errno.EINVAL, "Invalid argument")
        self.cc[key] = int(value, 0)


def _intkeys(obj):
    return dict((int(k) if k.isdigit() else k, v) for k, v in obj.items())


class Ice(Nic):
    """ice + irdma - ice_dcb_nl.c, ice_dcb_lib.c."""
    driver, version, stack, rdma = "ice", "6.8.0-51-generic", "ice", "irdma0"

    def __init__(self, fw_lldp=True, max_tc=8, **kw):
        Nic.__init__(self, **kw)
        self.fw_lldp, self.max_tc = fw_lldp, max_tc
        self.pause = {"autoneg": False, "rx": True, "tx": True}
        self.dscp_mode, self.mapped = False, set()
        self._sw_default()

    def _sw_default(self):
        # ice_dcb_sw_dflt_cfg: TC0 ETS 100 %, everything else 0 (TSA 0 = strict), all
        # priorities on TC0, PFC off
        self.ets = {"prio_tc": dict((i, 0) for i in range(8)),
                    "tc_tsa": dict((i, 2 if i == 0 else 0) for i in range(8)),
                    "tc_bw": dict((i, 100 if i == 0 else 0) for i in range(8))}
        self.pfc_en = 0

    def _lld(self):
        if self.fw_lldp:                     # DCB_CAP_DCBX_LLD_MANAGED: sets refused
            raise Refused(errno.EINVAL, "Invalid argument")

    def getets(self):
        return dict(json.loads(json.dumps(self.ets), object_hook=_intkeys), ets_cap=self.max_tc)

    def setets(self, ets):
        self._lld()                          # ice_dcbnl_setets
        new = {"prio_tc": dict(self.ets["prio_tc"]), "tc_tsa": dict(ets["tc_tsa"]),
               "tc_bw": dict(ets["tc_bw"])}
        if not self.dscp_mode:               # "in DSCP mode up->tc mapping cannot change"
            new["prio_tc"] = dict(ets["prio_tc"])
        num_tc = num_tcs(new["prio_tc"])     # ice_dcb_bwchk
        if num_tc == 1:
            new["tc_bw"][0] = 100
        else:
            total = sum(new["tc_bw"][i] for i in range(num_tc))
            if not total:
                new["tc_bw"][0] = 100
            elif total != 100:
                raise Refused(errno.EINVAL, "Invalid argument")
        self.ets = new

    def getpfc(self):
        return {"pfc_cap": self.max_tc, "pfc_en": self.pfc_en, "delay": 0}

    def setpfc(self, pfc_en, delay):
        self._lld()                          # ice_dcbnl_setpfc
        self.pfc_en = pfc_en

    def setapp(self, app):
        # ice_dcbnl_setapp: DSCP only, not LLD-managed, priority below max TC, not mapped yet
        if app[0] != SEL_DSCP:
            raise Refused(errno.EINVAL)
        self._lld()
        if app[1] >= 64 or app[2] >= self.max_tc or app[1] in self.mapped:
            raise Refused(errno.EINVAL)
        if not self.dscp_mode:
            # the switch to DSCP mode: TC0 100 %, TCs 1.. ETS 0 %, priority i -> TC i
            self.dscp_mode = True
            self.ets = {"prio_tc": dict((i, i if i < self.max_tc else 0) for i in range(8)),
                        "tc_tsa": dict((i, 2 if i < self.max_tc else 0) for i in range(8)),
                        "tc_bw": dict((i, 100 if i == 0 else 0) for i in range(8))}
        self.mapped.add(app[1])
        self.apps.append(app)

    def delapp(self, app):
        self._lld()
        self.apps.remove(app)
        self.mapped.discard(app[1])
        if not self.mapped and self.dscp_mode:   # the last DSCP entry: back to VLAN mode
            self.dscp_mode = False
            self._sw_default()

    def dcbx(self):
        return "lld-managed ieee" if self.fw_lldp else "host ieee"

    def priv_flags(self):
        return {"fw-lldp-agent": self.fw_lldp, "link-down-on-close": False}

    def set_priv_flag(self, flag, on):
        # ice_set_priv_flags: LLDP agent off -> software DCBX (ice_init_pf_dcb sw default);
        # it cannot come back on while DSCP QoS is active
        if flag != "fw-lldp-agent":
            raise Refused(errno.EOPNOTSUPP)
        if on and self.dscp_mode:
            raise Refused(errno.EOPNOTSUPP)
        if self.fw_lldp and not on:
            self._sw_default()
        self.fw_lldp = on


def num_tcs(prio_tc):
    """ice_dcb_get_num_tc: TCs in use must be contiguous from TC0, else DCB falls back to 1."""
    used = set(prio_tc.values())
    count, gap = 0, False
    for tc in range(8):
        if tc in used:
            if gap:
                return 1
            count += 1
        else:
            gap = True
    return max(count, 1)


class Host(object):
    """One GPU host with one NIC model: sysfs, configfs, debugfs, procfs, ip and ethtool."""

    def __init__(self, nic, missing=()):
        self.nic, self.missing = nic, set(missing)
        self.addrs, self.rules, self.routes, self.commands = [], [], {}, []
        self.irq_affinity = {120: "0-15", 121: "0-15", 122: "40"}
        n, net = nic, "/sys/class/net/%s" % nic.name
        self.files = {
            net + "/mtu": lambda: "%d\n" % n.mtu,
            net + "/address": "0c:42:a1:00:00:01\n",
            net + "/device/numa_node": "0\n",
            net + "/device/local_cpulist": "0-15\n",
            net + "/device/uevent": "DRIVER=%s\nPCI_SLOT_NAME=%s\n" % (n.driver, n.pci),
            "/sys/devices/system/cpu/online": "0-63\n",
            "/sys/class/net/lo/mtu": "65536\n",
            "/sys/class/net/eno1/mtu": "1500\n",
        }
        for irq in self.irq_affinity:
            self.files[net + "/device/msi_irqs/%d" % irq] = "msix\n"
            self.files["/proc/irq/%d/smp_affinity_list" % irq] = \
                (lambda i=irq: self.irq_affinity[i] + "\n")
        if n.rdma:
            port = "/sys/class/infiniband/%s/ports/1" % n.rdma
            self.files[net + "/device/infiniband/%s/" % n.rdma] = None
            self.files[port + "/gid_attrs/types/3"] = "RoCE v2\n"
            self.files[port + "/gid_attrs/ndevs/3"] = n.name + "\n"
            self.files[port + "/gids/3"] = "0000:0000:0000:0000:0000:ffff:c612:4001\n"
            self.files["/sys/kernel/config/rdma_cm/"] = None
            self.tos = None
            n.groups["/sys/kernel/config/rdma_cm/%s" % n.rdma] = self._rdma_cm
        n.rdma_tree(self.files)

    def _rdma_cm(self, group):
        # configfs-rdma_cm: ports/N/default_roce_tos once the device group is made
        self.tos = 0
        self.nic.attrs[group + "/ports/1/default_roce_tos"] = [
            lambda: "%d\n" % self.tos, lambda v: setattr(self, "tos", int(v))]

    # -- live.py's injected functions --------------------------------------------------
    def read(self, path):
        if path in self.nic.attrs:
            return self.nic.attrs[path][0]()
        value = self.files.get(path)
        return value() if callable(value) else value

    def listdir(self, path):
        prefix = path.rstrip("/") + "/"
        names = set()
        for key in list(self.files) + list(self.nic.attrs):
            if key.startswith(prefix) and key != prefix:
                names.add(key[len(prefix):].split("/", 1)[0])
        exists = names or prefix in self.files or any(
            k.startswith(prefix) for k in list(self.files) + list(self.nic.attrs))
        return sorted(names) if exists else None

    _made = ()           # configfs groups made so far

    def write(self, path, value, mkdir=None):
        if mkdir:
            if mkdir not in self.nic.groups:
                raise OSError(errno.ENOENT, "No such file or directory")
            if mkdir not in self._made:
                self._made = tuple(self._made) + (mkdir,)
                self.nic.groups[mkdir](mkdir)
        if path.startswith("/proc/irq/"):
            if self.nic.ignore:
                return
            self.irq_affinity[int(path.split("/")[3])] = value
            return
        if path not in self.nic.attrs or self.nic.attrs[path][1] is None:
            raise OSError(errno.ENOENT, "No such file or directory")
        if self.nic.ignore:
            return
        self.nic.attrs[path][1](value)
        self.nic.log.append(("write", path, value))

    def run(self, argv):
        self.commands.append(list(argv))
        if argv[0] in self.missing:
            return 127, "", "%s: command not found" % argv[0]
        n = self.nic
        if argv[0] == "dcb":
            args = argv[2:] if argv[1] == "-j" else argv[1:]
            if args[2:3] != ["dev"] or args[3] != n.name:
                return 1, "", "Error: no such device\n"
            if not n.has_dcb:
                return 1, "", "Operation not supported\n"
            return n.dcb(args)
        if argv[0] == "ethtool":
            return self._ethtool(argv[1:])
        if argv[0] == "ip":
            return self._ip(argv[1:])
        return 1, "", "unknown command"

    def _ethtool(self, args):
        n = self.nic
        flag = args[0]
        if flag == "-i":
            return 0, ("driver: %s\nversion: %s\nfirmware-version: 1.0\nbus-info: %s\n"
                       % (n.driver, n.version, n.pci)), ""
        if flag == "-l":
            return 0, ("Channel parameters for %s:\nPre-set maximums:\nRX:\t\tn/a\nTX:\t\tn/a\n"
                       "Other:\t\tn/a\nCombined:\t%d\nCurrent hardware settings:\nRX:\t\tn/a\n"
                       "TX:\t\tn/a\nOther:\t\tn/a\nCombined:\t%d\n"
                       % (n.name, n.channels["max"], n.channels["current"])), ""
        if flag == "-a":
            onoff = dict((k, "on" if v else "off") for k, v in n.pause.items())
            return 0, ("Pause parameters for %s:\nAutonegotiate:\t%s\nRX:\t\t%s\nTX:\t\t%s\n"
                       % (n.name, onoff["autoneg"], onoff["rx"], onoff["tx"])), ""
        if flag == "-A":
            if not n.ignore:
                n.pause = {"autoneg": False, "rx": False, "tx": False}
            n.log.append(("pause",))
            return 0, "", ""
        if flag == "-L":
            count = int(args[3])
            if count > n.channels["max"]:
                return 1, "", "Cannot set device channel parameters: Invalid argument\n"
            if not n.ignore:
                n.channels["current"] = count
            n.log.append(("channels",))
            return 0, "", ""
        if flag == "--show-priv-flags":
            flags = n.priv_flags()
            if flags is None:
                return 0, "No private flags defined\n", ""
            return 0, "Private flags for %s:\n%s" % (n.name, "".join(
                "%-23s: %s\n" % (k, "on" if v else "off") for k, v in flags.items())), ""
        if flag == "--set-priv-flags":
            try:
                if not n.ignore:
                    n.set_priv_flag(args[2], args[3] == "on")
            except Refused as exc:
                return 1, "", "Cannot set private flags: %s\n" % exc
            n.log.append(("priv_flags",))
            return 0, "", ""
        if flag == "-S":
            return 0, "NIC statistics:\n", ""
        return 1, "", "unknown ethtool option"

    def _ip(self, args):
        n = self.nic
        if args[:2] == ["-j", "addr"]:
            return 0, json.dumps([{"ifname": n.name, "addr_info": [
                {"family": "inet", "local": a.split("/")[0], "prefixlen": int(a.split("/")[1])}
                for a in self.addrs]}]), ""
        if args[:2] == ["-j", "rule"]:
            return 0, json.dumps([{"src": s, "table": t, "priority": p}
                                  for s, t, p in self.rules]), ""
        if args[:3] == ["-j", "route", "show"]:
            if args[3:4] == ["default"]:
                return 0, json.dumps([{"dst": "default", "gateway": "192.0.2.1",
                                       "dev": "eno1"}]), ""
            table = args[4]
            return 0, json.dumps([{"dst": "default", "gateway": g, "dev": d}
                                  for g, d in self.routes.get(table, [])]), ""
        if args[:3] == ["link", "set", "dev"]:
            if not n.ignore:
                n.mtu = int(args[5])
            n.log.append(("mtu",))
            return 0, "", ""
        if args[:2] == ["addr", "replace"]:
            self.addrs.append(args[2])
            return 0, "", ""
        if args[:2] == ["rule", "add"]:
            self.rules.append((args[3], args[5], int(args[7])))
            return 0, "", ""
        if args[:2] == ["route", "replace"]:
            self.routes[args[8]] = [(args[4], args[6])]
            return 0, "", ""
        return 1, "", "unknown ip command"
