/** One request of the demo banner: what it shows, the path and query, and a JSON body for POSTs. */
export interface DemoExample {
  title: string
  path: string
  body?: unknown
}

/** The requests the demo banner prints as curl lines; every one succeeds against the demo site. */
export function demoExamples(): DemoExample[] {
  return [
    { title: 'latest published content (all categories)', path: '/v1/cms/contents?limit=5' },
    { title: 'news tagged "product", 3 per page (follow pagination.next_cursor with &cursor=…)', path: '/v1/cms/contents?category_code=news&tags=product&limit=3' },
    { title: 'Japanese announcements, filtered by a custom field (juyodo = 重要)', path: `/v1/cms/contents?category_code=oshirase&field_filters=${encodeURIComponent('fld_demo_juyodo:重要')}` },
    { title: 'content detail by id', path: '/v1/cms/contents/cnt_demo_ja_office_move' },
    { title: 'content detail by slug', path: '/v1/cms/contents/slug/aurora-launch' },
    { title: 'categories', path: '/v1/cms/categories' },
    { title: 'category detail with its custom-field definitions', path: '/v1/cms/categories/cat_demo_news' },
    { title: 'full-text search (English)', path: '/v1/cms/search', body: { query: 'aurora', size: 5 } },
    { title: 'full-text search (Japanese: 移転 finds オフィス移転のお知らせ)', path: '/v1/cms/search', body: { query: '移転' } },
    { title: 'search with a custom-field filter, newest first', path: '/v1/cms/search', body: { query: 'aurora', filter: { custom_importance: 'high' }, sort: 'published_at:desc' } },
    { title: 'inquiry categories for a contact form', path: '/v1/inquiries/categories' },
    {
      title: 'create an inquiry (201)',
      path: '/v1/inquiries',
      body: { category_code: 'otoiawase', title: '資料請求', content: 'Auroraの資料を送ってください。', inquirer_name: '山田 太郎', inquirer_email: 'taro@example.com', priority: 2 },
    },
  ]
}

/** Quotes `text` for a POSIX shell (single quotes; a single quote becomes '\''). */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_\/.:=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`
}
