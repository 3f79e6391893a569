/** Prefixes of generated ids (README "Content list"). */
export type IdPrefix = 'ten' | 'cnt' | 'cat' | 'fld' | 'tag' | 'inq' | 'icat' | 'key' | 'prv' | 'evt' | 'whe'

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz'
let lastTime = -1
let lastRandom: number[] = []

/**
 * A new id: `<prefix>_` + 10 characters of time + 16 random characters (a lower-case ULID),
 * sortable by creation time. Ids made within one millisecond by one process still sort in
 * the order they were made.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  let random: number[]
  if (now <= lastTime) {
    random = increment(lastRandom)
    now = lastTime
  } else {
    random = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b & 31)
  }
  lastTime = now
  lastRandom = random
  let time = ''
  for (let rest = now, i = 0; i < 10; i++) {
    time = CROCKFORD[rest % 32] + time
    rest = Math.floor(rest / 32)
  }
  return `${prefix}_${time}${random.map((d) => CROCKFORD[d]).join('')}`
}

function increment(digits: number[]): number[] {
  const next = digits.slice()
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i]! < 31) {
      next[i]!++
      return next
    }
    next[i] = 0
  }
  return next
}

/** The shape every id must have, generated or given (`^[A-Za-z0-9_-]{1,64}$`). */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/
