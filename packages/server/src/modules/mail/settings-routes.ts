import { EmailSettings, EmailSettingsUpdate, ErrorBody } from '@billow/contract';
import { SERVER_ONLY, type App } from '../../http/route-types.js';
import { scopeOf } from '../../http/scope.js';
import type { EmailSettingsService } from './settings.service.js';

const tags = ['Mail'];
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };
const ABOUT =
  "An addition of Billow's, not in the Kelviq API: which emails buyers get from this environment (receipts, refunds, failed payments and their retries, " +
  'cancellations, trial-ending, renewal and card-expiring reminders), each on unless switched off, and how many days before what they announce ' +
  'the reminders are sent. In the sandbox they wait in the development inbox; production sends them (BILLOW_SMTP_URL). ';

export function emailSettingsRoutes(app: App, service: EmailSettingsService): void {
  app.get(
    '/api/v1/email-settings/',
    {
      config: { auth: SERVER_ONLY },
      schema: { tags, summary: 'Retrieve the email settings', description: ABOUT, response: { 200: EmailSettings, ...errors } },
    },
    async (request) => service.get(scopeOf(request)),
  );

  app.patch(
    '/api/v1/email-settings/',
    {
      config: { auth: SERVER_ONLY },
      schema: {
        tags,
        summary: 'Switch emails on or off, or set when reminders are sent',
        description: ABOUT + 'Fields left out are kept. A switch applies to the events and reminders that fall due after it; days out of range answer 400.',
        body: EmailSettingsUpdate,
        response: { 200: EmailSettings, ...errors },
      },
    },
    async (request) => service.update(scopeOf(request), request.body),
  );
}
