package dev.hipsim.hsa.loader;

import dev.hipsim.bundle.metadata.CodeObjectMetadata;
import dev.hipsim.bundle.metadata.KernelMetadata;
import dev.hipsim.hsa.GpuAgent;
import dev.hipsim.hsa.HsaException;
import dev.hipsim.hsa.HsaStatus;
import dev.hipsim.hsa.memory.Allocation;
import dev.hipsim.hsa.memory.MemoryManager;
import dev.hipsim.isa.dispatch.KernelDescriptor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code hsa_executable_t}: code objects loaded on agents, and the symbols they define. Loading does what ROCr's
 * loader does for a discrete GPU: checks the code object's ISA against the agent, places all its {@code PT_LOAD}
 * segments in one VRAM allocation, applies the dynamic relocations, copies the image with the SDMA engine and
 * creates a symbol per kernel descriptor ({@code NAME.kd}, its handle the descriptor's GPU address) and per variable.
 *
 * <p>Thread-safe.
 */
public final class Executable {
  /** {@code hsa_executable_state_t}. */
  public enum State { UNFROZEN, FROZEN }

  /**
   * A symbol's agent and name. Its equals and hashCode are written out: a record's generated ones are linked
   * through method handles at their first call, which cost about 15 ms on the first kernel launch.
   */
  private record Key(int gpuId, String name) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.gpuId == gpuId && k.name.equals(name);
    }

    @Override
    public int hashCode() {
      return 31 * gpuId + name.hashCode();
    }
  }

  private static final int PF_X = 1;
  private static final int LISTED_NAMES = 40;

  private final MemoryManager memory;
  private final Map<Key, ExecutableSymbol> symbols = new LinkedHashMap<>();
  private final List<LoadedCodeObject> loaded = new ArrayList<>();
  private final List<Allocation> allocations = new ArrayList<>();
  private State state = State.UNFROZEN;
  private boolean destroyed;
  private final LoaderListener listener;

  public Executable(MemoryManager memory) {
    this(memory, null);
  }

  /** An executable that reports the code objects it loads and releases to {@code listener} (may be null). */
  public Executable(MemoryManager memory, LoaderListener listener) {
    this.memory = memory;
    this.listener = listener;
  }

  public synchronized State state() {
    return state;
  }

  public synchronized boolean isDestroyed() {
    return destroyed;
  }

  /** {@code hsa_executable_load_agent_code_object}. */
  public synchronized LoadedCodeObject loadAgentCodeObject(CodeObjectReader reader, GpuAgent agent)
      throws HsaException {
    checkAlive();
    if (state == State.FROZEN) {
      throw new HsaException(HsaStatus.FROZEN_EXECUTABLE, "cannot load " + reader.source() + ": the executable is frozen");
    }
    CodeObject co = reader.codeObject();
    try {
      TargetCheck.check(co.target(), agent);
    } catch (CodeObjectException e) {
      throw withSource(reader, e);
    }
    for (String name : definedNames(co)) {
      ExecutableSymbol clash = symbols.get(new Key(agent.gpuId(), name));
      if (clash != null) {
        throw new HsaException(HsaStatus.VARIABLE_ALREADY_DEFINED, "symbol " + name + " of " + reader.source()
            + " is already defined for agent " + agent.name() + " in this executable" + definedBy(clash));
      }
    }
    Allocation segment = memory.allocate(agent.vramPool(), co.span());
    try {
      long base = segment.address();
      byte[] image = co.placedImage(base, new DefinedVariables(agent.gpuId()));
      memory.write(base, image, 0, image.length); // SDMA into VRAM, as ROCr's DMA of the staged segments
      LoadedCodeObject lco = new LoadedCodeObject(agent, reader.source(), co.target().targetId(),
          co.target().codeObjectVersion(), base, co.span(), base - co.firstVirtualAddress());
      List<ExecutableSymbol> created = new ArrayList<>();
      for (CodeObject.KernelSymbol k : co.kernels().values()) {
        created.add(kernel(co, reader.metadata(), k, image, agent, lco));
      }
      for (CodeObject.VariableSymbol v : co.variables().values()) {
        created.add(new ExecutableSymbol.Variable(v.name(), agent, base + v.offset(), v.size(),
            v.binding() == dev.hipsim.elf.ElfSymbol.STB_WEAK, false));
      }
      for (ExecutableSymbol s : created) symbols.put(new Key(agent.gpuId(), s.name()), s);
      loaded.add(lco);
      allocations.add(segment);
      if (listener != null) listener.loaded(co, lco);
      return lco;
    } catch (CodeObjectException e) {
      memory.free(segment.address());
      throw withSource(reader, e);
    } catch (HsaException e) {
      memory.free(segment.address());
      throw e;
    }
  }

  private static CodeObjectException withSource(CodeObjectReader reader, CodeObjectException e) {
    if (reader.source().equals("memory")) return e;
    return new CodeObjectException(e.status(), reader.source() + ": " + e.detail(), e);
  }

  private static List<String> definedNames(CodeObject co) {
    List<String> names = new ArrayList<>();
    for (CodeObject.KernelSymbol k : co.kernels().values()) names.add(k.descriptorSymbol());
    names.addAll(co.variables().keySet());
    return names;
  }

  /**
   * The addresses of the variables the executable defines on one agent, for a code object's relocations against
   * other code objects' symbols (null: not defined here). A class rather than a lambda: this runs at a program's
   * first launch, where linking a lambda costs a cold JVM a fraction of a millisecond each.
   */
  private final class DefinedVariables implements java.util.function.Function<String, Long> {
    private final int gpuId;

    DefinedVariables(int gpuId) {
      this.gpuId = gpuId;
    }

    @Override
    public Long apply(String name) {
      ExecutableSymbol s = symbols.get(new Key(gpuId, name));
      return s instanceof ExecutableSymbol.Variable v ? v.address() : null;
    }
  }

  private static String definedBy(ExecutableSymbol s) {
    if (s instanceof ExecutableSymbol.Kernel k) return " (by " + k.codeObject().source() + ")";
    return ((ExecutableSymbol.Variable) s).external() ? " (as an agent global variable)" : "";
  }

  private static ExecutableSymbol.Kernel kernel(CodeObject co, Optional<CodeObjectMetadata> metadata,
      CodeObject.KernelSymbol k, byte[] image, GpuAgent agent, LoadedCodeObject lco) throws CodeObjectException {
    if (k.descriptorOffset() < 0 || k.descriptorOffset() > image.length - KernelDescriptor.SIZE) {
      throw new CodeObjectException(String.format("kernel descriptor %s at image offset 0x%x lies outside the %d "
          + "loaded bytes", k.descriptorSymbol(), k.descriptorOffset(), image.length));
    }
    KernelDescriptor kd = KernelDescriptor.parse(image, (int) k.descriptorOffset());
    long entry = k.descriptorOffset() + kd.kernelCodeEntryByteOffset();
    // Loops and plain conditions, not streams and lambdas: this runs at a program's first launch, on a cold JVM.
    boolean inCode = false;
    for (CodeObject.Segment s : co.segments()) {
      inCode |= (s.flags() & PF_X) != 0 && entry >= s.loadOffset() && entry < s.loadOffset() + s.memorySize();
    }
    if (!inCode) {
      throw new CodeObjectException(String.format("kernel %s: kernel_code_entry_byte_offset %d puts its entry at image "
          + "offset 0x%x, outside every executable (PF_X) segment", k.name(), kd.kernelCodeEntryByteOffset(), entry));
    }
    Optional<KernelMetadata> md = Optional.empty();
    if (metadata.isPresent()) {
      md = metadata.get().kernelBySymbol(k.descriptorSymbol());
      if (md.isEmpty()) md = metadata.get().kernel(k.name());
    }
    KernelMetadata m = md.orElse(null);
    long kernargSize = kd.kernargSize() != 0 ? Integer.toUnsignedLong(kd.kernargSize())
        : m == null ? 0L : m.kernargSegmentSize();
    long kernargAlign = Math.max(16, m == null ? 16L : m.kernargSegmentAlign());
    boolean dynamicStack = kd.usesDynamicStack() || (m != null && m.usesDynamicStack().orElse(false));
    return new ExecutableSymbol.Kernel(k.descriptorSymbol(), k.name(), agent, lco.loadBase() + k.descriptorOffset(),
        kernargSize, kernargAlign, Integer.toUnsignedLong(kd.groupSegmentFixedSize()),
        Integer.toUnsignedLong(kd.privateSegmentFixedSize()), dynamicStack, kd, md, lco);
  }

  /**
   * {@code hsa_executable_agent_global_variable_define}: gives an undefined symbol the code objects loaded later
   * reference an address (their relocations resolve to it).
   */
  public synchronized void defineAgentGlobalVariable(GpuAgent agent, String name, long address) throws HsaException {
    checkAlive();
    if (state == State.FROZEN) {
      throw new HsaException(HsaStatus.FROZEN_EXECUTABLE, "cannot define " + name + ": the executable is frozen");
    }
    Key key = new Key(agent.gpuId(), name);
    if (symbols.containsKey(key)) {
      throw new HsaException(HsaStatus.VARIABLE_ALREADY_DEFINED, "symbol " + name + " is already defined for agent "
          + agent.name() + definedBy(symbols.get(key)));
    }
    symbols.put(key, new ExecutableSymbol.Variable(name, agent, address, 0, false, true));
  }

  /** {@code hsa_executable_freeze}: no more loads or definitions. */
  public synchronized void freeze() throws HsaException {
    checkAlive();
    if (state == State.FROZEN) throw new HsaException(HsaStatus.FROZEN_EXECUTABLE, "the executable is already frozen");
    state = State.FROZEN;
  }

  /**
   * {@code hsa_executable_get_symbol_by_name}: a kernel is found by its descriptor symbol ({@code NAME.kd}, as CLR
   * looks it up), a variable by its name. A missing symbol's error lists those the agent has.
   */
  public synchronized ExecutableSymbol symbol(String name, GpuAgent agent) throws HsaException {
    checkAlive();
    ExecutableSymbol s = symbols.get(new Key(agent.gpuId(), name));
    if (s != null) return s;
    throw missing("no symbol '" + name + "'", name, agent);
  }

  /** A kernel by its name or its descriptor symbol ({@code foo} or {@code foo.kd}). */
  public synchronized ExecutableSymbol.Kernel kernel(String name, GpuAgent agent) throws HsaException {
    checkAlive();
    ExecutableSymbol s = symbols.get(new Key(agent.gpuId(), name));
    if (s == null && !name.endsWith(".kd")) s = symbols.get(new Key(agent.gpuId(), name + ".kd"));
    if (s instanceof ExecutableSymbol.Kernel k) return k;
    if (s != null) {
      throw new HsaException(HsaStatus.INVALID_SYMBOL_NAME, "symbol '" + name + "' is a variable, not a kernel");
    }
    throw missing("no kernel '" + name + "'", name, agent);
  }

  /** A variable by its name. */
  public synchronized ExecutableSymbol.Variable variable(String name, GpuAgent agent) throws HsaException {
    ExecutableSymbol s = symbol(name, agent);
    if (s instanceof ExecutableSymbol.Variable v) return v;
    throw new HsaException(HsaStatus.INVALID_SYMBOL_NAME, "symbol '" + name + "' is a kernel, not a variable");
  }

  private HsaException missing(String what, String name, GpuAgent agent) {
    List<String> names = symbols.values().stream().filter(x -> x.agent().gpuId() == agent.gpuId())
        .map(ExecutableSymbol::name).collect(Collectors.toList());
    String listed = names.isEmpty() ? "it defines no symbols for that agent"
        : "it defines " + names.size() + ": " + String.join(", ", names.subList(0, Math.min(LISTED_NAMES, names.size())))
            + (names.size() > LISTED_NAMES ? ", …" : "");
    String hint = names.contains(name + ".kd") ? " (kernels are named by their descriptor symbol: " + name + ".kd)" : "";
    return new HsaException(HsaStatus.INVALID_SYMBOL_NAME, what + " for agent " + agent.name() + " in the executable"
        + hint + "; " + listed);
  }

  /** {@code hsa_executable_iterate_agent_symbols}. */
  public synchronized List<ExecutableSymbol> symbols(GpuAgent agent) {
    return symbols.values().stream().filter(s -> s.agent().gpuId() == agent.gpuId()).toList();
  }

  /** Every symbol of every agent, in load order (none once destroyed). */
  public synchronized List<ExecutableSymbol> symbols() {
    return List.copyOf(symbols.values());
  }

  /** {@code hsa_ven_amd_loader_executable_iterate_loaded_code_objects}. */
  public synchronized List<LoadedCodeObject> loadedCodeObjects() {
    return List.copyOf(loaded);
  }

  /** {@code hsa_executable_destroy}: frees the loaded segments. */
  public synchronized void destroy() throws HsaException {
    checkAlive();
    destroyed = true;
    if (listener != null) for (LoadedCodeObject l : loaded) listener.unloaded(l);
    for (Allocation a : allocations) memory.free(a.address());
    allocations.clear();
    symbols.clear();
    loaded.clear();
  }

  private void checkAlive() throws HsaException {
    if (destroyed) throw new HsaException(HsaStatus.INVALID_EXECUTABLE, "the executable was destroyed");
  }
}
