package dev.hipsim.cli;

import dev.hipsim.bundle.ReadOptions;
import picocli.CommandLine.Option;

/** The option that bounds decompression, shared by the commands that read bundles. */
final class ReadLimits {
  @Option(names = "--max-decompressed", paramLabel = "SIZE", converter = SizeConverter.class,
      description = "refuse compressed bundles larger than SIZE once decompressed (default: 256M; K, M, G suffixes)")
  long maxDecompressed = ReadOptions.DEFAULT.maxDecompressedSize();

  ReadOptions options() {
    return new ReadOptions(maxDecompressed);
  }
}
