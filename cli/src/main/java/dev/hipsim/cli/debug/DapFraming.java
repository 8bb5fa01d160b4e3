package dev.hipsim.cli.debug;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonSyntaxException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Debug Adapter Protocol framing: {@code Content-Length: N\r\n\r\n} then N bytes of JSON. */
final class DapFraming {
  private static final int MAX_MESSAGE = 64 << 20;

  private DapFraming() {}

  /** The next message, or null at the end of the stream. */
  static JsonObject read(InputStream in) throws IOException {
    int length = -1;
    while (true) {
      String header = headerLine(in);
      if (header == null) return null;
      if (header.isEmpty()) {
        if (length >= 0) break;
        continue;
      }
      int colon = header.indexOf(':');
      if (colon > 0 && header.substring(0, colon).strip().equalsIgnoreCase("Content-Length")) {
        try {
          length = Integer.parseInt(header.substring(colon + 1).strip());
        } catch (NumberFormatException e) {
          throw new IOException("bad Content-Length header: " + header);
        }
        if (length < 0 || length > MAX_MESSAGE) throw new IOException("message of " + length + " bytes");
      }
    }
    byte[] body = in.readNBytes(length);
    if (body.length < length) return null;
    try {
      return JsonParser.parseString(new String(body, StandardCharsets.UTF_8)).getAsJsonObject();
    } catch (JsonSyntaxException | IllegalStateException e) {
      throw new IOException("a message is not a JSON object: " + e.getMessage());
    }
  }

  private static String headerLine(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    while (true) {
      int c = in.read();
      if (c < 0) return null;
      if (c == '\n') break;
      if (c != '\r') b.write(c);
      if (b.size() > 4096) throw new IOException("header line too long");
    }
    return b.toString(StandardCharsets.US_ASCII);
  }

  static void write(OutputStream out, JsonObject message) throws IOException {
    byte[] body = message.toString().getBytes(StandardCharsets.UTF_8);
    out.write(("Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(body);
    out.flush();
  }
}
