package dev.hipsim.isa.debug.symbols;

/**
 * A function of a loaded code object (a kernel's entry code or a device function): its mangled and demangled names
 * and where its code lies in GPU virtual memory.
 */
public record FunctionSymbol(String mangled, Demangler.Name demangled, long address, long size) {

  /** The name users read: demangled, without parameters. */
  public String displayName() {
    return demangled.name();
  }

  public boolean contains(long pc) {
    return pc >= address && pc - address < Math.max(size, 1);
  }

  /**
   * Whether {@code spec} names this function: its mangled name, its demangled name with or without parameters, or
   * its unqualified name ({@code vadd} for {@code _Z4vaddPKfS0_Pfi}, {@code bar} for {@code foo::bar(int)}).
   */
  public boolean matches(String spec) {
    String s = spec.strip();
    if (s.equals(mangled) || s.equals(demangled.full()) || s.equals(demangled.name())) return true;
    String n = demangled.name();
    int template = n.indexOf('<');
    String plain = template < 0 ? n : n.substring(0, template);
    if (s.equals(plain)) return true;
    int colons = plain.lastIndexOf("::");
    return colons >= 0 && s.equals(plain.substring(colons + 2));
  }
}
