#!/usr/bin/python3
"""Drives the page of `livetranscriber serve` in headless Chromium (Debian's chromium,
chromium-driver and python3-selenium), against a server already running over the test library
that Tests/LiveTranscriberCLITests/ServeBrowserTests.swift makes.

usage: serve-browser-test.py URL SCREENSHOT_DIR

Opens the library, searches as a user types, opens a recording, clicks its third row and finds
the audio element's currentTime at that row's start (within 0.05 s), plays and finds the
highlight on the row (and a word) being played, and saves a screenshot of each page (light,
dark, phone-sized) in SCREENSHOT_DIR. Exit status: 0 passed, 1 failed (one line saying what),
77 when Chromium cannot start here (the test says so and skips).
"""
import base64
import os
import sys
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


def main():
    if len(sys.argv) != 3:
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
        wait.until(lambda b: texts(b, "#recordings .name") == ["Sense and Sensibility"])
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
        print("serve-browser-test: passed")
    except (TimeoutException, WebDriverException) as error:
        shot("failure")
        fail("%s on %s; see failure.png" % (str(error).splitlines()[0] if str(error).strip() else type(error).__name__, browser.current_url))
    finally:
        browser.quit()


if __name__ == "__main__":
    main()
