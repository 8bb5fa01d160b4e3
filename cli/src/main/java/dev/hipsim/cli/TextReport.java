package dev.hipsim.cli;

import dev.hipsim.bundle.BundleEntry;
import dev.hipsim.bundle.CompressedHeader;
import dev.hipsim.bundle.FatBinaryFile;
import dev.hipsim.bundle.OffloadBundle;
import dev.hipsim.bundle.host.FatBinWrapper;
import dev.hipsim.bundle.metadata.CodeObjectInfo;
import dev.hipsim.bundle.metadata.CodeObjectMetadata;
import dev.hipsim.bundle.metadata.KernelArgument;
import dev.hipsim.bundle.metadata.KernelMetadata;
import dev.hipsim.bundle.metadata.PrintfFormat;
import dev.hipsim.bundle.offload.OffloadBinary;
import dev.hipsim.bundle.offload.OffloadImage;
import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.SectionHeader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The report for people. */
final class TextReport implements InspectReport {
  private final PrintWriter out;
  private final boolean kernels;

  TextReport(PrintWriter out, boolean kernels) {
    this.out = out;
    this.kernels = kernels;
  }

  @Override
  public void start(Path file, FatBinaryFile f) {
    out.printf("%s: %s", file, f.kind().displayName());
    if (f.elf().isPresent() && f.kind() == FatBinaryFile.Kind.HOST_ELF) {
      ElfFile elf = f.elf().get();
      out.printf(" (%s %s)", Describe.machine(elf), Describe.elfType(elf));
      f.host().flatMap(h -> h.fatbinSection()).ifPresent((SectionHeader s) ->
          out.printf(", .hip_fatbin of %d bytes at file offset 0x%x", s.size(), s.offset()));
    }
    out.printf("%n");
  }

  @Override
  public void wrappers(List<FatBinWrapper> wrappers) {
    for (FatBinWrapper w : wrappers) {
      out.printf("wrapper %d at file offset 0x%x: %s version %d, binary 0x%x (%s) at file offset 0x%x%s%n",
          w.index(), w.fileOffset(), w.kind(), w.version(), w.binaryAddress(), Describe.pointerSource(w.pointerSource()),
          w.binaryFileOffset(), w.bundleIndex().isPresent() ? " -> bundle " + w.bundleIndex().getAsInt() : "");
    }
  }

  @Override
  public void beginBundles() {}

  @Override
  public void bundle(OffloadBundle b) {
    out.printf("bundle %d at file offset 0x%x: %s, %d bytes", b.index(), b.offset(), b.location().formatLabel(),
        b.location().length());
    if (b.compression().isPresent()) {
      CompressedHeader h = b.compression().get();
      out.printf(" (%d uncompressed, hash 0x%016x %s)", h.uncompressedSize(), h.storedHash(),
          b.hashMatches().orElse(true) ? "ok" : "MISMATCH");
    }
    out.printf(", %d entries%n", b.entries().size());
    for (String w : b.warnings()) out.printf("  warning: %s%n", w);
  }

  @Override
  public void entry(OffloadBundle b, BundleEntry e, Optional<CodeObjectInfo> co) {
    out.printf("  entry %d %s: %d bytes at bundle offset 0x%x%n", e.index(), e.id(), e.size(), e.offset());
    co.ifPresent(info -> codeObject(info, "    "));
  }

  @Override
  public void endBundle(OffloadBundle b) {}

  @Override
  public void endBundles() {}

  @Override
  public void beginOffloadBinaries() {}

  @Override
  public void offloadBinary(OffloadBinary b) {
    out.printf("offload binary %d at file offset 0x%x: version %d, %d bytes%s, %d image%s%n", b.index(), b.offset(),
        b.version(), b.length(), b.compressed() ? " (compressed)" : "", b.images().size(),
        b.images().size() == 1 ? "" : "s");
  }

  @Override
  public void image(OffloadBinary b, OffloadImage img, Optional<CodeObjectInfo> co) {
    out.printf("  image %d: kind %s, producer %s, triple %s, arch %s, %d bytes%n", img.index(),
        img.imageKind().objdumpName(), img.producer().displayName(), img.triple(), img.arch(), img.imageSize());
    co.ifPresent(info -> codeObject(info, "    "));
  }

  @Override
  public void endOffloadBinary(OffloadBinary b) {}

  @Override
  public void endOffloadBinaries() {}

  @Override
  public void codeObject(Optional<CodeObjectInfo> co) {
    co.ifPresent(info -> codeObject(info, ""));
  }

  @Override
  public void finish(List<String> warnings) {
    for (String w : warnings) out.printf("warning: %s%n", w);
    out.flush();
  }

  private void codeObject(CodeObjectInfo info, String indent) {
    Optional<CodeObjectMetadata> md = info.metadata();
    out.printf("%scode object: %s, code object v%d", indent, info.targetId(), info.codeObjectVersion());
    md.ifPresent(m -> out.printf(", metadata %s%s, %d kernel%s", m.version(),
        m.target().map(t -> " (" + t + ")").orElse(""), m.kernels().size(), m.kernels().size() == 1 ? "" : "s"));
    out.printf("%n");
    if (md.isEmpty() || !kernels) return;
    for (KernelMetadata k : md.get().kernels()) {
      out.printf("%s  kernel %s (%s)%n", indent, k.name(), k.symbol());
      out.printf("%s    kernarg %d bytes (align %d), LDS %d, scratch %d, wave%d, SGPRs %d, VGPRs %d, AGPRs %s,"
          + " max work-group %d, dynamic stack %s%n", indent, k.kernargSegmentSize(), k.kernargSegmentAlign(),
          k.groupSegmentFixedSize(), k.privateSegmentFixedSize(), k.wavefrontSize(), k.sgprCount(), k.vgprCount(),
          k.agprCount().isPresent() ? Integer.toString(k.agprCount().getAsInt()) : "-",
          k.maxFlatWorkgroupSize(), k.usesDynamicStack().map(d -> d ? "yes" : "no").orElse("-"));
      for (int i = 0; i < k.arguments().size(); i++) {
        KernelArgument a = k.arguments().get(i);
        StringBuilder s = new StringBuilder();
        s.append(String.format("%s    arg %d: offset %d size %d %s", indent, i, a.offset(), a.size(), a.valueKindName()));
        a.addressSpace().ifPresent(x -> s.append(' ').append(x.metadataName()));
        a.access().ifPresent(x -> s.append(' ').append(x.metadataName()));
        a.name().ifPresent(x -> s.append(" name ").append(x));
        a.typeName().ifPresent(x -> s.append(" type ").append(x));
        out.println(s);
      }
    }
    for (PrintfFormat p : md.get().printf()) {
      out.printf("%s  printf %d%s: \"%s\" (argument sizes %s)%n", indent, p.id(),
          p.hipHash().map(h -> " hash " + h).orElse(""), escape(p.format()), p.argumentSizes());
    }
  }

  private static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t").replace("\"", "\\\"");
  }
}
