package dev.hipsim.cli;

import dev.hipsim.bundle.BundleEntry;
import dev.hipsim.bundle.BundleLocation;
import dev.hipsim.bundle.FatBinaryFile;
import dev.hipsim.bundle.OffloadBundle;
import dev.hipsim.bundle.host.HostOffloadInfo;
import dev.hipsim.bundle.metadata.CodeObjectInfo;
import dev.hipsim.bundle.offload.OffloadBinary;
import dev.hipsim.bundle.offload.OffloadImage;
import dev.hipsim.elf.ElfFormatException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code hipsim inspect FILE [--json]}: the wrappers, bundles, entries and code objects (target, version, kernels
 * with their metadata) a host binary, shared library, bare bundle or bare code object carries. Bundles are read one
 * at a time and the report is streamed, so the heap stays small whatever the file's size.
 */
@Command(name = "inspect", mixinStandardHelpOptions = true,
    description = "Show the device code a HIP host binary, shared library, offload bundle or code object carries.")
final class InspectCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILE",
      description = "host executable, shared library, relocatable object, offload bundle or code object")
  Path file;

  @Option(names = "--json", description = "print JSON for scripts (shape: cli/README.md)")
  boolean json;

  @Option(names = "--no-kernels", description = "leave out per-kernel details (kernel counts stay)")
  boolean noKernels;

  @Mixin ReadLimits limits;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws InputException {
    PrintWriter out = spec.commandLine().getOut();
    InspectReport report = json ? new JsonReport(out, !noKernels) : new TextReport(out, !noKernels);
    try (FatBinaryFile f = FatBinaryFile.open(file, limits.options())) {
      walk(f, report);
    } catch (IOException e) {
      throw CodeObjectReader.wrap(file, e);
    }
    out.flush();
    return 0;
  }

  private void walk(FatBinaryFile f, InspectReport report) throws IOException, InputException {
    report.start(file, f);
    Optional<HostOffloadInfo> host = f.host();
    report.wrappers(host.map(HostOffloadInfo::wrappers).orElse(List.of()));
    report.beginBundles();
    for (BundleLocation l : f.bundles()) {
      OffloadBundle b = f.openBundle(l);
      report.bundle(b);
      for (BundleEntry e : b.entries()) {
        Optional<CodeObjectInfo> co = e.isHost() ? Optional.empty()
            : CodeObjectReader.read(file, b.contents(e), "bundle " + b.index() + " entry " + e.id(), b.fileOffsetOf(e));
        report.entry(b, e, co);
      }
      report.endBundle(b);
    }
    report.endBundles();
    report.beginOffloadBinaries();
    for (OffloadBinary b : f.offloadBinaries()) {
      report.offloadBinary(b);
      for (OffloadImage img : b.images()) {
        OptionalLong base = b.compressed() ? OptionalLong.empty() : OptionalLong.of(b.offset() + img.imageOffset());
        report.image(b, img, CodeObjectReader.read(file, b.image(img), "offload binary " + b.index() + " image "
            + img.index(), base));
      }
      report.endOffloadBinary(b);
    }
    report.endOffloadBinaries();
    Optional<CodeObjectInfo> bare = Optional.empty();
    if (f.kind() == FatBinaryFile.Kind.CODE_OBJECT) {
      bare = CodeObjectReader.read(file, f.source().slice(0, sizeOf(f)), "code object", OptionalLong.of(0));
    }
    report.codeObject(bare);
    List<String> warnings = new ArrayList<>(host.map(HostOffloadInfo::warnings).orElse(List.of()));
    report.finish(warnings);
  }

  private static long sizeOf(FatBinaryFile f) throws ElfFormatException {
    long size = f.source().size();
    if (size > Integer.MAX_VALUE) throw new ElfFormatException(0, "a code object of " + size + " bytes is too large");
    return size;
  }
}
