# SPDX-License-Identifier: GPL-2.0-only
"""The cases: what a client can observe of a TLS 1.3/1.2 server's
conformance to RFC 8446 4, 5, 6 and D, RFC 5246 7, RFC 7627, RFC 5746,
RFC 8422 and RFC 6066 3.

Each case names its clause, whether the RFC text makes the server's
behaviour a MUST or leaves a choice ("policy": then the case's note says
which choice we test and why), and its expected outcome, taken from the
RFC: a completed handshake with application data echoed, a given alert
under given keys followed by the close, or a close.  Families are built
from lists of code points, truncation points and phases, one case each.

Where the RFC names no alert for a violation it forbids, the alerts its
6.2 (RFC 5246 7.2.2) definitions fit are all accepted, and the note says
so.
"""

import os
import struct
from dataclasses import dataclass

import tlsclient as t
from tlsclient import (ALERT, APPDATA, CCS, HANDSHAKE, GREASE, SECP256R1,
                       X25519, Broken, Client12, Client13, hs_msg, record,
                       u16, u16list, vec8, vec16)

PLAIN, APP, HSKEYS, AFTER_CCS = "plain", "application", "handshake", \
    "after-ccs"


@dataclass
class Expect:
    kind: str                   # ok, alert, close
    alerts: tuple = ()
    prot: str = PLAIN
    also_ok: bool = False       # a completed handshake conforms too
    must_close: bool = True     # the alert ends the connection

    def __str__(self):
        if self.kind != "alert":
            return self.kind
        return f"{'|'.join(self.alerts)} ({self.prot})"


OK = Expect("ok")
CLOSE = Expect("close")


def A(*names, prot=PLAIN, also_ok=False, must_close=True):
    for n in names:
        assert n in t.ALERTS, n
    return Expect("alert", names, prot, also_ok, must_close)


@dataclass
class Case:
    name: str
    family: str
    clause: str
    level: str                  # MUST or policy
    expect: Expect
    run: object
    note: str = ""
    # Past the handshake: accept() was right to return it.
    established: bool = False
    # Where our server is known not to meet the expectation yet: why.
    # Its result is then reported as a skip of ours, never as a pass.
    gap: str = ""


CASES = []


def case(family, name, clause, level, expect, run, note="",
         established=False, gap=""):
    CASES.append(Case(f"{family}.{name}", family, clause, level, expect,
                      run, note, established, gap))


# --- run bodies ---------------------------------------------------------

class Ctx:
    def __init__(self, target, conn):
        self.t = target
        self.conn = conn

    def established(self):
        if not self.t.serve(self.conn):
            raise Broken("handshake done, but accept() never returned it")


def drain(ctx):
    """Reads until the server says something final (an exception)."""
    while True:
        ctx.conn.read()


def must(cond, what):
    if not cond:
        raise Broken(what)


def finish13(ctx, cl, echo=True):
    cl.flight()
    cl.finish()
    ctx.established()
    if echo:
        must(cl.echo(), "application data did not come back")


def ok13(**hello):
    """A ClientHello of ours, then wherever the server goes: an alert,
    or through HRR and the handshake to the echo."""
    def run(ctx):
        cl = Client13(ctx.conn, **hello.pop("client", {}))
        cl.handshake(**hello)
        ctx.established()
        must(cl.echo(), "application data did not come back")
    return run


def raw(payload_fn):
    """Bytes of our making first; the server must answer them."""
    def run(ctx):
        ctx.conn.send(payload_fn())
        typ, data = ctx.conn.read()
        raise Broken(f"server went on with a record of type {typ}")
    return run


def after_flight13(payload_fn, then=None):
    """A good ClientHello, the server's flight, then @payload_fn(cl)."""
    def run(ctx):
        cl = Client13(ctx.conn)
        cl.hello()
        must(not cl.server_hello(), "unexpected HelloRetryRequest")
        cl.flight()
        ctx.conn.send(payload_fn(cl))
        if then:
            then(ctx, cl)
        else:
            drain(ctx)
    return run


def app13(payload_fn, then=None, **client):
    """An established 1.3 connection (echo once), then @payload_fn(cl)."""
    def run(ctx):
        cl = Client13(ctx.conn, **client)
        cl.handshake()
        ctx.established()
        must(cl.echo(), "application data did not come back")
        ctx.conn.send(payload_fn(cl))
        if then:
            then(ctx, cl)
        else:
            drain(ctx)
    return run


def then_finish(ctx, cl):
    """After after_flight13's payload: the client's Finished, the echo."""
    cl.finish()
    ctx.established()
    must(cl.echo(), "application data did not come back")


def ok12(**hello):
    def run(ctx):
        cl = Client12(ctx.conn, **hello.pop("client", {}))
        cl.handshake(**hello)
        ctx.established()
        must(cl.echo(), "application data did not come back")
    return run


def after_flight12(payload_fn):
    def run(ctx):
        cl = Client12(ctx.conn)
        cl.hello()
        cl.server_hello()
        cl.flight()
        ctx.conn.send(payload_fn(cl))
        drain(ctx)
    return run


def app12(payload_fn, then=None):
    def run(ctx):
        cl = Client12(ctx.conn)
        cl.handshake(exts=t.std_exts12())
        ctx.established()
        must(cl.echo(), "application data did not come back")
        ctx.conn.send(payload_fn(cl))
        if then:
            then(ctx, cl)
        else:
            drain(ctx)
    return run


def exts13(shares=((X25519, None),), **kw):
    """Extensions of a 1.3 hello; a None share is a fresh real key (the
    client's own, made when the hello is built)."""
    def build(cl):
        sh = [(g, cl.keys[g].pub if p is None else p) for g, p in shares]
        return t.std_exts13(sh, **kw)
    return build


def with_exts(build, **hello):
    """ok13 with extensions built from the client's keys."""
    def run(ctx):
        cl = Client13(ctx.conn, **hello.pop("client", {}))
        cl.handshake(exts=build(cl), **hello)
        ctx.established()
        must(cl.echo(), "application data did not come back")
    return run


def ch13(build=None, **hello):
    """The bytes of a plain 1.3 ClientHello (keys thrown away)."""
    pub = t.KeyShare(X25519).pub
    exts = build if build is not None else t.std_exts13([(X25519, pub)])
    return hs_msg(t.CLIENT_HELLO, t.hello_body(
        exts, hello.get("suites", (0x1301,)), hello.get("version", 0x0303),
        hello.get("sid", b"\x11" * 32), hello.get("comp", b"\x00")))


def ch12(exts=None, **hello):
    return hs_msg(t.CLIENT_HELLO, t.hello_body(
        t.std_exts12() if exts is None else exts,
        hello.get("suites", (0xc02b,)), hello.get("version", 0x0303),
        hello.get("sid", b""), hello.get("comp", b"\x00")))


def rec(msg, version=0x0301):
    return record(HANDSHAKE, msg, version)


def replace_ext(exts, typ, data):
    return [(e[0], data) if e[0] == typ else e for e in exts]


def drop_ext(exts, *typs):
    return [e for e in exts if e[0] not in typs]


def x25519_low_order():
    """Every encoding RFC 7748 maps to a point of small order (libsodium's
    list), with and without the high bit that the function masks."""
    p = 2 ** 255 - 19
    vals = {"zero": 0, "one": 1,
            "order8a": 0x00b8495f16056286fdb1329ceb8d09da6ac49ff1fae35616aeb8413b7c7aebe0,
            "order8b": 0x57119fd0dd4e22d8868e1c58c45c44045bef839c55b1d0b1248c50a3bc959c5f,
            "p-1": p - 1, "p": p, "p+1": p + 1}
    out = []
    for name, v in vals.items():
        b = v.to_bytes(32, "little")
        out.append((name, b))
        out.append((name + "-hibit", b[:31] + bytes([b[31] | 0x80])))
    return out


# --- TLS 1.3 families ---------------------------------------------------

def baseline():
    for suite, level in ((0x1301, "MUST"), (0x1302, "policy"),
                         (0x1303, "policy"), (0x1304, "policy")):
        for group, gname in ((X25519, "x25519"), (SECP256R1, "p256")):
            case("tls13.baseline", f"{suite:#06x}.{gname}", "RFC8446 9.1",
                 "MUST" if suite == 0x1301 and group == SECP256R1 or
                 level == "MUST" else "policy", OK,
                 ok13(client={"suites": (suite,),
                              "share_groups": (group,)}),
                 "" if level == "MUST" else
                 "SHOULD-implement suite/group; both servers enable it")
    case("tls13.baseline", "0x1305.ccm8-only", "RFC8446 4.1.1", "policy",
         A("handshake_failure", "insufficient_security"),
         ok13(client={"suites": (0x1305,)}),
         "AES-128-CCM-8 is not enabled (RFC 8446 B.4: not for general use): "
         "no common suite")
    case("tls13.baseline", "one-byte-records", "RFC8446 5.1", "MUST", OK,
         ok13(split=1))
    case("tls13.baseline", "finished-and-data-one-write", "RFC8446 2",
         "MUST", OK, finished_with_data)
    case("tls13.baseline", "random-all-zero", "RFC8446 4.1.2", "MUST", OK,
         ok13(random=bytes(32)))


def finished_with_data(ctx):
    cl = Client13(ctx.conn)
    cl.hello()
    must(not cl.server_hello(), "unexpected HRR")
    cl.flight()
    line = b"after-finished-" + os.urandom(4).hex().encode()
    cl.finish(extra=cl.app_tx.seal(APPDATA, line + b"\n"))
    ctx.established()
    must(cl.read_line() == line[::-1], "data after Finished lost")


def legacy_version():
    fam = "tls13.hello.legacy_version"
    for v in (0x0000, 0x0002, 0x0100, 0x0200, 0x02ff, 0x0300, 0x0301,
              0x0302, 0x0303, 0x0304, 0x0305, 0x0400, 0xfefd, 0xffff):
        if v == 0x0300:
            case(fam, f"{v:#06x}", "RFC8446 D.5", "MUST",
                 A("protocol_version"), ok13(version=v),
                 "a hello with legacy_version 0x0300 MUST be aborted with "
                 "protocol_version, supported_versions or not")
        elif v < 0x0300:
            case(fam, f"{v:#06x}", "RFC8446 D.5", "policy",
                 A("protocol_version"), ok13(version=v),
                 "below SSL 3.0: refused like 0x0300 (D.5 forbids sending "
                 "0x0300 or less)")
        else:
            case(fam, f"{v:#06x}", "RFC8446 4.2.1", "MUST", OK,
                 ok13(version=v),
                 "supported_versions present: legacy_version not used")
    fam = "tls12.hello.legacy_version"
    for v in (0x0000, 0x0200, 0x0300, 0x0301, 0x0302, 0x0303, 0x0304,
              0x0305, 0x0400, 0xffff):
        # RFC 8996 4 and 5: a hello of TLS 1.0 or 1.1 MUST get
        # protocol_version; RFC 8446 D.5 the same for 0x0300.
        clause = {0x0300: "RFC8446 D.5", 0x0301: "RFC8996 4",
                  0x0302: "RFC8996 5"}.get(v)
        if clause:
            case(fam, f"{v:#06x}", clause, "MUST", A("protocol_version"),
                 ok12(version=v), "no supported_versions")
        elif v < 0x0300:
            case(fam, f"{v:#06x}", "RFC8446 D.5", "policy",
                 A("protocol_version"), ok12(version=v),
                 "below SSL 3.0: refused like 0x0300")
        else:
            case(fam, f"{v:#06x}", "RFC8446 4.2.1", "MUST", OK,
                 ok12(version=v),
                 "no supported_versions: TLS 1.2 even for 0x0304 or later")


