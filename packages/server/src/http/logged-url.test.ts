import { describe, expect, it } from 'vitest';
import { loggedUrl } from './logged-url.js';

const SESSION = `cs_${'A1b2'.repeat(12)}`;

describe('loggedUrl', () => {
  it('cuts credentials out of paths and queries, and leaves the rest as it was', () => {
    expect(loggedUrl(`/sandbox/checkout/${SESSION}/`)).toBe('/sandbox/checkout/cs_A1b2[redacted]/');
    expect(loggedUrl(`/api/v1/checkout/sessions/${SESSION}/events/?page=2`)).toBe('/api/v1/checkout/sessions/cs_A1b2[redacted]/events/?page=2');
    expect(loggedUrl(`/pay/pl_${'x'.repeat(40)}/`)).toBe('/pay/pl_xxxx[redacted]/');
    expect(loggedUrl('/sandbox/mail/inbox/0b6f.abc-_def/12')).toBe('/sandbox/mail/inbox/[redacted]/12');
    expect(loggedUrl('/portal/acme/?token=cpt-1%3A2&done=cancel')).toBe('/portal/acme/?token=[redacted]&done=cancel');
    expect(loggedUrl('/portal/acme/invoices/INV-1.pdf?%74oken=cpt-1')).toBe('/portal/acme/invoices/INV-1.pdf?%74oken=[redacted]');
    expect(loggedUrl('/media/f?key=a/b&name=x.png&expires=1&signature=abc')).toBe('/media/f?key=[redacted]&name=x.png&expires=1&signature=[redacted]');
    expect(loggedUrl('/x?api_key=sk_live_abcDEF123')).toBe('/x?api_key=sk_live_[redacted]');
    const plain = '/api/v1/entitlements/?customer_id=cs_short&feature_id=seats';
    expect(loggedUrl(plain)).toBe(plain);
    expect(loggedUrl('/api/v1/customers/buyer-1/')).toBe('/api/v1/customers/buyer-1/');
  });
});
