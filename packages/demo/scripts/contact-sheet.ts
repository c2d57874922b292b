/**
 * A contact sheet of the product illustrations, to check by eye that each product type is drawn as what it is:
 * `node --import tsx packages/demo/scripts/contact-sheet.ts [out.png]` renders one image per type (colours
 * taken in turn), labelled with the type, in headless Chromium (CHROME_PATH, default /usr/bin/chromium).
 */
import { chromium } from 'playwright-core';
import { colours } from '../src/catalogue/colors.ts';
import { leaves } from '../src/catalogue/leaves.ts';
import { renderProductImage } from '../src/images/render.ts';
import { slugify } from '../src/slug.ts';

const out = process.argv[2] ?? 'contact-sheet.png';
const columns = 12;

const cells = leaves.map((leaf, i) => {
  const colour = colours[i % colours.length];
  const svg = renderProductImage(`${leaf.slug}-${slugify(colour.name)}.svg`)!;
  const source = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  return `<figure><img src="${source}" width="120" height="120"><figcaption>${leaf.type.category}</figcaption></figure>`;
});
const html = `<!doctype html><style>
  body { margin: 8px; font: 10px sans-serif; display: grid; grid-template-columns: repeat(${columns}, 124px); gap: 4px; }
  figure { margin: 0; text-align: center; } figcaption { height: 12px; overflow: hidden; white-space: nowrap; }
</style>${cells.join('')}`;

const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium' });
try {
  const page = await browser.newPage({ viewport: { width: columns * 128 + 16, height: 600 } });
  await page.setContent(html);
  await page.screenshot({ path: out, fullPage: true });
  console.log(`${leaves.length} product types → ${out}`);
} finally {
  await browser.close();
}
