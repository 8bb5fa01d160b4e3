#!/usr/bin/env bash
# Builds the few artefacts the bundle module needs beyond the main corpus (testdata/build.sh), with LLVM 22 only,
# and records LLVM's view of them. Run from anywhere: testdata/tools/build_extras.sh
#
#   extras/vector_add-rdc.o              relocatable object from the new offload driver with -fgpu-rdc: device code
#                                        in .llvm.offloading (OffloadBinary), for gfx90a and gfx942:xnack+
#   extras/vector_add-rdc.o.offloading.txt   llvm-objdump --offloading
#   extras/vector_add-rdc.o.images.tsv   index, arch, triple, size, sha256 of each image (llvm-offload-binary)
#   extras/vector_add-newdriver.o        relocatable object (new driver, no RDC): .hip_fatbin + .rela.hipFatBinSegment
#   extras/vector_add-newdriver.o.list.txt   clang-offload-bundler --list of its bundle
#   extras/vector_add-newdriver.o.co.tsv entry id, size, sha256 of each code object the bundler unbundles
#   extras/printf_buffered.hsaco         a code object with amdhsa.printf (buffered printf)
#   extras/printf_buffered.hsaco.notes.txt   llvm-readobj --notes
set -euo pipefail
export HIP_PLATFORM=amd
here=$(cd "$(dirname "$0")/.." && pwd)
out=$here/extras
LLVM22=/usr/lib/llvm-22/bin
DEVLIBS=${DEVLIBS:-/opt/hipsim-devlibs}
FLAGS=(-x hip -D__AMDGCN_WAVEFRONT_SIZE=64 --rocm-path=/usr --rocm-device-lib-path="$DEVLIBS" -I/usr/include
  -Wno-linker-warnings -Wno-unused-command-line-argument -O2)
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$out"
"$LLVM22/clang++" "${FLAGS[@]}" --offload-new-driver -fgpu-rdc -c "$here/src/vector_add.hip" \
  --offload-arch=gfx90a --offload-arch=gfx942:xnack+ -o vector_add-rdc.o
"$LLVM22/llvm-objdump" --offloading vector_add-rdc.o | sed '/^$/N;/^\n$/D' > vector_add-rdc.o.offloading.txt
: > vector_add-rdc.o.images.tsv
i=0
for arch in gfx90a gfx942:xnack+; do
  "$LLVM22/llvm-offload-binary" vector_add-rdc.o --image=file="$tmp/img$i",arch=$arch,triple=amdgcn-amd-amdhsa
  printf '%s\t%s\t%s\t%s\t%s\n' $i $arch amdgcn-amd-amdhsa "$(stat -c %s "$tmp/img$i")" \
    "$(sha256sum "$tmp/img$i" | cut -d' ' -f1)" >> vector_add-rdc.o.images.tsv
  i=$((i + 1))
done

"$LLVM22/clang++" "${FLAGS[@]}" --offload-new-driver -c "$here/src/vector_add.hip" --offload-arch=gfx90a \
  -o vector_add-newdriver.o
"$LLVM22/llvm-objcopy" --dump-section .hip_fatbin="$tmp/fatbin" vector_add-newdriver.o "$tmp/copy.o"
"$LLVM22/clang-offload-bundler" --list --type=o --input="$tmp/fatbin" > vector_add-newdriver.o.list.txt
: > vector_add-newdriver.o.co.tsv
while read -r id; do
  case $id in host-*) continue ;; esac
  "$LLVM22/clang-offload-bundler" --unbundle --type=o --input="$tmp/fatbin" --targets="$id" --output="$tmp/co"
  printf '%s\t%s\t%s\n' "$id" "$(stat -c %s "$tmp/co")" "$(sha256sum "$tmp/co" | cut -d' ' -f1)" \
    >> vector_add-newdriver.o.co.tsv
done < vector_add-newdriver.o.list.txt

"$LLVM22/clang++" "${FLAGS[@]}" --cuda-device-only --no-gpu-bundle-output -mprintf-kind=buffered \
  --offload-arch=gfx90a "$here/src/extras/printf_buffered.hip" -o printf_buffered.hsaco
"$LLVM22/llvm-readobj" --notes printf_buffered.hsaco | sed "s|$out/||" > printf_buffered.hsaco.notes.txt
echo "built $(ls "$out" | wc -l) files in $out"
