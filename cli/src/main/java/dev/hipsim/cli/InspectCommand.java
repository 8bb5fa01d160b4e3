package dev.hipsim.cli;

import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfFormatException;
import dev.hipsim.elf.ElfHeader;
import dev.hipsim.elf.SectionHeader;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hipsim inspect FILE}: what a host binary or code object carries. */
@Command(name = "inspect", mixinStandardHelpOptions = true,
    description = "Show what a HIP host binary, shared library or code object carries.")
final class InspectCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILE", description = "host executable, shared library or code object")
  Path file;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    try (ElfFile elf = ElfFile.open(file)) {
      ElfHeader h = elf.header();
      out.printf("%s: ELF64 %s, %d sections, %d segments%n", file,
          h.isAmdgpu() ? "AMDGPU code object (" + elf.amdgpuTarget().targetId() + ", v"
              + elf.amdgpuTarget().codeObjectVersion() + ")" : h.machine() == ElfHeader.EM_X86_64 ? "x86-64" : "machine " + h.machine(),
          elf.sections().size(), elf.segments().size());
      for (SectionHeader s : elf.sections()) {
        if (s.name().equals(".hip_fatbin") || s.name().equals(".hipFatBinSegment")) {
          out.printf("  %-18s %8d bytes at file offset 0x%x%n", s.name(), s.size(), s.offset());
        }
      }
    } catch (ElfFormatException e) {
      throw new InputException(file + ": " + e.getMessage(), e);
    }
    out.flush();
    return 0;
  }
}
