package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Format;
import dev.hipsim.isa.decode.Operation;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.exec.Wave;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * FLAT, GLOBAL and SCRATCH loads, stores and atomics against a model of the whole device memory and LDS: the
 * global addressing forms (SGPR base plus 32-bit VGPR offset, or a 64-bit VGPR address, plus the signed immediate),
 * FLAT addresses that fall in the LDS and private apertures, private memory interleaved per dword across the lanes,
 * d16 halves, sign extension, atomics with and without return (lanes in order), and the loads that write LDS.
 */
class VectorMemoryProperties {
  static final long DATA = Machine.MEM + 0x10000;
  static final int DATA_SIZE = 0x10000;
  /** The memory these tests reach and compare: the data area and the wave's scratch, below MEM + 384 KiB. */
  static final int REGION = 0x60000;

  static final List<Operation> OPS = new ArrayList<>();

  static {
    for (String s : new String[] {"LOAD_UBYTE", "LOAD_SBYTE", "LOAD_USHORT", "LOAD_SSHORT", "LOAD_DWORD",
        "LOAD_DWORDX2", "LOAD_DWORDX3", "LOAD_DWORDX4", "LOAD_UBYTE_D16", "LOAD_SBYTE_D16_HI", "LOAD_SHORT_D16",
        "LOAD_SHORT_D16_HI", "STORE_BYTE", "STORE_BYTE_D16_HI", "STORE_SHORT", "STORE_SHORT_D16_HI", "STORE_DWORD",
        "STORE_DWORDX2", "STORE_DWORDX3", "STORE_DWORDX4", "ATOMIC_ADD", "ATOMIC_SWAP", "ATOMIC_CMPSWAP",
        "ATOMIC_SMAX", "ATOMIC_UMIN", "ATOMIC_AND", "ATOMIC_INC", "ATOMIC_DEC", "ATOMIC_ADD_X2", "ATOMIC_CMPSWAP_X2",
        "ATOMIC_XOR_X2", "ATOMIC_UMAX_X2"}) {
      OPS.add(Operation.valueOf("GLOBAL_" + s));
    }
  }

  @Provide
  Arbitrary<Operation> ops() {
    return Arbitraries.of(OPS);
  }

  @Provide
  Arbitrary<Target> targets() {
    return Arbitraries.of(Target.GFX90A, Target.GFX942);
  }

  /** Where a lane's access goes in the models: {buffer 0 memory / 1 LDS, byte index}, -1 index for none. */
  static long privateAddress(long p, int lane) {
    return Machine.SCRATCH + (p >>> 2) * 256 + 4L * lane + (p & 3);
  }

  static int loaded(String kind, int raw, int old) {
    boolean hi = kind.endsWith("D16_HI");
    boolean d16 = kind.contains("D16");
    String base = kind.replace("_D16_HI", "").replace("_D16", "");
    int v = switch (base) {
      case "LOAD_UBYTE" -> raw & 0xff;
      case "LOAD_SBYTE" -> (byte) raw;
      case "LOAD_USHORT", "LOAD_SHORT" -> raw & 0xffff;
      case "LOAD_SSHORT" -> (short) raw;
      default -> raw;
    };
    if (!d16) return v;
    return hi ? (old & 0xffff) | v << 16 : (old & 0xffff0000) | (v & 0xffff);
  }

