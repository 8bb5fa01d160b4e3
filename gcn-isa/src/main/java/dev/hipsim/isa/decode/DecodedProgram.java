package dev.hipsim.isa.decode;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;

/**
 * A decoded range of machine code (a kernel, or a whole {@code .text}): the instructions in address order and an
 * index from address to instruction, so an interpreter can fetch by program counter and follow branches with an
 * array lookup.
 */
public final class DecodedProgram {
  private final Target target;
  private final long baseAddress;
  private final int length;
  private final Instruction[] instructions;
  /** For each dword of the range, the index of the instruction starting there, or -1. */
  private final int[] indexByDword;

  private DecodedProgram(Target target, long baseAddress, int length, Instruction[] instructions,
      int[] indexByDword) {
    this.target = target;
    this.baseAddress = baseAddress;
    this.length = length;
    this.instructions = instructions;
    this.indexByDword = indexByDword;
  }

  static DecodedProgram decode(Decoder decoder, byte[] code, int offset, int length, long baseAddress) {
    if (offset < 0 || length < 0 || offset + length > code.length) {
      throw new IllegalArgumentException("range [" + offset + ", " + (offset + length) + ") outside code of "
          + code.length + " bytes");
    }
    Instruction[] out = new Instruction[Math.max(1, length / 4)];
    int[] index = new int[(length + 3) / 4];
    Arrays.fill(index, -1);
    int n = 0;
    int pos = 0;
    while (pos < length) {
      Instruction inst = decoder.decode(code, offset + pos, offset + length, baseAddress + pos);
      if (n == out.length) out = Arrays.copyOf(out, n * 2);
      out[n] = inst;
      index[pos / 4] = n;
      n++;
      pos += Math.max(inst.size(), 1);
    }
    return new DecodedProgram(decoder.target(), baseAddress, length, Arrays.copyOf(out, n), index);
  }

  public Target target() {
    return target;
  }

  public long baseAddress() {
    return baseAddress;
  }

  /** Length of the range in bytes. */
  public int length() {
    return length;
  }

  public int size() {
    return instructions.length;
  }

  public Instruction get(int index) {
    return instructions[index];
  }

  /** The index of the instruction that starts at {@code address}, or -1. */
  public int indexOf(long address) {
    long rel = address - baseAddress;
    if (rel < 0 || rel >= length || (rel & 3) != 0) return -1;
    return indexByDword[(int) (rel >>> 2)];
  }

  /** The instruction that starts at {@code address}, or null. */
  public Instruction at(long address) {
    int i = indexOf(address);
    return i < 0 ? null : instructions[i];
  }

  public List<Instruction> instructions() {
    return new AbstractList<>() {
      @Override
      public Instruction get(int index) {
        return instructions[index];
      }

      @Override
      public int size() {
        return instructions.length;
      }
    };
  }
}
