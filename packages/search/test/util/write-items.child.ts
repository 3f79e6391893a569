// Child process for the freshness test: opens the SQLite store at argv[2] and, in one
// transaction, writes the item argv[4] titled argv[5] into tenant argv[3] (category `news`),
// or deletes it when no title is given; then exits.
import { openSqliteStore } from '@frontdesk/adapter-sqlite'
import { aContent } from '@frontdesk/core/testing'

const [path, tenantId, id, title] = process.argv.slice(2)
if (path === undefined || tenantId === undefined || id === undefined) throw new Error('usage: write-items.child <db path> <tenant> <id> [title]')
const store = openSqliteStore({ path })
await store.transaction(async (tx) => {
  if (title === undefined) await tx.deleteContent(tenantId, id)
  else await tx.putContent(aContent(tenantId, id, 'news', { title }))
})
await store.close()
