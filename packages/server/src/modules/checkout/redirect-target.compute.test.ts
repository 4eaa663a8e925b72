import { describe, expect, it } from 'vitest';
import { onSellerSite } from './redirect-target.compute.js';

describe('onSellerSite', () => {
  it("accepts the product's host and its subdomains only", () => {
    expect(onSellerSite('https://acme.example/welcome', 'https://www.acme.example/')).toBe(true);
    expect(onSellerSite('https://app.acme.example/x?y=1', 'https://acme.example')).toBe(true);
    expect(onSellerSite('https://ACME.example/', 'https://acme.example')).toBe(true);
    expect(onSellerSite('https://evil.example/acme.example', 'https://acme.example')).toBe(false);
    expect(onSellerSite('https://acme.example.evil.example/', 'https://acme.example')).toBe(false);
    expect(onSellerSite('https://notacme.example/', 'https://acme.example')).toBe(false);
    expect(onSellerSite('javascript:alert(1)//acme.example', 'https://acme.example')).toBe(false);
    expect(onSellerSite('https://acme.example/', null)).toBe(false);
  });
});
