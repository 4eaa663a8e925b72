/**
 * The emails Billow sends to the seller's people (not to buyers): plain text in English, like
 * the portal's sign-in code email, every name flattened to one line and never built into
 * markup. Each carries a one-time link to a dashboard page.
 */

const oneLine = (text: string): string => text.replace(/[\r\n]+/g, ' ').trim();

export interface PeopleMessage {
  subject: string;
  text: string;
}

export function invitationMessage(organizationName: string, inviter: string | null, role: string, link: string): PeopleMessage {
  const organization = oneLine(organizationName);
  const who = inviter ? `${oneLine(inviter)} invites you` : 'You are invited';
  return {
    subject: `Join ${organization} on Billow`,
    text: [
      `${who} to join ${organization} on Billow as ${role}.`,
      '',
      'Accept the invitation and choose your password here (the link works once, for 7 days):',
      link,
      '',
      'If you did not expect this email, ignore it.',
    ].join('\n'),
  };
}

export function passwordResetMessage(link: string): PeopleMessage {
  return {
    subject: 'Reset your Billow password',
    text: [
      'Someone (we hope you) asked to reset the password of your Billow account.',
      '',
      'Choose a new password here (the link works once, for an hour):',
      link,
      '',
      'If you did not ask, ignore this email: your password stays as it is.',
    ].join('\n'),
  };
}

export function signInLinkMessage(link: string): PeopleMessage {
  return {
    subject: 'Your Billow sign-in link',
    text: ['Sign in to your Billow dashboard with this link (it works once, for an hour):', link, '', 'If you did not ask for it, ignore this email.'].join('\n'),
  };
}
