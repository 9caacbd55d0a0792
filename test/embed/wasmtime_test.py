#!/usr/bin/env python3
"""Embeds the Laminar core outside Node: loads build/laminar-simd.wasm with
wasmtime (no imports) and checks the ABI of docs/abi.md against known answers.

    .venv-embed/bin/python test/embed/wasmtime_test.py [--wasm PATH]

The same checks, from C, are in test/embed/wasm2c_main.c (keep them in step).
Prints one line per failure, then `wasmtime: N passed, N failed` (and, last,
the machine-readable line `RESULT <passed> <failed>`). Exit status 1 on any
failure.

The "zone script" group drives a Zone engine through test/embed/zone-script.txt
(the driver its header specifies, as test/embed/zone-script.mjs does in Node)
and compares the transcript with test/embed/zone-script.expected line for
line: each matching line counts as a passed check, the first mismatch is
printed as a failure.

The "regressions" checks pin bugs these harnesses found and that were fixed
(bounds checks that wrapped around in i32 arithmetic and trapped); each runs
under its own trap guard and counts like any other check.
"""
import argparse
import json
import math
import os
import re
import struct
import subprocess
import sys

from wasmtime import Engine, Instance, Module, Store, Trap, WasmtimeError

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# Status codes (docs/abi.md).
OK, E_NULL, E_BOUNDS, E_ALIGN, E_ATOMS, E_COUNT, E_K = 0, -1, -2, -3, -4, -5, -6
E_CONFLICT, E_FULL, E_ID, E_HORIZON, E_ARG, E_NOFIT, E_DEFER = -7, -8, -9, -10, -11, -12, -13

ALL = 0xFFFFFFFFFFFFFFFF
U64 = ALL

# Known answers of the native bench's inputs (bench/native/README.md), computed
# once with the Node build (node test/embed/bench_checksums.mjs) and pinned.
BENCH_CHECKSUMS = {
    "mask-update": 2959319445,
    "fastlog-score": 62460269,
    "zone-update": 1086397391,
    "feasible-count": 4094270462,
    "contiguous-run": 3913531963,
    "score-candidates": 1586579125,
    "probe-candidates": 2311746949,
    "zone-aggregate": 3761328666,
    "wheel-schedule-advance": 405081062,
}

EXPECTED_EXPORTS = [
    "memory", "heapBase", "memoryBytes", "simdEnabled", "abiVersion",
    "microMaskBytes", "microScoreBytes", "microMaskUpdate", "microFastlogScore", "microZoneUpdate",
    "bmFreeCount", "bmCountAtLeast", "bmFirstRun", "bmFitsAt", "bmTakeAny", "bmTakeRun",
    "bmTake", "bmRelease", "bmRunMask",
    "utility", "scoreCandidates", "zoneAggregate", "tegWeights", "tegSample", "streamDraw",
]


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


# Parameter blocks (docs/abi.md, "Parameter blocks"): for each entry point
# that takes one, its size and, in the order of its ABI version 1 arguments,
# each field's byte offset and struct format (i: i32 or u32 pointer, f: f32,
# d: f64). Core calls these entry points with the old positional arguments
# and writes them into a block at these offsets; check_header holds the
# offsets to the header's LAMINAR_*_OFF_* constants.
BLOCKS = {
    "scoreCandidates": ("CHOICE", 48, [
        ("field", 0, "i"), ("nodeCount", 4, "i"), ("table", 8, "i"), ("atoms", 12, "i"), ("cand", 16, "i"),
        ("n", 20, "i"), ("now", 24, "f"), ("m", 28, "i"), ("contiguous", 32, "i"), ("gamma", 36, "f"),
        ("degradeAge", 40, "f"), ("noise", 44, "i")]),
    "probeCandidates": ("PROBE", 72, [
        ("field", 0, "i"), ("nodeCount", 4, "i"), ("table", 8, "i"), ("atoms", 12, "i"), ("n", 20, "i"),
        ("now", 24, "f"), ("m", 28, "i"), ("contiguous", 32, "i"), ("gamma", 36, "f"), ("degradeAge", 40, "f"),
        ("sigma", 48, "d"), ("rng", 56, "i"), ("zig", 60, "i"), ("seen", 64, "i"), ("cand", 16, "i"),
        ("noise", 44, "i"), ("start", 68, "i")]),
    "zoneAggregate": ("ZONE", 40, [
        ("field", 0, "i"), ("nodeCount", 4, "i"), ("offsets", 8, "i"), ("zones", 12, "i"), ("now", 16, "f"),
        ("degradeAge", 20, "f"), ("degradeHeat", 24, "f"), ("outSlack", 28, "i"), ("outHeat", 32, "i")]),
    "memTick": ("MEM", 88, [
        ("recs", 0, "i"), ("count", 4, "i"), ("nodes", 8, "i"), ("base", 12, "i"), ("usage", 16, "i"),
        ("tick", 32, "d"), ("seed", 40, "d"), ("kappa", 48, "d"), ("sigma", 56, "d"), ("burstRate", 64, "d"),
        ("burstScale", 72, "d"), ("threshold", 80, "d"), ("out", 20, "i"), ("outCap", 24, "i")]),
}


def pack_field(fmt, v):
    """One block field as a host would store it: i32 wraps, f32 rounds (overflow to an infinity)."""
    if fmt == "i":
        return struct.pack("<i", ((int(v) + (1 << 31)) % (1 << 32)) - (1 << 31))
    if fmt == "f":
        try:
            return struct.pack("<f", v)
        except OverflowError:
            return struct.pack("<f", math.copysign(math.inf, v))
    return struct.pack("<d", v)


class Core:
    """One instance of a core build, with a bump allocator over its memory."""

    def __init__(self, path):
        self.store = Store(Engine())
        self.module = Module.from_file(self.store.engine, path)
        self.imports = list(self.module.imports)
        self.instance = Instance(self.store, self.module, [])
        ex = self.instance.exports(self.store)
        self.export_names = [e.name for e in self.module.exports]
        self.memory = ex["memory"]
        self._fns = {n: ex[n] for n in self.export_names if n != "memory"}
        self.top = (self.call("heapBase") + 63) & ~63
        self.block = self.alloc(128, 8)  # the parameter block of block_call, before any buffer

    def call(self, name, *args):
        return self._fns[name](self.store, *args)

    def write_block(self, name, at, *args):
        """Write the block of `name` for its ABI version 1 arguments at `at`."""
        _, nbytes, fields = BLOCKS[name]
        buf = bytearray(nbytes)
        for (_, off, fmt), v in zip(fields, args, strict=True):
            b = pack_field(fmt, v)
            buf[off:off + len(b)] = b
        self.memory.write(self.store, bytes(buf), at)

    def block_call(self, name, *args):
        """Call a block entry point with its ABI version 1 arguments, through the reserved block."""
        self.write_block(name, self.block, *args)
        return self.call(name, self.block)

    def __getattr__(self, name):
        fns = self.__dict__.get("_fns", {})
        if name in BLOCKS and name in fns:
            return lambda *a: self.block_call(name, *a)
        if name in fns:
            return lambda *a: self.call(name, *a)
        raise AttributeError(name)

    def size(self):
        return self.memory.data_len(self.store)

    def grow(self, pages):
        return self.memory.grow(self.store, pages)

    def alloc(self, nbytes, align=64):
        p = (self.top + align - 1) & ~(align - 1)
        self.top = p + nbytes
        if self.top > self.size():
            self.grow((self.top - self.size() + 65535) // 65536)
        return p

    def write(self, ptr, fmt, values):
        self.memory.write(self.store, struct.pack("<%d%s" % (len(values), fmt), *values), ptr)

    def read(self, ptr, fmt, n):
        size = struct.calcsize("<" + fmt)
        return list(struct.unpack("<%d%s" % (n, fmt), bytes(self.memory.read(self.store, ptr, ptr + size * n))))

    def fill(self, ptr, nbytes, byte):
        self.memory.write(self.store, bytes([byte]) * nbytes, ptr)


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, got, want=True, known_issue=None):
        ok = got == want if not isinstance(want, float) or not math.isnan(want) else math.isnan(got)
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL   {name}: got {got!r}, want {want!r}")
        return ok

    def near(self, name, got, want, tol):
        ok = isinstance(got, float) and abs(got - want) <= tol
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL   {name}: got {got!r}, want {want!r} +- {tol}")
        return ok

    def guarded(self, name, fn, known_issue=None):
        """Run one group of checks; a trap or error in it counts as a failure."""
        try:
            fn()
        except (Trap, WasmtimeError) as e:
            lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
            msg = next((ln.split(": ", 1)[-1] for ln in lines if "wasm trap" in ln), lines[-1] if lines else type(e).__name__)
            self.failed += 1
            print(f"FAIL   {name}: trapped: {msg}" + (f" -- {known_issue}" if known_issue else ""))


# ---------------------------------------------------------------------------
# deterministic inputs (bench/native/README.md)

M64 = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.s = seed & M64

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)


def hash31(h, v):
    return (h * 31 + (v & 0xFFFFFFFF)) & 0xFFFFFFFF


NODES, ATOMS, WORDS, K = 4096, 256, 4, 64
M32 = 0xFFFFFFFF


def xoshiro(st):
    """xoshiro128** on a list of four u32 words (src/sim/rng.ts nextU32): the next word."""
    s0, s1, s2, s3 = st
    t2, t3 = s2 ^ s0, s3 ^ s1
    x = (s1 * 5) & M32
    r = ((((x << 7) | (x >> 25)) & M32) * 9) & M32
    st[:] = [s0 ^ t3, s1 ^ t2, (t2 ^ (s1 << 9)) & M32, ((t3 << 11) | (t3 >> 21)) & M32]
    return r


