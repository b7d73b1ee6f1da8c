// What the boards you can play on share (each game module's ``play``): the board's place, a
// status line saying what a click or key would do, a panel of controls, the keys written
// down, listeners kept until ``destroy()``, and one move sent at a time, only when it is
// among the legal moves (the engine's own list: no rule is copied into JavaScript).

import { el, replaceContent } from "botleague-viewer/dom.js";

/** Keys that are not the board's: typing in a field, pressing a focused button, or a
 *  shortcut of the browser. */
function foreignKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  const t = event.target;
  const tag = t && t.tagName ? t.tagName.toLowerCase() : "";
  if (tag === "input" || tag === "select" || tag === "textarea") return true;
  // Enter or space on a focused button or link presses it, nothing else.
  return (event.key === "Enter" || event.key === " ") && (tag === "button" || tag === "a");
}

/**
 * Lay out ``target`` for a board you play on and return the kit its game uses:
 * ``board`` (where ``draw`` draws), ``panel`` (the controls), ``say(text, state)``,
 * ``send(move)``, ``legal`` (a Set of ``input.legalMoves``), ``listen``, ``onKey`` and
 * ``destroy``. ``keys`` is the line that documents the keys and gestures; ``side`` puts a
 * small panel beside the board on a wide screen.
 */
export function playKit(target, input, { keys = "", side = false } = {}) {
  const legal = new Set(input.yourTurn ? input.legalMoves || [] : []);
  const kit = {
    legal,
    input,
    board: el("div", { class: "play-board" }),
    status: el("p", { class: "play-status", role: "status", "aria-live": "polite" }),
    panel: el("div", { class: "play-panel" }),
    // how to play, until the game is over
    help: el("p", { class: "play-keys", text: keys, hidden: !keys || Boolean(input.over) }),
    busy: false,
    sent: false,
    gone: false,
  };
  const unbind = [];
  replaceContent(target, kit.board, kit.status, kit.panel, kit.help);
  target.classList.add("play-target");
  // A small panel (a keypad, arrows) goes beside the board on a wide screen, in sight.
  target.classList.toggle("side-panel", side);
  target.dataset.yourTurn = input.yourTurn ? "1" : "0";

  /** Say what would happen (``state``: ``info``, ``legal``, ``illegal``, ``busy``, ``error``). */
  kit.say = (text, state = "info") => {
    kit.status.textContent = text;
    kit.status.dataset.state = state;
  };

  /**
   * Send ``move`` if it is legal; otherwise say so and send nothing. Resolves to whether it
   * went and was accepted.
   */
  kit.send = async (move, words = move) => {
    if (!input.yourTurn || kit.gone) {
      kit.say("Not your turn: wait for your opponent's move.", "illegal");
      return false;
    }
    if (kit.busy) return false;
    if (kit.sent) {
      kit.say("Your move is played: waiting for the reply…", "busy");
      return false;
    }
    if (!legal.has(move)) {
      kit.say(`${words.charAt(0).toUpperCase()}${words.slice(1)} is not a legal move here.`,
        "illegal");
      return false;
    }
    kit.busy = true;
    target.dataset.busy = "1";
    kit.say(`Sending ${words}…`, "busy");
    let answer;
    try {
      answer = await input.submit(move);
    } catch (error) {
      answer = { ok: false, error: String(error && error.message ? error.message : error) };
    }
    kit.busy = false;
    delete target.dataset.busy;
    if (kit.gone) return Boolean(answer && answer.ok);
    if (answer && answer.ok) {
      kit.sent = true;
      kit.say(`You played ${words}. Waiting for the reply…`, "busy");
      return true;
    }
    kit.say(`Refused: ${(answer && answer.error) || "the move was not accepted"}`, "error");
    return false;
  };

  /** ``node.addEventListener`` until ``destroy()``. */
  kit.listen = (node, type, handler, options) => {
    node.addEventListener(type, handler, options);
    unbind.push(() => node.removeEventListener(type, handler, options));
  };

  /** Keys anywhere on the page: ``handler(event)`` returns true when it used the key. */
  kit.onKey = (handler) => {
    kit.listen(target.ownerDocument || document, "keydown", (event) => {
      if (kit.gone || foreignKey(event)) return;
      if (handler(event)) event.preventDefault();
    });
  };

  /** A button of the panel: ``el("button")`` with its action, disabled unless ``enabled``. */
  kit.button = (text, action, { enabled = true, ...attrs } = {}) => {
    const button = el("button", { type: "button", text, ...attrs });
    button.disabled = !enabled;
    kit.listen(button, "click", (event) => {
      event.preventDefault();
      if (!button.disabled) action(event);
    });
    return button;
  };

  /** What to say when there is nothing to choose. */
  kit.idle = (frame) => kit.say(frame.over ? "The game is over." : "Waiting for your " +
    "opponent's move…", "info");

  kit.destroy = () => {
    kit.gone = true;
    for (const off of unbind.splice(0)) off();
  };
  return kit;
}
