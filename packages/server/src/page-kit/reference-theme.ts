import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

/**
 * Billow's look on the API reference at /docs (issue 31): its own title, mark and favicon
 * instead of the reference library's, and nothing that loads from elsewhere — the bar's
 * field that opens another document by URL is hidden, and the validator badge is off.
 */

const INK = '#1b1f24';
const ACCENT = '#0b5cad';

/** A swell of water in a rounded square: Billow's mark. */
const MARK_PATHS =
  `<rect width="32" height="32" rx="7" fill="${ACCENT}"/>` +
  '<path d="M4 20c3.5 0 4.5-6 8-6s4.5 6 8 6 4.5-6 8-6" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/>' +
  '<path d="M4 25c3.5 0 4.5-3 8-3s4.5 3 8 3 4.5-3 8-3" fill="none" stroke="#fff" stroke-opacity=".6" stroke-width="2" stroke-linecap="round"/>';

export const REFERENCE_FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${MARK_PATHS}</svg>`;

/** The mark and "Billow API reference", drawn on the bar's dark ground. */
export const REFERENCE_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 250 32" width="250" height="32">' +
  MARK_PATHS +
  '<text x="42" y="22" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-size="18" font-weight="700" fill="#fff">Billow</text>' +
  '<text x="104" y="22" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" font-size="16" fill="#e8eef5">API reference</text>' +
  '</svg>';

const REFERENCE_CSS = `
.swagger-ui .topbar { background: ${INK}; padding: 8px 0; }
.swagger-ui .topbar .download-url-wrapper { display: none; }
.swagger-ui .topbar a { max-width: none; }
.swagger-ui .info .title { color: ${INK}; }
.swagger-ui .btn.execute { background: ${ACCENT}; border-color: ${ACCENT}; }
`;

// Swagger UI's own option for the curl snippets of each request; the plugin's types do not list it.
const UI_CONFIG = { deepLinking: true, requestSnippetsEnabled: true, displayRequestDuration: true };

export const referencePageOptions: FastifySwaggerUiOptions = {
  uiConfig: UI_CONFIG,
  validatorUrl: false,
  logo: { type: 'image/svg+xml', content: Buffer.from(REFERENCE_LOGO), href: './', target: '_self' },
  theme: {
    title: 'Billow API reference',
    css: [{ filename: 'billow.css', content: REFERENCE_CSS }],
    favicon: [{ filename: 'billow.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(REFERENCE_FAVICON) }],
  },
};
