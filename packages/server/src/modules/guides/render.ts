import { Marked } from 'marked';
import { html, SafeHtml } from '../../page-kit/html.js';
import type { Guide } from './library.js';

/** Links between guides lose their `.md`: `billing.md#3` is served as `billing#3`. */
const marked = new Marked({
  gfm: true,
  walkTokens(token) {
    if (token.type === 'link' && !/^[a-z]+:/i.test(token.href)) token.href = token.href.replace(/\.md(?=$|#)/, '');
  },
});

export const GUIDES_STYLESHEET = `
body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f24; }
header { background: #1b1f24; padding: 10px 24px; }
header a { color: #fff; text-decoration: none; font-weight: 700; margin-right: 20px; }
header a.secondary { font-weight: 400; color: #e8eef5; }
main { max-width: 860px; margin: 0 auto; padding: 16px 24px 64px; }
a { color: #0b5cad; }
pre { background: #f4f6f8; padding: 12px; overflow-x: auto; border-radius: 6px; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
table { border-collapse: collapse; display: block; overflow-x: auto; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; }
img { max-width: 100%; border: 1px solid #d0d7de; }
li { margin: 2px 0; }
`;

function page(title: string, body: SafeHtml, root: string): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · Billow</title>
<link rel="icon" type="image/svg+xml" href="${root}/docs/guides/assets/billow.svg">
<link rel="stylesheet" href="${root}/docs/guides/assets/guides.css">
</head>
<body>
<header><a href="${root}/docs/guides/">Billow guides</a><a class="secondary" href="${root}/docs/">API reference</a></header>
<main>
${body}
</main>
</body>
</html>
`.value;
}

/** A guide (or decision record) as a page; its Markdown is the repository's own, rendered as written. */
export function guidePage(markdown: string, title: string, root: string): string {
  return page(title, new SafeHtml(marked.parse(markdown, { async: false })), root);
}

export function guideIndex(guides: Guide[], root: string): string {
  const body = guides.length
    ? html`<h1>Guides</h1>
<p>How Billow works and how to run it. The <a href="${root}/docs/">API reference</a> has every operation with curl, <code>@billow/sdk</code> and official-client samples.</p>
<ul>${guides.map((guide) => html`<li><a href="${root}/docs/guides/${guide.name}">${guide.title}</a></li>`)}</ul>`
    : html`<h1>Guides</h1><p>This installation does not include the guides (the docs/ folder of Billow's repository).</p>`;
  return page('Guides', body, root);
}
