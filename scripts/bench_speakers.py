"""Speaker labels per conversation (issue 38, item 4): the built `livetranscriber import FILE --json`
on each conversation of scripts/make_speaker_set.py (2, 3 and 4 real voices with known turns), run
three ways: the default (the number of voices found by the program), `--speakers N` (the set's true
number) and `--no-speakers`. Accuracy is make_speaker_set.speaker_accuracy of the saved segments
against the known turns (the share of reference speech time with the right speaker under the best
one-to-one mapping); labelling CPU per audio second is (CPU of the labelled import - CPU of the
`--no-speakers` import) / audio seconds, each process's user + sys from os.wait4. Used by
scripts/bench.py (`make bench`, `make bench-speakers`).

    python3 scripts/bench_speakers.py [--only NAME]...   # the section on stdout, details as JSON on stderr
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import bench_live
import make_speaker_set as speaker_set

BIN = bench_live.BIN
SPEAKERS_MARKER = "## Speaker labels (issue 38)"
# Targets of issue 38: labels right on 90% of the speech time, the number of voices found exactly,
# at most 0.3 CPU s per audio s for the labelling (on 2 cores).
TARGET_ACCURACY = 0.90
TARGET_CPU = 0.3
WAYS = [("auto", []), ("given", None), ("none", ["--no-speakers"])]  # None: --speakers N


def run(argv, env):
    """Runs argv: (wall s, CPU s user+sys, peak RSS MiB, stdout, exit code, last stderr line), as
    bench.measure does, but a failed run is returned, not fatal, so the other sets still run."""
    start = time.monotonic()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL, env=env)
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        err.seek(0)
        lines = err.read().decode(errors="replace").strip().splitlines()
    return (wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out,
            os.waitstatus_to_exitcode(status), lines[-1] if lines else "")


def recording_of(out):
    """The saved recording in `import --json`'s output (one object, or a list of one)."""
    data = json.loads(out)
    if isinstance(data, list):
        data = data[0]
    return data.get("recording", data) if "segments" not in data else data


def labelled(segments):
    """The saved segments that carry a speaker, as make_speaker_set's scoring takes them."""
    return [{"speaker": s["speaker"], "start": s["start"], "end": s["end"]} for s in segments if s.get("speaker")]


def import_once(path, extra, work):
    """One `import` into a fresh library: its measurements and the saved recording."""
    library = tempfile.mkdtemp(prefix="lt-speakers-lib-", dir=work)
    env = dict(os.environ, LIVETRANSCRIBER_HOME=library, NO_COLOR="1")
    wall, cpu, rss, out, code, last = run([BIN, "import", path, "--json"] + extra, env)
    result = {"argv": ["import", os.path.basename(path), "--json"] + extra, "wall": wall, "cpu": cpu, "rss": rss, "exit": code}
    if code != 0:
        result["error"] = last or f"exit {code}"
        return result
    try:
        recording = recording_of(out)
    except (ValueError, KeyError, IndexError) as error:
        result["error"] = f"unreadable JSON ({error})"
        return result
    result["segments"] = labelled(recording.get("segments", []))
    result["all_segments"] = len(recording.get("segments", []))
    result["speakers"] = recording.get("speakers")
    return result


def uncovered(reference, segments):
    """Shares of the reference speech time in no saved segment: inside a turn between its segments
    (the pauses between words and clips that a segment, bounded by its words, leaves out), at the
    turn's start and end, and in turns with no segment at all."""
    inner = edge = missing = total = 0.0
    for turn in reference["turns"]:
        total += turn["end"] - turn["start"]
        spans = sorted((max(turn["start"], s["start"]), min(turn["end"], s["end"])) for s in segments
                       if min(turn["end"], s["end"]) > max(turn["start"], s["start"]))
        if not spans:
            missing += turn["end"] - turn["start"]
            continue
        edge += spans[0][0] - turn["start"]
        reach = spans[0][1]
        for start, end in spans[1:]:
            inner += max(0.0, start - reach)
            reach = max(reach, end)
        edge += max(0.0, turn["end"] - reach)
    return {"inner": inner / total, "edge": edge / total, "missing": missing / total}


