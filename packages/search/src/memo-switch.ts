// Hint: one switch for the whole product, defined in core (`FRONTDESK_NO_MEMO`).
export { memoByDefault, NO_MEMO_VARIABLE } from '@frontdesk/core'