def xo_float(st):
    """A uniform double in [0, 1) from two words (src/sim/rng.ts float)."""
    a = xoshiro(st) >> 5
    b = xoshiro(st) >> 6
    return (a * 67108864 + b) * 2.0 ** -53


def i32(v):
    return v - (1 << 32) if v & 0x80000000 else v


# the 128-layer ziggurat of src/sim/ziggurat.ts (Marsaglia & Tsang 2000)
ZR = 3.442619855899
ZKN, ZWN, ZFN = [0] * 128, [0.0] * 128, [0.0] * 128


def _zig_setup():
    m1, vn = 2147483648.0, 9.91256303526217e-3
    dn = tn = ZR
    q = vn / math.exp(-0.5 * dn * dn)
    ZKN[0], ZKN[1] = int(math.floor((dn / q) * m1)), 0
    ZWN[0], ZWN[127] = q / m1, dn / m1
    ZFN[0], ZFN[127] = 1.0, math.exp(-0.5 * dn * dn)
    for i in range(126, 0, -1):
        dn = math.sqrt(-2.0 * math.log(vn / dn + math.exp(-0.5 * dn * dn)))
        ZKN[i + 1] = int(math.floor((dn / tn) * m1))
        tn = dn
        ZFN[i] = math.exp(-0.5 * dn * dn)
        ZWN[i] = dn / m1


_zig_setup()


def zig_finish(st, hz):
    """The rest of a normal draw whose first word (as an i32) hz missed the fast path (zigguratFinish)."""
    iz = hz & 127
    while True:
        if iz == 0:
            while True:
                x = -math.log(1.0 - xo_float(st)) / ZR
                y = -math.log(1.0 - xo_float(st))
                if not (y + y < x * x):
                    break
            return ZR + x if hz > 0 else -ZR - x
        x = hz * ZWN[iz]
        if ZFN[iz] + xo_float(st) * (ZFN[iz - 1] - ZFN[iz]) < math.exp(-0.5 * x * x):
            return x
        hz = i32(xoshiro(st))
        iz = hz & 127
        if abs(hz) < ZKN[iz]:
            return hz * ZWN[iz]


def gen_bitmaps(g):
    words = []
    for _ in range(NODES):
        row = 0
        free = g.next() & 1
        a = 0
        while a < ATOMS:
            ln = 1 + g.next() % 128
            end = min(a + ln, ATOMS)
            if free:
                row |= ((1 << (end - a)) - 1) << a
            a += ln
            free ^= 1
        words += [(row >> (64 * w)) & M64 for w in range(WORDS)]
    return words


def bench_checksums(c):
    """The checksums of bench/native/README.md, computed with this build."""
    out = {}
    mark = c.top
    g = SplitMix64(42)
    base = c.alloc(16384 * 64)
    c.write(base, "Q", [g.next() for _ in range(16384 * 8)])
    out["mask-update"] = int(c.microMaskUpdate(base, 1000000, 0, 42))

    g = SplitMix64(42)
    table = c.alloc(262144 * 4)
    c.write(table, "I", [g.next() >> 32 for _ in range(262144)])
    out["fastlog-score"] = int(c.microFastlogScore(table, 1000000, 0, 0.5))

    g = SplitMix64(42)
    o, h, s = c.alloc(1024), c.alloc(1024), c.alloc(1024)
    hv, sv = [], []
    for _ in range(256):
        hv.append((g.next() >> 40) / 16777216.0)
        sv.append((g.next() >> 40) / 16777216.0)
    c.write(o, "f", [0.0] * 256)
    c.write(h, "f", hv)
    c.write(s, "f", sv)
    c.microZoneUpdate(o, h, s, 1000, 0.25, 0.5, 1.0 / 1048576.0)
    x = 0
    for v in c.read(o, "I", 256) + c.read(h, "I", 256):
        x = hash31(x, v)
    out["zone-update"] = x

    g = SplitMix64(42)
    rows = gen_bitmaps(g)
    tbl = c.alloc(NODES * WORDS * 8)
    c.write(tbl, "Q", rows)
    o8, o32 = c.alloc(NODES), c.alloc(NODES * 4)
    n = c.bmCountAtLeast(tbl, NODES, ATOMS, K, o8)
    x = hash31(0, n)
    for v in c.read(o8, "B", NODES):
        x = hash31(x, v)
    out["feasible-count"] = x
    n = c.bmFirstRun(tbl, NODES, ATOMS, K, o32)
    x = hash31(0, n)
    for v in c.read(o32, "i", NODES):
        x = hash31(x, v)
    out["contiguous-run"] = x

    # utility field: the same stream, continued after the bitmaps
    S = [float(sum(bin(rows[j * WORDS + w]).count("1") for w in range(WORDS))) for j in range(NODES)]
    H, dS, dH, st = [], [], [], []
    for _ in range(NODES):
        H.append(float(g.next() % 32))
        dS.append(((g.next() % 2001) - 1000) / 16384.0)
        dH.append(((g.next() % 2001) - 1000) / 16384.0)
        st.append(1000.0 - (g.next() % 600))
    field = c.alloc(NODES * 5 * 4)
    c.write(field, "f", S + H + dS + dH + st)
    sets, n16 = 1024, 16
    cand, noise = [], []
    for _ in range(sets):
        cand += [g.next() % 4096 for _ in range(n16)]
        noise += [((g.next() % 65536) - 32768) / 16777216.0 for _ in range(n16)]
    cp, npn = c.alloc(sets * n16 * 4), c.alloc(sets * n16 * 4)
    c.write(cp, "i", cand)
    c.write(npn, "f", noise)
    x = 0
    for k in range(sets):
        r = c.scoreCandidates(field, NODES, tbl, ATOMS, cp + k * n16 * 4, n16, 1000.0, K, k & 1, 0.5, 500.0,
                              npn + k * n16 * 4)
        x = hash31(x, r)
    out["score-candidates"] = x

    # probe-candidates: 1,024 probe actions on the same field, one stream (a fresh splitmix64(42)'s first two words)
    rng, zig, seen = c.alloc(24), c.alloc(1536, 8), c.alloc(512)
    pc, pn = c.alloc(n16 * 4), c.alloc(n16 * 4)
    c.write(zig, "I", ZKN)
    c.write(zig + 512, "d", ZWN)
    c.write(seen, "I", [0] * 128)
    gs = SplitMix64(42)
    w0, w1 = gs.next(), gs.next()
    c.write(rng, "I", [w0 & M32, w0 >> 32, w1 & M32, w1 >> 32, 0, 0])
    x = 0
    for k in range(sets):
        start = 0
        while True:
            r = c.probeCandidates(field, NODES, tbl, ATOMS, n16, 1000.0, K, k & 1, 0.5, 500.0, 0.5,
                                  rng, zig, seen, pc, pn, start)
            if r != E_DEFER:
                break
            st = c.read(rng, "I", 6)
            i, hz = st[4], i32(st[5])
            words = st[:4]
            c.write(pn + 4 * i, "f", [0.5 * zig_finish(words, hz)])
            c.write(rng, "I", words)
            start = i + 1
        x = hash31(x, c.read(pc + 4 * r, "i", 1)[0] if r >= 0 else r)
    for v in c.read(rng, "I", 4):
        x = hash31(x, v)
    out["probe-candidates"] = x
    zones = 16
    off, sl, he = c.alloc((zones + 1) * 4), c.alloc(zones * 4), c.alloc(zones * 4)
    c.write(off, "i", [z * 256 for z in range(zones + 1)])
    c.zoneAggregate(field, NODES, off, zones, 1000.0, 500.0, 8.0, sl, he)
    x = 0
    for v in c.read(sl, "I", zones) + c.read(he, "I", zones):
        x = hash31(x, v)
    out["zone-aggregate"] = x

    # wheel-schedule-advance: 65,536 timers at 1 + next() % 100,000, advanced in steps of 1,000
    g = SplitMix64(42)
    timers = 65536
    w = c.alloc(c.wheelBytes(timers), 8)
    outp = c.alloc(4 * timers)
    dl = [float(1 + g.next() % 100000) for _ in range(timers)]
    c.wheelInit(w, timers, 0.0)
    sched = c._fns["wheelSchedule"]
    for i in range(timers):
        sched(c.store, w, i, dl[i])
    x = 0
    for tick in range(1000, 100000 + 1000 + 1, 1000):
        n = c.wheelAdvance(w, float(tick), outp, timers)
        for v in c.read(outp, "i", n):
            x = hash31(x, v)
    out["wheel-schedule-advance"] = x
    c.top = mark
    return out


# ---------------------------------------------------------------------------
# checks

def check_module(t, c, simd):
    t.check("no imports", len(c.imports), 0)
    missing = [n for n in EXPECTED_EXPORTS if n not in c.export_names]
    t.check("all documented exports present", missing, [])
    t.check("simdEnabled()", c.simdEnabled(), 1 if simd else 0)
    t.check("abiVersion()", c.abiVersion(), 3)
    hb = c.heapBase()
    t.check("heapBase() > 0 and 8-byte aligned", hb > 0 and hb % 8 == 0)
    t.check("heapBase() above the 770 f32 lookup-table entries", hb >= 770 * 4)
    t.check("heapBase() < memoryBytes()", hb < c.memoryBytes())
    t.check("memoryBytes() = runtime memory size", c.memoryBytes(), float(c.size()))
    before = c.memoryBytes()
    c.grow(1)
    t.check("memoryBytes() follows memory.grow", c.memoryBytes(), before + 65536.0)
    t.check("microMaskBytes()", c.microMaskBytes(), 1048576)
    t.check("microScoreBytes()", c.microScoreBytes(), 1048576)


