// The new-tournament form: offers only the formats that fit the chosen game (solo games play
// scored tournaments, two-player games the others) and shows only the options the chosen
// format reads. Without it the form works the same, and the server says what does not fit.
"use strict";
(function () {
  const data = document.getElementById("tournament-form-data");
  const game = document.getElementById("id_game");
  const format = document.getElementById("id_format");
  if (!data || !game || !format) return;
  const solo = new Set(JSON.parse(data.textContent).solo);
  const uses = {
    rounds: ["swiss", "scored"],
    third_place: ["single_elimination"],
    bracket_reset: ["double_elimination"],
  };

  function fits(option) {
    return (option.value === "scored") === solo.has(game.value);
  }

  function update() {
    const options = Array.from(format.options);
    options.forEach((o) => { o.disabled = !fits(o); o.hidden = !fits(o); });
    format.querySelectorAll("optgroup").forEach((group) => {
      group.hidden = !Array.from(group.children).some(fits);
    });
    if (!fits(format.selectedOptions[0])) {
      const first = options.find(fits);
      if (first) format.value = first.value;
    }
    Object.entries(uses).forEach(([name, formats]) => {
      const field = document.getElementById("field-" + name);
      if (field) field.hidden = !formats.includes(format.value);
    });
  }

  game.addEventListener("change", update);
  format.addEventListener("change", update);
  update();
  localTimes(JSON.parse(data.textContent).fresh);
})();

// The times in the reader's own time, with the zone named: the server's fields are UTC (and
// say so without this script); shown here converted, sent back as UTC on submit.
function localTimes(fresh) {
  const form = document.querySelector("#new-tournament form");
  const fields = Array.from(document.querySelectorAll("#new-tournament input[data-utc]"));
  if (!form || !fields.length) return;
  const pad = (n) => String(n).padStart(2, "0");
  const local = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T` +
    `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  const utc = (d) => d.toISOString().slice(0, 19);
  const offset = -new Date().getTimezoneOffset();
  const sign = offset < 0 ? "−" : "+";
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  const named = `your time: ${zone ? `${zone}, ` : ""}UTC${sign}` +
    `${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  // a new form: registration closes tomorrow evening, the start right after
  const evening = new Date();
  evening.setDate(evening.getDate() + 1);
  evening.setHours(19, 0, 0, 0);
  for (const input of fields) {
    if (fresh) input.value = local(evening);
    else if (input.value) input.value = local(new Date(`${input.value}Z`));
    const label = document.querySelector(`label[for="${input.id}"]`);
    if (label) label.textContent = label.textContent.replace("(UTC)", `(${named})`);
    input.dataset.zone = named;
  }
  form.addEventListener("submit", () => {
    for (const input of fields) {
      const when = new Date(input.value);  // read as local time
      if (input.value && !Number.isNaN(when.getTime())) input.value = utc(when);
    }
  });
}
