import pg from 'pg'
import { createRequire } from 'node:module'
import { openPostgresStore } from '@frontdesk/adapter-postgres'
import { admin } from '@frontdesk/adapter-postgres/testing'
import { startBenchPostgres } from './postgres-server.ts'
const require = createRequire('/tmp/pgcopy/index.js')
const { from: copyFrom } = require('pg-copy-streams')
const N = 20000
const server = await startBenchPostgres(false)
try {
  await admin(server.url, 'CREATE DATABASE exp')
  const url = new URL(server.url); url.pathname = '/exp'
  const store = await openPostgresStore({ url: url.toString() }); await store.close()
  const c = new pg.Client({ connectionString: url.toString() }); await c.connect()
  await c.query('DROP INDEX contents_by_published, contents_by_title, contents_by_updated, contents_by_id, contents_by_category, contents_by_tag, contents_by_field')
  const words = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore'.split(' ')
  const rows: (string | number | null)[][] = []
  for (let i = 0; i < N; i++) {
    let body = '<p>'; while (body.length < 1500) body += words[(i * 7 + body.length) % words.length] + ' '
    rows.push(['ten_1', `cnt_${String(i).padStart(8, '0')}`, `slug-${i}`, `Title ${i} ${words[i % 15]}`, 'cat_news', 'published', '2025-01-01T00:00:00.000Z', 'Author', 'A summary sentence', body + '</p>', '{"og_title":"x"}', 1, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', '{"tag_1","tag_2","tag_3"}', JSON.stringify({ fld_a: i % 100, fld_b: 'tokyo', fld_c: true, fld_d: '2025-03-01' })])
  }
  const COLS = ['tenant_id','id','slug','title','category_id','status','published_at','author_name','summary','body','meta','version','created_at','updated_at','tag_ids','fields']
  const UPSERT = `INSERT INTO contents (${COLS.join(', ')}) SELECT u.tenant_id, u.id, u.slug, u.title, u.category_id, u.status, u.published_at, u.author_name, u.summary, u.body, u.meta, u.version, u.created_at, u.updated_at, u.tag_ids::text[], u.fields::jsonb FROM unnest(${COLS.map((c, i) => `$${i + 1}::${c === 'version' ? 'integer' : 'text'}[]`).join(', ')}) AS u(${COLS.join(', ')}) ON CONFLICT (tenant_id, id) DO UPDATE SET title = EXCLUDED.title`
  for (const round of [1, 2]) {
    await c.query('BEGIN')
    let t = performance.now()
    for (let b = 0; b < N; b += 1000) {
      const cols = COLS.map(() => [] as unknown[])
      for (const r of rows.slice(b, b + 1000)) r.forEach((v, i) => cols[i]!.push(v))
      await c.query(UPSERT, cols)
    }
    console.log('unnest insert', (performance.now() - t).toFixed(0), 'ms')
    await c.query('ROLLBACK')
    await c.query('BEGIN')
    t = performance.now()
    const esc = (v: string | number | null) => v === null ? '\\N' : String(v).replace(/[\\\n\r\t]/g, (m) => m === '\\' ? '\\\\' : m === '\n' ? '\\n' : m === '\r' ? '\\r' : '\\t')
    for (let b = 0; b < N; b += 1000) {
      const text = rows.slice(b, b + 1000).map((r) => r.map(esc).join('\t')).join('\n') + '\n'
      await new Promise<void>((resolve, reject) => {
        const stream = c.query(copyFrom(`COPY contents (${COLS.join(', ')}) FROM STDIN`))
        stream.on('finish', resolve); stream.on('error', reject)
        stream.end(text)
      })
    }
    console.log('copy', (performance.now() - t).toFixed(0), 'ms')
    await c.query('ROLLBACK')
  }
  await c.end()
} finally { await server.stop() }
