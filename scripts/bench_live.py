"""Live latency of the real program (issue 36): the built `livetranscriber record --input FILE` run as a
user runs it, in real time with its defaults (`--language auto`, the second pass on), its live event
stream (`--events -`, docs/live-events.md) read from a pipe and every line stamped with this
process's wall clock as it arrives.

Used by scripts/bench.py (`make bench`, `make bench-live`) and by the CI test that keeps the paused
file's latency bounded (Tests/LiveTranscriberCLITests/LiveLatencyProcessTests.swift runs
`bench_live.py measure FILE REFERENCE`).

Clock: the stream's `elapsed` counts wall seconds from the moment the recording's first block was
read, the moment its audio time 0 was "said". A line's arrival, minus the least (arrival - elapsed)
over the run (the line least delayed on its way), is that line's time on the recording's clock as
the reader saw it, so delays in writing or piping the line count. Latency of a final: that time
minus the end of its last word; of a word: the same per word; interim: when the word was first on
screen (in an interim line or its final) minus its end.
"""
import difflib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("LIVETRANSCRIBER_BENCH_BIN", os.path.join(ROOT, ".build/release/livetranscriber"))
LIBRIVOX = "/usr/share/pocketsphinx/test/data/librivox"
TICKS = os.sysconf("SC_CLK_TCK")


def words_of(text):
    """Lower-case words without punctuation, as the word error rate compares them."""
    return re.findall(r"[a-z0-9']+", text.lower().replace("’", "'"))


def word_errors(reference, hypothesis):
    """Word-level Levenshtein distance (substitutions + deletions + insertions)."""
    ref, hyp = words_of(reference), words_of(hypothesis)
    row = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        prev, row[0] = row[0], i
        for j, h in enumerate(hyp, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (r != h))
    return row[len(hyp)]


def percentile(values, p):
    """The value at fraction p (0..1) of a non-empty list, sorted: the nearest of its ranks."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round((len(ordered) - 1) * p))]


def audio_seconds(path):
    return float(subprocess.check_output(["soxi", "-D", path]).decode())


def stat_cpu(path):
    """(name, user + system CPU seconds) from a /proc stat file: a process's (exited threads
    included) or one thread's."""
    with open(path) as f:
        head, tail = f.read().rsplit(")", 1)
    fields = tail.split()
    return head.split("(", 1)[1], (int(fields[11]) + int(fields[12])) / TICKS


def cpu_seconds(pid):
    """User + system CPU seconds of a running process so far, threads included; None once it is gone."""
    try:
        return stat_cpu(f"/proc/{pid}/stat")[1]
    except (OSError, IndexError, ValueError):
        return None


def thread_cpu_seconds(pid):
    """CPU seconds so far of each live thread of a running process, by thread name."""
    threads = {}
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            name, cpu = stat_cpu(f"/proc/{pid}/task/{tid}/stat")
            threads[name] = threads.get(name, 0) + cpu
    except (OSError, IndexError, ValueError):
        pass
    return threads


def librivox_sentences():
    """The five LibriVox files (sorted by name) and their reference sentences."""
    files = sorted(os.path.join(LIBRIVOX, n) for n in os.listdir(LIBRIVOX) if n.endswith(".wav"))
    with open(os.path.join(LIBRIVOX, "transcription")) as f:
        lines = f.read().splitlines()
    sentences = []
    for path in files:
        ident = os.path.basename(path)[:-4]
        line = next(l for l in lines if l.endswith(f"({ident})"))
        sentences.append(line[: -len(ident) - 2].replace("<s>", "").replace("</s>", "").strip())
    return files, sentences


def speech_files(work):
    """The four files of the benchmark: (label, path, reference text)."""
    files, sentences = librivox_sentences()
    reference = " ".join(sentences)
    fluent = os.path.join(work, "fluent.wav")
    subprocess.check_call(["sox"] + files + [fluent])
    padded = []
    for index, path in enumerate(files):
        padded.append(os.path.join(work, f"padded{index}.wav"))
        subprocess.check_call(["sox", path, padded[-1], "pad", "0", "1"])
    paused = os.path.join(work, "paused.wav")
    subprocess.check_call(["sox"] + padded + [paused])
    # Longer than 2 minutes: the set six times over, with a 0.8 s breath between sentences.
    long_file = os.path.join(work, "long.wav")
    subprocess.check_call([os.path.join(ROOT, "scripts/make-demo-audio.sh"), long_file, "6"])
    # A fast speaker: the fluent file at 1.4 times its tempo, pitch kept (sox's WSOLA `tempo -s`).
    fast = os.path.join(work, "fast.wav")
    subprocess.check_call(["sox", fluent, fast, "tempo", "-s", "1.4"])
    return [
        ("fluent (5 LibriVox files joined, no gaps)", fluent, reference),
        ("paused (1 s of silence after each file)", paused, reference),
        ("long (the set 6 times, 0.8 s gaps)", long_file, " ".join([reference] * 6)),
        ("fast (fluent at 1.4x tempo)", fast, reference),
    ]


