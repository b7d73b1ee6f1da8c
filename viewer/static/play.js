// The play page (/play/<match>/): a person against a bot. It follows the game through the
// play API (docs/play.md: one long poll at a time on state_url), draws the human's position
// with the game module's ``play`` (docs/viewer.md, "Playing on a board"), sends the chosen
// move to move_url, and shows both clocks (ticking here between answers), the move list,
// and at the end the result (for a solo game beside the ladder's bots on the same seed).
// The page's forms (leave the queue, resign, rematch) are the server's; this shows the one
// that fits the game's status.

import { el, replaceContent } from "botleague-viewer/dom.js";
import { buildMoveList, noteScroll, renderMoveList, scrollToStep }
  from "botleague-viewer/movelist.js";

const RETRY_MS = 2000;
// While the game waits for a board its place in the queue changes with other games, which
// the long poll does not wait for: the page asks again this often instead.
const QUEUED_MS = 2000;
const TICK_MS = 200;
const CONFIRM_MS = 4000;  // a resignation's second press must come within this
const ENDED = new Set(["finished", "failed", "cancelled"]);

function cookie(name) {
  const found = document.cookie.split(";").map((c) => c.trim())
    .find((c) => c.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
}

/** Milliseconds as a clock shows them: 4:59, 1:02:03, and tenths under ten seconds. */
function clockText(ms) {
  if (ms === null || ms === undefined) return "no limit";
  const left = Math.max(0, ms);
  if (left < 10_000) return `0:0${(left / 1000).toFixed(1)}`;
  const total = Math.ceil(left / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

function buildPage(root, data) {
  const parts = {
    players: el("div", { class: "play-players" }),
    message: el("p", { class: "play-message", role: "alert", hidden: true }),
    note: el("p", { class: "play-note", role: "status", hidden: true }),
    board: el("div", { class: "play-game", "data-game": data.game }),
    caption: el("p", { class: "viewer-caption play-caption", "aria-live": "polite" }),
    result: el("section", { class: "play-result", hidden: true, "aria-live": "polite" }),
    moves: el("div", { class: "viewer-moves play-moves", role: "listbox", tabindex: 0,
      "aria-label": "moves" }),
  };
  parts.list = buildMoveList(parts.moves);
  const resign = document.getElementById("play-resign");  // the server's form, by the clocks
  replaceContent(root,
    parts.players,
    resign,
    parts.message,
    parts.note,
    el("div", { class: "play-main" }, [
      el("div", { class: "play-stage" }, [parts.result, parts.caption, parts.board]),
      el("aside", { class: "play-side" }, [el("h3", { text: "Moves" }), parts.moves,
        el("p", { class: "muted play-replay" }, [el("a", { href: data.match_url,
          text: "the match's page" }), " (its replay once the game is over)"])]),
    ]));
  root.classList.add("viewer", "play");
  return parts;
}

function clockCell(text, label, title) {
  return el("span", { class: "clock-part", title }, [el("span", { class: "muted",
    text: label }), " ", el("span", { class: "clock-time", text })]);
}

// What each clock counts: a person has a time for each move within one for the whole game;
// a bot has its move time and a bank of extra time that a slow move draws on.
const CLOCK_WORDS = {
  human: [["this move", "time left for this move"],
    ["whole game", "time left for all your moves together"]],
  bot: [["this move", "time left for this move (its move time, plus its bank)"],
    ["time bank", "extra time for the whole game: a move over its move time draws on it"]],
};

/** Each player with their clocks; the running one counts down from the last answer. */
function renderPlayers(parts, state, receivedAt, now) {
  const clocks = new Map((state.clocks || []).map((c) => [c.seat, c]));
  const ended = ENDED.has(state.status);
  const cards = (state.players || []).map((p) => {
    const clock = clocks.get(p.seat) || {};
    const running = Boolean(clock.running) && !ended;
    const spent = running ? now - receivedAt : 0;
    const move = clock.move_ms === null || clock.move_ms === undefined ? null
      : clock.move_ms - spent;
    const game = clock.game_ms === null || clock.game_ms === undefined ? null
      : clock.game_ms - spent;
    const low = [move, game].some((ms) => ms !== null && ms < 10_000);
    const words = CLOCK_WORDS[p.human ? "human" : "bot"];
    return el("div", { class: `play-player seat-${p.seat}${running ? " running" : ""}` +
      `${low && running ? " low" : ""}${p.human ? " human" : ""}`, "data-seat": p.seat,
    "data-running": running ? "1" : "0", "data-game-ms": game === null ? "" : Math.round(game),
    "data-move-ms": move === null ? "" : Math.round(move) }, [
      el("span", { class: `seat-chip seat-${p.seat}`, text: p.seat }),
      el("span", { class: "play-name", text: p.name }),
      el("span", { class: "play-clock", role: "timer",
        "aria-label": `${p.name}'s clock` }, [
        move !== null ? clockCell(clockText(move), ...words[0]) : null,
        game !== null || move === null ? clockCell(clockText(game), ...words[1]) : null,
      ]),
      el("span", { class: "play-turn", text: running ? (p.human ? "your move" : "thinking…")
        : "" }),
    ]);
  });
  parts.players.replaceChildren(...cards);
}

/** The result's text, with why the game ended when the text does not say. */
function resultText(result) {
  if (!result) return "";
  const text = result.text || "";
  const reason = result.reason || "";
  // A reason code ("both-passed") in words; a sentence stays as it is.
  const why = /^[a-z]+(-[a-z]+)*$/.test(reason) ? reason.replace(/-/g, " ") : reason;
  return why && !text.includes(" — ") && !text.includes(why) ? `${text} — ${why}` : text;
}

/** The result, and for a solo game the ladder's bots on the same seed, the human among them. */
function renderResult(parts, state, data) {
  if (!ENDED.has(state.status)) {
    parts.result.hidden = true;
    return;
  }
  const result = state.result;
  const items = [el("h2", { text: "Game over" })];
  if (result) items.push(el("p", { class: "viewer-result", text: `Result: ${resultText(result)}` }));
  if (state.message) items.push(el("p", { class: "play-failed", text: state.message }));
  const bots = result && result.bots_on_seed;
  if (bots) {
    const you = (state.players || []).find((p) => p.human) || { name: "you" };
    const rows = [...bots.map((b) => ({ name: b.bot, score: b.score, match: b.match })),
      { name: you.name, score: (result.scores || [0])[0], you: true }]
      .sort((a, b) => b.score - a.score || (a.you ? -1 : 1));
    items.push(el("h3", { text: "The ladder's bots on the same seed" }));
    items.push(bots.length ? el("table", { class: "play-seed" }, [
      el("thead", {}, [el("tr", {}, [el("th", { text: "#" }), el("th", { text: "player" }),
        el("th", { text: "score" })])]),
      el("tbody", {}, rows.map((row, i) => el("tr", { class: row.you ? "you" : null,
        "data-score": row.score }, [
        el("td", { text: i + 1 }),
        el("td", {}, [row.match ? el("a", { href: `/matches/${row.match}/`, text: row.name })
          : row.name]),
        el("td", { text: row.score }),
      ]))),
    ]) : el("p", { class: "muted", text: "No bot of the ladder has played this seed yet." }));
  }
  items.push(el("p", {}, [el("a", { href: data.match_url, class: "play-replay-link",
    text: "Watch the replay" }), " on the match's page."]));
  const rematch = document.getElementById("play-rematch");  // the server's form, moved here
  if (rematch) items.push(rematch);
  parts.result.replaceChildren(...items);
  parts.result.hidden = false;
}

async function boot(root) {
  const data = JSON.parse(document.getElementById(root.dataset.play).textContent);
  if (!/^[a-z0-9_]+$/.test(data.game)) throw new Error(`unknown game ${data.game}`);
  const game = await import(`botleague-viewer/games/${data.game}.js`);
  const parts = buildPage(root, data);
  let state = null;
  let receivedAt = 0;
  let board = null;         // what the game's play() returned
  let drawnKey = "";
  let width = 0;
  let followList = true;
  const baseTitle = document.title;

  const ctxFor = (s) => ({
    header: { game: data.game, title: data.title || data.game, options: data.options || {},
      assets: data.assets || {}, players: s.players || [] },
    names: Object.fromEntries((s.players || []).map((p) => [p.seat, p.name])),
    view: String(data.seat),
  });

  async function submit(move) {
    let response;
    try {
      response = await fetch(data.move_url, { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json",
          "X-CSRFToken": cookie("csrftoken") },
        body: JSON.stringify({ move, step: state.step }) });
    } catch (error) {
      return { ok: false, error: `the move did not reach the server (${error.message})` };
    }
    let body = {};
    try {
      body = await response.json();
    } catch (_) { /* an error page: its status says enough */ }
    if (response.ok && body.accepted) return { ok: true };
    return { ok: false, error: body.error || `${response.status} ${response.statusText}` };
  }

  function drawBoard(force = false) {
    if (!state || !state.frame) return;
    const key = `${state.step}|${state.your_turn}|${state.status}|` +
      `${(state.legal_moves || []).length}`;
    if (!force && key === drawnKey) return;
    drawnKey = key;
    if (board) board.destroy();
    const mine = Boolean(state.your_turn) && !ENDED.has(state.status);
    board = game.play(parts.board, state.frame, ctxFor(state), {
      legalMoves: mine ? state.legal_moves || [] : [],
      yourTurn: mine,
      over: ENDED.has(state.status),
      seat: data.seat,
      submit,
    });
    parts.board.dataset.step = state.step;
    parts.caption.textContent = game.caption(state.frame, ctxFor(state));
  }

  function renderMoves() {
    const name = game.listName || ((move) => move);
    const moves = (state.moves || []).map((m) => [m.seat, m.move === null ? "" : name(m.move),
      m.seconds]);
    const secret = new Set((state.moves || []).filter((m) => m.move === null)
      .map((m) => m.seat));
    const hidden = (seat) => secret.has(seat);
    hidden.key = [...secret].join();
    const names = ctxFor(state).names;
    if (followList) scrollToStep(parts.list, moves.length, moves.length + 1);
    renderMoveList(parts.list, { moves, count: moves.length + 1, step: moves.length, names,
      hidden });
  }

  function render() {
    drawBoard();
    renderMoves();
    renderPlayers(parts, state, receivedAt, performance.now());
    renderResult(parts, state, data);
    // The server's word while the game is not under way yet ("waiting for a free board").
    const note = !ENDED.has(state.status) && state.message;
    parts.note.hidden = !note;
    parts.note.textContent = note || "";
    const forms = { "play-leave": state.status === "queued",
      "play-resign": state.status === "running", "play-rematch": ENDED.has(state.status) };
    for (const [id, shown] of Object.entries(forms)) {
      const form = document.getElementById(id);
      if (form) form.hidden = !shown;
    }
    root.dataset.status = state.status;
    root.dataset.step = state.step;
    root.dataset.yourTurn = state.your_turn ? "1" : "0";
    document.title = `${state.your_turn && !ENDED.has(state.status) ? "● Your move · " : ""}` +
      baseTitle;
  }

  function problem(text) {
    parts.message.hidden = !text;
    parts.message.textContent = text || "";
  }

  async function follow() {
    for (;;) {
      // Answered at once the first time; then when the step or the status differs from ours.
      // Queued: at once, every QUEUED_MS (the place in the queue moves without the game).
      const queued = state && state.status === "queued";
      if (queued) await new Promise((resolve) => setTimeout(resolve, QUEUED_MS));
      const url = state && !queued ? `${data.state_url}?since=${state.step}&status=` +
        `${encodeURIComponent(state.status)}` : data.state_url;
      let next;
      try {
        const response = await fetch(url, { credentials: "same-origin",
          headers: { Accept: "application/json" } });
        if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
        next = await response.json();
      } catch (error) {
        problem(`Lost touch with the server (${error.message}); trying again…`);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        continue;
      }
      problem(null);
      state = next;
      receivedAt = performance.now();
      render();
      if (ENDED.has(state.status)) return;
    }
  }

  const ticker = setInterval(() => {
    if (state) renderPlayers(parts, state, receivedAt, performance.now());
    if (state && ENDED.has(state.status)) clearInterval(ticker);
  }, TICK_MS);
  parts.moves.addEventListener("scroll", () => {
    if (Math.abs(parts.moves.scrollTop - parts.list.scrollTop) < 1) return;
    followList = parts.moves.scrollTop + parts.moves.clientHeight >=
      parts.moves.scrollHeight - 30;
    noteScroll(parts.list);
    if (state) renderMoves();
  });
  // A board may lay out by its width (Blokus Duo's pieces go under it on a phone).
  new ResizeObserver(() => {
    noteScroll(parts.list);
    const now = Math.round(parts.board.clientWidth);
    if (Math.abs(now - width) > 1) {
      width = now;
      drawBoard(true);
    }
  }).observe(parts.board);
  await follow();
}

/** Resigning takes two presses, so a stray tap never loses the game. */
function confirmResign(form) {
  const button = form && form.querySelector("button");
  if (!button) return;
  const label = button.textContent;
  let armed = null;
  form.addEventListener("submit", (event) => {
    if (armed) return;
    event.preventDefault();
    button.textContent = "Really resign? Press again";
    form.dataset.armed = "1";
    armed = setTimeout(() => {
      armed = null;
      button.textContent = label;
      delete form.dataset.armed;
    }, CONFIRM_MS);
  });
}

confirmResign(document.getElementById("play-resign"));
for (const root of document.querySelectorAll("[data-play]")) {
  boot(root).catch((error) => {
    root.replaceChildren(el("p", { class: "play-message",
      text: `The board could not start: ${error.message}` }));
  });
}
