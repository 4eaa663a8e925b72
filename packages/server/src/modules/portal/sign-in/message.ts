/** The email that carries a sign-in code: plain text, the seller's name as given (no markup is ever built from it). */
export function codeMessage(sellerName: string, code: string, ttlMs: number): { subject: string; text: string } {
  // A header holds one line: a name with line breaks is flattened, not refused.
  const organizationName = sellerName.replace(/[\r\n]+/g, ' ');
  const minutes = Math.max(1, Math.round(ttlMs / 60_000));
  return {
    subject: `Your sign-in code for ${organizationName}`,
    text: [
      `Your code to sign in to the ${organizationName} billing portal is:`,
      '',
      code,
      '',
      `It expires in ${minutes} minute${minutes === 1 ? '' : 's'} and works once.`,
      'If you did not ask for it, ignore this email: nobody can sign in without the code.',
    ].join('\n'),
  };
}