def check_errors(t, c):
    hb = c.heapBase()
    table = c.alloc(4 * 16 * 8)
    out = c.alloc(64)
    end = c.size()
    c.fill(table, 4 * 16 * 8, 0xFF)
    t.check("E_NULL: null table", c.bmFreeCount(0, 1, 64, out), E_NULL)
    t.check("E_NULL: pointer into static data (heapBase-8)", c.bmFreeCount(hb - 8, 1, 64, out), E_NULL)
    t.check("E_NULL: null out, zero count", c.bmFreeCount(table, 0, 64, 0), E_NULL)
    t.check("zero count with valid pointers -> 0", c.bmFreeCount(table, 0, 64, out), 0)
    t.check("E_BOUNDS: table runs past memory", c.bmFreeCount(end - 8, 2, 64, out), E_BOUNDS)
    t.check("E_BOUNDS: out runs past memory", c.bmFreeCount(table, 2, 64, end - 4), E_BOUNDS)
    t.check("E_BOUNDS: pointer past memory", c.bmFreeCount(end + 64, 1, 64, out), E_BOUNDS)
    t.check("E_ALIGN: u64 table at +4", c.bmFreeCount(table + 4, 1, 64, out), E_ALIGN)
    t.check("E_ALIGN: i32 out at +2", c.bmFreeCount(table, 1, 64, out + 2), E_ALIGN)
    for atoms in (0, 32, 63, 65, 100, 1088, 2048, -64):
        t.check(f"E_ATOMS: atoms={atoms} (bmFreeCount)", c.bmFreeCount(table, 1, atoms, out), E_ATOMS)
        t.check(f"E_ATOMS: atoms={atoms} (bmRunMask)", c.bmRunMask(atoms, 0, 1, out), E_ATOMS)
    t.check("atoms=1024 accepted", c.bmFreeCount(table, 1, 1024, out), 1)
    t.check("E_COUNT: count=-1", c.bmFreeCount(table, -1, 64, out), E_COUNT)
    t.check("E_K: k=atoms+1", c.bmCountAtLeast(table, 1, 64, 65, out), E_K)
    t.check("E_K: k=-1", c.bmFirstRun(table, 1, 64, -1, out), E_K)
    t.check("E_K: run mask past the row", c.bmRunMask(128, 121, 8, out), E_K)
    t.check("E_K: negative offset", c.bmRunMask(128, -1, 1, out), E_K)
    # nothing written on error
    c.write(out, "i", [-77] * 4)
    c.bmFirstRun(table, 4, 64, 65, out)
    t.check("no write on E_K", c.read(out, "i", 4), [-77] * 4)
    c.bmFirstRun(table, 4, 63, 1, out)
    t.check("no write on E_ATOMS", c.read(out, "i", 4), [-77] * 4)
    # micro-kernels
    mb = c.alloc(1048576)
    t.check("microMaskUpdate E_COUNT", c.microMaskUpdate(mb, -1, 0, 0), E_COUNT)
    t.check("microMaskUpdate E_ID start", c.microMaskUpdate(mb, 1, 16384, 0), E_ID)
    t.check("microMaskUpdate E_ID negative start", c.microMaskUpdate(mb, 1, -1, 0), E_ID)
    t.check("microMaskUpdate E_NULL", c.microMaskUpdate(0, 1, 0, 0), E_NULL)
    t.check("microMaskUpdate E_BOUNDS", c.microMaskUpdate(c.size() - 1048576 + 64, 1, 0, 0), E_BOUNDS)
    t.check("microFastlogScore E_ID", c.microFastlogScore(mb, 1, 262144, 0.5), float(E_ID))
    t.check("microFastlogScore E_COUNT", c.microFastlogScore(mb, -5, 0, 0.5), float(E_COUNT))
    t.check("microZoneUpdate E_ALIGN (+8)", c.microZoneUpdate(mb + 8, mb + 4096, mb + 8192, 1, 1.0, 1.0, 1.0), E_ALIGN)
    t.check("microZoneUpdate E_COUNT", c.microZoneUpdate(mb, mb + 4096, mb + 8192, -1, 1.0, 1.0, 1.0), E_COUNT)


def row_ptr(c, words_list):
    p = c.alloc(len(words_list) * 8)
    c.write(p, "Q", words_list)
    return p


def check_bitmaps(t, c):
    # 128-atom rows (2 words): A = atoms 60..67 free (a run crossing the word
    # boundary), B = all free, C = none free, D = atoms 4..11 and 64..127 free.
    A = [0xF000000000000000, 0x000000000000000F]
    B = [ALL, ALL]
    C = [0, 0]
    D = [0x0000000000000FF0, ALL]
    tbl = row_ptr(c, A + B + C + D)
    o32 = c.alloc(64)
    o8 = c.alloc(64)
    t.check("bmFreeCount returns count", c.bmFreeCount(tbl, 4, 128, o32), 4)
    t.check("bmFreeCount values", c.read(o32, "i", 4), [8, 128, 0, 72])
    t.check("bmCountAtLeast k=8", (c.bmCountAtLeast(tbl, 4, 128, 8, o8), c.read(o8, "B", 4)), (3, [1, 1, 0, 1]))
    t.check("bmCountAtLeast k=73", (c.bmCountAtLeast(tbl, 4, 128, 73, o8), c.read(o8, "B", 4)), (1, [0, 1, 0, 0]))
    t.check("bmCountAtLeast k=0", (c.bmCountAtLeast(tbl, 4, 128, 0, o8), c.read(o8, "B", 4)), (4, [1, 1, 1, 1]))
    for k, want in ((8, [60, 0, -1, 4]), (4, [60, 0, -1, 4]), (9, [-1, 0, -1, 64]), (64, [-1, 0, -1, 64]),
                    (65, [-1, 0, -1, -1]), (128, [-1, 0, -1, -1]), (0, [0, 0, 0, 0]), (1, [60, 0, -1, 4])):
        n = c.bmFirstRun(tbl, 4, 128, k, o32)
        t.check(f"bmFirstRun k={k}", (n, c.read(o32, "i", 4)), (sum(1 for v in want if v >= 0), want))
    # a sub-range of the table: nodes 2..3
    t.check("bmFirstRun on table + 2 rows", (c.bmFirstRun(tbl + 2 * 16, 2, 128, 8, o32), c.read(o32, "i", 2)),
            (1, [-1, 4]))
    # fits
    for name, demand, want in (("{0,2}", [0b101, 0], [60, 0, -1, 4]),
                               ("empty", [0, 0], [0, 0, 0, 0]),
                               ("{0,127}", [1, 1 << 63], [-1, 0, -1, -1]),
                               ("{0,64}", [1, 1], [-1, 0, -1, 4]),
                               ("{0..7}", [0xFF, 0], [60, 0, -1, 4]),
                               ("{0..8}", [0x1FF, 0], [-1, 0, -1, 64])):
        d = row_ptr(c, demand)
        n = c.bmFitsAt(tbl, 4, 128, d, o32)
        t.check(f"bmFitsAt demand {name}", (n, c.read(o32, "i", 4)), (sum(1 for v in want if v >= 0), want))
    # run masks
    m = c.alloc(16)
    t.check("bmRunMask crossing", (c.bmRunMask(128, 60, 8, m), c.read(m, "Q", 2)), (8, [0xF000000000000000, 0xF]))
    t.check("bmRunMask whole row", (c.bmRunMask(128, 0, 128, m), c.read(m, "Q", 2)), (128, [ALL, ALL]))
    t.check("bmRunMask empty at end", (c.bmRunMask(128, 128, 0, m), c.read(m, "Q", 2)), (0, [0, 0]))
    # take any / take run
    r = row_ptr(c, A)
    t.check("bmTakeAny k=5", (c.bmTakeAny(r, 128, 5, m), c.read(m, "Q", 2), c.read(r, "Q", 2)),
            (5, [0xF000000000000000, 1], [0, 0xE]))
    t.check("bmTakeAny E_NOFIT leaves row", (c.bmTakeAny(r, 128, 4, m), c.read(r, "Q", 2)), (E_NOFIT, [0, 0xE]))
    t.check("bmTakeAny k=3 empties row", (c.bmTakeAny(r, 128, 3, m), c.read(r, "Q", 2)), (3, [0, 0]))
    t.check("bmTakeAny k=0", (c.bmTakeAny(r, 128, 0, m), c.read(m, "Q", 2)), (0, [0, 0]))
    r = row_ptr(c, A)
    t.check("bmTakeRun crossing k=6", (c.bmTakeRun(r, 128, 6, m), c.read(m, "Q", 2), c.read(r, "Q", 2)),
            (60, [0xF000000000000000, 3], [0, 0xC]))
    r = row_ptr(c, D)
    t.check("bmTakeRun k=8", (c.bmTakeRun(r, 128, 8, m), c.read(m, "Q", 2), c.read(r, "Q", 2)),
            (4, [0xFF0, 0], [0, ALL]))
    t.check("bmTakeRun k=64", (c.bmTakeRun(r, 128, 64, m), c.read(r, "Q", 2)), (64, [0, 0]))
    t.check("bmTakeRun E_NOFIT", (c.bmTakeRun(r, 128, 1, m), c.read(r, "Q", 2)), (E_NOFIT, [0, 0]))
    # take / release on a 3-word row (odd word count: the SIMD build's scalar tail)
    r = row_ptr(c, [ALL, 0, ALL])
    mk = row_ptr(c, [1, 0, 1 << 63])
    t.check("bmTake 192 atoms", (c.bmTake(r, 192, mk), c.read(r, "Q", 3)), (2, [ALL - 1, 0, ALL >> 1]))
    t.check("bmTake again: E_CONFLICT, row unchanged", (c.bmTake(r, 192, mk), c.read(r, "Q", 3)),
            (E_CONFLICT, [ALL - 1, 0, ALL >> 1]))
    mk2 = row_ptr(c, [2, 1, 0])
    t.check("bmTake partly taken: E_CONFLICT", (c.bmTake(r, 192, mk2), c.read(r, "Q", 3)),
            (E_CONFLICT, [ALL - 1, 0, ALL >> 1]))
    t.check("bmRelease", (c.bmRelease(r, 192, mk), c.read(r, "Q", 3)), (2, [ALL, 0, ALL]))
    t.check("bmRelease again: E_CONFLICT", (c.bmRelease(r, 192, mk), c.read(r, "Q", 3)), (E_CONFLICT, [ALL, 0, ALL]))
    t.check("bmRelease of word 1", (c.bmRelease(r, 192, mk2), c.read(r, "Q", 3)), (E_CONFLICT, [ALL, 0, ALL]))
    mk3 = row_ptr(c, [0, 0x8000000000000001, 0])
    t.check("bmRelease 2 atoms of word 1", (c.bmRelease(r, 192, mk3), c.read(r, "Q", 3)),
            (2, [ALL, 0x8000000000000001, ALL]))
    # 1024 atoms: a long run 100..400 spanning several words, and 1000..1023
    bits = (((1 << 301) - 1) << 100) | (((1 << 24) - 1) << 1000)
    r = row_ptr(c, [(bits >> (64 * w)) & M64 for w in range(16)])
    t.check("1024 atoms: bmFreeCount", (c.bmFreeCount(r, 1, 1024, o32), c.read(o32, "i", 1)), (1, [325]))
    for k, want in ((1, 100), (64, 100), (200, 100), (301, 100), (302, -1), (24, 100), (1024, -1)):
        c.bmFirstRun(r, 1, 1024, k, o32)
        t.check(f"1024 atoms: bmFirstRun k={k}", c.read(o32, "i", 1), [want])


