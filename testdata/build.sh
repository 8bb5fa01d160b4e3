#!/usr/bin/env bash
# Rebuilds hipsim's test corpus with the real toolchain and records what LLVM's tools say about every artefact.
#
# Needs ../shared/toolchain/install-hip-toolchain.sh (hipcc 5.2 with clang 15, clang/LLVM 22, device libraries
# in $DEVLIBS). Run from anywhere: `testdata/build.sh [PROGRAM...]` (default: every program).
#
# Layout written, per variant directory V and program P:
#   V/P                     the host executable (and V/libkern.so for the shared-library program)
#   V/P.readelf.txt         GNU readelf -W: header, sections, segments, symbols, relocations, dynamic, versions, notes
#   V/P.bundles.tsv         the bundles found in .hip_fatbin: index, offset in the section, length, format
#   V/P.co/B.list.txt       LLVM 22 clang-offload-bundler --list of bundle B
#   V/P.co/B-TARGET.hsaco   each code object, as clang-offload-bundler --unbundle writes it
#   V/P.co/B-TARGET.{readelf,objdump,notes}.txt   readelf -W, llvm-objdump -d --mcpu, llvm-readobj --notes
#   V/P.co/B-TARGET.kd.txt  every kernel descriptor as LLVM 22 disassembles it (.amdhsa_* directives)
#   manifest.tsv            one line per code object: variant, program, bundle, entry id, size, sha256
set -euo pipefail
export HIP_PLATFORM=amd
here=$(cd "$(dirname "$0")" && pwd)
src=$here/src
DEVLIBS=${DEVLIBS:-/opt/hipsim-devlibs}
LLVM22=/usr/lib/llvm-22/bin
HIPCC=${HIPCC:-hipcc}
CLANG22=$LLVM22/clang++
BUNDLER=$LLVM22/clang-offload-bundler
# LLVM 22's bundler refuses to unbundle the xnack- entry of hipcc 5.2's xnack+/xnack- bundles ("invalid bundle
# id read from the bundle") although it lists it; LLVM 15's, which wrote them, is used for those.
BUNDLER15=/usr/lib/llvm-15/bin/clang-offload-bundler
OBJDUMP=$LLVM22/llvm-objdump
READOBJ=$LLVM22/llvm-readobj

for tool in "$HIPCC" "$CLANG22" "$BUNDLER" "$BUNDLER15" "$OBJDUMP" "$READOBJ" readelf objcopy python3; do
  command -v "$tool" >/dev/null || { echo "build.sh: $tool not found; run ../shared/toolchain/install-hip-toolchain.sh" >&2; exit 1; }
done

ALL_PROGRAMS="vector_add saxpy matmul_tiled reduce_atomic warp_shuffle int64_math float_math scratch_recursion
  device_globals dynamic_shared_3d half_precision device_printf streams_events mfma multi_tu shared_lib hipbench
  module_api cooperative_groups"
PROGRAMS=${*:-$ALL_PROGRAMS}

CLANG22_FLAGS=(-x hip -D__AMDGCN_WAVEFRONT_SIZE=64 --rocm-path=/usr --rocm-device-lib-path="$DEVLIBS" -I/usr/include
  -Wno-linker-warnings -Wno-unused-command-line-argument)
CLANG22_LINK=(-L/usr/lib/x86_64-linux-gnu -lamdhip64)

# variant name -> compiler command prefix (everything but sources and output)
variant_cmd() {
  case $1 in
    gfx90a-v4) echo "$HIPCC -O2 --offload-arch=gfx90a -mcode-object-version=4" ;;
    gfx90a-v5-xnack) echo "$HIPCC -O2 --offload-arch=gfx90a:xnack+ --offload-arch=gfx90a:xnack- -mcode-object-version=5" ;;
    gfx940-v5) echo "$HIPCC -O2 --offload-arch=gfx940 -mcode-object-version=5" ;;
    gfx942-v6-ccob3) echo "$CLANG22 ${CLANG22_FLAGS[*]} -O2 --offload-arch=gfx942 --offload-arch=gfx90a -mcode-object-version=6 --offload-compress" ;;
    gfx942-v6-ccob2) echo "$CLANG22 ${CLANG22_FLAGS[*]} -O2 --offload-arch=gfx942 --offload-arch=gfx90a -mcode-object-version=6 --offload-compress" ;;
    gfx90a-debug) echo "$HIPCC -O0 -g --offload-arch=gfx90a -mcode-object-version=5" ;;
  esac
}
variant_env() { [ "$1" = gfx942-v6-ccob2 ] && echo "COMPRESSED_BUNDLE_FORMAT_VERSION=2" || true; }
is_clang22() { case $1 in gfx942-*) return 0 ;; *) return 1 ;; esac; }
VARIANTS="gfx90a-v4 gfx90a-v5-xnack gfx940-v5 gfx942-v6-ccob3 gfx942-v6-ccob2 gfx90a-debug"

