"""The test format of the sanitizer build (lit.cfg.py): lit's ShTest without the tests
that build programs and are not in sanitize-sample.txt. A module of its own so that
lit's worker processes can unpickle the format (a class defined in lit.cfg.py cannot
be)."""
import copy
import re

import lit.formats

PROGRAM = re.compile(r"ptoc run|%ptoc\s+run|%cc\b|%clang\b|%tcc\b|test/e2e/")
# A test whose RUN lines hand ptoc to a script of its own folder that builds programs
# says so in a comment line of its own: `# builds programs (sanitize_sample.py)`.
MARKER = "# builds programs (sanitize_sample.py)"
# A test that loops runs its processes without LeakSanitizer: a corpus loop (its RUN
# lines filter the corpus through %corpus_sample), a shell loop (`for X in`, `while`)
# or a Python script that starts the processes (`python3 FILE.py`). LeakSanitizer's
# exit scan costs about 0.05 s of a sanitized process's 0.12 s on this kind of machine
# (2,500 page faults, the same for an empty program), and such a test starts tens to
# hundreds of processes on the code paths that the single-shot tests, the other 130 or
# so, run with LeakSanitizer on; the C unit suite runs with it on throughout. ASan and
# UBSan stay on everywhere. (docs/testing.md, [decision])
LOOP = re.compile(r"%corpus_sample|\bfor\s+\w+\s+in\b|\bwhile\b|python3?\s+(-W\s+\S+\s+)?\S+\.py\b")


class SampledShTest(lit.formats.ShTest):
    def __init__(self, sample, execute_external=True):
        super().__init__(execute_external=execute_external)
        self.sample = set(sample)

    def getTestsInDirectory(self, testSuite, path_in_suite, litConfig, localConfig):
        for t in super().getTestsInDirectory(testSuite, path_in_suite, litConfig, localConfig):
            rel = "/".join(t.path_in_suite)
            try:
                with open(t.getSourcePath(), errors="replace") as f:
                    text = "".join(l if "RUN:" in l else ("ptoc run\n" if l.strip() == MARKER else "")
                               for l in f)
            except OSError:
                text = ""
            if PROGRAM.search(text) and rel not in self.sample:
                litConfig.note("sanitizer run: %s builds programs and is not in "
                               "sanitize-sample.txt: left out" % rel)
                continue
            yield t

    def execute(self, test, litConfig):
        try:
            with open(test.getSourcePath(), errors="replace") as f:
                loop = any("RUN:" in l and LOOP.search(l) for l in f)
        except OSError:
            loop = False
        if loop:
            test.config = copy.copy(test.config)
            env = test.config.environment = dict(test.config.environment)
            env["ASAN_OPTIONS"] = ":".join(o for o in (env.get("ASAN_OPTIONS"), "detect_leaks=0") if o)
        return super().execute(test, litConfig)
