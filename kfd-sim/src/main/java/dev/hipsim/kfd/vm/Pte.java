package dev.hipsim.kfd.vm;

/**
 * The GFX9 page-table word formats (gmc_v9_0.c, amdgpu_vm.h), as the hardware reads them from VRAM.
 *
 * <pre>
 * PTE: 63:59 reserved | 58:57 MTYPE | 56 F (translate further) | 55 L | 54 P | 53 SW | 51 T (PRT)
 *      47:12 4 KiB physical page | 11:7 fragment | 6 W | 5 R | 4 X | 3 Z | 2 snooped | 1 system | 0 valid
 * PDE: 63:59 block fragment size | 54 P | 47:6 physical address of the next table | 2 C | 1 system | 0 valid
 * </pre>
 *
 * The VA splits into PDB2 [47:39], PDB1 [38:30], PDB0 [29:21], PTB [20:12] and the byte in the page [11:0]. With
 * gfx90a/gfx942's translate-further mode a PDB0 entry is a 2 MiB PTE unless its F bit says it points to a PTB.
 */
public final class Pte {
  private Pte() {}

  public static final long VALID = 1L;
  public static final long SYSTEM = 1L << 1;
  public static final long SNOOPED = 1L << 2;
  public static final long TMZ = 1L << 3;
  public static final long EXECUTABLE = 1L << 4;
  public static final long READABLE = 1L << 5;
  public static final long WRITEABLE = 1L << 6;
  public static final int FRAGMENT_SHIFT = 7;
  public static final long FRAGMENT_MASK = 0x1fL << FRAGMENT_SHIFT;
  public static final long ADDRESS_MASK = 0x0000_ffff_ffff_f000L;
  public static final long PRT = 1L << 51;
  /** P: a PDE that is itself a PTE (huge page). Cleared at PDB0 in translate-further mode. */
  public static final long PDE_PTE = 1L << 54;
  public static final long LOG = 1L << 55;
  /** F: translate further, set on a PDB0 entry that points to a PTB. */
  public static final long TRANSLATE_FURTHER = 1L << 56;
  public static final int MTYPE_SHIFT = 57;
  public static final long MTYPE_MASK = 3L << MTYPE_SHIFT;
  public static final int MTYPE_NC = 0;
  /** RW on gfx90a and later (WC on older parts). */
  public static final int MTYPE_RW = 1;
  public static final int MTYPE_CC = 2;
  public static final int MTYPE_UC = 3;
  public static final long PDE_ADDRESS_MASK = 0x0000_ffff_ffff_ffc0L;
  public static final int PDE_BFS_SHIFT = 59;

  public static final int LEVEL_BITS = 9;
  public static final int PAGE_SHIFT = 12;
  public static final long PAGE_SIZE = 1L << PAGE_SHIFT;
  public static final int HUGE_SHIFT = 21;
  public static final long HUGE_SIZE = 1L << HUGE_SHIFT;
  /** Addresses at or above this are in the hole or the kernel's upper half: never a user mapping. */
  public static final long VA_LIMIT = 1L << 47;
  /** Invalid PTB entries carry X: amdgpu's workaround for the GMC9 fault-priority problem. */
  public static final long INVALID_PTE = EXECUTABLE;

  public static long mtype(int mtype) {
    return (long) mtype << MTYPE_SHIFT;
  }

  public static int mtypeOf(long pte) {
    return (int) ((pte & MTYPE_MASK) >>> MTYPE_SHIFT);
  }

  public static int fragmentOf(long pte) {
    return (int) ((pte & FRAGMENT_MASK) >>> FRAGMENT_SHIFT);
  }

  public static long fragment(int fragment) {
    return (long) fragment << FRAGMENT_SHIFT;
  }

  public static long blockFragmentSize(int bfs) {
    return (long) bfs << PDE_BFS_SHIFT;
  }

  public static int blockFragmentSizeOf(long pde) {
    return (int) (pde >>> PDE_BFS_SHIFT);
  }

  /** Index of {@code va} in the table at {@code level} (0 = PDB2 root, 1 = PDB1, 2 = PDB0, 3 = PTB). */
  public static int index(long va, int level) {
    return (int) (va >>> (39 - LEVEL_BITS * level)) & ((1 << LEVEL_BITS) - 1);
  }

  public static boolean isValid(long entry) {
    return (entry & VALID) != 0;
  }

  public static String describe(long pte) {
    StringBuilder s = new StringBuilder(String.format("0x%016x [", pte));
    s.append(isValid(pte) ? 'V' : '-').append((pte & SYSTEM) != 0 ? 'S' : '-')
        .append((pte & READABLE) != 0 ? 'R' : '-').append((pte & WRITEABLE) != 0 ? 'W' : '-')
        .append((pte & EXECUTABLE) != 0 ? 'X' : '-').append(" frag ").append(fragmentOf(pte))
        .append(" mtype ").append(mtypeOf(pte)).append(']');
    return s.toString();
  }
}
