package dev.hipsim.cli;

import dev.hipsim.bundle.BundleEntry;
import dev.hipsim.bundle.CompressedHeader;
import dev.hipsim.bundle.FatBinaryFile;
import dev.hipsim.bundle.OffloadBundle;
import dev.hipsim.bundle.host.FatBinWrapper;
import dev.hipsim.bundle.metadata.CodeObjectInfo;
import dev.hipsim.bundle.metadata.CodeObjectMetadata;
import dev.hipsim.bundle.metadata.Dim3;
import dev.hipsim.bundle.metadata.KernelArgument;
import dev.hipsim.bundle.metadata.KernelMetadata;
import dev.hipsim.bundle.metadata.PrintfFormat;
import dev.hipsim.bundle.offload.OffloadBinary;
import dev.hipsim.bundle.offload.OffloadImage;
import dev.hipsim.bundle.target.EntryId;
import dev.hipsim.elf.ElfFile;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The report for scripts: the shape documented in cli/README.md. Every key is always present (null when it does
 * not apply), in a fixed order.
 */
final class JsonReport implements InspectReport {
  static final int FORMAT_VERSION = 1;
  private final JsonWriter json;
  private final boolean kernels;

  JsonReport(PrintWriter out, boolean kernels) {
    this.json = new JsonWriter(out);
    this.kernels = kernels;
  }

  @Override
  public void start(Path file, FatBinaryFile f) {
    json.beginObject();
    json.field("hipsimInspectVersion", FORMAT_VERSION);
    json.field("file", file.toString());
    json.field("kind", Describe.kind(f.kind()));
    json.name("elf");
    if (f.elf().isPresent()) {
      ElfFile elf = f.elf().get();
      json.beginObject().field("type", Describe.elfType(elf)).field("machine", Describe.machine(elf));
      json.name("fatbinSection");
      var fatbin = f.host().flatMap(h -> h.fatbinSection());
      if (fatbin.isPresent()) {
        json.beginObject().field("fileOffset", fatbin.get().offset()).field("size", fatbin.get().size())
            .field("address", fatbin.get().address()).endObject();
      } else {
        json.nullValue();
      }
      json.endObject();
    } else {
      json.nullValue();
    }
  }

  @Override
  public void wrappers(List<FatBinWrapper> wrappers) {
    json.name("wrappers").beginArray();
    for (FatBinWrapper w : wrappers) {
      json.beginObject().field("index", w.index()).field("fileOffset", w.fileOffset()).field("magic", w.kind().name())
          .field("version", w.version()).field("binaryAddress", w.binaryAddress())
          .field("pointerSource", Describe.pointerSource(w.pointerSource()))
          .field("binaryFileOffset", w.binaryFileOffset()).name("bundle");
      if (w.bundleIndex().isPresent()) json.value(w.bundleIndex().getAsInt());
      else json.nullValue();
      json.endObject();
    }
    json.endArray();
  }

  @Override
  public void beginBundles() {
    json.name("bundles").beginArray();
  }

  @Override
  public void bundle(OffloadBundle b) {
    json.beginObject().field("index", b.index()).field("fileOffset", b.offset()).field("length", b.location().length())
        .field("format", b.format().displayName()).name("compression");
    if (b.compression().isPresent()) {
      CompressedHeader h = b.compression().get();
      json.beginObject().field("version", h.version()).field("method", h.method().displayName())
          .field("uncompressedSize", h.uncompressedSize()).field("hash", String.format("0x%016x", h.storedHash()))
          .field("hashMatches", b.hashMatches().orElse(true)).endObject();
    } else {
      json.nullValue();
    }
    json.field("uncompressedSize", b.uncompressedSize());
    strings("warnings", b.warnings());
    json.name("entries").beginArray();
  }

  @Override
  public void entry(OffloadBundle b, BundleEntry e, Optional<CodeObjectInfo> co) {
    json.beginObject().field("index", e.index()).field("id", e.id());
    Optional<EntryId> id = e.parsedId();
    json.field("canonicalId", id.map(EntryId::canonical).orElse(null));
    json.field("offloadKind", id.map(x -> x.kind().spelling()).orElse(null));
    json.field("triple", id.map(EntryId::triple).orElse(null));
    json.field("targetId", id.flatMap(EntryId::target).map(Object::toString).orElse(null));
    json.field("offset", e.offset()).field("size", e.size()).name("fileOffset");
    OptionalLong at = b.fileOffsetOf(e);
    if (at.isPresent()) json.value(at.getAsLong());
    else json.nullValue();
    json.name("codeObject");
    codeObjectValue(co);
    json.endObject();
  }

  @Override
  public void endBundle(OffloadBundle b) {
    json.endArray().endObject();
  }

  @Override
  public void endBundles() {
    json.endArray();
  }

  @Override
  public void beginOffloadBinaries() {
    json.name("offloadBinaries").beginArray();
  }

  @Override
  public void offloadBinary(OffloadBinary b) {
    json.beginObject().field("index", b.index()).field("fileOffset", b.offset()).field("length", b.length())
        .field("version", b.version()).field("compressed", b.compressed()).name("images").beginArray();
  }

  @Override
  public void image(OffloadBinary b, OffloadImage img, Optional<CodeObjectInfo> co) {
    json.beginObject().field("index", img.index()).field("kind", img.imageKind().extension())
        .field("producer", img.producer().displayName()).field("flags", img.flags())
        .field("triple", img.triple()).field("arch", img.arch()).field("offset", img.imageOffset())
        .field("size", img.imageSize()).name("strings").beginObject();
    for (Map.Entry<String, String> s : img.strings().entrySet()) json.field(s.getKey(), s.getValue());
    json.endObject().name("codeObject");
    codeObjectValue(co);
    json.endObject();
  }

