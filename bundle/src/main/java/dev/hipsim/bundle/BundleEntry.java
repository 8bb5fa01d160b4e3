package dev.hipsim.bundle;

import dev.hipsim.bundle.target.EntryId;
import java.util.Optional;

/**
 * One entry of a plain bundle (or of the plain bundle inside a compressed one).
 *
 * @param index position in the bundle's header
 * @param id the entry ID exactly as written, e.g. {@code hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-}
 * @param parsedId the ID parsed, or empty when it does not follow the grammar (it is still listed)
 * @param offset offset of the contents from the start of the (uncompressed) bundle
 * @param size size of the contents in bytes
 */
public record BundleEntry(int index, String id, Optional<EntryId> parsedId, long offset, long size) {

  public boolean isHost() {
    return parsedId.map(EntryId::isHost).orElse(id.startsWith("host-"));
  }

  /** The target ID part for naming files: the target ID if there is one, else everything after the kind. */
  public String targetLabel() {
    if (parsedId.isPresent() && parsedId.get().target().isPresent()) return parsedId.get().target().get().toString();
    int dash = id.indexOf('-');
    return dash >= 0 ? id.substring(dash + 1) : id;
  }
}
