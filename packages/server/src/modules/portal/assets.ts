import { createHash } from 'node:crypto';
import { HOSTED_CSS } from '../../page-kit/styles.js';

/** The portal's stylesheet: the hosted pages' own, and the portal's lists and small forms. No script: every action is a form. */
export const PORTAL_CSS = `${HOSTED_CSS}
nav.sections{display:flex;flex-wrap:wrap;gap:.5rem 1rem;margin:0 0 1rem}
.item{border-top:1px solid #e5e7eb;padding:.75rem 0}.item:first-of-type{border-top:0;padding-top:0}
.item h3{font-size:1rem;margin:0 0 .25rem;overflow-wrap:anywhere}
dl.facts{display:grid;grid-template-columns:auto 1fr;gap:.15rem .75rem;margin:.25rem 0}dl.facts dt{color:#4b5563}dl.facts dd{margin:0;overflow-wrap:anywhere}
.status{display:inline-block;font-size:.8rem;font-weight:700;padding:.1rem .5rem;border-radius:1rem;background:#e5e7eb;color:#1f2937}
.status.active,.status.paid{background:#dcfce7;color:#14532d}.status.past_due,.status.payment_failed{background:#fee2e2;color:#7f1d1d}
.notice{background:#dcfce7;color:#14532d;border:1px solid #15803d;border-radius:.5rem;padding:.75rem;margin-bottom:1rem}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.5rem}.actions form{margin:0}.actions button,.actions .button{width:auto;margin-top:0}
a.button{display:inline-block;text-decoration:none;font-weight:600;padding:.55rem 1rem;border:2px solid var(--accent,#1d4ed8);border-radius:.5rem;min-height:2.75rem}
code{overflow-wrap:anywhere;font-size:.9rem}
`;

export const PORTAL_CSS_VERSION = createHash('sha256').update(PORTAL_CSS).digest('hex').slice(0, 12);
