/**
 * The `<head>` tags of a rendered page, written by React (attributes and text escaped) and spliced into the
 * built `index.html` in place of its generic title and description.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { shopName } from '../lib/page-titles.ts';
import type { PageMeta } from './page-meta.ts';
import { inertJson } from '../lib/page-state.ts';

function Head({ meta }: { meta: PageMeta }) {
  return (
    <>
      <title>{meta.title}</title>
      <meta name="description" content={meta.description} />
      {meta.robots && <meta name="robots" content={meta.robots} />}
      {meta.canonical && <link rel="canonical" href={meta.canonical} />}
      {meta.openGraph && (
        <>
          <meta property="og:site_name" content={shopName} />
          <meta property="og:type" content={meta.openGraph.type} />
          <meta property="og:title" content={meta.title} />
          <meta property="og:description" content={meta.description} />
          <meta property="og:url" content={meta.openGraph.url} />
          {meta.openGraph.image && <meta property="og:image" content={meta.openGraph.image} />}
        </>
      )}
      {meta.jsonLd.map((data, index) => (
        // Data, not code: browsers never run ld+json, and inertJson keeps a record's `</script>` from closing it.
        <script key={index} type="application/ld+json" dangerouslySetInnerHTML={{ __html: inertJson(data) }} />
      ))}
    </>
  );
}

export function headTags(meta: PageMeta): string {
  return renderToStaticMarkup(<Head meta={meta} />);
}

/**
 * The built shell with the page's head tags, its markup in `#root` and its state after it. The shell's own
 * `<title>` and description are replaced; everything else (the bundles' tags) stays as Vite wrote it.
 */
export function fillShell(shell: string, head: string, body: string, stateScript: string): string {
  const withoutGenericHead = shell.replace(/<title>[\s\S]*?<\/title>/, '').replace(/<meta name="description"[^>]*>/, '');
  return withoutGenericHead
    .replace('</head>', () => `${head}</head>`)
    .replace(/<div id="root">[\s\S]*?<\/div>/, () => `<div id="root">${body}</div>${stateScript}`);
}
