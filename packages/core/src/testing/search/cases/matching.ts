import * as assert from 'uvu/assert'
import type { FieldDefinition } from '../../../model/category.ts'
import { aCategory, aContent } from '../../fixtures.ts'
import { aSearchQuery, hitIds, hitSet, seedSearch } from '../search-fixtures.ts'
import { searchSuite } from '../search-suite.ts'
import type { SearchPairing } from '../search-suite.ts'
import type { SearchPort } from '../../../port/search.ts'
import type { Store } from '../../../port/store.ts'

const T = 'ten_a'
const FIELDS: FieldDefinition[] = [
  { id: 'fld_colour', name: 'colour', type: 'text', required: false },
  { id: 'fld_size', name: 'size', type: 'select', options: ['small', 'medium', 'large'], required: false },
  { id: 'fld_price', name: 'price', type: 'number', required: false },
  { id: 'fld_release', name: 'release', type: 'date', required: false },
]
const blank = { summary: '', body: '', author_name: 'Zebediah Quill' }


/** Items whose words sit in every searched field, and in places that are not searched. */
async function seedMatching(store: Store): Promise<void> {
  await seedSearch(store, T, [aCategory(T, 'cat_news', { fields: FIELDS })], [
    aContent(T, 'm1', 'cat_news', { ...blank, title: 'Office relocation notice', body: '<p>We are moving to <b>Tokyo</b>.</p>' }),
    aContent(T, 'm2', 'cat_news', { ...blank, title: 'Quarterly results', summary: 'Revenue grew in Osaka' }),
    aContent(T, 'm3', 'cat_news', { ...blank, title: 'オフィス移転のお知らせ', summary: '新しいオフィスへ移転します' }),
    aContent(T, 'm4', 'cat_news', {
      ...blank, title: 'Garden party', tags: [{ id: 'tag_summer', name: 'summer' }],
      fields: { fld_colour: 'turquoise', fld_size: 'medium', fld_price: 12345, fld_release: '2031-02-03' },
    }),
    aContent(T, 'm5', 'cat_news', { ...blank, title: '서울 지사 개설' }),
    aContent(T, 'm6', 'cat_news', { ...blank, title: 'Plain', body: '<span class="marker">hidden</span> text &amp; more' }),
    aContent(T, 'm7', 'cat_news', { ...blank, title: 'Another office', slug: 'unique-slug-xyzzy', meta: { og_title: 'Plover', og_description: '' } }),
    aContent(T, 'm8', 'cat_news', { ...blank, title: '𐌰𐌱𐌲𐌳𐌴𐌵 runes' }),
    aContent(T, 'm9', 'cat_news', { ...blank, title: 'Le Café de Flore', summary: 'Ελλάδα, ёлка', body: '<p>Cre\u0301me bru\u0302le\u0301e</p>' }),
    aContent(T, 'm10', 'cat_news', { ...blank, title: 'ガイドブック', summary: 'Aurora borealis' }),
    aContent(T, 'm11', 'cat_news', { ...blank, title: 'カイロ' }),
  ])
}