def check_micro(t, c):
    mb = c.alloc(1048576)
    c.fill(mb, 1048576, 0)
    t.check("microMaskUpdate iters=0 returns the seed", c.microMaskUpdate(mb, 0, 5, 0x12345678), 0x12345678)
    # record 0 zeroed: r = broadcast(dep) & ~0, x = dep ^ dep = 0
    t.check("microMaskUpdate one step on zeros", c.microMaskUpdate(mb, 1, 0, 0xABCDEF), 0)
    t.check("microMaskUpdate wrote r = broadcast(seed)", c.read(mb, "Q", 8), [0xABCDEF] * 4 + [0] * 4)
    sb = c.alloc(1048576)
    c.fill(sb, 1048576, 0)
    t.check("microFastlogScore on zeros", c.microFastlogScore(sb, 1000, 0, 0.5), 0.0)
    # S + 1 = 1024, H + 1 = 512: x = v | 1 = 2^k + 1 has a zero table index, so
    # fast ln = k * ln2 exactly (f32): u = 10 ln2 - 0.5 * (9 ln2)
    c.write(sb, "I", [(511 << 16) | 1023])
    ln2 = f32(0.6931471805599453)
    u = f32(f32(10.0 * ln2) - f32(0.5 * f32(9.0 * ln2)))
    t.check("microFastlogScore S=1023,H=511 one step", c.microFastlogScore(sb, 1, 0, 0.5), float(f32_bits(u)))
    o, h, s = c.alloc(1024, 16), c.alloc(1024, 16), c.alloc(1024, 16)
    c.write(o, "f", [0.0] * 256)
    c.write(h, "f", [2.0] * 256)
    c.write(s, "f", [4.0] * 256)
    t.check("microZoneUpdate returns 0", c.microZoneUpdate(o, h, s, 1, 0.25, 0.5, 0.5), 0)
    t.check("microZoneUpdate O = 0.25*8 + 0.5*4", c.read(o, "f", 256), [4.0] * 256)
    t.check("microZoneUpdate H += eps", c.read(h, "f", 256), [2.5] * 256)


def check_bench_inputs(t, c, native):
    got = bench_checksums(c)
    for k, want in BENCH_CHECKSUMS.items():
        t.check(f"bench inputs: {k} checksum", got.get(k), want)
    if native is None:
        return
    for exe in native:
        try:
            r = subprocess.run([exe, "check", "--check"], capture_output=True, text=True, timeout=60)
            rows = {k["name"]: k["checksum"] for k in json.loads(r.stdout)["kernels"]}
        except (OSError, ValueError, subprocess.SubprocessError) as e:
            t.check(f"native {os.path.basename(exe)} --check runs", str(e), "ok")
            continue
        for k, want in BENCH_CHECKSUMS.items():
            t.check(f"native {os.path.basename(exe)}: {k} checksum", rows.get(k), want)


def field_ptr(c, S, H, dS, dH, stamp):
    p = c.alloc(len(S) * 5 * 4, 16)
    c.write(p, "f", list(S) + list(H) + list(dS) + list(dH) + list(stamp))
    return p


