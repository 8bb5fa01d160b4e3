package dev.hipsim.elf;

import java.util.List;

/** A REL or RELA section and its entries; {@code target} is the section they apply to (null when info is 0). */
public record RelocationSection(SectionHeader section, boolean explicitAddends, List<Relocation> relocations) {}
