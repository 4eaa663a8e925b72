import type { Translator } from '../../../page-kit/i18n.js';

/**
 * The email that carries a sign-in code, in the buyer's language (the catalogues' `codeMail.*`):
 * plain text, the seller's name as given (no markup is ever built from it).
 */
export function codeMessage(sellerName: string, code: string, ttlMs: number, { t }: Translator): { subject: string; text: string } {
  // A header holds one line: a name with line breaks is flattened, not refused.
  const seller = sellerName.replace(/[\r\n]+/g, ' ');
  const minutes = Math.max(1, Math.round(ttlMs / 60_000));
  return {
    subject: t('codeMail.subject', { seller }),
    text: [t('codeMail.intro', { seller }), '', code, '', t('codeMail.expires', { minutes }), t('codeMail.ignore')].join('\n'),
  };
}
