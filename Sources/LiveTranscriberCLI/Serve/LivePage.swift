import Foundation

/// The page's Live view (`#/live`): the recordings in progress, drawn from what
/// `GET /api/live/events` sends (`LiveRecordingView.Card` and the Live Activity's presentations
/// drawn by `ActivitySVGRenderer`), and the buttons that record from the page.
enum LivePage {
    /// The view's section of the document.
    static let section = #"""
    <section id="live-view" aria-labelledby="live-title" hidden>
      <h1 id="live-title">Live</h1>
      <div class="recorder" aria-labelledby="recorder-title">
        <h2 id="recorder-title" class="hidden-label">Record on this machine</h2>
        <form id="record-form" class="inline">
          <label for="record-name" class="hidden-label">Name of the new recording</label>
          <input id="record-name" type="text" maxlength="200" placeholder="Name (optional)">
          <button id="record-start" type="submit">● Record</button>
          <button id="record-pause" type="button" hidden>Pause</button>
          <button id="record-stop" type="button" hidden>■ Stop and save</button>
        </form>
        <p id="recorder-status" class="meta" role="status" aria-live="polite"></p>
      </div>
      <p id="live-status" class="status" role="status" aria-live="polite"></p>
      <div id="live-cards" class="live-cards"></div>
    </section>
    """#

    static let css = #"""
    .bar nav { display: inline-flex; gap: 1rem; margin-left: 1rem; }
    .recorder { margin: 0 0 1rem; }
    .live-cards { display: grid; gap: 1.25rem; }
    .live-card { border: 1px solid var(--line); border-radius: 1rem; padding: 1rem; background: var(--card); }
    .live-head { display: flex; align-items: center; gap: .5rem; font-weight: 600; }
    .live-dot { width: .75rem; height: .75rem; border-radius: 50%; flex: none; }
    .live-timer { margin-left: auto; font-variant-numeric: tabular-nums; font-size: 1.35rem; }
    .live-card h2 { font-size: 1.1rem; margin: .25rem 0 .5rem; overflow-wrap: anywhere; }
    .live-interim { color: #b26a00; font-style: italic; margin: .25rem 0; min-height: 1.5em; }
    @media (prefers-color-scheme: dark) { .live-interim { color: #ffb340; } }
    .live-finals { list-style: none; margin: 0; padding: 0; max-height: 22rem; overflow-y: auto; }
    .live-finals li { display: grid; grid-template-columns: 3.5rem 1fr; gap: .5rem; padding: .2rem 0; }
    .live-finals .time { color: var(--accent); font-variant-numeric: tabular-nums; }
    .live-previews { display: flex; flex-wrap: wrap; gap: .75rem; align-items: flex-start; margin-top: .75rem; }
    .live-previews figure { margin: 0; }
    .live-previews figcaption { font-size: .8rem; color: var(--muted); }
    .live-previews img { display: block; max-width: 100%; height: auto; }

    """#

    static let javascript = #"""
    "use strict";
    // The Live view: draws the cards the server sends over server-sent events (docs/serve.md,
    // "Live"). The one thing it computes is its ticking clock: seconds since the card's
    // reference date, shown as the core's ElapsedTimeFormat.clock shows them (m:ss, h:mm:ss),
    // as the Live Activity's system-ticked timer does.
    (() => {
      const token = document.querySelector('meta[name="lt-token"]').content;
      const $ = (id) => document.getElementById(id);
      let source = null;
      let recorderState = "idle";

      \#(WebPage.elementFunction)

      function clock(seconds) {
        const total = seconds > 0 ? Math.floor(Math.round(seconds * 1000) / 1000) : 0;
        const hours = Math.floor(total / 3600), minutes = Math.floor((total % 3600) / 60), secs = total % 60;
        const two = (value) => (value < 10 ? "0" : "") + value;
        return hours > 0 ? hours + ":" + two(minutes) + ":" + two(secs) : minutes + ":" + two(secs);
      }

      function tick() {
        for (const node of document.querySelectorAll(".live-timer[data-from]")) {
          node.textContent = clock((Date.now() - Date.parse(node.dataset.from)) / 1000);
        }
      }

      const previewNames = [["lockScreen", "Lock Screen"], ["expandedIsland", "Dynamic Island, expanded"],
                            ["compactIsland", "Dynamic Island, compact"], ["minimalIsland", "Dynamic Island, minimal"]];

      function cardNode(item) {
        const card = item.card;
        const dot = element("span", { class: "live-dot", "aria-hidden": "true" });
        dot.style.backgroundColor = card.dotHex;
        const timer = element("span", { class: "live-timer", text: card.timer.text, "aria-label": "Elapsed time" });
        if (card.timer.ticking && card.timer.from) timer.dataset.from = card.timer.from;
        const finals = element("ol", { class: "live-finals", "aria-label": "Final lines, newest first" },
          ...card.finals.map((line) => element("li", {}, element("span", { class: "time", text: line.time }), element("span", { class: "text", text: line.text }))));
        const meta = [card.language, card.segmentCountText].filter((part) => part).join(" · ");
        const node = element("article", { class: "live-card", "data-id": card.id, "data-phase": card.phase },
          element("div", { class: "live-head" }, dot, element("span", { class: "live-status", text: card.status }), timer),
          element("h2", { text: card.name || "New recording" }),
          element("p", { class: "live-interim", text: card.interim || "" }),
          finals,
          element("p", { class: "meta live-meta", text: meta }));
        if (card.finished) {
          node.append(element("p", {}, element("a", { href: "#/recording/" + encodeURIComponent(card.id), text: "Open the saved recording" })));
        }
        if (item.previews) {
          node.append(element("div", { class: "live-previews", "aria-label": "The Live Activity on an iPhone" },
            ...previewNames.map(([key, label]) => element("figure", {},
              element("img", { src: "data:image/svg+xml;charset=utf-8," + encodeURIComponent(item.previews[key]), alt: label + " preview", class: "preview-" + key }),
              element("figcaption", { text: label })))));
        }
        return node;
      }

      function draw(answer) {
        $("live-cards").replaceChildren(...answer.recordings.map(cardNode));
        $("live-status").textContent = answer.recordings.length ? "" : "Nothing is being recorded in this library.";
        tick();
        const recorder = answer.recorder;
        if (!recorder) { $("record-form").hidden = true; return; }
        recorderState = recorder.state;
        const busy = recorder.state !== "idle";
        $("record-start").hidden = busy;
        $("record-name").disabled = busy;
        $("record-pause").hidden = !(recorder.state === "recording" || recorder.state === "paused");
        $("record-pause").textContent = recorder.state === "paused" ? "Resume" : "Pause";
        $("record-stop").hidden = !busy;
        const words = { idle: "Records " + recorder.input + ".", starting: "Starting…", recording: "Recording " + recorder.input + ".",
                        paused: "Paused.", stopping: "Stopping and saving…" };
        let text = words[recorder.state] || recorder.state;
        if (recorder.state === "idle" && recorder.error) text = recorder.error;
        $("recorder-status").replaceChildren(text);
        if (recorder.state === "idle" && recorder.saved && !recorder.error) {
          $("recorder-status").replaceChildren("Saved: ", element("a", { href: "#/recording/" + encodeURIComponent(recorder.saved), text: "open the recording" }), ". " + text);
        }
        $("recorder-status").classList.toggle("error", recorder.state === "idle" && !!recorder.error);
      }

      async function post(path, body) {
        try {
          const response = await fetch(path, { method: "POST", credentials: "same-origin",
            headers: { "X-LiveTranscriber-Token": token, "Content-Type": "application/json" }, body: JSON.stringify(body || {}) });
          const answer = await response.json();
          if (!response.ok) throw new Error(answer.error || ("HTTP " + response.status));
          draw(answer);
        } catch (error) {
          $("recorder-status").textContent = error.message;
          $("recorder-status").classList.add("error");
        }
      }

      $("record-form").addEventListener("submit", (event) => {
        event.preventDefault();
        const name = $("record-name").value.trim();
        post("/api/live/record", name ? { name } : {}).then(() => { if (recorderState !== "idle") $("record-name").value = ""; });
      });
      $("record-pause").addEventListener("click", () => post(recorderState === "paused" ? "/api/live/record/resume" : "/api/live/record/pause"));
      $("record-stop").addEventListener("click", () => post("/api/live/record/stop"));

      function follow() {
        const shown = location.hash === "#/live";
        if (shown && !source) {
          source = new EventSource("/api/live/events");
          source.addEventListener("update", (event) => draw(JSON.parse(event.data)));
          source.addEventListener("error", () => { $("live-status").textContent = "Reconnecting…"; });
        } else if (!shown && source) {
          source.close();
          source = null;
        }
      }
      setInterval(tick, 250);
      window.addEventListener("hashchange", follow);
      follow();
    })();

    """#
}
