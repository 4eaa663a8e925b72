import { html, type SafeHtml } from '../../page-kit/html.js';
import { buttonForm, dateText, pageHref, type PageState } from './page-state.js';

/** Seller links are shown only when they are web addresses (never javascript: or data:). */
const webUrl = (url: string) => /^https?:\/\//i.test(url);

export function invoicesSection(state: PageState): SafeHtml {
  const invoices = state.model.invoices;
  const { t, money } = state.t;
  const rows = invoices.map(
    (i) => html`<div class="item" id="invoice-${i.id}"><h3>${i.number ?? i.id} <span class="status ${i.status.toLowerCase()}">${t('invoices.status', { status: i.status })}</span></h3>
<dl class="facts"><dt>${t('records.issued')}</dt><dd>${dateText(state, i.issuedOn)}</dd><dt>${t('records.total')}</dt><dd>${money(i.amountTotalUnits, i.currency)}</dd></dl>
<a class="button" href="${pageHref({ path: `${state.path}invoices/${i.id}.pdf` })}" download>${t('records.download')}</a></div>`,
  );
  const body = invoices.length === 0 ? html`<p>${t('invoices.none')}</p>` : rows;
  return html`<section class="card" id="invoices" aria-labelledby="invoices-title"><h2 id="invoices-title">${t('portal.invoices')}</h2>${body}</section>`;
}

export function ordersSection(state: PageState): SafeHtml {
  const orders = state.model.orders;
  const { t, money } = state.t;
  const statusOf = (o: (typeof orders)[number]) => {
    const status = t('orders.statusValue', { status: o.status });
    return o.refundedTotalUnits > 0 ? t('orders.refunded', { status, amount: money(o.refundedTotalUnits, o.saleCurrency) }) : status;
  };
  const rows = orders.map(
    (o) => html`<div class="item" id="order-${o.id}"><h3>${o.id}</h3>
<dl class="facts"><dt>${t('orders.date')}</dt><dd>${dateText(state, o.createdOn)}</dd><dt>${t('orders.plan')}</dt><dd>${o.plan.name}</dd><dt>${t('records.total')}</dt><dd>${money(o.amountTotalUnits, o.saleCurrency)}</dd>
<dt>${t('orders.status')}</dt><dd>${statusOf(o)}</dd></dl></div>`,
  );
  const body = orders.length === 0 ? html`<p>${t('orders.none')}</p>` : rows;
  return html`<section class="card" id="orders" aria-labelledby="orders-title"><h2 id="orders-title">${t('portal.orders')}</h2>${body}</section>`;
}

export function licensesSection(state: PageState): SafeHtml | null {
  const licenses = state.model.licenses;
  if (licenses.length === 0) return null;
  const { t } = state.t;
  const rows = licenses.map((l) => {
    const limit = l.activationLimit === null ? t('licenses.noLimit') : t('licenses.used', { used: l.instances.length, limit: l.activationLimit });
    const instances = l.instances.map(
      (i) => html`<li>${t('licenses.device', { name: i.name || t('licenses.unnamed'), date: dateText(state, i.created_at) })}
${buttonForm(state, 'deactivate', { license: l.id, instance: i.id }, t('licenses.deactivate'))}</li>`,
    );
    return html`<div class="item" id="license-${l.id}"><h3>${l.planName}${l.enabled ? null : html` <span class="status">${t('licenses.disabled')}</span>`}</h3>
<p><code>${l.licenseKey}</code></p>
<dl class="facts"><dt>${t('licenses.activations')}</dt><dd>${limit}</dd><dt>${t('licenses.expires')}</dt><dd>${l.expiresOn ? dateText(state, l.expiresOn) : t('licenses.never')}</dd></dl>
${instances.length > 0 ? html`<ul>${instances}</ul>` : html`<p class="hint">${t('licenses.notActivated')}</p>`}</div>`;
  });
  return html`<section class="card" id="licenses" aria-labelledby="licenses-title"><h2 id="licenses-title">${t('portal.licenses')}</h2>${rows}</section>`;
}

interface Deliverables {
  plan: string;
  files: { name: string; downloadUrl: string; enabled: boolean }[];
  links: { name: string; url: string }[];
}

/** What the customer's plans deliver: of live subscriptions, and of paid one-time purchases; each plan once. */
function deliverablesOf(state: PageState): Deliverables[] {
  const fromSubscriptions = state.model.subscriptions.map(({ subscription: s }) => ({ plan: s.plan.name, files: s.files, links: s.links }));
  const fromPurchases = state.model.orders
    .filter((o) => o.billingType === 'ONE_TIME' && (o.status === 'COMPLETE' || o.status === 'PARTIAL_REFUND'))
    .map((o) => ({ plan: o.plan.name, files: o.plan.files, links: o.plan.links }));
  const byPlan = new Map<string, Deliverables>();
  for (const d of [...fromSubscriptions, ...fromPurchases]) if (!byPlan.has(d.plan)) byPlan.set(d.plan, d);
  return [...byPlan.values()];
}

export function deliverablesSection(state: PageState): SafeHtml | null {
  const items = deliverablesOf(state).flatMap((d) => [
    ...d.files.filter((f) => f.enabled).map((f) => html`<li><a href="${f.downloadUrl}">${f.name}</a> <span class="hint">(${d.plan})</span></li>`),
    ...d.links.filter((l) => webUrl(l.url)).map((l) => html`<li><a href="${l.url}" rel="noopener noreferrer">${l.name}</a> <span class="hint">(${d.plan})</span></li>`),
  ]);
  if (items.length === 0) return null;
  return html`<section class="card" id="downloads" aria-labelledby="downloads-title"><h2 id="downloads-title">${state.t.t('portal.downloads')}</h2><ul>${items}</ul></section>`;
}
