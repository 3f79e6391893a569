// The client's calls as any runtime makes them, for test/client-runtimes.test.ts: bundled with
// the packed client (dist/) into one module and run on Bun, Deno and workerd, with nothing of
// Node. It returns what it saw; the test compares that with what the server holds.
import type { FetchLike } from '@frontdesk/client'
import { FrontdeskApiError, FrontdeskCertificateError, FrontdeskClient } from '@frontdesk/client'

export interface ConformanceConfig {
  /** A server whose certificate the runtime trusts (its CA was given to the runtime). */
  url: string
  /** A server whose certificate the runtime does not trust. */
  untrustedUrl: string
  readKey: string
  inquiryKey: string
}

export async function conformance(config: ConformanceConfig): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {}
  const cms = new FrontdeskClient({ baseUrl: config.url, apiKey: config.readKey, retry: { retries: 2, baseDelayMs: 10 } })
  const walked: string[] = []
  for await (const item of cms.contents.all({ category_code: 'news', limit: 2 })) walked.push(item.slug)
  out.walked = walked
  const third = await cms.contents.getBySlug('item-3')
  out.byId = (await cms.contents.get(third.id)).slug
  const categories = await cms.categories.list()
  out.categories = categories.map((category) => category.code)
  out.fields = (await cms.categories.get(categories[0]?.id ?? '')).fields.map((field) => field.name)
  out.found = (await cms.search({ query: 'office news 3', category_code: 'news' })).items.map((item) => item.slug)
  out.openapi = (await cms.openApi()).openapi

  const forms = new FrontdeskClient({ baseUrl: config.url, apiKey: config.inquiryKey })
  const created = await forms.inquiries.create({ category_code: 'sales', title: 'Hello', content: 'Call me', inquirer_name: 'Bo', inquirer_email: 'bo@example.com', inquirer_company: 'Acme' })
  out.inquiry = created.status
  out.inquiryCategories = (await forms.inquiries.categories()).map((category) => category.code)

  const missing = (await cms.contents.getBySlug('no-such-item').catch((error: unknown) => error)) as FrontdeskApiError
  out.notFound = { apiError: missing instanceof FrontdeskApiError, status: missing.status, code: missing.code }
  const forbidden = (await forms.contents.list().catch((error: unknown) => error)) as FrontdeskApiError
  out.forbidden = { apiError: forbidden instanceof FrontdeskApiError, code: forbidden.code, message: forbidden.message }

  let calls = 0
  const counting: FetchLike = (input, init) => {
    calls++
    return fetch(input, init)
  }
  const untrusted = new FrontdeskClient({ baseUrl: config.untrustedUrl, apiKey: config.readKey, fetch: counting, retry: { retries: 2, baseDelayMs: 10 } })
  const refused = (await untrusted.categories.list().catch((error: unknown) => error)) as FrontdeskCertificateError
  out.certificate = { certificateError: refused instanceof FrontdeskCertificateError, runtime: refused.runtime, origin: refused.origin, message: refused.message, calls }
  return out
}
