#!/usr/bin/env bash
# Records LLVM 22's view of every kernel descriptor in the corpus: for each code object N-TARGET.hsaco listed in
# manifest.tsv, writes N-TARGET.kd.txt with `llvm-objdump -D --disassemble-symbols=<kernel>.kd` (the descriptor as
# .amdhsa_* directives) for every .kd symbol. Run by build.sh; can be run alone on an existing corpus.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
LLVM22=/usr/lib/llvm-22/bin
while IFS=$'\t' read -r variant program bundle id size sha; do
  target=${id#*amdhsa--}
  cpu=${target%%:*}
  [ "$cpu" = gfx940 ] && cpu=gfx942 # LLVM 22 no longer knows gfx940; gfx942 has its ISA
  co="$here/$variant/$program.co/$bundle-$(echo "$target" | tr ':' '_').hsaco"
  out="${co%.hsaco}.kd.txt"
  : > "$out"
  for kd in $("$LLVM22/llvm-readelf" -W --dyn-syms "$co" | awk '$NF ~ /\.kd$/ {print $NF}' | sort -u); do
    "$LLVM22/llvm-objdump" -D --disassemble-symbols="$kd" --mcpu="$cpu" "$co" | sed -n -e '/^; error decoding/p' -e '/^\.amdhsa_kernel/,/^\.end_amdhsa_kernel/p' >> "$out"
  done
done < "$here/manifest.tsv"
