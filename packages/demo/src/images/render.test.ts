import { describe, expect, it } from 'vitest';
import { leaves } from '../catalogue/leaves.ts';
import { drawings } from './drawings/index.ts';
import { mix, renderProductImage } from './render.ts';

describe('renderProductImage', () => {
  it('draws a known product type in its colour', () => {
    const svg = renderProductImage('table-lamps-blue.svg');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>.*<\/svg>$/s);
    expect(svg).toContain('#3f6fb5');
    expect(svg).toContain('<title>Blue table lamp</title>');
  });

  it('has a drawing for every product type, and none for types that do not exist', () => {
    for (const leaf of leaves) expect(drawings[leaf.slug], leaf.slug).toBeTypeOf('function');
    expect(Object.keys(drawings).sort()).toEqual(leaves.map((leaf) => leaf.slug).sort());
  });

  it('draws types that used to share a family drawing as what they are', () => {
    const drawing = (type: string) => renderProductImage(`${type}-red.svg`)!.replace(/<title>.*<\/title>/, '');
    // Headlamps were table lamps, circular saws were drills, tape measures were watches.
    for (const [type, other] of [['headlamps', 'table-lamps'], ['circular-saws', 'drills'], ['tape-measures', 'watches'], ['jigsaws', 'sanders']]) {
      expect(drawing(type), type).not.toBe(drawing(other));
    }
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