  @Override
  public void endOffloadBinary(OffloadBinary b) {
    json.endArray().endObject();
  }

  @Override
  public void endOffloadBinaries() {
    json.endArray();
  }

  @Override
  public void codeObject(Optional<CodeObjectInfo> co) {
    json.name("codeObject");
    codeObjectValue(co);
  }

  @Override
  public void finish(List<String> warnings) {
    strings("warnings", warnings);
    json.endObject();
    json.finish();
  }

  private void strings(String name, List<String> values) {
    json.name(name).beginArray();
    for (String v : values) json.value(v);
    json.endArray();
  }

  private void codeObjectValue(Optional<CodeObjectInfo> co) {
    if (co.isEmpty()) {
      json.nullValue();
      return;
    }
    CodeObjectInfo info = co.get();
    json.beginObject().field("targetId", info.targetId().toString()).field("processor", info.target().processor())
        .field("xnack", Describe.feature(info.target().xnack())).field("sramecc", Describe.feature(info.target().sramecc()))
        .field("codeObjectVersion", info.codeObjectVersion()).name("metadata");
    if (info.metadata().isEmpty()) {
      json.nullValue();
    } else {
      CodeObjectMetadata md = info.metadata().get();
      json.beginObject().field("version", md.version().toString()).field("target", md.target().orElse(null))
          .field("kernelCount", md.kernels().size()).name("kernels");
      if (kernels) {
        json.beginArray();
        for (KernelMetadata k : md.kernels()) kernel(k);
        json.endArray();
      } else {
        json.nullValue();
      }
      json.name("printf").beginArray();
      for (PrintfFormat p : md.printf()) {
        json.beginObject().field("id", p.id()).name("argumentSizes").beginArray();
        for (int s : p.argumentSizes()) json.value(s);
        json.endArray().field("hash", p.hipHash().orElse(null)).field("format", p.format()).endObject();
      }
      json.endArray();
      json.endObject();
    }
    json.endObject();
  }

  private void kernel(KernelMetadata k) {
    json.beginObject().field("name", k.name()).field("symbol", k.symbol()).field("language", k.language().orElse(null))
        .name("languageVersion");
    if (k.languageVersion().isEmpty()) {
      json.nullValue();
    } else {
      json.beginArray();
      for (int v : k.languageVersion()) json.value(v);
      json.endArray();
    }
    json.field("kernargSegmentSize", k.kernargSegmentSize()).field("kernargSegmentAlign", k.kernargSegmentAlign())
        .field("groupSegmentFixedSize", k.groupSegmentFixedSize())
        .field("privateSegmentFixedSize", k.privateSegmentFixedSize()).field("wavefrontSize", k.wavefrontSize())
        .field("sgprCount", k.sgprCount()).field("vgprCount", k.vgprCount());
    optional("agprCount", k.agprCount());
    json.field("maxFlatWorkgroupSize", k.maxFlatWorkgroupSize());
    optional("sgprSpillCount", k.sgprSpillCount());
    optional("vgprSpillCount", k.vgprSpillCount());
    json.name("usesDynamicStack");
    if (k.usesDynamicStack().isPresent()) json.value(k.usesDynamicStack().get());
    else json.nullValue();
    optional("uniformWorkGroupSize", k.uniformWorkGroupSize());
    optional("workgroupProcessorMode", k.workgroupProcessorMode());
    dim("requiredWorkgroupSize", k.requiredWorkgroupSize());
    dim("workgroupSizeHint", k.workgroupSizeHint());
    json.field("vecTypeHint", k.vecTypeHint().orElse(null))
        .field("deviceEnqueueSymbol", k.deviceEnqueueSymbol().orElse(null)).field("kind", k.kind().orElse(null));
    dim("clusterDims", k.clusterDims());
    json.name("arguments").beginArray();
    for (KernelArgument a : k.arguments()) {
      json.beginObject().field("name", a.name().orElse(null)).field("typeName", a.typeName().orElse(null))
          .field("offset", a.offset()).field("size", a.size()).field("valueKind", a.valueKindName())
          .field("hidden", a.isHidden())
          .field("addressSpace", a.addressSpace().map(x -> x.metadataName()).orElse(null))
          .field("access", a.access().map(x -> x.metadataName()).orElse(null))
          .field("actualAccess", a.actualAccess().map(x -> x.metadataName()).orElse(null)).name("pointeeAlign");
      if (a.pointeeAlign().isPresent()) json.value(a.pointeeAlign().getAsLong());
      else json.nullValue();
      json.field("isConst", a.isConst()).field("isRestrict", a.isRestrict()).field("isVolatile", a.isVolatile())
          .field("isPipe", a.isPipe()).endObject();
    }
    json.endArray().endObject();
  }

  private void optional(String name, OptionalInt v) {
    json.name(name);
    if (v.isPresent()) json.value(v.getAsInt());
    else json.nullValue();
  }

  private void dim(String name, Optional<Dim3> d) {
    json.name(name);
    if (d.isEmpty()) {
      json.nullValue();
      return;
    }
    json.beginArray().value(d.get().x()).value(d.get().y()).value(d.get().z()).endArray();
  }
}
