package dev.hipsim.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** Reports the version Maven stamped into the build. */
final class VersionProvider implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() throws IOException {
    Properties p = new Properties();
    try (InputStream in = VersionProvider.class.getResourceAsStream("/hipsim-version.properties")) {
      if (in != null) p.load(in);
    }
    return new String[] {
      "hipsim " + p.getProperty("version", "unknown"),
      "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"
    };
  }
}