# compile VARIANT PROGRAM OUTDIR: builds the program's binaries into OUTDIR; returns non-zero when the compiler fails.
compile() {
  local v=$1 p=$2 out=$3 cmd env link=()
  cmd=$(variant_cmd "$v"); env=$(variant_env "$v")
  is_clang22 "$v" && link=("${CLANG22_LINK[@]}")
  case $p in
    multi_tu)
      env $env $cmd "$src/multi_tu/main.hip" "$src/multi_tu/kernels_a.hip" "$src/multi_tu/kernels_b.hip" -o "$out/$p" "${link[@]}" ;;
    module_api)
      # The kernels as a bare code-object bundle beside the program, which loads it with hipModuleLoad.
      if is_clang22 "$v"; then
        env $env $cmd --cuda-device-only "$src/module_api/module_kernels.hip" -o "$out/module_kernels.co"
      else
        env $env $cmd --genco "$src/module_api/module_kernels.hip" -o "$out/module_kernels.co"
      fi &&
        env $env $cmd "$src/module_api/module_api.hip" -o "$out/$p" "${link[@]}" ;;
    shared_lib)
      env $env $cmd -fPIC -shared "$src/shared_lib/libkern.hip" -o "$out/libkern.so" "${link[@]}" &&
        env $env $cmd "$src/shared_lib/app.hip" -o "$out/$p" -L"$out" -lkern -Wl,-rpath,'$ORIGIN' "${link[@]}" ;;
    *)
      env $env $cmd "$src/$p.hip" -o "$out/$p" "${link[@]}" ;;
  esac
}

# record BINARY: readelf of the host file, its bundles, and every code object in them.
record() {
  local bin=$1 dir name co tmp
  dir=$(dirname "$bin"); name=$(basename "$bin"); co=$bin.co
  rm -rf "$co"; mkdir -p "$co"
  tmp=$(mktemp -d)
  if [ "$(head -c 4 "$bin")" != $'\x7fELF' ]; then
    # A bare bundle (hipcc --genco output): the whole file is bundle 0.
    cp "$bin" "$tmp/fatbin"
    python3 "$here/tools/split_fatbin.py" "$tmp/fatbin" "$tmp/b" > "$bin.bundles.tsv"
  elif readelf -W --file-header --sections --program-headers --symbols --relocs --dynamic --version-info --notes \
      "$bin" > "$bin.readelf.txt" && objcopy --dump-section .hip_fatbin="$tmp/fatbin" "$bin" 2>/dev/null &&
      [ -f "$tmp/fatbin" ]; then
    python3 "$here/tools/split_fatbin.py" "$tmp/fatbin" "$tmp/b" > "$bin.bundles.tsv"
  else
    : > "$bin.bundles.tsv"
  fi
  while IFS=$'\t' read -r idx off len fmt; do
    "$BUNDLER" --list --type=o --input="$tmp/b$idx.bundle" > "$co/$idx.list.txt"
    while read -r id; do
      case $id in host-*) continue ;; esac
      local target=${id#*amdhsa--} cpu safe
      cpu=${target%%:*}
      # LLVM 22 no longer knows gfx940 (removed upstream); its ISA is gfx942's, so gfx942 disassembles it.
      [ "$cpu" = gfx940 ] && cpu=gfx942
      safe=$(echo "$target" | tr ':' '_')
      "$BUNDLER" --unbundle --type=o --input="$tmp/b$idx.bundle" --targets="$id" --output="$co/$idx-$safe.hsaco" 2>/dev/null ||
        "$BUNDLER15" --unbundle --type=o --input="$tmp/b$idx.bundle" --targets="$id" --output="$co/$idx-$safe.hsaco"
      readelf -W --file-header --sections --program-headers --symbols --relocs --dynamic --notes \
        "$co/$idx-$safe.hsaco" > "$co/$idx-$safe.readelf.txt"
      "$OBJDUMP" -d --mcpu="$cpu" "$co/$idx-$safe.hsaco" > "$co/$idx-$safe.objdump.txt"
      "$READOBJ" --notes "$co/$idx-$safe.hsaco" > "$co/$idx-$safe.notes.txt" 2>/dev/null
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(basename "$dir")" "$name" "$idx" "$id" \
        "$(stat -c %s "$co/$idx-$safe.hsaco")" "$(sha256sum "$co/$idx-$safe.hsaco" | cut -d' ' -f1)" >> "$here/manifest.tsv.new"
    done < "$co/$idx.list.txt"
  done < "$bin.bundles.tsv"
  rm -rf "$tmp"
}

