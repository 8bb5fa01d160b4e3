#!/usr/bin/env bash
# Builds a few small device code objects with line tables (hipcc 5.2 / clang 15 and clang 22, DWARF 4 and 5, -O2 -g)
# and records what `llvm-dwarfdump --debug-line` says about them and about some of the corpus's -O0 -g builds, for
# the debugger's .debug_line reader tests. A separate step: it does not rebuild the corpus.
#
# Writes testdata/debug-line/NAME.hsaco and NAME.debug_line.txt; for corpus code objects only the .txt beside them.
set -euo pipefail
export HIP_PLATFORM=amd
here=$(cd "$(dirname "$0")/.." && pwd)
out=$here/debug-line
DEVLIBS=${DEVLIBS:-/opt/hipsim-devlibs}
LLVM22=/usr/lib/llvm-22/bin
DWARFDUMP=$LLVM22/llvm-dwarfdump
BUNDLER15=/usr/lib/llvm-15/bin/clang-offload-bundler
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# clang 15 through hipcc: --genco writes an offload bundle; the gfx90a entry is the code object.
for dwarf in 4 5; do
  name=scratch_recursion-clang15-dwarf$dwarf
  hipcc --genco -O2 -g -gdwarf-$dwarf --offload-arch=gfx90a -o "$tmp/$name.bundle" "$here/src/scratch_recursion.hip"
  "$BUNDLER15" --unbundle --type=o --input="$tmp/$name.bundle" --targets=hipv4-amdgcn-amd-amdhsa--gfx90a \
    --output="$out/$name.hsaco"
done
# clang 22: device-only compilation without a bundle gives the code object itself.
for dwarf in 4 5; do
  name=scratch_recursion-clang22-dwarf$dwarf
  "$LLVM22/clang++" -x hip -D__AMDGCN_WAVEFRONT_SIZE=64 --rocm-path=/usr --rocm-device-lib-path="$DEVLIBS" \
    -I/usr/include -Wno-unused-command-line-argument --cuda-device-only --no-gpu-bundle-output \
    --offload-arch=gfx90a -O2 -g -gdwarf-$dwarf -o "$out/$name.hsaco" "$here/src/scratch_recursion.hip"
done
for f in "$out"/*.hsaco; do
  "$DWARFDUMP" --debug-line "$f" | sed "s|^$out/||" > "${f%.hsaco}.debug_line.txt"
done
for p in vector_add scratch_recursion; do
  co=$here/gfx90a-debug/$p.co/0-gfx90a.hsaco
  "$DWARFDUMP" --debug-line "$co" | sed "s|^$here/||" > "${co%.hsaco}.debug_line.txt"
done
