import fc from 'fast-check'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { newId } from './ids.ts'

const test = suite('newId')

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz'
const timeOf = (id: string) => [...id.slice(4, 14)].reduce((ms, c) => ms * 32 + CROCKFORD.indexOf(c), 0)

test('ids sort in the order they were made, with the latest time given so far, many within one millisecond or with the clock going back', () => {
  // Hint: an id made for time 0 carries the latest time given so far in this process (other tests' clocks).
  let base = Math.max(Date.now(), timeOf(newId('evt', 0)))
  fc.assert(
    fc.property(fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 300 }), (steps) => {
      base += 10
      let now = base
      let latest = -1
      let previous = ''
      for (const step of steps) {
        now += step
        latest = Math.max(latest, now)
        const id = newId('evt', now)
        assert.match(id, /^evt_[0-9a-hjkmnp-tv-z]{26}$/)
        assert.is(timeOf(id), latest)
        assert.ok(id > previous, `${id} after ${previous}`)
        previous = id
      }
      base = latest
    }),
    { numRuns: 100 },
  )
})

test.run()
