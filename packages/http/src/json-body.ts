import { duplicateJsonKey, RequestRefusedError, ValidationError } from '@frontdesk/core'

const JSON_MEDIA_TYPE = /^application\/json\s*(?:;(.*))?$/i

/**
 * Checks that a `Content-Type` announces JSON: `application/json`, optionally with
 * `charset=utf-8` (JSON is UTF-8, RFC 8259). Throws 415 `UNSUPPORTED_MEDIA_TYPE` otherwise.
 */
export function assertJsonMediaType(contentType: string | undefined): void {
  const match = contentType === undefined ? null : JSON_MEDIA_TYPE.exec(contentType.trim())
  const params = match?.[1]
  const ok = match !== null && (params === undefined || params.split(';').every(isAllowedParameter))
  if (!ok) throw new RequestRefusedError('UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json')
}

/**
 * Checks that a body comes as it is: no `Content-Encoding`, or `identity`. The server decodes
 * no content coding, and a compressed body read as JSON would only be refused later, less
 * clearly; throws 415 `UNSUPPORTED_MEDIA_TYPE` naming the coding (RFC 9110 §8.4.1).
 */
export function assertNoContentCoding(contentEncoding: string | undefined): void {
  if (contentEncoding === undefined) return
  const codings = contentEncoding.split(',').map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== '' && coding !== 'identity')
  if (codings.length === 0) return
  throw new RequestRefusedError('UNSUPPORTED_MEDIA_TYPE', 'Content-Encoding is not supported: send the body uncompressed')
}

function isAllowedParameter(parameter: string): boolean {
  const [name = '', value = ''] = parameter.split('=').map((part) => part.trim().toLowerCase())
  if (name === '' && value === '') return true
  return name === 'charset' && (value === 'utf-8' || value === '"utf-8"' || value === 'utf8')
}

/**
 * Parses a JSON request body. Invalid UTF-8 or JSON is a 400 `VALIDATION_ERROR` on field `body`;
 * a key given twice in one object is a 400 on that key's path (see `duplicateJsonKey`).
 * `JSON.parse` only ever creates own data properties (a `__proto__` key stays a plain key), and
 * core validates the value before using it, so nothing is merged into existing objects.
 */
export function parseJsonBody(bytes: Buffer): unknown {
  let text: string
  let value: unknown
  try {
    // Hint: TextDecoder drops a leading byte-order mark, which RFC 8259 lets parsers ignore.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    value = JSON.parse(text)
  } catch (cause) {
    throw new ValidationError([{ field: 'body', message: 'must be valid JSON' }], { cause })
  }
  const duplicate = duplicateJsonKey(text)
  if (duplicate !== null) throw new ValidationError([{ field: duplicate, message: 'is given more than once' }])
  return value
}
