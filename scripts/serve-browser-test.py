#!/usr/bin/python3
"""Drives the page of `livetranscriber serve` in headless Chromium (Debian's chromium,
chromium-driver and python3-selenium), against a server already running over the test library
that Tests/LiveTranscriberCLITests/ServeBrowserTests.swift makes.

usage: serve-browser-test.py URL SCREENSHOT_DIR [LIVETRANSCRIBER AUDIO_FILE]

Opens the library, searches as a user types, opens a recording, clicks its third row and finds
the audio element's currentTime at that row's start (within 0.05 s), plays and finds the
highlight on the row (and a word) being played, drops a file and finds it imported, transcribes
it again from its page (progress, then the new transcript), and saves a
screenshot of each page (light, dark, phone-sized) in SCREENSHOT_DIR.

With LIVETRANSCRIBER (the program) and AUDIO_FILE (speech, a few sentences; the server was
started with `--record-input` naming it too), the Live page as well: runs
`LIVETRANSCRIBER record --input AUDIO_FILE` in real time beside the server (same
$LIVETRANSCRIBER_HOME) and finds its finals on the Live page, measuring the time from a final
written to the recorder's event stream to its line on the page; then records from the page
(Record, Pause, Resume, Stop and save) and finds its finals and the saved recording. Exit status: 0 passed, 1 failed (one line saying what),
77 when Chromium cannot start here (the test says so and skips).
"""
import base64
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


# A librivox sentence that is not in the test library on its own.
DROPPED = "/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0930.wav"


def fail(message):
    print("serve-browser-test: FAILED: " + message, file=sys.stderr)
    sys.exit(1)


def start_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--autoplay-policy=no-user-gesture-required", "--mute-audio", "--window-size=1100,900",
                     "--no-first-run", "--disable-extensions"]:
        options.add_argument(argument)
    try:
        return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    except WebDriverException as error:
        print("serve-browser-test: SKIPPED: Chromium cannot start here: " + str(error).splitlines()[0], file=sys.stderr)
        sys.exit(77)


def texts(browser, selector):
    """The text of every element `selector` finds, read at one moment (the page may redraw)."""
    return browser.execute_script("return Array.from(document.querySelectorAll(arguments[0])).map(e => e.textContent)", selector)


# Marks when each final line first appears on the Live page (wall clock, ms), for the latency.
SEEN_FINALS = """
    window.ltSeen = window.ltSeen || {};
    const mark = () => { for (const n of document.querySelectorAll('.live-finals .text'))
                           if (!(n.textContent in window.ltSeen)) window.ltSeen[n.textContent] = Date.now(); };
    if (!window.ltObserver) {
        window.ltObserver = new MutationObserver(mark);
        window.ltObserver.observe(document.getElementById('live-cards'), { childList: true, subtree: true });
    }
    mark();
"""


class EventFileWatcher(threading.Thread):
    """Tails the recorder's event stream (`--events FILE`), noting when each final appears."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.path, self.finals, self.stopped = path, {}, False

    def run(self):
        offset, partial = 0, b""
        while not self.stopped:
            try:
                with open(self.path, "rb") as events:
                    events.seek(offset)
                    data = events.read()
            except FileNotFoundError:
                data = b""
            now = time.time()
            offset += len(data)
            partial += data
            while b"\n" in partial:
                line, partial = partial.split(b"\n", 1)
                event = json.loads(line)
                if event.get("type") == "final" and event["text"] not in self.finals:
                    self.finals[event["text"]] = now
            time.sleep(0.002)


def card(browser, name):
    """The Live page's card of the recording called `name`, as the page shows it, or None."""
    return browser.execute_script("""
        for (const node of document.querySelectorAll('.live-card')) {
            if (node.querySelector('h2').textContent !== arguments[0]) continue;
            return { status: node.querySelector('.live-status').textContent, timer: node.querySelector('.live-timer').textContent,
                     ticking: node.querySelector('.live-timer').hasAttribute('data-from'),
                     interim: node.querySelector('.live-interim').textContent,
                     interimColor: getComputedStyle(node.querySelector('.live-interim')).color,
                     finals: Array.from(node.querySelectorAll('.live-finals .text')).map(e => e.textContent),
                     times: Array.from(node.querySelectorAll('.live-finals .time')).map(e => e.textContent),
                     meta: node.querySelector('.live-meta').textContent,
                     previews: Array.from(node.querySelectorAll('.live-previews img')).filter(i => i.complete && i.naturalWidth > 0).length,
                     saved: !!node.querySelector('a[href^="#/recording/"]') };
        }
        return null;""", name)


