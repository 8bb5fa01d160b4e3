package dev.hipsim.hip.gpu.printf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hipsim.bundle.metadata.CodeObjectInfo;
import dev.hipsim.bundle.metadata.PrintfFormat;
import dev.hipsim.testing.Corpus;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Buffered printf records laid out as LLVM's AMDGPUEmitPrintf writes them, read with the format strings of a real
 * code object's {@code amdhsa.printf} (testdata/extras/printf_buffered.hsaco, built with -mprintf-kind=buffered).
 */
class BufferedPrintfTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final List<String> problems = new ArrayList<>();

  private void sink(boolean stderr, byte[] text) {
    (stderr ? err : out).write(text, 0, text.length);
  }

  /** One HIP record: control word, hash, then 8-byte arguments (strings inline, padded to 8). */
  private static void record(ByteBuffer b, long hash, boolean stderr, Object... args) {
    int start = b.position();
    b.putInt(0);
    b.putLong(hash);
    for (Object a : args) {
      if (a instanceof String s) {
        byte[] bytes = (s + "\0").getBytes(StandardCharsets.ISO_8859_1);
        b.put(bytes);
        for (int i = bytes.length; i % 8 != 0; i++) b.put((byte) 0);
      } else if (a instanceof Double d) {
        b.putLong(Double.doubleToRawLongBits(d));
      } else {
        b.putLong(((Number) a).longValue());
      }
    }
    int size = b.position() - start;
    b.putInt(start, (size << 2) | 2 | (stderr ? 1 : 0));
  }

  @Test
  void printsRecordsWithTheCodeObjectsFormats() throws Exception {
    ByteBuffer image = ByteBuffer.wrap(Files.readAllBytes(Corpus.root().resolve("extras/printf_buffered.hsaco")));
    List<PrintfFormat> formats = CodeObjectInfo.read(image).metadata().orElseThrow().printf();
    assertThat(formats).hasSize(2);
    BufferedPrintf reader = new BufferedPrintf(formats);
    ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
    record(b, 0x29b771ae2c1216ddL, false, 3L, 64L, 1.5);
    record(b, 0x30ed6daafa10f94fL, true, "ok");
    record(b, 0x29b771ae2c1216ddL, false, 0xffff_fff9L, 64L, -0.25);
    int used = b.position();
    assertThat(reader.print(b, used, this::sink, problems::add)).isEqualTo(3);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("lane 3 of 64: 1.500000\nlane -7 of 64: -0.250000\n");
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("done:ok\n");
    assertThat(problems).isEmpty();
  }

  @Test
  void unknownHashesAndTruncatedRecordsAreReported() {
    BufferedPrintf reader = new BufferedPrintf(List.of(new PrintfFormat(0, List.of(), Optional.of(
        "00000000000000aa"), "x=%d\n", "0:0:00000000000000aa,x=%d\n")));
    ByteBuffer b = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);
    record(b, 0xbbL, false, 1L);
    record(b, 0xaaL, false, 5L);
    b.putInt(1000 << 2);
    int used = b.position();
    assertThat(reader.print(b, used, this::sink, problems::add)).isEqualTo(1);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("x=5\n");
    assertThat(problems).hasSize(2);
    assertThat(problems.get(0)).contains("format hash bb");
    assertThat(problems.get(1)).contains("has size 1000");
  }

  @Test
  void shortHashesAndOpenClRecords() {
    // LLVM drops leading zeros of the hash; OpenCL records carry the printf ID and sized arguments.
    BufferedPrintf hip = new BufferedPrintf(List.of(new PrintfFormat(0, List.of(), Optional.empty(), "c1,v=%s\n",
        "0:0:c1,v=%s\n")));
    ByteBuffer b = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
    record(b, 0xc1L, false, "hello, device");
    hip.print(b, b.position(), this::sink, problems::add);
    BufferedPrintf ocl = new BufferedPrintf(List.of(new PrintfFormat(1, List.of(4, 4, 8), Optional.empty(),
        "%d %.1f %ld\n", "1:3:4:4:8:%d %.1f %ld\n")));
    ByteBuffer c = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
    c.putInt(1).putInt(-3).putFloat(2.5f).putLong(1L << 40);
    ocl.print(c, c.position(), this::sink, problems::add);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("v=hello, device\n-3 2.5 1099511627776\n");
    assertThat(problems).isEmpty();
  }
}
