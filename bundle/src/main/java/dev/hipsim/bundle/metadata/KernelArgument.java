package dev.hipsim.bundle.metadata;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One kernel argument ({@code .args} entry): where it lies in the kernarg segment and how it is passed.
 *
 * @param name source name, when the compiler recorded it
 * @param typeName source type, when recorded
 * @param offset byte offset in the kernarg segment
 * @param size size in bytes
 * @param valueKind how the argument is passed (hidden kinds are filled by the runtime)
 * @param valueKindName the spelling in the metadata (meaningful when {@code valueKind} is UNKNOWN)
 * @param addressSpace for pointers: the address space pointed into
 * @param access declared access of a buffer or image
 * @param actualAccess access the compiler observed
 * @param pointeeAlign alignment of the pointee for dynamic shared pointers
 * @param isConst {@code .is_const}
 * @param isRestrict {@code .is_restrict}
 * @param isVolatile {@code .is_volatile}
 * @param isPipe {@code .is_pipe}
 * @param otherFields keys this decoder does not model, with their values as text
 */
public record KernelArgument(
    Optional<String> name,
    Optional<String> typeName,
    long offset,
    long size,
    ValueKind valueKind,
    String valueKindName,
    Optional<AddressSpace> addressSpace,
    Optional<Access> access,
    Optional<Access> actualAccess,
    OptionalLong pointeeAlign,
    boolean isConst,
    boolean isRestrict,
    boolean isVolatile,
    boolean isPipe,
    Map<String, String> otherFields) {

  public boolean isHidden() {
    return valueKind.isHidden() || valueKindName.startsWith("hidden_");
  }
}