  @Property(tries = 400)
  void flatGlobalScratchAccesses(@ForAll("ops") Operation globalOp, @ForAll("targets") Target t,
      @ForAll long seed) throws Exception {
    Random r = new Random(seed);
    int segment = r.nextInt(3); // 0 global, 1 flat, 2 scratch
    String kind = globalOp.name().substring(7);
    Format f = segment == 0 ? Format.GLOBAL : segment == 1 ? Format.FLAT : Format.SCRATCH;
    String name = (segment == 0 ? "GLOBAL_" : segment == 1 ? "FLAT_" : "SCRATCH_") + kind;
    Operation op;
    try {
      op = Operation.valueOf(name);
    } catch (IllegalArgumentException e) {
      return;
    }
    if (!Enc.has(t, f, op)) return;
    Machine m = new Machine(t);
    m.randomize(r, 32);
    byte[] bytes = new byte[REGION];
    r.nextBytes(bytes);
    m.memory.write(Machine.MEM, bytes, 0, bytes.length);
    byte[] initialLds = new byte[m.group.lds().capacity()];
    r.nextBytes(initialLds);
    m.group.lds().write(0, initialLds);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    boolean atomic = kind.startsWith("ATOMIC");
    boolean store = kind.startsWith("STORE");
    boolean wide = kind.endsWith("_X2");
    int bytesPer = kind.contains("BYTE") ? 1 : kind.contains("SHORT") ? 2 : 4;
    int dwords = kind.endsWith("X4") ? 4 : kind.endsWith("X3") ? 3 : kind.endsWith("X2") && !atomic ? 2 : 1;
    boolean glc = atomic && r.nextBoolean();
    int addr = 0;
    int data = 4;
    int vdst = 12;
    int saddr = 2 * (10 + r.nextInt(5));
    boolean useSaddr = segment != 1 && r.nextBoolean();
    // A few shared locations per try (so atomics of several lanes meet), 8-byte aligned.
    int offset = segment == 1 ? r.nextInt(64) * 4 : r.nextInt(128) * 8 - 512;
    long[] where = new long[64];
    // A third of the loads and stores address one block, each lane after the last (the coalesced paths).
    boolean block = !atomic && r.nextInt(3) == 0;
    long blockStart = DATA + 0x1000 + 8L * r.nextInt(64);
    for (int l = 0; l < 64; l++) {
      int slot = r.nextInt(atomic ? 6 : 512);
      if (segment == 2) {
        long p = 256 + (slot % 200) * 16L; // private offset (lane-relative)
        if (useSaddr) {
          m.w.s[saddr] = 512;
          m.setV(addr, l, (int) (p - 512 - offset));
        } else {
          m.setV(addr, l, (int) (p - offset));
        }
        where[l] = p;
      } else {
        long a = DATA + 0x1000 + slot * 16L;
        if (segment == 1 && r.nextInt(4) == 0) a = TestDevice.SHARED_APERTURE + 256 + slot * 8L;
        if (segment == 1 && r.nextInt(4) == 0) a = TestDevice.PRIVATE_APERTURE + 256 + (slot % 200) * 16L;
        if (block) a = blockStart + 4L * dwords * l;
        if (useSaddr) {
          m.w.setS64(saddr, DATA);
          m.setV(addr, l, (int) (a - DATA - offset));
        } else {
          m.setV64(addr, l, a - offset);
        }
        where[l] = a;
      }
    }
    Enc e = Enc.of(t, f, op).flat(addr, store || atomic ? data : 0, segment == 1 ? 0 : useSaddr ? saddr : 0x7f, offset);
    if (segment == 2) {
      boolean vaddrPresent = !useSaddr || t.isCdna3();
      if (t.isCdna3()) e.bit(13, true); // sve: the VGPR offset is used
      if (!vaddrPresent) return;
    }
    if (!store && !atomic || glc) e.vdst(vdst);
    if (atomic) e.glc(glc);
    if (useSaddr) e.set(48, 7, saddr);
    m.snapshot();
    ByteBuffer mem = ByteBuffer.wrap(bytes.clone()).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer lds = ByteBuffer.wrap(m.savedLds.clone()).order(ByteOrder.LITTLE_ENDIAN);
    m.run(e);
    int[] v = m.savedV.clone();
    for (int l = 0; l < 64; l++) {
      if ((exec >>> l & 1) == 0) continue;
      for (int k = 0; k < dwords; k++) {
        ByteBuffer buf;
        int at;
        int atHigh; // the next dword: elsewhere in private memory, which interleaves the lanes' dwords
        if (segment == 2) {
          buf = mem;
          at = (int) (privateAddress(where[l] + 4L * k, l) - Machine.MEM);
          atHigh = (int) (privateAddress(where[l] + 4L * k + 4, l) - Machine.MEM);
        } else if ((where[l] - TestDevice.SHARED_APERTURE) >>> 32 == 0) {
          buf = lds;
          at = (int) (where[l] - TestDevice.SHARED_APERTURE) + 4 * k;
          atHigh = at + 4;
        } else if ((where[l] - TestDevice.PRIVATE_APERTURE) >>> 32 == 0) {
          buf = mem;
          at = (int) (privateAddress(where[l] - TestDevice.PRIVATE_APERTURE + 4L * k, l) - Machine.MEM);
          atHigh = (int) (privateAddress(where[l] - TestDevice.PRIVATE_APERTURE + 4L * k + 4, l) - Machine.MEM);
        } else {
          buf = mem;
          at = (int) (where[l] - Machine.MEM) + 4 * k;
          atHigh = at + 4;
        }
        if (store) {
          int value = m.before(data + k, l);
          if (kind.endsWith("D16_HI")) value >>>= 16;
          if (bytesPer == 1) buf.put(at, (byte) value);
          else if (bytesPer == 2) buf.putShort(at, (short) value);
          else buf.putInt(at, value);
        } else if (!atomic) {
          int raw = bytesPer == 1 ? buf.get(at) : bytesPer == 2 ? buf.getShort(at) : buf.getInt(at);
          v[(vdst + k) * 64 + l] = loaded(kind, raw, m.before(vdst + k, l));
        } else if (wide) {
          long old = (buf.getInt(at) & 0xffff_ffffL) | (long) buf.getInt(atHigh) << 32;
          long x = m.before64(data, l);
          long nv = switch (kind) {
            case "ATOMIC_ADD_X2" -> old + x;
            case "ATOMIC_XOR_X2" -> old ^ x;
            case "ATOMIC_UMAX_X2" -> Long.compareUnsigned(old, x) > 0 ? old : x;
            default -> old == m.before64(data + 2, l) ? x : old; // CMPSWAP: DATA[0] the new value, DATA[1] compare
          };
          buf.putInt(at, (int) nv);
          buf.putInt(atHigh, (int) (nv >>> 32));
          if (glc) {
            v[vdst * 64 + l] = (int) old;
            v[(vdst + 1) * 64 + l] = (int) (old >>> 32);
          }
        } else {
          int old = buf.getInt(at);
          int x = m.before(data, l);
          int nv = switch (kind) {
            case "ATOMIC_ADD" -> old + x;
            case "ATOMIC_SWAP" -> x;
            case "ATOMIC_SMAX" -> Math.max(old, x);
            case "ATOMIC_UMIN" -> Integer.compareUnsigned(old, x) < 0 ? old : x;
            case "ATOMIC_AND" -> old & x;
            case "ATOMIC_INC" -> Integer.compareUnsigned(old, x) >= 0 ? 0 : old + 1;
            case "ATOMIC_DEC" -> old == 0 || Integer.compareUnsigned(old, x) > 0 ? x : old - 1;
            default -> old == m.before(data + 1, l) ? x : old; // CMPSWAP
          };
          buf.putInt(at, nv);
          if (glc) v[vdst * 64 + l] = old;
        }
      }
    }
    m.assertState(v, m.savedS, m.text(e));
    byte[] now = new byte[REGION];
    m.memory.read(Machine.MEM, now, 0, now.length);
    compare(mem.array(), now, m.text(e) + " memory");
    compare(lds.array(), m.group.lds().read(0, m.group.lds().capacity()), m.text(e) + " LDS");
  }

