package dev.hipsim.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs {@link Main} with captured output. */
record Cli(int status, String out, String err) {
  static Cli run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = Main.run(new PrintWriter(out), new PrintWriter(err), args);
    return new Cli(status, out.toString(), err.toString());
  }
}
