/** A local SMTP server (the smtp-server package) that keeps what it receives, for tests of production email. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/** How the server answers a message it refuses: its reply code (451: try later; 550: never) and text. */
export interface Refusal {
  code: number;
  message: string;
}

export class SmtpSink {
  readonly received: ReceivedMail[] = [];
  /** The messages the server refused, in the order they came. */
  readonly refused: ReceivedMail[] = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail = { to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') };
        const refusal = this.refuse(mail, this.refused);
        if (refusal) {
          this.refused.push(mail);
          callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
          return;
        }
        this.received.push(mail);
        callback();
      });
    },
  });

  /** `refuse`: which messages the server refuses, and how (null: it takes the message). */
  constructor(private readonly refuse: (mail: ReceivedMail, refusedBefore: ReceivedMail[]) => Refusal | null = () => null) {}

  /** Listens on a free loopback port; answers BILLOW_SMTP_URL. */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The messages to `email`, once at least `count` have arrived (the test's timeout bounds the wait). */
  async to(email: string, count = 1): Promise<ReceivedMail[]> {
    for (;;) {
      const found = this.received.filter((m) => m.to.includes(email));
      if (found.length >= count) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** A message's Subject header, unfolded and decoded from its encoded words (RFC 2047, UTF-8 base64 or Q). */
export function subjectOf(raw: string): string {
  const header = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(raw)?.[1] ?? '';
  return header
    .replace(/\r\n[ \t]/g, ' ')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_m, kind: string, text: string) =>
      kind.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : unquoted(text.replace(/_/g, ' ')),
    )
    .trim();
}

/** A quoted-printable part as its text (UTF-8). */
export function unquoted(raw: string): string {
  const soft = raw.replace(/=\r\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-F]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** A header's value, unfolded (undecoded); '' when the message has none. */
export function headerOf(raw: string, name: string): string {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
  return new RegExp(`^${name}: (.*(?:\r\n[ \t].*)*)`, 'mi').exec(head)?.[1]?.replace(/\r\n[ \t]/g, ' ').trim() ?? '';
}