def check_score(t, c):
    t.check("utility(0,0,0.5)", c.utility(0.0, 0.0, 0.5), 0.0)
    t.check("utility(1,0,0.5) = log2 2", c.utility(1.0, 0.0, 0.5), 1.0)
    t.check("utility(3,1,0.5) = 2 - 0.5", c.utility(3.0, 1.0, 0.5), 1.5)
    t.check("utility(7,3,1) = 3 - 2", c.utility(7.0, 3.0, 1.0), 1.0)
    t.near("utility(2,0,0) ~ log2 3", c.utility(2.0, 0.0, 0.0), math.log2(3), 3e-5)
    t.near("utility(1000,10,0.5)", c.utility(1000.0, 10.0, 0.5), math.log2(1001) - 0.5 * math.log2(11), 6e-5)

    # 4 nodes, 64 atoms: node0 none free, node1 atoms 0..7 free, node2 every
    # other atom (32 free, no run of 2), node3 all free. Age 0 everywhere:
    # U = log2(1+S) - 0.5 log2(1+H) = [0, 3, 2, 3].
    tbl = row_ptr(c, [0, 0xFF, 0x5555555555555555, ALL])
    now = 100.0
    S, H = [0.0, 7.0, 3.0, 63.0], [0.0, 0.0, 0.0, 63.0]
    field = field_ptr(c, S, H, [0.0] * 4, [0.0] * 4, [now] * 4)
    cand = c.alloc(64)
    noise = c.alloc(64)

    def sc(cands, m, contiguous, noise_v=None, fld=field, n_now=now, degrade=500.0, node_count=4):
        c.write(cand, "i", cands)
        c.write(noise, "f", noise_v or [0.0] * len(cands))
        return c.scoreCandidates(fld, node_count, tbl, 64, cand, len(cands), n_now, m, contiguous, 0.5, degrade, noise)

    t.check("scoreCandidates tie -> lowest index", sc([3, 1, 2, 0], 4, 0), 0)
    t.check("scoreCandidates tie, other order", sc([1, 3, 2, 0], 4, 0), 0)
    t.check("scoreCandidates contiguous m=9 skips node1", sc([1, 2, 3], 9, 1), 2)
    t.check("scoreCandidates contiguous m=2 skips node2", sc([2, 0, 1], 2, 1), 2)
    t.check("scoreCandidates count m=2 takes node2", sc([2, 0], 2, 0), 0)
    t.check("scoreCandidates noise breaks the tie", sc([3, 1, 2, 0], 4, 0, [0.0, 0.25, 0.0, 0.0]), 1)
    t.check("scoreCandidates only node3 has 33 free", sc([1, 2, 0, 3], 33, 0), 3)
    t.check("scoreCandidates E_NOFIT", sc([1, 2, 0], 33, 0), E_NOFIT)
    t.check("scoreCandidates n=0 -> E_NOFIT", sc([], 1, 0), E_NOFIT)
    t.check("scoreCandidates m=0 node0 placable", sc([0], 0, 0), 0)
    # projection and long-degrade
    fld2 = field_ptr(c, S, H, [0.0, -1.0, 0.0625, 0.0], [0.0] * 4, [now, now - 100.0, now - 80.0, now - 600.0])
    # node1: S_pred = max(0, 7 - 100) = 0 -> U 0; node2: 3 + 80/16 = 8 -> U log2 9; node3 degraded
    t.check("scoreCandidates projection picks node2", sc([3, 1, 2], 4, 0, fld=fld2), 2)
    t.check("scoreCandidates projected S < 0 gives U 0 (tie with node0)", sc([0, 1], 0, 0, [0.0, 0.0], fld=fld2), 0)
    t.check("scoreCandidates projected S < 0: noise decides", sc([0, 1], 0, 0, [0.0, 1e-3], fld=fld2), 1)
    t.check("scoreCandidates degraded node never placable", sc([3], 0, 0, fld=fld2), E_NOFIT)
    t.check("scoreCandidates degradeAge 600 keeps node3", sc([3], 0, 0, fld=fld2, degrade=600.0), 0)
    # errors
    t.check("scoreCandidates E_ID (node 4 of 4)", sc([0, 4], 1, 0), E_ID)
    t.check("scoreCandidates E_ID (negative)", sc([-1], 1, 0), E_ID)
    t.check("scoreCandidates E_ARG contiguous=2", sc([1], 1, 2), E_ARG)
    t.check("scoreCandidates E_ARG now=NaN", sc([1], 1, 0, n_now=float("nan")), E_ARG)
    t.check("scoreCandidates E_K m=65", sc([1], 65, 0), E_K)
    t.check("scoreCandidates E_COUNT nodeCount=-1", sc([1], 1, 0, node_count=-1), E_COUNT)

    # probeCandidates: sampling with the caller's xoshiro128** stream, then scoreCandidates' choice
    def sample(st, nz, k):
        out, bits, have, reject = [], 0, 0, 65536 % nz
        while len(out) < k:
            if have == 0:
                bits, have = xoshiro(st), 2
            u = bits >> 16 if have == 2 else bits & 0xFFFF
            have -= 1
            p = u * nz
            if (p & 0xFFFF) < reject or (p >> 16) in out:
                continue
            out.append(p >> 16)
        return out

    rng, zig, seen = c.alloc(32), c.alloc(1536), c.alloc(16)
    c.write(zig, "I", [0] * 384)
    c.write(seen, "I", [0] * 4)

    def probe(k, sigma=0.0, state=(1, 2, 3, 4), start=0, node_count=4):
        c.write(rng, "i", list(state) + [0, 0])
        return c.probeCandidates(field, node_count, tbl, 64, k, now, 4, 0, 0.5, 500.0, sigma, rng, zig, seen, cand, noise, start)

    t.check("probeCandidates k = nodeCount: every node in order, no draw",
            (probe(4), c.read(cand, "i", 4), c.read(rng, "i", 4)), (sc([0, 1, 2, 3], 4, 0), [0, 1, 2, 3], [1, 2, 3, 4]))
    want_st = [1, 2, 3, 4]
    want = sample(want_st, 4, 2)
    r = probe(2)
    got = c.read(cand, "i", 2)
    t.check("probeCandidates samples as documented (two 16-bit halves a word, Lemire's rule)", got, want)
    t.check("probeCandidates moves the stream", [x & M32 for x in c.read(rng, "i", 4)], want_st)
    t.check("probeCandidates chooses as scoreCandidates", r, sc(got, 4, 0))
    t.check("probeCandidates leaves seen clear", c.read(seen, "I", 4), [0, 0, 0, 0])
    # with KN all 0, every draw is off the fast path: the host finishes it (E_DEFER)
    st = [5, 6, 7, 8]
    sample(st, 4, 2)
    hz = xoshiro(st)
    r = probe(2, sigma=0.5, state=(5, 6, 7, 8))
    t.check("probeCandidates E_DEFER: candidate 0, its word, the stream after it",
            (r, c.read(rng, "i", 6)[4:], [x & M32 for x in c.read(rng, "i", 4)]),
            (E_DEFER, [0, hz - (1 << 32) if hz >= 1 << 31 else hz], st))
    t.check("probeCandidates E_ARG all-zero stream", probe(2, state=(0, 0, 0, 0)), E_ARG)
    t.check("probeCandidates E_ARG k > nodeCount", probe(5), E_ARG)
    t.check("probeCandidates E_ARG start > k", probe(2, start=3), E_ARG)
    t.check("probeCandidates E_ARG sigma < 0", probe(2, sigma=-1.0), E_ARG)
    c.write(seen, "I", [1, 0, 0, 0])
    t.check("probeCandidates E_ARG seen not clear", probe(2), E_ARG)
    c.write(seen, "I", [0] * 4)

    # zoneAggregate: 13 nodes, zones [0,2) [2,2) [2,6) [6,13)
    now = 1000.0
    S = [1.0, 3.0, 2.0, 4.0, 6.0, 8.0] + [1.0] * 7
    H = [1.0, 2.0, 0.0, 1.0, 2.0, 3.0] + [0.5] * 7
    dH = [0.0] * 13
    dH[4] = -1.0
    stamp = [now] * 13
    stamp[4] = now - 10.0   # H_pred = max(0, 2 - 10) = 0
    stamp[5] = now - 600.0  # degraded: S_pred = 0, H_pred = 3 + 8
    fld = field_ptr(c, S, H, [0.0] * 13, dH, stamp)
    off = c.alloc(32)
    c.write(off, "i", [0, 2, 2, 6, 13])
    sl, he = c.alloc(16), c.alloc(16)
    t.check("zoneAggregate returns zones", c.zoneAggregate(fld, 13, off, 4, now, 500.0, 8.0, sl, he), 4)
    t.check("zoneAggregate mean slack", c.read(sl, "f", 4), [2.0, 0.0, 3.0, 1.0])
    t.check("zoneAggregate total heat", c.read(he, "f", 4), [3.0, 0.0, 12.0, 3.5])
    c.write(off, "i", [0, 2, 1, 6, 13])
    c.write(sl, "f", [-1.0] * 4)
    t.check("zoneAggregate decreasing offsets -> E_ID", c.zoneAggregate(fld, 13, off, 4, now, 500.0, 8.0, sl, he), E_ID)
    t.check("zoneAggregate no write on error", c.read(sl, "f", 4), [-1.0] * 4)
    c.write(off, "i", [0, 2, 2, 6, 14])
    t.check("zoneAggregate offset > nodeCount -> E_ID", c.zoneAggregate(fld, 13, off, 4, now, 500.0, 8.0, sl, he), E_ID)
    t.check("zoneAggregate zones=0", c.zoneAggregate(fld, 13, off, 0, now, 500.0, 8.0, sl, he), 0)
    c.write(off, "i", [14])
    t.check("zoneAggregate zones=0, offsets[0] > nodeCount -> E_ID", c.zoneAggregate(fld, 13, off, 0, now, 500.0, 8.0, sl, he), E_ID)
    c.write(off, "i", [13])
    t.check("zoneAggregate zones=0, offsets[0] = nodeCount", c.zoneAggregate(fld, 13, off, 0, now, 500.0, 8.0, sl, he), 0)
    t.check("zoneAggregate E_ARG NaN", c.zoneAggregate(fld, 13, off, 1, float("nan"), 500.0, 8.0, sl, he), E_ARG)

    # tegWeights: U = [2, 1, 0] (slack 3, 1, 0; heat 0), tau 1 -> w = 1, 1/2, 1/4
    sl, he, cum = c.alloc(16), c.alloc(16), c.alloc(32)
    c.write(sl, "f", [3.0, 1.0, 0.0])
    c.write(he, "f", [0.0, 0.0, 0.0])
    t.check("tegWeights returns zones", c.tegWeights(sl, he, 3, 0.5, 1.0, cum), 3)
    t.check("tegWeights tau=1 running sum", c.read(cum, "d", 3), [1.0, 1.5, 1.75])
    c.tegWeights(sl, he, 3, 0.5, 2.0, cum)
    got = c.read(cum, "d", 3)
    t.check("tegWeights tau=2 ~ [1, 1+2^-0.5, +0.5]",
            all(abs(a - b) < 2e-5 for a, b in zip(got, [1.0, 1.0 + 2 ** -0.5, 1.5 + 2 ** -0.5])))
    c.write(he, "f", [7.0, 0.0, 0.0])  # U = [2 - 1.5, 1, 0] with gamma 0.5 -> max is zone 1
    c.tegWeights(sl, he, 3, 0.5, 1.0, cum)
    w0 = f32(2 ** 0.5) / 2  # 2^-0.5 from the exp2 table: f32(sqrt 2) * 2^-1
    t.check("tegWeights max U in the middle", c.read(cum, "d", 3), [w0, w0 + 1.0, w0 + 1.5])
    c.write(cum, "d", [-1.0] * 3)
    t.check("tegWeights E_ARG tau=0", c.tegWeights(sl, he, 3, 0.5, 0.0, cum), E_ARG)
    t.check("tegWeights E_ARG tau=NaN", c.tegWeights(sl, he, 3, 0.5, float("nan"), cum), E_ARG)
    t.check("tegWeights E_COUNT zones=0", c.tegWeights(sl, he, 0, 0.5, 1.0, cum), E_COUNT)
    t.check("tegWeights E_ALIGN outCum+4", c.tegWeights(sl, he, 3, 0.5, 1.0, cum + 4), E_ALIGN)
    t.check("tegWeights no write on error", c.read(cum, "d", 3), [-1.0] * 3)

    # tegSample: cum [1, 2, 4] (weights 1, 1, 2); t = u * 4; first z with cum > t
    us = [0.0, 0.2, 0.25, 0.3, 0.5, 0.75, 0.999]
    cum = c.alloc(32)
    c.write(cum, "d", [1.0, 2.0, 4.0])
    up, outp = c.alloc(8 * len(us)), c.alloc(4 * len(us))
    c.write(up, "d", us)
    t.check("tegSample returns n", c.tegSample(cum, 3, up, len(us), outp), len(us))
    t.check("tegSample picks (strict >)", c.read(outp, "i", len(us)), [0, 0, 1, 1, 2, 2, 2])
    c.write(cum, "d", [1.0, 1.0, 2.0])  # zone 1 has weight 0: never drawn
    c.write(up, "d", [0.5, 0.499])
    c.tegSample(cum, 3, up, 2, outp)
    t.check("tegSample skips a zero-weight zone", c.read(outp, "i", 2), [2, 0])
    c.write(up, "d", [0.5, 0.1, 1.0])
    c.write(outp, "i", [-5, -5, -5])
    t.check("tegSample E_ARG u=1", c.tegSample(cum, 3, up, 3, outp), E_ARG)
    t.check("tegSample no write on error", c.read(outp, "i", 3), [-5, -5, -5])
    c.write(up, "d", [float("nan")])
    t.check("tegSample E_ARG u=NaN", c.tegSample(cum, 3, up, 1, outp), E_ARG)
    c.write(up, "d", [-0.25])
    t.check("tegSample E_ARG u<0", c.tegSample(cum, 3, up, 1, outp), E_ARG)
    t.check("tegSample E_COUNT zones=0", c.tegSample(cum, 0, up, 1, outp), E_COUNT)


