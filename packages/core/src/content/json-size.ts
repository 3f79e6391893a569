/**
 * About how many characters `JSON.stringify(value)` would take, without building the string:
 * what a cached reply is charged against the cache's byte budget. Exact for plain ASCII data
 * without characters JSON escapes; escapes (quotes, control characters) are not counted.
 */
export function jsonSizeOf(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2
    case 'number':
      return String(value).length
    case 'boolean':
      return value ? 4 : 5
    case 'object': {
      if (value === null) return 4
      if (Array.isArray(value)) {
        let size = 2 + Math.max(0, value.length - 1)
        for (const item of value) size += item === undefined ? 4 : jsonSizeOf(item)
        return size
      }
      let size = 2
      let first = true
      // Hint: for…in over own keys, not Object.entries: no array per property (it was half the cost).
      const record = value as Record<string, unknown>
      for (const key in record) {
        if (!Object.hasOwn(record, key)) continue
        const item = record[key]
        if (item === undefined || typeof item === 'function') continue
        size += (first ? 0 : 1) + key.length + 3 + jsonSizeOf(item)
        first = false
      }
      return size
    }
    default:
      return 0
  }
}