def supported_versions():
    fam = "tls13.hello.supported_versions"

    def sv(versions):
        return exts13(versions=versions)

    for vs in ((0x0303, 0x0304), (0x0304, 0x0303), (0x7f17, 0x0304),
               (0x0304, 0x0304 + 1), (0x0301, 0x0302, 0x0303, 0x0304)):
        case(fam, "+".join(f"{v:#06x}" for v in vs), "RFC8446 4.2.1",
             "MUST", OK, with_exts(sv(vs)))
    for g in GREASE:
        case("tls13.grease.versions", f"{g:#06x}", "RFC8446 4.2.1", "MUST",
             OK, with_exts(sv((g, 0x0304))), "unknown versions ignored")
    for vs in ((0x0302,), (0x0301, 0x0302), (0x0300,), (0x0305,),
               (0x7f1c,), (GREASE[3],)):
        case(fam, "only-" + "+".join(f"{v:#06x}" for v in vs),
             "RFC8446 4.2.1", "MUST", A("protocol_version"),
             with_exts(sv(vs)), "no version in common")

    def sv12(ctx):
        cl = Client12(ctx.conn)
        exts = t.std_exts12() + [(t.EXT_SUPPORTED_VERSIONS,
                                  vec8(u16list((0x0303,))))]
        cl.handshake(exts=exts)
        ctx.established()
        must(cl.echo(), "application data did not come back")
    case(fam, "only-0x0303", "RFC8446 4.2.1", "MUST", OK, sv12,
         "TLS 1.2 through supported_versions; downgrade sentinel checked")
    for name, data in (("empty", b"\x00"), ("odd", b"\x03\x03\x04\x03"),
                       ("overrun", b"\x04\x03\x04"),
                       ("trailing", b"\x02\x03\x04\x00"),
                       ("no-length", b"")):
        case(fam, f"malformed-{name}", "RFC8446 6", "MUST",
             A("decode_error"),
             note="a vector whose length is odd, out of its bounds or "
             "off its extension cannot be decoded: decode_error (6.2)",
             run=raw(lambda d=data: rec(ch13(replace_ext(
                 t.std_exts13([(X25519, os.urandom(32))]),
                 t.EXT_SUPPORTED_VERSIONS, d)))))


def grease():
    for g in GREASE:
        case("tls13.grease.suites", f"{g:#06x}", "RFC8446 4.1.2", "MUST",
             OK, ok13(client={"suites": (g, 0x1301)}),
             "unknown suites ignored")
        case("tls13.grease.extensions", f"{g:#06x}", "RFC8446 4.2", "MUST",
             OK, with_exts(lambda cl, g=g: [(g, b"")] + exts13()(cl)),
             "unknown extensions ignored")
        case("tls13.grease.groups", f"{g:#06x}", "RFC8446 4.2.7", "MUST",
             OK, with_exts(exts13(shares=((g, b"\x00"), (X25519, None)),
                                  groups=(g, X25519))),
             "a share of an unknown group is ignored")
    for g in GREASE[:4]:
        case("tls13.grease.sigalgs", f"{g:#06x}", "RFC8446 4.2.3", "MUST",
             OK, with_exts(exts13(sigalgs=(g, 0x0403))),
             "unknown schemes ignored")


# 0x11eb and 0x11ec are the ML-KEM hybrids we serve; 0x11ed
# (SecP384r1MLKEM1024) is one we do not.
UNKNOWN_GROUPS = (0x0000, 0x0001, 0x0018, 0x0019, 0x001e, 0x0100, 0x0101,
                  0x0104, 0x11ed, 0x6399, 0xfe00, 0xffff)
X25519MLKEM768 = 0x11ec


def groups():
    fam = "tls13.hello.groups"
    for g in UNKNOWN_GROUPS:
        case(fam, f"listed-{g:#06x}", "RFC8446 4.2.7", "MUST", OK,
             with_exts(exts13(groups=(g, X25519, SECP256R1))),
             "a group the server does not support is skipped")
        case(fam, f"share-{g:#06x}", "RFC8446 4.2.8", "MUST", OK,
             with_exts(exts13(shares=((g, os.urandom(65)), (X25519, None)),
                              groups=(g, X25519))),
             "the share of a group it does not support is skipped")
    for g in (0x0018, 0x001e, 0x0100):
        case(fam, f"only-{g:#06x}", "RFC8446 4.1.1", "MUST",
             A("handshake_failure", "insufficient_security"),
             with_exts(exts13(shares=((g, os.urandom(65)),), groups=(g,))),
             "no group in common")
        case(fam, f"hrr-from-{g:#06x}", "RFC8446 4.1.4", "MUST", OK,
             with_exts(exts13(shares=((g, os.urandom(65)),),
                              groups=(g, X25519))),
             "overlap in supported_groups, no usable share: HRR")
    case(fam, "hybrid-share-wrong-length", "RFC8446 4.2.8", "MUST",
         A("illegal_parameter"),
         with_exts(exts13(shares=((X25519MLKEM768, os.urandom(65)),
                                  (X25519, None)),
                          groups=(X25519MLKEM768, X25519))),
         "a share of a group the server serves must have its one length "
         "(X25519MLKEM768: 1216 bytes)")
    case(fam, "hybrid-listed-x25519-share", "RFC8446 4.2.8", "MUST", OK,
         with_exts(exts13(shares=((X25519, None),),
                          groups=(X25519MLKEM768, X25519))),
         "a hybrid listed without a share: the X25519 share is taken")
    case(fam, "empty-shares-hrr", "RFC8446 4.1.4", "MUST", OK,
         with_exts(exts13(shares=())))
    case(fam, "empty-shares-p256-hrr", "RFC8446 4.1.4", "MUST", OK,
         with_exts(exts13(shares=(), groups=(SECP256R1,))))
    case(fam, "shares-out-of-order", "RFC8446 4.2.8", "policy", OK,
         with_exts(exts13(shares=((SECP256R1, None), (X25519, None)))),
         "servers MAY abort on shares out of supported_groups order; "
         "harmless, so accepted")
    case(fam, "share-not-in-groups", "RFC8446 4.2.8", "policy",
         A("illegal_parameter"),
         with_exts(exts13(groups=(SECP256R1,))),
         "servers MAY abort with illegal_parameter; we check")
    case(fam, "two-shares-same-group", "RFC8446 4.2.8", "policy",
         A("illegal_parameter"),
         with_exts(exts13(shares=((X25519, None), (X25519, None)))),
         "clients MUST NOT; servers MAY abort with illegal_parameter")
    case(fam, "share-without-groups", "RFC8446 9.2", "MUST",
         A("missing_extension"), with_exts(exts13(groups=None)))
    case(fam, "groups-without-share", "RFC8446 9.2", "MUST",
         A("missing_extension"),
         with_exts(lambda cl: drop_ext(exts13()(cl), t.EXT_KEY_SHARE)))
    case(fam, "neither-groups-nor-share", "RFC8446 4.1.1", "MUST",
         A("missing_extension", "handshake_failure"),
         with_exts(lambda cl: drop_ext(exts13()(cl), t.EXT_KEY_SHARE,
                                       t.EXT_SUPPORTED_GROUPS)),
         "no (EC)DHE and no PSK: missing_extension per 9.2, or "
         "handshake_failure per 4.1.1")


def key_shares():
    fam = "tls13.hello.key_share"
    for n in (0, 1, 31, 33, 64):
        case(fam, f"x25519-length-{n}", "RFC8446 4.2.8.2", "MUST",
             A("illegal_parameter", "decode_error"),
             with_exts(exts13(shares=((X25519, os.urandom(n)),))),
             "X25519 shares are 32 bytes; no alert named: illegal_parameter "
             "or decode_error")
    for name, pub in x25519_low_order():
        case(fam, f"x25519-low-order-{name}", "RFC8446 7.4.2", "MUST",
             A("illegal_parameter", "handshake_failure"),
             with_exts(exts13(shares=((X25519, pub),))),
             "all-zero shared secret MUST abort; no alert named: "
             "illegal_parameter or handshake_failure")
    p = 2 ** 256 - 2 ** 224 + 2 ** 192 + 2 ** 96 - 1
    good = t.KeyShare(SECP256R1).pub
    bad = {
        "off-curve": b"\x04" + b"\x01" * 64,
        "zero-point": b"\x04" + bytes(64),
        "x-is-p": b"\x04" + p.to_bytes(32, "big") + good[33:],
        "compressed": b"\x02" + good[1:33],
        "hybrid": b"\x06" + good[1:],
        "infinity": b"\x00",
        "no-prefix": good[1:],
        "66-bytes": good + b"\x00",
    }
    for name, pub in bad.items():
        case(fam, f"p256-{name}", "RFC8446 4.2.8.2", "MUST",
             A("illegal_parameter", "decode_error"),
             with_exts(exts13(shares=((SECP256R1, pub),),
                              groups=(SECP256R1,))),
             "uncompressed points on the curve only; no alert named: "
             "illegal_parameter or decode_error")
    pub = os.urandom(32)
    for name, data in (
            ("list-overrun", u16(40) + u16(X25519) + vec16(pub)),
            ("entry-overrun", u16(36) + u16(X25519) + u16(40) + pub),
            ("trailing-byte", u16(37) + u16(X25519) + vec16(pub) + b"\x00"),
            ("half-entry", u16(3) + u16(X25519) + b"\x00"),
            ("no-length", b"")):
        case(fam, f"malformed-{name}", "RFC8446 6", "MUST",
             A("decode_error"),
             note="a vector whose length is odd, out of its bounds or "
             "off its extension cannot be decoded: decode_error (6.2)",
             run=raw(lambda d=data: rec(ch13(replace_ext(
                 t.std_exts13([(X25519, pub)]), t.EXT_KEY_SHARE, d)))))


