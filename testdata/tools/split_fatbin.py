#!/usr/bin/env python3
"""Split a .hip_fatbin section dump into its offload bundles (one per translation unit).

Used only by build.sh to prepare inputs for LLVM's clang-offload-bundler, which reads one bundle per file.
Bundles start at 4096-byte boundaries (the section is .p2align 12 per translation unit); each one runs until the
next bundle's start or the end of the section. Prints one line per bundle: index, offset, length, format.
"""
import sys

MAGIC_PLAIN = b"__CLANG_OFFLOAD_BUNDLE__"
MAGIC_CCOB = b"CCOB"


def main(section_path, out_prefix):
    data = open(section_path, "rb").read()
    starts = []
    for off in range(0, len(data), 4096):
        if data.startswith(MAGIC_PLAIN, off) or data.startswith(MAGIC_CCOB, off):
            starts.append(off)
    for i, off in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(data)
        fmt = "plain" if data.startswith(MAGIC_PLAIN, off) else "ccob"
        if fmt == "ccob":
            version = int.from_bytes(data[off + 4:off + 6], "little")
            if version >= 2:
                size_field = data[off + 8:off + 12] if version == 2 else data[off + 8:off + 16]
                end = off + int.from_bytes(size_field, "little")
            fmt = "ccob-v%d" % version
        with open("%s%d.bundle" % (out_prefix, i), "wb") as f:
            f.write(data[off:end])
        print("%d\t%d\t%d\t%s" % (i, off, end - off, fmt))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