def check_wheel(t, c):
    names = [n for n in c.export_names if n.startswith("wheel")]
    if not names:
        print("(no wheel* exports in this build: wheel checks skipped)")
        return
    t.check("wheelBytes(0)", c.wheelBytes(0), 1616)
    t.check("wheelBytes(10) = 1616 + 20 * 10", c.wheelBytes(10), 1816)
    t.check("wheelBytes(-1) E_COUNT", c.wheelBytes(-1), E_COUNT)
    t.check("wheelBytes(2^26 + 1) E_COUNT", c.wheelBytes((1 << 26) + 1), E_COUNT)
    w = c.alloc(c.wheelBytes(8), 8)
    out = c.alloc(64)
    t.check("wheelSchedule on an uninitialised region: E_ARG", c.wheelSchedule(w, 0, 5.0), E_ARG)
    t.check("wheelNextDeadline(0): E_NULL", c.wheelNextDeadline(0), float(E_NULL))
    t.check("wheelInit now=NaN: E_ARG", c.wheelInit(w, 8, float("nan")), E_ARG)
    t.check("wheelInit misaligned: E_ALIGN", c.wheelInit(w + 4, 8, 0.0), E_ALIGN)
    t.check("wheelInit", c.wheelInit(w, 8, 100.0), 0)
    t.check("wheelNow", c.wheelNow(w), 100.0)
    t.check("wheelPending empty", c.wheelPending(w), 0)
    t.check("wheelNextDeadline empty -> +Infinity", c.wheelNextDeadline(w), math.inf)
    t.check("wheelSchedule id 3 at 150", c.wheelSchedule(w, 3, 150.0), 0)
    t.check("wheelSchedule id 5 at 150", c.wheelSchedule(w, 5, 150.0), 0)
    t.check("wheelSchedule id 1 at 164", c.wheelSchedule(w, 1, 164.0), 0)
    t.check("wheelSchedule already due -> 1", c.wheelSchedule(w, 2, 100.0), 1)
    t.check("wheelSchedule twice -> E_CONFLICT", c.wheelSchedule(w, 3, 200.0), E_CONFLICT)
    t.check("wheelSchedule id 8 of 8 -> E_ID", c.wheelSchedule(w, 8, 200.0), E_ID)
    t.check("wheelSchedule fractional tick -> E_ARG", c.wheelSchedule(w, 0, 150.5), E_ARG)
    t.check("wheelSchedule beyond horizon -> E_HORIZON", c.wheelSchedule(w, 0, 100.0 + 2 ** 36), E_HORIZON)
    t.check("wheelSchedule at the horizon", c.wheelSchedule(w, 0, 100.0 + 2 ** 36 - 1), 0)
    t.check("wheelPending 4", c.wheelPending(w), 4)
    t.check("wheelNextDeadline 150", c.wheelNextDeadline(w), 150.0)
    t.check("wheelDeadlineOf(1)", c.wheelDeadlineOf(w, 1), 164.0)
    t.check("wheelDeadlineOf(2) not scheduled -> +Infinity", c.wheelDeadlineOf(w, 2), math.inf)
    t.check("wheelDeadlineOf(9) E_ID", c.wheelDeadlineOf(w, 9), float(E_ID))
    t.check("wheelAdvance to 149: nothing due", (c.wheelAdvance(w, 149.0, out, 8), c.wheelNow(w)), (0, 149.0))
    n = c.wheelAdvance(w, 160.0, out, 8)
    t.check("wheelAdvance to 160 fires ids 3, 5", (n, c.read(out, "i", n), c.wheelNow(w)), (2, [3, 5], 160.0))
    n = c.wheelAdvance(w, 170.0, out, 8)
    t.check("wheelAdvance to 170 fires id 1", (n, c.read(out, "i", n)), (1, [1]))
    t.check("wheelAdvance backwards -> E_ARG", c.wheelAdvance(w, 169.0, out, 8), E_ARG)
    t.check("wheelAdvance out inside the region -> E_ARG", c.wheelAdvance(w, 170.0, w + 1600, 2), E_ARG)
    t.check("wheelAdvance outCap -1 -> E_COUNT", c.wheelAdvance(w, 170.0, out, -1), E_COUNT)
    for i in (7, 4, 6):
        c.wheelSchedule(w, i, 300.0)
    n = c.wheelAdvance(w, 400.0, out, 2)
    t.check("wheelAdvance with room for 2 of 3: smallest ids, time stops at 300",
            (n, c.read(out, "i", n), c.wheelNow(w)), (2, [4, 6], 300.0))
    n = c.wheelAdvance(w, 400.0, out, 2)
    t.check("wheelAdvance continues: id 7, time 400", (n, c.read(out, "i", n), c.wheelNow(w)), (1, [7], 400.0))
    t.check("wheelSchedule id 2 at 5400 (level 2)", c.wheelSchedule(w, 2, 5400.0), 0)
    t.check("wheelAdvance to 5399: not yet", c.wheelAdvance(w, 5399.0, out, 8), 0)
    n = c.wheelAdvance(w, 5400.0, out, 8)
    t.check("wheelAdvance to 5400 after cascading", (n, c.read(out, "i", n)), (1, [2]))
    t.check("wheelReschedule id 1 to 6000", c.wheelReschedule(w, 1, 6000.0), 0)
    t.check("wheelReschedule id 1 to 5500", c.wheelReschedule(w, 1, 5500.0), 0)
    t.check("wheelDeadlineOf(1) after reschedule", c.wheelDeadlineOf(w, 1), 5500.0)
    t.check("wheelReschedule id 1 to now -> 1 (cancelled, caller fires)", c.wheelReschedule(w, 1, 5400.0), 1)
    t.check("wheelDeadlineOf(1) after due reschedule -> +Infinity", c.wheelDeadlineOf(w, 1), math.inf)
    t.check("wheelPending: only id 0 left", c.wheelPending(w), 1)
    t.check("wheelCancel id 0", c.wheelCancel(w, 0), 1)
    t.check("wheelCancel id 0 again", c.wheelCancel(w, 0), 0)
    t.check("wheelPending 0", c.wheelPending(w), 0)
    t.check("wheelNextDeadline at the end -> +Infinity", c.wheelNextDeadline(w), math.inf)


HEADER = os.path.join(ROOT, "docs", "laminar_core.h")
C_TO_WASM = {"laminar_ptr": "i32", "int32_t": "i32", "uint32_t": "i32", "float": "f32", "double": "f64"}


def check_memory(t, c):
    # one runtime-memory tick with noise and bursts off, so every value is known
    t.check("memRecordBytes", c.memRecordBytes(), 48)
    recs, base, use, out = c.alloc(96, 8), c.alloc(16, 8), c.alloc(16, 8), c.alloc(16)
    c.write(recs, "d", [0, 1, 3, 1, 0, 7, 1, 2, 2, 2, 0, 9])
    c.write(base, "d", [0, 1048576])
    t.check("memTick: one node over 2.5e6 KiB", c.memTick(recs, 2, 2, base, use, 0.0, 1.0, 0.5, 0.0, 0.0, 0.25, 2500000.0, out, 2), 1)
    t.check("memTick: it is node 1", c.read(out, "i", 1), [1])
    t.check("memTick: drift and use", (c.read(recs + 24, "d", 1), c.read(use, "d", 2)), ([2.0], [2097152.0, 3145728.0]))
    t.check("memTick: fractional tick -> E_ARG", c.memTick(recs, 2, 2, base, use, 1.5, 1.0, 0.5, 0.0, 0.0, 0.25, 0.0, out, 2), E_ARG)
    t.check("memTick: a record on node 2 of 2 -> E_ID", c.memTick(recs, 2, 1, base, use, 0.0, 1.0, 0.5, 0.0, 0.0, 0.25, 0.0, out, 2), E_ID)
    t.check("memTick: base over the records (written) -> E_ARG",
            c.memTick(recs, 2, 2, recs + 16, use, 0.0, 1.0, 0.5, 0.0, 0.0, 0.25, 0.0, out, 2), E_ARG)
    t.check("memTick: usage over its own block -> E_ARG",
            c.memTick(recs, 2, 2, base, c.block, 0.0, 1.0, 0.5, 0.0, 0.0, 0.25, 0.0, out, 2), E_ARG)


def check_blocks(t, c):
    """The block pointer itself: its codes, and a call never writes its block."""
    hb = c.heapBase()
    for name in BLOCKS:
        t.check(f"{name}: null block -> E_NULL", c.call(name, 0), E_NULL)
        t.check(f"{name}: block in static data -> E_NULL", c.call(name, hb - 8), E_NULL)
        t.check(f"{name}: block at +4 -> E_ALIGN", c.call(name, c.block + 4), E_ALIGN)
        t.check(f"{name}: block past memory -> E_BOUNDS", c.call(name, c.size() - 8), E_BOUNDS)
    # a successful call leaves its block as it was
    fld, offs, out = c.alloc(5 * 4 * 4), c.alloc(8), c.alloc(8)
    c.write(offs, "i", [0, 4])
    b = c.alloc(40, 8)
    c.write_block("zoneAggregate", b, fld, 4, offs, 1, 0.0, 500.0, 8.0, out, out + 4)
    before = c.read(b, "B", 40)
    t.check("zoneAggregate through a block at another address", c.call("zoneAggregate", b), 1)
    t.check("zoneAggregate leaves its block unchanged", c.read(b, "B", 40), before)


ZONE_SCRIPT = os.path.join(ROOT, "test", "embed", "zone-script.txt")
ZONE_EXPECTED = os.path.join(ROOT, "test", "embed", "zone-script.expected")
ZONE_SCRIPT_MEM = os.path.join(ROOT, "test", "embed", "zone-script-mem.txt")
ZONE_EXPECTED_MEM = os.path.join(ROOT, "test", "embed", "zone-script-mem.expected")
ZONE_SCRIPT_AIRLOCK = os.path.join(ROOT, "test", "embed", "zone-script-airlock.txt")
ZONE_EXPECTED_AIRLOCK = os.path.join(ROOT, "test", "embed", "zone-script-airlock.expected")


def fmt_num(v):
    """A transcript number: an integer up to 2^53 in decimal, anything else as 0x and its f64 bits."""
    if math.isfinite(v) and v == math.floor(v) and abs(v) <= 2.0 ** 53:
        return str(int(v))
    return "0x%016x" % struct.unpack("<Q", struct.pack("<d", v))[0]