def compression():
    fam = "tls13.hello.compression"
    for comp in (b"\x01", b"\x00\x01", b"\x01\x00", b"\x00\x00", b"\x40",
                 b"\xff", bytes(range(255))):
        case(fam, comp[:4].hex() + ("-all" if len(comp) > 4 else ""),
             "RFC8446 4.1.2", "MUST", A("illegal_parameter"),
             ok13(comp=comp),
             "TLS 1.3: exactly one byte, zero; anything else MUST be "
             "aborted with illegal_parameter")
    case(fam, "empty", "RFC8446 6", "MUST", A("decode_error"),
         ok13(comp=b""), "an empty vector of at least one byte cannot "
         "be decoded: decode_error (6.2)")
    fam = "tls12.hello.compression"
    for comp in (b"\x01\x00", b"\x00\x01", b"\x00\x40\xff"):
        case(fam, comp.hex(), "RFC5246 7.4.1.2", "MUST", OK,
             ok12(comp=comp), "null is in the list: the server picks it")
    case(fam, "01", "RFC5246 7.4.1.2", "policy",
         A("handshake_failure", "illegal_parameter", "decode_error"),
         ok12(comp=b"\x01"), "null MUST be offered; nothing to negotiate")
    case(fam, "empty", "RFC5246 7.4.1.2", "MUST", A("decode_error"),
         ok12(comp=b""))


def suites():
    fam = "tls13.hello.suites"
    for s in (0x0000, 0x002f, 0x009c, 0xc02b, 0xcca9, 0x1305, 0x1306,
              0x13ff, 0x00ff, 0x5600, 0xffff):
        case(fam, f"unknown-{s:#06x}", "RFC8446 4.1.2", "MUST", OK,
             ok13(client={"suites": (s, 0x1301)}),
             "suites the server does not use are ignored (0x5600: the "
             "client's highest version is the server's)")
    for ss in ((0xc02b,), (0x00ff,), (0x1305, 0x1306)):
        case(fam, "only-" + "+".join(f"{s:#06x}" for s in ss),
             "RFC8446 4.1.1", "MUST",
             A("handshake_failure", "insufficient_security"),
             ok13(client={"suites": ss}), "no TLS 1.3 suite in common")
    for name, data in (("empty", b""), ("odd", b"\x13\x01\x13")):
        case(fam, name, "RFC8446 6", "MUST", A("decode_error"),
             raw(lambda d=data: rec(suites_raw(d))),
             "cipher_suites<2..2^16-2>: an empty or odd vector cannot be "
             "decoded: decode_error (6.2)")
    fam = "tls12.hello.suites"
    for s in (0x0000, 0x1301, 0xc023, 0xc009, 0x009c, 0x002f, 0xc0ac,
              0xffff):
        case(fam, f"unknown-{s:#06x}", "RFC5246 7.4.1.2", "MUST", OK,
             ok12(suites=(s, 0xc02b)), "suites the server lacks are ignored")
    for ss in ((0xc023, 0xc009), (0x009c, 0x002f), (0x1301,)):
        case(fam, "only-" + "+".join(f"{s:#06x}" for s in ss),
             "RFC5246 7.4.1.3", "MUST", A("handshake_failure"),
             ok12(suites=ss), "no suite in common")
    case(fam, "fallback-scsv", "RFC7507 3", "MUST",
         A("inappropriate_fallback"), ok12(suites=(0xc02b, 0x5600)),
         "TLS_FALLBACK_SCSV in a 1.2 hello to a 1.3 server")


def suites_raw(data):
    pub = os.urandom(32)
    body = (u16(0x0303) + os.urandom(32) + vec8(b"") + vec16(data) +
            vec8(b"\x00") + vec16(b"".join(t.ext(*e) for e in
                                           t.std_exts13([(X25519, pub)]))))
    return hs_msg(t.CLIENT_HELLO, body)


def session_id():
    fam = "tls13.hello.session_id"
    for n in (0, 1, 16, 32):
        case(fam, f"length-{n}", "RFC8446 4.1.3", "MUST", OK,
             ok13(sid=os.urandom(n)), "echoed in legacy_session_id_echo")
    case(fam, "length-33", "RFC8446 6", "MUST", A("decode_error"),
         raw(lambda: rec(ch13(sid=os.urandom(33)))))
    case("tls12.hello.session_id", "length-33", "RFC5246 7.4.1.2", "MUST",
         A("decode_error"), raw(lambda: rec(ch12(sid=os.urandom(33)))))


DUP13 = {
    "server_name": t.EXT_SERVER_NAME, "supported_groups": 10,
    "signature_algorithms": 13, "supported_versions": 43, "key_share": 51,
    "psk_key_exchange_modes": 45, "alpn": 16, "status_request": 5,
    "padding": 21, "record_size_limit": 28, "signature_algorithms_cert": 50,
    "post_handshake_auth": 49, "unknown-0x4444": 0x4444, "grease-0x0a0a":
    0x0a0a,
}
EXTRA = {45: vec8(b"\x01"), 16: vec16(vec8(b"http/1.1")),
         5: b"\x01\x00\x00\x00\x00", 21: bytes(8), 28: u16(16385),
         50: vec16(u16(0x0403)), 49: b"", 0x4444: b"", 0x0a0a: b"",
         35: b"", 23: b"", 0xff01: b"\x00", 11: vec8(b"\x00")}


def duplicates():
    for name, typ in DUP13.items():
        def build(cl, typ=typ):
            exts = exts13()(cl)
            if not any(e[0] == typ for e in exts):
                exts.append((typ, EXTRA[typ]))
            i = [e[0] for e in exts].index(typ)
            return exts[:i + 1] + [exts[i]] + exts[i + 1:]
        case("tls13.hello.duplicate_extension", name, "RFC8446 4.2", "MUST",
             A("illegal_parameter", "decode_error"), with_exts(build),
             "MUST NOT be more than one of a type; no alert named")
    for name, typ in (("server_name", 0), ("supported_groups", 10),
                      ("ec_point_formats", 11),
                      ("signature_algorithms", 13),
                      ("extended_master_secret", 23),
                      ("renegotiation_info", 0xff01),
                      ("session_ticket", 35), ("alpn", 16),
                      ("unknown-0x4444", 0x4444)):
        def build12(typ=typ):
            exts = t.std_exts12()
            if not any(e[0] == typ for e in exts):
                exts.append((typ, EXTRA[typ]))
            i = [e[0] for e in exts].index(typ)
            return exts[:i + 1] + [exts[i]] + exts[i + 1:]
        case("tls12.hello.duplicate_extension", name, "RFC5246 7.4.1.4",
             "MUST", A("illegal_parameter", "decode_error"),
             ok12(exts=build12()),
             "MUST NOT be more than one of a type; no alert named")


def malformed_extensions():
    fam = "tls13.hello.malformed_extension"
    pub = os.urandom(32)
    base = t.std_exts13([(X25519, pub)])
    sni = vec16(b"\x00" + vec16(b"www.example.test"))
    bad = [
        ("server_name-list-overrun", 0, u16(40) + sni[2:]),
        ("server_name-empty-list", 0, u16(0)),
        ("server_name-name-overrun", 0, vec16(b"\x00" + u16(40) + b"www")),
        ("server_name-empty-name", 0, vec16(b"\x00" + u16(0))),
        ("server_name-trailing", 0, sni + b"\x00"),
        ("groups-empty", 10, u16(0)),
        ("groups-odd", 10, vec16(b"\x00\x1d\x00")),
        ("groups-overrun", 10, u16(8) + u16(X25519)),
        ("sigalgs-empty", 13, u16(0)),
        ("sigalgs-odd", 13, vec16(b"\x04\x03\x08")),
        ("sigalgs-overrun", 13, u16(8) + u16(0x0403)),
    ]
    for name, typ, data in bad:
        case(fam, name, "RFC8446 6", "MUST", A("decode_error"),
             raw(lambda typ=typ, data=data: rec(ch13(
                 replace_ext(base, typ, data)))),
             "a vector empty below its lower bound, of a length that "
             "does not divide, or overrunning its extension cannot be "
             "decoded: decode_error (6.2)")
    case(fam, "psk_modes-empty", "RFC8446 6", "MUST", A("decode_error"),
         raw(lambda: rec(ch13(base + [(45, b"\x00")]))))
    case(fam, "extension-overrun", "RFC8446 6", "MUST", A("decode_error"),
         raw(lambda: rec(ch13(base + [u16(0x4444) + u16(10) + b"abc"]))))
    case(fam, "block-trailing-byte", "RFC8446 6", "MUST",
         A("decode_error"), raw(lambda: rec(ch13(base + [b"\x00"]))))
    for n in (1, 100):
        case(fam, f"message-trailing-{n}", "RFC8446 6", "MUST",
             A("decode_error"), raw(lambda n=n: rec(grow(ch13(), n))))
        case("tls12.hello.malformed_extension", f"message-trailing-{n}",
             "RFC5246 7.4.1.2", "MUST", A("decode_error"),
             raw(lambda n=n: rec(grow(ch12(), n))))
    case("tls12.hello.malformed_extension", "point_formats-empty",
         "RFC8422 5.1.2", "MUST", A("decode_error"),
         raw(lambda: rec(ch12(replace_ext(t.std_exts12(), 11, b"\x00")))))


def grow(msg, n):
    """@msg with @n bytes after its body, inside its length."""
    body = msg[4:] + bytes(n)
    return msg[:1] + len(body).to_bytes(3, "big") + body


