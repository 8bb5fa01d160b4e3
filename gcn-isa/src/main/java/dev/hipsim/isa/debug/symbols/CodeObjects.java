package dev.hipsim.isa.debug.symbols;

import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfFormatException;
import dev.hipsim.elf.ElfSymbol;
import dev.hipsim.elf.SectionHeader;
import dev.hipsim.isa.debug.dwarf.DebugLineReader;
import dev.hipsim.isa.debug.dwarf.DwarfException;
import dev.hipsim.isa.debug.dwarf.LineTable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The code objects loaded on the device, as a debugger needs them: function symbols and line tables by GPU address,
 * kernel names and source lines to addresses. Safe for concurrent use; the runtime adds and removes objects as
 * executables are loaded and destroyed (what ROCr's loader reports to rocgdb through {@code _amdgpu_r_debug}).
 */
public final class CodeObjects {
  /** Where a line breakpoint resolves: the addresses and the line actually used (a later one when the line has no code). */
  public record LineResolution(List<Long> addresses, int line, String path) {}

  private final List<LoadedCode> loaded = new CopyOnWriteArrayList<>();
  private volatile long generation;

  /**
   * Adds a code object just loaded: {@code loadDelta} is what the loader added to the ELF's virtual addresses.
   * Everything needed is copied out of {@code elf} (its bytes may belong to the program). Symbols that cannot be
   * read leave the object without functions; unreadable line tables leave it without lines, with a warning.
   */
  public LoadedCode add(String source, ElfFile elf, long loadBase, long loadSize, long loadDelta) {
    List<FunctionSymbol> functions = new ArrayList<>();
    String warning = null;
    try {
      for (ElfSymbol s : elf.symbols()) {
        if (s.type() != ElfSymbol.STT_FUNC || !s.isDefined() || s.name().isEmpty()) continue;
        functions.add(new FunctionSymbol(s.name(), Demangler.demangle(s.name()), s.value() + loadDelta, s.size()));
      }
    } catch (ElfFormatException e) {
      warning = source + ": symbols unreadable: " + e.getMessage();
    }
    functions.sort(Comparator.comparingLong(FunctionSymbol::address));
    LineIndex lines = LineIndex.EMPTY;
    try {
      Optional<SectionHeader> debugLine = elf.section(".debug_line");
      if (debugLine.isPresent()) {
        List<LineTable> tables = DebugLineReader.read(copy(elf, debugLine.get()),
            elf.section(".debug_line_str").map(h -> copyQuietly(elf, h)).orElse(null),
            elf.section(".debug_str").map(h -> copyQuietly(elf, h)).orElse(null));
        lines = LineIndex.of(tables, loadDelta);
      }
    } catch (ElfFormatException | DwarfException | RuntimeException e) {
      warning = source + ": line tables unreadable: " + e.getMessage();
    }
    LoadedCode code = new LoadedCode(source, loadBase, loadSize, List.copyOf(functions), lines, warning);
    loaded.add(code);
    generation++;
    return code;
  }

  /** Forgets the code object loaded at {@code loadBase} (its executable was destroyed). */
  public void remove(long loadBase) {
    if (loaded.removeIf(c -> c.loadBase() == loadBase)) generation++;
  }

  /** Changes whenever an object is added or removed (breakpoints are resolved again then). */
  public long generation() {
    return generation;
  }

  public List<LoadedCode> all() {
    return List.copyOf(loaded);
  }

  public Optional<LoadedCode> codeAt(long pc) {
    for (LoadedCode c : loaded) if (c.contains(pc)) return Optional.of(c);
    return Optional.empty();
  }

  public Optional<FunctionSymbol> functionAt(long pc) {
    for (LoadedCode c : loaded) {
      if (c.contains(pc)) {
        FunctionSymbol f = c.functionAt(pc);
        if (f != null) return Optional.of(f);
      }
    }
    return Optional.empty();
  }

  /** The source line whose code covers {@code pc}. */
  public Optional<SourceLine> lineAt(long pc) {
    for (LoadedCode c : loaded) if (c.contains(pc)) return Optional.ofNullable(c.lines().at(pc));
    return Optional.empty();
  }

  /** The statement that begins exactly at {@code pc}, if one does. */
  public Optional<SourceLine> statementAt(long pc) {
    for (LoadedCode c : loaded) if (c.contains(pc)) return Optional.ofNullable(c.lines().statementAt(pc));
    return Optional.empty();
  }

  /** Whether the code at {@code pc} has line information. */
  public boolean hasLineInfo(long pc) {
    for (LoadedCode c : loaded) if (c.contains(pc)) return c.hasLineInfo();
    return false;
  }

  /** {@code function+0x10} for a PC inside a known function, else the bare address. */
  public String describe(long pc) {
    Optional<FunctionSymbol> f = functionAt(pc);
    if (f.isEmpty()) return String.format("0x%x", pc);
    long off = pc - f.get().address();
    return f.get().displayName() + "+0x" + Long.toHexString(off);
  }

  /** The name users read for a symbol: demangled, without parameters. */
  public String describeName(String symbol) {
    return Demangler.demangle(symbol).name();
  }

  /** Every function {@code spec} names (see {@link FunctionSymbol#matches}). */
  public List<FunctionSymbol> findFunctions(String spec) {
    List<FunctionSymbol> out = new ArrayList<>();
    for (LoadedCode c : loaded) for (FunctionSymbol f : c.functions()) if (f.matches(spec)) out.add(f);
    return out;
  }

  /**
   * Where a breakpoint on {@code file}:{@code line} goes: in each function with code for that line, its first
   * statement. A line without code moves to the next line that has some, as gdb does. Files match by path, by a
   * trailing part of the path, or (when nothing else matches) by file name.
   */
  public Optional<LineResolution> resolveLine(String file, int line) {
    for (boolean lenient : new boolean[] {false, true}) {
      Optional<LineResolution> r = resolveLine(file, line, lenient);
      if (r.isPresent()) return r;
    }
    return Optional.empty();
  }

  private Optional<LineResolution> resolveLine(String file, int line, boolean lenient) {
    // The smallest line >= the requested one that has statements in a matching file.
    int[] best = {Integer.MAX_VALUE};
    String[] bestPath = {null};
    for (LoadedCode c : loaded) {
      c.lines().forEachStatement((address, where) -> {
        if (where.line() >= line && where.line() < best[0] && fileMatches(where.path(), file, lenient)) {
          best[0] = where.line();
          bestPath[0] = where.path();
        }
      });
    }
    if (bestPath[0] == null) return Optional.empty();
    Map<Long, Long> firstPerFunction = new LinkedHashMap<>();
    for (LoadedCode c : loaded) {
      c.lines().forEachStatement((address, where) -> {
        if (where.line() != best[0] || !fileMatches(where.path(), file, lenient)) return;
        FunctionSymbol f = c.functionAt(address);
        long key = f == null ? address : f.address();
        firstPerFunction.merge(key, address, Math::min);
      });
    }
    List<Long> addresses = new ArrayList<>(firstPerFunction.values());
    addresses.sort(Long::compareUnsigned);
    return Optional.of(new LineResolution(List.copyOf(addresses), best[0], bestPath[0]));
  }

  /** Whether the recorded {@code path} is the file the user named. */
  static boolean fileMatches(String path, String spec, boolean lenient) {
    if (path.equals(spec) || path.endsWith("/" + spec)) return true;
    if (spec.endsWith("/" + path)) return true;
    if (!lenient) return false;
    return baseName(path).equals(baseName(spec));
  }

  private static String baseName(String p) {
    int slash = p.lastIndexOf('/');
    return slash < 0 ? p : p.substring(slash + 1);
  }

  private static ByteBuffer copy(ElfFile elf, SectionHeader h) throws ElfFormatException {
    ByteBuffer src = elf.data(h);
    ByteBuffer out = ByteBuffer.allocate(src.remaining());
    out.put(src.duplicate());
    out.flip();
    return out;
  }

  private static ByteBuffer copyQuietly(ElfFile elf, SectionHeader h) {
    try {
      return copy(elf, h);
    } catch (ElfFormatException e) {
      return null;
    }
  }
}
