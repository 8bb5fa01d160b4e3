package dev.hipsim.bundle.host;

import dev.hipsim.bundle.BundleLocation;
import dev.hipsim.bundle.offload.OffloadBinary;
import dev.hipsim.elf.SectionHeader;
import java.util.List;
import java.util.Optional;

/**
 * The device code a host ELF carries: its fat-binary wrappers, the bundles of {@code .hip_fatbin} they point to,
 * and the OffloadBinaries of {@code .llvm.offloading} (relocatable objects built with the new offload driver).
 */
public record HostOffloadInfo(List<FatBinWrapper> wrappers, Optional<SectionHeader> fatbinSection,
    List<BundleLocation> bundles, List<OffloadBinary> offloadBinaries, List<String> warnings) {}
