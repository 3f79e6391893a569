// Renders a page of a category's content as HTML on stdout, with @frontdesk/client.
//
//   npm install @frontdesk/client
//   FRONTDESK_URL=https://cms.example.com FRONTDESK_KEY=fdk_... npx tsx examples/render-page.ts news [limit]
//
// The development certificate (`frontdesk serve --dev-cert`) is trusted through its CA:
// NODE_EXTRA_CA_CERTS=path/to/.frontdesk/dev-ca.pem. The key needs only cms:read.
import type { ContentListItem } from '@frontdesk/client'
import { FrontdeskApiError, FrontdeskClient } from '@frontdesk/client'

const [categoryCode = 'news', limitArg = '10'] = process.argv.slice(2)
const baseUrl = process.env.FRONTDESK_URL
const apiKey = process.env.FRONTDESK_KEY
if (baseUrl === undefined || apiKey === undefined) {
  console.error('set FRONTDESK_URL and FRONTDESK_KEY')
  process.exit(2)
}

const cms = new FrontdeskClient({ baseUrl, apiKey })

/** Text for HTML: everything the API returns as plain text must be escaped before use. */
function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function card(item: ContentListItem): string {
  const date = item.published_at === null ? '' : `<time datetime="${escape(item.published_at)}">${escape(item.published_at.slice(0, 10))}</time>`
  const tags = item.tags.map((tag) => `<li>${escape(tag)}</li>`).join('')
  return `    <article>
      <h2><a href="/${escape(item.category_code)}/${encodeURIComponent(item.slug)}">${escape(item.title)}</a></h2>
      ${date}
      <p>${escape(item.summary)}</p>
      <ul class="tags">${tags}</ul>
    </article>`
}

try {
  const category = (await cms.categories.list()).find((c) => c.code === categoryCode)
  if (category === undefined) throw new Error(`no active category ${categoryCode}`)
  const page = await cms.contents.list({ category_code: categoryCode, limit: Number(limitArg) })
  // The newest item's body is HTML from the CMS: trusted markup, so it is inserted as it is.
  const lead = page.items[0] === undefined ? null : await cms.contents.get(page.items[0].id)
  process.stdout.write(`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>${escape(category.name)}</title>
    ${lead === null ? '' : `<meta property="og:title" content="${escape(lead.meta.og_title || lead.title)}">`}
  </head>
  <body>
    <h1>${escape(category.name)}</h1>
    <p>${escape(category.description)}</p>
${lead === null ? '' : `    <section class="lead">${lead.content.body}</section>\n`}${page.items.map(card).join('\n')}
${page.pagination.has_more ? `    <a rel="next" href="?cursor=${encodeURIComponent(page.pagination.next_cursor ?? '')}">Older</a>\n` : ''}  </body>
</html>
`)
} catch (error) {
  // One line, with the request id the operator can find in the server's access log.
  if (error instanceof FrontdeskApiError) console.error(`frontdesk: ${error.status} ${error.code}: ${error.message} (request ${error.requestId})`)
  else console.error(`render-page: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
