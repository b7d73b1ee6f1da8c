// A small DOM for running the viewer's game modules in Node (no jsdom, nothing installed):
// elements with attributes, children, text, classes, data-*, events that bubble, and
// querySelector for the selectors the modules and the tests use (tag, .class, [attr],
// [attr="value"], compounds of these, descendants separated by spaces, lists by commas).

class Node {
  constructor(ownerDocument) {
    this.ownerDocument = ownerDocument;
    this.parentNode = null;
    this.childNodes = [];
    this.listeners = new Map();
  }

  get textContent() {
    return this.childNodes.map((c) => c.textContent).join("");
  }

  set textContent(value) {
    this.replaceChildren();
    if (value !== "") this.append(this.ownerDocument.createTextNode(String(value)));
  }

  get firstChild() { return this.childNodes[0] || null; }

  get lastChild() { return this.childNodes[this.childNodes.length - 1] || null; }

  get children() { return this.childNodes.filter((c) => c instanceof Element); }

  get firstElementChild() { return this.children[0] || null; }

  append(...nodes) {
    for (const node of nodes) {
      const child = typeof node === "string" ? this.ownerDocument.createTextNode(node) : node;
      if (child.parentNode) child.remove();
      child.parentNode = this;
      this.childNodes.push(child);
    }
  }

  appendChild(node) {
    this.append(node);
    return node;
  }

  replaceChildren(...nodes) {
    for (const child of this.childNodes) child.parentNode = null;
    this.childNodes = [];
    this.append(...nodes);
  }

  remove() {
    if (!this.parentNode) return;
    const siblings = this.parentNode.childNodes;
    siblings.splice(siblings.indexOf(this), 1);
    this.parentNode = null;
  }

  contains(node) {
    for (let n = node; n; n = n.parentNode) if (n === this) return true;
    return false;
  }

  addEventListener(type, handler) {
    if (!this.listeners.has(type)) this.listeners.set(type, []);
    this.listeners.get(type).push(handler);
  }

  removeEventListener(type, handler) {
    const list = this.listeners.get(type) || [];
    const i = list.indexOf(handler);
    if (i >= 0) list.splice(i, 1);
  }

  dispatchEvent(event) {
    event.target = event.target || this;
    for (let node = this; node && !event.stopped; node = node.parentNode) {
      event.currentTarget = node;
      for (const handler of [...(node.listeners.get(event.type) || [])]) handler(event);
      if (!event.bubbles) break;
    }
    return !event.defaultPrevented;
  }
}

class Text extends Node {
  constructor(ownerDocument, text) {
    super(ownerDocument);
    this.data = text;
  }

  get textContent() { return this.data; }

  set textContent(value) { this.data = String(value); }
}

const REFLECTED = ["disabled", "hidden"];

class Element extends Node {
  constructor(ownerDocument, tagName, namespace) {
    super(ownerDocument);
    this.tagName = tagName.toUpperCase();
    this.localName = tagName;
    this.namespaceURI = namespace;
    this.attributes = new Map();
    const element = this;
    this.dataset = new Proxy({}, {
      get: (_, key) => element.getAttribute(`data-${kebab(key)}`) ?? undefined,
      set: (_, key, value) => { element.setAttribute(`data-${kebab(key)}`, value); return true; },
      deleteProperty: (_, key) => { element.removeAttribute(`data-${kebab(key)}`); return true; },
      has: (_, key) => element.hasAttribute(`data-${kebab(key)}`),
      ownKeys: () => [...element.attributes.keys()].filter((k) => k.startsWith("data-"))
        .map((k) => k.slice(5).replace(/-([a-z])/g, (_m, c) => c.toUpperCase())),
      getOwnPropertyDescriptor: (_, key) => ({ enumerable: true, configurable: true,
        value: element.getAttribute(`data-${kebab(key)}`) }),
    });
    this.classList = {
      add: (...names) => this.setClasses([...this.classes(), ...names]),
      remove: (...names) => this.setClasses(this.classes().filter((c) => !names.includes(c))),
      contains: (name) => this.classes().includes(name),
      toggle: (name, force) => {
        const on = force === undefined ? !this.classList.contains(name) : force;
        if (on) this.classList.add(name);
        else this.classList.remove(name);
        return on;
      },
    };
    this.value = "";
    this.style = {};
  }

  classes() { return (this.getAttribute("class") || "").split(/\s+/).filter(Boolean); }

  setClasses(names) { this.setAttribute("class", [...new Set(names)].join(" ")); }

