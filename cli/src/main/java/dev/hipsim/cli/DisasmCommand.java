package dev.hipsim.cli;

import dev.hipsim.bundle.BundleEntry;
import dev.hipsim.bundle.BundleLocation;
import dev.hipsim.bundle.FatBinaryFile;
import dev.hipsim.bundle.OffloadBundle;
import dev.hipsim.bundle.offload.OffloadBinary;
import dev.hipsim.bundle.offload.OffloadImage;
import dev.hipsim.bundle.target.NoCompatibleEntryException;
import dev.hipsim.bundle.target.TargetId;
import dev.hipsim.bundle.target.TargetMatcher;
import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfFormatException;
import dev.hipsim.isa.decode.Target;
import dev.hipsim.isa.disasm.CodeObjectDisassembler;
import dev.hipsim.isa.disasm.CodeObjectDisassembler.Function;
import dev.hipsim.isa.disasm.CodeObjectDisassembler.UnsupportedTargetException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code hipsim disasm FILE [--target TARGET_ID] [--kernel NAME]}: the device code of a host binary, shared library,
 * offload bundle or code object in llvm-objdump's syntax: per code object the functions of {@code .text}, each as a
 * label line and one line per instruction with its address and encoding.
 */
@Command(name = "disasm", mixinStandardHelpOptions = true,
    description = "Disassemble the gfx90a/gfx940/gfx942 device code of a host binary, bundle or code object.")
final class DisasmCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILE",
      description = "host executable, shared library, relocatable object, offload bundle or code object")
  Path file;

  @Option(names = "--target", paramLabel = "TARGET_ID",
      description = "only the code object each bundle would load on this device, e.g. gfx90a:sramecc+:xnack-")
  String target;

  @Option(names = "--kernel", paramLabel = "NAME", description = "only this function (its symbol name)")
  String kernel;

  @Mixin ReadLimits limits;

  @Spec CommandSpec spec;

  /** A code object found in the input and what to call it. */
  private record Found(String label, ByteBuffer bytes) {}

  @Override
  public Integer call() throws InputException {
    TargetId device = TargetOption.device(spec, target);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    int listed = 0;
    try (FatBinaryFile f = FatBinaryFile.open(file, limits.options())) {
      for (Found co : codeObjects(f, device)) {
        if (!ElfFile.hasElfMagic(co.bytes(), co.bytes().position())) {
          err.println("hipsim: " + co.label() + ": skipped, not an ELF code object");
          continue;
        }
        ElfFile elf;
        Target isa;
        try {
          elf = ElfFile.parse(co.bytes());
          isa = CodeObjectDisassembler.targetOf(elf);
        } catch (UnsupportedTargetException e) {
          err.println("hipsim: " + co.label() + ": skipped, " + e.getMessage());
          continue;
        } catch (ElfFormatException e) {
          throw new InputException(co.label() + ": " + e.getMessage(), e);
        }
        List<Function> funcs;
        try {
          funcs = CodeObjectDisassembler.functions(elf, isa);
        } catch (ElfFormatException e) {
          throw new InputException(co.label() + ": " + e.getMessage(), e);
        }
        if (kernel != null) funcs = funcs.stream().filter(fn -> fn.name().equals(kernel)).toList();
        if (funcs.isEmpty() && kernel != null) continue;
        out.printf("%n%s:\tfile format elf64-amdgpu (%s)%n%nDisassembly of section .text:%n%n", co.label(),
            isa.processor());
        for (Function fn : funcs) CodeObjectDisassembler.write(fn, out);
        listed++;
      }
    } catch (IOException e) {
      throw CodeObjectReader.wrap(file, e);
    }
    if (listed == 0) {
      String what = kernel != null ? "no function " + kernel : "no gfx90a/gfx940/gfx942 code object";
      throw new InputException(file + ": " + what + (device != null ? " for " + device : ""));
    }
    out.flush();
    return 0;
  }

  /** The code objects of the input: the file itself, or the (chosen) entries of its bundles and images. */
  private List<Found> codeObjects(FatBinaryFile f, TargetId device) throws IOException, InputException {
    List<Found> out = new ArrayList<>();
    if (f.kind() == FatBinaryFile.Kind.CODE_OBJECT) {
      out.add(new Found(file.toString(), f.source().slice(0, f.source().size())));
      return out;
    }
    for (BundleLocation l : f.bundles()) {
      OffloadBundle b = f.openBundle(l);
      for (BundleEntry e : chosen(b, device)) {
        out.add(new Found(String.format("%s#bundle%d:%s", file, b.index(), e.targetLabel()), b.contents(e)));
      }
    }
    int index = 0;
    for (OffloadBinary b : f.offloadBinaries()) {
      for (OffloadImage img : b.images()) {
        int n = index++;
        if (device != null && !TargetMatcher.check("hipv4-" + img.triple() + "--" + img.arch(), device)
            .isCompatible()) {
          continue;
        }
        out.add(new Found(String.format("%s#image%d:%s", file, n, img.arch()), b.image(img)));
      }
    }
    return out;
  }

  private List<BundleEntry> chosen(OffloadBundle b, TargetId device) throws InputException {
    if (device == null) return b.deviceEntries();
    try {
      return List.of(b.select(device).chosen());
    } catch (NoCompatibleEntryException e) {
      throw new InputException(String.format("%s: bundle %d at file offset 0x%x: %s", file, b.index(), b.offset(),
          e.getMessage()), e);
    }
  }
}
