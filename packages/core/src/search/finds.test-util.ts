import { tokenize } from './analyzer.ts'
import { parseQueryTerms, wordMatches } from './query-terms.ts'

/** Whether a query finds a text by core's rules: every term matches one of the text's terms (the reference search's decision). */
export function finds(query: string, text: string): boolean {
  const terms = parseQueryTerms(query)
  const tokens = tokenize(text)
  return (
    terms.length > 0 &&
    terms.every((term) =>
      term.kind === 'word'
        ? tokens.some((token) => !token.cjk && wordMatches(term, token.term))
        : term.grams.every((gram) => tokens.some((token) => token.cjk && (term.prefix ? token.term.startsWith(gram) : token.term === gram))),
    )
  )
}
