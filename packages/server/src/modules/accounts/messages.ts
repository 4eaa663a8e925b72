/**
 * The emails Billow sends to the seller's people (not to buyers), in the person's language: a
 * text part and the same in HTML, through the buyer emails' template kit (mail/emails/layout.ts,
 * every value escaped there) and its catalogue's `mail.people.` part, headed by the
 * organization's name. Names are flattened to one line before they reach a subject. Each
 * carries a one-time link to a dashboard page.
 */
import type { PageLanguage } from '../../page-kit/i18n.js';
import { emailBody, emailFormat, type EmailBody, type EmailFormat, type EmailSeller, type Paragraph } from '../mail/queries.js';

const oneLine = (text: string): string => text.replace(/[\r\n]+/g, ' ').trim();

export interface PeopleMessage extends EmailBody {
  subject: string;
  /** The name the email is from: the organization, by Billow. */
  fromName: string;
}

/** What the template kit shows of a sender: the organization's name only (no portal, no address). */
function senderOf(organization: string): EmailSeller {
  return { displayName: organization, supportEmail: null, address: null, country: null, portalUrl: null, logoUrl: null, timeZone: 'UTC', brandColor: null };
}

function peopleEmail(words: EmailFormat, organization: string, subject: string, paragraphs: Paragraph[]): PeopleMessage {
  const body = emailBody(senderOf(organization), words, subject, paragraphs, [words.t('mail.people.sentBy', { organization })], { portal: '', withoutPortal: null });
  return { subject, fromName: `${organization} (Billow)`, ...body };
}

const organizationOf = (name: string) => oneLine(name) || 'Billow';

export function invitationMessage(lang: PageLanguage, organizationName: string, inviter: string | null, role: string, link: string): PeopleMessage {
  const words = emailFormat('UTC', lang);
  const organization = organizationOf(organizationName);
  const invites = inviter ? words.t('mail.people.invitation.invitedBy', { inviter: oneLine(inviter), organization, role }) : words.t('mail.people.invitation.invited', { organization, role });
  return peopleEmail(words, organization, words.t('mail.people.invitation.subject', { organization }), [
    invites,
    { words: words.t('mail.people.invitation.accept'), href: link },
    words.t('mail.people.invitation.unexpected'),
  ]);
}

export function passwordResetMessage(lang: PageLanguage, organizationName: string, link: string): PeopleMessage {
  const words = emailFormat('UTC', lang);
  const organization = organizationOf(organizationName);
  return peopleEmail(words, organization, words.t('mail.people.reset.subject'), [
    words.t('mail.people.reset.asked', { organization }),
    { words: words.t('mail.people.reset.choose'), href: link },
    words.t('mail.people.reset.notYou'),
  ]);
}

export function signInLinkMessage(lang: PageLanguage, organizationName: string, link: string): PeopleMessage {
  const words = emailFormat('UTC', lang);
  const organization = organizationOf(organizationName);
  return peopleEmail(words, organization, words.t('mail.people.signIn.subject', { organization }), [
    { words: words.t('mail.people.signIn.link'), href: link },
    words.t('mail.people.signIn.notYou'),
  ]);
}
