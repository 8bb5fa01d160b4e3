package dev.hipsim.cli.debug;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bridge's message framing and launch arguments. */
class DapFramingTest {
  private static ByteArrayInputStream in(String s) {
    return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void writesAndReadsMessages() throws Exception {
    JsonObject m = new JsonObject();
    m.addProperty("seq", 7);
    m.addProperty("type", "event");
    m.addProperty("event", "output");
    m.addProperty("text", "ünïcode\r\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    DapFraming.write(out, m);
    DapFraming.write(out, m);
    String wire = out.toString(StandardCharsets.UTF_8);
    assertThat(wire).startsWith("Content-Length: " + m.toString().getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n{");
    ByteArrayInputStream back = new ByteArrayInputStream(out.toByteArray());
    assertThat(DapFraming.read(back)).isEqualTo(m);
    assertThat(DapFraming.read(back)).isEqualTo(m);
    assertThat(DapFraming.read(back)).isNull();
  }

  @Test
  void toleratesOtherHeadersAndRejectsBrokenOnes() throws Exception {
    assertThat(DapFraming.read(in("Content-Type: x\r\ncontent-length: 2\r\n\r\n{}"))).isEqualTo(new JsonObject());
    assertThatThrownBy(() -> DapFraming.read(in("Content-Length: zz\r\n\r\n{}"))).isInstanceOf(IOException.class)
        .hasMessageContaining("bad Content-Length");
    assertThatThrownBy(() -> DapFraming.read(in("Content-Length: 99999999999\r\n\r\n")))
        .isInstanceOf(IOException.class);
    assertThatThrownBy(() -> DapFraming.read(in("Content-Length: 3\r\n\r\n[1]"))).isInstanceOf(IOException.class)
        .hasMessageContaining("not a JSON object");
    assertThat(DapFraming.read(in("Content-Length: 10\r\n\r\n{}"))).isNull(); // the stream ended inside the body
  }

  @Test
  void launchArgumentsNameTheProgram() throws Exception {
    assertThat(DapBridge.command(Map.of("program", "/bin/x", "args", List.of("a", 2)))).containsExactly("/bin/x", "a",
        "2");
    assertThatThrownBy(() -> DapBridge.command(Map.of("args", List.of()))).isInstanceOf(IOException.class)
        .hasMessage("launch needs a \"program\"");
    assertThat(ProgramLauncher.describeExit(0)).isEqualTo("exited normally");
    assertThat(ProgramLauncher.describeExit(1)).isEqualTo("exited with code 1");
    assertThat(ProgramLauncher.describeExit(134)).isEqualTo("killed by signal 6");
  }
}
