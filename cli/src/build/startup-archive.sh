#!/usr/bin/env bash
# Makes cli/target/hipsim.jsa, the class-data sharing (AppCDS) archive bin/hipsim and libamdhip64 map when their JVM
# starts. Without it a cold hipsim spends a few hundred milliseconds loading, verifying and linking classes and
# spinning lambda classes before the program's first kernel runs; with it those come parsed and linked from the
# archive.
#
# The archive lists the classes a few training runs load: the launcher and the program's JVM of `hipsim run` on
# corpus programs that cover the runtime's paths (registration, memory, launches, device printf, compressed bundles)
# and the interpreter's families, plus `disasm` and `inspect`. It is valid only for the JDK that made it and for
# cli/target/hipsim.jar at its path; a JVM given another JDK or a rebuilt jar ignores it (silently: both starters
# pass -Xshare:auto and switch CDS logging off) and starts the slow way.
#
# usage: startup-archive.sh JAVA_HOME        (run by the cli module's package phase, after hipsim.jar is made)
set -uo pipefail
java=$1/bin/java
cli=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
home=$(dirname "$cli")
jar=$cli/target/hipsim.jar
archive=$cli/target/hipsim.jsa
work=$cli/target/startup-archive
data=$home/testdata
rm -rf "$work" "$archive"
mkdir -p "$work"

if [ ! -f "$home/hip-runtime/target/native/libamdhip64.so.5" ]; then
  echo "startup-archive: libamdhip64 was not built, so there is nothing to train on; hipsim will start without an archive"
  exit 0
fi

# One training run: the launcher's and the program's JVMs each write the classes they load. One worker thread unless
# $threads says otherwise: the benchmark kernels run with two, as most machines run them, so that the dispatch's
# worker threads and what starts them come from the archive too.
run() {
  local name=$1
  shift
  # A training run that hangs must not hang the build: two minutes is twenty times what one takes.
  timeout 120 env -u HIPSIM_CLASSPATH -u HIPSIM_DEVICE -u HIPSIM_CDS_ARCHIVE HIPSIM_HOME="$home" HIPSIM_THREADS="${threads:-1}" \
    HIPSIM_JAVA_OPTS="-XX:DumpLoadedClassList=$work/$name.program.lst" \
    "$java" -XX:DumpLoadedClassList="$work/$name.cli.lst" -cp "$jar" dev.hipsim.cli.Main "$@" \
    >"$work/$name.out" 2>&1 </dev/null || echo "startup-archive: training run $name failed (see $work/$name.out)"
}

threads=2 run vadd run -- "$data/gfx90a-v4/hipbench" vadd 65536
threads=2 run sgemm run -- "$data/gfx90a-v4/hipbench" sgemm 64
threads=2 run reduce run -- "$data/gfx90a-v4/hipbench" reduce 65536
run printf run -- "$data/gfx90a-v4/device_printf"
run shuffle run -- "$data/gfx90a-v4/warp_shuffle"
run float run -- "$data/gfx90a-v4/float_math"
run int64 run -- "$data/gfx90a-v4/int64_math"
run mfma run -- "$data/gfx90a-v4/mfma"
run ccob run -- "$data/gfx942-v6-ccob3/vector_add"
run disasm disasm "$data/gfx90a-v4/matmul_tiled"
run inspect inspect "$data/gfx942-v6-ccob3/saxpy"

cat "$work"/*.lst 2>/dev/null | grep -v '^#' | awk '!seen[$0]++' >"$work/classes.lst"
if [ ! -s "$work/classes.lst" ]; then
  echo "startup-archive: the training runs loaded no classes; hipsim will start without an archive"
  exit 0
fi
if "$java" -Xshare:dump -XX:SharedClassListFile="$work/classes.lst" -XX:SharedArchiveFile="$archive" -cp "$jar" \
    >"$work/dump.out" 2>&1; then
  echo "startup-archive: $(wc -l <"$work/classes.lst") classes listed, $archive is $(du -h "$archive" | cut -f1)"
else
  rm -f "$archive"
  echo "startup-archive: the JVM could not dump the archive (see $work/dump.out); hipsim will start without one"
fi
