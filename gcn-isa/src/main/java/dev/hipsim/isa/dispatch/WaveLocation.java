package dev.hipsim.isa.dispatch;

/**
 * Where in a dispatch something happened: kernel, workgroup, wave within the workgroup, lane (or -1 when no single
 * lane applies), program counter (GPU virtual address) and the instruction there, as disassembled text.
 */
public record WaveLocation(
    String kernel, int workgroupX, int workgroupY, int workgroupZ, int wave, int lane, long pc, String instruction) {

  @Override
  public String toString() {
    return String.format("kernel %s, workgroup (%d,%d,%d), wave %d%s, pc 0x%x: %s", kernel, workgroupX, workgroupY,
        workgroupZ, wave, lane >= 0 ? ", lane " + lane : "", pc, instruction);
  }
}
