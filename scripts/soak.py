#!/usr/bin/env python3
"""Crash soak: kills `record` with SIGKILL at random moments and checks what the next command recovers.

Each round records a LibriVox clip (as WAV, FLAC or Opus input, saved as WAV, FLAC or Opus, in
turn) into a fresh library (a temporary LIVETRANSCRIBER_HOME) in real time with `--events`,
kills it at a random moment, runs `recover --json`, and checks:
  - every `final` event written before the kill is in the recovered transcript, in order;
  - the recovered audio is at least the audio fed minus 1 s (fed = the share of the input file
    the process had read, from /proc/PID/fdinfo, at most the time since its `recording` event
    times the speed);
  - nothing is recovered twice, and a round killed before any audio or final leaves at most one
    recording.
A round whose process finished before the kill is checked the same way against the saved
recording. Prints one line per round and a summary; exits 1 when any round lost something.

  scripts/soak.py [--kills 100] [--binary .build/release/livetranscriber] [--seconds 15] [--seed N]
"""
import argparse
import json
import os
import re
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

LIBRIVOX = "/usr/share/pocketsphinx/test/data/librivox"
FORMATS = ["wav", "flac", "opus"]
TOLERANCE = 1.0
PRINTED_LINE = re.compile(r"^\[\d+:\d\d(?::\d\d)?\] (.*)$")  # seconds of fed audio a kill may cost (the writer's last update)


def run(args, env, **kwargs):
    return subprocess.run(args, env=env, capture_output=True, text=True, **kwargs)


def make_inputs(binary, work, seconds, env):
    """The clip as WAV and FLAC (sox) and Opus (the program's own encoder, through an import)."""
    made = [os.path.join(work, f"input.{f}") for f in FORMATS]
    if all(os.path.exists(path) for path in made):
        length = float(subprocess.run(["soxi", "-D", made[0]], capture_output=True, text=True, check=True).stdout)
        return dict(zip(FORMATS, made)), length
    demo = os.path.join(work, "demo.wav")
    subprocess.run([os.path.join(os.path.dirname(__file__), "make-demo-audio.sh"), demo], check=True)
    inputs = {"wav": os.path.join(work, "input.wav"), "flac": os.path.join(work, "input.flac")}
    subprocess.run(["sox", demo, inputs["wav"], "trim", "0", str(seconds)], check=True)
    subprocess.run(["sox", inputs["wav"], inputs["flac"]], check=True)
    length = float(subprocess.run(["soxi", "-D", inputs["wav"]], capture_output=True, text=True, check=True).stdout)
    home = os.path.join(work, "encode-home")
    result = run([binary, "import", inputs["wav"], "--format", "opus", "--engine", "pocketsphinx", "--json"],
                 dict(env, LIVETRANSCRIBER_HOME=home))
    if result.returncode != 0:
        sys.exit(f"soak: could not make the Opus input: {result.stderr.strip()}")
    recordings = os.path.join(home, "recordings")
    folder = os.path.join(recordings, os.listdir(recordings)[0])
    inputs["opus"] = os.path.join(work, "input.opus")
    shutil.copy(os.path.join(folder, "audio.opus"), inputs["opus"])
    return inputs, length


def events_of(path):
    """The events written whole before the kill (a torn last line is ignored)."""
    events = []
    try:
        with open(path, encoding="utf-8") as file:
            for line in file:
                if line.endswith("\n"):
                    events.append(json.loads(line))
    except FileNotFoundError:
        pass
    return events


def input_position(pid, path):
    """The read offset of `pid`'s descriptor open on `path` (0 when none is)."""
    folder = f"/proc/{pid}/fd"
    try:
        for fd in os.listdir(folder):
            try:
                if os.readlink(os.path.join(folder, fd)) == path:
                    with open(f"/proc/{pid}/fdinfo/{fd}") as info:
                        return int(info.readline().split()[1])
            except OSError:
                continue
    except OSError:
        pass
    return 0


def contains_in_order(transcript, finals):
    """True when every final's text is a segment text of `transcript`, in the same order."""
    position = 0
    texts = [segment["text"].strip() for segment in transcript]
    for final in finals:
        wanted = final.strip()
        while position < len(texts) and texts[position] != wanted:
            position += 1
        if position == len(texts):
            return False
        position += 1
    return True


