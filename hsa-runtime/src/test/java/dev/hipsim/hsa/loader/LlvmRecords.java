package dev.hipsim.hsa.loader;

import dev.hipsim.isa.dispatch.KernelDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads the LLVM outputs recorded beside each corpus code object: descriptors (kd.txt) and metadata (notes.txt). */
final class LlvmRecords {
  private LlvmRecords() {}

  /** kernel name → {@code .amdhsa_*} directive (without the prefix) → value, from llvm-objdump. */
  static Map<String, Map<String, Long>> descriptors(Path kdTxt) throws IOException {
    Map<String, Map<String, Long>> out = new LinkedHashMap<>();
    Map<String, Long> current = null;
    for (String line : Files.readAllLines(kdTxt)) {
      String t = line.trim();
      if (t.startsWith(".amdhsa_kernel ")) {
        current = new LinkedHashMap<>();
        out.put(t.substring(".amdhsa_kernel ".length()), current);
      } else if (t.startsWith(".amdhsa_") && current != null) {
        String[] parts = t.substring(".amdhsa_".length()).split("\\s+");
        current.put(parts[0], Long.decode(parts[1]));
      }
    }
    return out;
  }

  /** Kernels whose descriptor LLVM 22 refused to print ("must be 64-byte aligned", a known LLVM bug on v6). */
  static Set<String> undecoded(Path kdTxt) throws IOException {
    Set<String> out = new java.util.HashSet<>();
    for (String line : Files.readAllLines(kdTxt)) {
      if (line.startsWith("; error decoding ")) {
        String sym = line.substring("; error decoding ".length(), line.indexOf(':'));
        out.add(sym.substring(0, sym.length() - 3));
      }
    }
    return out;
  }

  /** kernel name → kernel-level metadata key (without the dot) → value text, from llvm-readobj --notes. */
  static Map<String, Map<String, String>> kernelMetadata(Path notesTxt) throws IOException {
    Map<String, Map<String, String>> out = new HashMap<>();
    Map<String, String> current = null;
    for (String line : Files.readAllLines(notesTxt)) {
      String keyLine;
      if (line.startsWith("  - .")) {
        current = new HashMap<>();
        keyLine = line.substring(4);
      } else if (line.startsWith("    .") && current != null) {
        keyLine = line.substring(4);
      } else {
        if (!line.startsWith("  ") && current != null) current = null; // left amdhsa.kernels
        continue;
      }
      int colon = keyLine.indexOf(':');
      String key = keyLine.substring(1, colon);
      String value = keyLine.substring(colon + 1).trim();
      current.put(key, value);
      if (key.equals("name")) out.put(value, current);
    }
    return out;
  }

  /** Our value for one directive LLVM prints, or null when the disassembler cannot recover it. */
  static Long directive(KernelDescriptor kd, String name) {
    switch (name) {
      case "group_segment_fixed_size": return (long) kd.groupSegmentFixedSize();
      case "private_segment_fixed_size": return (long) kd.privateSegmentFixedSize();
      case "kernarg_size": return (long) kd.kernargSize();
      case "accum_offset": return (long) kd.accumOffset();
      case "tg_split": return b(kd.tgSplit());
      case "next_free_vgpr": return (long) kd.nextFreeVgpr(8);
      case "next_free_sgpr": return (long) kd.nextFreeSgpr();
      case "float_round_mode_32": return (long) kd.floatRoundMode32();
      case "float_round_mode_16_64": return (long) kd.floatRoundMode16And64();
      case "float_denorm_mode_32": return (long) kd.floatDenormMode32();
      case "float_denorm_mode_16_64": return (long) kd.floatDenormMode16And64();
      case "dx10_clamp": return b(kd.dx10Clamp());
      case "ieee_mode": return b(kd.ieeeMode());
      case "fp16_overflow": return b(kd.fp16Overflow());
      case "system_sgpr_private_segment_wavefront_offset":
      case "enable_private_segment": return b(kd.enablePrivateSegment());
      case "system_sgpr_workgroup_id_x": return b(kd.enableSgprWorkgroupIdX());
      case "system_sgpr_workgroup_id_y": return b(kd.enableSgprWorkgroupIdY());
      case "system_sgpr_workgroup_id_z": return b(kd.enableSgprWorkgroupIdZ());
      case "system_sgpr_workgroup_info": return b(kd.enableSgprWorkgroupInfo());
      case "system_vgpr_workitem_id": return (long) kd.enableVgprWorkitemId();
      case "exception_fp_ieee_invalid_op": return (long) (kd.exceptionEnables() & 1);
      case "exception_fp_denorm_src": return (long) (kd.exceptionEnables() >> 1 & 1);
      case "exception_fp_ieee_div_zero": return (long) (kd.exceptionEnables() >> 2 & 1);
      case "exception_fp_ieee_overflow": return (long) (kd.exceptionEnables() >> 3 & 1);
      case "exception_fp_ieee_underflow": return (long) (kd.exceptionEnables() >> 4 & 1);
      case "exception_fp_ieee_inexact": return (long) (kd.exceptionEnables() >> 5 & 1);
      case "exception_int_div_zero": return (long) (kd.exceptionEnables() >> 6 & 1);
      case "user_sgpr_private_segment_buffer": return b(kd.enableSgprPrivateSegmentBuffer());
      case "user_sgpr_dispatch_ptr": return b(kd.enableSgprDispatchPtr());
      case "user_sgpr_queue_ptr": return b(kd.enableSgprQueuePtr());
      case "user_sgpr_kernarg_segment_ptr": return b(kd.enableSgprKernargSegmentPtr());
      case "user_sgpr_dispatch_id": return b(kd.enableSgprDispatchId());
      case "user_sgpr_flat_scratch_init": return b(kd.enableSgprFlatScratchInit());
      case "user_sgpr_private_segment_size": return b(kd.enableSgprPrivateSegmentSize());
      case "uses_dynamic_stack": return b(kd.usesDynamicStack());
      case "user_sgpr_kernarg_preload_length": return (long) kd.kernargPreloadLength();
      case "user_sgpr_kernarg_preload_offset": return (long) kd.kernargPreloadOffset();
      case "user_sgpr_count": return (long) kd.userSgprCount();
      default: return null; // reserve_vcc, reserve_flat_scratch, reserve_xnack_mask: always printed as 0
    }
  }

  static final List<String> ALWAYS_ZERO = List.of("reserve_vcc", "reserve_flat_scratch", "reserve_xnack_mask");

  private static long b(boolean v) {
    return v ? 1 : 0;
  }
}
