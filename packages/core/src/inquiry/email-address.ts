/** The longest address accepted, in characters (RFC 5321's path limit minus the brackets). */
export const EMAIL_MAX_LENGTH = 254

const LOCAL_MAX_LENGTH = 64
const DOMAIN_MAX_LENGTH = 253
const LABEL_MAX_LENGTH = 63
// RFC 5322 `atext`: the characters of an unquoted local part, between single dots.
const LOCAL_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/
// A domain label: letters (any script, for internationalised domains), digits, marks, inner hyphens.
const LABEL = /^[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}-]*[\p{L}\p{N}\p{M}])?$/u
// The top-level label: letters only (two or more), or an ASCII A-label (`xn--…`).
const TOP_LABEL = /^(?:\p{L}[\p{L}\p{M}]+|xn--[a-z0-9-]+)$/iu

/**
 * Whether `address` is an e-mail address frontdesk accepts for an inquirer. The rule is the
 * one mail forms commonly use, stricter than RFC 5322 where the RFC allows what no reply can
 * reach, and open to internationalised domain names:
 *
 * - at most 254 characters, exactly one `@`, no spaces or control characters;
 * - local part: 1–64 characters of RFC 5322 `atext` (ASCII letters, digits and
 *   `` !#$%&'*+/=?^_`{|}~- ``) in dot-separated atoms (no leading, trailing or double dot);
 *   quoted local parts (`"a b"@x.jp`) and non-ASCII local parts are refused;
 * - domain: at most 253 characters, at least two dot-separated labels of 1–63 letters, digits
 *   or inner hyphens (any script, so `例え.jp` passes); the last label is alphabetic (2+) or
 *   an `xn--` A-label; IP-literal domains (`user@[10.0.0.1]`) are refused.
 *
 * The address is not lower-cased: a local part may be case-sensitive.
 */
export function isEmailAddress(address: string): boolean {
  if (address.length === 0 || [...address].length > EMAIL_MAX_LENGTH) return false
  const at = address.indexOf('@')
  if (at <= 0 || at !== address.lastIndexOf('@')) return false
  const local = address.slice(0, at)
  const domain = address.slice(at + 1)
  if (local.length > LOCAL_MAX_LENGTH || !local.split('.').every((atom) => LOCAL_ATOM.test(atom))) return false
  if (domain.length === 0 || [...domain].length > DOMAIN_MAX_LENGTH) return false
  const labels = domain.split('.')
  const top = labels[labels.length - 1] ?? ''
  if (labels.length < 2 || !TOP_LABEL.test(top)) return false
  return labels.every((label) => [...label].length <= LABEL_MAX_LENGTH && LABEL.test(label))
}
