"""The saved and live words against the bare model, per file (issue 42): for each real-speech set,
the word errors of whisper.cpp alone (`livetranscriber-bench whisper-full`: one whole-file
`whisper_full` call, greedy with its default temperature fallback, the same ggml model, one thread,
English), of `livetranscriber import` (the saved transcript, run as a user runs it), and of the
live lines of `livetranscriber record --input FILE` in real time (`--no-refine`: the live lines do
not depend on the second pass). Used by scripts/bench.py (`make bench`, `make bench-quality`).

The sets are the LibriVox recordings of pocketsphinx-testdata as recorded, made quieter, higher,
lower, faster or whispered (sox, espeak-ng), and the one recording with its text that
whisper.cpp's source ships (samples/jfk.wav, read from the pinned pywhispercpp source archive that
`make` downloads).
"""
import json
import os
import subprocess
import sys
import tempfile

import bench_live

ROOT = bench_live.ROOT
BIN = bench_live.BIN
BENCH = os.environ.get("LIVETRANSCRIBER_BENCH") or os.path.join(ROOT, ".build/release/livetranscriber-bench")
LIBRIVOX = bench_live.LIBRIVOX
# The pinned whisper.cpp source archive that scripts/install-whisper.sh downloads holds this one.
WHISPER_ARCHIVE = os.path.join(ROOT, ".deps/downloads/pywhispercpp-1.5.1.tar.gz")
JFK_MEMBER = "pywhispercpp-1.5.1/whisper.cpp/samples/jfk.wav"
JFK_TEXT = "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country."

# (label, espeak-ng voice or None, sox effects): every set is the five LibriVox sentences.
SETS = [
    ("LibriVox as recorded", None, []),
    ("20 dB down", None, ["gain", "-20"]),
    ("30 dB down", None, ["gain", "-30"]),
    ("40 dB down", None, ["gain", "-40"]),
    ("50 dB down", None, ["gain", "-50"]),
    ("high voice (pitch 700)", None, ["pitch", "700"]),
    ("low voice (pitch -400)", None, ["pitch", "-400"]),
    ("quiet high voice (pitch 700, 40 dB down)", None, ["pitch", "700", "gain", "-40"]),
    ("fast (tempo 1.4)", None, ["tempo", "-s", "1.4"]),
    ("whispered (espeak-ng en+whisper)", "en+whisper", []),
    ("whispered, 30 dB down", "en+whisper", ["gain", "-30"]),
]


def set_files(work, index, voice, effects):
    """The set's five files: [(name, path, reference)]."""
    files, sentences = bench_live.librivox_sentences()
    folder = os.path.join(work, f"set{index}")
    os.makedirs(folder, exist_ok=True)
    made = []
    for path, sentence in zip(files, sentences):
        ident = os.path.basename(path)[:-4]
        source = path
        effects_here = effects
        if voice:
            source = os.path.join(folder, ident + "-espeak.wav")
            subprocess.check_call(["espeak-ng", "-v", voice, "-w", source, sentence])
            effects_here = ["rate", "16000"] + effects
        out = os.path.join(folder, ident + ".wav")
        # -R: repeatable dither, so every run decodes the same samples.
        subprocess.check_call(["sox", "-R", source, out] + effects_here)
        made.append((ident, out, sentence))
    return made


def bare_texts(paths):
    return json.loads(subprocess.check_output([BENCH, "whisper-full"] + paths))["texts"]


def import_texts(paths, library):
    """Each file imported into a fresh library as a user does; the saved transcript's text per file."""
    env = dict(os.environ, LIVETRANSCRIBER_HOME=library)
    imported = json.loads(subprocess.check_output([BIN, "import", "--again", "--json"] + paths, env=env,
                                                  stderr=subprocess.DEVNULL))
    texts = []
    for item in imported:
        ident = item.get("id") or item.get("recording", {}).get("id")
        shown = json.loads(subprocess.check_output([BIN, "show", ident, "--json"], env=env))
        texts.append(" ".join(s.get("text", "") for s in shown.get("segments", [])))
    return texts


def live_text(path, reference, library):
    return bench_live.run_record(path, reference, extra=["--no-refine"], library=library)["live_text"]


def measure(work, live=True):
    """Rows: (set label, [(file, reference words, bare errors, import errors, live errors, texts)])."""
    rows = []
    sets = [(label, set_files(work, index, voice, effects)) for index, (label, voice, effects) in enumerate(SETS)]
    if os.path.exists(WHISPER_ARCHIVE):
        jfk = os.path.join(work, "jfk.wav")
        with open(jfk, "wb") as f:
            f.write(subprocess.check_output(["tar", "-xzOf", WHISPER_ARCHIVE, JFK_MEMBER]))
        sets.append(("JFK (whisper.cpp's sample)", [("jfk", jfk, JFK_TEXT)]))
    for label, files in sets:
        paths = [path for _, path, _ in files]
        bare = bare_texts(paths)
        library = tempfile.mkdtemp(prefix="lt-quality-", dir=work)
        saved = import_texts(paths, library)
        per_file = []
        for (ident, path, reference), bare_text, saved_text in zip(files, bare, saved):
            spoken = live_text(path, reference, library) if live else None
            per_file.append({
                "file": ident, "words": len(bench_live.words_of(reference)),
                "bare": bench_live.word_errors(reference, bare_text), "import": bench_live.word_errors(reference, saved_text),
                "live": bench_live.word_errors(reference, spoken) if spoken is not None else None,
                "bare_text": bare_text.strip(), "import_text": saved_text, "live_text": spoken,
            })
        rows.append((label, per_file))
    return rows


def section(rows):
    lines = []
    totals = [0, 0, 0, 0]
    for label, files in rows:
        for f in files:
            mark = " **more than bare**" if f["import"] > f["bare"] else ""
            live = "" if f["live"] is None else f"{f['live']}"
            lines.append(f"| {label} | {f['file']} | {f['words']} | {f['bare']} | {f['import']}{mark} | {live} |")
            totals[0] += f["words"]
            totals[1] += f["bare"]
            totals[2] += f["import"]
            totals[3] += f["live"] or 0
    return QUALITY_MARKER + """

Per file, word errors of whisper.cpp alone on the whole file (`livetranscriber-bench whisper-full`:
one `whisper_full` call, greedy with whisper.cpp's default temperature fallback, the same
`ggml-base.bin`, one thread, English), of the transcript `livetranscriber import` saves (the defaults:
`--language auto`), and of the live lines of `livetranscriber record --input FILE --no-refine` in real
time (`scripts/bench_quality.py`; `make bench-quality` runs this section alone). Targets (issue 42):
import no more errors than the bare model on every file (ties allowed); live within 10% of it per set.

| set | file | words | bare model | import | live |
|---|---|---|---|---|---|
""" + "\n".join(lines) + f"\n| all | | {totals[0]} | {totals[1]} | {totals[2]} | {totals[3]} |\n\n"


QUALITY_MARKER = "## Saved and live words against the bare model, per file (issue 42)"


if __name__ == "__main__":
    # bench_quality.py [--no-live]: the table on stdout, the texts as JSON on stderr.
    work = tempfile.mkdtemp(prefix="lt-quality-")
    try:
        result = measure(work, live="--no-live" not in sys.argv)
        print(section(result))
        json.dump(result, sys.stderr, indent=1)
    finally:
        subprocess.call(["rm", "-rf", work])
