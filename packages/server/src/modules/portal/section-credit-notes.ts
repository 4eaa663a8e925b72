import { html, type SafeHtml } from '../../page-kit/html.js';
import { dateText, pageHref, type PageState } from './page-state.js';

/** The customer's credit notes (decision 0065), each with the invoice it corrects and its PDF; none, no section. */
export function creditNotesSection(state: PageState): SafeHtml | null {
  const notes = state.model.creditNotes;
  if (notes.length === 0) return null;
  const { t, money } = state.t;
  const rows = notes.map(
    (n) => html`<div class="item" id="credit-note-${n.id}"><h3>${n.number}</h3>
<dl class="facts"><dt>${t('records.issued')}</dt><dd>${dateText(state, n.issuedOn)}</dd><dt>${t('records.corrects')}</dt><dd>${n.invoiceNumber ?? n.invoiceId ?? '—'}</dd><dt>${t('records.credited')}</dt><dd>${money(n.amountTotalUnits, n.currency)}</dd></dl>
<a class="button" href="${pageHref({ path: `${state.path}credit-notes/${n.id}.pdf` })}" download>${t('records.download')}</a></div>`,
  );
  return html`<section class="card" id="credit-notes" aria-labelledby="credit-notes-title"><h2 id="credit-notes-title">${t('portal.creditNotes')}</h2>${rows}</section>`;
}
