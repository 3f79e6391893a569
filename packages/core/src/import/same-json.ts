/**
 * Whether two JSON-like values are equal: arrays in order, object keys in any order.
 * Used to tell a real change (version + 1) from a re-import of the same data.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]))
  }
  const ak = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined)
  const bk = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined)
  return ak.length === bk.length && ak.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}
