package dev.hipsim.cli;

import dev.hipsim.bundle.BundleEntry;
import dev.hipsim.bundle.BundleLocation;
import dev.hipsim.bundle.FatBinaryFile;
import dev.hipsim.bundle.OffloadBundle;
import dev.hipsim.bundle.metadata.CodeObjectInfo;
import dev.hipsim.bundle.offload.OffloadBinary;
import dev.hipsim.bundle.offload.OffloadImage;
import dev.hipsim.bundle.target.NoCompatibleEntryException;
import dev.hipsim.bundle.target.TargetId;
import dev.hipsim.bundle.target.TargetMatcher;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code hipsim extract FILE [--target TARGET_ID] [-o DIR]}: writes every device code object of every bundle (or,
 * with {@code --target}, the most specific compatible one per bundle) byte for byte as clang-offload-bundler
 * --unbundle writes it, to {@code DIR/NAME-BUNDLE-TARGET.hsaco} (':' in the target written as '_').
 */
@Command(name = "extract", mixinStandardHelpOptions = true,
    description = "Write the code objects of a host binary, shared library or offload bundle to files.")
final class ExtractCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILE",
      description = "host executable, shared library, relocatable object, offload bundle or code object")
  Path file;

  @Option(names = "--target", paramLabel = "TARGET_ID",
      description = "only the entry each bundle would load on this device, e.g. gfx90a:sramecc+:xnack-")
  String target;

  @Option(names = {"-o", "--output"}, paramLabel = "DIR", description = "directory to write to (default: .)")
  Path outputDirectory = Path.of(".");

  @Mixin ReadLimits limits;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InputException {
    TargetId device = TargetOption.device(spec, target);
    PrintWriter out = spec.commandLine().getOut();
    String base = file.getFileName() == null ? "out" : file.getFileName().toString();
    Set<String> written = new HashSet<>();
    try (FatBinaryFile f = FatBinaryFile.open(file, limits.options())) {
      Files.createDirectories(outputDirectory);
      for (BundleLocation l : f.bundles()) {
        OffloadBundle b = f.openBundle(l);
        for (BundleEntry e : chosen(b, device)) {
          String name = base + "-" + b.index() + "-" + safe(e.targetLabel());
          write(out, written, name, "hsaco", b.contents(e));
        }
      }
      int image = 0;
      for (OffloadBinary b : f.offloadBinaries()) {
        for (OffloadImage img : b.images()) {
          int index = image++;
          if (device != null && !TargetMatcher.check("hipv4-" + img.triple() + "--" + img.arch(), device)
              .isCompatible()) {
            continue;
          }
          String ext = img.imageKind().extension().equals("o") ? "hsaco" : img.imageKind().extension();
          write(out, written, base + "-image" + index + "-" + safe(img.arch()), ext, b.image(img));
        }
      }
      if (f.kind() == FatBinaryFile.Kind.CODE_OBJECT) {
        CodeObjectInfo info = CodeObjectInfo.of(f.elf().orElseThrow());
        if (device == null || TargetMatcher.check("hipv4-amdgcn-amd-amdhsa--" + info.targetId(), device).isCompatible()) {
          write(out, written, base + "-0-" + safe(info.targetId().toString()), "hsaco",
              f.source().slice(0, f.source().size()));
        }
      }
    } catch (IOException e) {
      throw CodeObjectReader.wrap(file, e);
    }
    if (written.isEmpty()) {
      throw new InputException(file + ": no code object to extract" + (device != null ? " for " + device : ""));
    }
    out.flush();
    return 0;
  }

  /** Every device entry, or the one the device would load. */
  private List<BundleEntry> chosen(OffloadBundle b, TargetId device) throws InputException {
    if (device == null) return b.deviceEntries();
    try {
      return List.of(b.select(device).chosen());
    } catch (NoCompatibleEntryException e) {
      throw new InputException(String.format("%s: bundle %d at file offset 0x%x: %s", file, b.index(), b.offset(),
          e.getMessage()), e);
    }
  }

  private void write(PrintWriter out, Set<String> written, String stem, String ext, ByteBuffer contents)
      throws IOException {
    String name = stem + "." + ext;
    for (int n = 1; !written.add(name); n++) name = stem + "." + n + "." + ext;
    Path path = outputDirectory.resolve(name);
    ByteBuffer view = contents.duplicate();
    long size = view.remaining();
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      while (view.hasRemaining()) ch.write(view);
    }
    out.printf("%s\t%d%n", path, size);
  }

  private static String safe(String label) {
    return label.replace(':', '_').replace('/', '_');
  }
}