def parse_zone_script(path):
    """A zone script: parameters (field, type, value), streams (field, words), the memory model's, the end, batches of emissions."""
    params, streams, mparams, mstreams, batches, end = [], [], [], [], [], None
    with open(path) as fh:
        for line in fh:
            t = line.split()
            if not t or t[0].startswith("#"):
                continue
            if t[0] == "param":
                params.append((int(t[1]), t[2], float(t[3])))
            elif t[0] == "stream":
                streams.append((int(t[1]), [int(w) for w in t[2:6]]))
            elif t[0] == "mparam":
                mparams.append((int(t[1]), t[2], float(t[3])))
            elif t[0] == "mstream":
                mstreams.append((int(t[1]), [int(w) for w in t[2:6]]))
            elif t[0] == "end":
                end = float(t[1])
            elif t[0] == "emit":
                e = [int(v) for v in t[1:12]]
                if not batches or batches[-1][0] != e[0]:
                    batches.append((e[0], []))
                batches[-1][1].append(e)
            else:
                raise ValueError("zone script: unknown line %r" % line)
    return params, streams, mparams, mstreams, end, batches


def run_zone_script(c, path=ZONE_SCRIPT):
    """The driver of the zone script's header on one core instance: returns the transcript's lines."""
    params, streams, mparams, mstreams, end, batches = parse_zone_script(path)
    NOW, HOST_KIND, HOST_SUBJECT, HOP, DELTA, DEADLINE = 0, 5, 6, 9, 10, 13
    ATOMS, NODES, ZONES, OFFSETS, BITMAPS, OUTBOX, OUT_N = 37, 39, 40, 46, 47, 83, 84
    COUNTERS = [100, 103, 110, 111, 118] + list(range(120, 128))
    block = c.alloc(c.engineBlockBytes(), 16)
    c.fill(block, c.engineBlockBytes(), 0)

    def getf(i):
        return c.read(block + 8 * i, "d", 1)[0]

    def geti(i):
        return c.read(block + 8 * i, "i", 1)[0]

    def setf(i, v):
        c.write(block + 8 * i, "d", [v])

    def seti(i, v):
        c.write(block + 8 * i, "i", [int(v)])

    def ok(r, what):
        if r < 0:
            raise RuntimeError("%s returned %s" % (what, r))
        return r

    for field, typ, value in params:
        (seti if typ == "i" else setf)(field, value)
    nodes, row_bytes = geti(NODES), geti(ATOMS) // 8
    if geti(ZONES) != 1:
        raise RuntimeError("zone script: one Zone expected")
    offsets = c.alloc(8, 8)
    c.write(offsets, "i", [0, nodes])
    seti(OFFSETS, offsets)
    bitmaps = c.alloc(nodes * row_bytes, 16)
    c.fill(bitmaps, nodes * row_bytes, 0xFF)
    seti(BITMAPS, bitmaps)
    for field, words in streams:
        p = c.alloc(32, 16)
        c.fill(p, 32, 0)
        c.write(p, "I", words)
        seti(field, p)
    # the memory model: the extension block (512 bytes) at block field 95, its parameters and its stream
    memory = len(mparams) > 0
    memx = 0
    if memory:
        memx = c.alloc(512, 16)
        c.fill(memx, 512, 0)
        for field, typ, value in mparams:
            c.write(memx + 8 * field, "i" if typ == "i" else "d", [int(value) if typ == "i" else value])
        for field, words in mstreams:
            p = c.alloc(32, 16)
            c.fill(p, 32, 0)
            c.write(p, "I", words)
            c.write(memx + 8 * field, "i", [p])
        seti(95, memx)
    stride = 80 if memory else 64
    nbytes = ok(c.engineBytes(block), "engineBytes")
    ok(c.engineInit(block, c.alloc(int(nbytes), 16), nbytes), "engineInit")
    ok(c.engineTrace(block, 1), "engineTrace")
    emit_at = c.alloc(stride * max(len(b[1]) for b in batches), 8)

    def grow():
        need = ok(c.engineRoomBytes(block), "engineRoomBytes")
        ok(c.engineGrow(block, c.alloc(int(need), 16), need), "engineGrow")

    def with_room(what, call):
        """A call that may ask for room (E_FULL): grow, then call again."""
        while True:
            r = call()
            if r == OK:
                return
            if r != E_FULL:
                raise RuntimeError("%s returned %d" % (what, r))
            grow()

    def post(delay, kind, subject):
        with_room("enginePost(%r, %d, %d)" % (delay, kind, subject), lambda: c.enginePost(block, float(delay), kind, subject))

    def emit(es, what, time=None, node=None, flags=0):
        """Emission records for script lines es (emission time, node and flags as given, else the line's), then engineEmit."""
        buf = b"".join(struct.pack("<iiiiddddd Ii", e[1], e[2] if node is None else node, e[3], e[4],
                                   float(e[0] if time is None else time), float(e[5]), float(e[6]),
                                   float(e[7]), float(e[8]), e[9], flags)
                       + (struct.pack("<d", float(e[10])) + bytes(8) if memory else b"") for e in es)
        c.memory.write(c.store, buf, emit_at)
        with_room("engineEmit of %s" % what, lambda: c.engineEmit(block, emit_at, len(es)))

    arrival = {e[1]: e[5] for _, es in batches for e in es}
    started = set()
    # Airlock's gateway side: each task's first emission line, its image's Zone, the records posted for delivery
    # (by their index among all records read) and the list L of the probes' end of hope (delivery time, task)
    airlock = memory and c.read(memx + 8 * 16, "i", 1)[0] != 0
    first, home, posted, L = {}, {}, {}, []
    for _, es in batches:
        for e in es:
            first.setdefault(e[1], e)
    nrec, nsec = 0, 0

    def task_state(task, h, awaiting):
        with_room("engineTaskState", lambda: c.engineTaskState(block, task, h, awaiting))

    def deliver(i):
        nonlocal nsec
        f = posted.pop(i)
        now = getf(NOW)
        if f[2] == 4:  # reactivate task a: its image is in the record's source Zone
            task = int(f[4])
            home[task] = int(f[1])
            task_state(task, int(f[1]), 1)
            emit([first[task]], "the secondary probe of task %d" % task, now, (task * 7 + nsec) % nodes, 2)
            nsec += 1
        elif f[2] == 7:  # a landing request for Zone dest
            with_room("engineLandRequest", lambda: c.engineLandRequest(block, int(f[3]), int(f[4]), int(f[5]), int(f[6]), f[7]))
        else:  # the answer to probe a
            task = c.read(geti(71) + 64 * int(f[4]) + 52, "i", 1)[0]
            st = 1 if task in started else 0
            with_room("engineLandAnswer", lambda: c.engineLandAnswer(block, int(f[4]), int(f[5]), f[6], f[7], f[8], f[9], st))
    hop, delta, deadline = getf(HOP), getf(DELTA), getf(DEADLINE)
    out, nxt, w = [], 0, 0.0
    if memory:
        post(c.read(memx, "d", 1)[0], 18, 0)  # the first runtime tick; the engine posts the next ones
    while w < end:
        w_end = w + delta
        while nxt < len(batches) and batches[nxt][0] < w_end:
            post(batches[nxt][0] - getf(NOW), 3, nxt)
            nxt += 1
        while True:
            r = c.engineRun(block, w_end, L[0][0] if L else math.inf)
            if r == 0:
                break
            if r == 1 and geti(HOST_KIND) == 3:
                b = geti(HOST_SUBJECT)
                emit(batches[b][1], "batch %d" % b)
            elif r == 1 and airlock and geti(HOST_KIND) == 20:
                deliver(geti(HOST_SUBJECT))
            elif r == 1:
                raise RuntimeError("host event of kind %d" % geti(HOST_KIND))
            elif r == 2:
                while L and L[0][0] <= getf(NOW):  # the probes' end of hope delivered by now, in order
                    _, task = L.pop(0)
                    task_state(task, home.get(task, 0), 0)
            elif r == E_FULL:
                grow()
            else:
                raise RuntimeError("engineRun returned %d at %r ns" % (r, getf(NOW)))
        n, box = geti(OUT_N), geti(OUTBOX)
        recs = c.read(box, "d", 10 * n) if n else []
        for i in range(n):
            f = recs[10 * i:10 * i + 10]
            out.append(" ".join(fmt_num(v) for v in f))
            index = nrec
            nrec += 1
            if airlock and f[2] in (4, 7, 8):
                posted[index] = f
                post(f[0] - w_end, 20, index)
            elif airlock and ((f[2] == 2 and int(f[5]) & 2) or f[2] == 5):
                L.append((f[0], int(f[4])))
            if f[2] != 3:
                continue
            task, d = int(f[4]), int(f[5])
            at = f[0] + hop - delta + f[7]
            if task in started:
                v = 2
            elif at < arrival[task] + deadline:
                v = 1
                started.add(task)
            else:
                v = 3
            ok(c.engineSetVerdict(block, d, v), "engineSetVerdict")
            post(at - w_end, 7, d)
        seti(OUT_N, 0)
        w = w_end
    out.append(" ".join(["counters"] + [fmt_num(getf(i)) for i in COUNTERS]))
    if memory:
        out.append(" ".join(["memory"] + [fmt_num(v) for v in c.read(memx + 8 * 48, "d", 2)]))
    if airlock:
        out.append(" ".join(["airlock"] + [fmt_num(v) for v in c.read(memx + 8 * 50, "d", 8)]))
    tr = c.alloc(16, 8)
    ok(c.engineTraceState(block, tr), "engineTraceState")
    lanes, events = c.read(tr, "i", 2), c.read(tr + 8, "d", 1)[0]
    out.append(" ".join(["trace", fmt_num(float(lanes[0])), fmt_num(float(lanes[1])), fmt_num(events)]))
    return out


