import escapeHtml from 'escape-html';

/** Markup that is already safe: only `html` builds it, so seller text never becomes one by accident. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Part = SafeHtml | string | number | null | undefined | false | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof SafeHtml) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  // Every other value is text: escaped by escape-html (& < > " '), in content and attributes alike.
  return escapeHtml(String(part));
}

/**
 * The hosted pages' template tag (decisions 0034, 0037): literal markup stays as written,
 * every interpolated value is escaped unless it is itself built by `html`.
 * Attribute values must be quoted in the template (`value="${x}"`).
 */
export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}
