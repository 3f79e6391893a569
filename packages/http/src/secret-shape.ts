/**
 * Anything shaped like a frontdesk secret: a tenant or personal key (`fdk_`, `fdp_`) or a
 * preview token (`fdv_`) followed by 8 or more base62 characters, in any letter case (a
 * mangled key is still a key to keep out of logs). Matches anywhere in a text.
 */
export const SECRET_SHAPE = /fd[kpv]_[0-9a-z]{8,}/gi

/** Whether `text` holds something shaped like a key or token (see `SECRET_SHAPE`). */
export function looksSecret(text: string): boolean {
  SECRET_SHAPE.lastIndex = 0
  return SECRET_SHAPE.test(text)
}
