import { html, type SafeHtml } from '../../page-kit/html.js';
import { layout } from '../checkout/page.js';
import type { MailRow } from './repo.js';

const when = (at: Date) => at.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

const banner = html`<p class="banner" role="note">Sandbox development inbox: these messages were not sent. Keep this page's link private: it shows sign-in codes.</p>`;

/** Paragraphs of a plain-text body, its line breaks kept. */
function paragraphs(text: string): SafeHtml[] {
  return text.split(/\n{2,}/).map((block) => html`<p>${block.split('\n').map((line, i) => html`${i > 0 ? html`<br>` : null}${line}`)}</p>`);
}

export function inboxPage(organizationName: string, messages: MailRow[]): string {
  const rows = messages.map(
    (m) => html`<li><a href="./${m.id}">${m.subject}</a><p class="hint">To ${m.recipient}, ${when(m.created_at)}</p></li>`,
  );
  const body = html`${banner}
<section class="card" aria-labelledby="inbox-title">
<p class="hint">${organizationName}</p>
<h1 id="inbox-title">Inbox</h1>
${messages.length === 0 ? html`<p id="empty">No messages yet. Email the sandbox writes (sign-in codes of the customer portal) appears here.</p>` : html`<ul id="messages">${rows}</ul>`}
</section>`;
  return layout('Sandbox inbox', '/sandbox', body);
}

export function messagePage(message: MailRow): string {
  const body = html`${banner}
<section class="card" aria-labelledby="subject">
<p><a href="./">Back to the inbox</a></p>
<h1 id="subject">${message.subject}</h1>
<p class="hint">To ${message.recipient}, ${when(message.created_at)}</p>
<div id="message-body">${paragraphs(message.body_text ?? '')}</div>
</section>`;
  return layout(message.subject, '/sandbox', body);
}

export function inboxMissingPage(): string {
  return layout('Inbox not found', '/sandbox', html`<section class="card"><h1>Inbox not found</h1><p>This inbox link is not valid. Ask the sandbox's API for the current one: GET /sandbox/api/v1/mail/inbox/ with a server key.</p></section>`);
}

export interface ListedAttachment {
  position: number;
  file_name: string;
  content_type: string;
  size: number;
}

/** A message as the inbox API answers it, with its files and where to read them. */
export const inboxMessage = (m: MailRow, files: ListedAttachment[], apiBase: string) => ({
  id: m.id,
  to: m.recipient,
  subject: m.subject,
  text: m.body_text ?? '',
  html: m.body_html,
  attachments: files.map((f) => ({
    fileName: f.file_name,
    contentType: f.content_type,
    size: Number(f.size),
    url: `${apiBase}/mail/inbox/${m.id}/attachments/${f.position}`,
  })),
  kind: m.kind,
  headers: { fromName: m.from_name, replyTo: m.reply_to, listUnsubscribe: m.list_unsubscribe },
  createdOn: m.created_at.toISOString(),
  occurredOn: m.occurred_at ? m.occurred_at.toISOString() : null,
});
