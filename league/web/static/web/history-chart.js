// Draws the bot page's rating (or score) history with the vendored Chart.js. The data comes
// from a json_script block, so the page needs no inline script under its CSP.
//
// Chart.js (200 kB to parse) is fetched only once the page has loaded, and the chart drawn
// then: the page, its tables and links, are there at once, and the chart a moment later
// (issue 38: a bot's page took 1.1-2.4 s to its load event, most of it the chart's).
"use strict";
(function () {
  const me = document.currentScript;
  const source = document.getElementById("history-data");
  const canvas = document.getElementById("history-chart");
  if (!source || !canvas || !me) return;

  function load() {
    if (window.Chart) return draw();
    const script = document.createElement("script");
    script.src = me.dataset.chartJs;
    script.onload = draw;
    document.body.append(script);
  }
  if (document.readyState === "complete") load();
  else window.addEventListener("load", () => setTimeout(load, 0), { once: true });

  function draw() {
    const data = JSON.parse(source.textContent);
    const many = data.series.some((s) => s.points.length > 60);
    const colours = ["#2f6fde", "#d9480f", "#2b8a3e", "#862e9c", "#e67700", "#0b7285"];
    // A rated bot's chart shades each version's mu +- 2 sigma behind its rating line
    // (issue 34): where its skill likely is, narrowing as its games tell the board more.
    // Two datasets a version, its upper edge then its lower one filled up to it ("-1");
    // kept out of the legend and the tooltip (``band`` marks them).
    const datasets = [];
    data.series.forEach((s, i) => {
      const colour = colours[i % colours.length];
      if (data.band) {
        const edge = { borderWidth: 0, pointRadius: 0, pointHitRadius: 0, band: true,
                       tension: 0, backgroundColor: colour + "22" };
        datasets.push({ ...edge, label: s.label + " μ + 2σ", fill: false,
                        data: s.points.map((p) => ({ x: p.x, y: p.hi })) });
        datasets.push({ ...edge, label: s.label + " μ − 2σ", fill: "-1",
                        data: s.points.map((p) => ({ x: p.x, y: p.lo })) });
      }
      datasets.push({
        label: s.label,
        data: s.points,
        borderColor: colour,
        backgroundColor: colour,
        pointRadius: s.points.length > 60 ? 0 : 2,
        borderWidth: 2,
        tension: many ? 0 : 0.15,  // straight lines: no curve to work out per point
      });
    });
    new window.Chart(canvas, {
      type: "line",
      data: { datasets },
      options: {
        animation: false,
        normalized: true,  // the points come sorted by x, unique: no sorting, no checks
        maintainAspectRatio: false,
        parsing: { xAxisKey: "x", yAxisKey: "y" },
        scales: {
          x: { type: "linear", title: { display: true, text: "match" }, ticks: { precision: 0 } },
          y: { title: { display: true, text: data.label } },
        },
        plugins: {
          legend: { labels: { filter: (item, chart) => !chart.datasets[item.datasetIndex].band } },
          tooltip: {
            filter: (item) => !item.dataset.band,
            callbacks: { title: (items) => items.length ? items[0].raw.t : "" },
          },
        },
      },
    });
    canvas.dataset.drawn = "1";
  }
})();
