import { describe, expect, it } from 'vitest';
import { accessibleAccent, contrastRatio } from './contrast.js';

describe('contrast', () => {
  it('measures WCAG contrast ratios', () => {
    expect(contrastRatio('#000000', '#FFFFFF')).toBeCloseTo(21, 5);
    expect(contrastRatio('#FFFFFF', '#FFFFFF')).toBe(1);
    expect(contrastRatio('#1D4ED8', '#FFFFFF')).toBeGreaterThan(6);
  });

  it('keeps a dark brand colour and darkens a light one until white text on it reaches 4.5:1', () => {
    expect(accessibleAccent('#1D4ED8')).toBe('#1D4ED8');
    for (const brand of ['#FFFF00', '#FFFFFF', '#7DD3FC', '#22C55E', '#F97316', '#FF0000', '#000000']) {
      const accent = accessibleAccent(brand);
      expect([brand, contrastRatio(accent, '#FFFFFF') >= 4.5]).toEqual([brand, true]);
    }
    // As light as AA allows: one step lighter would fail.
    expect(contrastRatio(accessibleAccent('#7DD3FC'), '#FFFFFF')).toBeLessThan(5);
  });
});
