/**
 * The emails Billow sends to the seller's people (not to buyers), in English: a text part and
 * the same in HTML, through the buyer emails' template kit (mail/emails/layout.ts, every value
 * escaped there), headed by the organization's name. Names are flattened to one line before
 * they reach a subject. Each carries a one-time link to a dashboard page.
 */
import { emailBody, emailFormat, type EmailBody, type EmailSeller, type Paragraph } from '../mail/queries.js';

const oneLine = (text: string): string => text.replace(/[\r\n]+/g, ' ').trim();
const ENGLISH = emailFormat('UTC', 'en');

export interface PeopleMessage extends EmailBody {
  subject: string;
  /** The name the email is from: the organization, by Billow. */
  fromName: string;
}

/** What the template kit shows of a sender: the organization's name only (no portal, no address). */
function senderOf(organization: string): EmailSeller {
  return { displayName: organization, supportEmail: null, address: null, country: null, portalUrl: null, logoUrl: null, timeZone: 'UTC', brandColor: null };
}

function peopleEmail(organizationName: string, subject: string, paragraphs: Paragraph[]): PeopleMessage {
  const organization = oneLine(organizationName) || 'Billow';
  const body = emailBody(senderOf(organization), ENGLISH, subject, paragraphs, [`Sent by Billow for ${organization}.`], { portal: '', withoutPortal: null });
  return { subject, fromName: `${organization} (Billow)`, ...body };
}

const ROLES: Record<string, string> = { owner: 'an owner', admin: 'an admin', developer: 'a developer', support: 'a support member', viewer: 'a viewer' };

export function invitationMessage(organizationName: string, inviter: string | null, role: string, link: string): PeopleMessage {
  const organization = oneLine(organizationName);
  const who = inviter ? `${oneLine(inviter)} invites you` : 'You are invited';
  return peopleEmail(organizationName, `Join ${organization} on Billow`, [
    `${who} to join ${organization} on Billow as ${ROLES[role] ?? 'a member'}.`,
    { words: 'Accept the invitation and choose your password here (the link works once, for 7 days):', href: link },
    'If you did not expect this email, ignore it.',
  ]);
}

export function passwordResetMessage(organizationName: string, link: string): PeopleMessage {
  return peopleEmail(organizationName, 'Reset your Billow password', [
    `Someone (we hope you) asked to reset the password of your Billow account at ${oneLine(organizationName)}.`,
    { words: 'Choose a new password here (the link works once, for an hour):', href: link },
    'If you did not ask, ignore this email: your password stays as it is.',
  ]);
}

export function signInLinkMessage(organizationName: string, link: string): PeopleMessage {
  return peopleEmail(organizationName, `Sign in to ${oneLine(organizationName)} on Billow`, [
    { words: 'Sign in to your Billow dashboard with this link (it works once, for an hour):', href: link },
    'If you did not ask for it, ignore this email.',
  ]);
}
