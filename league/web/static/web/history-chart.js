// Draws the bot page's rating (or score) history with the vendored Chart.js. The data comes
// from a json_script block, so the page needs no inline script under its CSP.
"use strict";
(function () {
  const source = document.getElementById("history-data");
  const canvas = document.getElementById("history-chart");
  if (!source || !canvas || !window.Chart) return;
  const data = JSON.parse(source.textContent);
  const colours = ["#2f6fde", "#d9480f", "#2b8a3e", "#862e9c", "#e67700", "#0b7285"];
  new window.Chart(canvas, {
    type: "line",
    data: {
      datasets: data.series.map((s, i) => ({
        label: s.label,
        data: s.points,
        borderColor: colours[i % colours.length],
        backgroundColor: colours[i % colours.length],
        pointRadius: s.points.length > 60 ? 0 : 2,
        borderWidth: 2,
        tension: 0.15,
      })),
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      parsing: { xAxisKey: "x", yAxisKey: "y" },
      scales: {
        x: { type: "linear", title: { display: true, text: "match" }, ticks: { precision: 0 } },
        y: { title: { display: true, text: data.label } },
      },
      plugins: {
        tooltip: {
          callbacks: { title: (items) => items.length ? items[0].raw.t : "" },
        },
      },
    },
  });
})();
