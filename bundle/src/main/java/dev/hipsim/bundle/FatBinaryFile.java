package dev.hipsim.bundle;

import dev.hipsim.bundle.host.HostFatBinaries;
import dev.hipsim.bundle.host.HostOffloadInfo;
import dev.hipsim.bundle.offload.OffloadBinary;
import dev.hipsim.bundle.offload.OffloadBinaryReader;
import dev.hipsim.elf.ByteSource;
import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfFormatException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Any file that carries device code, recognised by its first bytes: a host ELF (executable, shared library or
 * relocatable object) with {@code .hip_fatbin} / {@code .llvm.offloading}, a bare AMDGPU code object, one or more
 * bare bundles (plain or compressed), or bare OffloadBinaries.
 *
 * <p>Opening only reads headers: bundles are located without being decompressed, and are read one at a time with
 * {@link #openBundle}, so even a 1.3 GB {@code .hip_fatbin} costs little heap.
 */
public final class FatBinaryFile implements Closeable {
  /** What the file is. */
  public enum Kind {
    HOST_ELF("host ELF"),
    CODE_OBJECT("AMDGPU code object"),
    BUNDLES("offload bundle"),
    OFFLOAD_BINARIES("OffloadBinary");

    private final String displayName;

    Kind(String displayName) {
      this.displayName = displayName;
    }

    public String displayName() {
      return displayName;
    }
  }

  private final ByteSource source;
  private final boolean ownsSource;
  private final ReadOptions options;
  private final Kind kind;
  private final Optional<ElfFile> elf;
  private final Optional<HostOffloadInfo> host;
  private final List<BundleLocation> bundles;
  private final List<OffloadBinary> offloadBinaries;

  private FatBinaryFile(ByteSource source, boolean ownsSource, ReadOptions options) throws IOException {
    this.source = source;
    this.ownsSource = ownsSource;
    this.options = options;
    if (isElf(source)) {
      ElfFile parsed = ElfFile.parse(source);
      this.elf = Optional.of(parsed);
      if (parsed.header().isAmdgpu()) {
        this.kind = Kind.CODE_OBJECT;
        this.host = Optional.empty();
        this.bundles = List.of();
        this.offloadBinaries = List.of();
      } else {
        HostOffloadInfo info = HostFatBinaries.discover(parsed, options);
        this.kind = Kind.HOST_ELF;
        this.host = Optional.of(info);
        this.bundles = info.bundles();
        this.offloadBinaries = info.offloadBinaries();
      }
    } else if (BundleReader.isBundleAt(source, 0)) {
      this.kind = Kind.BUNDLES;
      this.elf = Optional.empty();
      this.host = Optional.empty();
      this.bundles = BundleReader.locate(source, 0, source.size(), options);
      this.offloadBinaries = List.of();
    } else if (OffloadBinaryReader.isOffloadBinaryAt(source, 0)) {
      this.kind = Kind.OFFLOAD_BINARIES;
      this.elf = Optional.empty();
      this.host = Optional.empty();
      this.bundles = List.of();
      this.offloadBinaries = OffloadBinaryReader.readAll(source, 0, source.size(), options);
    } else {
      throw new BundleFormatException(0, "not an ELF file, offload bundle (__CLANG_OFFLOAD_BUNDLE__ or CCOB) or"
          + " OffloadBinary");
    }
  }

  /** Opens a file; close the result to release it. */
  public static FatBinaryFile open(Path path, ReadOptions options) throws IOException {
    ByteSource source = ByteSource.open(path);
    try {
      return new FatBinaryFile(source, true, options);
    } catch (IOException | RuntimeException e) {
      source.close();
      throw e;
    }
  }

  /** Reads from a source the caller keeps ownership of. */
  public static FatBinaryFile of(ByteSource source, ReadOptions options) throws IOException {
    return new FatBinaryFile(source, false, options);
  }

  private static boolean isElf(ByteSource s) {
    try {
      return s.size() >= 4 && s.u8(0) == 0x7f && s.u8(1) == 'E' && s.u8(2) == 'L' && s.u8(3) == 'F';
    } catch (ElfFormatException e) {
      return false;
    }
  }

  public Kind kind() {
    return kind;
  }

  public ByteSource source() {
    return source;
  }

  public ReadOptions options() {
    return options;
  }

  /** The ELF file, for host binaries and code objects. */
  public Optional<ElfFile> elf() {
    return elf;
  }

  /** Wrappers and sections, for host ELFs. */
  public Optional<HostOffloadInfo> host() {
    return host;
  }

  /** Every bundle, in file order (located, not yet read). */
  public List<BundleLocation> bundles() {
    return bundles;
  }

  /** Reads one bundle: its entries, decompressed if need be. */
  public OffloadBundle openBundle(BundleLocation location) throws BundleFormatException {
    return BundleReader.open(source, location, options);
  }

  public List<OffloadBinary> offloadBinaries() {
    return offloadBinaries;
  }

  @Override
  public void close() throws IOException {
    if (ownsSource) source.close();
  }
}
