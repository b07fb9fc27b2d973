/** Small DOM helpers shared by the chat's renderers. Text always goes in with textContent. */

export function icon(name: string, extra = ''): HTMLElement {
  const el = element('span', `codicon codicon-${name} ${extra}`.trim());
  el.setAttribute('aria-hidden', 'true');
  return el;
}

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  text?: string,
  attributes: Record<string, string> = {},
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  el.className = className;
  if (text !== undefined) el.textContent = text;
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  return el;
}