def live_page(browser, wait, shot, program, audio):
    """The Live page: a recording started in a terminal, then one started from the page."""
    browser.set_window_size(1100, 1000)
    browser.execute_script("location.hash = '#/live'")
    wait.until(lambda b: b.find_element(By.ID, "live-view").is_displayed())
    wait.until(lambda b: "Records" in b.find_element(By.ID, "recorder-status").text)
    browser.execute_script(SEEN_FINALS)
    events = os.path.join(tempfile.mkdtemp(prefix="lt-live-"), "events.jsonl")
    watcher = EventFileWatcher(events)
    watcher.start()
    recorder = subprocess.Popen([program, "record", "--input", audio, "--name", "From a terminal", "--events", events],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        long_wait = WebDriverWait(browser, 90)
        long_wait.until(lambda b: (card(b, "From a terminal") or {}).get("finals"))
        shown = card(browser, "From a terminal")
        if shown["status"] != "Recording" or not shown["ticking"]:
            fail("the terminal's recording is shown as %r" % shown)
        if shown["previews"] != 4:
            fail("the Live Activity previews drawn: %d of 4" % shown["previews"])
        if not shown["meta"].startswith("en-US · "):
            fail("the card's footer is %r" % shown["meta"])
        first = shown["timer"]
        # A reader selects a final line while the clock ticks (an update a second): the card is
        # changed in place, so the selection and the card's node stay.
        browser.execute_script("""
            for (const node of document.querySelectorAll('.live-card')) {
                if (node.querySelector('h2').textContent !== arguments[0]) continue;
                window.ltCard = node;
                const range = document.createRange();
                range.selectNodeContents(node.querySelector('.live-finals .text'));
                getSelection().removeAllRanges();
                getSelection().addRange(range);
            }""", "From a terminal")
        selected = browser.execute_script("return getSelection().toString()")
        time.sleep(1.3)
        later = card(browser, "From a terminal")["timer"]
        if later == first:
            fail("the timer did not tick: %r then %r" % (first, later))
        kept = browser.execute_script("return [getSelection().toString(), document.contains(window.ltCard)]")
        if not selected or kept != [selected, True]:
            fail("a tick redrew the card: the selection %r became %r (card node kept: %r)" % (selected, kept[0], kept[1]))
        browser.execute_script("getSelection().removeAllRanges()")
        long_wait.until(lambda b: (card(b, "From a terminal") or {}).get("interim"))
        interim = card(browser, "From a terminal")
        print("serve-browser-test: live card: %s %s, interim '%s' in %s, finals %r at %r, %s" % (
            interim["status"], interim["timer"], interim["interim"], interim["interimColor"], interim["finals"], interim["times"], interim["meta"]))
        shot("live-terminal")
        # Newest first: the second final goes on top.
        long_wait.until(lambda b: len((card(b, "From a terminal") or {}).get("finals", [])) >= 2)
        browser.execute_script(SEEN_FINALS)
        finals = card(browser, "From a terminal")["finals"]
        if finals[-1] != interim["finals"][0]:
            fail("the finals are not newest first: %r, the first was %r" % (finals, interim["finals"][0]))
        recorder.send_signal(signal.SIGINT)  # stops and saves, as Ctrl-C does
        if recorder.wait(60) != 0:
            fail("record exited %d: %s" % (recorder.returncode, recorder.stderr.read().decode()))
        long_wait.until(lambda b: (card(b, "From a terminal") or {}).get("saved"))
        seen = browser.execute_script("return window.ltSeen")
        delays = [seen[text] / 1000 - at for text, at in watcher.finals.items() if text in seen]
        if not delays:
            fail("no final of the event stream was seen on the page: %r vs %r" % (list(watcher.finals), list(seen)))
        print("serve-browser-test: final written to its line on the Live page: %s s (%d finals)" % (
            ", ".join("%.3f" % d for d in delays), len(delays)))
        shot("live-terminal-saved")
    finally:
        watcher.stopped = True
        if recorder.poll() is None:
            recorder.kill()

    # Record from the page: the server plays AUDIO_FILE in real time as its microphone.
    browser.find_element(By.ID, "record-name").send_keys("From the page")
    browser.find_element(By.ID, "record-start").click()
    long_wait.until(lambda b: (card(b, "From the page") or {}).get("finals"))
    shot("live-page")
    browser.find_element(By.ID, "record-pause").click()
    wait.until(lambda b: (card(b, "From the page") or {}).get("status") == "Paused")
    paused = card(browser, "From the page")
    if paused["ticking"]:
        fail("a paused recording's timer still ticks: %r" % paused)
    shot("live-paused")
    browser.find_element(By.ID, "record-pause").click()
    wait.until(lambda b: (card(b, "From the page") or {}).get("status") == "Recording")
    browser.find_element(By.ID, "record-stop").click()
    long_wait.until(lambda b: (card(b, "From the page") or {}).get("saved"))
    wait.until(lambda b: b.find_element(By.ID, "record-start").is_displayed())
    print("serve-browser-test: recorded from the page: %r" % card(browser, "From the page"))
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    browser.set_window_size(390, 844)
    shot("live-page-phone-dark")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
    browser.set_window_size(1100, 900)
    browser.execute_script("location.hash = '#/'")
    wait.until(lambda b: "From the page" in texts(b, "#recordings .name") and "From a terminal" in texts(b, "#recordings .name"))


def main():
    if len(sys.argv) not in (3, 5):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    url, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    for old in os.listdir(shots):  # the screenshots are this run's
        if old.endswith(".png"):
            os.remove(os.path.join(shots, old))
    browser = start_browser()
    wait = WebDriverWait(browser, 15)

    def shot(name):
        path = os.path.join(shots, name + ".png")
        browser.save_screenshot(path)
        print("serve-browser-test: saved " + path)

    try:
        # The library: newest first.
        browser.get(url)
        if "token=" in browser.current_url:
            fail("the printed URL was not replaced by / after the token became a cookie: " + browser.current_url)
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#recordings > li")) == 3)
        names = texts(browser, "#recordings .name")
        if names != ["Team sync: Q3/Q4", "Budget review", "Sense and Sensibility"]:
            fail("library rows are %r" % names)
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#tag-filter option")) == 4)
        shot("library")

        # Search as you type: one result, its places with times and the match marked.
        box = browser.find_element(By.ID, "search")
        box.click()
        for letter in "amiable":
            box.send_keys(letter)
            time.sleep(0.03)
        # The results of the whole word, not of a prefix typed on the way ("a" matched the same
        # recording; a loaded machine showed its marks before the last keystrokes' search came back).
        def whole_word_results(b):
            found = texts(b, "#recordings mark")
            return texts(b, "#recordings .name") == ["Sense and Sensibility"] and found and all(m.lower() == "amiable" for m in found)
        try:
            wait.until(whole_word_results)
        except Exception:
            pass  # the checks below say what was shown
        marks = texts(browser, "#recordings mark")
        if not marks or any(m.lower() != "amiable" for m in marks):
            fail("search marks are %r" % marks)
        times = texts(browser, "#recordings .place-time")
        if times != ["0:15", "0:21"]:
            fail("search places' times are %r" % times)
        shot("search")

        # Open the recording.
        browser.find_element(By.CSS_SELECTOR, "#recordings a.open").click()
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#transcript .row")) == 5)
        wait.until(lambda b: b.execute_script("return document.getElementById('player').readyState >= 1"))
        shot("recording")
        # A recording without speaker labels shows no Speakers heading (the section's display
        # rule once overrode its hidden attribute).
        if not browser.find_elements(By.CSS_SELECTOR, "#transcript .row .speaker") and browser.find_element(By.ID, "speakers").is_displayed():
            fail("the Speakers section is shown for a recording without speaker labels")

        # Its English translation (kept beside the transcript): the switch shows it, its export
        # links export it, and "As spoken" brings the transcript back.
        if not browser.find_element(By.ID, "transcript-choice").is_displayed():
            fail("a recording with a translation shows no switch to it")
        browser.find_element(By.ID, "show-translation").click()
        wait.until(lambda b: texts(b, "#transcript .row .words")[:1] == ["Translated sentence 1."])
        if browser.find_element(By.ID, "show-translation").get_attribute("aria-pressed") != "true":
            fail("the English translation button is not shown pressed")
        links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "#export-links a")]
        if not links or not all(link.endswith("?transcript=translated") for link in links):
            fail("the translation's export links are %r" % links)
        shot("translation")
        browser.find_element(By.ID, "show-original").click()
        wait.until(lambda b: texts(b, "#transcript .row .words")[:1] != ["Translated sentence 1."])
        if len(browser.find_elements(By.CSS_SELECTOR, "#transcript .row")) != 5:
            fail("As spoken shows %d rows" % len(browser.find_elements(By.CSS_SELECTOR, "#transcript .row")))
        # This server's engine (pocketsphinx) cannot translate: one line says so, nothing changes.
        browser.execute_script("document.querySelector('.manage').open = true")
        browser.find_element(By.ID, "translate-button").click()
        wait.until(lambda b: "whisper" in b.find_element(By.ID, "recording-status").text)
        said = browser.find_element(By.ID, "recording-status").text
        if said != "translating needs the whisper engine; this server transcribes with pocketsphinx":
            fail("Translate with pocketsphinx says %r" % said)
        if not browser.find_element(By.ID, "translate-button").is_enabled():
            fail("the Translate button stays disabled after a refusal")
        browser.execute_script("document.querySelector('.manage').open = false")
        print("serve-browser-test: the translation shown and the transcript back; Translate refused with one line")

        # Click the third row: the audio goes to its start.
        rows = browser.find_elements(By.CSS_SELECTOR, "#transcript .row")
        third = rows[2]
        start = float(third.get_attribute("data-start"))
        third.click()
        wait.until(lambda b: abs(b.execute_script("return document.getElementById('player').currentTime") - start) <= 0.05)
        now = browser.execute_script("return document.getElementById('player').currentTime")
        print("serve-browser-test: third row starts at %.3f s; currentTime after the click %.3f s" % (start, now))
        if "playing" not in third.get_attribute("class"):
            fail("the clicked row is not highlighted")

        # Play: the highlight follows the row (and the word) being played.
        browser.execute_script("document.getElementById('player').play()")
        try:
            wait.until(lambda b: b.execute_script("return document.getElementById('player').currentTime") > start + 1.2)
        except TimeoutException:
            state = browser.execute_script("var p = document.getElementById('player'); return [p.paused, p.currentTime, p.error && p.error.code]")
            fail("the audio did not play (paused, currentTime, error): %r" % state)
        browser.execute_script("document.getElementById('player').pause()")
        time.sleep(0.2)
        played = browser.execute_script("return document.getElementById('player').currentTime")
        starts = [float(r.get_attribute("data-start")) for r in rows]
        expected = max(i for i, s in enumerate(starts) if s <= played)
        highlighted = [i for i, r in enumerate(rows) if "playing" in r.get_attribute("class")]
        if highlighted != [expected]:
            fail("at %.2f s the highlighted rows are %r; expected [%d]" % (played, highlighted, expected))
        spoken = rows[expected].find_elements(By.CSS_SELECTOR, ".word.spoken")
        if len(spoken) != 1:
            fail("at %.2f s the row being played has %d highlighted words" % (played, len(spoken)))
        print("serve-browser-test: played to %.2f s: row %d highlighted, word '%s'" % (played, expected, spoken[0].text))
        shot("playing")

        # Dark, then phone-sized.
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        shot("playing-dark")
        browser.set_window_size(390, 844)
        browser.execute_script("location.hash = '#/'")
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#recordings > li")) >= 1)
        shot("library-phone-dark")
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
        browser.find_element(By.CSS_SELECTOR, "#recordings a.open").click()
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#transcript .row")) >= 1)
        shot("recording-phone")
        browser.execute_script("document.querySelector('.manage').open = true; document.querySelector('.manage').scrollIntoView()")
        shot("manage-phone")
        # Drop an audio file on the library: it is uploaded, imported, and listed.
        browser.set_window_size(1100, 900)
        browser.execute_script("location.hash = '#/'")
        wait.until(lambda b: b.find_element(By.ID, "library-view").is_displayed())
        search = browser.find_element(By.ID, "search")
        search.clear()
        search.send_keys(" ")
        search.send_keys("\b")
        wait.until(lambda b: len(texts(b, "#recordings .name")) == 3)
        with open(DROPPED, "rb") as audio:
            encoded = base64.b64encode(audio.read()).decode()
        browser.execute_script("""
            const bytes = Uint8Array.from(atob(arguments[0]), c => c.charCodeAt(0));
            const transfer = new DataTransfer();
            transfer.items.add(new File([bytes], arguments[1], { type: "audio/wav" }));
            const target = document.getElementById("library-view");
            target.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
            target.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
        """, encoded, os.path.basename(DROPPED))
        WebDriverWait(browser, 90).until(lambda b: any(t.startswith("Imported as") or "error" in t.lower() or "not" in t
                                                       for t in texts(b, "#imports .state")))
        states = texts(browser, "#imports .state")
        name = os.path.splitext(os.path.basename(DROPPED))[0]
        if states != ["Imported as “%s” (0:03, 1 segment)." % name]:
            fail("the dropped file's import says %r" % states)
        wait.until(lambda b: name in texts(b, "#recordings .name"))
        shot("import")

        # Transcribe the imported recording again: the progress bar, then the new transcript.
        browser.execute_script("for (const a of document.querySelectorAll('#recordings a.open')) if (a.querySelector('.name').textContent === arguments[0]) { a.click(); break; }", name)
        wait.until(lambda b: len(b.find_elements(By.CSS_SELECTOR, "#transcript .row")) == 1)
        browser.execute_script("document.querySelector('.manage').open = true")
        browser.find_element(By.ID, "retranscribe-button").click()
        WebDriverWait(browser, 120).until(lambda b: b.find_element(By.ID, "recording-status").text.startswith(("Transcribed again", "Transcribing again")))
        shot("retranscribe")
        WebDriverWait(browser, 120).until(lambda b: not b.find_element(By.ID, "recording-status").text.startswith("Transcribing again"))
        said = browser.find_element(By.ID, "recording-status").text
        if said != "Transcribed again: 1 segment." or len(browser.find_elements(By.CSS_SELECTOR, "#transcript .row")) != 1:
            fail("transcribing again says %r" % said)
        print("serve-browser-test: transcribed again: " + said)

        # Speaker labels came with the import and the new transcript: name the speaker on the page.
        wait.until(lambda b: b.find_element(By.ID, "speakers").is_displayed())
        forms = browser.find_elements(By.CSS_SELECTOR, "#speaker-list form")
        if [f.get_attribute("data-speaker") for f in forms] != ["S1"]:
            fail("the speakers listed are %r" % [f.get_attribute("data-speaker") for f in forms])
        if texts(browser, "#transcript .row .speaker") != ["Speaker 1"]:
            fail("before the rename, the rows name %r" % texts(browser, "#transcript .row .speaker"))
        field = forms[0].find_element(By.CSS_SELECTOR, "input")
        field.send_keys("Narrator")
        forms[0].find_element(By.CSS_SELECTOR, "button").click()
        wait.until(lambda b: texts(b, "#transcript .row .speaker") == ["Narrator"])
        if browser.find_element(By.ID, "recording-status").text != "Speaker S1 is now Narrator.":
            fail("renaming the speaker says %r" % browser.find_element(By.ID, "recording-status").text)
        shot("speakers")
        print("serve-browser-test: speaker S1 renamed to Narrator on the page")

        # An id that names no recording, opened from a recording: nothing of the one before stays
        # (its buttons once acted on it).
        browser.execute_script("location.hash = '#/recording/nosuchid'")
        wait.until(lambda b: b.find_element(By.ID, "recording-status").text == "no recording has the id 'nosuchid'")
        left = [name for name, selector in [("the manage section", ".manage"), ("the player", ".player"), ("the speakers", "#speakers"),
                                             ("the transcript", "#transcript .row")]
                if any(node.is_displayed() for node in browser.find_elements(By.CSS_SELECTOR, selector))]
        if left or browser.find_element(By.ID, "recording-meta").text:
            fail("a recording that does not exist still shows %r of the one before" % (left or ["its meta line"]))
        shot("missing-recording")
        if len(sys.argv) == 5:
            live_page(browser, wait, shot, sys.argv[3], sys.argv[4])
        print("serve-browser-test: passed")
    except (TimeoutException, WebDriverException) as error:
        shot("failure")
        fail("%s on %s; see failure.png" % (str(error).splitlines()[0] if str(error).strip() else type(error).__name__, browser.current_url))
    finally:
        browser.quit()


if __name__ == "__main__":
    main()
