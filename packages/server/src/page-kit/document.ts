import { html, type SafeHtml } from './html.js';
import { stripeScripts } from './stripe-element.js';

export interface HostedDocument {
  title: string;
  /** Where this page family's assets are served (`{prefix}/checkout/assets`). */
  assetBase: string;
  /** The content-hashed stylesheet's file name in `assetBase`. */
  stylesheet: string;
  /** The seller's brand stylesheet in `assetBase` (hosted/brand.ts), if they chose a colour. */
  brand?: string | null;
  /** The page family's own script in `assetBase`, if it has one. */
  script?: string;
  /** Stripe.js and the element's script, where cards go to Stripe. */
  stripe?: boolean;
  body: SafeHtml;
  /** The page's language tag (`<html lang>`); English when not given. */
  lang?: string;
}

/** The document around every hosted page: language, viewport, no referrer, and only this origin's assets (no inline code). */
export function hostedDocument(page: HostedDocument): string {
  return html`<!doctype html>
<html lang="${page.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${page.title}</title>
<link rel="stylesheet" href="${page.assetBase}/${page.stylesheet}">
${page.brand ? html`<link rel="stylesheet" href="${page.assetBase}/${page.brand}">` : null}
${page.script ? html`<script src="${page.assetBase}/${page.script}" defer></script>` : null}
${page.stripe ? stripeScripts(page.assetBase) : null}
</head>
<body>
<main>
${page.body}
</main>
</body>
</html>
`.value;
}
