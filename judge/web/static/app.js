// classjudge pages: local times, countdowns, copy buttons, the language guessed from a file's
// extension, and the projector's scrolling. Plain DOM, no dependencies.
"use strict";
(function () {
  function pad(n) { return String(n).padStart(2, "0"); }
  function left(ms) {
    if (ms <= 0) return "0:00:00";
    const s = Math.floor(ms / 1000), d = Math.floor(s / 86400);
    const hms = Math.floor(s % 86400 / 3600) + ":" + pad(Math.floor(s % 3600 / 60)) + ":" + pad(s % 60);
    return d ? d + " d " + hms : hms;
  }
  function localTimes(root) {
    root.querySelectorAll("time[data-local]").forEach(function (t) {
      const d = new Date(t.getAttribute("datetime"));
      if (!isNaN(d)) t.textContent = d.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
    });
  }
  function tick() {
    const now = Date.now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      el.textContent = left(new Date(el.dataset.countdown).getTime() - now);
    });
  }
  // "try again in N s": the .wait inside counts down; at zero the whole line becomes its data-done
  // sentence and the button it names is enabled
  function waits() {
    document.querySelectorAll("[data-wait]").forEach(function (el) {
      const end = Date.now() + 1000 * Number(el.dataset.wait);
      const button = el.dataset.enables && document.getElementById(el.dataset.enables);
      const count = el.querySelector(".wait") || el;
      const step = function () {
        const s = Math.max(0, Math.ceil((end - Date.now()) / 1000));
        if (s > 0) { count.textContent = s + " s"; setTimeout(step, 250); return; }
        el.textContent = el.dataset.done || "now";
        if (button) button.disabled = false;
      };
      step();
    });
  }
  function copyButtons() {
    let n = 0;  // the statement's own examples get a copy button each, like the sample files
    document.querySelectorAll(".statement pre").forEach(function (pre) {
      pre.id = pre.id || "statement-pre-" + (++n);
      const b = document.createElement("button");
      b.type = "button"; b.className = "copy"; b.dataset.copy = pre.id; b.textContent = "Copy";
      b.setAttribute("aria-label", "Copy this example");
      pre.before(b);
    });
    document.querySelectorAll("button[data-copy]").forEach(function (b) {
      b.addEventListener("click", function () {
        const text = document.getElementById(b.dataset.copy).textContent;
        navigator.clipboard.writeText(text).then(function () { b.textContent = "Copied"; },
                                                 function () { b.textContent = "Select and copy"; });
      });
    });
  }
  // a chosen file picks its language by extension; when none fits, the note beside it says so and
  // names the accepted ones (as the server would: pages.unguessed_language), and the list asks for one
  function languageFromFile() {
    document.querySelectorAll("input[type=file][data-language-select]").forEach(function (input) {
      const select = document.getElementById(input.dataset.languageSelect);
      const note = document.getElementById(input.dataset.languageNote);
      function guess() {
        const file = input.files.length ? input.files[0].name : "";
        const name = file.toLowerCase();
        let found = !file;
        for (const option of select.options) {
          const exts = (option.dataset.extensions || "").split(" ").filter(Boolean);
          if (name && exts.some(function (e) { return name.endsWith(e); })) {
            select.value = option.value; found = true; break;
          }
        }
        let message = "";
        if (!found) {
          const dot = file.lastIndexOf(".");
          const ending = dot > 0 ? "its extension " + file.slice(dot) : "its name, which has no extension";
          message = "The language of " + file + " cannot be guessed from " + ending + ": choose it in the list.";
          select.value = "";
        }
        select.setCustomValidity(message);
        if (note) { note.textContent = message + " " + note.dataset.accepted; note.hidden = !message; }
      }
      input.addEventListener("change", guess);
      select.addEventListener("change", function () { if (select.value) select.setCustomValidity(""); });
    });
  }
  function autoscroll() {  // projector: down slowly, pause at the end, back to the top
    document.querySelectorAll(".autoscroll").forEach(function (box) {
      let pause = 0;
      setInterval(function () {
        if (pause > 0) { pause--; return; }
        if (box.scrollTop + box.clientHeight >= box.scrollHeight - 1) { box.scrollTop = 0; pause = 60; return; }
        box.scrollTop += 2;
      }, 50);
    });
  }
  function fullscreenButtons() {  // the projector: the whole screen, the button hidden while there
    document.querySelectorAll("[data-fullscreen]").forEach(function (b) {
      b.addEventListener("click", function () { document.documentElement.requestFullscreen(); });
      document.addEventListener("fullscreenchange", function () { b.hidden = !!document.fullscreenElement; });
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    fullscreenButtons();
    const notice = document.querySelector("[data-scroll-here]");  // a refused submission: show why
    if (notice) notice.scrollIntoView({ block: "center" });
    localTimes(document); tick(); setInterval(tick, 1000); waits(); copyButtons(); languageFromFile(); autoscroll();
  });
  document.addEventListener("htmx:afterSwap", function (e) { localTimes(e.target); });
})();
