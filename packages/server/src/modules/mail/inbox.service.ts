import type { Db } from '../../db/connect.js';
import { inboxOnlyInSandbox } from './errors.js';
import { inboxUrl, type InboxAccess } from './inbox-access.js';
import * as repo from './repo.js';

const LISTED = 50;

/** The sandbox's development inbox (decision 0038): its newest messages, to the API and to the page its secret link opens. */
export class InboxService {
  constructor(
    private readonly db: Db,
    private readonly access: InboxAccess,
  ) {}

  /** The API's answer: the newest messages and the page's secret link; sandbox only. */
  async newest(scope: { environment: string; environmentId: string; baseUrl: string }) {
    if (scope.environment !== 'sandbox') throw inboxOnlyInSandbox();
    const messages = await repo.inboxMessages(this.db, scope.environmentId, LISTED);
    const files = await repo.attachmentListOf(this.db, messages.map((m) => m.id));
    const filesOf = (id: string) => files.filter((f) => f.message_id === id);
    return { inboxUrl: inboxUrl(scope.baseUrl, await this.access.keyFor(scope.environmentId)), messages, filesOf };
  }

  /** One file of an inbox message (sandbox only); undefined when there is none such. */
  async attachment(scope: { environment: string; environmentId: string }, messageId: string, position: number) {
    if (scope.environment !== 'sandbox') throw inboxOnlyInSandbox();
    if (!/^[0-9a-f-]{36}$/i.test(messageId)) return undefined;
    const message = await repo.inboxMessage(this.db, scope.environmentId, messageId);
    if (!message) return undefined;
    return (await repo.attachmentsOf(this.db, messageId)).find((a) => a.position === position);
  }

  /** What a page's link opens: the sandbox environment and its newest messages, or undefined for any other key. */
  async page(environment: string, key: string) {
    const environmentId = await this.environmentOf(environment, key);
    const place = environmentId ? await repo.environmentOf(this.db, environmentId) : undefined;
    if (!place || place.kind !== 'sandbox') return undefined;
    return { organizationName: place.organizationName, messages: await repo.inboxMessages(this.db, place.environmentId, LISTED) };
  }

  /** One message of the inbox a link opens; undefined when the link or the id is not one of ours. */
  async message(environment: string, key: string, id: string) {
    const environmentId = await this.environmentOf(environment, key);
    return environmentId && /^[0-9a-f-]{36}$/i.test(id) ? repo.inboxMessage(this.db, environmentId, id) : undefined;
  }

  /** Only in the sandbox, only with a key of ours. */
  private async environmentOf(environment: string, key: string) {
    return environment === 'sandbox' ? this.access.environmentOf(key) : null;
  }
}
