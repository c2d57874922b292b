import { describe, expect, it } from 'vitest';
import { mix, renderProductImage } from './render.ts';

describe('renderProductImage', () => {
  it('draws a known product type in its colour', () => {
    const svg = renderProductImage('table-lamps-blue.svg');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>.*<\/svg>$/s);
    expect(svg).toContain('#3f6fb5');
    expect(svg).toContain('<title>Blue table lamp</title>');
  });

  it('draws different shapes for different families', () => {
    const lamp = renderProductImage('table-lamps-red.svg')!;
    const laptop = renderProductImage('laptops-red.svg')!;
    expect(lamp).not.toBe(laptop);
  });

  it('outlines pale products so they stand out from the background', () => {
    expect(renderProductImage('mugs-white.svg')).toContain('<g stroke=');
    expect(renderProductImage('mugs-navy.svg')).not.toContain('<g stroke=');
  });

  it('refuses names no product uses, including path tricks', () => {
    for (const name of ['', 'table-lamps.svg', 'table-lamps-blue', 'table-lamps-plaid.svg', '../table-lamps-blue.svg', 'table-lamps-blue.svg/..']) {
      expect(renderProductImage(name)).toBeUndefined();
    }
  });

  it('never puts external references in the image', () => {
    const svg = renderProductImage('sofas-beige.svg')!;
    expect(svg.match(/https?:\/\/[^"]+/g)).toEqual(['http://www.w3.org/2000/svg']);
  });
});

describe('mix', () => {
  it('moves a colour towards white or black', () => {
    expect(mix('#808080', 1)).toBe('#ffffff');
    expect(mix('#808080', -1)).toBe('#000000');
    expect(mix('#000000', 0.5)).toBe('#808080');
  });
});
