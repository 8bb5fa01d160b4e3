package dev.hipsim.hsa.loader;

import dev.hipsim.bundle.target.TargetId;
import dev.hipsim.elf.AmdgpuTarget;
import dev.hipsim.elf.AmdgpuTarget.FeatureState;
import dev.hipsim.hsa.GpuAgent;
import dev.hipsim.hsa.HsaStatus;

/**
 * Whether a code object's ISA runs on an agent, by ROCr's rules: the same processor (or a generic processor whose
 * family includes it), and for xnack and sramecc, a code object built for Any (or for a processor without the
 * feature) runs either way while On or Off must equal the agent's mode.
 */
public final class TargetCheck {
  private TargetCheck() {}

  public static void check(AmdgpuTarget code, GpuAgent agent) throws CodeObjectException {
    TargetId codeId = TargetId.of(code);
    String why = null;
    if (!codeId.processorServes(agent.targetId().processor())) {
      why = "processor " + code.processor() + " is not " + agent.targetId().processor();
    } else {
      why = feature("sramecc", code.sramecc(), agent.sramecc());
      if (why == null) why = feature("xnack", code.xnack(), agent.xnack());
    }
    if (why != null) {
      throw new CodeObjectException(HsaStatus.INCOMPATIBLE_ARGUMENTS, "code object for amdgcn-amd-amdhsa--" + codeId
          + " cannot be loaded on agent " + agent.name() + " (node " + agent.nodeId() + ") whose ISA is "
          + agent.isaName() + ": " + why);
    }
  }

  private static String feature(String name, FeatureState code, boolean agentOn) {
    if (code != FeatureState.ON && code != FeatureState.OFF) return null;
    boolean wants = code == FeatureState.ON;
    if (wants == agentOn) return null;
    return "it was built for " + name + (wants ? '+' : '-') + " and the agent runs with " + name + (agentOn ? '+' : '-');
  }
}
