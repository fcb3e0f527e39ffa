// A stand-in for anywidget's model: get/set/on/off/send/save_changes, recording what the
// widget sends, so a test can play the kernel's part.

export class FakeModel {
  constructor(state) {
    this.state = { ...state };
    this.handlers = new Map();
    this.sent = [];          // custom messages from the widget (model.send)
    this.saved = [];         // trait changes the widget saved (model.set + save_changes)
    this.pending = {};
  }

  get(name) {
    return this.state[name];
  }

  set(name, value) {
    this.state[name] = value;
    this.pending[name] = value;
    this.emit(`change:${name}`);        // as Backbone does, before anything is saved
  }

  save_changes() {
    this.saved.push(this.pending);
    this.pending = {};
  }

  on(event, callback) {
    if (!this.handlers.has(event)) this.handlers.set(event, []);
    this.handlers.get(event).push(callback);
  }

  off(event, callback) {
    const list = this.handlers.get(event) || [];
    this.handlers.set(event, list.filter((f) => f !== callback));
  }

  send(message) {
    this.sent.push(JSON.parse(JSON.stringify(message)));
  }

  emit(event, ...args) {
    for (const callback of this.handlers.get(event) || []) callback(...args);
  }

  /** What the kernel does: set traits, then fire change events. */
  update(changes) {
    Object.assign(this.state, changes);
    for (const name of Object.keys(changes)) this.emit(`change:${name}`);
  }

  /** A custom message from the kernel. */
  receive(message) {
    this.emit("msg:custom", message, []);
  }
}
