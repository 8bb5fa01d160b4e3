package dev.hipsim.isa.debug;

import dev.hipsim.isa.debug.symbols.FunctionSymbol;
import dev.hipsim.isa.debug.symbols.SourceLine;
import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.disasm.InstructionPrinter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * Disassembly around any PC, in llvm-objdump's text. Instructions have different sizes, so the ones before a PC are
 * found by decoding forward from the start of its function.
 */
public final class Disassembly {
  /** One instruction: its address, encoding words, LLVM text, {@code function+offset}, and source line if known. */
  public record Line(long address, String bytes, String text, String symbol, SourceLine source) {}

  private static final int MAX_SCAN = 200_000;

  private Disassembly() {}

  /**
   * Up to {@code before} instructions before {@code pc} (fewer when its function starts sooner), the instruction at
   * {@code pc}, and up to {@code after - 1} after it.
   */
  public static List<Line> around(DispatchView view, long pc, int before, int after) throws DebugException {
    List<Line> out = new ArrayList<>(before(view, pc, before));
    out.addAll(from(view, pc, after));
    return out;
  }

  /** Up to {@code count} instructions before {@code pc}, in address order. */
  public static List<Line> before(DispatchView view, long pc, int count) throws DebugException {
    if (count <= 0) return List.of();
    Optional<FunctionSymbol> f = view.code().functionAt(pc);
    if (f.isEmpty()) return List.of();
    Deque<Line> window = new ArrayDeque<>();
    long at = f.get().address();
    for (int i = 0; i < MAX_SCAN && at < pc; i++) {
      Line l = line(view, at);
      window.addLast(l);
      if (window.size() > count) window.removeFirst();
      at += Math.max(4, l.bytes().split(" ").length * 4);
    }
    if (at != pc) return List.of(); // pc is not on an instruction boundary of its function
    return new ArrayList<>(window);
  }

  /** {@code count} instructions from {@code pc} on (stopping early at unreadable memory). */
  public static List<Line> from(DispatchView view, long pc, int count) throws DebugException {
    List<Line> out = new ArrayList<>();
    long at = pc;
    for (int i = 0; i < count; i++) {
      Line l;
      try {
        l = line(view, at);
      } catch (DebugException e) {
        if (out.isEmpty()) throw e;
        break;
      }
      out.add(l);
      at += Math.max(4, l.bytes().split(" ").length * 4);
    }
    return out;
  }

  public static Line line(DispatchView view, long pc) throws DebugException {
    Instruction inst = view.decode(pc);
    return new Line(pc, InstructionPrinter.encodingText(inst), InstructionPrinter.print(inst),
        view.code().describe(pc), view.code().lineAt(pc).orElse(null));
  }

  /** {@code 0x…  <vadd+0x10>:  text}, with {@code =>} marking {@code current}. */
  public static String format(Line l, long current) {
    return String.format("%s0x%x <%s>:\t%s", l.address() == current ? "=> " : "   ", l.address(), l.symbol(),
        l.text());
  }
}
