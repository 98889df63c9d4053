import Foundation

/// The page `livetranscriber serve` shows: one HTML document, its style sheet and its script,
/// shipped inside the program (nothing is fetched from elsewhere). The script draws what the
/// API answers and keeps no rule of its own: the rows, the words, the moments the highlight moves
/// (`PlaybackTranscript`), dates, durations and pages (`LibraryPage`) all come from the core.
enum WebPage {
    /// The document, with the access token in a meta element for the script's changing requests
    /// (only a request that already carried the token is given the page).
    static func html(token: String) -> String {
        #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <meta name="lt-token" content="\#(token)">
        <title>LiveTranscriber</title>
        <link rel="stylesheet" href="/app.css">
        <script src="/app.js" defer></script>
        <script src="/live.js" defer></script>
        </head>
        <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="bar"><a href="#/" class="brand">LiveTranscriber</a><nav aria-label="Views"><a href="#/">Library</a><a href="#/live" id="live-link">Live</a></nav></header>
        <main id="main" tabindex="-1">
        <section id="library-view" aria-labelledby="library-title">
          <h1 id="library-title">Library</h1>
          <div class="controls" role="search">
            <label for="search" class="hidden-label">Search recordings</label>
            <input id="search" type="search" placeholder="Search names, transcripts, tags…" autocomplete="off" spellcheck="false">
            <label for="tag-filter" class="hidden-label">Only recordings with the tag</label>
            <select id="tag-filter"><option value="">All tags</option></select>
          </div>
          <div id="drop-zone" class="drop-zone">
            <label for="import-files" class="button">Import audio…</label>
            <input id="import-files" type="file" accept="audio/*,.wav,.flac,.ogg,.opus,.mp3" multiple class="hidden-label">
            <span class="meta">or drop audio files here</span>
            <ul id="imports" class="imports" aria-live="polite"></ul>
          </div>
          <p id="library-status" class="status" role="status" aria-live="polite"></p>
          <ol id="recordings" class="recordings" aria-labelledby="library-title"></ol>
          <nav class="pager" aria-label="Pages">
            <button id="previous-page" type="button">‹ Newer</button>
            <span id="page-label" aria-live="polite"></span>
            <button id="next-page" type="button">Older ›</button>
          </nav>
        </section>
        <section id="recording-view" aria-labelledby="recording-title" hidden>
          <a href="#/" class="back">‹ Library</a>
          <h1 id="recording-title"></h1>
          <p id="recording-meta" class="meta"></p>
          <p id="recording-summary" class="summary"></p>
          <div class="player"><audio id="player" controls preload="metadata"></audio></div>
          <p id="recording-status" class="status" role="status" aria-live="polite"></p>
          <section id="speakers" class="speakers" aria-label="Speakers" hidden>
            <span class="label">Speakers</span>
            <ul id="speaker-list" class="speaker-list"></ul>
          </section>
          <ol id="transcript" class="transcript" aria-label="Transcript: choose a line to play from it"></ol>
          <details class="manage">
            <summary>Rename, tags, summary, export, delete</summary>
            <form id="rename-form" class="inline">
              <label for="rename-input">Name</label>
              <input id="rename-input" type="text" maxlength="200" required>
              <button type="submit">Rename</button>
            </form>
            <div class="tags-editor">
              <span class="label">Tags</span>
              <ul id="tag-list" class="chips"></ul>
              <form id="tag-form" class="inline">
                <label for="tag-input" class="hidden-label">Add tags (separated by commas)</label>
                <input id="tag-input" type="text" placeholder="Add tags, separated by commas" required>
                <button type="submit">Add</button>
              </form>
            </div>
            <div class="exports"><span class="label">Export</span> <span id="export-links"></span></div>
            <div class="inline"><button id="summarize-button" type="button">Summarize</button><span class="meta">a one-sentence summary and topic tags, made on this machine</span></div>
            <div class="inline"><button id="retranscribe-button" type="button">Transcribe again</button><progress id="retranscribe-progress" max="1" value="0" hidden aria-label="Transcribing again"></progress><span class="meta">with this machine's engine; the previous transcript is kept</span></div>
            <button id="delete-button" type="button" class="danger">Move to trash</button>
          </details>
        </section>
        \#(LivePage.section)
        </main>
        </body>
        </html>

        """#
    }

    static let css = #"""
    :root {
      color-scheme: light dark;
      --bg: #ffffff; --fg: #1b1b1f; --muted: #5f6368; --line: #e3e3e8; --card: #f6f6f9;
      --accent: #0b57d0; --accent-fg: #ffffff; --playing: #e8f0fe; --word: #ffd54f; --word-fg: #1b1b1f;
      --match: #fff1a8; --danger: #b3261e;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --bg: #121316; --fg: #e6e6ea; --muted: #a0a4ab; --line: #2c2e33; --card: #1c1d21;
        --accent: #8ab4f8; --accent-fg: #0b1a33; --playing: #1f2a3d; --word: #f9c74f; --word-fg: #121316;
        --match: #5c4d00; --danger: #f2b8b5;
      }
    }
    * { box-sizing: border-box; }
    html { -webkit-text-size-adjust: 100%; }
    body { margin: 0; background: var(--bg); color: var(--fg);
      font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
    a { color: var(--accent); }
    :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
    .skip { position: absolute; left: -999px; top: 0; background: var(--accent); color: var(--accent-fg); padding: .5rem; }
    .skip:focus { left: .5rem; }
    .hidden-label { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    .bar { position: sticky; top: 0; z-index: 2; background: var(--bg); border-bottom: 1px solid var(--line); padding: .6rem 1rem; }
    .brand { font-weight: 700; text-decoration: none; color: var(--fg); }
    main { max-width: 52rem; margin: 0 auto; padding: 1rem; }
    main:focus { outline: none; }
    h1 { font-size: 1.5rem; margin: .5rem 0 1rem; overflow-wrap: anywhere; }
    .controls { display: flex; gap: .5rem; flex-wrap: wrap; }
    input, select, button { font: inherit; color: inherit; }
    input[type=search], input[type=text], select { padding: .5rem .7rem; border: 1px solid var(--line); border-radius: .5rem; background: var(--card); }
    #search { flex: 1 1 14rem; min-width: 0; }
    button { padding: .45rem .9rem; border: 1px solid var(--line); border-radius: .5rem; background: var(--card); cursor: pointer; }
    button:disabled { opacity: .45; cursor: default; }
    button.danger { color: var(--danger); }
    .status { color: var(--muted); min-height: 1.5em; margin: .5rem 0; }
    .status.error { color: var(--danger); }
    .recordings { list-style: none; margin: 0; padding: 0; }
    .recordings > li { border-bottom: 1px solid var(--line); }
    .recordings > li > a.open { display: block; padding: .75rem .25rem; text-decoration: none; color: inherit; }
    .recordings > li > a.open:hover { background: var(--card); }
    .name { font-weight: 600; overflow-wrap: anywhere; }
    .meta { color: var(--muted); font-size: .9rem; font-variant-numeric: tabular-nums; }
    .summary { margin: .25rem 0 0; }
    .summary:empty { display: none; }
    .chips { display: inline-flex; flex-wrap: wrap; gap: .3rem; list-style: none; margin: 0; padding: 0; }
    .chip { display: inline-flex; align-items: center; gap: .2rem; font-size: .8rem; padding: .05rem .55rem; border-radius: 1rem; background: var(--card); border: 1px solid var(--line); }
    .chip button { padding: 0 .3rem; border: 0; background: none; }
    .places { list-style: none; margin: 0 0 .6rem; padding: 0 0 0 .25rem; }
    .places li { font-size: .92rem; }
    .places a { color: inherit; text-decoration: none; display: block; padding: .15rem .25rem; border-radius: .3rem; }
    .places a:hover { background: var(--card); }
    .place-time { color: var(--accent); font-variant-numeric: tabular-nums; margin-right: .4rem; }
    mark { background: var(--match); color: inherit; border-radius: .15rem; }
    .drop-zone { margin: .75rem 0; padding: .6rem .75rem; border: 2px dashed var(--line); border-radius: .75rem; display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
    .drop-zone.over { border-color: var(--accent); background: var(--playing); }
    .button { display: inline-block; padding: .45rem .9rem; border: 1px solid var(--line); border-radius: .5rem; background: var(--card); cursor: pointer; }
    #import-files:focus-visible + .meta, .drop-zone:focus-within .button { outline: 3px solid var(--accent); outline-offset: 2px; }
    .imports { list-style: none; margin: 0; padding: 0; width: 100%; }
    .imports:empty { display: none; }
    .imports li { display: grid; grid-template-columns: 1fr 8rem; gap: .5rem; align-items: center; font-size: .9rem; }
    .imports li .state { grid-column: 1 / -1; color: var(--muted); }
    .imports li.failed .state { color: var(--danger); }
    progress { width: 100%; }
    .pager { display: flex; justify-content: space-between; align-items: center; gap: .5rem; margin: 1rem 0; }
    .back { display: inline-block; margin: .25rem 0; }
    .player { position: sticky; top: 2.7rem; z-index: 1; background: var(--bg); padding: .5rem 0; }
    audio { width: 100%; }
    .transcript { list-style: none; margin: 0; padding: 0; }
    .transcript li { margin: 0; }
    .row { display: grid; grid-template-columns: 3.5rem 1fr; gap: .5rem; width: 100%; text-align: left; border: 0; border-radius: .5rem;
      background: none; padding: .45rem .5rem; line-height: 1.55; }
    .row:hover { background: var(--card); }
    .row.playing { background: var(--playing); }
    .row .time { color: var(--accent); font-variant-numeric: tabular-nums; }
    .row .words { overflow-wrap: anywhere; }
    /* Each speaker's rows carry their colour on the left edge; the first row of a turn names them. */
    .row[class*="voice-"] { border-left: 4px solid var(--voice); }
    .voice-1 { --voice: #1a73e8; } .voice-2 { --voice: #e37400; } .voice-3 { --voice: #188038; }
    .voice-4 { --voice: #a142f4; } .voice-5 { --voice: #d93025; } .voice-6 { --voice: #12a4af; }
    .row .speaker { display: block; font-weight: 600; color: var(--voice); }
    .speakers { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; margin: .5rem 0; }
    .speaker-list { display: flex; flex-wrap: wrap; gap: .5rem; list-style: none; margin: 0; padding: 0; }
    .speaker-form { display: flex; align-items: center; gap: .35rem; margin: 0; }
    .speaker-form input { width: 9rem; }
    .swatch { width: .9rem; height: .9rem; border-radius: 50%; background: var(--voice); display: inline-block; }
    .word.spoken { background: var(--word); color: var(--word-fg); border-radius: .2rem; box-shadow: 0 0 0 .12rem var(--word); }
    .manage { margin: 1.5rem 0; border-top: 1px solid var(--line); padding-top: .75rem; }
    .manage > summary { cursor: pointer; font-weight: 600; }
    .manage > * + * { margin-top: .75rem; }
    .inline { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
    .inline input { flex: 1 1 12rem; min-width: 0; }
    .label { font-weight: 600; margin-right: .5rem; }
    .exports a { margin-right: .6rem; }
    @media (max-width: 30rem) {
      main { padding: .75rem; }
      .row { grid-template-columns: 3rem 1fr; }
    }
    @media (prefers-reduced-motion: reduce) { * { scroll-behavior: auto !important; } }

    """#

    /// The one helper both pages' scripts build nodes with: `element("li", {class: "row", text: "…",
    /// "aria-label": "…"}, child…)` (text as text, never as HTML).
    static let elementFunction = #"""
    function element(tag, attributes, ...children) {
      const node = document.createElement(tag);
      for (const [name, value] of Object.entries(attributes || {})) {
        if (name === "class") node.className = value;
        else if (name === "text") node.textContent = value;
        else if (name.startsWith("data-") || name.startsWith("aria-")) node.setAttribute(name, value);
        else node[name] = value;
      }
      for (const child of children) if (child != null) node.append(child);
      return node;
    }
    """#

    static let javascript = #"""
    "use strict";
    // Draws what the API answers (docs/serve.md). Every rule (rows, words, when the highlight
    // moves, dates, durations, pages) is computed by the server's core; this script only looks up
    // the last highlight step at or before the audio's current time.
    (() => {
      const token = document.querySelector('meta[name="lt-token"]').content;
      const $ = (id) => document.getElementById(id);
      const pageSize = 20;
      const state = { offset: 0, query: "", tag: "", searchSerial: 0, recording: null, steps: [], current: null, timer: 0 };

      \#(WebPage.elementFunction)

      async function api(path, options) {
        const init = Object.assign({ credentials: "same-origin", headers: {} }, options || {});
        if (init.method && init.method !== "GET") {
          init.headers["X-LiveTranscriber-Token"] = token;
          if (init.body !== undefined) init.headers["Content-Type"] = "application/json";
        }
        const response = await fetch(path, init);
        const body = await response.json().catch(() => ({ error: "the server's answer could not be read" }));
        if (!response.ok) throw new Error(body.error || ("HTTP " + response.status));
        return body;
      }

      function say(id, text, isError) {
        const node = $(id);
        node.textContent = text || "";
        node.classList.toggle("error", !!isError);
      }

      function tagChips(tags) {
        if (!tags || !tags.length) return null;
        return element("ul", { class: "chips", "aria-label": "Tags" }, ...tags.map((tag) => element("li", { class: "chip", text: tag })));
      }

      function recordingLink(recording, seconds) {
        return "#/recording/" + encodeURIComponent(recording.id) + (seconds != null ? "/t/" + seconds : "");
      }

      // MARK: Library

      function libraryItem(recording, places, moreSegments) {
        const meta = [recording.date, recording.durationText].join(" · ");
        const item = element("li", { class: "recording", "data-id": recording.id },
          element("a", { class: "open", href: recordingLink(recording) },
            element("div", { class: "name", text: recording.name }),
            element("div", { class: "meta", text: meta }),
            tagChips(recording.tags),
            recording.summary ? element("p", { class: "summary", text: recording.summary }) : null));
        if (places && places.length) {
          const list = element("ul", { class: "places", "aria-label": "Matching places" });
          for (const place of places) {
            const snippet = element("span", { class: "snippet" },
              ...place.runs.map((run) => run.match ? element("mark", { text: run.text }) : document.createTextNode(run.text)));
            const label = place.time ? element("span", { class: "place-time", text: place.time }) : element("span", { class: "place-time", text: place.field });
            list.append(element("li", {}, element("a", { href: recordingLink(recording, place.start) }, label, snippet)));
          }
          if (moreSegments > 0) list.append(element("li", { class: "meta", text: "… " + moreSegments + " more matching " + (moreSegments === 1 ? "segment" : "segments") }));
          item.append(list);
        }
        return item;
      }

      async function loadTags() {
        try {
          const answer = await api("/api/tags");
          const select = $("tag-filter");
          const chosen = select.value;
          select.replaceChildren(element("option", { value: "", text: "All tags" }),
            ...answer.tags.map((tag) => element("option", { value: tag, text: tag })));
          select.value = chosen;
        } catch (error) { say("library-status", error.message, true); }
      }

      async function loadLibrary() {
        const serial = ++state.searchSerial;
        const query = state.query.trim();
        const params = new URLSearchParams({ offset: state.offset, limit: pageSize });
        let path;
        if (state.tag) params.set("tag", state.tag);
        if (query) { params.set("q", query); path = "/api/search?" + params; }
        else path = "/api/recordings?" + params;
        try {
          const answer = await api(path);
          if (serial !== state.searchSerial) return;  // a newer search is under way
          const list = $("recordings");
          if (query) {
            const shown = answer.results;
            list.replaceChildren(...shown.map((r) => libraryItem(r.recording, r.places, r.moreSegments)));
            say("library-status", shown.length ? "" : (state.offset ? "No more matches." : "No matches for “" + query + "”."));
          } else {
            list.replaceChildren(...answer.recordings.map((r) => libraryItem(r)));
            say("library-status", answer.recordings.length ? "" : (state.offset ? "No more recordings." : (state.tag ? "No recordings match." : "No recordings yet. Make one with ‘livetranscriber record’.")));
          }
          $("page-label").textContent = answer.page.label;
          $("previous-page").disabled = answer.page.previous == null;
          $("next-page").disabled = answer.page.next == null;
        } catch (error) {
          if (serial === state.searchSerial) say("library-status", error.message, true);
        }
      }

      $("search").addEventListener("input", () => {
        clearTimeout(state.timer);
        state.timer = setTimeout(() => { state.query = $("search").value; state.offset = 0; loadLibrary(); }, 120);
      });
      $("tag-filter").addEventListener("change", () => { state.tag = $("tag-filter").value; state.offset = 0; loadLibrary(); });
      $("previous-page").addEventListener("click", () => { state.offset = Math.max(0, state.offset - pageSize); loadLibrary(); });
      $("next-page").addEventListener("click", () => { state.offset += pageSize; loadLibrary(); });

      // MARK: Import

      // Uploads one file (XMLHttpRequest, for its upload progress); the server imports it as
      // 'import' does and answers when it is in the library.
      function importFile(file) {
        const bar = element("progress", { max: 1, value: 0 });
        const state = element("span", { class: "state", text: "Uploading…" });
        const item = element("li", {}, element("span", { class: "name", text: file.name }), bar, state);
        $("imports").append(item);
        return new Promise((resolve) => {
          const request = new XMLHttpRequest();
          request.open("POST", "/api/import?" + new URLSearchParams({ name: file.name }));
          request.setRequestHeader("X-LiveTranscriber-Token", token);
          request.upload.onprogress = (event) => { if (event.lengthComputable) bar.value = event.loaded / event.total; };
          request.upload.onload = () => { bar.removeAttribute("value"); state.textContent = "Transcribing…"; };
          request.onload = () => {
            let body = {};
            try { body = JSON.parse(request.responseText); } catch (error) { body = { error: "the server's answer could not be read" }; }
            if (request.status === 200) {
              bar.value = 1;
              state.textContent = "Imported as “" + body.recording.name + "” (" + body.recording.durationText + ", " + body.segments + (body.segments === 1 ? " segment)." : " segments).");
            } else {
              item.classList.add("failed");
              state.textContent = body.error || ("HTTP " + request.status);
            }
            resolve();
          };
          request.onerror = () => { item.classList.add("failed"); state.textContent = "The upload failed."; resolve(); };
          request.send(file);
        });
      }

      async function importFiles(files) {
        for (const file of files) await importFile(file);
        loadTags();
        loadLibrary();
      }

      $("import-files").addEventListener("change", () => { importFiles(Array.from($("import-files").files)); $("import-files").value = ""; });
      const dropZone = $("library-view");
      dropZone.addEventListener("dragover", (event) => { event.preventDefault(); $("drop-zone").classList.add("over"); });
      dropZone.addEventListener("dragleave", () => $("drop-zone").classList.remove("over"));
      dropZone.addEventListener("drop", (event) => {
        event.preventDefault();
        $("drop-zone").classList.remove("over");
        importFiles(Array.from(event.dataTransfer.files));
      });

      // MARK: Recording

      const player = $("player");

      function drawRecording(answer) {
        const recording = answer.recording;
        state.recording = recording;
        document.title = recording.name + " · LiveTranscriber";
        $("recording-title").textContent = recording.name;
        $("recording-meta").textContent = [recording.date, recording.durationText, recording.language].join(" · ");
        $("recording-summary").textContent = recording.summary || "";
        $("rename-input").value = recording.name;
        drawTags(recording);
        $("export-links").replaceChildren(...answer.exports.map((format) =>
          element("a", { href: "/api/recordings/" + encodeURIComponent(recording.id) + "/export/" + format, download: "", text: format.toUpperCase() })));
        drawSpeakers(recording);
        const rows = answer.transcript.rows.map((row) => {
          const words = element("span", { class: "words" });
          if (row.speakerName) words.append(element("span", { class: "speaker", text: row.speakerName }));
          row.words.forEach((word, index) => {
            if (index) words.append(" ");
            words.append(element("span", { class: "word", text: word }));
          });
          const button = element("button", { type: "button", class: "row" + (row.voice ? " " + voiceClass(row.voice) : ""), "data-start": row.start },
            element("span", { class: "time", text: row.time }), words);
          button.setAttribute("aria-label", row.time + " " + (row.speakerName ? row.speakerName + ": " : "") + row.words.join(" "));
          button.addEventListener("click", () => seek(row.start));
          return element("li", {}, button);
        });
        $("transcript").replaceChildren(...rows);
        say("recording-status", rows.length ? "" : "This recording has no transcript.");
        state.steps = answer.transcript.steps;
        state.current = null;
        highlight();
      }

      // Six colours, reused past the sixth speaker.
      function voiceClass(number) { return "voice-" + (((number - 1) % 6) + 1); }

      // The recording's speakers, each with its colour and a field to name it.
      function drawSpeakers(recording) {
        const speakers = recording.speakers || [];
        $("speakers").hidden = speakers.length === 0;
        $("speaker-list").replaceChildren(...speakers.map((speaker) => {
          const number = parseInt(speaker.id.slice(1), 10) || 1;
          const input = element("input", { type: "text", maxLength: 200, value: speaker.name || "", placeholder: "Speaker " + number,
                                           "aria-label": "Name of speaker " + speaker.id });
          const form = element("form", { class: "speaker-form " + voiceClass(number), "data-speaker": speaker.id },
            element("span", { class: "swatch" }), input, element("button", { type: "submit", text: "Rename" }));
          form.addEventListener("submit", (event) => { event.preventDefault(); renameSpeaker(speaker.id, input.value); });
          return element("li", {}, form);
        }));
      }

      async function renameSpeaker(speaker, name) {
        const id = state.recording.id;
        try {
          await api("/api/recordings/" + encodeURIComponent(id) + "/speakers", { method: "POST", body: JSON.stringify({ speaker, name }) });
          const answer = await api("/api/recordings/" + encodeURIComponent(id));
          drawRecording(answer);
          say("recording-status", "Speaker " + speaker + " is now " + (name.trim() || "unnamed") + ".");
        } catch (error) { say("recording-status", error.message, true); }
      }

      function drawTags(recording) {
        $("tag-list").replaceChildren(...recording.tags.map((tag) => {
          const remove = element("button", { type: "button", text: "×" });
          remove.setAttribute("aria-label", "Remove the tag " + tag);
          remove.addEventListener("click", () => changeTags({ remove: [tag] }));
          return element("li", { class: "chip" }, tag, remove);
        }));
      }

      function seek(seconds) {
        player.currentTime = seconds;
        highlight();
      }

      // The step in force at the audio's current time: the last one that has started.
      function stepAt(seconds) {
        const steps = state.steps;
        let low = 0, high = steps.length;
        while (low < high) {
          const middle = (low + high) >> 1;
          if (steps[middle].start <= seconds) low = middle + 1; else high = middle;
        }
        return low === 0 ? null : steps[low - 1];
      }

      function highlight() {
        const step = stepAt(player.currentTime);
        const key = step ? step.row + ":" + (step.word == null ? "" : step.word) : "";
        if (key === state.current) return;
        const previousRow = state.current ? state.current.split(":")[0] : null;
        state.current = key;
        const list = $("transcript");
        for (const node of list.querySelectorAll(".row.playing")) { node.classList.remove("playing"); node.removeAttribute("aria-current"); }
        for (const node of list.querySelectorAll(".word.spoken")) node.classList.remove("spoken");
        if (!step) return;
        const row = list.children[step.row] && list.children[step.row].firstElementChild;
        if (!row) return;
        row.classList.add("playing");
        row.setAttribute("aria-current", "true");
        if (step.word != null) {
          const word = row.querySelectorAll(".word")[step.word];
          if (word) word.classList.add("spoken");
        }
        if (String(step.row) !== previousRow && !player.paused) {
          const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
          row.scrollIntoView({ block: "center", behavior: smooth ? "smooth" : "auto" });
        }
      }

      function follow() {
        highlight();
        if (!player.paused) requestAnimationFrame(follow);
      }
      player.addEventListener("play", () => requestAnimationFrame(follow));
      player.addEventListener("timeupdate", highlight);
      player.addEventListener("seeked", highlight);

      async function openRecording(id, seconds) {
        say("recording-status", "Loading…");
        try {
          const answer = await api("/api/recordings/" + encodeURIComponent(id));
          if (answer.audioMissing) player.removeAttribute("src");
          else player.src = "/api/recordings/" + encodeURIComponent(id) + "/audio";
          drawRecording(answer);
          if (answer.audioMissing) say("recording-status", "This recording can be read but not played: " + answer.audioMissing + ".", true);
          if (seconds != null) seek(seconds);
          $("recording-title").focus();
          // A refinement or transcribe-again under way (a recording just saved from the Live page): followed.
          const job = await api("/api/recordings/" + encodeURIComponent(id) + "/retranscribe").then((a) => a.job, () => null);
          if (job && job.state === "running" && state.recording && state.recording.id === id) followRetranscription(id, job);
        } catch (error) {
          $("recording-title").textContent = "Recording";
          $("transcript").replaceChildren();
          say("recording-status", error.message, true);
        }
      }

      async function changeTags(change) {
        try {
          const answer = await api("/api/recordings/" + encodeURIComponent(state.recording.id) + "/tags", { method: "POST", body: JSON.stringify(change) });
          state.recording = answer.recording;
          drawTags(answer.recording);
          say("recording-status", "Tags saved.");
          loadTags();
        } catch (error) { say("recording-status", error.message, true); }
      }

      $("rename-form").addEventListener("submit", async (event) => {
        event.preventDefault();
        try {
          const answer = await api("/api/recordings/" + encodeURIComponent(state.recording.id) + "/name", { method: "POST", body: JSON.stringify({ name: $("rename-input").value }) });
          state.recording = answer.recording;
          $("recording-title").textContent = answer.recording.name;
          document.title = answer.recording.name + " · LiveTranscriber";
          say("recording-status", "Renamed.");
        } catch (error) { say("recording-status", error.message, true); }
      });
      $("tag-form").addEventListener("submit", (event) => {
        event.preventDefault();
        const text = $("tag-input").value;
        $("tag-input").value = "";
        changeTags({ add: [text] });
      });
      $("summarize-button").addEventListener("click", async () => {
        const button = $("summarize-button");
        button.disabled = true;
        say("recording-status", "Summarizing…");
        try {
          const answer = await api("/api/recordings/" + encodeURIComponent(state.recording.id) + "/summarize", { method: "POST" });
          state.recording = answer.recording;
          $("recording-summary").textContent = answer.recording.summary || "";
          drawTags(answer.recording);
          say("recording-status", "Summary saved" + (answer.tags.length ? "; tags: " + answer.tags.join(", ") + "." : "."));
          loadTags();
        } catch (error) { say("recording-status", error.message, true); }
        button.disabled = false;
      });
      // Transcribe again (the button), or the refinement of a recording just saved from the Live
      // page (started by the server): the job's progress read twice a second until it is done.
      async function followRetranscription(id, job) {
        if (state.following === id) return;  // one loop per job, however often the screen opens
        state.following = id;
        const path = "/api/recordings/" + encodeURIComponent(id) + "/retranscribe";
        const button = $("retranscribe-button"), bar = $("retranscribe-progress");
        const doing = job.refining ? "Refining the transcript… " : "Transcribing again… ";
        button.disabled = true;
        try {
          bar.hidden = false;
          while (job.state === "running") {
            bar.value = job.fraction;
            if (state.recording && state.recording.id === id) say("recording-status", doing + Math.floor(job.fraction * 100) + "%");
            await new Promise((resolve) => setTimeout(resolve, 500));
            job = (await api(path)).job;
          }
          bar.value = job.fraction;
          if (job.state === "failed") throw new Error(job.error);
          if (state.recording && state.recording.id === id) {
            const answer = await api("/api/recordings/" + encodeURIComponent(id));
            drawRecording(answer);
            say("recording-status", (job.refining ? "Refined: " : "Transcribed again: ") + job.segments
              + (job.segments === 1 ? " segment." : " segments."));
          }
        } catch (error) { say("recording-status", error.message, true); }
        bar.hidden = true;
        button.disabled = false;
        state.following = null;
      }
      $("retranscribe-button").addEventListener("click", async () => {
        const id = state.recording.id;
        $("retranscribe-button").disabled = true;
        try {
          const job = (await api("/api/recordings/" + encodeURIComponent(id) + "/retranscribe", { method: "POST" })).job;
          await followRetranscription(id, job);
        } catch (error) {
          say("recording-status", error.message, true);
          $("retranscribe-button").disabled = false;
        }
      });
      $("delete-button").addEventListener("click", async () => {
        const recording = state.recording;
        if (!recording || !confirm("Move “" + recording.name + "” to the trash?")) return;
        try {
          await api("/api/recordings/" + encodeURIComponent(recording.id), { method: "DELETE" });
          location.hash = "#/";
        } catch (error) { say("recording-status", error.message, true); }
      });

      // MARK: Screens

      function route() {
        const match = /^#\/recording\/([^/]+)(?:\/t\/([0-9.]+))?$/.exec(location.hash);
        const live = location.hash === "#/live";
        $("library-view").hidden = !!match || live;
        $("recording-view").hidden = !match;
        $("live-view").hidden = !live;
        if (live) {
          player.pause();
          document.title = "Live · LiveTranscriber";
        } else if (match) {
          openRecording(decodeURIComponent(match[1]), match[2] != null ? Number(match[2]) : null);
        } else {
          player.pause();
          player.removeAttribute("src");
          document.title = "LiveTranscriber";
          loadTags();
          loadLibrary();
        }
      }
      $("recording-title").tabIndex = -1;
      window.addEventListener("hashchange", route);
      route();
    })();

    """#
}
