#!/usr/bin/env bash
# Cold first dispatches of two or more builds, interleaved: each round runs the benchmark program once per build and
# kernel, each in a fresh process (a cold JVM, as compare.sh and a user meet it), and the medians per build come at
# the end. Interleaving matters on a shared machine: its speed moves by 15-30% within minutes, and runs of one build
# after the other measure the hour as much as the change.
#
# usage: benches/cold-ab.sh [-n ROUNDS] [-d DEVICE] [-k "KERNEL SIZE"]... HOME HOME...
#   HOME       a checkout built with `mvn -B -q package -DskipTests` (a second one: `git worktree add DIR REV`)
#   -n ROUNDS  runs per build and kernel (default 10)
#   -d DEVICE  sets HIPSIM_DEVICE (default: none, as compare.sh runs the program; the runtime then chooses)
#   -k         a kernel of testdata/gfx90a-v4/hipbench and its size, repeatable (default: the three of compare.sh)
#
# Prints, per kernel and build: the median of the program's own kernel_seconds (launch and completion of its one
# dispatch) and of the whole process's wall time, with the sorted runs.
set -euo pipefail

rounds=10
device=""
kernels=()
while getopts "n:d:k:" opt; do
  case $opt in
    n) rounds=$OPTARG ;;
    d) device=$OPTARG ;;
    k) kernels+=("$OPTARG") ;;
    *) sed -n '7,12p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
  sed -n '7,12p' "$0" >&2
  exit 2
fi
if ! [[ $rounds =~ ^[1-9][0-9]*$ ]]; then
  echo "cold-ab: -n needs a positive number of rounds, not '$rounds'" >&2
  exit 2
fi
[ ${#kernels[@]} -gt 0 ] || kernels=("vadd 4194304" "sgemm 256" "reduce 1048576")

homes=()
for given in "$@"; do
  h=$(cd "$given" 2>/dev/null && pwd) || { echo "cold-ab: no such directory: $given" >&2; exit 2; }
  for f in testdata/gfx90a-v4/hipbench hip-runtime/target/native/libamdhip64.so.5 cli/target/hipsim.jar; do
    if [ ! -e "$h/$f" ]; then
      echo "cold-ab: $h has no $f; build it first: (cd $h && mvn -B -q package -DskipTests)" >&2
      exit 2
    fi
  done
  homes+=("$h")
done

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
sorted() { tr ' ' '\n' | grep -v '^$' | sort -g | tr '\n' ' '; }

declare -A kernel_s wall_s
for k in "${kernels[@]}"; do
  for ((r = 0; r < rounds; r++)); do
    for i in "${!homes[@]}"; do
      h=${homes[i]}
      # shellcheck disable=SC2086 # "KERNEL SIZE" is two arguments
      start=$EPOCHREALTIME
      out=$(cd "$h" && env -u HIPSIM_DEVICE ${device:+HIPSIM_DEVICE=$device} LD_LIBRARY_PATH="$h/hip-runtime/target/native" \
        HIPSIM_HOME="$h" "$h/testdata/gfx90a-v4/hipbench" $k 2>&1) || true
      end=$EPOCHREALTIME
      seconds=$(grep -o 'kernel_seconds=[0-9.]*' <<<"$out" | cut -d= -f2)
      if [ -z "$seconds" ] || ! grep -q PASSED <<<"$out"; then
        echo "cold-ab: $h: hipbench $k did not pass:" >&2
        echo "$out" | tail -5 >&2
        exit 1
      fi
      kernel_s[$k|$i]+=" $seconds"
      wall_s[$k|$i]+=" $(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}')"
    done
  done
  for i in "${!homes[@]}"; do
    printf '%-16s %d %-40s kernel %s s  wall %s s  (kernel: %s)\n' "$k" $((i + 1)) "${homes[i]}" \
      "$(median <<<"${kernel_s[$k|$i]}")" "$(median <<<"${wall_s[$k|$i]}")" "$(sorted <<<"${kernel_s[$k|$i]}")"
  done
done
