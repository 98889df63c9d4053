"use strict";
// Draws what the API answers (docs/serve.md). Every rule (rows, words, when the highlight
// moves, dates, durations, pages) is computed by the server's core; this script only looks up
// the last highlight step at or before the audio's current time.
(() => {
  const token = document.querySelector('meta[name="lt-token"]').content;
  const $ = (id) => document.getElementById(id);
  const pageSize = 20;
  const state = { offset: 0, query: "", tag: "", searchSerial: 0, recording: null, steps: [], current: null, timer: 0,
                  answer: null, translated: false };

  /* {{element.js}} */

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
    if (!state.recording || state.recording.id !== recording.id) state.translated = false;  // each recording opens on its transcript
    state.recording = recording;
    state.answer = answer;
    document.querySelector(".manage").hidden = false;
    document.querySelector(".player").hidden = false;
    document.title = recording.name + " · LiveTranscriber";
    $("recording-title").textContent = recording.name;
    $("recording-meta").textContent = [recording.date, recording.durationText, recording.language].join(" · ");
    $("recording-summary").textContent = recording.summary || "";
    const notes = (recording.notes || []).concat(answer.translationUnreadable
      ? ["Its translation cannot be read (" + answer.translationUnreadable + "); Translate into English makes it again."] : []);
    $("recording-notes").hidden = notes.length === 0;
    $("recording-notes").replaceChildren(...notes.map((note) => element("li", { text: note })));
    $("rename-input").value = recording.name;
    drawTags(recording);
    // The transcript, or its English translation when there is one and it is chosen.
    const translated = state.translated && !!answer.translation;
    $("transcript-choice").hidden = !answer.translation;
    $("show-original").setAttribute("aria-pressed", String(!translated));
    $("show-translation").setAttribute("aria-pressed", String(translated));
    const transcript = translated ? answer.translation.transcript : answer.transcript;
    const which = translated ? "?transcript=translated" : "";
    $("export-links").replaceChildren(...answer.exports.map((format) =>
      element("a", { href: "/api/recordings/" + encodeURIComponent(recording.id) + "/export/" + format + which, download: "",
                     text: format.toUpperCase() + (translated ? " (English)" : "") })));
    drawSpeakers(recording);
    const rows = transcript.rows.map((row) => {
      const words = element("span", { class: "words" });
      if (row.speakerName) words.append(element("span", { class: "speaker", text: row.speakerName }));
      if (row.language) words.append(element("span", { class: "language", lang: row.language, text: row.language }), " ");
      row.words.forEach((word, index) => {
        if (index) words.append(" ");
        words.append(element("span", { class: "word", text: word }));
      });
      const button = element("button", { type: "button", class: "row" + (row.voice ? " " + voiceClass(row.voice) : ""), "data-start": row.start },
        element("span", { class: "time", text: row.time }), words);
      button.setAttribute("aria-label", row.time + " " + (row.speakerName ? row.speakerName + ": " : "")
        + (row.language ? "(" + row.language + ") " : "") + row.words.join(" "));
      button.addEventListener("click", () => seek(row.start));
      return element("li", {}, button);
    });
    $("transcript").replaceChildren(...rows);
    $("transcript").lang = translated ? answer.translation.language : recording.language;
    say("recording-status", rows.length ? "" : "This recording has no transcript.");
    state.steps = transcript.steps;
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
      clearRecording();
      say("recording-status", error.message, true);
    }
  }

  // No recording shown (its id names none): nothing of the one shown before stays, so no button
  // can act on it.
  function clearRecording() {
    state.recording = null;
    state.answer = null;
    state.steps = [];
    player.removeAttribute("src");
    player.load();
    document.title = "LiveTranscriber";
    $("recording-title").textContent = "Recording";
    for (const id of ["recording-meta", "recording-summary"]) $(id).textContent = "";
    for (const id of ["recording-notes", "speaker-list", "transcript", "export-links", "tag-list"]) $(id).replaceChildren();
    for (const id of ["recording-notes", "speakers", "transcript-choice"]) $(id).hidden = true;
    document.querySelector(".manage").hidden = true;
    document.querySelector(".player").hidden = true;
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
  $("show-original").addEventListener("click", () => { state.translated = false; if (state.answer) drawRecording(state.answer); });
  $("show-translation").addEventListener("click", () => { state.translated = true; if (state.answer) drawRecording(state.answer); });

  // Transcribe again or Translate (the buttons), or the refinement of a recording just saved from
  // the Live page (started by the server): the job's progress read twice a second until it is done.
  async function followRetranscription(id, job) {
    if (state.following === id) return;  // one loop per job, however often the screen opens
    state.following = id;
    const path = "/api/recordings/" + encodeURIComponent(id) + "/retranscribe";
    const buttons = [$("retranscribe-button"), $("translate-button")], bar = $("retranscribe-progress");
    const doing = job.translating ? "Translating into English… " : job.refining ? "Refining the transcript… " : "Transcribing again… ";
    for (const button of buttons) button.disabled = true;
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
        if (job.translating) state.translated = true;  // the translation just made is shown
        const answer = await api("/api/recordings/" + encodeURIComponent(id));
        drawRecording(answer);
        const done = job.translating ? "Translated into English: " : job.refining ? "Refined: " : "Transcribed again: ";
        say("recording-status", done + job.segments + (job.segments === 1 ? " segment." : " segments."));
      }
    } catch (error) { say("recording-status", error.message, true); }
    bar.hidden = true;
    for (const button of buttons) button.disabled = false;
    state.following = null;
  }
  // A job the user asks for: `body` is the POST's JSON ("" for a plain transcribe-again).
  async function startJob(button, body) {
    const id = state.recording.id;
    button.disabled = true;
    try {
      const job = (await api("/api/recordings/" + encodeURIComponent(id) + "/retranscribe", { method: "POST", body })).job;
      await followRetranscription(id, job);
    } catch (error) {
      say("recording-status", error.message, true);
      button.disabled = false;
    }
  }
  $("retranscribe-button").addEventListener("click", () => startJob($("retranscribe-button"), undefined));
  $("translate-button").addEventListener("click", () => startJob($("translate-button"), JSON.stringify({ translate: true })));
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
