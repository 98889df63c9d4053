#!/usr/bin/env python3
"""Speaker-diarization benchmark set: conversations of 2, 3 and 4 real voices.

Builds 16 kHz mono WAV conversations out of recordings of real people that
Debian packages (and one PyPI sdist the project already pins) ship, each with
a `<name>.turns.json` of known turns, and scores a diarization against them.

    python3 scripts/make_speaker_set.py OUT_DIR    # build every set into OUT_DIR
    python3 scripts/make_speaker_set.py --self-test # check the scoring functions

Needs Python 3.11, numpy and sox (Debian's, with its Ogg Vorbis support).

Sources (all recordings of real human speakers; none is synthetic)
------------------------------------------------------------------

| key        | who                                                  | Debian package (version used)             | files                                                              | licence of the recordings |
|------------|------------------------------------------------------|-------------------------------------------|--------------------------------------------------------------------|---------------------------|
| allison_en | Allison Smith, female, US English (IVR voice talent) | asterisk-core-sounds-en-wav (1.6.1-1)     | /usr/share/asterisk/sounds/en_US_f_Allison/*.wav (8 kHz)           | CC-BY-SA-3.0              |
| allison_es | the same Allison Smith, in Mexican Spanish           | asterisk-core-sounds-es-wav (1.6.1-1)     | /usr/share/asterisk/sounds/es_MX_f_Allison/*.wav (8 kHz)           | CC-BY-SA-3.0              |
| june_fr    | June Wallack, female, Canadian French                | asterisk-core-sounds-fr-wav (1.6.1-1)     | /usr/share/asterisk/sounds/fr_CA_f_June/*.wav (8 kHz)              | CC-BY-SA-3.0              |
| carlo_it   | "Carlo", Italian; male per the upstream folder name  | asterisk-core-sounds-it-wav (1.6.1-1)     | /usr/share/asterisk/sounds/it_IT_m_Carlo/*.wav (8 kHz)             | CC-BY-SA-3.0 (core sounds)|
| librivox   | LibriVox volunteer reader (not named), male, English | pocketsphinx-testdata (0.8+5prealpha+1-15)| /usr/share/pocketsphinx/test/data/librivox/*.wav (16 kHz, 5 clips) | LibriVox: public domain; package BSD-2 |
| jfk        | John F. Kennedy, male, English (1961 inaugural)      | PyPI sdist pywhispercpp==1.5.1, pinned in scripts/whisper-downloads.sha256 (sha256 5df897e5dd9d9f16804fc937bd85b9f5880a0b29a55f8843585e0e03d76195e5) | whisper.cpp/samples/jfk.wav in .deps/downloads/pywhispercpp-1.5.1.tar.gz (16 kHz, sha256 59dfb9a4acb36fe2a2affc14bacbee2920ff435cb13cc314a08c13f66ba7860e) | public-domain speech; whisper.cpp MIT |
| nl_small   | Fish Fillets NG Dutch dub, "small fish" (female voice, median F0 ~225 Hz) | fillets-ng-data-nl (1.0.1-1.1) | /usr/share/games/fillets-ng/sound/<level>/nl/*-m-*.ogg (22 kHz) | GPL-2 |
| nl_big     | Fish Fillets NG Dutch dub, "big fish" (male voice, ~158 Hz)               | fillets-ng-data-nl (1.0.1-1.1) | /usr/share/games/fillets-ng/sound/<level>/nl/*-v-*.ogg          | GPL-2 |
| cs_small   | Fish Fillets (ALTAR Interactive) Czech original, "small fish" (female voice, ~281 Hz) | fillets-ng-data-cs (1.0.1-1.1) | /usr/share/games/fillets-ng/sound/<level>/cs/*-m-*.ogg | GPL-2 |
| cs_big     | Fish Fillets Czech original, "big fish" (male voice, ~155 Hz)             | fillets-ng-data-cs (1.0.1-1.1) | /usr/share/games/fillets-ng/sound/<level>/cs/*-v-*.ogg          | GPL-2 |

How the speakers are known: the Asterisk folders are named
language_COUNTRY_sex_Name and the packages' copyright files credit the voice
talents (Allison Smith for en and es, June Wallack for fr; the Italian core
sounds' talent is named only "Carlo" by the folder, and with a median F0 of
about 190 Hz is a high male voice).  In Fish Fillets every dialogue file is
named <level>-<who>-<line>, and the game's own dialogue scripts
(script/*/dialogs_en.lua in fillets-ng-data) tag every "-m-" line font_small
(the small fish) and every "-v-" line font_big (the big fish): one voice
actor each per dub; the voice actors are not credited in the package.  The
Czech and Dutch dubs are separate recordings by different casts.  The five
LibriVox clips are consecutive sentences of Sense and Sensibility ch. 1 by
one reader (same reference transcript, median F0 ~110 Hz in every clip).
Sex is from the metadata where it names it, otherwise from pitch (median F0).

Not used: the other pocketsphinx-testdata audio (cards/*.wav, goforward.raw,
numbers.raw, something.raw, tidigits/dhd.2934z.raw: 2-4 s each, one or more
unnamed male speakers, ~20 s in all, identity not provable); the tidigits
man/woman files are MFCC features, not audio; codec2-examples' clips are
8 kHz radio/codec test signals, mostly a few seconds long; festival/espeak
voices are synthetic.

Debian packages the sources need (all Architecture: all, no dependencies):
asterisk-core-sounds-en-wav asterisk-core-sounds-es-wav
asterisk-core-sounds-fr-wav asterisk-core-sounds-it-wav fillets-ng-data-cs
fillets-ng-data-nl pocketsphinx-testdata sox; the JFK clip comes from
.deps/downloads/pywhispercpp-1.5.1.tar.gz (scripts/install-whisper.sh).

A check of the identities, not needed to build: CAM++ speaker embeddings
(.deps/models/speaker-embedding.onnx) of the turns give cosine 0.7-0.9
between turns of the same label and -0.01-0.45 between labels, and the
nearest other turn of every turn has its label, in every set.  Between two
halves of each voice's clips: 0.71-0.98 for the same voice, at most 0.50 for
two different people (the Dutch small and big fish), and 0.57 for Allison
in English against Allison in Spanish.

The sets
--------
| name                 | band  | speakers                                            | length | turns |
|----------------------|-------|-----------------------------------------------------|--------|-------|
| spk2_fish_nl         | wide  | A nl_small, B nl_big (level 1's dialogue, Dutch)    | 76 s   | 12 (6+6) |
| spk2_en_phone        | phone | A allison_en, B librivox                            | 57 s   | 7 (4+3) |
| spk3_en_phone        | phone | A allison_en, B librivox, C jfk                     | 59 s   | 9 (4+3+2) |
| spk3_fish_wide       | wide  | A cs_small, B cs_big, C nl_big (two men of ~155 Hz) | 65 s   | 12 (4+4+4) |
| spk4_fish_wide       | wide  | A nl_small, B nl_big, C cs_small, D cs_big          | 101 s  | 16 (4 each) |
| spk4_phone           | phone | A allison_en, B june_fr, C carlo_it, D librivox     | 104 s  | 14 (3+4+4+3) |
| spk2_bilingual_phone | phone | A allison_en + allison_es (one person), B june_fr   | 89 s   | 10 (5+5) |

spk2_bilingual_phone is a trap: a diarizer that splits speakers by language
finds three where there are two (one of A's turns switches language halfway).

Two kinds, so that the recording channel is not a give-away of the speaker:
"wide" sets use only sources recorded at 16 kHz or more (Fish Fillets,
LibriVox, JFK); "phone" sets pass every clip, whatever its origin, through
8 kHz (telephone band, 0-4 kHz) before 16 kHz, because the Asterisk prompts
are 8 kHz recordings.

Each clip is decoded to mono, high-passed at 60 Hz and resampled; trimmed of
leading/trailing silence by a 10 ms energy gate (30 dB below the clip's
loudest frame and at least 10 dB above its noise floor), keeping 20 ms
before the speech and a 40 ms fade-out after it; its inner pauses longer than
0.3 s are shortened to 0.3 s; and it is levelled to the same speech RMS
(-20 dBFS, peaks kept under -1 dBFS).  A turn is one or more clips of one
speaker joined by 0.25 s pauses; turns are 3-15 s long and separated by gaps
of 0.2-0.8 s taken from a fixed cycle; no turn follows one of the same
speaker.  The file has 0.5 s of silence before the first turn and after the
last, is peak normalised to -3 dBFS (every turn's speech then sits within
0.5 dB of the others) and gets a -70 dBFS noise floor (numpy RandomState,
fixed seed), so the gaps are not digital silence.  Everything is fixed: the
same sources and tools give the same files.

`<name>.turns.json`: {"speakers": N, "turns": [{"speaker": "A", "start": s,
"end": e}, ...], "duration": d, "band": "wide"|"phone", "voices": {"A":
"..."}}; times in seconds from the start of the file, each turn from the
first to the last speech of its clips (to within 50 ms: the 20 ms lead and
the 40 ms fade-out); nothing louder than the noise floor lies between turns.

Scoring: `speaker_accuracy(reference_turns, hypothesis_segments)` is the share
of reference speech time that the hypothesis labels with the right speaker
under the best one-to-one mapping of hypothesis labels to reference labels
(Hungarian algorithm); time the hypothesis leaves unlabelled, or gives two or
more labels at once, counts as wrong.  `speakers_found(hypothesis)` is the
number of distinct labels.  Both take either a list of {"speaker", "start",
"end"} dicts, (start, end, speaker) tuples, or a dict with a "turns" list.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import wave
import zlib
from dataclasses import dataclass

import numpy as np

SR = 16000
FRAME = 160  # 10 ms
TARGET_RMS_DB = -20.0
PEAK_CAP = 10 ** (-1.0 / 20)
FINAL_PEAK_DB = -3.0
NOISE_DB = -70.0
MAX_INNER_PAUSE = 0.30
CLIP_JOIN = 0.25
PAD = 0.02  # kept before the first speech frame
TAIL = 0.04  # kept after the last one, faded out (reverb tails are cut there)
GAP_CYCLE = (0.45, 0.30, 0.70, 0.25, 0.55, 0.80, 0.35, 0.60, 0.20, 0.50, 0.40, 0.65)
LEAD = 0.5  # silence before the first turn and after the last
MIN_TURN, MAX_TURN = 3.0, 15.0
MIN_SET, MAX_SET = 40.0, 120.0

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYWHISPERCPP_SDIST = os.path.join(REPO, ".deps", "downloads", "pywhispercpp-1.5.1.tar.gz")
PYWHISPERCPP_SHA256 = "5df897e5dd9d9f16804fc937bd85b9f5880a0b29a55f8843585e0e03d76195e5"
JFK_MEMBER = "pywhispercpp-1.5.1/whisper.cpp/samples/jfk.wav"
JFK_SHA256 = "59dfb9a4acb36fe2a2affc14bacbee2920ff435cb13cc314a08c13f66ba7860e"


# --------------------------------------------------------------------------
# Sources


@dataclass(frozen=True)
class Voice:
    description: str
    package: str
    pattern: str  # "{clip}" is replaced by the clip id
    ranges: tuple = ()  # named sub-clips: (clip_id, source file id, start s, end s)


ASTERISK = "/usr/share/asterisk/sounds"
FILLETS = "/usr/share/games/fillets-ng/sound"
LIBRIVOX = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-{clip}.wav"

VOICES = {
    "allison_en": Voice("Allison Smith, female, US English (Asterisk core sounds)",
                        "asterisk-core-sounds-en-wav", ASTERISK + "/en_US_f_Allison/{clip}.wav"),
    "allison_es": Voice("Allison Smith, female, Mexican Spanish (Asterisk core sounds)",
                        "asterisk-core-sounds-es-wav", ASTERISK + "/es_MX_f_Allison/{clip}.wav"),
    "june_fr": Voice("June Wallack, female, Canadian French (Asterisk core sounds)",
                     "asterisk-core-sounds-fr-wav", ASTERISK + "/fr_CA_f_June/{clip}.wav"),
    "carlo_it": Voice("Carlo, male, Italian (Asterisk core sounds)",
                      "asterisk-core-sounds-it-wav", ASTERISK + "/it_IT_m_Carlo/{clip}.wav"),
    "librivox": Voice("LibriVox reader, male, English (pocketsphinx-testdata)",
                      "pocketsphinx-testdata", LIBRIVOX),
    "jfk": Voice("John F. Kennedy, male, English (whisper.cpp sample)",
                 "pywhispercpp-1.5.1 sdist (.deps/downloads)", "{jfk}",
                 # "And so my fellow Americans, ask not" / "what your country can
                 # do for you, ask what you can do for your country"
                 ranges=(("a", "jfk", 0.20, 4.40), ("b", "jfk", 5.30, 10.30))),
    "nl_small": Voice("Fish Fillets NG Dutch dub, small fish (female voice), Dutch",
                      "fillets-ng-data-nl", FILLETS + "/{level}/nl/{clip}.ogg"),
    "nl_big": Voice("Fish Fillets NG Dutch dub, big fish (male voice), Dutch",
                    "fillets-ng-data-nl", FILLETS + "/{level}/nl/{clip}.ogg"),
    "cs_small": Voice("Fish Fillets Czech original, small fish (female voice), Czech",
                      "fillets-ng-data-cs", FILLETS + "/{level}/cs/{clip}.ogg"),
    "cs_big": Voice("Fish Fillets Czech original, big fish (male voice), Czech",
                    "fillets-ng-data-cs", FILLETS + "/{level}/cs/{clip}.ogg"),
}

FILLETS_LEVELS = {"1st": "start", "kuf": "briefcase", "pra": "cellar"}

DEBIAN_PACKAGES = sorted({v.package for v in VOICES.values() if not v.package.startswith("pywhispercpp")})


def _jfk_path(cache: dict) -> str:
    if "jfk" in cache:
        return cache["jfk"]
    if not os.path.exists(PYWHISPERCPP_SDIST):
        raise SystemExit(f"missing {PYWHISPERCPP_SDIST}: run scripts/install-whisper.sh first")
    with open(PYWHISPERCPP_SDIST, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    if digest != PYWHISPERCPP_SHA256:
        raise SystemExit(f"{PYWHISPERCPP_SDIST}: sha256 {digest} is not the pinned {PYWHISPERCPP_SHA256}")
    with tarfile.open(PYWHISPERCPP_SDIST) as tar:
        data = tar.extractfile(JFK_MEMBER).read()
    if hashlib.sha256(data).hexdigest() != JFK_SHA256:
        raise SystemExit("jfk.wav in the pywhispercpp sdist is not the expected file")
    path = os.path.join(cache["tmp"], "jfk.wav")
    with open(path, "wb") as f:
        f.write(data)
    cache["jfk"] = path
    return path


def _voice_clip(voice_key: str, clip: str) -> tuple[str, str]:
    """A clip id may name another voice of the same speaker: "allison_es:demo-thanks"."""
    if ":" in clip:
        other, clip = clip.split(":", 1)
        return other, clip
    return voice_key, clip


def source_path(voice_key: str, clip: str, cache: dict) -> tuple[str, float | None, float | None]:
    """File, and optional start/end within it, of one clip of a voice."""
    voice = VOICES[voice_key]
    for name, file_id, start, end in voice.ranges:
        if name == clip:
            if file_id == "jfk":
                return _jfk_path(cache), start, end
    if voice_key == "jfk":
        raise KeyError(f"jfk has no clip {clip!r}")
    level = FILLETS_LEVELS.get(clip.split("-")[0], "")
    return voice.pattern.format(clip=clip, level=level), None, None


# --------------------------------------------------------------------------
# Audio


def decode(path: str, band: str, start: float | None = None, end: float | None = None) -> np.ndarray:
    """Mono float32 at 16 kHz, high-passed at 60 Hz; 'phone' band goes through 8 kHz."""
    effects = []
    if start is not None:
        effects += ["trim", f"{start:.3f}", f"={end:.3f}"]
    effects += ["channels", "1", "highpass", "60"]
    effects += (["rate", "-v", "8000", "rate", "-v", str(SR)] if band == "phone" else ["rate", "-v", str(SR)])
    out = subprocess.run(["sox", "-V1", path, "-t", "raw", "-e", "floating-point", "-b", "32", "-"] + effects,
                         capture_output=True, check=True).stdout
    return np.frombuffer(out, dtype=np.float32).astype(np.float64)


def frame_db(x: np.ndarray) -> np.ndarray:
    n = len(x) // FRAME
    power = (x[: n * FRAME].reshape(n, FRAME) ** 2).mean(axis=1)
    smooth = np.convolve(power, np.ones(3) / 3, mode="same")  # 30 ms
    return 10 * np.log10(smooth + 1e-12)


def speech_frames(x: np.ndarray) -> np.ndarray:
    """Boolean per 10 ms frame: speech (energy gate)."""
    db = frame_db(x)
    floor = np.percentile(db, 10)
    threshold = max(db.max() - 30.0, floor + 10.0)
    active = db > threshold
    # drop isolated blips (< 60 ms, more than 250 ms away from other speech)
    runs = _runs(active)
    keep = np.zeros_like(active)
    for i, (a, b) in enumerate(runs):
        near = any(abs(a - runs[j][1]) <= 25 or abs(runs[j][0] - b) <= 25 for j in range(len(runs)) if j != i)
        if b - a >= 6 or near:
            keep[a:b] = True
    return keep


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    runs, start = [], None
    for i, v in enumerate(mask):
        if v and start is None:
            start = i
        elif not v and start is not None:
            runs.append((start, i))
            start = None
    if start is not None:
        runs.append((start, len(mask)))
    return runs


def prepare_clip(x: np.ndarray) -> np.ndarray:
    """Trimmed, inner pauses capped, levelled."""
    active = speech_frames(x)
    runs = _runs(active)
    if not runs:
        raise ValueError("no speech found in clip")
    pad = int(PAD * SR)
    cap = int(MAX_INNER_PAUSE * SR)
    keep = []  # sample intervals kept; pauses longer than the cap lose their middle
    for a, b in runs:
        s, e = a * FRAME, b * FRAME
        if not keep:
            keep.append([max(0, s - pad), e])
        elif s - keep[-1][1] > cap:
            keep[-1][1] += cap // 2
            keep.append([s - (cap - cap // 2), e])
        else:
            keep[-1][1] = e
    keep[-1][1] = min(len(x), keep[-1][1] + int(TAIL * SR))
    pieces = [_fade(x[s:e]) if len(keep) > 1 else x[s:e] for s, e in keep]
    y = np.concatenate(pieces)
    y = y - y.mean()
    db_frames = frame_db(y)
    speech = db_frames > db_frames.max() - 30.0
    rms = np.sqrt(np.mean(10 ** (db_frames[speech] / 10)))
    gain = 10 ** (TARGET_RMS_DB / 20) / max(rms, 1e-9)
    gain = min(gain, PEAK_CAP / max(np.abs(y).max(), 1e-9))
    y = _fade(y * gain)
    n = min(int(TAIL * SR), len(y) // 4)
    y[len(y) - n:] *= np.linspace(1.0, 0.0, n) ** 2
    return y


def _fade(x: np.ndarray, ms: float = 5.0) -> np.ndarray:
    n = min(int(ms * SR / 1000), len(x) // 2)
    if n > 0:
        x = x.copy()
        ramp = np.linspace(0.0, 1.0, n)
        x[:n] *= ramp
        x[-n:] *= ramp[::-1]
    return x


# --------------------------------------------------------------------------
# The sets: (voice key, [clips]) per turn, in order.

SETS = [
    {
        "name": "spk2_fish_nl",
        "band": "wide",
        "labels": {"nl_small": "A", "nl_big": "B"},
        "turns": [  # level 1 ("start"), in the game's order where the turn lengths allow
            ("nl_small", ["1st-m-cotobylo", "1st-m-pockej", "1st-m-proc"]),
            ("nl_big", ["1st-v-netusim", "1st-v-ven", "1st-v-navod1"]),
            ("nl_small", ["1st-m-hej", "1st-m-navod4"]),
            ("nl_big", ["1st-v-navod5", "1st-v-navod7"]),
            ("nl_small", ["1st-m-navod6", "1st-m-navod8"]),
            ("nl_big", ["1st-v-davej", "1st-v-takdobre"]),
            ("nl_small", ["1st-m-nechtoho", "1st-m-neprojedu", "1st-m-nepohnu"]),
            ("nl_big", ["1st-v-takukaz", "1st-v-nemuzu", "1st-v-pribral"]),
            ("nl_small", ["1st-m-hmmm", "1st-m-diky"]),
            ("nl_big", ["1st-v-posunout", "1st-v-chyba"]),
            ("nl_small", ["1st-m-backspace", "1st-m-pokud"]),
            ("nl_big", ["1st-v-nedostanu", "1st-v-stiskni", "1st-v-najit"]),
        ],
    },
    {
        "name": "spk2_en_phone",
        "band": "phone",
        "labels": {"allison_en": "A", "librivox": "B"},
        "turns": [
            ("allison_en", ["vm-intro"]),
            ("librivox", ["0870"]),
            ("allison_en", ["vm-nobodyavail", "vm-rec-name"]),
            ("librivox", ["0880", "0890"]),
            ("allison_en", ["tt-weasels", "tt-somethingwrong"]),
            ("librivox", ["0920", "0930"]),
            ("allison_en", ["demo-thanks", "queue-periodic-announce"]),
        ],
    },
    {
        "name": "spk3_en_phone",
        "band": "phone",
        "labels": {"allison_en": "A", "librivox": "B", "jfk": "C"},
        "turns": [
            ("jfk", ["a"]),
            ("allison_en", ["conf-onlyperson", "conf-waitforleader"]),
            ("librivox", ["0870"]),
            ("jfk", ["b"]),
            ("allison_en", ["demo-enterkeywords"]),
            ("librivox", ["0880", "0890"]),
            ("allison_en", ["vm-nobox", "vm-sorry"]),
            ("librivox", ["0920", "0930"]),
            ("allison_en", ["ss-noservice"]),
        ],
    },
    {
        "name": "spk3_fish_wide",
        "band": "wide",
        "labels": {"cs_small": "A", "cs_big": "B", "nl_big": "C"},
        "turns": [  # two men of about the same pitch (B, C) and a woman
            ("cs_small", ["kuf-m-je", "kuf-m-ven"]),
            ("cs_big", ["kuf-v-noco", "kuf-v-hod"]),
            ("nl_big", ["pra-v-klesnout"]),
            ("cs_small", ["kuf-m-disk", "kuf-m-pravda", "kuf-m-nezvednu"]),
            ("cs_big", ["kuf-v-ukol", "kuf-v-jeste"]),
            ("nl_big", ["pra-v-zapeklita"]),
            ("cs_small", ["kuf-m-dodilny"]),
            ("nl_big", ["pra-v-problem", "pra-v-dobrynapad"]),
            ("cs_big", ["kuf-v-restart", "kuf-v-napad"]),
            ("cs_small", ["kuf-m-kousek", "pra-m-kniha"]),
            ("nl_big", ["pra-v-spatne", "pra-v-zavazis"]),
            ("cs_big", ["kuf-v-doprace", "kuf-v-dotoho"]),
        ],
    },
    {
        "name": "spk4_fish_wide",
        "band": "wide",
        "labels": {"nl_small": "A", "nl_big": "B", "cs_small": "C", "cs_big": "D"},
        "turns": [
            ("cs_small", ["pra-m-pravidla"]),
            ("cs_big", ["pra-v-klesnout", "pra-v-nahore"]),
            ("nl_small", ["pra-m-nepohnu", "pra-m-zpatky"]),
            ("nl_big", ["kuf-v-hod"]),
            ("cs_small", ["pra-m-vyrazit", "pra-m-chytit"]),
            ("nl_small", ["pra-m-prisun"]),
            ("cs_big", ["pra-v-problem", "pra-v-ukladani"]),
            ("nl_big", ["kuf-v-noco", "kuf-v-ukol"]),
            ("nl_small", ["pra-m-reseni", "pra-m-uvazovat"]),
            ("cs_small", ["pra-m-strach", "pra-m-pustis"]),
            ("nl_big", ["kuf-v-jeste", "kuf-v-restart"]),
            ("cs_big", ["pra-v-nezapomen"]),
            ("nl_small", ["pra-m-kniha", "pra-m-jakudelat"]),
            ("cs_small", ["pra-m-znovu", "pra-m-restart"]),
            ("nl_big", ["kuf-v-doprace", "kuf-v-dotoho", "kuf-v-napad"]),
            ("cs_big", ["pra-v-dopredu", "pra-v-schvalne"]),
        ],
    },
    {
        "name": "spk4_phone",
        "band": "phone",
        "labels": {"allison_en": "A", "june_fr": "B", "carlo_it": "C", "librivox": "D"},
        "turns": [
            ("allison_en", ["vm-instructions"]),
            ("june_fr", ["vm-intro"]),
            ("carlo_it", ["agent-alreadyon"]),
            ("librivox", ["0870"]),
            ("june_fr", ["dir-instr"]),
            ("allison_en", ["vm-newuser"]),
            ("carlo_it", ["vm-rec-unv"]),
            ("librivox", ["0880", "0890"]),
            ("june_fr", ["queue-periodic-announce"]),
            ("carlo_it", ["demo-enterkeywords", "vm-sorry"]),
            ("allison_en", ["confbridge-lock-extended"]),
            ("librivox", ["0920", "0930"]),
            ("carlo_it", ["vm-intro"]),
            ("june_fr", ["vm-rec-busy"]),
        ],
    },
    {
        # A trap: Allison speaks English and Spanish; a diarizer that splits by
        # language finds three speakers where there are two.
        "name": "spk2_bilingual_phone",
        "band": "phone",
        "labels": {"allison_en": "A", "allison_es": "A", "june_fr": "B"},
        "turns": [
            ("allison_en", ["vm-opts"]),
            ("june_fr", ["vm-opts"]),
            ("allison_es", ["vm-review"]),
            ("june_fr", ["vm-instructions"]),
            ("allison_en", ["agent-incorrect", "auth-incorrect"]),
            ("june_fr", ["vm-forward-multiple"]),
            ("allison_es", ["ss-noservice"]),
            ("june_fr", ["vm-tempgreeting2"]),
            # one turn that switches language halfway
            ("allison_en", ["dir-usingkeypad", "allison_es:demo-thanks"]),
            ("june_fr", ["agent-newlocation"]),
        ],
    },
]


def check_sources(sets=SETS) -> list[str]:
    """Missing source files, as 'package: path' lines."""
    missing = []
    cache = {"tmp": tempfile.gettempdir()}
    for spec in sets:
        for voice_key, clips in spec["turns"]:
            if voice_key == "jfk":
                if not os.path.exists(PYWHISPERCPP_SDIST):
                    missing.append(f"{VOICES['jfk'].package}: {PYWHISPERCPP_SDIST}")
                continue
            for clip in clips:
                key, clip = _voice_clip(voice_key, clip)
                path, _, _ = source_path(key, clip, cache)
                if not os.path.exists(path):
                    missing.append(f"{VOICES[key].package}: {path}")
    return sorted(set(missing))


def build_set(spec: dict, index: int, out_dir: str, cache: dict) -> dict:
    band = spec["band"]
    gaps = itertools.cycle(GAP_CYCLE[index % len(GAP_CYCLE):] + GAP_CYCLE[: index % len(GAP_CYCLE)])
    join = np.zeros(int(CLIP_JOIN * SR))
    lead = np.zeros(int(LEAD * SR))
    pieces, turns, cursor = [lead], [], len(lead)
    for t, (voice_key, clips) in enumerate(spec["turns"]):
        if t > 0:
            gap = np.zeros(int(round(next(gaps) * SR)))
            pieces.append(gap)
            cursor += len(gap)
        audio = []
        for c, clip in enumerate(clips):
            path, start, end = source_path(*_voice_clip(voice_key, clip), cache)
            if c > 0:
                audio.append(join)
            audio.append(prepare_clip(decode(path, band, start, end)))
        turn = np.concatenate(audio)
        label = spec["labels"][voice_key]
        turns.append({"speaker": label, "start": round(cursor / SR, 3), "end": round((cursor + len(turn)) / SR, 3)})
        pieces.append(turn)
        cursor += len(turn)
    mix = np.concatenate(pieces + [lead])
    mix *= 10 ** (FINAL_PEAK_DB / 20) / np.abs(mix).max()
    rng = np.random.RandomState(zlib.crc32(spec["name"].encode()))
    mix += rng.standard_normal(len(mix)) * 10 ** (NOISE_DB / 20)
    pcm = np.clip(np.round(mix * 32767), -32768, 32767).astype("<i2")
    wav_path = os.path.join(out_dir, spec["name"] + ".wav")
    with wave.open(wav_path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SR)
        w.writeframes(pcm.tobytes())
    voices = {}
    for voice_key, label in spec["labels"].items():
        voices.setdefault(label, []).append(VOICES[voice_key].description)
    reference = {
        "speakers": len(set(spec["labels"].values())),
        "turns": turns,
        "duration": round(len(mix) / SR, 3),
        "band": band,
        "voices": {label: "; ".join(d) for label, d in sorted(voices.items())},
    }
    with open(os.path.join(out_dir, spec["name"] + ".turns.json"), "w") as f:
        f.write(_dump(reference))
    return reference


def _dump(reference: dict) -> str:
    """JSON with one turn a line."""
    parts = [f'"speakers": {json.dumps(reference["speakers"])}',
             '"turns": [\n' + ",\n".join("  " + json.dumps(t) for t in reference["turns"]) + "\n]"]
    parts += [f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
              for k, v in reference.items() if k not in ("speakers", "turns")]
    return "{" + ",\n".join(parts) + "}\n"


def validate(reference: dict) -> list[str]:
    """Problems with a built set (empty when it meets the set's rules)."""
    problems = []
    turns = reference["turns"]
    if not MIN_SET <= reference["duration"] <= MAX_SET:
        problems.append(f"duration {reference['duration']} s outside {MIN_SET}-{MAX_SET}")
    for i, turn in enumerate(turns):
        length = turn["end"] - turn["start"]
        if not MIN_TURN <= length <= MAX_TURN:
            problems.append(f"turn {i} lasts {length:.2f} s")
        if i > 0:
            gap = turn["start"] - turns[i - 1]["end"]
            if not 0.199 <= gap <= 0.801:
                problems.append(f"gap before turn {i} is {gap:.3f} s")
            if turn["speaker"] == turns[i - 1]["speaker"]:
                problems.append(f"turn {i} does not change speaker")
    labels = {t["speaker"] for t in turns}
    if len(labels) != reference["speakers"]:
        problems.append(f"{len(labels)} labels for {reference['speakers']} speakers")
    if not any(sum(t["speaker"] == s for t in turns) >= 3 for s in labels):
        problems.append("no speaker returns several times")
    if abs(speaker_accuracy(turns, turns) - 1.0) > 1e-12:
        problems.append("reference does not score 1.0 against itself")
    return problems


# --------------------------------------------------------------------------
# Scoring


def _segments(segments) -> list[tuple[float, float, str]]:
    if isinstance(segments, dict):
        segments = segments.get("turns", segments.get("segments", []))
    out = []
    for s in segments:
        if isinstance(s, dict):
            start, end, label = float(s["start"]), float(s["end"]), str(s["speaker"])
        else:
            start, end, label = float(s[0]), float(s[1]), str(s[2])
        if end > start:
            out.append((start, end, label))
    return out


def overlap_matrix(reference_turns, hypothesis_segments):
    """(reference labels, hypothesis labels, seconds[h][r] where h alone is on while r speaks, reference seconds)."""
    ref = _segments(reference_turns)
    hyp = _segments(hypothesis_segments)
    ref_labels = sorted({s[2] for s in ref})
    hyp_labels = sorted({s[2] for s in hyp})
    events = []
    for start, end, label in ref:
        events += [(start, 0, label, 1), (end, 0, label, -1)]
    for start, end, label in hyp:
        events += [(start, 1, label, 1), (end, 1, label, -1)]
    events.sort(key=lambda e: e[0])
    active = ({}, {})
    matrix = [[0.0] * len(ref_labels) for _ in hyp_labels]
    r_index = {label: i for i, label in enumerate(ref_labels)}
    h_index = {label: i for i, label in enumerate(hyp_labels)}
    total = 0.0
    previous = None
    i = 0
    while i < len(events):
        time = events[i][0]
        if previous is not None and time > previous:
            span = time - previous
            ref_on = [label for label, n in active[0].items() if n > 0]
            hyp_on = [label for label, n in active[1].items() if n > 0]
            total += span * len(ref_on)
            if len(hyp_on) == 1:
                for label in ref_on:
                    matrix[h_index[hyp_on[0]]][r_index[label]] += span
        while i < len(events) and events[i][0] == time:
            _, side, label, delta = events[i]
            active[side][label] = active[side].get(label, 0) + delta
            i += 1
        previous = time
    return ref_labels, hyp_labels, matrix, total


def best_assignment(matrix) -> tuple[float, list[tuple[int, int]]]:
    """Maximum-weight one-to-one assignment of rows to columns (Hungarian algorithm)."""
    rows = len(matrix)
    cols = len(matrix[0]) if rows else 0
    if rows == 0 or cols == 0:
        return 0.0, []
    n = max(rows, cols)
    big = max(max(row) for row in matrix)
    cost = [[(big - matrix[i][j]) if i < rows and j < cols else big for j in range(n)] for i in range(n)]
    inf = float("inf")
    u, v = [0.0] * (n + 1), [0.0] * (n + 1)
    p, way = [0] * (n + 1), [0] * (n + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = p[j0], inf, 0
            for j in range(1, n + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(n + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    pairs = [(p[j] - 1, j - 1) for j in range(1, n + 1) if p[j] - 1 < rows and j - 1 < cols]
    return sum(matrix[i][j] for i, j in pairs), pairs


def speaker_accuracy(reference_turns, hypothesis_segments) -> float:
    """Share of reference speech time given the right speaker under the best one-to-one label mapping."""
    _, _, matrix, total = overlap_matrix(reference_turns, hypothesis_segments)
    if total <= 0:
        return 0.0
    best, _ = best_assignment(matrix)
    return best / total


def speakers_found(hypothesis_segments) -> int:
    """Number of distinct speaker labels in a hypothesis."""
    return len({label for _, _, label in _segments(hypothesis_segments)})


# --------------------------------------------------------------------------
# Self-test


def self_test() -> int:
    passed = failed = 0

    def check(name, got, expected):
        nonlocal passed, failed
        ok = abs(got - expected) < 1e-9 if isinstance(expected, float) else got == expected
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {got!r} (expected {expected!r})")
        passed += ok
        failed += not ok

    ref = [{"speaker": "A", "start": 0.0, "end": 10.0}, {"speaker": "B", "start": 10.5, "end": 20.0},
           {"speaker": "A", "start": 20.5, "end": 30.0}, {"speaker": "C", "start": 31.0, "end": 40.0}]
    # reference speech: 10 + 9.5 + 9.5 + 9 = 38 s
    check("reference against itself", speaker_accuracy(ref, ref), 1.0)
    check("reference as a dict with turns", speaker_accuracy({"speakers": 3, "turns": ref}, ref), 1.0)
    check("speakers_found(reference)", speakers_found(ref), 3)
    tuples = [(t["start"], t["end"], t["speaker"]) for t in ref]
    check("(start, end, speaker) tuples", speaker_accuracy(ref, tuples), 1.0)
    # labels renamed and given in shuffled order, all shifted 0.5 s late:
    # A 9.5 + 9, B 9, C 8.5 = 36 of 38
    shifted = [(31.5, 40.5, "z"), (11.0, 20.5, "y"), (21.0, 30.5, "x"), (0.5, 10.5, "x")]
    check("renamed, shuffled, shifted 0.5 s", speaker_accuracy(ref, shifted), 36 / 38)
    check("speakers_found(shifted)", speakers_found(shifted), 3)
    # B and C merged into y, y wrongly on 25-30, and z overlapping x on 5-7:
    # x->A: 8 + 4.5 = 12.5; y->B 9.5 (y->C 9, y->A 5 lose); z overlaps only: 22 of 38
    merged = [(0, 10, "x"), (5, 7, "z"), (10.5, 20, "y"), (20.5, 25, "x"), (25, 30, "y"), (31, 40, "y")]
    check("merged labels, overlap and a wrong stretch", speaker_accuracy(ref, merged), 22 / 38)
    check("speakers_found(merged)", speakers_found(merged), 3)
    # A split into two labels: only one of them can map to A: 10 + 9.5 + 9 = 28.5 of 38
    split = [(0, 10, "p"), (10.5, 20, "q"), (20.5, 30, "r"), (31, 40, "s")]
    check("one speaker split in two labels", speaker_accuracy(ref, split), 28.5 / 38)
    # everything one label: best is A, 19.5 of 38
    check("a single label for all", speaker_accuracy(ref, [(0, 40, "one")]), 19.5 / 38)
    check("empty hypothesis", speaker_accuracy(ref, []), 0.0)
    check("speakers_found([])", speakers_found([]), 0)
    # unlabeled half of each turn: 5 + 4.75 + 4.75 + 4.5 = 19 of 38
    half = [(t["start"], (t["start"] + t["end"]) / 2, t["speaker"]) for t in ref]
    check("only the first half of every turn", speaker_accuracy(ref, half), 0.5)
    # the Hungarian assignment against brute force on fixed random matrices
    rng = np.random.RandomState(7)
    agree = True
    for _ in range(200):
        rows, cols = rng.randint(1, 6), rng.randint(1, 6)
        m = rng.randint(0, 20, size=(rows, cols)).astype(float).tolist()
        brute = 0.0
        if rows <= cols:
            for perm in itertools.permutations(range(cols), rows):
                brute = max(brute, sum(m[i][perm[i]] for i in range(rows)))
        else:
            for perm in itertools.permutations(range(rows), cols):
                brute = max(brute, sum(m[perm[j]][j] for j in range(cols)))
        agree &= abs(best_assignment(m)[0] - brute) < 1e-9
    check("Hungarian equals brute force (200 matrices)", agree, True)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", nargs="?", help="folder to build the WAV + .turns.json files into")
    parser.add_argument("--self-test", action="store_true", help="check the scoring functions and exit")
    parser.add_argument("--only", action="append", default=[], help="build only this set (repeatable)")
    args = parser.parse_args(argv)
    if args.self_test:
        return self_test()
    if not args.out_dir:
        parser.error("give an output folder, or --self-test")
    sets = [s for s in SETS if not args.only or s["name"] in args.only]
    if not sets:
        parser.error(f"no such set; sets: {', '.join(s['name'] for s in SETS)}")
    missing = check_sources(sets)
    if missing:
        packages = sorted({m.split(':')[0] for m in missing})
        print("missing source recordings (install: apt-get install " + " ".join(
            p for p in packages if not p.startswith("pywhispercpp")) + "):", file=sys.stderr)
        for m in missing[:20]:
            print("  " + m, file=sys.stderr)
        return 2
    os.makedirs(args.out_dir, exist_ok=True)
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        cache = {"tmp": tmp}
        for spec in sets:
            index = SETS.index(spec)
            reference = build_set(spec, index, args.out_dir, cache)
            turns = reference["turns"]
            lengths = [t["end"] - t["start"] for t in turns]
            per = {s: sum(t["speaker"] == s for t in turns) for s in sorted({t["speaker"] for t in turns})}
            print(f"{spec['name']}: {reference['duration']:.1f} s, {reference['speakers']} speakers, "
                  f"{len(turns)} turns ({', '.join(f'{s}x{n}' for s, n in per.items())}), "
                  f"turns {min(lengths):.1f}-{max(lengths):.1f} s, band {reference['band']}")
            for problem in validate(reference):
                print(f"  PROBLEM: {problem}", file=sys.stderr)
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
