/**
 * Buyer emails in the buyer's language (issue 28; decision 0075): the customer's `locale`,
 * else the seller's default language, else English; subjects too, money and dates by Intl in
 * that language, no wire code shown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openShop, type Shop } from './commerce-support.js';
import type { TestServer } from './harness.js';

let server: TestServer;
let s: Shop;

interface InboxMessage {
  to: string;
  subject: string;
  text: string;
  html: string | null;
}

beforeAll(async () => {
  ({ server, s } = await openShop());
  const profile = await s.call('PATCH', '/seller-profile/', { displayName: 'Acme', supportEmail: 'help@acme.example' });
  if (profile.status !== 200) throw new Error(`profile: ${profile.status} ${profile.text}`);
}, 60_000);
afterAll(async () => {
  await server?.close();
});

async function mailOf(customerId: string): Promise<InboxMessage[]> {
  await server.runJobs(['compose-mail']);
  const res = await s.call('GET', '/mail/inbox/');
  expect(res.status).toBe(200);
  return (res.body.messages as InboxMessage[]).filter((m) => m.to === `${customerId}@example.com`);
}

/** A one-time purchase and a monthly subscription cancelled at once: a receipt each, and a cancellation. */
async function buyAndCancel(customerId: string): Promise<void> {
  await s.card(customerId);
  const charge = await s.call('POST', '/charges/', { planIdentifier: s.plans.lifetime, chargePeriod: 'ONE_TIME', customerId });
  expect(charge.status).toBe(201);
  const created = await s.call('POST', '/subscriptions/create/', { planIdentifier: s.plans.basic, chargePeriod: 'MONTHLY', customerId });
  expect(created.status).toBe(201);
  const cancel = await s.call('POST', `/subscriptions/${created.body.id}/cancel/`, { cancellationType: 'IMMEDIATE' });
  expect(cancel.status).toBe(200);
}

const noWireCode = (m: InboxMessage) => expect(`${m.subject}\n${m.text}`).not.toMatch(/MONTHLY|ONE_TIME|canceled|mail\.|[{}]/);

describe('the language of buyer emails', () => {
  it('is the customer’s locale: German words, subject, money and dates', async () => {
    const customerId = await s.customer({ locale: 'de-DE' });
    await buyAndCancel(customerId);
    const mine = await mailOf(customerId);
    expect(mine.map((m) => m.subject).sort()).toEqual([
      'Ihr Abonnement bei Acme wurde gekündigt',
      'Ihre Zahlungsbestätigung von Acme',
      'Ihre Zahlungsbestätigung von Acme',
    ]);
    const receipt = mine.find((m) => m.text.includes('49,00'))!;
    expect(receipt.text).toContain('Guten Tag,');
    expect(receipt.text).toContain('Wir haben Ihre Zahlung von 49,00\u00a0USD für');
    expect(receipt.text).toContain('Fragen? Schreiben Sie an help@acme.example.');
    expect(receipt.html).toContain('<html lang="de">');
    const cancelled = mine.find((m) => m.subject.includes('gekündigt'))!;
    // A German date: "3. Dezember 2026".
    expect(cancelled.text).toMatch(/wurde am \d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4} mit sofortiger Wirkung gekündigt\./);
    for (const m of mine) noWireCode(m);
  });

  it('is Japanese for a customer whose locale is ja-JP', async () => {
    const customerId = await s.customer({ locale: 'ja-JP' });
    await buyAndCancel(customerId);
    const mine = await mailOf(customerId);
    expect(mine.map((m) => m.subject)).toContain('Acmeからの領収書');
    const cancelled = mine.find((m) => m.subject === 'Acmeのサブスクリプションが解約されました')!;
    expect(cancelled.text).toMatch(/\d{4}年\d{1,2}月\d{1,2}日に即時解約されました。/);
    for (const m of mine) noWireCode(m);
  });

  it('is English for a customer without a locale while the seller writes English', async () => {
    const customerId = await s.customer();
    await buyAndCancel(customerId);
    const subjects = (await mailOf(customerId)).map((m) => m.subject);
    expect(subjects).toContain('Your receipt from Acme');
  });

  it('is the seller’s default language for a customer without a locale of ours', async () => {
    const profile = await s.call('PATCH', '/seller-profile/', { defaultLanguage: 'fr' });
    expect(profile.status).toBe(200);
    for (const extra of [{}, { locale: 'pt-BR' }]) {
      const customerId = await s.customer(extra);
      await buyAndCancel(customerId);
      const mine = await mailOf(customerId);
      expect(mine.map((m) => m.subject).sort()).toEqual(['Acme : votre abonnement a été résilié', 'Acme : votre reçu', 'Acme : votre reçu']);
      const receipt = mine.find((m) => m.text.includes('49,00'))!;
      expect(receipt.text).toContain('Nous avons bien reçu votre paiement de 49,00\u00a0USD pour');
      for (const m of mine) noWireCode(m);
    }
  });
});
