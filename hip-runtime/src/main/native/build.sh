#!/usr/bin/env bash
# Builds the replacement libamdhip64 from this directory's C sources and the stubs NativeStubGenerator wrote.
# Run by Maven at process-classes:  build.sh GENERATED_DIR OUTPUT_DIR JDK_HOME
# Produces OUTPUT_DIR/libamdhip64.so.{5,6,7} (each with its own DT_SONAME, as ROCm 5, 6 and 7 binaries need) and a
# libamdhip64.so link for linking test programs. Without a C compiler it skips, saying so: the Java build and the
# tests that need no native library still work.
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
gen=$1
out=$2
jdk=$3
cc=${CC:-gcc}
if ! command -v "$cc" >/dev/null 2>&1; then
  echo "hipsim: no C compiler ($cc): libamdhip64 not built; 'hipsim run' and the native tests will be skipped" >&2
  exit 0
fi
if [ ! -f "$jdk/include/jni.h" ]; then
  echo "hipsim: $jdk/include/jni.h not found: building libamdhip64 needs a JDK, not a JRE" >&2
  exit 1
fi
mkdir -p "$out/obj"
cflags=(-std=gnu11 -O2 -g -fPIC -fvisibility=hidden -Wall -Wextra -I"$src" -I"$gen" -I"$jdk/include" -I"$jdk/include/linux")
objs=()
for c in "$src"/*.c "$gen"/hipsim_exports.c; do
  o=$out/obj/$(basename "${c%.c}").o
  if [ ! -f "$o" ] || [ "$c" -nt "$o" ] || [ "$src/hipsim_bridge.h" -nt "$o" ] || [ "$gen/hipsim_api.h" -nt "$o" ]; then
    "$cc" "${cflags[@]}" -c "$c" -o "$o"
  fi
  objs+=("$o")
done
for v in 5 6 7; do
  lib=$out/libamdhip64.so.$v
  "$cc" -shared -o "$lib.tmp" -Wl,-soname,libamdhip64.so.$v -Wl,--version-script="$gen/libamdhip64.map" \
    -Wl,--no-undefined "${objs[@]}" -ldl -lpthread
  mv -f "$lib.tmp" "$lib"
done
ln -sfn libamdhip64.so.5 "$out/libamdhip64.so"