def diagnosis(reference, segments, spec):
    """Which reference voices share a label and which voice's turns went to two labels, from the
    label that covers most of each reference turn."""
    voices = {}
    for key, label in spec["labels"].items():
        voices.setdefault(label, []).append(key)
    names = {label: f"{label} ({'+'.join(keys)})" for label, keys in voices.items()}
    dominant = []  # (reference label, hypothesis label or None) per turn
    for turn in reference["turns"]:
        cover = {}
        for s in segments:
            overlap = min(turn["end"], s["end"]) - max(turn["start"], s["start"])
            if overlap > 0:
                cover[s["speaker"]] = cover.get(s["speaker"], 0.0) + overlap
        dominant.append((turn["speaker"], max(cover, key=cover.get) if cover else None))
    notes = []
    by_hyp = {}
    for ref, hyp in dominant:
        if hyp:
            by_hyp.setdefault(hyp, set()).add(ref)
    for hyp, refs in sorted(by_hyp.items()):
        if len(refs) > 1:
            descriptions = [speaker_set.VOICES[k].description for r in refs for k in voices[r]]
            women = all("female" in d for d in descriptions)
            men = all(", male" in d for d in descriptions)
            who = " (two women" if women else " (two men" if men else " ("
            who = (who + (", " if who != " (" else "") + "on the 8 kHz telephone band)") if spec["band"] == "phone" \
                else (who + ")" if who != " (" else "")
            notes.append(f"{' and '.join(names[r] for r in sorted(refs))} under one label, {hyp}{who}")
    by_ref = {}
    for ref, hyp in dominant:
        by_ref.setdefault(ref, []).append(hyp or "none")
    for ref, hyps in sorted(by_ref.items()):
        if len(set(hyps) - {"none"}) > 1:
            notes.append(f"{names[ref]}'s turns went to {', '.join(hyps)} (the label over most of each turn)")
    return notes


def measure(work, only=()):
    """Per set: the reference and the three imports, scored. Sets whose sources are missing stop
    the run with the packages to install."""
    sets = [spec for spec in speaker_set.SETS if not only or spec["name"] in only]
    missing = speaker_set.check_sources(sets)
    if missing:
        packages = sorted({m.split(":")[0] for m in missing if not m.startswith("pywhispercpp")})
        sys.exit("bench_speakers: missing source recordings; install: apt-get install " + " ".join(packages))
    audio_dir = os.path.join(work, "speaker-sets")
    os.makedirs(audio_dir, exist_ok=True)
    started, load = time.monotonic(), os.getloadavg()[0]
    rows = []
    cache = {"tmp": work}
    for spec in sets:
        reference = speaker_set.build_set(spec, speaker_set.SETS.index(spec), audio_dir, cache)
        path = os.path.join(audio_dir, spec["name"] + ".wav")
        audio = bench_live.audio_seconds(path)
        _, _, _, speech = speaker_set.overlap_matrix(reference["turns"], reference["turns"])
        row = {"set": spec["name"], "band": spec["band"], "speakers": reference["speakers"], "audio": audio,
               "speech": speech}
        for way, extra in WAYS:
            result = import_once(path, extra if extra is not None else ["--speakers", str(reference["speakers"])], work)
            if "segments" in result:
                segments = result["segments"]
                result["found"] = speaker_set.speakers_found(segments)
                result["accuracy"] = speaker_set.speaker_accuracy(reference["turns"], segments)
                result["covered"] = speaker_set.speaker_accuracy(
                    [dict(t, speaker="R") for t in reference["turns"]], [dict(s, speaker="H") for s in segments])
                if way != "none":
                    result["notes"] = diagnosis(reference, segments, spec)
                    result["uncovered"] = uncovered(reference, segments)
            row[way] = result
            print(f"bench_speakers: {spec['name']} {way}: "
                  + (f"error: {result['error']}" if "error" in result else
                     f"{result.get('found')} speakers, accuracy {result.get('accuracy', 0):.3f}, CPU {result['cpu']:.1f} s, "
                     f"wall {result['wall']:.1f} s"), file=sys.stderr)
        for way in ("auto", "given"):
            if "error" not in row[way] and "error" not in row["none"]:
                row[way]["label_cpu"] = (row[way]["cpu"] - row["none"]["cpu"]) / audio
        rows.append(row)
    return {"rows": rows, "seconds": time.monotonic() - started, "load": [load, os.getloadavg()[0]]}


def pct(value):
    return f"{100 * value:.1f}%"