def run_record(path, reference, extra=(), library=None):
    """Runs `record --input PATH --events -` in real time; returns the measurements (a dict)."""
    own = library is None
    library = library or tempfile.mkdtemp(prefix="lt-live-")
    env = dict(os.environ, LIVETRANSCRIBER_HOME=library)
    argv = [BIN, "record", "--input", path, "--events", "-"] + list(extra)
    launched = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env)
    stderr_lines = []
    threading.Thread(target=lambda: stderr_lines.extend(proc.stderr.read().decode(errors="replace").splitlines()),
                     daemon=True).start()
    events = []
    live_cpu = None
    live_threads = {}
    recording = False
    for raw in proc.stdout:
        arrived = time.monotonic() - launched
        line = raw.decode(errors="replace").strip()
        if not line.startswith("{"):
            continue
        event = json.loads(line)
        event["arrived"] = arrived
        events.append(event)
        # The live part ends when the input has ended and the last live final is out: the phase
        # after "recording" (stopping, then the second pass).
        if event["type"] == "phase":
            if event.get("phase") == "recording":
                recording = True
            elif recording and live_cpu is None and event.get("phase") != "paused":
                live_cpu = cpu_seconds(proc.pid)
                live_threads = thread_cpu_seconds(proc.pid)
    _, status, usage = os.wait4(proc.pid, 0)
    total_cpu = usage.ru_utime + usage.ru_stime
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"benchmark command failed ({os.waitstatus_to_exitcode(status)}): {' '.join(argv)}\n" + "\n".join(stderr_lines[-5:]))
    saved = json.loads(subprocess.check_output([BIN, "show", "latest", "--json"], env=env))
    if own:
        subprocess.call(["rm", "-rf", library])
    result = measurements(events, saved, reference, audio_seconds(path), live_cpu, total_cpu, time.monotonic() - launched)
    result["live_cpu_by_thread"] = {name: round(cpu, 2) for name, cpu in live_threads.items() if cpu >= 0.05}
    return result


def measurements(events, saved, reference, audio_s, live_cpu, total_cpu, wall):
    offset = min(e["arrived"] - e["elapsed"] for e in events)
    for e in events:
        e["at"] = e["arrived"] - offset  # on the recording's clock, as the reader got it
    finals = [e for e in events if e["type"] == "final" and e.get("words")]
    sentence, word, interim = [], [], []
    for index, final in enumerate(finals):
        sentence.append(final["at"] - final["words"][-1]["end"])
        final_words = [w["word"] for w in final["words"]]
        key = [" ".join(words_of(w)) for w in final_words]
        # The interim lines that can have shown this final's words: from two finals back on.
        since = finals[index - 2]["at"] if index >= 2 else -1e9
        shown = [None] * len(key)
        for e in events:
            if e["type"] != "interim" or not (since <= e["at"] <= final["at"]):
                continue
            matcher = difflib.SequenceMatcher(a=key, b=words_of(e.get("text", "")), autojunk=False)
            for block in matcher.get_matching_blocks():
                for k in range(block.a, block.a + block.size):
                    if shown[k] is None:
                        shown[k] = e["at"]
        for k, w in enumerate(final["words"]):
            word.append(final["at"] - w["end"])
            first = shown[k] if shown[k] is not None and shown[k] >= w["end"] - 0.5 else final["at"]
            interim.append(min(first, final["at"]) - w["end"])
    live_text = " ".join(e.get("text", "") for e in finals)
    saved_text = " ".join(s.get("text", "") for s in saved.get("segments", []))
    def stats(values):
        return {"median": statistics.median(values), "p90": percentile(values, 0.9), "max": max(values)} if values else {}
    return {
        "audio_s": audio_s, "wall_s": wall, "finals": len(finals), "startup_s": offset,
        "first_final_from_launch": finals[0]["arrived"] if finals else None,
        "sentence_latency": stats(sentence), "word_latency": stats(word), "interim_latency": stats(interim),
        "first_final_latency": sentence[0] if sentence else None,
        "delivery_delay": stats([e["at"] - e["elapsed"] for e in events]),
        "live_cpu_per_audio_s": (live_cpu / audio_s) if live_cpu is not None else None,
        "total_cpu_per_audio_s": total_cpu / audio_s,
        "reference_words": len(words_of(reference)),
        "live_errors": word_errors(reference, live_text), "saved_errors": word_errors(reference, saved_text),
        "language": saved.get("recording", saved).get("language"),
        "live_text": live_text, "final_times": [round(f["at"], 2) for f in finals],
    }


if __name__ == "__main__":
    # bench_live.py measure FILE REFERENCE_TEXT_FILE [record options...]: one run, JSON on stdout.
    if len(sys.argv) >= 4 and sys.argv[1] == "measure":
        with open(sys.argv[3]) as f:
            print(json.dumps(run_record(sys.argv[2], f.read(), extra=sys.argv[4:]), indent=1))
    else:
        sys.exit("usage: bench_live.py measure FILE REFERENCE_TEXT_FILE [record options...]")
