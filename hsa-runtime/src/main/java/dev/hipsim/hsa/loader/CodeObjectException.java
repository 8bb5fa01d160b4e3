package dev.hipsim.hsa.loader;

/**
 * A code object cannot be loaded: not an AMDGPU HSA code object, an unsupported version, a target the agent does
 * not match, a relocation the loader does not know, or a corrupt ELF (the message then names the file offset).
 * Mirrors ROCr's HSA_STATUS_ERROR_INVALID_CODE_OBJECT / INCOMPATIBLE_ARGUMENTS / VARIABLE_UNDEFINED.
 */
public class CodeObjectException extends Exception {
  private static final long serialVersionUID = 1L;

  public CodeObjectException(String message) {
    super(message);
  }

  public CodeObjectException(String message, Throwable cause) {
    super(message, cause);
  }
}
