function element(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("data-") || name.startsWith("aria-")) node.setAttribute(name, value);
    else node[name] = value;
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}
