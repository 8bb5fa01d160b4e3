package dev.hipsim.isa.decode;

/**
 * The DPP dword of a VOP1/VOP2 instruction: the lane permutation and the write masks. Source modifiers live on the
 * operands.
 *
 * @param control dpp_ctrl: quad_perm 0x00-0xff, row_shl 0x101-0x10f, row_shr 0x111-0x11f, row_ror 0x121-0x12f,
 *     wave_shl 0x130, wave_rol 0x134, wave_shr 0x138, wave_ror 0x13c, row_mirror 0x140, row_half_mirror 0x141,
 *     row_bcast15 0x142, row_bcast31 0x143, row_newbcast 0x150-0x15f
 * @param rowMask rows (16 lanes each) whose destination lanes are written
 * @param bankMask banks (4 lanes of each row) whose destination lanes are written
 * @param boundControl when set, a lane whose source is out of range reads 0 instead of not being written
 */
public record Dpp(int control, int rowMask, int bankMask, boolean boundControl) {}
