// Child process for the durability test: opens the store at argv[2] and inserts inquiries one
// after another, printing `ack <id>` after each insertInquiry resolves, until it is killed.
import { openSqliteStore } from '../../src/sqlite-store.ts'

const path = process.argv[2]
if (path === undefined) throw new Error('usage: insert-inquiries.child <db path>')
const store = openSqliteStore({ path })
const tenantId = 'ten_1'
for (let n = 0; n < 10_000; n++) {
  const id = `inq_${String(n).padStart(5, '0')}`
  await store.insertInquiry({
    tenant_id: tenantId, id, category_code: 'general', title: `Inquiry ${n}`, content: 'x', priority: 2,
    inquirer_name: 'Ina', inquirer_email: 'ina@example.com', inquirer_phone: null, inquirer_company: null,
    inquirer_department: null, status: 'open', api_key_id: null, created_at: new Date().toISOString(),
  })
  process.stdout.write(`ack ${id}\n`)
}
