#!/usr/bin/env python3
"""Derive gcn-isa's opcode tables from LLVM's AMDGPU disassembler.

LLVM's llvm-mc is used as a black box: for every format, opcode and target we feed it encodings and read back what
it prints. From that we learn
  * which opcodes exist on gfx90a and on gfx940/gfx942, and their mnemonics;
  * the operands, in print order: which encoding field feeds each, its register file and width, and how it reads
    constants (by printing inline constants and literals through it);
  * for every other bit of the encoding, whether LLVM rejects the word when it is set ("must be zero"), uses it
    ("live": it changes the text) or ignores it -- per variant, where a few selector bits (MUBUF lds/offen/idxen,
    SMEM imm/soe, FLAT lds/sve/saddr=off ...) change what the other bits mean.

Nothing from LLVM's sources is used; the output is facts about LLVM 22's behaviour, written as the tab-separated
*.tbl resources of dev.hipsim.isa.decode and the Operation enum.

Usage: isa_tables.py [--llvm-mc PATH] [--out DIR] [--enum FILE]     (takes a few minutes)
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys

MC = "/usr/lib/llvm-22/bin/llvm-mc"
CPUS = ["gfx90a", "gfx942"]            # gfx942 stands for gfx940/gfx942: LLVM decodes them alike
SEP_A, SEP_B = 0xBF800005, 0xBF800006  # s_nop 5, s_nop 6


# ------------------------------------------------------------------------------------------------ llvm-mc oracle

def _run(cpu, probes):
    """One llvm-mc run; probes are word lists. Returns [(text, bytes) | None] or None if llvm-mc crashed."""
    lines = []
    for words in probes:
        ws = list(words) + [SEP_A, SEP_A, SEP_B]
        lines.append(" ".join("0x%02x" % b for b in b"".join(struct.pack("<I", w & 0xffffffff) for w in ws)))
    p = subprocess.run([MC, "--disassemble", "-triple=amdgcn-amd-amdhsa", "-mcpu=" + cpu],
                       input="\n".join(lines) + "\n", capture_output=True, text=True)
    if p.returncode != 0:
        return None
    bad = {}
    for m in re.finditer(r"<stdin>:(\d+):(\d+): warning: invalid instruction encoding", p.stderr):
        bad.setdefault(int(m.group(1)) - 1, set()).add((int(m.group(2)) - 1) // 5)
    chunks, cur = [], []
    for l in p.stdout.splitlines():
        t = l.strip()
        if not t or t.startswith(".amdgcn_target"):
            continue
        if t == "s_nop 6":
            chunks.append(cur)
            cur = []
        else:
            cur.append(t)
    if len(chunks) != len(probes):
        return None
    out = []
    for i, words in enumerate(probes):
        b = bad.get(i, set())
        ch = chunks[i]
        pads = 0
        while pads < len(ch) and ch[len(ch) - 1 - pads] == "s_nop 5":
            pads += 1
        n = len(words) * 4
        if 0 in b or not ch:
            out.append(None)
        elif len(ch) == 3 and pads == 2 and not b:
            out.append((ch[0], n))
        elif len(ch) == 2 and pads == 1 and not b:
            out.append((ch[0], n + 4))
        else:
            out.append((ch[0], -1))
    return out


def disassemble(cpu, probes):
    out = []
    for i in range(0, len(probes), 4000):
        out.extend(_split(cpu, probes[i:i + 4000]))
    return out


def _split(cpu, probes):
    r = _run(cpu, probes)
    if r is not None:
        return r
    if len(probes) == 1:
        return ["crash"]
    h = len(probes) // 2
    return _split(cpu, probes[:h]) + _split(cpu, probes[h:])


def run(cpu, items):
    res = disassemble(cpu, [w for _, w in items])
    return {k: (None if x == "crash" else x) for (k, _), x in zip(items, res)}


# ------------------------------------------------------------------------------------------------------ formats

# fields: name -> (lo, width, kind, marker1, marker2[, extra bit]); bit 32 is bit 0 of the second dword.
# free: the bits of the first dword that are not format or opcode bits (the second dword is always free).
# selectors: bits whose values make variants; "saddr_off" is the pseudo-selector saddr == 0x7f.
F = {}
def fmt(name, base, sh, n, nw, free, fields, selectors=()):
    F[name] = dict(base=base, sh=sh, n=n, nw=nw, free=free, fields=fields, selectors=list(selectors))

S9 = "src9"
fmt("SOP2", 0x80000000, 23, 0x60, 1, 0x007FFFFF, {"ssrc0": (0, 8, "ssrc", 8, 12), "ssrc1": (8, 8, "ssrc", 16, 20), "sdst": (16, 7, "sdst", 24, 28)})
fmt("SOPK", 0xB0000000, 23, 29, 1, 0x007FFFFF, {"sdst": (16, 7, "sdst", 24, 28)})
fmt("SOP1", 0xBE800000, 8, 256, 1, 0x007F00FF, {"ssrc0": (0, 8, "ssrc", 8, 12), "sdst": (16, 7, "sdst", 24, 28)})
fmt("SOPC", 0xBF000000, 16, 128, 1, 0x0000FFFF, {"ssrc0": (0, 8, "ssrc", 8, 12), "ssrc1": (8, 8, "ssrc", 16, 20)})
fmt("SOPP", 0xBF800000, 16, 128, 1, 0x0000FFFF, {})
fmt("SMEM", 0xC0000000, 18, 256, 2, 0x0003FFFF, {"sbase": (0, 6, "sbase", 2, 4), "sdata": (6, 7, "sdst", 24, 28)},
    selectors=(17, 14))
fmt("VOP2", 0x00000000, 25, 0x3E, 1, 0x01FFFFFF, {"src0": (0, 9, S9, 0x114, 0x116), "vsrc1": (9, 8, "v", 30, 32), "vdst": (17, 8, "v", 10, 12)})
fmt("VOP1", 0x7E000000, 9, 256, 1, 0x01FE01FF, {"src0": (0, 9, S9, 0x114, 0x116), "vdst": (17, 8, "v", 10, 12)})
fmt("VOPC", 0x7C000000, 17, 256, 1, 0x0001FFFF, {"src0": (0, 9, S9, 0x114, 0x116), "vsrc1": (9, 8, "v", 30, 32)})
fmt("VOP3", 0xD0000000, 16, 0x380, 2, 0x0000FFFF, {"vdst": (0, 8, "v", 10, 12), "src0": (32, 9, S9, 0x114, 0x116), "src1": (41, 9, S9, 0x11e, 0x120), "src2": (50, 9, S9, 0x128, 0x12a)})
fmt("VOP3P", 0xD3800000, 16, 128, 2, 0x0000FFFF, {"vdst": (0, 8, "v", 16, 32), "src0": (32, 9, S9, 0x140, 0x150), "src1": (41, 9, S9, 0x160, 0x170), "src2": (50, 9, S9, 0x180, 0x190)})
fmt("VOP1_DPP", 0x7E0000FA, 9, 256, 2, 0x01FE0000, {"vdst": (17, 8, "v", 10, 12), "src0": (32, 8, "v", 20, 22)})
fmt("VOP2_DPP", 0x000000FA, 25, 0x3E, 2, 0x01FFFE00, {"vdst": (17, 8, "v", 10, 12), "vsrc1": (9, 8, "v", 30, 32), "src0": (32, 8, "v", 20, 22)})
fmt("VOP1_SDWA", 0x7E0000F9, 9, 256, 2, 0x01FE0000, {"vdst": (17, 8, "v", 10, 12), "src0": (32, 8, "sdwasrc", 20, 22, 55)})
fmt("VOP2_SDWA", 0x000000F9, 25, 0x3E, 2, 0x01FFFE00, {"vdst": (17, 8, "v", 10, 12), "vsrc1": (9, 8, "sdwasrc", 30, 32, 63), "src0": (32, 8, "sdwasrc", 20, 22, 55)})
fmt("VOPC_SDWA", 0x7C0000F9, 17, 256, 2, 0x0001FE00, {"vsrc1": (9, 8, "sdwasrc", 30, 32, 63), "src0": (32, 8, "sdwasrc", 20, 22, 55), "sdst": (40, 7, "sdst", 8 | 0x80, 12 | 0x80, 47)})
fmt("DS", 0xD8000000, 17, 256, 2, 0x0201FFFF, {"addr": (32, 8, "v", 20, 22), "data0": (40, 8, "v", 30, 32), "data1": (48, 8, "v", 40, 42), "vdst": (56, 8, "v", 10, 12)},
    selectors=(16,))
fmt("MUBUF", 0xE0000000, 18, 128, 2, 0x0203FFFF, {"vaddr": (32, 8, "v", 20, 22), "vdata": (40, 8, "v", 10, 12), "srsrc": (48, 5, "srsrc", 2, 3), "soffset": (56, 8, "ssrc", 5, 6)},
    selectors=(16, 12, 13, 14))
fmt("MTBUF", 0xE8000000, 15, 16, 2, 0x03F87FFF, {"vaddr": (32, 8, "v", 20, 22), "vdata": (40, 8, "v", 10, 12), "srsrc": (48, 5, "srsrc", 2, 3), "soffset": (56, 8, "ssrc", 5, 6)},
    selectors=(12, 13))
for name, seg in (("FLAT", 0), ("SCRATCH", 1), ("GLOBAL", 2)):
    fmt(name, 0xDC000000 | seg << 14, 18, 128, 2, 0x02033FFF,
        {"addr": (32, 8, "v", 20, 22), "data": (40, 8, "v", 30, 32), "saddr": (48, 7, "saddr", 8, 12), "vdst": (56, 8, "v", 10, 12)},
        selectors=(13, 16, "saddr_off", 25))
ORDER = ["SOP1", "SOP2", "SOPK", "SOPC", "SOPP", "SMEM", "VOP1", "VOP2", "VOPC", "VOP3", "VOP3P", "VOP1_DPP",
         "VOP2_DPP", "VOP1_SDWA", "VOP2_SDWA", "VOPC_SDWA", "DS", "MUBUF", "MTBUF", "FLAT", "GLOBAL", "SCRATCH"]
VALU = {"VOP1", "VOP2", "VOPC", "VOP3", "VOP3P", "VOP1_DPP", "VOP2_DPP", "VOP1_SDWA", "VOP2_SDWA", "VOPC_SDWA"}


def fmask(spec):
    m = ((1 << spec[1]) - 1) << spec[0]
    if len(spec) > 5:
        m |= 1 << spec[5]
    return m


def fset(v, spec, x):
    v = (v & ~(((1 << spec[1]) - 1) << spec[0])) | ((x & ((1 << spec[1]) - 1)) << spec[0])
    if len(spec) > 5:
        v = (v & ~(1 << spec[5])) | (((x >> spec[1]) & 1) << spec[5])
    return v


def words(f, v, extra=()):
    ws = [v & 0xffffffff] + ([(v >> 32) & 0xffffffff] if F[f]["nw"] == 2 else [])
    return ws + list(extra)


def freebits(f):
    b = [i for i in range(32) if F[f]["free"] >> i & 1]
    return b + (list(range(32, 64)) if F[f]["nw"] == 2 else [])


def selector_bits(f):
    return [s for s in F[f]["selectors"] if s != "saddr_off"]


def apply_variant(f, v, key):
    """Sets the selector bits of variant `key` (bit i of key = selector i)."""
    for i, s in enumerate(F[f]["selectors"]):
        on = (key >> i) & 1
        if s == "saddr_off":
            v = (v & ~(0x7f << 48)) | ((0x7f if on else 0) << 48)
        else:
            v = (v & ~(1 << s)) | (on << s)
    return v


# ----------------------------------------------------------------------------------------------- text parsing

def strip_comments(t):
    return re.sub(r"/\*.*?\*/", "", t)


def parse(text):
    """-> (mnemonic, [operands], modifiers)."""
    text = strip_comments(text).strip()
    if " " not in text:
        return text, [], ""
    mn, rest = text.split(" ", 1)
    if re.match(r"^[a-z_0-9]+:", rest):
        return mn, [], rest         # modifiers only (v_nop_dpp)
    ops, cur, d = [], "", 0
    for ch in rest:
        d += ch in "[(" 
        d -= ch in "])"
        if ch == "," and d == 0:
            ops.append(cur.strip())
            cur = ""
        else:
            cur += ch
    ops.append(cur.strip())
    last, d, cut = ops[-1], 0, None
    for i, ch in enumerate(last):
        d += ch in "[("
        d -= ch in "])"
        if ch == " " and d == 0:
            cut = i
            break
    mods = ""
    if cut is not None:
        mods, ops[-1] = last[cut + 1:].strip(), last[:cut].strip()
    return mn, ops, mods


REG = re.compile(r"^(?:-|\||neg\(|sext\()*([vsa]|ttmp)(?:(\d+)|\[(\d+):(\d+)\])\|?\)?\|?$")


def regkind(tok):
    m = REG.match(tok)
    if not m:
        return None
    if m.group(2) is not None:
        return (m.group(1), int(m.group(2)), 1)
    return (m.group(1), int(m.group(3)), int(m.group(4)) - int(m.group(3)) + 1)


SRC_PROBES = [("i240", 240, None), ("i248", 248, None), ("l3c00", 255, 0x3c00), ("l3f80", 255, 0x3f800000),
              ("l3fe0", 255, 0x3fe00000), ("l1234", 255, 0x12345678), ("l0010", 255, 0x10)]


# -------------------------------------------------------------------------------------------------- inference

def infer(cpu, f):
    """Rows for every opcode of a format on a cpu: template from variant 0, bit classes for every variant."""
    spec = F[f]
    fields = spec["fields"]
    names = list(fields)
    nvar = 1 << len(spec["selectors"])
    # 1. baselines: every variant, every subset of operand fields set to their first marker
    items = []
    for op in range(spec["n"]):
        for key in range(nvar):
            base0 = apply_variant(f, spec["base"] | op << spec["sh"], key)
            for mask in range(1 << len(names)):
                v = base0
                for i, nm in enumerate(names):
                    if mask >> i & 1:
                        v = fset(v, fields[nm], fields[nm][3])
                items.append(((op, key, mask), words(f, v)))
    res = run(cpu, items)
    rows = {}
    probes = []
    for op in range(spec["n"]):
        for key in range(nvar):
            best = None
            for mask in sorted(range(1 << len(names)), key=lambda m: -bin(m).count("1")):
                x = res[(op, key, mask)]
                if x and x[1] > 0:
                    v = apply_variant(f, spec["base"] | op << spec["sh"], key)
                    for i, nm in enumerate(names):
                        if mask >> i & 1:
                            v = fset(v, fields[nm], fields[nm][3])
                    best = (mask, v, x)
                    break
            if not best:
                continue
            mask, v, x = best
            row = rows.setdefault(op, {"fmt": f, "op": op, "cpu": cpu, "variants": {}})
            template_variant = not row["variants"]
            mn, bops, bmods = parse(x[0])
            var = {"text": x[0], "len": x[1], "mn": mn, "ops": bops, "mods": bmods, "base": v, "mask": mask,
                   "fields": {}, "bits": {}}
            row["variants"][key] = var
            active = 0
            for i, nm in enumerate(names):
                if mask >> i & 1:
                    active |= fmask(fields[nm])
                    if template_variant:
                        probes.append(((op, key, "m2", nm), words(f, fset(v, fields[nm], fields[nm][4]))))
                        kind = fields[nm][2]
                        if kind in ("src9", "ssrc", "sdwasrc"):
                            for pn, pv, lit in SRC_PROBES:
                                if lit is not None and spec["nw"] == 2:
                                    continue
                                if kind == "sdwasrc":
                                    pv |= 0x100
                                probes.append(((op, key, "src", nm, pn),
                                               words(f, fset(v, fields[nm], pv)) + ([lit] if lit is not None else [])))
            sel = 0
            for s in selector_bits(f):
                sel |= 1 << s
            saddr_off = "saddr_off" in spec["selectors"] and (key >> spec["selectors"].index("saddr_off")) & 1
            if saddr_off:
                sel |= 0x7f << 48        # any change to saddr=off makes another variant
            var["active"] = active
            for b in freebits(f):
                if not (active >> b & 1) and not (sel >> b & 1):
                    probes.append(((op, key, "bit", b), words(f, v ^ (1 << b))))
            if template_variant:
                # whether a selector bit changes the text is what makes it "live"; its validity is per variant
                for b in selector_bits(f):
                    probes.append(((op, key, "selbit", b), words(f, v ^ (1 << b))))
    pr = run(cpu, probes)
    ignored = []
    for k, y in pr.items():
        op, key = k[0], k[1]
        var = rows[op]["variants"][key]
        if k[2] == "m2":
            nm = k[3]
            fd = {"state": "active"}
            if y is None or y[1] != var["len"]:
                fd["state"] = "m2fail"
            else:
                mn2, ops2, mods2 = parse(y[0])
                diffs = [j for j in range(max(len(ops2), len(var["ops"])))
                         if j >= len(ops2) or j >= len(var["ops"]) or ops2[j] != var["ops"][j]]
                if not diffs and mods2 == var["mods"] and mn2 == var["mn"]:
                    fd["state"] = "ignored"
                    ignored.append((op, key, nm))
                else:
                    fd["pos"] = diffs
                    if len(diffs) == 1 and diffs[0] < len(var["ops"]):
                        fd["tok"] = var["ops"][diffs[0]]
                        fd["reg"] = regkind(fd["tok"])
            var["fields"].setdefault(nm, {}).update(fd)
        elif k[2] == "src":
            var["fields"].setdefault(k[3], {}).setdefault("raw", {})[k[4]] = y
        elif k[2] == "selbit":
            var.setdefault("selbits", {})[k[3]] = classify(var, y)
        else:
            var["bits"][k[3]] = classify(var, y)
    # 2. the bits of fields the instruction turned out to ignore: they may still have to be zero
    probes = []
    for op, key, nm in ignored:
        var = rows[op]["variants"][key]
        for b in range(64):
            if fmask(fields[nm]) >> b & 1:
                probes.append(((op, key, "bit", b), words(f, var["base"] ^ (1 << b))))
    for k, y in run(cpu, probes).items():
        var = rows[k[0]]["variants"][k[1]]
        var["bits"][k[3]] = classify(var, y)
    for row in rows.values():
        for key, var in row["variants"].items():
            for i, nm in enumerate(names):
                if not (var["mask"] >> i & 1):
                    var["fields"][nm] = {"state": "zero"}
                fd = var["fields"].setdefault(nm, {"state": "active"})
                raw = fd.pop("raw", None)
                if raw:
                    pos = fd.get("pos", [None])[0]
                    fd["probes"] = {}
                    for pn, z in raw.items():
                        if z is None:
                            fd["probes"][pn] = None
                        else:
                            mn3, ops3, _ = parse(z[0])
                            fd["probes"][pn] = ops3[pos] if pos is not None and pos < len(ops3) else z[0]
    return [rows[o] for o in sorted(rows)]


def classify(var, y):
    """'x': this instruction does not accept the bit (LLVM rejects the word, or reads it as another instruction);
    '.': ignored; 'c': used."""
    if y is None or y[1] != var["len"]:
        return "x"
    if y[0] == var["text"]:
        return "."
    if parse(y[0])[0] != var["mn"]:
        return "x"
    return "c"


# ------------------------------------------------------------------------------------------------------ emitter

SLOT_BY_FIELD = {
    "SOP1": {"sdst": "SDST", "ssrc0": "SRC0"}, "SOP2": {"sdst": "SDST", "ssrc0": "SRC0", "ssrc1": "SRC1"},
    "SOPK": {"sdst": "SDST"}, "SOPC": {"ssrc0": "SRC0", "ssrc1": "SRC1"}, "SOPP": {},
    "SMEM": {"sdata": "SDATA", "sbase": "SBASE"},
    "DS": {"vdst": "VDST", "addr": "ADDR", "data0": "DATA0", "data1": "DATA1"},
    "MUBUF": {"vdata": "VDATA", "vaddr": "VADDR", "srsrc": "SRSRC", "soffset": "SOFFSET"},
    "MTBUF": {"vdata": "VDATA", "vaddr": "VADDR", "srsrc": "SRSRC", "soffset": "SOFFSET"},
    "FLAT": {"vdst": "VDST", "addr": "ADDR", "data": "DATA0", "saddr": "SADDR"},
}
SLOT_BY_FIELD["GLOBAL"] = SLOT_BY_FIELD["SCRATCH"] = SLOT_BY_FIELD["FLAT"]


def value_type(fd, mn, width):
    """How an operand reads constants, from what LLVM printed for inline constants and literals through it."""
    p = fd.get("probes") or {}
    i240, i248 = p.get("i240"), p.get("i248")
    if i240 is None:
        return "REG"
    if i240 == "0x3800":
        return "I16"
    if p.get("l3c00") is not None:
        if p.get("l0010") == "16":
            return "REG"             # a register operand: LLVM prints constants here but flags them
        if p.get("l3fe0") == "0.5":
            return "F64"
        if width == 2 or i248 == "0.15915494309189532":
            return "I64"
        if p.get("l1234") == "0x5678":
            return "F16"
        if p.get("l3c00") == "lit(0x3c00)":
            return "V2F16"
        return "B32"
    if i248 == "0.15915494309189532":
        return "F64" if "f64" in mn else "I64"
    if width >= 2:
        return "B32"
    m = re.sub(r"_(e32|e64|dpp|sdwa)$", "", mn)
    if m.endswith("_f16") or (m.startswith("v_pk_") and "f16" in m) or "mix" in m:
        return "F16"
    return "B32"


def template(f, var):
    """Operand tokens in print order."""
    fields = var["fields"]
    mn = var["mn"]
    items = []
    for i, t in enumerate(var["ops"]):
        fname = next((nm for nm, fd in fields.items() if fd.get("pos") == [i] and fd.get("state") == "active"), None)
        if fname is None:
            if f == "VOP3" and i == 1 and t == "s[0:1]":
                items.append(("f", "sdst", ("s", 2, None)))    # VOP3B carry-out / scale flag in bits 14:8
            else:
                items.append(("=", t, None))
            continue
        fd = fields[fname]
        rk = fd.get("reg")
        kind = F[f]["fields"][fname][2]
        if rk is None:
            items.append(("f", fname, ("i", 1, None)))
            continue
        letter = {"v": "v", "a": "a", "s": "s", "ttmp": "s"}[rk[0]]
        ty = None
        if kind in ("src9", "sdwasrc"):
            letter = "x" if letter in "vs" else "xa"
            ty = value_type(fd, mn, rk[2])
        elif kind == "ssrc":
            ty = value_type(fd, mn, rk[2])
        items.append(("f", fname, (letter, rk[2], ty)))
    out = []
    if f in VALU:
        srcn = 0
        for i, (k, a, b) in enumerate(items):
            if i == 0 and (k == "=" or a in ("vdst", "sdst")) and not (k == "=" and a.startswith("0x")):
                slot = "SDST" if f.startswith("VOPC") or (f == "VOP3" and mn.startswith("v_cmp")) else "VDST"
            elif i == 1 and ((k == "=" and a == "vcc") or a == "sdst"):
                slot = "SDST"
            else:
                slot = "SRC%d" % srcn
                srcn += 1
            out.append((slot, k, a, b))
    else:
        for k, a, b in items:
            if k != "f":
                continue
            if f == "SOPC" and a == "ssrc1" and b[0] == "i":
                continue
            slot = SLOT_BY_FIELD[f].get(a, "?")
            if f == "DS" and mn.startswith("ds_gws_") and a == "addr":
                slot = "DATA0"          # LLVM encodes the ds_gws_* data operand in the address field
            out.append((slot, k, a, b))
    toks = []
    for slot, k, a, b in out:
        if k == "=":
            toks.append("%s:k" % slot if a.startswith("0x") else "%s=%s" % (slot, a))
        else:
            letter, w, ty = b
            toks.append("%s:%s:%s%d%s" % (slot, a, letter, w, (":" + ty) if ty else ""))
    return toks


def masks(var, skip_sdst):
    zero = live = 0
    for b, c in var["bits"].items():
        b = int(b)
        if skip_sdst and 8 <= b <= 14:
            continue
        if c == "x":
            zero |= 1 << b
        elif c == "c":
            live |= 1 << b
    return zero, live


def flags(f, var):
    fl = []
    mn, text = var["mn"], var["text"]
    if f == "SOPP":
        if mn == "s_endpgm": fl.append("imm=endpgm")
        elif mn == "s_branch" or mn.startswith("s_cbranch"): fl.append("imm=branch")
        elif mn == "s_waitcnt": fl.append("imm=waitcnt")
        elif "sendmsg(" in text: fl.append("imm=sendmsg")
        elif "gpr_idx(" in text: fl.append("imm=gpridx")
        elif " " in text: fl.append("imm=dec")
        else: fl.append("imm=none")
    if f == "SOPK":
        if "hwreg(" in text: fl.append("imm=hwreg")
        elif mn in ("s_cbranch_i_fork", "s_call_b64"): fl.append("imm=branch")
        else: fl.append("imm=hex16")
        if mn == "s_setreg_imm32_b32": fl.append("literal")
    if f == "SOPC" and mn == "s_set_gpr_idx_on": fl.append("imm=gpridx")
    if f == "DS":
        if re.search(r"ds_(read|write|wrxchg)2", mn): fl.append("off2")
        if mn == "ds_swizzle_b32": fl.append("swz")
    if f == "VOP3P" and "op_sel_hi:[0" in text: fl.append("packed")
    if f.endswith("_DPP") and "DP ALU dpp" in text: fl.append("dpalu")
    return fl


# the gfx90a *_1k bf16 MFMAs are gfx940's renumbered bf16 MFMAs: one operation each
MFMA_SAME = [("v_mfma_f32_32x32x4bf16_1k", "v_mfma_f32_32x32x4_2b_bf16"),
             ("v_mfma_f32_16x16x4bf16_1k", "v_mfma_f32_16x16x4_4b_bf16"),
             ("v_mfma_f32_4x4x4bf16_1k", "v_mfma_f32_4x4x4_16b_bf16"),
             ("v_mfma_f32_32x32x8bf16_1k", "v_mfma_f32_32x32x8_bf16"),
             ("v_mfma_f32_16x16x16bf16_1k", "v_mfma_f32_16x16x16_bf16")]


def base_name(mn):
    return re.sub(r"_(e32|e64|dpp|sdwa)$", "", mn)


def emit(rows_by_fmt, out_dir):
    rename = dict(MFMA_SAME)
    by = {}
    for r in rows_by_fmt["VOP3P"]:
        by.setdefault(r["op"], {})[r["cpu"]] = r["variants"][min(r["variants"])]["mn"]
    for op, d in by.items():
        if "gfx90a" in d and "gfx942" in d and d["gfx90a"] != d["gfx942"]:
            a, c = d["gfx90a"], d["gfx942"]
            if re.sub(r"_(2b|4b|16b)_", "_", c).replace("_", "") == a.replace("_", ""):
                rename[a] = c           # same operation, renamed for gfx940 (v_mfma_f32_32x32x8f16 -> ..._f16)
    names = {}
    for f in ORDER:
        byop = {}
        for r in rows_by_fmt[f]:
            if r["variants"]:
                byop.setdefault(r["op"], {})[r["cpu"]] = r
        lines = []
        nvar = 1 << len(F[f]["selectors"])
        for op in sorted(byop):
            built = {}
            for cpu, r in byop[op].items():
                var = r["variants"][min(r["variants"])]
                toks = template(f, var)
                vop3b = f == "VOP3" and any(t.startswith("SDST:sdst") for t in toks)
                zeros, live = [], 0
                for key in range(nvar):
                    v = r["variants"].get(key)
                    if v is None:
                        zeros.append("-")
                        continue
                    z, l = masks(v, vop3b)
                    zeros.append("%x" % z)
                    live |= l
                for b, c in var.get("selbits", {}).items():
                    if c == "c":
                        live |= 1 << int(b)
                oname = rename.get(base_name(var["mn"]), base_name(var["mn"])).upper()
                names.setdefault(oname, set()).add(f)
                built[cpu] = (oname, var["mn"], "|".join(zeros), "%x" % live, ",".join(flags(f, var)) or "-",
                              " ".join(toks) or "-")
            if "gfx90a" in built and "gfx942" in built and built["gfx90a"] == built["gfx942"]:
                lines.append((str(op), "all") + built["gfx90a"])
            else:
                for cpu, tgt in (("gfx90a", "gfx90a"), ("gfx942", "gfx940")):
                    if cpu in built:
                        lines.append((str(op), tgt) + built[cpu])
        with open(os.path.join(out_dir, f.lower() + ".tbl"), "w") as out:
            out.write("# %s opcodes of gfx90a and gfx940/gfx942, derived from LLVM 22's disassembler by "
                      "gcn-isa/tools/isa_tables.py.\n" % f)
            sel = F[f]["selectors"]
            out.write("# opcode\ttargets\toperation\tmnemonic\tmust-be-zero bits%s\tlive control bits\tflags\t"
                      "operands (slot:field:kind+dwords[:type] | slot=fixed | slot:k)\n"
                      % ((" per variant of selectors %s ('-': no such variant)" % sel) if sel else ""))
            for l in lines:
                out.write("\t".join(l) + "\n")
        print(f, len(lines), file=sys.stderr)
    return names


CATEGORY_ORDER = ["PROGRAM", "SALU", "SMEM", "VALU", "VALU_COMPARE", "VALU_PACKED", "MATRIX", "DS", "MUBUF",
                  "MTBUF", "FLAT", "GLOBAL", "SCRATCH"]


def category(name, fmts):
    f = set(fmts)
    if f & {"SOP1", "SOP2", "SOPK", "SOPC"}: return "SALU"
    for k in ("SOPP", "SMEM", "DS", "MUBUF", "MTBUF", "FLAT", "GLOBAL", "SCRATCH"):
        if k in f:
            return "PROGRAM" if k == "SOPP" else k
    if name.startswith("V_MFMA") or name.startswith("V_SMFMAC"): return "MATRIX"
    if "VOPC" in f: return "VALU_COMPARE"
    if "VOP3P" in f: return "VALU_PACKED"
    return "VALU"


def write_enum(names, path):
    groups = {}
    for name, fmts in names.items():
        groups.setdefault(category(name, fmts), []).append(name)
    L = ["package dev.hipsim.isa.decode;", "",
         "/**",
         " * Every operation gfx90a and gfx940/gfx942 can execute, one constant per distinct meaning. The VOP1/VOP2/VOPC,",
         " * VOP3, DPP and SDWA encodings of one ALU operation share a constant; opcodes whose meaning depends on the target",
         " * are separate constants chosen at decode time (VOP2 23 is {@link #V_MADMK_F32} on gfx90a, {@link #V_FMAMK_F32} on",
         " * gfx940). Generated from the opcode tables by gcn-isa/tools/isa_tables.py; the tables give mnemonics per target.",
         " */",
         "public enum Operation {",
         "  /** Not an instruction of the target: the word is shown as {@code .long}. */",
         "  INVALID(Category.INVALID),"]
    for cat in CATEGORY_ORDER:
        L.append("")
        L.append("  // " + cat.replace("_", " ").lower())
        for nm in sorted(groups.get(cat, [])):
            L.append("  %s(Category.%s)," % (nm, cat))
    L[-1] = L[-1][:-1] + ";"
    L += ["", "  /** The unit that executes an operation. */", "  public enum Category {",
          "    INVALID, PROGRAM, SALU, SMEM, VALU, VALU_COMPARE, VALU_PACKED, MATRIX, DS, MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH",
          "  }", "", "  private final Category category;", "", "  Operation(Category category) {",
          "    this.category = category;", "  }", "", "  public Category category() {", "    return category;", "  }",
          "}"]
    with open(path, "w") as out:
        out.write("\n".join(L) + "\n")


def main():
    global MC
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--llvm-mc", default=MC)
    ap.add_argument("--out", default=os.path.join(here, "../src/main/resources/dev/hipsim/isa/decode"))
    ap.add_argument("--enum", default=os.path.join(here, "../src/main/java/dev/hipsim/isa/decode/Operation.java"))
    ap.add_argument("--cache", help="read/write the probe results here (JSON) to re-emit without re-probing")
    args = ap.parse_args()
    MC = args.llvm_mc
    if args.cache and os.path.exists(args.cache):
        rows = json.load(open(args.cache))
    else:
        rows = {}
        for f in ORDER:
            rows[f] = [r for cpu in CPUS for r in infer(cpu, f)]
            print("probed", f, len(rows[f]), file=sys.stderr)
        if args.cache:
            json.dump(rows, open(args.cache, "w"))
    for f in rows:
        for r in rows[f]:
            r["variants"] = {int(k): v for k, v in r["variants"].items()}
            for v in r["variants"].values():
                v["bits"] = {int(k): c for k, c in v["bits"].items()}
                v["selbits"] = {int(k): c for k, c in v.get("selbits", {}).items()}
    names = emit(rows, args.out)
    write_enum(names, args.enum)
    print("operations", len(names), file=sys.stderr)


if __name__ == "__main__":
    main()
