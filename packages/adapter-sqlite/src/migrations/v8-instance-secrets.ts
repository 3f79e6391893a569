/**
 * Schema version 8: secrets of the installation (`Store.instanceSecret`), such as the key that
 * signs list cursors. One row per name, written once and never changed: every process that
 * opens the file reads the same value, and it survives restarts.
 */
export const V8_INSTANCE_SECRETS = `
CREATE TABLE instance_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
`
