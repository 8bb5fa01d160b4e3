package dev.hipsim.cli;

import dev.hipsim.elf.ElfFile;
import dev.hipsim.elf.ElfFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Checks the program given to {@code hipsim run}, {@code debug} and {@code dap} before it is started, so that a
 * missing or damaged file gets a message naming it rather than a shell status or a crash of the dynamic loader.
 */
final class ProgramCheck {
  private static final byte[] ELF_MAGIC = {0x7f, 'E', 'L', 'F'};

  private ProgramCheck() {}

  /** The program cannot be started; the message names it and says why. */
  static final class CannotRun extends InputException {
    private static final long serialVersionUID = 1L;

    CannotRun(String program, String why, Throwable cause) {
      super("cannot run " + program + ": " + why, cause);
    }
  }

  /**
   * Checks {@code program} when it is a path (a bare name is looked up on PATH when it is started). An ELF file
   * must parse; anything else (a script, a wrapper) is left to the system.
   */
  static void check(String program) throws CannotRun {
    if (!program.contains("/")) return;
    Path path = Path.of(program);
    if (!Files.exists(path)) throw new CannotRun(program, "no such file", null);
    if (Files.isDirectory(path)) throw new CannotRun(program, "is a directory", null);
    if (!Files.isExecutable(path)) throw new CannotRun(program, "not executable", null);
    byte[] head = new byte[4];
    try (InputStream in = Files.newInputStream(path)) {
      if (in.readNBytes(head, 0, 4) < 4 || !Arrays.equals(head, ELF_MAGIC)) return;
    } catch (IOException e) {
      throw new CannotRun(program, "cannot read it: " + e.getMessage(), e);
    }
    try (ElfFile elf = ElfFile.open(path)) {
      // Parsed whole: headers, segments and sections are within the file.
    } catch (ElfFormatException e) {
      throw new CannotRun(program, "not a valid ELF file: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new CannotRun(program, "cannot read it: " + e.getMessage(), e);
    }
  }
}
