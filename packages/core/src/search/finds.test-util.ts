import { tokenize } from './analyzer.ts'
import type { QueryTerm } from './query-terms.ts'
import { parseQueryTerms, wordMatches } from './query-terms.ts'

/**
 * Whether a query finds a text by core's rules: every term, or one of its alternatives (all of
 * its terms), matches one of the text's terms (the reference search's decision).
 */
export function finds(query: string, text: string): boolean {
  const terms = parseQueryTerms(query)
  const tokens = tokenize(text)
  const matches = (term: QueryTerm): boolean =>
    term.kind === 'word'
      ? tokens.some((token) => !token.cjk && wordMatches(term, token.term))
      : term.grams.every((gram) => tokens.some((token) => token.cjk && (term.prefix ? token.term.startsWith(gram) : token.term === gram)))
  return terms.length > 0 && terms.every((term) => matches(term) || (term.synonyms ?? []).some((alternative) => alternative.every(matches)))
}
