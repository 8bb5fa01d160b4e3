package dev.hipsim.hsa.loader;

import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaStatus;

/**
 * A code object cannot be loaded: not an AMDGPU HSA code object, an unsupported version, a target the agent does
 * not match, a relocation the loader does not know, or a corrupt ELF (the message then names the file offset).
 * Carries ROCr's status: INVALID_CODE_OBJECT, INCOMPATIBLE_ARGUMENTS or VARIABLE_UNDEFINED.
 */
public class CodeObjectException extends HsaException {
  private static final long serialVersionUID = 1L;

  public CodeObjectException(String message) {
    super(HsaStatus.INVALID_CODE_OBJECT, message);
  }

  public CodeObjectException(String message, Throwable cause) {
    super(HsaStatus.INVALID_CODE_OBJECT, message, cause);
  }

  public CodeObjectException(HsaStatus status, String message) {
    super(status, message);
  }

  public CodeObjectException(HsaStatus status, String message, Throwable cause) {
    super(status, message, cause);
  }
}
