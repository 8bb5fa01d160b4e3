package dev.hipsim.bundle.offload;

import java.util.Map;

/**
 * One entry of an OffloadBinary: an image and its string table ({@code triple}, {@code arch}, …).
 *
 * @param index position among the binary's entries
 * @param imageKindCode the raw image kind
 * @param producerCode the raw offload kind
 * @param flags entry flags (bit 0: metadata only)
 * @param strings key/value strings in file order
 * @param imageOffset offset of the image from the start of the (uncompressed) binary
 * @param imageSize size of the image
 */
public record OffloadImage(int index, int imageKindCode, int producerCode, long flags, Map<String, String> strings,
    long imageOffset, long imageSize) {

  public static final long FLAG_METADATA = 1;

  public ImageKind imageKind() {
    return ImageKind.ofCode(imageKindCode);
  }

  public ImageProducer producer() {
    return ImageProducer.ofCode(producerCode);
  }

  public String triple() {
    return strings.getOrDefault("triple", "");
  }

  public String arch() {
    return strings.getOrDefault("arch", "");
  }
}
