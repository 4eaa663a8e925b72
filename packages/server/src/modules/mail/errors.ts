import { ApiError, notFound } from '../../http/errors.js';

export const mailUnavailable = (): ApiError =>
  new ApiError(503, 'mail_not_configured', 'Email is not configured for production: set BILLOW_SMTP_URL and BILLOW_MAIL_FROM');
export const inboxOnlyInSandbox = (): ApiError =>
  notFound('The development inbox exists only in the sandbox: production email is sent, not kept', 'mail_inbox_sandbox_only');
