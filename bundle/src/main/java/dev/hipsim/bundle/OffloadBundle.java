package dev.hipsim.bundle;

import dev.hipsim.bundle.target.NoCompatibleEntryException;
import dev.hipsim.bundle.target.TargetId;
import dev.hipsim.bundle.target.TargetMatcher;
import dev.hipsim.elf.ByteSource;
import dev.hipsim.elf.ElfFormatException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One bundle, read: where it lies, its entries, and their contents. The contents of a plain bundle's entries are
 * views of the file (no copy); a compressed bundle holds its decompressed payload in memory.
 */
public final class OffloadBundle {
  private final BundleLocation location;
  private final ByteSource payload;
  private final long payloadBase;
  private final long payloadSize;
  private final List<BundleEntry> entries;
  private final Optional<Boolean> hashMatches;
  private final List<String> warnings;

  OffloadBundle(BundleLocation location, ByteSource payload, long payloadBase, long payloadSize,
      List<BundleEntry> entries, Optional<Boolean> hashMatches, List<String> warnings) {
    this.location = location;
    this.payload = payload;
    this.payloadBase = payloadBase;
    this.payloadSize = payloadSize;
    this.entries = List.copyOf(entries);
    this.hashMatches = hashMatches;
    this.warnings = List.copyOf(warnings);
  }

  public BundleLocation location() {
    return location;
  }

  public int index() {
    return location.index();
  }

  /** File offset of the bundle. */
  public long offset() {
    return location.offset();
  }

  public BundleFormat format() {
    return location.format();
  }

  public Optional<CompressedHeader> compression() {
    return location.compression();
  }

  /** Size of the plain bundle (after decompression, for compressed ones). */
  public long uncompressedSize() {
    return payloadSize;
  }

  /** Entries in header order. */
  public List<BundleEntry> entries() {
    return entries;
  }

  /** Entries that carry device code (all but host entries). */
  public List<BundleEntry> deviceEntries() {
    return entries.stream().filter(e -> !e.isHost()).toList();
  }

  /** For compressed bundles: whether the stored MD5 hash matches the payload (a mismatch is reported, not fatal). */
  public Optional<Boolean> hashMatches() {
    return hashMatches;
  }

  /** Things that are odd but not fatal (hash mismatch, short payload, duplicate IDs). */
  public List<String> warnings() {
    return warnings;
  }

  /** The first entry with exactly this ID. */
  public Optional<BundleEntry> entry(String id) {
    return entries.stream().filter(e -> e.id().equals(id)).findFirst();
  }

  /** An entry's contents: a view of the file for plain bundles, of the decompressed payload otherwise. */
  public ByteBuffer contents(BundleEntry entry) throws BundleFormatException {
    if (entry.size() > Integer.MAX_VALUE) {
      throw new BundleFormatException(location.offset(), "entry " + entry.id() + " of " + entry.size()
          + " bytes is too large to hold in one buffer");
    }
    try {
      return payload.slice(payloadBase + entry.offset(), entry.size());
    } catch (ElfFormatException e) {
      throw new BundleFormatException(location.offset(), "entry " + entry.id() + " lies outside its bundle", e);
    }
  }

  /** File offset of an entry's contents; empty for compressed bundles, whose entries exist only decompressed. */
  public OptionalLong fileOffsetOf(BundleEntry entry) {
    return format() == BundleFormat.PLAIN ? OptionalLong.of(location.offset() + entry.offset()) : OptionalLong.empty();
  }

  /** The most specific entry that runs on {@code device}, with every entry's verdict. */
  public TargetMatcher.Selection<BundleEntry> select(TargetId device) throws NoCompatibleEntryException {
    return TargetMatcher.select(entries, BundleEntry::id, device);
  }
}
