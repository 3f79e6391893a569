/** Prefixes of generated ids (README "Content list"). */
export type IdPrefix = 'ten' | 'cnt' | 'cat' | 'fld' | 'tag' | 'inq' | 'icat' | 'key' | 'prv' | 'evt' | 'whe'

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz'
let lastTime = -1
/** The 10 time characters of `lastTime`. */
let lastTimeText = ''
/** The 16 random digits (0–31) of the last id; changed in place. */
const lastRandom: number[] = []

/**
 * A new id: `<prefix>_` + 10 characters of time + 16 random characters (a lower-case ULID),
 * sortable by creation time. Ids made within one millisecond by one process still sort in
 * the order they were made.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  // Hint: an import makes an id per event within one millisecond: the time's characters are kept, the random part is counted up in place.
  if (now <= lastTime) increment(lastRandom)
  else {
    const bytes = crypto.getRandomValues(new Uint8Array(16))
    for (let i = 0; i < 16; i++) lastRandom[i] = (bytes[i] as number) & 31
    lastTime = now
    lastTimeText = ''
    for (let rest = now, i = 0; i < 10; i++) {
      lastTimeText = CROCKFORD[rest % 32] + lastTimeText
      rest = Math.floor(rest / 32)
    }
  }
  let random = ''
  for (let i = 0; i < 16; i++) random += CROCKFORD[lastRandom[i] as number]
  return `${prefix}_${lastTimeText}${random}`
}

function increment(digits: number[]): void {
  for (let i = digits.length - 1; i >= 0; i--) {
    if (digits[i]! < 31) {
      digits[i]!++
      return
    }
    digits[i] = 0
  }
}

/** The shape every id must have, generated or given (`^[A-Za-z0-9_-]{1,64}$`). */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/
