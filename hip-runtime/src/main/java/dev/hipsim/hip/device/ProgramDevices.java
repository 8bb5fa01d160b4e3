package dev.hipsim.hip.device;

import dev.hipsim.bundle.BundleEntry;
import dev.hipsim.bundle.BundleLocation;
import dev.hipsim.bundle.FatBinaryFile;
import dev.hipsim.bundle.OffloadBundle;
import dev.hipsim.bundle.ReadOptions;
import dev.hipsim.bundle.target.EntryId;
import dev.hipsim.bundle.target.TargetId;
import dev.hipsim.elf.DynamicEntry;
import dev.hipsim.elf.ElfFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which simulated GPU runs a program when none is asked for ({@code hipsim run} without {@code --device}, or the
 * runtime started with no HIPSIM_DEVICE): one the program's device code targets. The program and the shared
 * libraries it needs that sit next to it (where {@code $ORIGIN} run paths find a HIP library) are searched for
 * code objects; among the devices they can run on, gfx90a (MI210) comes first, then gfx942 (MI300X), then gfx940
 * (MI300A). A file that cannot be read is skipped: the program may still run.
 */
public final class ProgramDevices {
  /** Preference order when the program carries code for several simulated devices. */
  public static final List<String> PREFERENCE = List.of("gfx90a", "gfx942", "gfx940");

  private ProgramDevices() {}

  /** The device to run {@code program} on, if its code names one hipsim simulates. */
  public static Optional<DeviceModel> choose(Path program) {
    Set<String> processors = processors(program);
    for (String p : PREFERENCE) {
      if (processors.contains(p)) return Optional.of(DeviceModel.forName(p));
    }
    return Optional.empty();
  }

  /** The processors of every device code object in the program and its neighbouring NEEDED libraries. */
  public static Set<String> processors(Path program) {
    Set<String> out = new LinkedHashSet<>();
    List<Path> files = new ArrayList<>();
    files.add(program);
    files.addAll(neighbours(program));
    for (Path f : files) {
      try (FatBinaryFile fat = FatBinaryFile.open(f, ReadOptions.DEFAULT)) {
        for (BundleLocation loc : fat.bundles()) out.addAll(processors(fat.openBundle(loc)));
      } catch (IOException | RuntimeException e) {
        // Not a HIP binary, or not readable: nothing to learn from it.
      }
    }
    return out;
  }

  /** The processors of the device code objects in {@code bundle} (entries whose IDs do not parse are left out). */
  public static Set<String> processors(OffloadBundle bundle) {
    Set<String> out = new LinkedHashSet<>();
    for (BundleEntry e : bundle.deviceEntries()) {
      e.parsedId().flatMap(EntryId::target).map(TargetId::processor).ifPresent(out::add);
    }
    return out;
  }

  /** DT_NEEDED libraries of {@code program} found in its own directory. */
  public static List<Path> neighbours(Path program) {
    List<Path> out = new ArrayList<>();
    Path dir = program.toAbsolutePath().getParent();
    if (dir == null) return out;
    try {
      ElfFile elf = ElfFile.open(program);
      for (DynamicEntry d : elf.dynamic()) {
        if (d.tag() != DynamicEntry.DT_NEEDED) continue;
        Path lib = dir.resolve(elf.dynamicString(d.value()));
        if (Files.isRegularFile(lib)) out.add(lib);
      }
    } catch (IOException | RuntimeException e) {
      // Not an ELF file with a dynamic section: no libraries to look at.
    }
    return out;
  }
}
