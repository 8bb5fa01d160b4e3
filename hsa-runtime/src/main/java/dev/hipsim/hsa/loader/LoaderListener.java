package dev.hipsim.hsa.loader;

/**
 * Hears of code objects as the loader places and releases them: what ROCr's loader tells a debugger through its
 * {@code _amdgpu_r_debug} list (rocgdb reads symbols and line tables from the objects it lists).
 */
public interface LoaderListener {
  /** {@code codeObject} (its ELF still readable) now lies where {@code loaded} says. */
  void loaded(CodeObject codeObject, LoadedCodeObject loaded);

  /** The executable holding {@code loaded} was destroyed. */
  void unloaded(LoadedCodeObject loaded);
}