def field_points(msg):
    """Truncation points of a ClientHello body: each field's start and one
    byte in, each extension's header and data."""
    body = msg[4:]
    pts = {0, 1, 2, 3, 33, 34, 35}
    off = 35 + body[34]
    pts |= {off, off + 1, off + 2, off + 3}
    off += 2 + struct.unpack(">H", body[off:off + 2])[0]
    pts |= {off, off + 1}
    off += 1 + body[off]
    no_exts = off
    pts |= {off + 1}
    off += 2
    while off + 4 <= len(body):
        n = struct.unpack(">H", body[off + 2:off + 4])[0]
        pts |= {off, off + 2, off + 4, off + 4 + n // 2}
        off += 4 + n
    pts.discard(no_exts)        # a hello without extensions is well formed
    pts.discard(len(body))
    return sorted(p for p in pts if p < len(body))


def truncation():
    pub = os.urandom(32)
    m13 = ch13(t.std_exts13([(X25519, pub)]))
    for p in field_points(m13):
        case("tls13.hello.truncated", f"at-{p}", "RFC8446 6", "MUST",
             A("decode_error"),
             raw(lambda p=p: rec(m13[:1] + p.to_bytes(3, "big") +
                                 m13[4:4 + p])),
             "the message length says where it ends")
    m12 = ch12()
    for p in field_points(m12):
        case("tls12.hello.truncated", f"at-{p}", "RFC5246 7.4.1.2", "MUST",
             A("decode_error"),
             raw(lambda p=p: rec(m12[:1] + p.to_bytes(3, "big") +
                                 m12[4:4 + p])))


def records():
    fam = "tls13.record"
    for v in (0x0300, 0x0301, 0x0302, 0x0303, 0x0304, 0x0000, 0x0200,
              0xffff):
        case(fam, f"hello-record-version-{v:#06x}", "RFC8446 5.1", "MUST",
             OK, ok13(rec_version=v), "legacy_record_version is ignored")
    for typ in (0, 1, 19, 20, 23, 24, 25, 99, 255):
        payload = b"\x01" if typ == 20 else b"\x00" * 8
        case(fam, f"first-record-type-{typ}", "RFC8446 5", "MUST",
             A("unexpected_message"),
             raw(lambda typ=typ, payload=payload: record(typ, payload)))
    for n in (2, 3, 4, 5, 50):
        case(fam, f"hello-in-{n}-byte-records", "RFC8446 5.1", "MUST", OK,
             ok13(split=n))
    case(fam, "hello-interleaved-ccs", "RFC8446 5.1", "MUST",
         A("unexpected_message"), raw(lambda: interleaved(
             record(CCS, b"\x01"))))
    case(fam, "hello-interleaved-appdata", "RFC8446 5.1", "MUST",
         A("unexpected_message"), raw(lambda: interleaved(
             record(APPDATA, b"x" * 20))))
    case(fam, "hello-then-partial-message", "RFC8446 5.1", "MUST",
         A("unexpected_message"), ok13(extra=b"\x14\x00\x00"),
         "a key change follows the hello: it must end its record")
    case(fam, "hello-twice-one-record", "RFC8446 5.1", "MUST",
         A("unexpected_message"), raw(lambda: rec(ch13() + ch13())))
    case(fam, "zero-length-handshake-record", "RFC8446 5.1", "policy",
         A("unexpected_message", "decode_error"),
         raw(lambda: record(HANDSHAKE, b"") + rec(ch13())),
         "MUST NOT be sent; no alert named")
    for n in (16385, 16640, 18432, 65535):
        case(fam, f"plaintext-length-{n}", "RFC8446 5.1", "MUST",
             A("record_overflow"),
             raw(lambda n=n: record(HANDSHAKE, b"\x01" + bytes(n - 1))))
    case(fam, "hello-record-16384", "RFC8446 5.1", "MUST", OK,
         with_exts(padded(16384)), "the largest plaintext record")
    case(fam, "hello-20000-bytes-two-records", "RFC8446 5.1", "policy",
         OK, with_exts(padded(20000), split=16384),
         "a hello larger than one record: handshake messages may span "
         "records; we accept up to about 23 KB")
    case(fam, "hello-40000-bytes-three-records", "RFC8446 4.1.2, 5.1",
         "policy", A("illegal_parameter"),
         with_exts(padded(40000), split=16384),
         "a server may bound what it holds if it alerts: ours holds ~23 KB "
         "of hello per handshake, in softirq, from bounded pools "
         "(OpenSSL: 128 KB)")

    # Protected records from the client, after the server's flight: the
    # server has sent its Finished, so it answers under its application
    # keys (RFC 8446 2, 6).
    fam = "tls13.record.handshake_phase"
    case(fam, "bad-tag", "RFC8446 5.2", "MUST", A("bad_record_mac",
                                                 prot=APP),
         after_flight13(lambda cl: tamper(cl.tx.seal(
             HANDSHAKE, cl.finished_msg()))))
    for n in (0, 1, 15, 16):
        case(fam, f"ciphertext-length-{n}", "RFC8446 5.2", "MUST",
             A("bad_record_mac", "decode_error", prot=APP),
             after_flight13(lambda cl, n=n: record(APPDATA, os.urandom(n))),
             "shorter than the tag: decryption fails; no alert named")
    case(fam, "ciphertext-length-16641", "RFC8446 5.2", "MUST",
         A("record_overflow", prot=APP),
         after_flight13(lambda cl: record(APPDATA, os.urandom(16641))))
    case(fam, "inner-16386", "RFC8446 5.4", "MUST",
         A("record_overflow", prot=APP),
         after_flight13(lambda cl: cl.tx.seal_inner(
             bytes(16384) + b"\x16\x00")),
         "TLSInnerPlaintext, padding included, is at most 2^14 + 1 bytes")
    case(fam, "plaintext-handshake", "RFC8446 5", "MUST",
         A("unexpected_message", prot=APP),
         after_flight13(lambda cl: record(HANDSHAKE, cl.finished_msg())))
    case(fam, "plaintext-appdata", "RFC8446 5.2", "MUST",
         A("bad_record_mac", prot=APP),
         after_flight13(lambda cl: record(APPDATA, b"garbage" * 4)),
         "an unprotected record does not authenticate")
    for typ in (0, 19, 24, 99, 255):
        case(fam, f"inner-type-{typ}", "RFC8446 5", "MUST",
             A("unexpected_message", prot=APP),
             after_flight13(lambda cl, typ=typ: cl.tx.seal(typ, b"xyz")))
    case(fam, "inner-no-type", "RFC8446 5.4", "MUST",
         A("unexpected_message", prot=APP),
         after_flight13(lambda cl: cl.tx.seal_inner(bytes(20))))
    case(fam, "inner-ccs", "RFC8446 5", "MUST",
         A("unexpected_message", prot=APP),
         after_flight13(lambda cl: cl.tx.seal(CCS, b"\x01")))
    case(fam, "zero-length-handshake", "RFC8446 5.4", "MUST",
         A("unexpected_message", prot=APP),
         after_flight13(lambda cl: cl.tx.seal(HANDSHAKE, b"", pad=3)))
    # RFC 8446 5.1 makes an alert record exactly one Alert and names no
    # alert for an empty one: decode_error (6: a message of the wrong
    # length) fits as well as unexpected_message.
    case(fam, "zero-length-alert", "RFC8446 5.1", "MUST",
         A("unexpected_message", "decode_error", prot=APP),
         after_flight13(lambda cl: cl.tx.seal(ALERT, b"")))
    case(fam, "finished-then-partial", "RFC8446 5.1", "MUST",
         A("unexpected_message", prot=APP),
         after_flight13(lambda cl: cl.tx.seal(
             HANDSHAKE, cl.finished_msg() + b"\x18\x00")),
         "Finished precedes a key change: it must end its record")
    case(fam, "finished-in-two-records", "RFC8446 5.1", "MUST", OK,
         finished_split)
    case(fam, "finished-padded", "RFC8446 5.4", "MUST", OK,
         finished_padded)

    fam = "tls13.record.application_phase"
    case(fam, "bad-tag", "RFC8446 5.2", "MUST", A("bad_record_mac",
                                                 prot=APP),
         app13(lambda cl: tamper(cl.app_tx.seal(APPDATA, b"x\n"))))
    case(fam, "ciphertext-length-16641", "RFC8446 5.2", "MUST",
         A("record_overflow", prot=APP),
         app13(lambda cl: record(APPDATA, os.urandom(16641))))
    case(fam, "inner-16386", "RFC8446 5.4", "MUST",
         A("record_overflow", prot=APP),
         app13(lambda cl: cl.app_tx.seal_inner(bytes(16384) + b"\x17\x00")),
         "TLSInnerPlaintext over 2^14 + 1 bytes MUST get record_overflow")
    case(fam, "inner-16385", "RFC8446 5.4", "MUST", OK,
         app13(lambda cl: cl.app_tx.seal(APPDATA, b"a" * 16383 + b"\n"),
               then=lambda ctx, cl: must(cl.read_line() == b"a" * 16383,
                                         "no echo")))
    for typ in (0, 19, 24, 99):
        case(fam, f"inner-type-{typ}", "RFC8446 5", "MUST",
             A("unexpected_message", prot=APP),
             app13(lambda cl, typ=typ: cl.app_tx.seal(typ, b"xyz")))
    case(fam, "inner-no-type", "RFC8446 5.4", "MUST",
         A("unexpected_message", prot=APP),
         app13(lambda cl: cl.app_tx.seal_inner(bytes(20))))
    case(fam, "inner-ccs", "RFC8446 5", "MUST",
         A("unexpected_message", prot=APP),
         app13(lambda cl: cl.app_tx.seal(CCS, b"\x01")))
    case(fam, "plaintext-ccs", "RFC8446 5", "MUST",
         A("unexpected_message", prot=APP),
         app13(lambda cl: record(CCS, b"\x01")),
         "CCS is dropped only before the peer's Finished")
    case(fam, "zero-length-handshake", "RFC8446 5.4", "MUST",
         A("unexpected_message", prot=APP),
         app13(lambda cl: cl.app_tx.seal(HANDSHAKE, b"", pad=1)))
    # RFC 8446 5.1 makes an alert record exactly one Alert and names no
    # alert for an empty one: decode_error (6: a message of the wrong
    # length) fits as well as unexpected_message.
    case(fam, "zero-length-alert", "RFC8446 5.1", "MUST",
         A("unexpected_message", "decode_error", prot=APP),
         app13(lambda cl: cl.app_tx.seal(ALERT, b"")))
    for pad in (1, 100, 1000, 16000):
        case(fam, f"padding-{pad}", "RFC8446 5.4", "MUST", OK,
             app13(lambda cl, pad=pad: cl.app_tx.seal(APPDATA, b"pad\n",
                                                     pad=pad),
                   then=lambda ctx, cl: must(cl.read_line() == b"dap",
                                             "no echo")))
    case(fam, "zero-length-appdata", "RFC8446 5.4", "MUST", OK,
         app13(lambda cl: cl.app_tx.seal(APPDATA, b"") +
               cl.app_tx.seal(APPDATA, b"zero\n"),
               then=lambda ctx, cl: must(cl.read_line() == b"orez",
                                         "no echo")))

    fam = "tls12.record"
    case(fam, "plaintext-length-16385", "RFC5246 6.2.1", "MUST",
         A("record_overflow"),
         raw(lambda: record(HANDSHAKE, ch12() + bytes(16385 - len(ch12())))))
    case(fam, "ciphertext-length-18433", "RFC5246 6.2.3", "MUST",
         A("record_overflow", prot=AFTER_CCS),
         app12(lambda cl: record(APPDATA, os.urandom(18433))))
    case(fam, "plaintext-16385-encrypted", "RFC5246 6.2.1", "MUST",
         A("record_overflow", prot=AFTER_CCS),
         app12(lambda cl: cl.tx.seal(APPDATA, bytes(16385))))
    case(fam, "bad-tag", "RFC5246 6.2.3.3", "MUST",
         A("bad_record_mac", prot=AFTER_CCS),
         app12(lambda cl: tamper(cl.tx.seal(APPDATA, b"x\n"))))
    case(fam, "short-ciphertext", "RFC5246 6.2.3.3", "MUST",
         A("bad_record_mac", "decode_error", prot=AFTER_CCS),
         app12(lambda cl: record(APPDATA, os.urandom(10))),
         "shorter than nonce and tag; no alert named")
    for typ in (0, 24, 99):
        case(fam, f"record-type-{typ}", "RFC5246 6", "MUST",
             A("unexpected_message", prot=AFTER_CCS),
             app12(lambda cl, typ=typ: cl.tx.seal(typ, b"xyz")))
    case(fam, "data-16384", "RFC5246 6.2.1", "MUST", OK,
         app12(lambda cl: cl.tx.seal(APPDATA, b"b" * 16383 + b"\n"),
               then=lambda ctx, cl: must(cl.read_line() == b"b" * 16383,
                                         "no echo")))
    case(fam, "hello-in-1-byte-records", "RFC5246 6.2.1", "MUST", OK,
         ok12(split=1))
    case(fam, "finished-bad-tag", "RFC5246 6.2.3.3", "MUST",
         A("bad_record_mac"),
         after_flight12(lambda cl: cl.cke() + record(CCS, b"\x01") +
                        tamper(cl.tx.seal(HANDSHAKE, cl.finished_msg()))),
         "the server has not sent its ChangeCipherSpec: plaintext alert")


def tamper(rec):
    return rec[:-1] + bytes([rec[-1] ^ 1])



def interleaved(between):
    m = ch13()
    return rec(m[:40]) + between + rec(m[40:])


def padded(size):
    """Extensions that make the hello's record @size bytes of handshake."""
    def build(cl):
        exts = exts13()(cl)
        n = len(hs_msg(1, t.hello_body(exts, cl.suites, sid=cl.sid)))
        return exts + [(t.EXT_PADDING, bytes(size - n - 4))]
    return build


def finished_split(ctx):
    cl = Client13(ctx.conn)
    cl.hello()
    must(not cl.server_hello(), "unexpected HRR")
    cl.flight()
    fin = cl.finished_msg()
    cl.finish(records=cl.tx.seal(HANDSHAKE, fin[:10]) +
              cl.tx.seal(HANDSHAKE, fin[10:]))
    ctx.established()
    must(cl.echo(), "application data did not come back")


def finished_padded(ctx):
    cl = Client13(ctx.conn)
    cl.hello()
    must(not cl.server_hello(), "unexpected HRR")
    cl.flight()
    fin = cl.finished_msg()
    cl.finish(records=cl.tx.seal(HANDSHAKE, fin, pad=500))
    ctx.established()
    must(cl.echo(), "application data did not come back")


ALERT_KINDS = (("close_notify", 1, 0), ("unexpected_message", 2, 10),
               ("handshake_failure", 2, 40), ("user_canceled", 1, 90),
               ("unknown-255", 2, 255), ("level-3", 3, 10))


def alerts_received():
    """Alerts from the client in each phase: the server closes (RFC 8446
    6.2: on a fatal alert both sides MUST close at once; 6: unknown
    alerts are errors)."""
    for name, level, desc in ALERT_KINDS:
        body = bytes([level, desc])
        if desc == 90:
            # RFC 8446 6.1: user_canceled SHOULD be followed by
            # close_notify; without it a server may wait for one.
            body += b"\x01\x00"
        lv = "policy" if desc in (0, 90) else "MUST"
        note = "closure alert during the handshake: the server must not " \
            "complete it; it closes" if lv == "policy" else \
            "on a fatal alert both sides MUST close at once, with no " \
            "alert back; unknown alerts and levels are errors (RFC 8446 " \
            "6 and 6.2, RFC 5246 7.2.2)"
        case("tls13.alert_received", f"first-{name}", "RFC8446 6", lv,
             CLOSE, raw(lambda b=body: alert_recs(None, b)), note)
        case("tls13.alert_received", f"after-flight-plain-{name}",
             "RFC8446 6", lv, CLOSE,
             after_flight13(lambda cl, b=body: alert_recs(None, b)), note)
        case("tls13.alert_received", f"after-flight-protected-{name}",
             "RFC8446 6", lv, CLOSE,
             after_flight13(lambda cl, b=body: alert_recs(cl.tx, b)), note)
        case("tls13.alert_received", f"application-{name}", "RFC8446 6",
             lv, CLOSE, app13(lambda cl, b=body: alert_recs(cl.app_tx, b)),
             "after close_notify the server's read side is done" if
             desc == 0 else note, established=True)
        case("tls12.alert_received", f"first-{name}", "RFC5246 7.2", lv,
             CLOSE, raw(lambda b=body: alert_recs(None, b)), note)
        case("tls12.alert_received", f"after-flight-{name}", "RFC5246 7.2",
             lv, CLOSE, after_flight12(lambda cl, b=body: alert_recs(None, b)),
             note)
        case("tls12.alert_received", f"after-ccs-{name}", "RFC5246 7.2",
             lv, CLOSE,
             after_flight12(lambda cl, b=body: cl.cke() +
                            record(CCS, b"\x01") + alert_recs(cl.tx, b)),
             note)
        if desc in (0, 10, 40, 255):
            case("tls12.alert_received", f"application-{name}",
                 "RFC5246 7.2", lv, CLOSE,
                 app12(lambda cl, b=body: alert_recs(cl.tx, b)),
                 note, established=True)


def alert_recs(keys, body):
    """Each alert of @body in a record of its own (RFC 8446 5.1: never
    coalesced), sealed with @keys unless None."""
    out = b""
    for i in range(0, len(body), 2):
        a = body[i:i + 2]
        out += keys.seal(ALERT, a) if keys else record(ALERT, a)
    return out


HS_TYPES = {"hello_request": 0, "server_hello": 2, "new_session_ticket": 4,
            "end_of_early_data": 5, "encrypted_extensions": 8,
            "certificate": 11, "certificate_request": 13,
            "certificate_verify": 15, "client_key_exchange": 16,
            "finished": 20, "key_update": 24, "message_hash": 254,
            "unknown-99": 99}


def order():
    for name, typ in HS_TYPES.items():
        body = b"\x00" if typ == 24 else bytes(4)
        case("tls13.order.first_message", name, "RFC8446 4", "MUST",
             A("unexpected_message", "decode_error"),
             raw(lambda typ=typ, body=body: rec(hs_msg(typ, body))),
             "out of order: unexpected_message (decode_error accepted for "
             "a type the server does not know)")
    for name, typ in list(HS_TYPES.items()) + [("client_hello", 1)]:
        if typ in (20, 16, 254):
            continue
        body = b"\x00" if typ == 24 else bytes(4)
        case("tls13.order.before_finished", name, "RFC8446 4", "MUST",
             A("unexpected_message", prot=APP),
             after_flight13(lambda cl, typ=typ, body=body: cl.tx.seal(
                 HANDSHAKE, hs_msg(typ, body))))
    for name, typ in list(HS_TYPES.items()) + [("client_hello", 1)]:
        if typ in (24, 254, 16, 0):
            continue
        body = bytes(4) if typ != 1 else ch13()[4:]
        clause = "RFC8446 4.1.2" if typ == 1 else "RFC8446 4"
        case("tls13.order.after_finished", name, clause, "MUST",
             A("unexpected_message", prot=APP),
             app13(lambda cl, typ=typ, body=body: cl.app_tx.seal(
                 HANDSHAKE, hs_msg(typ, body))), established=True)
    fam = "tls12.order"
    seqs = {
        "finished-before-ccs": lambda cl: cl.cke() + record(
            HANDSHAKE, hs_msg(20, bytes(12))),
        "ccs-before-cke": lambda cl: record(CCS, b"\x01"),
        "appdata-before-ccs": lambda cl: cl.cke() + record(APPDATA, b"x" * 30),
        "appdata-before-finished": lambda cl: cl.cke() + record(
            CCS, b"\x01") + cl.tx.seal(APPDATA, b"early"),
        "finished-before-cke": lambda cl: record(
            HANDSHAKE, hs_msg(20, bytes(12))),
        "second-client-hello": lambda cl: rec(ch12(), 0x0303),
        "unsolicited-certificate": lambda cl: record(
            HANDSHAKE, hs_msg(11, b"\x00\x00\x00")),
        "certificate-verify": lambda cl: cl.cke() + record(
            HANDSHAKE, hs_msg(15, u16(0x0403) + vec16(bytes(70)))),
        "two-cke": lambda cl: cl.cke() + record(
            HANDSHAKE, hs_msg(16, vec8(os.urandom(32)))),
        "server-hello": lambda cl: record(HANDSHAKE, hs_msg(2, bytes(40))),
        "hello-request": lambda cl: record(HANDSHAKE, hs_msg(0, b"")),
        "key-update": lambda cl: record(HANDSHAKE, hs_msg(24, b"\x00")),
        "ccs-twice": lambda cl: cl.cke() + record(CCS, b"\x01") +
        record(CCS, b"\x01"),
    }
    for name, fn in seqs.items():
        case(fam, name, "RFC5246 7.4", "MUST",
             A("unexpected_message", "decode_error"), after_flight12(fn),
             "out of order: unexpected_message (decode_error accepted for "
             "a message the server cannot parse there)")
    for name, fn in (("ccs-01-01", lambda cl: record(CCS, b"\x01\x01")),
                     ("ccs-02", lambda cl: record(CCS, b"\x02")),
                     ("ccs-empty", lambda cl: record(CCS, b""))):
        case(fam, name, "RFC5246 7.1", "MUST",
             A("unexpected_message", "decode_error", "illegal_parameter"),
             after_flight12(lambda cl, fn=fn: cl.cke() + fn(cl)),
             "ChangeCipherSpec is the single byte 1; no alert named")


def finished():
    fam = "tls13.finished"
    for pos in (0, 16, 31):
        def fn(cl, pos=pos):
            m = bytearray(cl.finished_msg())
            m[4 + pos] ^= 0x40
            return cl.tx.seal(HANDSHAKE, bytes(m))
        case(fam, f"verify-data-byte-{pos}", "RFC8446 4.4.4", "MUST",
             A("decrypt_error", prot=APP), after_flight13(fn))
    for n in (0, 31, 33, 48):
        case(fam, f"length-{n}", "RFC8446 6", "MUST",
             A("decode_error", "decrypt_error", prot=APP),
             after_flight13(lambda cl, n=n: cl.tx.seal(
                 HANDSHAKE, cl.finished_msg(length=n))),
             "verify_data is Hash.length bytes: decode_error (decrypt_error "
             "accepted: the check fails either way)")
    case(fam, "under-server-key", "RFC8446 5.2", "MUST",
         A("bad_record_mac", prot=APP),
         after_flight13(lambda cl: t.Keys13(cl.suite, cl.s_hs).seal(
             HANDSHAKE, cl.finished_msg())))
    fam = "tls12.finished"
    for pos in (0, 11):
        def fn12(cl, pos=pos):
            ke = cl.cke()
            m = bytearray(cl.finished_msg())
            m[4 + pos] ^= 0x40
            return ke + record(CCS, b"\x01") + cl.tx.seal(HANDSHAKE,
                                                          bytes(m))
        case(fam, f"verify-data-byte-{pos}", "RFC5246 7.4.9", "MUST",
             A("decrypt_error"), after_flight12(fn12))
    for n in (0, 11, 13, 32):
        case(fam, f"length-{n}", "RFC5246 7.4.9", "MUST",
             A("decode_error", "decrypt_error"),
             after_flight12(lambda cl, n=n: cl.cke() + record(CCS, b"\x01") +
                            cl.tx.seal(HANDSHAKE,
                                       cl.finished_msg(length=n))),
             "verify_data is 12 bytes: decode_error (decrypt_error "
             "accepted)")


def hrr():
    fam = "tls13.hrr"

    def run(mutate=None, share_group=None, ccs=False, first=None):
        def body(ctx):
            cl = Client13(ctx.conn)
            exts = (first or exts13(shares=()))(cl)
            cl.hello(exts=exts)
            must(cl.server_hello(), "no HelloRetryRequest")
            must(cl.hrr_group in (X25519, SECP256R1),
                 "HRR asked for a group not offered")
            group = share_group
            if group == "other":
                group = X25519 if cl.hrr_group == SECP256R1 else SECP256R1
            cl.retry(exts, share_group=group, mutate=mutate, ccs=ccs)
            if cl.server_hello():
                raise Broken("a second HelloRetryRequest")
            finish13(ctx, cl)
        return body

    case(fam, "empty-shares", "RFC8446 4.1.4", "MUST", OK, run())
    case(fam, "ccs-before-second-hello", "RFC8446 D.4", "MUST", OK,
         run(ccs=True))
    case(fam, "p256-only", "RFC8446 4.1.4", "MUST", OK,
         run(first=exts13(shares=(), groups=(SECP256R1,))))

    case(fam, "share-for-other-group", "RFC8446 4.2.8", "MUST",
         A("illegal_parameter"),
         run(share_group="other",
             first=exts13(shares=(), groups=(X25519, SECP256R1))),
         "CH2 must carry a share for the group HRR selected")
    case(fam, "still-no-share", "RFC8446 4.2.8", "MUST",
         A("illegal_parameter"),
         run(mutate=lambda e, kw: (replace_ext(e, t.EXT_KEY_SHARE,
                                               vec16(b"")), kw)))

    def m_suites(e, kw):
        kw["suites"] = (0x1302,)
        return e, kw
    case(fam, "suites-changed", "RFC8446 4.1.4", "MUST",
         A("illegal_parameter"), run(mutate=m_suites),
         "the server MUST negotiate the same suite after HRR")
    for name, mut in (
            ("session-id-changed",
             lambda e, kw: (e, dict(kw, sid=os.urandom(32)))),
            ("random-changed",
             lambda e, kw: (e, dict(kw, random=os.urandom(32)))),
            ("sni-changed",
             lambda e, kw: (replace_ext(e, 0, vec16(b"\x00" + vec16(
                 b"other.example.test"))), kw)),
            ("groups-changed",
             lambda e, kw: (replace_ext(e, 10, vec16(u16list(
                 (X25519,)))), kw)),
            ("sigalgs-changed",
             lambda e, kw: (replace_ext(e, 13, vec16(u16list(
                 (0x0403,)))), kw)),
            ("extension-added",
             lambda e, kw: (e + [(0x4444, b"")], kw)),
            ("compression-changed",
             lambda e, kw: (e, dict(kw, comp=b"\x01\x00")))):
        case(fam, name, "RFC8446 4.1.2", "policy", A("illegal_parameter"),
             run(mutate=mut),
             "the client MUST send the same ClientHello; we check it, "
             "illegal_parameter")
    case(fam, "versions-removed", "RFC8446 4.1.4", "policy",
         A("illegal_parameter", "protocol_version"),
         run(mutate=lambda e, kw: (drop_ext(e, 43), kw)),
         "HRR chose 1.3; CH2 without supported_versions cannot continue it")

    def data_after_hrr(ctx):
        cl = Client13(ctx.conn)
        cl.hello(exts=exts13(shares=())(cl))
        must(cl.server_hello(), "no HelloRetryRequest")
        ctx.conn.send(record(APPDATA, b"x" * 30))
        drain(ctx)
    case(fam, "appdata-instead-of-second-hello", "RFC8446 5", "MUST",
         A("unexpected_message"), data_after_hrr)


def psk():
    fam = "tls13.psk"

    def ticketed(ctx):
        """A first connection that got a ticket."""
        cl = Client13(ctx.conn)
        cl.handshake()
        ctx.established()
        must(cl.echo(), "application data did not come back")
        must(cl.tickets, "no NewSessionTicket")
        cl.c.close()
        return cl.tickets[0]

    def resume(check=None, **hello):
        def body(ctx):
            tk = ticketed(ctx)
            ctx.conn = t.Conn(ctx.t.port, ctx.t.addr)
            cl = Client13(ctx.conn)
            exts = hello.pop("exts", None)
            cl.hello(exts=exts(cl) if exts else None, ticket=tk,
                     **hello)
            must(not cl.server_hello(), "unexpected HRR")
            if check:
                check(cl)
            finish13(ctx, cl)
        return body

    case(fam, "resume", "RFC8446 4.2.11", "policy", OK,
         resume(check=lambda cl: must(cl.resumed, "not resumed")),
         "tickets are on in both servers: the ticket must resume")
    case(fam, "unknown-identity", "RFC8446 4.2.11", "MUST", OK,
         unknown_identity,
         "an identity the server cannot use: full handshake")
    case(fam, "wrong-binder", "RFC8446 4.2.11", "MUST",
         A("decrypt_error"), resume(binder=bytes(32)),
         "a binder that does not validate MUST abort the handshake; 6.2 "
         "names decrypt_error for it")
    case(fam, "binder-short", "RFC8446 4.2.11", "MUST",
         A("decrypt_error", "decode_error", "illegal_parameter"),
         resume(binder=bytes(31)), "binder of the wrong length; no alert "
         "named")
    case(fam, "modes-psk_ke-only", "RFC8446 4.2.9", "policy", OK,
         resume(psk_modes=b"\x00"),
         "psk_ke only: resume without (EC)DHE or a full handshake, both "
         "conform")
    case(fam, "modes-unknown-only", "RFC8446 4.2.9", "MUST", OK,
         resume(psk_modes=b"\x7f",
                check=lambda cl: must(not cl.resumed,
                                      "resumed with a mode not offered")),
         "no mode the server knows: MUST NOT resume")

    def not_last(ctx):
        # The position alone is the violation: no ticket needed.
        exts = t.std_exts13([(X25519, os.urandom(32))])
        pskx = (41, vec16(vec16(os.urandom(64)) + bytes(4)) +
                vec16(vec8(bytes(32))))
        ctx.conn.send(rec(ch13(exts + [(45, vec8(b"\x01")), pskx,
                                       (0x4444, b"")])))
        drain(ctx)
    case(fam, "not-last", "RFC8446 4.2.11", "MUST", A("illegal_parameter"),
         not_last)

    def no_modes(ctx):
        exts = t.std_exts13([(X25519, os.urandom(32))])
        pskx = (41, vec16(vec16(os.urandom(64)) + bytes(4)) +
                vec16(vec8(bytes(32))))
        ctx.conn.send(rec(ch13(exts + [pskx])))
        drain(ctx)
    case(fam, "without-modes", "RFC8446 4.2.9", "MUST",
         A("missing_extension"), no_modes,
         "pre_shared_key without psk_key_exchange_modes MUST abort; "
         "missing_extension")

    def empty_ids(ctx):
        exts = t.std_exts13([(X25519, os.urandom(32))])
        ctx.conn.send(rec(ch13(exts + [(45, vec8(b"\x01")),
                                       (41, vec16(b"") + vec16(
                                           vec8(bytes(32))))])))
        drain(ctx)
    case(fam, "empty-identities", "RFC8446 6", "MUST", A("decode_error"),
         empty_ids, "identities<7..2^16-1>: an empty list cannot be "
         "decoded: decode_error (6.2)")

    def binder_count(ctx):
        exts = t.std_exts13([(X25519, os.urandom(32))])
        ident = vec16(os.urandom(64)) + bytes(4)
        ctx.conn.send(rec(ch13(exts + [(45, vec8(b"\x01")),
                                       (41, vec16(ident + ident) + vec16(
                                           vec8(bytes(32))))])))
        drain(ctx)
    case(fam, "binder-count", "RFC8446 4.2.11", "policy",
         A("illegal_parameter", "decode_error"), binder_count,
         "one binder per identity; no alert named")

    def early_data_no_psk(ctx):
        cl = Client13(ctx.conn)
        cl.handshake(exts=exts13()(cl) + [(t.EXT_EARLY_DATA, b"")])
        ctx.established()
        must(t.EXT_EARLY_DATA not in cl.ee, "early data accepted")
        must(cl.echo(), "application data did not come back")
    case(fam, "early-data-without-psk", "RFC8446 4.2.10", "MUST", OK,
         early_data_no_psk, "early_data without a PSK is not accepted")

    def early_records(ctx):
        tk = ticketed(ctx)
        ctx.conn = t.Conn(ctx.t.port, ctx.t.addr)
        cl = Client13(ctx.conn)
        cl.hello(exts=exts13()(cl) + [(t.EXT_EARLY_DATA, b"")], ticket=tk,
                 extra=b"")
        ctx.conn.send(record(APPDATA, os.urandom(100)) +
                      record(APPDATA, os.urandom(300)))
        must(not cl.server_hello(), "unexpected HRR")
        cl.flight()
        must(t.EXT_EARLY_DATA not in cl.ee, "early data accepted")
        cl.finish()
        ctx.established()
        must(cl.echo(), "application data did not come back")
    case(fam, "early-data-skipped", "RFC8446 4.2.10", "policy", OK,
         early_records,
         "0-RTT is not enabled in either server: early records that do not "
         "open are skipped (MUST, when rejecting)")

    def lifetime(ctx):
        tk = ticketed(ctx)
        must(tk.lifetime <= 604800, f"lifetime {tk.lifetime}")
    case(fam, "ticket-lifetime", "RFC8446 4.6.1", "MUST", OK, lifetime)


def unknown_identity(ctx):
    cl = Client13(ctx.conn)
    fake = t.Ticket13(0x1301, 3600, 0, b"", os.urandom(80), os.urandom(32))
    cl.hello(ticket=fake)
    must(not cl.server_hello(), "unexpected HRR")
    must(not cl.resumed, "resumed with an unknown ticket")
    cl.psk = None
    finish13(ctx, cl)


def key_update():
    fam = "tls13.key_update"

    def ku(req):
        return hs_msg(t.KEY_UPDATE, bytes([req]))

    def update(req):
        def then(ctx, cl):
            must(cl.echo(), "no echo under the new key")
            if req == 1:
                must(cl.c.rx.secret != cl.s_ap,
                     "no KeyUpdate from the server")
        return app13(lambda cl: upd(cl, req), then=then)

    def upd(cl, req, extra=b""):
        rec_ = cl.app_tx.seal(HANDSHAKE, ku(req) + extra)
        cl.app_tx = cl.app_tx.updated()
        return rec_

    case(fam, "not-requested", "RFC8446 4.6.3", "MUST", OK, update(0),
         established=True)
    case(fam, "requested", "RFC8446 4.6.3", "MUST", OK, update(1),
         "the server MUST answer with its own KeyUpdate",
         established=True)

    def many(ctx, cl):
        must(cl.echo(), "no echo after three updates")
    # Three: s_server -rev stalls after a few more in a row (its loop,
    # not the library), which would hide the cases after it.
    case(fam, "three-in-one-write", "RFC8446 4.6.3", "MUST", OK,
         app13(lambda cl: b"".join(upd(cl, 0) for _ in range(3)),
               then=many), established=True)
    for v in (2, 3, 127, 255):
        case(fam, f"request-{v}", "RFC8446 4.6.3", "MUST",
             A("illegal_parameter", prot=APP),
             app13(lambda cl, v=v: cl.app_tx.seal(HANDSHAKE, ku(v))),
             established=True)
    for body in (b"", b"\x00\x00"):
        case(fam, f"length-{len(body)}", "RFC8446 6", "MUST",
             A("decode_error", prot=APP),
             app13(lambda cl, b=body: cl.app_tx.seal(
                 HANDSHAKE, hs_msg(t.KEY_UPDATE, b))),
             "KeyUpdate's body is the one byte request_update: another "
             "length cannot be decoded: decode_error (6.2)",
             established=True)
    case(fam, "then-partial-message", "RFC8446 5.1", "MUST",
         A("unexpected_message", prot=APP),
         app13(lambda cl: cl.app_tx.seal(HANDSHAKE, ku(0) + b"\x18\x00")),
         "KeyUpdate precedes a key change: it must end its record",
         established=True)

    # RFC 8446 5.1: a handshake message may span records, with nothing
    # else between its pieces, and the one before a key change (each
    # KeyUpdate) must end its record.
    def pieces(cl, msg, cuts, between=None):
        """@msg cut at @cuts, a protected record each, the record
        @between(cl) seals after the first; the client's key moves on
        behind them.  Sealed in the order they are sent."""
        bounds = (0, *cuts, len(msg))
        parts = [msg[a:b] for a, b in zip(bounds, bounds[1:])]
        r = cl.app_tx.seal(HANDSHAKE, parts[0])
        if between:
            r += between(cl)
        r += b"".join(cl.app_tx.seal(HANDSHAKE, p) for p in parts[1:])
        cl.app_tx = cl.app_tx.updated()
        return r

    case(fam, "split-over-records", "RFC8446 5.1", "MUST", OK,
         app13(lambda cl: pieces(cl, ku(0), (2,)),
               then=lambda ctx, cl: must(cl.echo(), "no echo")),
         "2 + 3 bytes; the echo comes under the new key", established=True)

    def answered(ctx, cl):
        must(cl.echo(), "no echo under the new key")
        must(cl.c.rx.secret != cl.s_ap, "no KeyUpdate from the server")
    case(fam, "split-into-1-byte-records", "RFC8446 5.1", "MUST", OK,
         app13(lambda cl: pieces(cl, ku(1), (1, 2, 3, 4)), then=answered),
         "update_requested in five records: followed, and answered",
         established=True)

    def data_rec(cl):
        return cl.app_tx.seal(APPDATA, b"between\n")

    def empty_rec(cl):
        return cl.app_tx.seal(HANDSHAKE, b"", pad=1)
    case(fam, "split-interleaved-appdata", "RFC8446 5.1", "MUST",
         A("unexpected_message", prot=APP),
         app13(lambda cl: pieces(cl, ku(0), (2,), data_rec)),
         "no record of another type between the pieces of a message; no "
         "alert named, unexpected_message (6) fits", established=True)
    case(fam, "split-interleaved-empty", "RFC8446 5.1", "MUST",
         A("unexpected_message", prot=APP),
         app13(lambda cl: pieces(cl, ku(0), (2,), empty_rec)),
         "a zero-length handshake fragment between the pieces; no alert "
         "named, unexpected_message (6) fits", established=True)
    case(fam, "split-then-bytes", "RFC8446 5.1", "MUST",
         A("unexpected_message", prot=APP),
         app13(lambda cl: pieces(cl, ku(0) + b"\x18", (2,))),
         "the last piece goes on past the KeyUpdate, across the key change",
         established=True)
    case(fam, "then-data-same-record", "RFC8446 5.1", "MUST",
         A("unexpected_message", prot=APP),
         app13(lambda cl: cl.app_tx.seal(HANDSHAKE, ku(0) + b"data\n")),
         "KeyUpdate precedes a key change: it must end its record",
         established=True)
    case(fam, "two-in-one-record", "RFC8446 5.1", "MUST",
         A("unexpected_message", prot=APP),
         app13(lambda cl: cl.app_tx.seal(HANDSHAKE, ku(0) + ku(0))),
         "the second is behind a key change", established=True)
    case(fam, "then-new-session-ticket", "RFC8446 5.1", "MUST",
         A("unexpected_message", prot=APP),
         app13(lambda cl: cl.app_tx.seal(HANDSHAKE, ku(0) + hs_msg(
             t.NEW_SESSION_TICKET, bytes(13)))),
         "a second message behind the KeyUpdate, across the key change",
         established=True)
    case(fam, "new-session-ticket-then-update", "RFC8446 4", "MUST",
         A("unexpected_message", prot=APP),
         app13(lambda cl: cl.app_tx.seal(HANDSHAKE, hs_msg(
             t.NEW_SESSION_TICKET, bytes(13)) + ku(0))),
         "only a server sends NewSessionTicket (4.6.1)", established=True)
    for n in (0x4000, 0xffffff):
        case(fam, f"declared-length-{n:#x}", "RFC8446 6", "policy",
             A("decode_error", prot=APP),
             app13(lambda cl, n=n: cl.app_tx.seal(
                 HANDSHAKE, bytes([t.KEY_UPDATE]) + n.to_bytes(3, "big"))),
             "a KeyUpdate's body is 1 byte: refused from its header, "
             "without waiting for bytes no KeyUpdate has", established=True)
    case(fam, "unknown-type-declared-0xffffff", "RFC8446 4", "policy",
         A("unexpected_message", prot=APP),
         app13(lambda cl: cl.app_tx.seal(HANDSHAKE, b"\x63\xff\xff\xff")),
         "no such message after the handshake: refused from its header, "
         "without waiting for the body", established=True)


def sni():
    fam = "rfc6066.server_name"

    def named(name):
        return with_exts(exts13(sni=name))
    case(fam, "tls13-matching", "RFC6066 3", "MUST", OK,
         named(b"www.example.test"))
    case(fam, "tls13-absent", "RFC6066 3", "policy", OK, named(None),
         "no name: the default identity")
    case(fam, "tls13-unknown-name", "RFC6066 3", "policy", OK,
         named(b"other.example.test"),
         "an unrecognized name: continue (the RFC's other choice is "
         "unrecognized_name)")
    case(fam, "tls13-uppercase", "RFC6066 3", "policy", OK,
         named(b"WWW.EXAMPLE.TEST"), "DNS names compare case-insensitively")
    for label, name in (("nul", b"www\x00.example.test"),
                        ("byte-0x80", b"www\x80.example.test"),
                        ("byte-0xff", b"\xff.example.test"),
                        ("space", b"www example.test"),
                        ("slash", b"www/example.test"),
                        ("trailing-dot", b"www.example.test.")):
        case(fam, f"tls13-{label}", "RFC6066 3", "policy",
             A("illegal_parameter", "decode_error", "unrecognized_name"),
             named(name),
             "HostName is an ASCII DNS name without a trailing dot; a "
             "name that cannot be one is refused (RFC names no alert)")

    def two_names(cl):
        e = exts13()(cl)
        return replace_ext(e, 0, vec16(b"\x00" + vec16(b"a.example.test") +
                                       b"\x00" + vec16(b"b.example.test")))
    case(fam, "tls13-two-host-names", "RFC6066 3", "policy",
         A("illegal_parameter", "decode_error"), with_exts(two_names),
         "MUST NOT contain more than one name of a type; refused")
    case(fam, "tls12-matching", "RFC6066 3", "MUST", OK,
         ok12(exts=t.std_exts12(sni=b"www.example.test")))
    case(fam, "tls12-nul", "RFC6066 3", "policy",
         A("illegal_parameter", "decode_error", "unrecognized_name"),
         ok12(exts=t.std_exts12(sni=b"www\x00.example.test")),
         "as for TLS 1.3")


def sigalgs():
    fam = "tls13.signature_algorithms"
    case(fam, "absent", "RFC8446 4.2.3", "MUST", A("missing_extension"),
         with_exts(exts13(sigalgs=None)))
    for name, algs in (("rsa-and-ed25519-only", (0x0804, 0x0807)),
                       ("ecdsa-p384-only", (0x0503,)),
                       ("ecdsa-sha1-only", (0x0203,))):
        case(fam, name, "RFC8446 4.4.3", "policy",
             A("handshake_failure", "insufficient_security"),
             with_exts(exts13(sigalgs=algs)),
             "no scheme the P-256 key can sign with: abort rather than "
             "sign with one not offered")
    for a in (0x0000, 0xffff, 0x0201, 0x0807, 0x0503, 0x0603):
        case(fam, f"unknown-first-{a:#06x}", "RFC8446 4.4.3", "MUST", OK,
             with_exts(exts13(sigalgs=(a, 0x0403))),
             "CertificateVerify uses an offered scheme")
    fam = "tls12.signature_algorithms"
    case(fam, "rsa-only", "RFC5246 7.4.1.4.1", "policy",
         A("handshake_failure"),
         ok12(exts=t.std_exts12(sigalgs=(0x0401, 0x0804))),
         "no ECDSA scheme offered: abort rather than sign with one not "
         "offered")
    for a in (0x0000, 0x0201, 0xffff):
        case(fam, f"unknown-first-{a:#06x}", "RFC5246 7.4.1.4.1", "MUST",
             OK, ok12(exts=t.std_exts12(sigalgs=(a, 0x0403))))


def ccs13():
    fam = "tls13.ccs"
    case(fam, "after-flight", "RFC8446 5", "MUST", OK,
         after_flight13(lambda cl: record(CCS, b"\x01"),
                        then=then_finish))
    case(fam, "twice-after-flight", "RFC8446 5", "MUST", OK,
         after_flight13(lambda cl: record(CCS, b"\x01") * 2,
                        then=then_finish),
         "each such record is dropped")
    for name, body in (("00", b"\x00"), ("02", b"\x02"), ("ff", b"\xff"),
                       ("0101", b"\x01\x01"), ("empty", b"")):
        case(fam, f"after-flight-{name}", "RFC8446 5", "MUST",
             A("unexpected_message", prot=APP),
             after_flight13(lambda cl, b=body: record(CCS, b)),
             "a change_cipher_spec other than the single byte 0x01 MUST "
             "be aborted with unexpected_message")


def tls12_baseline():
    fam = "tls12.baseline"
    for s in (0xc02b, 0xc02c, 0xcca9):
        for g, gname in ((X25519, "x25519"), (SECP256R1, "p256")):
            case(fam, f"{s:#06x}.{gname}", "RFC5246 7.4", "MUST", OK,
                 ok12(client={"suites": (s,)},
                      exts=t.std_exts12(groups=(g, SECP256R1) if
                                        g == X25519 else (g,))),
                 "downgrade sentinel, EMS and renegotiation_info checked")
    case(fam, "data-with-finished", "RFC5246 7.4.9", "MUST", OK,
         data_with_finished12)


def data_with_finished12(ctx):
    cl = Client12(ctx.conn)
    cl.hello()
    cl.server_hello()
    cl.flight()
    line = b"with-finished"
    ke = cl.cke()
    fin = cl.finished()
    ctx.conn.send(ke + fin + cl.tx.seal(APPDATA, line + b"\n"))
    cl.server_finished()
    ctx.established()
    must(cl.read_line() == line[::-1], "data after Finished lost")


def ems():
    fam = "rfc7627.ems"
    case(fam, "offered", "RFC7627 5.2", "MUST", OK, ok12(),
         "echoed, and the master secret is the extended one")
    case(fam, "absent", "RFC7627 5.2", "policy", A("handshake_failure"),
         ok12(exts=t.std_exts12(ems=False)),
         "a server MAY refuse a full handshake without it; "
         "handshake_failure")
    for n in (1, 2, 16):
        case(fam, f"non-empty-{n}", "RFC7627 5.1", "MUST", A("decode_error"),
             ok12(exts=replace_ext(t.std_exts12(), t.EXT_EMS, bytes(n))),
             "its extension_data is empty")

    def resume(drop_ems):
        def body(ctx):
            cl = Client12(ctx.conn)
            cl.handshake(exts=t.std_exts12(ticket=b""))
            ctx.established()
            must(cl.echo(), "no echo")
            must(cl.session, "no ticket")
            ctx.conn.close()
            ctx.conn = t.Conn(ctx.t.port, ctx.t.addr)
            c2 = Client12(ctx.conn)
            exts = t.std_exts12(ticket=cl.session.ticket, ems=not drop_ems)
            if drop_ems:
                c2.hello(exts=exts, sid=os.urandom(32))
                c2.session = cl.session
                must(not c2.server_hello(), "resumed a session with EMS "
                     "from a hello without it")
                c2.flight()
                ctx.conn.send(c2.cke() + c2.finished())
                c2.server_finished()
            else:
                c2.resume(cl.session, exts=exts)
            ctx.established()
            must(c2.echo(), "no echo")
        return body
    case(fam, "resume-with-ems", "RFC7627 5.3", "policy", OK, resume(False),
         "tickets are on in both servers")
    case(fam, "resume-without-ems", "RFC7627 5.3", "MUST",
         A("handshake_failure", also_ok=True), resume(True),
         "the session used EMS: the abbreviated handshake MUST be "
         "aborted; a full handshake instead is fine (ok means one that "
         "did not resume)")


def reneg():
    fam = "rfc5746.renegotiation_info"

    def refused(ctx, cl):
        drain(ctx)

    case(fam, "scsv-only", "RFC5746 3.6", "MUST", OK,
         ok12(suites=(0xc02b, 0x00ff), exts=t.std_exts12(reneg=None)),
         "the server MUST answer with an empty renegotiation_info")
    case(fam, "scsv-and-extension", "RFC5746 3.6", "MUST", OK,
         ok12(suites=(0xc02b, 0x00ff)))
    case(fam, "neither", "RFC5746 4.4", "policy", OK,
         ok12(exts=t.std_exts12(reneg=None)),
         "a client that does not signal: allowed (no renegotiation here "
         "anyway)")
    for n in (1, 12, 24, 255):
        case(fam, f"non-empty-{n}", "RFC5746 3.6", "MUST",
             A("handshake_failure"),
             ok12(exts=t.std_exts12(reneg=vec8(os.urandom(n)))))
    for name, data in (("overrun", b"\x05\x00"), ("no-length", b"")):
        case(fam, f"malformed-{name}", "RFC5746 3.2", "MUST",
             A("decode_error", "handshake_failure"),
             ok12(exts=t.std_exts12(reneg=data)),
             "undecodable: decode_error (handshake_failure accepted, 3.6)")
    case(fam, "renegotiation-refused", "RFC5746 4.2", "policy",
         A("no_renegotiation", "unexpected_message", "handshake_failure",
           prot=AFTER_CCS, must_close=False),
         app12(lambda cl: cl.tx.seal(HANDSHAKE, ch12()),
               then=refused),
         "the server does not renegotiate: it refuses (no_renegotiation, "
         "or a fatal alert)", established=True)


def ecc12():
    fam = "rfc8422.point_formats"
    for f in (b"\x01", b"\x02", b"\x01\x02", b"\xff"):
        case(fam, f"without-uncompressed-{f.hex()}", "RFC8422 5.1.2",
             "MUST", A("illegal_parameter"),
             ok12(exts=t.std_exts12(formats=f)),
             "ec_point_formats without uncompressed, with an RFC 8422 "
             "curve offered: the server MUST abort with illegal_parameter")
    for f in (b"\x00\x01\x02", b"\x02\x00", b"\xff\x00"):
        case(fam, f"with-uncompressed-{f.hex()}", "RFC8422 5.1.2", "MUST",
             OK, ok12(exts=t.std_exts12(formats=f)))
    case(fam, "absent", "RFC8422 5.1.2", "MUST", OK,
         ok12(exts=t.std_exts12(formats=None)), "uncompressed is assumed")
    fam = "rfc8422.groups"
    for g in (0x0018, 0x001e, 0x0100, 0x0000, 0xfe00):
        case(fam, f"listed-{g:#06x}", "RFC8422 5.1.1", "MUST", OK,
             ok12(exts=t.std_exts12(groups=(g, X25519, SECP256R1))))
    for g in (0x0018, 0x001e, 0x0100):
        case(fam, f"only-{g:#06x}", "RFC8422 5.1.1", "MUST",
             A("handshake_failure"),
             ok12(exts=t.std_exts12(groups=(g,))),
             "no curve in common for ECDHE")
    case(fam, "x25519-only", "RFC8422 5.1.1", "MUST",
         A("handshake_failure"), ok12(exts=t.std_exts12(groups=(X25519,))),
         "the certificate's P-256 key is not on a curve the client lists")
    case(fam, "absent", "RFC8422 4", "policy", OK,
         ok12(exts=t.std_exts12(groups=None)),
         "the server is free to choose any curve")
    fam = "rfc8422.client_key_exchange"
    for n in (0, 31, 33):
        case(fam, f"x25519-length-{n}", "RFC8422 5.7", "MUST",
             A("illegal_parameter", "decode_error"),
             after_flight_group(X25519, lambda cl, n=n: cl.cke(
                 point=os.urandom(n))),
             "no alert named for a wrong length")
    for name, pub in x25519_low_order()[::2]:
        case(fam, f"x25519-low-order-{name}", "RFC8422 5.11", "MUST",
             A("illegal_parameter", "handshake_failure"),
             after_flight_group(X25519, lambda cl, pub=pub: cl.cke(
                 point=pub)),
             "all-zero premaster secret MUST abort; no alert named")
    good = t.KeyShare(SECP256R1).pub
    for name, pub in (("off-curve", b"\x04" + b"\x01" * 64),
                      ("compressed", b"\x02" + good[1:33]),
                      ("infinity", b"\x00"),
                      ("no-prefix", good[1:])):
        case(fam, f"p256-{name}", "RFC8422 5.10", "MUST",
             A("illegal_parameter", "decode_error"),
             after_flight_group(SECP256R1, lambda cl, pub=pub: cl.cke(
                 point=pub)),
             "uncompressed points on the curve only; no alert named")
    case(fam, "trailing-byte", "RFC5246 7.4.7", "MUST", A("decode_error"),
         after_flight12(lambda cl: record(HANDSHAKE, hs_msg(
             16, vec8(os.urandom(32)) + b"\x00"))))
    case(fam, "empty-body", "RFC5246 7.4.7", "MUST", A("decode_error"),
         after_flight12(lambda cl: record(HANDSHAKE, hs_msg(16, b""))),
         "ECPoint point<1..2^8-1>: an empty body cannot be decoded: "
         "decode_error (RFC 5246 7.2.2)")


def after_flight_group(group, fn):
    def run(ctx):
        cl = Client12(ctx.conn)
        cl.hello(exts=t.std_exts12(groups=(group, SECP256R1)))
        cl.server_hello()
        cl.flight()
        must(cl.group == group, "server chose another group")
        ctx.conn.send(fn(cl))
        drain(ctx)
    return run


def extensions_misc():
    fam = "tls13.hello.extensions"
    for name, e in (("unknown-empty", (0x4444, b"")),
                    ("unknown-1000-bytes", (0x4444, os.urandom(1000))),
                    ("status_request", (5, EXTRA[5])),
                    ("post_handshake_auth", (49, b"")),
                    ("record_size_limit", (28, u16(16385))),
                    ("padding-zeros", (21, bytes(100))),
                    ("alpn-unknown-protocol", (16, vec16(vec8(b"x-none")))),
                    ("ec_point_formats", (11, vec8(b"\x00"))),
                    ("session_ticket", (35, b"")),
                    ("extended_master_secret", (23, b"")),
                    ("renegotiation_info", (0xff01, b"\x00"))):
        case(fam, name, "RFC8446 4.2", "MUST", OK,
             with_exts(lambda cl, e=e: exts13()(cl) + [e]),
             "extensions the server does not act on are ignored")
    case(fam, "padding-non-zero", "RFC8446 4.2", "policy", OK,
         with_exts(lambda cl: exts13()(cl) + [(21, b"\x01" * 50)]),
         "padding content is the client's business: ignored")
    for name, e in (("alpn-empty-list", (16, u16(0))),
                    ("alpn-empty-name", (16, vec16(b"\x00")))):
        case(fam, name, "RFC8446 6", "policy", A("decode_error"),
             with_exts(lambda cl, e=e: exts13()(cl) + [e]),
             "ALPN vectors have minimum lengths (RFC 7301 3.1)")
    fam = "tls12.hello.extensions"
    for name, e in (("unknown-empty", (0x4444, b"")),
                    ("key_share-ignored", (51, vec16(u16(X25519) + vec16(
                        os.urandom(32))))),
                    ("status_request", (5, EXTRA[5]))):
        case(fam, name, "RFC5246 7.4.1.4", "MUST", OK,
             ok12(exts=t.std_exts12() + [e]))
    case(fam, "no-extensions-at-all", "RFC7627 5.2", "policy",
         A("handshake_failure"), raw_ok12_noext,
         "a hello without extensions has no EMS: refused, as 'absent'")


def raw_ok12_noext(ctx):
    cl = Client12(ctx.conn)
    cl.hello(exts=None)
    # std_exts12 came back for exts=None; send a real extension-less one.
    ctx.conn.close()
    ctx.conn = t.Conn(ctx.t.port, ctx.t.addr)
    ctx.conn.send(rec(hs_msg(1, t.hello_body(None, (0xc02b,)))))
    drain(ctx)


def all_cases():
    if not CASES:
        for fn in (baseline, tls12_baseline, legacy_version,
                   supported_versions, grease, groups, key_shares,
                   compression, suites, session_id, duplicates,
                   malformed_extensions, truncation, records,
                   alerts_received, order, finished, hrr, psk, key_update,
                   sni, sigalgs, ccs13, ems, reneg, ecc12,
                   extensions_misc):
            fn()
        names = [c.name for c in CASES]
        dup = {n for n in names if names.count(n) > 1}
        assert not dup, dup
    return CASES
