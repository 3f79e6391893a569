import type { QueryTerm } from '@frontdesk/core'
import { wordMatches } from '@frontdesk/core'

/**
 * The indexed words one typo away from a query word, for the FTS5 reference (FTS5 has no
 * fuzzy matching). Candidates come from a deletion index (every word under itself and under
 * each of its one-letter deletions: two strings one insertion, deletion, substitution or
 * transposition apart share an entry), so a lookup costs a few map reads rather than a pass
 * over the vocabulary; each candidate is then checked with core's own rule (`wordMatches`), so
 * the reference tolerates exactly the typos the engine does.
 */
export class OneEditWords {
  readonly #byDeletion = new Map<string, string[]>()

  constructor(words: Iterable<string>) {
    for (const word of words) for (const key of deletions(word)) {
      const list = this.#byDeletion.get(key)
      if (list === undefined) this.#byDeletion.set(key, [word])
      else list.push(word)
    }
  }

  /** The words the term matches by a typo only (those it is a prefix of are left out: a prefix query finds them). */
  of(term: Extract<QueryTerm, { kind: 'word' }>): string[] {
    if (term.fuzzy === 0) return []
    const found = new Set<string>()
    for (const key of deletions(term.term)) {
      for (const word of this.#byDeletion.get(key) ?? []) {
        if (!word.startsWith(term.term) && wordMatches(term, word)) found.add(word)
      }
    }
    return [...found]
  }
}

/** The word itself and each of its one-character deletions (by code point). */
function deletions(word: string): Set<string> {
  const chars = [...word]
  const out = new Set<string>([word])
  for (let i = 0; i < chars.length; i++) out.add(chars.slice(0, i).join('') + chars.slice(i + 1).join(''))
  return out
}
