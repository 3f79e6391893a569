/**
 * Schema version 2: secrets of the installation (`Store.instanceSecret`), e.g. the key that
 * signs list cursors, so that every process on the database signs and checks alike.
 */
export const V2_INSTANCE_SECRETS = `
CREATE TABLE instance_secrets (
  name text COLLATE "C" PRIMARY KEY,
  value text NOT NULL
);
`
