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

  /* {{element.js}} */

  function clock(seconds) {
    const total = seconds > 0 ? Math.floor(Math.round(seconds * 1000) / 1000) : 0;
    const hours = Math.floor(total / 3600), minutes = Math.floor((total % 3600) / 60), secs = total % 60;
    const two = (value) => (value < 10 ? "0" : "") + value;
    return hours > 0 ? hours + ":" + two(minutes) + ":" + two(secs) : minutes + ":" + two(secs);
  }

  function tick() {
    for (const node of document.querySelectorAll(".live-timer[data-from]")) {
      setText(node, clock((Date.now() - Date.parse(node.dataset.from)) / 1000));
    }
  }

  const previewNames = [["lockScreen", "Lock Screen"], ["expandedIsland", "Dynamic Island, expanded"],
                        ["compactIsland", "Dynamic Island, compact"], ["minimalIsland", "Dynamic Island, minimal"]];

  // Each card is drawn once and then changed in place, field by field, as updates come (one
  // a second while a clock ticks): a node replaced every second would scroll the final lines
  // back to the top, drop a selection being made, and take the keyboard focus away.
  const cards = new Map();

  function setText(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }

  function finalLine(line) {
    return element("li", {}, element("span", { class: "time", text: line.time }), element("span", { class: "text", text: line.text }));
  }

  function newCard(card) {
    const parts = {
      dot: element("span", { class: "live-dot", "aria-hidden": "true" }),
      status: element("span", { class: "live-status" }),
      timer: element("span", { class: "live-timer", "aria-label": "Elapsed time" }),
      name: element("h2", {}),
      interim: element("p", { class: "live-interim" }),
      finals: element("ol", { class: "live-finals", "aria-label": "Final lines, newest first" }),
      meta: element("p", { class: "meta live-meta" }),
      link: null, previews: null, shownFinals: [],
    };
    parts.node = element("article", { class: "live-card", "data-id": card.id },
      element("div", { class: "live-head" }, parts.dot, parts.status, parts.timer),
      parts.name, parts.interim, parts.finals, parts.meta);
    return parts;
  }

  function updateCard(parts, item) {
    const card = item.card;
    parts.node.dataset.phase = card.phase;
    parts.dot.style.backgroundColor = card.dotHex;
    setText(parts.status, card.status);
    if (card.timer.ticking && card.timer.from) {
      parts.timer.dataset.from = card.timer.from;
    } else {
      delete parts.timer.dataset.from;
      setText(parts.timer, card.timer.text);
    }
    if (!parts.timer.textContent) parts.timer.textContent = card.timer.text;
    setText(parts.name, card.name || "New recording");
    setText(parts.interim, card.interim || "");
    // Finals only grow, newest first: the new ones go on top; anything else redraws the list.
    const shown = parts.shownFinals, count = card.finals.length;
    const kept = count >= shown.length && card.finals.slice(count - shown.length)
      .every((line, index) => line.time === shown[index].time && line.text === shown[index].text);
    if (!kept) parts.finals.replaceChildren();
    const fresh = kept ? card.finals.slice(0, count - shown.length) : card.finals;
    if (fresh.length) parts.finals.prepend(...fresh.map(finalLine));
    parts.shownFinals = card.finals;
    setText(parts.meta, [card.language, card.segmentCountText].filter((part) => part).join(" · "));
    // A link only to a recording that was saved; an interrupted one says what became of it.
    if ((card.saved || card.note) && !parts.link) {
      parts.link = card.saved
        ? element("p", {}, element("a", { href: "#/recording/" + encodeURIComponent(card.id), text: "Open the saved recording" }))
        : element("p", { class: "meta live-note", text: card.note });
      parts.meta.after(parts.link);
    }
    if (item.previews) {
      if (!parts.previews) {
        parts.images = {};
        parts.previews = element("div", { class: "live-previews", "aria-label": "The Live Activity on an iPhone" },
          ...previewNames.map(([key, label]) => {
            parts.images[key] = element("img", { alt: label + " preview", class: "preview-" + key });
            return element("figure", {}, parts.images[key], element("figcaption", { text: label }));
          }));
        parts.node.append(parts.previews);
      }
      for (const [key] of previewNames) {
        const source = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(item.previews[key]);
        if (parts.images[key].getAttribute("src") !== source) parts.images[key].src = source;
      }
    }
  }

  function draw(answer) {
    const container = $("live-cards");
    const ids = new Set(answer.recordings.map((item) => item.card.id));
    for (const [id, parts] of cards) {
      if (!ids.has(id)) { parts.node.remove(); cards.delete(id); }
    }
    answer.recordings.forEach((item, index) => {
      let parts = cards.get(item.card.id);
      if (!parts) { parts = newCard(item.card); cards.set(item.card.id, parts); }
      updateCard(parts, item);
      // Moved only when out of place: moving a node takes the focus from what is in it.
      if (container.children[index] !== parts.node) container.insertBefore(parts.node, container.children[index] || null);
    });
    setText($("live-status"), answer.recordings.length ? "" : "Nothing is being recorded in this library.");
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
