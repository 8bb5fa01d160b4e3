package dev.hipsim.kfd.vm;

import dev.hipsim.kfd.mem.PageBacking;

/**
 * One cached translation of a 4 KiB virtual page. Immutable, so a reader racing with a refill sees either the old
 * entry or the new one whole. The {@code *Words} fields hold the page's words only when the PTE grants that kind of
 * access and the page is plain RAM: the hot path needs one null check per access, not a permission test.
 */
final class TlbEntry {
  final long vpn;
  final long pte;
  final PageBacking page;
  final long[] readWords;
  final long[] writeWords;
  final long[] atomicWords;

  TlbEntry(long vpn, long pte, PageBacking page) {
    this.vpn = vpn;
    this.pte = pte;
    this.page = page;
    long[] words = page.words();
    boolean r = (pte & Pte.READABLE) != 0;
    boolean w = (pte & Pte.WRITEABLE) != 0;
    this.readWords = r ? words : null;
    this.writeWords = w ? words : null;
    this.atomicWords = r && w ? words : null;
  }

  boolean allows(long permission) {
    return (pte & permission) == permission;
  }
}
