import type { ImportItem } from '@frontdesk/core'
import { DEMO_CATEGORIES, DEMO_INQUIRY_CATEGORIES, DEMO_TAGS } from './demo-catalog.ts'
import type { DemoItem } from './demo-contents-en.ts'
import { DEMO_BLOG, DEMO_NEWS } from './demo-contents-en.ts'
import { DEMO_OSHIRASE, DEMO_UNPUBLISHED } from './demo-contents-ja.ts'

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * Every record of the demo site, as `importRecords` takes them: categories, tags, ~50 content
 * items in English and Japanese (a few drafts, one scheduled three days ahead, one in an
 * inactive category) and inquiry categories. Dates are relative to `now`'s day, so the site always
 * looks recent; re-importing updates the same records (fixed ids).
 */
export function demoRecords(now: number): ImportItem[] {
  // Dates hang off the start of the day, so a re-run on the same day changes nothing.
  const today = Math.floor(now / DAY_MS) * DAY_MS
  const records: unknown[] = [
    ...DEMO_CATEGORIES,
    ...DEMO_TAGS,
    ...[...DEMO_NEWS, ...DEMO_BLOG, ...DEMO_OSHIRASE].map((item) => contentRecord(item, today - item.daysAgo * DAY_MS - hourOf(item) * 3_600_000)),
    ...DEMO_UNPUBLISHED.map((item) => contentRecord(item, item.scheduledInDays === undefined ? null : today + item.scheduledInDays * DAY_MS)),
    ...DEMO_INQUIRY_CATEGORIES,
  ]
  return records.map((record, i) => ({ record, location: `demo record ${i + 1}` }))
}

function contentRecord(item: DemoItem, publishedAt: number | null): Record<string, unknown> {
  const { daysAgo: _daysAgo, status, ...rest } = item
  const record: Record<string, unknown> = {
    kind: 'content',
    ...rest,
    status: status ?? 'published',
    meta: { og_title: item.title, og_description: item.summary },
  }
  delete record['scheduledInDays']
  if (publishedAt !== null) record['published_at'] = new Date(Math.floor(publishedAt / 1000) * 1000).toISOString()
  return record
}

/** A stable hour of the day per item, so that items of one day do not share a timestamp. */
function hourOf(item: DemoItem): number {
  let hash = 0
  for (const ch of item.id) hash = (hash * 31 + ch.charCodeAt(0)) % 9973
  return hash % 10
}
