package dev.hipsim.bundle.metadata;

import dev.hipsim.bundle.target.TargetId;
import dev.hipsim.elf.AmdgpuTarget;
import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfFormatException;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * What a code object says about itself: the target its ELF header names, its code-object version, and its decoded
 * metadata (absent for code object v2, which predates the MessagePack note).
 */
public record CodeObjectInfo(AmdgpuTarget target, TargetId targetId, int codeObjectVersion,
    Optional<CodeObjectMetadata> metadata) {

  /** Reads a code object held in a buffer (for example a bundle entry's contents), without copying it. */
  public static CodeObjectInfo read(ByteBuffer image) throws ElfFormatException, MetadataFormatException {
    return of(ElfFile.parse(image));
  }

  public static CodeObjectInfo of(ElfFile elf) throws ElfFormatException, MetadataFormatException {
    AmdgpuTarget target = elf.amdgpuTarget();
    return new CodeObjectInfo(target, TargetId.of(target), target.codeObjectVersion(), MetadataDecoder.of(elf));
  }
}