  static void compare(byte[] want, byte[] got, String what) {
    for (int i = 0; i < want.length; i++) {
      if (want[i] != got[i]) {
        throw new AssertionError(String.format("%s: byte 0x%x is 0x%02x, expected 0x%02x", what, i, got[i], want[i]));
      }
    }
  }

  @Property(tries = 80)
  void loadsIntoLds(@ForAll("targets") Target t, @ForAll long seed) throws Exception {
    Random r = new Random(seed);
    Machine m = new Machine(t);
    m.randomize(r, 8);
    byte[] bytes = new byte[DATA_SIZE];
    r.nextBytes(bytes);
    m.memory.write(DATA, bytes, 0, bytes.length);
    long exec = Vals.exec(r);
    m.w.setExec(exec);
    int m0 = 4 * r.nextInt(256);
    m.w.s[Wave.M0] = m0;
    int offset = 4 * r.nextInt(16);
    for (int l = 0; l < 64; l++) m.setV(0, l, 4 * r.nextInt(1024));
    m.w.setS64(10, DATA);
    boolean sbyte = r.nextBoolean();
    Enc e;
    if (t.isCdna3()) {
      e = Enc.of(t, Format.GLOBAL, sbyte ? Operation.GLOBAL_LOAD_LDS_SBYTE : Operation.GLOBAL_LOAD_LDS_DWORD)
          .flat(0, 0, 10, offset);
    } else {
      e = Enc.of(t, Format.GLOBAL, sbyte ? Operation.GLOBAL_LOAD_SBYTE : Operation.GLOBAL_LOAD_DWORD)
          .flat(0, 0, 10, offset).bit(13, true);
    }
    m.snapshot();
    m.run(e);
    ByteBuffer mem = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer lds = ByteBuffer.wrap(m.savedLds.clone()).order(ByteOrder.LITTLE_ENDIAN);
    for (int l = 0; l < 64; l++) {
      if ((exec >>> l & 1) == 0) continue;
      int at = m.before(0, l) + offset;
      lds.putInt(m0 + offset + 4 * l, sbyte ? mem.get(at) : mem.getInt(at));
    }
    m.assertState(m.savedV, m.savedS, m.text(e));
    compare(lds.array(), m.group.lds().read(0, m.group.lds().capacity()), m.text(e) + " LDS");
  }
}