def round_(index, args, inputs, work, env, rng):
    source = FORMATS[index % 3]
    saved_format = FORMATS[(index // 3) % 3]
    home = tempfile.mkdtemp(prefix=f"home{index}-", dir=work)
    events_file = os.path.join(work, f"events{index}.jsonl")
    printed_file = os.path.join(work, f"stdout{index}.txt")
    round_env = dict(env, LIVETRANSCRIBER_HOME=home)
    kill_at = rng.uniform(0.2, args.seconds / args.speed + 2.0)
    printed_output = open(printed_file, "w")
    started = time.monotonic()
    process = subprocess.Popen(
        [args.binary, "record", "--input", inputs[source], "--speed", str(args.speed), "--format", saved_format,
         "--name", f"soak {index}", "--events", events_file],
        env=round_env, stdout=printed_output, stderr=subprocess.DEVNULL)
    # Until the kill, every 20 ms: how far the process has read its input (/proc/PID/fdinfo), and
    # when its `recording` phase event appeared.
    read_fraction = 0.0
    recording_seen = None
    input_size = os.path.getsize(inputs[source])
    killed = True
    while time.monotonic() - started < kill_at:
        if process.poll() is not None:
            killed = False
            break
        read_fraction = max(read_fraction, input_position(process.pid, inputs[source]) / input_size)
        if recording_seen is None and any(e.get("phase") == "recording" for e in events_of(events_file)):
            recording_seen = time.monotonic()
        time.sleep(0.02)
    if killed:
        process.send_signal(signal.SIGKILL)
    stopped = time.monotonic()
    process.wait()
    printed_output.close()
    events = events_of(events_file)
    finals = [event["text"] for event in events if event.get("type") == "final"]
    # The transcript lines printed before the kill ("[0:00] text"), whole lines only.
    with open(printed_file, encoding="utf-8", errors="replace") as file:
        printed = [match.group(1) for line in file if line.endswith("\n")
                   for match in [PRINTED_LINE.match(line.rstrip("\n"))] if match]
    recording_phase = next((event for event in events if event.get("type") == "phase" and event.get("phase") == "recording"), None)
    # The audio fed: what the process had read of its input (bytes read over the file's size, an
    # upper bound for compressed input, which is read ahead), and no more than the time since its
    # `recording` event was seen allows (it may have read less: it reads between decodes).
    fed = 0.0
    if recording_phase is not None and recording_seen is not None:
        fed = min(args.seconds * read_fraction, (stopped - recording_seen) * args.speed + 0.1)
    elif recording_phase is not None:
        fed = args.seconds * read_fraction

    result = run([args.binary, "recover", "--json"], round_env)
    problems = []
    if result.returncode != 0:
        problems.append(f"recover exited {result.returncode}: {result.stderr.strip()}")
    recordings = json.loads(result.stdout) if result.returncode == 0 and result.stdout.strip() else []
    if not killed:
        # It finished and saved by itself: there is nothing to recover, the saved recording is checked.
        listed = run([args.binary, "list", "--json"], round_env)
        recordings = json.loads(listed.stdout) if listed.returncode == 0 and listed.stdout.strip() else []
    if len(recordings) > 1:
        problems.append(f"{len(recordings)} recordings from one round")
    drafts = os.listdir(os.path.join(home, "drafts")) if os.path.isdir(os.path.join(home, "drafts")) else []
    if drafts:
        problems.append(f"drafts left after recover: {drafts}")
    duration = 0.0
    recovered_finals = 0
    if recordings:
        recording = recordings[0]
        duration = recording["duration"]
        transcript = []
        if finals or printed:
            shown = run([args.binary, "show", recording["id"], "--json"], round_env)
            transcript = json.loads(shown.stdout).get("segments", []) if shown.returncode == 0 else []
        if not contains_in_order(transcript, finals):
            problems.append(f"finals missing: events {finals!r}, recovered {[s['text'] for s in transcript]!r}")
        if not contains_in_order(transcript, printed):
            problems.append(f"printed lines missing: printed {printed!r}, recovered {[s['text'] for s in transcript]!r}")
        recovered_finals = len(finals) if contains_in_order(transcript, finals) else 0
    elif finals or printed or fed > TOLERANCE:
        problems.append("nothing recovered")
    if duration < fed - TOLERANCE:
        problems.append(f"audio: fed {fed:.2f} s, recovered {duration:.2f} s")
    shutil.rmtree(home, ignore_errors=True)
    for file in (events_file, printed_file):
        if os.path.exists(file):
            os.unlink(file)
    return {
        "round": index, "input": source, "format": saved_format, "killed": killed, "at": round(stopped - started, 2),
        "fed": round(fed, 2), "recovered": round(duration, 2), "finals": len(finals), "recovered_finals": recovered_finals, "printed": len(printed),
        "problems": problems,
    }


ROUND_LINE = re.compile(r"^\s*(\d+)\s+(\w+)->(\w+)\s+(kill|done) at\s+([\d.]+) s: fed\s+([\d.]+) s, recovered\s+([\d.]+) s, "
                        r"finals (\d+)/(\d+): (.*)$")


def write_benchmarks(log_text, seed, binary):
    """The "Crash soak" section of BENCHMARKS.md from this script's output (one line per round)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import bench
    rounds = [ROUND_LINE.match(line) for line in log_text.splitlines()]
    rounds = [m for m in rounds if m]
    killed = [m for m in rounds if m.group(4) == "kill"]
    lost = [m for m in rounds if m.group(10) != "ok"]
    fed = [m for m in killed if float(m.group(6)) > 0]
    margins = sorted(float(m.group(7)) - float(m.group(6)) for m in fed)
    rows = []
    for source in FORMATS:
        for saved in FORMATS:
            mine = [m for m in killed if m.group(2) == source and m.group(3) == saved]
            if not mine:
                continue
            worst = min((float(m.group(7)) - float(m.group(6)) for m in mine if float(m.group(6)) > 0), default=0.0)
            rows.append(f"| {source} | {saved} | {len(mine)} | {sum(int(m.group(9)) for m in mine)} | "
                        f"{sum(int(m.group(8)) for m in mine)} | {sum(float(m.group(6)) for m in mine):.1f} | "
                        f"{sum(float(m.group(7)) for m in mine):.1f} | {worst:+.2f} | {sum(1 for m in mine if m.group(10) != 'ok')} |")
    section = bench.SOAK_MARKER + f"""

`scripts/soak.py --kills {len(rounds)} --seed {seed}` (`make soak`; what it checks: docs/proving.md) on
`{binary}`: `record` of the LibriVox clips (28.7 s) in real time, killed with SIGKILL at a random
moment, then `recover`. {len(killed)} of {len(rounds)} rounds were killed (the others finished
and saved first); {len(lost)} lost a printed final or more than 1 s of the audio fed. Margin =
recovered audio - audio fed (negative: audio lost at the kill); worst {margins[0]:+.2f} s, median
{margins[len(margins) // 2]:+.2f} s over the {len(fed)} kills after audio was fed.

| input | saved as | kills | finals printed | finals recovered | audio fed (s) | audio recovered (s) | worst margin (s) | rounds that lost |
|---|---|---|---|---|---|---|---|---|
""" + "\n".join(rows) + "\n"
    bench.replace_section(section, bench.SOAK_MARKER)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--binary", default=".build/release/livetranscriber")
    parser.add_argument("--seconds", type=float, default=30.0, help="at most this much of the LibriVox clips (s; they hold 28.7)")
    parser.add_argument("--speed", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--benchmarks", action="store_true", help="write the result into BENCHMARKS.md")
    parser.add_argument("--report-from", metavar="LOG", help="only write BENCHMARKS.md's section from an earlier run's output")
    arguments = parser.parse_args()
    if arguments.report_from:
        with open(arguments.report_from) as log:
            text = log.read()
        seed = re.search(r"soak: seed (\d+)", text)
        write_benchmarks(text, seed.group(1) if seed else "?", arguments.binary)
        return 0
    arguments.binary = os.path.abspath(arguments.binary)
    rng = random.Random(arguments.seed)
    env = dict(os.environ)
    env.pop("LIVETRANSCRIBER_ENGINE", None)
    work = tempfile.mkdtemp(prefix="livetranscriber-soak-")
    # The inputs are made once (the Opus one through an import) and kept for the next soak.
    inputs_folder = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".build", "soak-inputs"))
    os.makedirs(inputs_folder, exist_ok=True)
    try:
        inputs, arguments.seconds = make_inputs(arguments.binary, inputs_folder, arguments.seconds, env)
        print(f"soak: seed {arguments.seed}, {arguments.kills} rounds, {arguments.seconds:g} s clip at speed {arguments.speed:g}", flush=True)
        rounds = []
        lines = []
        began = time.monotonic()
        for index in range(arguments.kills):
            outcome = round_(index, arguments, inputs, work, env, rng)
            rounds.append(outcome)
            status = "LOST " + "; ".join(outcome["problems"]) if outcome["problems"] else "ok"
            line = (f"{index:3d} {outcome['input']:>4}->{outcome['format']:<4} {'kill' if outcome['killed'] else 'done'} at {outcome['at']:5.2f} s: "
                    f"fed {outcome['fed']:5.2f} s, recovered {outcome['recovered']:5.2f} s, finals {outcome['recovered_finals']}/{outcome['finals']}: {status}")
            lines.append(line)
            print(line, flush=True)
        failed = [r for r in rounds if r["problems"]]
        killed = [r for r in rounds if r["killed"]]
        margins = [r["recovered"] - r["fed"] for r in killed if r["fed"] > 0]
        print(json.dumps({
            "seed": arguments.seed, "rounds": len(rounds), "killed": len(killed), "failed": len(failed),
            "finals_printed": sum(r["finals"] for r in rounds), "finals_recovered": sum(r["recovered_finals"] for r in rounds),
            "fed_seconds": round(sum(r["fed"] for r in killed), 2),
            "worst_margin_seconds": round(min(margins), 2) if margins else None,
            "wall_seconds": round(time.monotonic() - began, 1),
        }))
        if arguments.benchmarks:
            write_benchmarks("\n".join(lines), arguments.seed, os.path.relpath(arguments.binary))
        return 1 if failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
