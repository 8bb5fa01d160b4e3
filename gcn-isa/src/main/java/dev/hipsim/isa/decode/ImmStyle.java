package dev.hipsim.isa.decode;

/** How the 16-bit immediate of a SOPP or SOPK instruction is shown. */
public enum ImmStyle {
  /** No immediate operand (the field must be zero or is ignored). */
  NONE,
  /** Decimal, unsigned. */
  DECIMAL,
  /** s_endpgm: shown only when nonzero. */
  ENDPGM,
  /** A branch offset in dwords, shown as LLVM's objdump does: the unsigned 16-bit field in decimal. */
  BRANCH,
  /** s_waitcnt counters. */
  WAITCNT,
  /** s_sendmsg message. */
  SENDMSG,
  /** gpr_idx(...) mode bits. */
  GPR_IDX,
  /** hwreg(id, offset, size). */
  HWREG,
  /** 16-bit hexadecimal (s_movk_i32 and friends). */
  HEX16
}
