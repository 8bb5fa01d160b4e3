package dev.hipsim.hip.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.bundle.metadata.ValueKind;
import dev.hipsim.hip.device.DeviceModel;
import dev.hipsim.hip.gpu.hostcall.HostcallDevice;
import dev.hipsim.hsa.loader.CodeObjectReader;
import dev.hipsim.hsa.loader.Executable;
import dev.hipsim.hsa.loader.ExecutableSymbol;
import dev.hipsim.testing.Corpus;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The device services of a simulated machine: what a kernel's hidden arguments ask for is set up, and the hostcall
 * listener serves printf and device-memory requests made, as ockl makes them, in the machine's own memory.
 */
class DeviceServicesTest {
  @Test
  void hostcallKernelsGetABufferTheListenerServes() throws Exception {
    try (Machine m = Machine.create(DeviceModel.MI210, Map.of())) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      List<String> lines = Collections.synchronizedList(new ArrayList<>());
      DeviceServices services = new DeviceServices(m, (stderr, text) -> {
        synchronized (out) {
          out.write(text, 0, text.length);
        }
      }, lines::add);
      Executable e = m.hsa().createExecutable();
      e.loadAgentCodeObject(CodeObjectReader.fromFile(Corpus.root().resolve(
          "gfx90a-v4/device_printf.co/0-gfx90a.hsaco")), m.agent());
      e.freeze();
      ExecutableSymbol.Kernel hello = e.kernel("_Z5helloi", m.agent());
      assertThat(hello.metadata().orElseThrow().hiddenArguments())
          .anyMatch(a -> a.valueKind() == ValueKind.HIDDEN_HOSTCALL_BUFFER);
      DeviceServices.Prepared p = services.prepare(hello, 0);
      assertThat(p.hostcall()).isTrue();
      assertThat(p.hidden().hostcallBuffer()).isNotZero();
      assertThat(p.hidden().multigridSync()).isZero();
      assertThat(services.prepare(hello, 1).hidden().hostcallBuffer()).as("one buffer")
          .isEqualTo(p.hidden().hostcallBuffer());
      services.started(p);
      HostcallDevice device = new HostcallDevice(m.hsa().memory().hostView(), p.hidden().hostcallBuffer());
      device.printf("block %d of %d: str=%s\n", 1, 4, 0x706968L);
      long[][] args = new long[64][8];
      args[0][1] = 2 << 20;
      long slab = device.call(3, 1, args)[0][0];
      assertThat(slab).isNotZero();
      assertThat(slab & ((2 << 20) - 1)).as("2 MiB slabs are 2 MiB aligned").isZero();
      assertThat(m.hsa().memory().find(slab)).isPresent();
      args[0][0] = slab;
      device.call(3, 1, args);
      assertThat(m.hsa().memory().find(slab)).isEmpty();
      services.finished(p, List.of());
      assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("block 1 of 4: str=hip\n");
      assertThat(lines).isEmpty();
      services.close();
    }
  }
}
