import type { BucketPolicy, BucketStep } from '@frontdesk/core'
import type { Sql } from '../connection/sql.ts'

/*
 * One statement per step, atomic by itself: the conflicting row is locked, so steps on one
 * bucket from any number of connections take turns. `avail` is the bucket refilled to $5
 * (`refilled` of @frontdesk/core); $4 ≥ 0 takes up to $4 whole tokens, $4 < 0 gives -$4 back.
 * A missing bucket is full. Expressions are spelled out twice because every SET expression
 * sees the row as it was.
 */
const CAPACITY = '$2::float8'
const RATE = '$3::float8'
const COUNT = '$4::float8'
const NOW = '$5::float8'
const AVAIL = `LEAST(${CAPACITY}, b.tokens + GREATEST(0, ${NOW} - b.at) * ${RATE} / 1000)`
const TAKEN = (avail: string) => `CASE WHEN ${COUNT} >= 0 THEN LEAST(${COUNT}, floor(${avail})) ELSE 0 END`
const AFTER = (avail: string) => `CASE WHEN ${COUNT} >= 0 THEN ${avail} - ${TAKEN(avail)} ELSE LEAST(${CAPACITY}, ${avail} - ${COUNT}) END`
const STEP = `
INSERT INTO rate_limit_buckets AS b (name, tokens, at, taken, full_at)
VALUES ($1::text, ${AFTER(CAPACITY)}, ${NOW}, ${TAKEN(CAPACITY)}, ${NOW} + (${CAPACITY} - ${AFTER(CAPACITY)}) * 1000 / ${RATE})
ON CONFLICT (name) DO UPDATE SET
  tokens = ${AFTER(AVAIL)},
  taken = ${TAKEN(AVAIL)},
  full_at = GREATEST(b.at, ${NOW}) + (${CAPACITY} - ${AFTER(AVAIL)}) * 1000 / ${RATE},
  at = GREATEST(b.at, ${NOW})
RETURNING tokens, taken
`

/** Takes up to `count` tokens (`count` ≥ 0) or gives `-count` back, in one atomic statement. */
export async function stepBucket(sql: Sql, name: string, policy: BucketPolicy, count: number, now: number): Promise<BucketStep> {
  const rows = await sql.rows<{ tokens: number; taken: number }>(STEP, [name, policy.capacity, policy.rate, count, now])
  const row = rows[0]
  if (row === undefined) throw new Error('The bucket step returned no row')
  return { taken: Number(row.taken), tokens: Math.max(0, Number(row.tokens)) }
}

/** Drops the buckets that are full again at `now` (a full bucket is as good as none). */
export async function pruneBuckets(sql: Sql, now: number): Promise<void> {
  await sql.run('DELETE FROM rate_limit_buckets WHERE full_at <= $1::float8', [now])
}