/** Matching (README "Search"): AND (or the most terms), prefixes, one typo, CJK inside unspaced text, the fields searched and those not. */
export function matchingCases<S extends Store>(name: string, pairing: SearchPairing<S>): void {
  const s = searchSuite(`${name}: search matching`, pairing)
  const find = async (search: SearchPort, text: string): Promise<string[]> => hitSet(await search.search(T, aSearchQuery(text)))

  s('every term must match (AND), in any of the searched fields, unless no item has them all', async ({ store, search }) => {
    await seedMatching(store)
    assert.equal(await find(search, 'office'), ['m1', 'm7'])
    assert.equal(await find(search, 'tokyo office'), ['m1'], 'title and body')
    assert.equal(await find(search, 'office notice relocation'), ['m1'])
    assert.equal(await find(search, 'tokyo results'), ['m1', 'm2'], 'no item has both: those with the most of them (no dead ends)')
    assert.equal(await find(search, 'osaka'), ['m2'], 'summary')
    assert.equal(await find(search, 'summer'), ['m4'], 'tags')
    assert.equal(await find(search, 'turquoise'), ['m4'], 'a custom text field')
    assert.equal(await find(search, 'medium'), ['m4'], 'a custom select field')
  })

  s('each term matches as a prefix, whatever its case or width', async ({ store, search }) => {
    await seedMatching(store)
    assert.equal(await find(search, 'reloc'), ['m1'])
    assert.equal(await find(search, 'Off'), ['m1', 'm7'])
    assert.equal(await find(search, 'ＯＦＦＩＣＥ'), ['m1', 'm7'], 'full-width letters')
    assert.equal(await find(search, 'TOKYO'), ['m1'])
    assert.equal(await find(search, 'quarterlyxy'), [], 'no prefix of a word, two edits from it')
  })

  s('a word of 5 letters or more tolerates one typo; a shorter one does not', async ({ store, search }) => {
    await seedMatching(store)
    assert.equal(await find(search, 'relokation'), ['m1'], 'a substitution')
    assert.equal(await find(search, 'relocaton'), ['m1'], 'a deletion')
    assert.equal(await find(search, 'gardenn'), ['m4'], 'an insertion')
    assert.equal(await find(search, 'tokio'), ['m1'], 'five letters')
    assert.equal(await find(search, 'partt'), ['m4'])
    assert.equal(await find(search, 'pary'), [], 'four letters: no typo')
    assert.equal(await find(search, 'rilokation'), [], 'two substitutions')
  })

  s('two neighbouring letters swapped are one typo', async ({ store, search }) => {
    await seedMatching(store)
    assert.equal(await find(search, 'relocatoin'), ['m1'])
    assert.equal(await find(search, 'auorra'), ['m10'])
    assert.equal(await find(search, 'uarora'), ['m10'], 'the first two letters')
    assert.equal(await find(search, 'auorar'), [], 'a swap and a substitution')
    assert.equal(await find(search, 'oaruar'), [], 'two swaps')
    assert.equal(await find(search, '𐌱𐌰𐌲𐌳𐌴𐌵'), ['m8'], 'letters beyond the BMP')
  })

  s('diacritics of Latin, Greek and Cyrillic letters fold away; Japanese voicing marks do not', async ({ store, search }) => {
    await seedMatching(store)
    assert.equal(await find(search, 'cafe'), ['m9'])
    assert.equal(await find(search, 'CAFÉ'), ['m9'])
    assert.equal(await find(search, 'creme brulee'), ['m9'], 'accents written apart from their letters')
    assert.equal(await find(search, 'crème brûlée'), ['m9'])
    assert.equal(await find(search, 'ελλαδα'), ['m9'], 'Greek tonos')
    assert.equal(await find(search, 'елка'), ['m9'], 'Cyrillic ё')
    assert.equal(await find(search, 'ガイド'), ['m10'])
    assert.equal(await find(search, 'カイド'), [], 'カ is not ガ')
    assert.equal(await find(search, 'カイ'), ['m11'])
  })

  s('one typo is one character, also beyond the BMP (a letter of two UTF-16 code units)', async ({ store, search }) => {
    await seedMatching(store)
    assert.equal(await find(search, '𐌰𐌱𐌲𐌳𐌴𐌵'), ['m8'])
    assert.equal(await find(search, '𐌰𐌱𐌲𐌳𐌴𐌶'), ['m8'], 'a substitution')
    assert.equal(await find(search, '𐌰𐌱𐌲𐌳𐌵'), ['m8'], 'a deletion')
    assert.equal(await find(search, '𐌰𐌱𐌲𐌳𐌴𐌵𐌵'), ['m8'], 'an insertion')
    assert.equal(await find(search, '𐌰𐌱𐌲x𐌴𐌵'), ['m8'], 'a substitution by a letter of the BMP')
    assert.equal(await find(search, '𐌰𐌱𐌲𐌵'), [], 'two edits')
  })

  s('Japanese and Korean words are found inside unspaced text, one character as a prefix', async ({ store, search }) => {
    await seedMatching(store)
    assert.equal(await find(search, '移転'), ['m3'])
    assert.equal(await find(search, 'オフィス'), ['m3'])
    assert.equal(await find(search, 'お知らせ'), ['m3'])
    assert.equal(await find(search, '移'), ['m3'], 'one character')
    assert.equal(await find(search, 'せ'), ['m3'], 'the last character of a run')
    assert.equal(await find(search, '転居'), [], 'a bigram the text does not hold')
    assert.equal(await find(search, '移転 お知らせ'), ['m3'])
    assert.equal(await find(search, '移転 osaka'), ['m2', 'm3'], 'no item has both: those with one')
    assert.equal(await find(search, '서울'), ['m5'])
    assert.equal(await find(search, '지사'), ['m5'])
  })

  s('markup, attributes, entities, numbers, dates, author, slug and meta are not searched', async ({ store, search }) => {
    await seedMatching(store)
    assert.equal(await find(search, 'hidden'), ['m6'])
    assert.equal(await find(search, 'hidden text more'), ['m6'])
    for (const text of ['span', 'marker', 'amp', '12345', '2031', 'zebediah', 'quill', 'xyzzy', 'plover']) {
      assert.equal(await find(search, text), [], text)
    }
  })

  s('a query of several terms counts an item once, and its hits carry positive scores', async ({ store, search }) => {
    await seedMatching(store)
    const result = await search.search(T, aSearchQuery('office office offic'))
    assert.is(result.total, 2)
    assert.equal(hitIds(result).sort(), ['m1', 'm7'])
    for (const hit of result.hits) assert.ok(hit.score > 0, `${hit.id} scores ${hit.score}`)
  })

  s.run()
}
