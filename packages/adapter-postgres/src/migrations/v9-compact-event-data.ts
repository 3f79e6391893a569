/**
 * Schema version 9 changes no table: from it on, the data of a content event may be stored as
 * a JSON array of its values (`encodeEventData` in core), which a frontdesk before it would
 * read and deliver as an array. The version keeps such a program from opening the database.
 */
export const V9_COMPACT_EVENT_DATA = `SELECT 1;`
