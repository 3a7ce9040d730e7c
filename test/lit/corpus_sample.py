"""corpus_sample.py STRIDE TEST: the lines of stdin (a list of corpus files) that the
test TEST checks in this build: all of them when STRIDE is 1 (every build but the
sanitizer one), else every STRIDE-th line, starting at an offset taken from TEST's
path, so that the sanitizer build's corpus tests together cover the whole corpus
while each of them runs a quarter of it (lit.cfg.py, docs/testing.md)."""
import sys
import zlib


def main(argv):
    stride = int(argv[1])
    offset = zlib.crc32(argv[2].encode()) % stride
    for i, line in enumerate(sys.stdin):
        if i % stride == offset:
            sys.stdout.write(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
