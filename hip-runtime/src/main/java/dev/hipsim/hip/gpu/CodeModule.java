package dev.hipsim.hip.gpu;

import dev.hipsim.bundle.BundleEntry;
import dev.hipsim.bundle.BundleFormatException;
import dev.hipsim.bundle.BundleReader;
import dev.hipsim.bundle.OffloadBundle;
import dev.hipsim.bundle.ReadOptions;
import dev.hipsim.bundle.target.NoCompatibleEntryException;
import dev.hipsim.bundle.target.TargetMatcher;
import dev.hipsim.elf.ByteSource;
import dev.hipsim.elf.ElfFile;
import dev.hipsim.hip.api.HipError;
import dev.hipsim.hip.api.HipException;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.loader.CodeObjectReader;
import dev.hipsim.hsa.loader.Executable;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import java.nio.ByteBuffer;
import java.util.List;
import dev.hipsim.bundle.metadata.PrintfFormat;

/**
 * A module: device code the program registered (a fat binary of one translation unit) or loaded (hipModuleLoad).
 * Its image is an offload bundle or a bare code object; the code object for the device is chosen by ROCm's
 * target-ID rules and loaded into an HSA executable on first use, as CLR defers loading.
 */
public final class CodeModule {
  private final long handle;
  private final String origin;
  private final ByteBuffer image;
  private Executable executable;
  /** The code object for the machine, once read (by {@link #prepare} or the first use). */
  private CodeObjectReader reader;
  private volatile List<PrintfFormat> printfFormats = List.of();
  private final List<LoadHook> hooks = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** Runs once the module's code is loaded on the machine (managed variables set their device pointers so). */
  @FunctionalInterface
  public interface LoadHook {
    void loaded(Machine machine, Executable executable) throws HipException;
  }

  private final Faults missingCode;

  /** A module loaded through the module API: a missing code object is an error the call returns. */
  public CodeModule(long handle, String origin, ByteBuffer image) {
    this(handle, origin, image, null);
  }

  /**
   * @param missingCode for fat binaries the program registered: how the process ends when none of the code
   *     objects suits the device (CLR aborts with hipErrorNoBinaryForGpu); null to return the error instead
   */
  public CodeModule(long handle, String origin, ByteBuffer image, Faults missingCode) {
    this.handle = handle;
    this.origin = origin;
    this.image = image.duplicate().order(java.nio.ByteOrder.LITTLE_ENDIAN);
    this.missingCode = missingCode;
  }

  public long handle() {
    return handle;
  }

  public String origin() {
    return origin;
  }

  /** The executable with this module's code object for the machine's GPU, loading it on first use. */
  public synchronized Executable executable(Machine machine) throws HipException {
    if (executable != null) return executable;
    if (reader == null) reader = read(machine, true);
    // No method reference: this runs at the program's first launch, where linking one costs a cold JVM.
    printfFormats = reader.metadata().isPresent() ? reader.metadata().get().printf() : List.of();
    try {
      Executable e = machine.hsa().createExecutable();
      e.loadAgentCodeObject(reader, machine.agent());
      e.freeze();
      executable = e;
      for (LoadHook h : hooks) h.loaded(machine, e);
      return e;
    } catch (HsaException e) {
      throw new HipException(HipError.INVALID_IMAGE, origin + ": " + e.getMessage());
    }
  }

  /**
   * Chooses and reads (checks, decodes the metadata of) the code object for the machine ahead of the first use,
   * which then only places it in device memory. Run off the program's thread while its host code goes on; a failure
   * is left for the first use to report, as it would without this.
   */
  public synchronized void prepare(Machine machine) {
    if (reader != null || executable != null) return;
    try {
      reader = read(machine, false);
    } catch (HipException | RuntimeException e) {
      // Reported by the first use, which reads again.
    }
  }

  /**
   * Rehearses the code of the module's code object ({@link dev.hipsim.isa.interp.Rehearsal}) once it is read, until a
   * launch begins ({@link HeadStart#rehearse}); nothing when the code object is loaded already, could not be read, or
   * its code was rehearsed already. For the background preparation, after {@link #prepare}. Returns the number of
   * runs generated.
   */
  int rehearse(Machine machine, HeadStart headStart) {
    CodeObjectReader r;
    synchronized (this) {
      if (executable != null || reader == null) return 0;
      r = reader;
    }
    try {
      java.util.Optional<dev.hipsim.isa.interp.Rehearsal.Code> code =
          dev.hipsim.isa.interp.Rehearsal.Code.of(r.codeObject().elf());
      return code.isEmpty() ? 0 : headStart.rehearse(machine.engine().target(), code.get());
    } catch (dev.hipsim.elf.ElfFormatException | RuntimeException e) {
      return 0; // only a head start: the first launch reads the code object again and reports what is wrong
    }
  }

  /** The code object for the machine, read; {@code report}: end the process as CLR does when there is none. */
  private CodeObjectReader read(Machine machine, boolean report) throws HipException {
    ByteBuffer code = codeObjectFor(machine, report);
    try {
      return CodeObjectReader.fromMemory(code);
    } catch (HsaException e) {
      throw new HipException(HipError.INVALID_IMAGE, origin + ": " + e.getMessage());
    }
  }

