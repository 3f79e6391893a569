import type { EventType } from '../port/event-outbox.ts'

/** Every event type, in the order the README lists them. */
export const EVENT_TYPES: readonly EventType[] = ['inquiry.created', 'content.published', 'content.updated', 'content.unpublished', 'content.deleted']

/**
 * Checks a list of event type patterns (`inquiry.created`, `content.*`, `*`): each must name a
 * type or a group of them. Returns the list with duplicates dropped, or the first bad entry.
 */
export function parseEventPatterns(patterns: readonly string[]): { ok: true; value: string[] } | { ok: false; bad: string } {
  const value: string[] = []
  for (const raw of patterns) {
    const pattern = raw.trim()
    if (!EVENT_TYPES.some((type) => matchesEventPattern(pattern, type))) return { ok: false, bad: raw }
    if (!value.includes(pattern)) value.push(pattern)
  }
  return value.length === 0 ? { ok: false, bad: '' } : { ok: true, value }
}

/** Whether `type` is one `pattern` names: the type itself, `<group>.*`, or `*`. */
export function matchesEventPattern(pattern: string, type: string): boolean {
  if (pattern === '*' || pattern === type) return true
  return pattern.endsWith('.*') && pattern.length > 2 && type.startsWith(pattern.slice(0, -1))
}

/** The types some of `patterns` name; every type for `null` (a store that keeps no endpoints: see `EventWriter.eventSubscriptions`). */
export function subscribedTypes(patterns: readonly string[] | null): ReadonlySet<EventType> {
  return new Set(patterns === null ? EVENT_TYPES : EVENT_TYPES.filter((type) => subscribesTo(patterns, type)))
}

/** Whether any of `patterns` names `type`. */
export function subscribesTo(patterns: readonly string[], type: string): boolean {
  return patterns.some((pattern) => matchesEventPattern(pattern, type))
}
