/**
 * Schema version 7: each tenant's synonyms, one row holding the whole set (its lines, as core
 * checked them). A set is replaced whole, in one write, and read whole by searches (once per
 * revision of the tenant); a tenant without synonyms has no row.
 */
export const V7_SYNONYMS = `
CREATE TABLE synonym_sets (
  tenant_id text COLLATE "C" PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  lines text[] NOT NULL
);
`
