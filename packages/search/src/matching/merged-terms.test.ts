import { parseQueryTerms } from '@frontdesk/core'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { InvertedIndex } from './inverted-index.ts'
import { DocScratch, MergedTerms, REMEMBER_TERM_FROM } from './merged-terms.ts'
import { termKey, TermExpansions } from './term-expansions.ts'

test('remembered matches beyond the bound go least recently used first', () => {
  // Three prefixes of two words each, every word in every document: each merge is worth remembering.
  const index = new InvertedIndex()
  const count = REMEMBER_TERM_FROM
  for (let doc = 0; doc < count; doc++) index.addDocument(doc, ['alpha alpine beta betray gamma gammon', '', '', '', ''])
  const expansions = new TermExpansions(index, true)
  const merged = new MergedTerms(index, true, 2 * count)
  const scratch = new DocScratch()
  scratch.ensure(count)
  const merge = (prefix: string) => {
    const [term] = parseQueryTerms(prefix)
    if (term === undefined) throw new Error('no term')
    return merged.merge(termKey(term), expansions.groupsOf(term), 2 * count, count, null, scratch)
  }
  const key = (prefix: string) => {
    const [term] = parseQueryTerms(prefix)
    return term === undefined ? '' : termKey(term)
  }
  merged.validate(1)
  const alp = merge('alp')
  merge('bet')
  assert.is(merged.remembered(key('alp')), alp, 'both fit; alp used again')
  merge('gam')
  assert.is(merged.remembered(key('alp')), alp, 'alp, used more recently, stays')
  assert.is(merged.remembered(key('bet')), undefined, 'bet went')
  assert.ok(merged.remembered(key('gam')))
  merged.validate(2)
  assert.is(merged.remembered(key('gam')), undefined, 'a new version of the index forgets them all')
})

test.run()