def section(result):
    rows = result["rows"]
    lines, misses = [], []
    speech = correct = correct_given = audio = cpu = cpu_given = 0.0
    exact = 0
    for row in rows:
        auto, given, none = row["auto"], row["given"], row["none"]
        def cell(value, form):
            return "failed" if value is None else form(value)
        cells = [cell(auto.get("found"), str), cell(auto.get("accuracy"), pct), cell(given.get("accuracy"), pct),
                 cell(auto.get("label_cpu"), "{:.3f}".format), cell(given.get("label_cpu"), "{:.3f}".format)]
        found = auto.get("found")
        lines.append(f"| {row['set']} | {row['band']} | {row['speakers']} | {row['audio']:.1f} | {cells[0]} | {cells[1]} | {cells[2]} "
                     f"| {cells[3]} | {cells[4]} | {none['wall']:.0f} / {auto['wall']:.0f} s |")
        problems = []
        for way, result_ in (("", auto), (" with --speakers N", given), (" with --no-speakers", none)):
            if "error" in result_:
                problems.append(f"the import{way} failed ({result_['error']})")
        if "accuracy" in auto:
            speech += row["speech"]
            correct += auto["accuracy"] * row["speech"]
            exact += found == row["speakers"]
            if found != row["speakers"]:
                problems.append(f"{found} speaker{'s' if found != 1 else ''} found for {row['speakers']}")
            if auto["accuracy"] < TARGET_ACCURACY:
                problems.append(f"accuracy {pct(auto['accuracy'])}")
        if "accuracy" in given:
            correct_given += given["accuracy"] * row["speech"]
            if given["found"] != row["speakers"]:
                problems.append(f"{given['found']} label{'s' if given['found'] != 1 else ''} with `--speakers {row['speakers']}`")
            if given["accuracy"] < TARGET_ACCURACY:
                problems.append(f"accuracy {pct(given['accuracy'])} with `--speakers {row['speakers']}`")
        if "label_cpu" in auto:
            audio += row["audio"]
            cpu += auto["label_cpu"] * row["audio"]
            cpu_given += given.get("label_cpu", 0.0) * row["audio"]
            if auto["label_cpu"] > TARGET_CPU:
                problems.append(f"{auto['label_cpu']:.3f} CPU s per audio s")
        if problems:
            why = []
            if auto.get("notes") and auto.get("notes") == given.get("notes"):
                why.append(f"Default and with `--speakers {row['speakers']}`: " + "; ".join(auto["notes"]))
            else:
                for way, result_ in (("Default", auto), (f"With `--speakers {row['speakers']}`", given)):
                    if result_.get("notes"):
                        why.append(f"{way}: " + "; ".join(result_["notes"]))
            measured = auto if "uncovered" in auto else given
            if measured.get("covered", 1.0) < 0.98:
                gaps = measured["uncovered"]
                why.append(f"{pct(1 - measured['covered'])} of the reference speech time is in no saved segment "
                           f"({pct(gaps['inner'])} pauses between the segments inside a turn, {pct(gaps['edge'])} the turns' "
                           f"starts and ends, {pct(gaps['missing'])} turns with no segment); of the time inside segments, "
                           f"{pct(measured['accuracy'] / measured['covered'])} has the right speaker")
            misses.append(f"- {row['set']}: " + ", ".join(problems) + (". " + ". ".join(why) + "." if why else "."))
    totals = (f"| all | | | {audio:.1f} | {exact}/{len(rows)} exact | {pct(correct / speech) if speech else 'n/a'} "
              f"| {pct(correct_given / speech) if speech else 'n/a'} | {cpu / audio if audio else 0:.3f} "
              f"| {cpu_given / audio if audio else 0:.3f} | |")
    summary = (f"Overall {pct(correct / speech) if speech else 'n/a'} of the speech time has the right speaker "
               f"({pct(correct_given / speech) if speech else 'n/a'} with `--speakers N`), weighted by each set's speech time; "
               f"the count is exact on {exact} of {len(rows)} sets; labelling costs {cpu / audio if audio else 0:.3f} CPU s per "
               f"audio s over all the audio ({cpu_given / audio if audio else 0:.3f} with `--speakers N`). "
               f"The section took {result['seconds'] / 60:.1f} minutes (load average {result['load'][0]:.1f} at the start, "
               f"{result['load'][1]:.1f} at the end: wall times count waiting for a core, "
               "and CPU times rise on a busy machine too: rerun when the load is low).")
    return SPEAKERS_MARKER + """

The built program (`livetranscriber import FILE --json`, a fresh library each run, as a user runs
it) on the conversations of `scripts/make_speaker_set.py`: 2, 3 and 4 real voices with known turns,
cut from recordings in Debian packages (Asterisk prompts, the Czech and Dutch Fish Fillets dubs,
pocketsphinx's LibriVox reader) and whisper.cpp's jfk.wav, "phone" sets passed through 8 kHz.
Each file is imported three ways: the default (the program counts the voices), `--speakers N` (the
set's true number) and `--no-speakers`; wall clock and CPU (user + sys of the process, `os.wait4`)
per run. Accuracy: the share of the reference speech time whose saved segment has the right speaker
under the best one-to-one mapping of labels. Speech in no saved segment counts as wrong: segments
end at their words, so the pauses inside a turn (clips joined by 0.25 s, inner pauses kept up to
0.3 s) and the turns' edges fall outside them, and so does speech the transcript leaves out.
Labelling CPU per audio second: (CPU of the import - CPU of the `--no-speakers` import) / audio
seconds (`scripts/bench_speakers.py`; `make bench-speakers` runs this section alone). Targets (issue 38):
accuracy at least 90%, the number of speakers found exact, at most 0.3 CPU s per audio s on 2 cores.

| set | band | speakers | audio s | found | accuracy | accuracy, `--speakers N` | labelling CPU s per audio s | same, `--speakers N` | wall, `--no-speakers` / default |
|---|---|---|---|---|---|---|---|---|---|
""" + "\n".join(lines) + "\n" + totals + "\n\n" + summary + "\n\n" + (
        "Missing a target:\n" + "\n".join(misses) if misses else "Every set meets every target.") + "\n\n"


if __name__ == "__main__":
    only = [sys.argv[i + 1] for i, a in enumerate(sys.argv[:-1]) if a == "--only"]
    work = tempfile.mkdtemp(prefix="lt-speakers-")
    try:
        measured = measure(work, only)
        print(section(measured))
        json.dump(measured, sys.stderr, indent=1)
    finally:
        subprocess.call(["rm", "-rf", work])
