package dev.hipsim.bench.regress;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** Reads the file JMH writes with {@code -rf json -rff FILE}: one entry per benchmark and parameter set. */
public final class JmhResults {
  private JmhResults() {}

  /** The results of {@code file} by {@link JmhResult#key()}, in the file's order. */
  public static Map<String, JmhResult> read(Path file) throws ResultsFormatException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ResultsFormatException(file, "cannot read: " + e.getMessage(), e);
    }
    return parse(file, text);
  }

  static Map<String, JmhResult> parse(Path file, String text) throws ResultsFormatException {
    JsonElement root;
    try {
      root = JsonParser.parseString(text);
    } catch (JsonParseException e) {
      throw new ResultsFormatException(file, "not JSON: " + e.getMessage(), e);
    }
    if (!root.isJsonArray()) throw new ResultsFormatException(file, "not a JMH result list (expected a JSON array)", null);
    Map<String, JmhResult> results = new LinkedHashMap<>();
    JsonArray entries = root.getAsJsonArray();
    for (int i = 0; i < entries.size(); i++) {
      try {
        JmhResult r = entry(entries.get(i).getAsJsonObject());
        if (results.putIfAbsent(r.key(), r) != null) {
          throw new ResultsFormatException(file, "entry " + i + ": " + r.key() + " appears twice", null);
        }
      } catch (IllegalStateException | NullPointerException | UnsupportedOperationException
          | NumberFormatException e) {
        throw new ResultsFormatException(file, "entry " + i + " is not a JMH result: " + e.getMessage(), e);
      }
    }
    return results;
  }

  private static JmhResult entry(JsonObject o) {
    StringBuilder key = new StringBuilder(o.get("benchmark").getAsString());
    JsonObject params = o.getAsJsonObject("params");
    if (params != null && params.size() > 0) {
      Map<String, String> sorted = new TreeMap<>();
      for (Map.Entry<String, JsonElement> p : params.entrySet()) sorted.put(p.getKey(), p.getValue().getAsString());
      key.append(' ').append(sorted.toString().replace(", ", ","));
    }
    JsonObject metric = o.getAsJsonObject("primaryMetric");
    double score = metric.get("score").getAsDouble();
    JsonElement err = metric.get("scoreError");
    // JMH writes "NaN" when a single iteration leaves no confidence interval.
    double error = err == null || !err.isJsonPrimitive() ? 0 : parseOrZero(err.getAsString());
    return new JmhResult(key.toString(), o.get("mode").getAsString(), score, error,
        metric.get("scoreUnit").getAsString());
  }

  private static double parseOrZero(String s) {
    double d = Double.parseDouble(s);
    return Double.isFinite(d) ? d : 0;
  }
}
