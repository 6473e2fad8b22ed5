// The teacher's pages: time fields shown and sent in the viewer's time zone, and the print button
// of the password slips. Plain DOM, no dependencies.
"use strict";
(function () {
  function pad(n) { return String(n).padStart(2, "0"); }
  function localValue(d) {  // a Date as a datetime-local value in this browser's time zone
    return d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate()) + "T" + pad(d.getHours()) + ":" + pad(d.getMinutes());
  }
  document.addEventListener("DOMContentLoaded", function () {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
    document.querySelectorAll("input[data-time-zone]").forEach(function (input) {
      const sentBack = input.value && input.value !== "UTC";  // a refused form keeps the zone it was typed in
      if (!sentBack) input.value = zone;
    });
    document.querySelectorAll("[data-zone-name]").forEach(function (el) {
      const input = document.querySelector("input[data-time-zone]");
      el.textContent = input ? input.value : zone;
    });
    document.querySelectorAll("input[data-utc]").forEach(function (input) {  // stored UTC → local
      if (!input.value) return;
      const d = new Date(input.value + ":00Z");
      if (!isNaN(d)) input.value = localValue(d);
    });
    document.querySelectorAll("button[data-print]").forEach(function (b) {
      b.addEventListener("click", function () { window.print(); });
    });
  });
})();
