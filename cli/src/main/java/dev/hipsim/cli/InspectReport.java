package dev.hipsim.cli;

import dev.hipsim.bundle.BundleEntry;
import dev.hipsim.bundle.FatBinaryFile;
import dev.hipsim.bundle.OffloadBundle;
import dev.hipsim.bundle.host.FatBinWrapper;
import dev.hipsim.bundle.metadata.CodeObjectInfo;
import dev.hipsim.bundle.offload.OffloadBinary;
import dev.hipsim.bundle.offload.OffloadImage;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** What {@code inspect} reports, in the order it walks a file; one implementation per output format. */
interface InspectReport {
  void start(Path file, FatBinaryFile f);

  void wrappers(List<FatBinWrapper> wrappers);

  void beginBundles();

  void bundle(OffloadBundle bundle);

  void entry(OffloadBundle bundle, BundleEntry entry, Optional<CodeObjectInfo> codeObject);

  void endBundle(OffloadBundle bundle);

  void endBundles();

  void beginOffloadBinaries();

  void offloadBinary(OffloadBinary binary);

  void image(OffloadBinary binary, OffloadImage image, Optional<CodeObjectInfo> codeObject);

  void endOffloadBinary(OffloadBinary binary);

  void endOffloadBinaries();

  /** The file itself, when it is a bare code object. */
  void codeObject(Optional<CodeObjectInfo> codeObject);

  void finish(List<String> warnings);
}
