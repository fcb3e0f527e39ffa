// solwidget's front end: anywidget calls render({model, el}) for each view of a widget.

import { Board } from "./render.js";

function render({ model, el }) {
  const board = new Board(model, el);
  return () => board.destroy();
}

export default { render };