: > "$here/manifest.tsv.new"
[ -f "$here/manifest.tsv" ] && [ "$PROGRAMS" != "$ALL_PROGRAMS" ] && cp "$here/manifest.tsv" "$here/manifest.tsv.new"
skipped=()
for v in $VARIANTS; do
  mkdir -p "$here/$v"
  for p in $PROGRAMS; do
    # Drop earlier manifest lines of what is rebuilt now.
    awk -F'\t' -v v="$v" -v p="$p" '!($1==v && ($2==p || (p=="module_api" && $2=="module_kernels.co") || (p=="shared_lib" && $2=="libkern.so")))' \
      "$here/manifest.tsv.new" > "$here/manifest.tsv.tmp" && mv "$here/manifest.tsv.tmp" "$here/manifest.tsv.new"
    if ! compile "$v" "$p" "$here/$v" 2> "$here/$v/$p.build.log"; then
      echo "build.sh: $v/$p does not build (see testdata/$v/$p.build.log); going on" >&2
      skipped+=("$v/$p")
      rm -f "$here/$v/$p"
      continue
    fi
    rm -f "$here/$v/$p.build.log"
    record "$here/$v/$p"
    [ "$p" = shared_lib ] && record "$here/$v/libkern.so"
    [ "$p" = module_api ] && record "$here/$v/module_kernels.co"
    echo "built $v/$p"
  done
done

# One program also as a non-PIE executable and as a stripped one: the wrapper pointer is then an absolute
# value in the file, and no symbol table helps.
if [[ " $PROGRAMS " == *" vector_add "* ]]; then
  $HIPCC -O2 --offload-arch=gfx90a -mcode-object-version=4 -fno-pie -no-pie "$src/vector_add.hip" -o "$here/gfx90a-v4/vector_add-nopie"
  record "$here/gfx90a-v4/vector_add-nopie"
  cp "$here/gfx90a-v4/vector_add" "$here/gfx90a-v4/vector_add-stripped"
  strip --strip-all "$here/gfx90a-v4/vector_add-stripped"
  record "$here/gfx90a-v4/vector_add-stripped"
fi

sort -t$'\t' -k1,1 -k2,2 -k3,3n "$here/manifest.tsv.new" | uniq > "$here/manifest.tsv"
rm -f "$here/manifest.tsv.new"
"$here/tools/record_descriptors.sh"
{
  echo "hipcc: $($HIPCC --version 2>/dev/null | grep -m1 -o 'HIP version: [0-9.-]*'), $(/usr/lib/llvm-15/bin/clang --version | head -1)"
  echo "clang 22: $($CLANG22 --version | head -1)"
  echo "readelf: $(readelf --version | head -1)"
} > "$here/TOOLCHAIN.txt"
if [ ${#skipped[@]} -gt 0 ]; then
  printf 'not built (the compiler refused them; see the .build.log next to each):\n' >&2
  printf '  %s\n' "${skipped[@]}" >&2
fi
