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
})();
