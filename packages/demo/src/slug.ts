/**
 * Kebab-case for URLs and file names: lower case ASCII letters and digits separated by single hyphens
 * ("Women's Clothing" → "womens-clothing", "Home & Kitchen" → "home-and-kitchen", "2.5 m" → "2-5-m").
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
