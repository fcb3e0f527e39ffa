// A small helper for building the widget's elements, shared by the toolbar and the coach.

/** A new element: its tag, class, attributes and text. */
export function make(tag, className, attrs = {}, text = undefined) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}