  /** Adds a hook run when the code is loaded (at once if it already is). */
  public synchronized void onLoad(Machine machine, LoadHook hook) throws HipException {
    hooks.add(hook);
    if (executable != null) hook.loaded(machine, executable);
  }

  /** The {@code amdhsa.printf} format strings of the loaded code object (buffered printf). */
  public List<PrintfFormat> printfFormats() {
    return printfFormats;
  }

  /** Whether the code object for the machine is loaded. */
  public synchronized boolean loaded() {
    return executable != null;
  }

  public ExecutableSymbol.Kernel kernel(Machine machine, String name) throws HipException {
    try {
      return executable(machine).kernel(name, machine.agent());
    } catch (HsaException e) {
      throw new HipException(HipError.INVALID_DEVICE_FUNCTION, origin + ": " + e.getMessage());
    }
  }

  public ExecutableSymbol.Variable variable(Machine machine, String name) throws HipException {
    try {
      return executable(machine).variable(name, machine.agent());
    } catch (HsaException e) {
      throw new HipException(HipError.NOT_FOUND, origin + ": " + e.getMessage());
    }
  }

  /** Releases the loaded code (hipModuleUnload, __hipUnregisterFatBinary). */
  public synchronized void unload() {
    if (executable != null) {
      try {
        executable.destroy();
      } catch (HsaException e) {
        // Destroying an executable only frees its memory; nothing the program could act on.
      }
      executable = null;
    }
  }

  /** The code object of {@code bundle} that ROCm's target-ID rules choose for {@code device}. */
  static ByteBuffer codeObjectIn(OffloadBundle bundle, dev.hipsim.bundle.target.TargetId device)
      throws NoCompatibleEntryException, BundleFormatException {
    TargetMatcher.Selection<BundleEntry> s = TargetMatcher.select(bundle.deviceEntries(), BundleEntry::id, device);
    return bundle.contents(s.chosen());
  }

  private ByteBuffer codeObjectFor(Machine machine, boolean report) throws HipException {
    if (ElfFile.hasElfMagic(image, 0)) return image;
    try {
      return codeObjectIn(BundleReader.read(ByteSource.of(image), 0, image.limit(), ReadOptions.DEFAULT),
          machine.agent().targetId());
    } catch (NoCompatibleEntryException e) {
      if (missingCode != null && report) {
        missingCode.fatal("\"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\"\n"
            + "hipsim: " + origin + " has no code object for " + machine.agent().isaName() + " (hipsim run "
            + "--device picks another GPU): " + e.getMessage());
      }
      throw new HipException(HipError.NO_BINARY_FOR_GPU, origin + ": no code object for "
          + machine.agent().isaName() + ": " + e.getMessage());
    } catch (BundleFormatException e) {
      throw new HipException(HipError.INVALID_IMAGE, origin + ": " + e.getMessage());
    }
  }

  /** Reads bytes of an image still in the program's memory, by offset from its start. */
  public interface ImageReader {
    ByteBuffer map(long offset, long length);
  }

  /**
   * How many bytes the offload bundle (plain or compressed) or code object at the start of an image occupies, read
   * from its headers: registration only has a pointer to it.
   */
  public static long imageSize(ImageReader in) throws HipException {
    ByteBuffer h = in.map(0, 32).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    byte[] magic = new byte[24];
    h.get(0, magic);
    String text = new String(magic, java.nio.charset.StandardCharsets.ISO_8859_1);
    if (text.equals(BundleReader.PLAIN_MAGIC)) {
      long count = h.getLong(24);
      if (count < 0 || count > BundleReader.MAX_ENTRIES) {
        throw new HipException(HipError.INVALID_IMAGE, "offload bundle declares " + count + " entries");
      }
      long pos = 32;
      long end = 32;
      for (long i = 0; i < count; i++) {
        ByteBuffer e = in.map(pos, 24).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long offset = e.getLong(0);
        long size = e.getLong(8);
        long idLength = e.getLong(16);
        if (offset < 0 || size < 0 || idLength < 0 || idLength > 4096) {
          throw new HipException(HipError.INVALID_IMAGE, "offload bundle entry " + i + " is corrupt");
        }
        pos += 24 + idLength;
        end = Math.max(end, offset + size);
      }
      return Math.max(end, pos);
    }
    if (text.startsWith("CCOB")) {
      int version = h.getShort(4) & 0xffff;
      if (version == 2) return h.getInt(8) & 0xffff_ffffL;
      if (version == 3) return h.getLong(8);
      throw new HipException(HipError.INVALID_IMAGE, "compressed bundle version " + version
          + " does not record its size; load it from a file instead");
    }
    if (ElfFile.hasElfMagic(h, 0)) {
      ByteBuffer eh = in.map(0, 64).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      long shoff = eh.getLong(0x28);
      int shentsize = eh.getShort(0x3a) & 0xffff;
      int shnum = eh.getShort(0x3c) & 0xffff;
      return Math.max(64, shoff + (long) shnum * shentsize);
    }
    throw new HipException(HipError.INVALID_IMAGE, "not an offload bundle or a code object");
  }
}
