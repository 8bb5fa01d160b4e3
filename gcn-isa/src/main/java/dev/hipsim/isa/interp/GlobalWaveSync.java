package dev.hipsim.isa.interp;

import dev.hipsim.isa.decode.Instruction;
import dev.hipsim.isa.decode.MemoryFields;
import dev.hipsim.isa.decode.Slot;
import dev.hipsim.isa.dispatch.DispatchException;
import dev.hipsim.isa.exec.DispatchShared;
import dev.hipsim.isa.exec.Wave;
import dev.hipsim.isa.exec.WaveStatus;

/**
 * ds_gws_*: global wave sync. ds_gws_barrier makes the waves that execute it wait until as many waves as the first
 * active lane's data value plus one have arrived, across the whole dispatch (cooperative grid synchronisation).
 * The resource is offset0 plus M0[21:16]. The semaphores: sema_v releases one unit, sema_br as many as the first
 * active lane's data, sema_p waits for a unit and takes it, sema_release_all lets every waiting wave pass. Waiting
 * waves sleep, so the scheduler runs (and admits) the others.
 */
final class GlobalWaveSync {
  private GlobalWaveSync() {}

  static Op compile(Instruction inst) {
    // By name: the operations exist once the decoder's DS table lists the GDS opcodes.
    switch (inst.operation().name()) {
      case "DS_GWS_BARRIER": return new Barrier(inst);
      case "DS_GWS_INIT": return new Init(inst);
      case "DS_GWS_SEMA_V": case "DS_GWS_SEMA_BR": case "DS_GWS_SEMA_RELEASE_ALL": return new Release(inst);
      case "DS_GWS_SEMA_P": return new Acquire(inst);
      default: return null;
    }
  }

  private static int resource(Wave w, Instruction inst) {
    MemoryFields m = inst.memory();
    return ((m == null ? 0 : m.offset()) + ((w.s[Wave.M0] >>> 16) & 0x3f)) & 63;
  }

  static final class Barrier extends Op {
    private final Src data;

    Barrier(Instruction inst) {
      super(inst);
      this.data = Src.of(inst.operand(Slot.DATA0), 32);
    }

    @Override
    boolean fallsThrough() {
      return false;
    }

    @Override
    public void execute(Wave w, Ctx cx) throws DispatchException {
      DispatchShared.GwsBarrier barrier = cx.launch.shared().gws(resource(w, instruction));
      if (w.gwsWait < 0) {
        long exec = w.exec();
        if (exec == 0) {
          w.pc += size;
          return;
        }
        int first = Long.numberOfTrailingZeros(exec);
        int expected = data.vectorDword(w, 0, first) + 1;
        w.gwsWait = barrier.arrive(expected);
      }
      if (barrier.passed(w.gwsWait)) {
        w.gwsWait = -1;
        w.pc += size;
      } else {
        w.status = WaveStatus.SLEEPING; // run the instruction again when rescheduled
      }
    }
  }

  static final class Init extends Op {
    private final Src data;

    Init(Instruction inst) {
      super(inst);
      this.data = Src.of(inst.operand(Slot.DATA0), 32);
    }

    @Override
    public void execute(Wave w, Ctx cx) {
      long exec = w.exec();
      if (exec != 0) {
        int first = Long.numberOfTrailingZeros(exec);
        cx.launch.shared().gws(resource(w, instruction)).init(data.vectorDword(w, 0, first));
      }
      w.pc += size;
    }
  }

  static final class Release extends Op {
    private final String kind;
    private final Src data;

    Release(Instruction inst) {
      super(inst);
      this.kind = inst.operation().name();
      this.data = Src.of(inst.operand(Slot.DATA0), 32);
    }

    @Override
    public void execute(Wave w, Ctx cx) {
      DispatchShared.GwsBarrier r = cx.launch.shared().gws(resource(w, instruction));
      long exec = w.exec();
      if (exec != 0) {
        switch (kind) {
          case "DS_GWS_SEMA_BR":
            r.release(data.vectorDword(w, 0, Long.numberOfTrailingZeros(exec)) & 0xffff_ffffL);
            break;
          case "DS_GWS_SEMA_RELEASE_ALL":
            r.releaseAll();
            break;
          default:
            r.release(1);
        }
      }
      w.pc += size;
    }
  }

  static final class Acquire extends Op {
    Acquire(Instruction inst) {
      super(inst);
    }

    @Override
    boolean fallsThrough() {
      return false;
    }

    @Override
    public void execute(Wave w, Ctx cx) {
      if (w.exec() == 0) {
        w.pc += size;
        return;
      }
      DispatchShared.GwsBarrier r = cx.launch.shared().gws(resource(w, instruction));
      if (w.gwsWait < 0) w.gwsWait = r.releaseAllGeneration();
      if (r.tryAcquire(w.gwsWait)) {
        w.gwsWait = -1;
        w.pc += size;
      } else {
        w.status = WaveStatus.SLEEPING; // retried when rescheduled
      }
    }
  }
}