def check_zone_script(t, c, script=ZONE_SCRIPT, expected=ZONE_EXPECTED, name="zone script"):
    """The Zone engine driven through a zone script prints its .expected (Node's transcript), line for line."""
    with open(expected) as fh:
        want = fh.read().splitlines()
    got = run_zone_script(c, script)
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            t.check("%s: transcript line %d" % (name, i + 1), g, w)
            return
        t.passed += 1
    t.check("%s: transcript length" % name, len(got), len(want))


def parse_header_exports(text):
    """X(ret, name, (params)) entries of LAMINAR_CORE_EXPORTS in docs/laminar_core.h."""
    start = text.index("#define LAMINAR_CORE_EXPORTS(X)")
    end = text.index("#ifndef LAMINAR_NO_PROTOTYPES")
    body = text[start:end].replace("\\\n", " ")
    out = {}
    for m in re.finditer(r"X\(\s*(\w+)\s*,\s*(\w+)\s*,\s*\(([^)]*)\)\s*\)", body):
        ret, name, params = m.group(1), m.group(2), m.group(3).strip()
        types = [] if params in ("", "void") else [p.strip().rsplit(" ", 1)[0].strip() for p in params.split(",")]
        out[name] = (ret, types)
    return out


def check_header(t, c):
    """docs/laminar_core.h agrees with the module: every export, its wasm signature, the constants."""
    from wasmtime import FuncType
    try:
        text = open(HEADER).read()
    except OSError as e:
        t.check("docs/laminar_core.h readable", str(e), "ok")
        return
    decl = parse_header_exports(text)
    funcs = {e.name: e.type for e in c.module.exports if isinstance(e.type, FuncType)}
    t.check("header: every function export declared", sorted(set(funcs) - set(decl)), [])
    t.check("header: no declaration without an export", sorted(set(decl) - set(funcs)), [])
    for name in sorted(set(decl) & set(funcs)):
        ret, params = decl[name]
        want = ([C_TO_WASM.get(p, p) for p in params], [C_TO_WASM.get(ret, ret)])
        ft = funcs[name]
        got = ([str(v) for v in ft.params], [str(v) for v in ft.results])
        t.check(f"header: declared signature of {name} (got: header, want: module)", want, got)
    enum = dict((k, int(v)) for k, v in re.findall(r"LAMINAR_(E_\w+|OK)\s*=\s*(-?\d+)", text))
    want_codes = dict(OK=OK, E_NULL=E_NULL, E_BOUNDS=E_BOUNDS, E_ALIGN=E_ALIGN, E_ATOMS=E_ATOMS, E_COUNT=E_COUNT,
                      E_K=E_K, E_CONFLICT=E_CONFLICT, E_FULL=E_FULL, E_ID=E_ID, E_HORIZON=E_HORIZON, E_ARG=E_ARG,
                      E_NOFIT=E_NOFIT, E_DEFER=E_DEFER)
    t.check("header: status codes", enum, want_codes)

    def define(name):
        m = re.search(r"#define " + name + r"\s+\(?(-?[0-9.]+)u?", text)
        return float(m.group(1)) if m else None

    t.check("header: LAMINAR_ABI_VERSION", define("LAMINAR_ABI_VERSION"), float(c.abiVersion()))
    t.check("header: LAMINAR_BLOCK_ALIGN", define("LAMINAR_BLOCK_ALIGN"), 8.0)
    for name, (kind, nbytes, fields) in BLOCKS.items():
        t.check(f"header: LAMINAR_{kind}_BLOCK_BYTES", define(f"LAMINAR_{kind}_BLOCK_BYTES"), float(nbytes))
        for field, off, _ in fields:
            snake = re.sub(r"([a-z])([A-Z])", r"\1_\2", field).upper()
            # the probe block's first 48 bytes are the choice block (its k is the choice block's n)
            prefix = "CHOICE" if kind == "PROBE" and off < 48 else kind
            t.check(f"header: {name} field {field} at byte {off}", define(f"LAMINAR_{prefix}_OFF_{snake}"), float(off))
    t.check("header: LAMINAR_MICRO_MASK_BYTES", define("LAMINAR_MICRO_MASK_BYTES"), float(c.microMaskBytes()))
    t.check("header: LAMINAR_MICRO_SCORE_BYTES", define("LAMINAR_MICRO_SCORE_BYTES"), float(c.microScoreBytes()))
    if "wheelBytes" in funcs:
        hdr, per = define("LAMINAR_WHEEL_HEADER_BYTES"), define("LAMINAR_WHEEL_ID_BYTES")
        for cap in (0, 1, 7, 1000):
            t.check(f"header: LAMINAR_WHEEL_BYTES({cap})", (int(hdr + per * cap) + 7) & ~7, c.wheelBytes(cap))
        maxcap = 1 << 26
        t.check("header: LAMINAR_WHEEL_MAX_CAPACITY", (c.wheelBytes(maxcap) > 0, c.wheelBytes(maxcap + 1)),
                (True, E_COUNT))


def check_regressions(t, c):
    """Bugs these checks found and that were fixed (see the module docstring)."""
    # 1. i32 overflow of nodeCount * 5 in zoneAggregate's field check: the
    #    wrapped length (4 elements) passes, and the kernel then reads
    #    field + 4 * nodeCount * 4 bytes: out of bounds, a trap.
    fld = c.alloc(64)
    off = c.alloc(16)
    c.write(off, "i", [0, 1])
    sl, he = c.alloc(16), c.alloc(16)
    issue1 = "zoneAggregate: i32 overflow of nodeCount*5 in the bounds check (docs: bad arguments never trap)"
    t.guarded("zoneAggregate nodeCount=858993460 -> E_BOUNDS",
              lambda: t.check("zoneAggregate nodeCount=858993460 -> E_BOUNDS",
                              c.zoneAggregate(fld, 858993460, off, 1, 0.0, 100.0, 1.0, sl, he), E_BOUNDS,
                              known_issue=issue1), known_issue=issue1)
    # 2. the same in scoreCandidates (nodeCount * words with atoms = 320)
    cand = c.alloc(16)
    c.write(cand, "i", [0])
    noise = c.alloc(16)
    c.write(noise, "f", [0.0])
    issue2 = "scoreCandidates: i32 overflow of nodeCount*5 and nodeCount*words in the bounds checks"
    t.guarded("scoreCandidates nodeCount=858993460 atoms=320 -> E_BOUNDS",
              lambda: t.check("scoreCandidates nodeCount=858993460 atoms=320 -> E_BOUNDS",
                              c.scoreCandidates(fld, 858993460, fld, 320, cand, 1, 0.0, 0, 0, 0.5, 100.0, noise),
                              E_BOUNDS, known_issue=issue2), known_issue=issue2)
    # 3. microZoneUpdate checks 256 * 16 bytes per array instead of 256 * 4
    #    (its checkBuf passes the alignment, 16, as the element size).
    end = c.size()
    a = c.alloc(2048, 16)
    issue3 = "microZoneUpdate: bounds check covers 4096 bytes per f32[256] array (elem size 16 used as alignment)"
    t.check("microZoneUpdate with o in the last 1 KiB of memory -> 0",
            c.microZoneUpdate(end - 1024, a, a + 1024, 1, 0.25, 0.5, 0.5), 0, known_issue=issue3)
    # 4. bitmap batches: i32 overflow of count * words (needs ~300 MiB of memory)
    issue4 = "bm* batch: i32 overflow of count*words in the table bounds check"
    try:
        c.grow(max(0, (300 << 20) - c.size()) // 65536 + 1)
        tbl = c.alloc(4096)
        out = c.alloc(1 << 28, 64)
        t.guarded("bmCountAtLeast count=2^28+1 atoms=1024 -> E_BOUNDS",
                  lambda: t.check("bmCountAtLeast count=2^28+1 atoms=1024 -> E_BOUNDS",
                                  c.bmCountAtLeast(tbl, (1 << 28) + 1, 1024, 0, out), E_BOUNDS, known_issue=issue4),
                  known_issue=issue4)
    except (Trap, WasmtimeError) as e:
        print(f"(could not grow memory to 300 MiB for the count*words probe: {e})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wasm", default=os.path.join(ROOT, "build", "laminar-simd.wasm"))
    ap.add_argument("--native", action="append", default=None,
                    help="also compare the checksums of a native bench binary (bench-native --check)")
    args = ap.parse_args()
    if not os.path.exists(args.wasm):
        print(f"wasmtime: {args.wasm} is missing; run npm run build:wasm (npm ci does it)")
        print("RESULT 0 1")
        return 1
    simd = "scalar" not in os.path.basename(args.wasm)
    t = Checks()
    # each group gets a fresh instance so a trap in one cannot poison the next
    groups = [("module", lambda c: check_module(t, c, simd)),
              ("errors", lambda c: check_errors(t, c)),
              ("bitmaps", lambda c: check_bitmaps(t, c)),
              ("micro", lambda c: check_micro(t, c)),
              ("bench inputs", lambda c: check_bench_inputs(t, c, args.native)),
              ("score", lambda c: check_score(t, c)),
              ("wheel", lambda c: check_wheel(t, c)),
              ("memory", lambda c: check_memory(t, c)),
              ("blocks", lambda c: check_blocks(t, c)),
              ("header", lambda c: check_header(t, c)),
              ("zone script", lambda c: check_zone_script(t, c)),
              ("zone script, memory model", lambda c: check_zone_script(t, c, ZONE_SCRIPT_MEM, ZONE_EXPECTED_MEM, "zone script (memory model)")),
              ("zone script, Airlock", lambda c: check_zone_script(t, c, ZONE_SCRIPT_AIRLOCK, ZONE_EXPECTED_AIRLOCK, "zone script (Airlock)"))]
    for name, fn in groups:
        t.guarded(name, lambda fn=fn: fn(Core(args.wasm)))
    check_regressions(t, Core(args.wasm))
    print(f"wasmtime ({os.path.basename(args.wasm)}): {t.passed} passed, {t.failed} failed")
    print(f"RESULT {t.passed} {t.failed}")
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