  setAttribute(name, value) { this.attributes.set(name, String(value)); }

  getAttribute(name) { return this.attributes.has(name) ? this.attributes.get(name) : null; }

  hasAttribute(name) { return this.attributes.has(name); }

  removeAttribute(name) { this.attributes.delete(name); }

  toggleAttribute(name, force) {
    const on = force === undefined ? !this.hasAttribute(name) : force;
    if (on) this.setAttribute(name, "");
    else this.removeAttribute(name);
    return on;
  }

  get className() { return this.getAttribute("class") || ""; }

  set className(value) { this.setAttribute("class", value); }

  get id() { return this.getAttribute("id") || ""; }

  get clientWidth() { return 0; }

  focus() { this.ownerDocument.activeElement = this; }

  click() {
    if (this.disabled) return;
    this.dispatchEvent(new Event("click", { bubbles: true }));
  }

  matches(selector) {
    return parseList(selector).some((chain) => matchChain(this, chain));
  }

  closest(selector) {
    for (let node = this; node instanceof Element; node = node.parentNode) {
      if (node.matches(selector)) return node;
    }
    return null;
  }

  querySelectorAll(selector) {
    const chains = parseList(selector);
    const out = [];
    const walk = (node) => {
      for (const child of node.children) {
        if (chains.some((chain) => matchChain(child, chain, this))) out.push(child);
        walk(child);
      }
    };
    walk(this);
    return out;
  }

  querySelector(selector) { return this.querySelectorAll(selector)[0] || null; }
}

for (const name of REFLECTED) {
  Object.defineProperty(Element.prototype, name, {
    get() { return this.hasAttribute(name); },
    set(on) { this.toggleAttribute(name, Boolean(on)); },
  });
}

// <select>: its value is its chosen option's.
Object.defineProperty(Element.prototype, "options", {
  get() { return this.querySelectorAll("option"); },
});

function kebab(key) {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

const PART = /([.#]?[\w-]+|\[[^\]]+\])/g;

function parseCompound(text) {
  const tests = [];
  for (const part of text.match(PART) || []) {
    if (part.startsWith(".")) tests.push((e) => e.classes().includes(part.slice(1)));
    else if (part.startsWith("#")) tests.push((e) => e.getAttribute("id") === part.slice(1));
    else if (part.startsWith("[")) {
      const m = /^\[([\w-]+)(?:=["']?([^"'\]]*)["']?)?\]$/.exec(part);
      if (!m) throw new Error(`fake_dom: cannot read ${part}`);
      tests.push(m[2] === undefined ? (e) => e.hasAttribute(m[1])
        : (e) => e.getAttribute(m[1]) === m[2]);
    } else tests.push((e) => e.localName.toLowerCase() === part.toLowerCase());
  }
  return (e) => tests.every((t) => t(e));
}

function parseList(selector) {
  return selector.split(",").map((one) => one.trim().split(/\s+/).map(parseCompound));
}

function matchChain(element, chain, scope = null) {
  if (!chain[chain.length - 1](element)) return false;
  let i = chain.length - 2;
  for (let node = element.parentNode; i >= 0 && node instanceof Element && node !== scope;
    node = node.parentNode) {
    if (chain[i](node)) i -= 1;
  }
  return i < 0;
}

export class Event {
  constructor(type, init = {}) {
    Object.assign(this, init);
    this.type = type;
    this.bubbles = Boolean(init.bubbles);
    this.defaultPrevented = false;
    this.target = null;
  }

  preventDefault() { this.defaultPrevented = true; }

  stopPropagation() { this.stopped = true; }
}

export class Document extends Node {
  constructor() {
    super(null);
    this.ownerDocument = this;
    this.body = this.createElement("body");
    this.activeElement = this.body;
  }

  get children() { return [this.body]; }

  createElement(tag) { return new Element(this, tag, "http://www.w3.org/1999/xhtml"); }

  createElementNS(namespace, tag) { return new Element(this, tag, namespace); }

  createTextNode(text) { return new Text(this, String(text)); }

  querySelectorAll(selector) { return this.body.querySelectorAll(selector); }

  querySelector(selector) { return this.body.querySelector(selector); }
}

/** A fresh document as ``globalThis.document`` (and ``window``), returned. */
export function installDom() {
  const document = new Document();
  document.body.parentNode = document;
  globalThis.document = document;
  globalThis.window = globalThis;
  globalThis.Event = Event;
  return document;
}
