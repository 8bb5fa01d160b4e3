package dev.hipsim.hip.runtime;

import dev.hipsim.hip.abi.ApiTable;
import dev.hipsim.hip.api.Dispatcher;
import dev.hipsim.hip.api.FakeHostMemory;
import dev.hipsim.hip.api.ProgramStreams;
import dev.hipsim.hip.device.DeviceModel;
import dev.hipsim.testing.Corpus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A HIP runtime driven as the C stubs drive it (function id + argument slots) over a fake host memory, with the
 * program's streams and the runtime's messages captured, and helpers to place data and code in that memory.
 */
final class ApiRig implements AutoCloseable {
  static final ApiTable TABLE = ApiTable.standard();
  final FakeHostMemory memory = new FakeHostMemory(96 << 20);
  final List<String> lines = Collections.synchronizedList(new ArrayList<>());
  final List<String> fatal = Collections.synchronizedList(new ArrayList<>());
  final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
  final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
  final HipRuntime runtime;
  final Dispatcher d;

  ApiRig(DeviceModel device) {
    this(new RuntimeConfig(device, false));
  }

  ApiRig(RuntimeConfig config) {
    ProgramStreams streams = new ProgramStreams() {
      @Override
      public void stdout(byte[] bytes) {
        synchronized (stdout) {
          stdout.write(bytes, 0, bytes.length);
        }
      }

      @Override
      public void stderr(byte[] bytes) {
        synchronized (stderr) {
          stderr.write(bytes, 0, bytes.length);
        }
      }

      @Override
      public boolean stderrIsTerminal() {
        return false;
      }
    };
    runtime = HipRuntime.start(TABLE, config, memory, lines::add, message -> {
      fatal.add(message);
      throw new IllegalStateException("fatal: " + message);
    }, streams, Map.of("HIPSIM_THREADS", "1", "HIPSIM_WATCHDOG_SECONDS", "300"));
    d = runtime.dispatcher();
  }

  long call(String symbol, long... slots) {
    return d.dispatch(TABLE.find(symbol).orElseThrow(() -> new IllegalArgumentException(symbol)).id(), slots);
  }

  /** Fresh zeroed memory of {@code size} bytes. */
  long alloc(long size) {
    long p = memory.allocate(size, 64);
    if (p == 0) throw new IllegalStateException("fake host memory exhausted");
    return p;
  }

  long bytes(byte[] b) {
    long p = alloc(Math.max(1, b.length));
    memory.write(p, b, 0, b.length);
    return p;
  }

  long string(String s) {
    return bytes((s + "\0").getBytes(StandardCharsets.UTF_8));
  }

  long floats(float... v) {
    long p = alloc(4L * v.length);
    for (int i = 0; i < v.length; i++) memory.writeInt(p + 4L * i, Float.floatToRawIntBits(v[i]));
    return p;
  }

  float floatAt(long p) {
    return Float.intBitsToFloat(memory.readInt(p));
  }

  /** An array of pointers to each value: the {@code void** args} of a launch. */
  long args(long... valueAddresses) {
    long p = alloc(8L * valueAddresses.length);
    for (int i = 0; i < valueAddresses.length; i++) memory.writeLong(p + 8L * i, valueAddresses[i]);
    return p;
  }

  long value64(long v) {
    long p = alloc(8);
    memory.writeLong(p, v);
    return p;
  }

  long value32(int v) {
    long p = alloc(4);
    memory.writeInt(p, v);
    return p;
  }

  /** A dim3's two argument slots. */
  static long[] dim3(int x, int y, int z) {
    return new long[] {(x & 0xffff_ffffL) | ((long) y << 32), z};
  }

  /** Registers a corpus code object (or bundle) as __hipRegisterFatBinary does; returns the module handle. */
  long registerFatBinary(Path file) throws IOException {
    long image = bytes(Files.readAllBytes(file));
    long wrapper = alloc(24);
    memory.writeInt(wrapper, 0x48495046);
    memory.writeInt(wrapper + 4, 1);
    memory.writeLong(wrapper + 8, image);
    long handle = call("__hipRegisterFatBinary", wrapper);
    if (handle == 0) throw new IllegalStateException("registration failed: " + lines);
    return handle;
  }

  /** __hipRegisterFunction for a kernel; returns the fake host stub address that stands for it. */
  long registerFunction(long module, String kernel) {
    long stub = alloc(16);
    long name = string(kernel);
    call("__hipRegisterFunction", module, stub, name, name, -1, 0, 0, 0, 0, 0);
    return stub;
  }

  static Path corpus(String relative) {
    return Corpus.root().resolve(relative);
  }

  @Override
  public void close() {
    runtime.shutdown();
  }
}
